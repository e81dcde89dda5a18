"""A mixed evening: one process scoring six rulesets' lines in turn, against each one alone.

    python benchmarks/mixed.py [--hands N] [--rounds R] [--rulesets a,b,...]

What ``serve`` and a batch file across rulesets do: the caches (the named memos of
scorer.memo, each ruleset's plan) must keep every ruleset's working set, not thrash. For
each ruleset it prints the CPU µs a line of a batch worker's work (flags, score, the JSON
line: :func:`run.time_records`'s unit) in a steady state

- *alone*: a process (a child of this one) that scores that ruleset's lines only;
- *mixed*: a process that scores all the rulesets' lines interleaved (a line of each in
  turn), the figure being that ruleset's lines only;

each the best of R steady passes after one that fills the caches, and mixed over alone
(the target: at most 1.2), with each process's peak RSS. Hands: N distinct lines a
ruleset (0-2 wildcards), seeded.

Timed figures on a shared machine move by ±20 % between runs. ``--instructions`` counts
instead, under valgrind's cachegrind (as benchmarks/instructions.py does: a child with R
steady passes minus one with none, over R × lines): the instructions a steady line of all
the rulesets costs in the mixed process against the same lines scored alone. A cache that
thrashed in the mixed process would show as more work there; what the count cannot see is
the processor's own caches (a mixed process touches more code and data), which only the
timed figures show.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import run  # noqa: E402
from gen import winning_hand  # noqa: E402

from scorer.lines.records import _score_chunk  # noqa: E402

# the rulesets run.py does not generate hands for: two suits only in Sichuan (no honors)
EXTRA = {
    "sichuan": (["--self-draw"], frozenset(range(18, 34))),
    "sichuan-xueliu": (["--self-draw"], frozenset(range(18, 34))),
    "mcr-house": (["--self-draw"], frozenset()),
}
DEFAULT = "mcr,hangzhou,jinhua,xiamen,sichuan,mcr-house"


def lines_of(rid: str, n: int, seed: int) -> list[str]:
    """``n`` seeded hand lines of ruleset ``rid`` (0-2 wildcards, as many of each)."""
    if rid in run.SETUPS:
        kinds = min(run.SETUPS[rid].max_wilds, 2) + 1
        sets = run.gen_lines(rid, -(-n // kinds), seed)
        return [x for w in range(kinds) for x in sets[w]][:n]
    flags, exclude = EXTRA[rid]
    rng = random.Random(seed)
    return [" ".join([winning_hand(rng, sets=4, wilds=0, wild_face=33, seven_pairs=0.1,
                                   exclude=exclude).text, *flags]) for _ in range(n)]


def passes(jobs: list[tuple[str, str]], rounds: int) -> dict[str, float]:
    """{ruleset: CPU seconds of its lines}, the best of ``rounds`` passes after a first one."""
    best: dict[str, float] = {}
    for k in range(1 + rounds):
        spent = dict.fromkeys(best or {rid for rid, _ in jobs}, 0.0)
        clock = time.process_time
        for n, (rid, line) in enumerate(jobs, 1):
            t = clock()
            _score_chunk([(n, line, None)], ["--rules", rid], "zh", "jsonl")
            spent[rid] += clock() - t
        if k:
            best = {r: min(v, best.get(r, v)) for r, v in spent.items()}
    return best


def child(rids: list[str], hands: int, rounds: int, seed: int) -> None:
    """Score the rulesets' lines (interleaved when several) and print, as JSON, each one's
    CPU seconds and the process's peak RSS in KiB."""
    lines = {rid: lines_of(rid, hands, seed) for rid in rids}
    spent = passes([(rid, lines[rid][i]) for i in range(hands) for rid in rids], rounds)
    print(json.dumps({"cpu": spent, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))


def measured(rids: list[str], args: argparse.Namespace) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--child", "--rulesets", ",".join(rids),
           "--hands", str(args.hands), "--rounds", str(args.rounds), "--seed", str(args.seed)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(rids: list[str], args: argparse.Namespace, rounds: int) -> int:
    """Instructions of a child scoring ``rids``' lines (interleaved) with ``rounds`` steady
    passes after the first, under cachegrind; the settings that make two children's
    counts cancel are benchmarks/instructions.py's (one hash seed, eager codegen, no
    cache of built rulesets)."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", "--rulesets", ",".join(rids),
           "--hands", str(args.hands), "--rounds", str(rounds), "--seed", str(args.seed)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "MJSCORE_CODEGEN": "eager",
           "MJSCORE_NO_CACHE": "1"}
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    m = _REFS.search(out.stderr)
    if out.returncode != 0 or m is None:
        sys.exit(f"mixed: the child for {rids} failed:\n{out.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def per_line(rids: list[str], args: argparse.Namespace) -> float:
    """Instructions a steady line of ``rids`` scored in one process (interleaved)."""
    more, base = instructions(rids, args, args.rounds), instructions(rids, args, 0)
    return (more - base) / (args.rounds * args.hands * len(rids))


def count(rids: list[str], args: argparse.Namespace) -> None:
    """Print each ruleset's instructions a steady line alone, and the mixed process's
    against the mean of them."""
    if shutil.which("valgrind") is None:
        sys.exit("mixed: valgrind is not on PATH (Debian: apt-get install valgrind)")
    alone = {}
    for rid in rids:
        alone[rid] = per_line([rid], args)
        print(f"  {rid:15s} alone {alone[rid]:12,.0f} instructions a steady line", flush=True)
    mixed = per_line(rids, args)
    mean = sum(alone.values()) / len(alone)
    print(f"  all lines       alone {mean:12,.0f}   mixed {mixed:12,.0f}   mixed/alone "
          f"×{mixed / mean:.3f} ({args.hands} lines a ruleset, {args.rounds} steady pass(es))")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000, help="distinct lines a ruleset")
    ap.add_argument("--rounds", type=int, default=2, help="steady passes, the best kept")
    ap.add_argument("--rulesets", default=DEFAULT)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions under cachegrind instead of timing")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rids = args.rulesets.split(",")
    if args.child:
        child(rids, args.hands, args.rounds, args.seed)
        return
    if args.instructions:
        count(rids, args)
        return
    alone = {rid: measured([rid], args) for rid in rids}
    mixed = measured(rids, args)
    worst = 0.0
    print(f"{args.hands} lines a ruleset, CPU µs a line (best of {args.rounds} steady passes), "
          "peak RSS")
    total_a = total_m = 0.0
    for rid in rids:
        a_cpu = alone[rid]["cpu"][rid]  # type: ignore[index]
        m_cpu = mixed["cpu"][rid]  # type: ignore[index]
        total_a += a_cpu
        total_m += m_cpu
        a, m = a_cpu / args.hands * 1e6, m_cpu / args.hands * 1e6
        worst = max(worst, m / a)
        print(f"  {rid:15s} alone {a:8.1f} µs {alone[rid]['rss'] / 1024:6.1f} MiB   "
              f"mixed {m:8.1f} µs   mixed/alone ×{m / a:.2f}")
    n = len(rids) * args.hands
    print(f"  all lines       alone {total_a / n * 1e6:8.1f} µs   mixed {total_m / n * 1e6:8.1f} µs "
          f"{mixed['rss'] / 1024:6.1f} MiB   mixed/alone ×{total_m / total_a:.2f}; worst "  # type: ignore[operator]
          f"ruleset ×{worst:.2f} (target ≤ 1.2)")


if __name__ == "__main__":
    main()
