"""Instructions per steady hand, counted by valgrind's cachegrind: an A/B that noise cannot move.

On a shared machine a timed ratio moves by ±25 % between runs (benchmarks/run.py takes the
best of several runs in turn for that reason), too much to tell a 3 % change from none.
The number of instructions a steady pass executes does not depend on what else runs: this
script counts them for this tree's scorer (the one the interpreter imports) and, with
``--against DIR``, for another checkout (its source, pure Python), or with
``--against-python PY``, for the scorer another interpreter imports (a venv with another
build installed: compiled against compiled), on the same generated hands as
benchmarks/run.py (0-2 wildcards, 100 hands per wildcard count by default). ``--path
record`` counts a batch worker's line instead of ``score()``: flags, score and the JSON
line written from its remembered fragments; ``--path distinct`` the same on hands met
for the first time (a file of distinct hands: what the caches cannot hide); ``--path
batch`` the lines as a file through ``mjscore batch --jobs 1``'s run, to set beside
``record`` (what the batch parent adds to a line).

    python benchmarks/instructions.py --rulesets mcr,hangzhou --against /tmp/old

Each figure is (instructions of a child that scores the hands once and then PASSES more
times, minus those of one that scores them once) / (PASSES × hands): start-up, imports
and the cold pass cancel out. valgrind must be on PATH (Debian: ``apt-get install
valgrind``); a child runs about 50 times slower under it (10-20 s a ruleset here).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The child: this tree's or another checkout's scorer, the benchmark's hands, `passes`
# steady passes after the cold one. Prints the number of hands.
_CHILD = """
import sys
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
import scorer
sys.path.insert(1, sys.argv[2])
import run
from scorer import load_ruleset, score
from scorer.errors import MjscoreError
rid, hands, passes, path = sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]


def hand_lines(seed):
    return [x for w, ls in run.gen_lines(rid, hands, seed).items() if w <= 2 for x in ls]


lines = hand_lines(2026)
# distinct: each counted pass scores hands not met before (both children make them all)
fresh = [hand_lines(2027 + k) for k in range(int(sys.argv[7]))] if path == "distinct" else []
rs = load_ruleset(rid)
jobs = [(x.split()[0], run.context_from(x.split()[1:])) for x in lines]
if path in ("record", "distinct"):  # a batch worker's line: flags, score, the JSON line
    from scorer.lines.records import _score_chunk
    for k in range(1 + passes):
        for n, line in enumerate(fresh[k - 1] if path == "distinct" and k else lines, 1):
            _score_chunk([(n, line, None)], ["--rules", rid], "zh", "jsonl")
if path == "batch":  # the same lines as a file, through `mjscore batch FILE --jobs 1`'s run
    import os
    import tempfile
    from scorer.cli import batchrun
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(chr(10).join(lines) + chr(10))
    with open(os.devnull, "w") as out:
        for _ in range(1 + passes):
            batchrun.run(f.name, ["--rules", rid], jobs=1, out=out, err=out, progress=False)
    os.unlink(f.name)
for _ in range(1 + passes if path == "score" else 0):
    for hand, ctx in jobs:
        try:
            score(hand, rs, ctx)
        except MjscoreError:
            pass
print(len(jobs), scorer.__file__)
"""
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def counted(python: str, tree: str, rid: str, hands: int, passes: int, path: str = "score",
            made: int = 0) -> tuple[int, int, str]:
    """(instructions, hands, the scorer imported) of one child under cachegrind; ``made``
    sets of distinct hands are made by both children of a figure (path distinct)."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           python, "-c", _CHILD, tree, str(HERE), rid, str(hands), str(passes), path, str(made)]
    # what the two children of a figure do apart from the passes must be the same, so
    # that it cancels: one hash seed (with random ones dict layouts, and so the count,
    # move); the pattern loop generated when the ruleset is loaded (after 512 readings it
    # fell inside or outside the counted passes); no cache of built rulesets (one child
    # would load the entry the other wrote, or another build's child had replaced)
    env = {**os.environ, "PYTHONHASHSEED": "0", "MJSCORE_CODEGEN": "eager",
           "MJSCORE_NO_CACHE": "1"}
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    m = _REFS.search(out.stderr)
    if out.returncode != 0 or m is None:
        sys.exit(f"instructions: the child for {rid} failed:\n{out.stderr[-2000:]}")
    n, where = out.stdout.split()[-2:]
    return int(m.group(1).replace(",", "")), int(n), where


def per_hand(python: str, tree: str, rid: str, hands: int, passes: int, path: str = "score"
             ) -> tuple[float, str]:
    """Instructions per steady hand of ``tree`` ("" for the scorer ``python`` imports)."""
    base, n, where = counted(python, tree, rid, hands, 0, path, passes)
    more, _, _ = counted(python, tree, rid, hands, passes, path, passes)
    return (more - base) / (passes * n), where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="mcr,hangzhou,jinhua,xiamen")
    ap.add_argument("--hands", type=int, default=100, help="hands per wildcard count")
    ap.add_argument("--passes", type=int, default=3, help="steady passes counted")
    ap.add_argument("--path", choices=("score", "record", "distinct", "batch"), default="score",
                    help="score(): the hand alone; record: a batch worker's line (flags, "
                         "score, the JSON line: benchmarks/run.py's time_records); distinct: "
                         "the same on hands not met before (each counted pass new ones); batch: the lines "
                         "as a file through `mjscore batch --jobs 1` (the record's work and the "
                         "parent's: reading, writing, counting)")
    other = ap.add_mutually_exclusive_group()
    other.add_argument("--against", metavar="DIR", help="another checkout, counted the same way")
    other.add_argument("--against-python", metavar="PY",
                       help="another interpreter (a venv with another build of mjscore)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not on PATH (Debian: apt-get install valgrind)")
    for rid in args.rulesets.split(","):
        mine, where = per_hand(sys.executable, "", rid, args.hands, args.passes, args.path)
        line = f"{rid}: {mine:,.0f} instructions a steady hand ({Path(where).parent})"
        if args.against or args.against_python:
            theirs, there = per_hand(args.against_python or sys.executable,
                                     str(Path(args.against).resolve()) if args.against else "",
                                     rid, args.hands, args.passes, args.path)
            line += (f"; {theirs:,.0f} in {Path(there).parent}: theirs over this tree's "
                     f"×{theirs / mine:.3f}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
