"""Which speed twins pay: each fast path's worth, as instructions of the path it serves.

A speed twin is a behaviour written twice: a fast path, and the reference a test holds it
to (tests/twins/). The project keeps a fast twin only where it is worth at least 10 % of
the path it serves. For each twin this script counts, under valgrind's cachegrind (an A/B
that the shared machine's noise cannot move, see benchmarks/instructions.py), the
instructions of that path on the benchmark's hands with the fast twin in use ("on") and
with it replaced by its reference ("off"), and prints off over on:

    python benchmarks/twins.py [--rulesets mcr,hangzhou] [--twins scan,keyed]

Paths: ``score`` a steady ``score()`` of a hand from its text; ``cold`` the same with the
named memos emptied before every pass (decompositions met for the first time); ``waits``
(``cold-waits``) ``tiles_waited()`` of the hands without their last tile; ``record``
a batch worker's line (flags, score, JSON line), steady; ``start`` one whole
``mjscore score`` process (its instructions, start-up included). benchmarks/run.py
``--twins`` prints the same figures.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Twin:
    """A fast path, the path it serves, and the code that replaces it by its reference."""

    what: str
    paths: tuple[str, ...]
    off: str  # Python run in the child before the path: the reference takes over
    env_off: tuple[tuple[str, str], ...] = ()


TWINS: dict[str, Twin] = {
    "scan": Twin("model.notation._scan, the one-pass scanner of well-formed hands (reference: "
                 "_parse_normal)", ("score", "record"),
                 "import scorer.model.notation as N; N._scan = lambda text: None"),
    "codegen": Twin("the pattern loop generated as one function (reference: the closures)",
                    ("score",), "", (("MJSCORE_CODEGEN", "off"),)),
    "keyed": Twin("readings scored by the values they read (reference: every reading "
                  "evaluated, scoring.KEYED off)", ("score",),
                  "import scorer.engine.scoring as S; S.KEYED = False"),
    "exists": Twin("search.decompose.standard_exists, the standard shape's existence without "
                   "its groups (reference: standard())", ("waits", "cold-waits"),
                   "import scorer.search.decompose as D\n"
                   "D.standard_exists = lambda c, j, s: bool(D.standard(c, j, s))"),
    "context": Twin("the context's input errors worked out once per context (reference: "
                    "for every hand)", ("score",),
                    "import scorer.engine.scoring as S\n_check = S._check_input\n"
                    "def _every(h, rs, table):\n    table.memo.pop('errors', None)\n"
                    "    return _check(h, rs, table)\nS._check_input = _every"),
    "persuit": Twin("search.decompose.standard by suit, with its chow table (reference: the "
                    "whole-hand search, _standard_search)", ("cold",),
                    "import scorer.search.decompose as D\n"
                    "D._compute_standard = lambda c, j, s: (D._standard_search(c, j, s) "
                    "if sum(c) + j == 2 + 3 * s else ())"),
    "json": Twin("views.jsontext, the JSON line from remembered fragments (reference: "
                 "to_json and the encoder)", ("record",), "ENCODED = False"),
    "render": Twin("views.pieces._render's memo of rendered formulas (reference: render())",
                   ("record",),
                   "import scorer.views.pieces as R\n"
                   "R._render = lambda rs, c, env, lang, lab: R.render(c, env, lab(rs, lang))"),
    "entry": Twin("cli.entry's path without typer for a well-formed line (reference: the "
                  "typer app)", ("start",), "FAST = False"),
}

# The child: the benchmark's hands, the twin switched off if asked, the path run once
# (filling caches) and then PASSES more times. Prints the number of hands.
_CHILD = r"""
import sys
tree, here, rid, hands, passes, path, off = sys.argv[1:8]
hands, passes = int(hands), int(passes)
sys.path.insert(0, here)
ENCODED, FAST = True, True
exec(off)
import run
from scorer import load_ruleset, score
from scorer.errors import MjscoreError
sets = run.gen_lines(rid, hands, 2026)
lines = [x for w, ls in sets.items() if w <= 2 for x in ls]
rs = load_ruleset(rid)
jobs = [(x.split()[0], run.context_from(x.split()[1:])) for x in lines]

def scored():
    for hand, ctx in jobs:
        try:
            score(hand, rs, ctx)
        except MjscoreError:
            pass

if path in ("score", "cold"):
    from scorer.memo import clear_all
    for _ in range(1 + passes):
        if path == "cold":
            clear_all()
        scored()
elif path == "record":
    from scorer.lines.records import score_record
    from scorer.views.jsontext import jsonl_line
    from scorer.views.rows import record_text
    for _ in range(1 + passes):
        for n, line in enumerate(lines, 1):
            rec = score_record(line, ["--rules", rid], n, "zh", None, ENCODED)
            if ENCODED:
                jsonl_line(rec)
            else:
                record_text(rec, "jsonl")
elif path in ("waits", "cold-waits"):  # the hands without their last tile: their waits
    from scorer.engine.ready import tiles_waited
    from scorer.memo import clear_all

    def short_of(t):
        if t[-1] in "mps":
            body = t[:-2]
            return body + t[-1] if body and body[-1].isdigit() else body
        return t[:-1]
    short = [(short_of(hand), ctx) for hand, ctx in jobs]
    for _ in range(1 + passes):
        if path == "cold-waits":
            clear_all()
        for h, ctx in short:
            try:
                tiles_waited(h, rs, ctx)
            except MjscoreError:
                pass
print(len(jobs))
"""

# One `mjscore score` process (path "start"): the first hand of the benchmark's set.
_START = r"""
import sys
here, rid, off = sys.argv[1:4]
sys.path.insert(0, here)
FAST = True
exec(off)
from scorer.cli.entry import main
import run
sets = run.gen_lines(rid, 1, 2026)
text, *flags = sets[min(sets)][0].split()
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(["score", text, "--rules", rid, *flags], fast=FAST)
    except SystemExit:
        pass
"""
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _counted(code: str, args: list[str], env: dict[str, str]) -> int:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-c", code, *args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    m = _REFS.search(out.stderr)
    if out.returncode != 0 or m is None:
        sys.exit(f"twins: a child failed:\n{out.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def cost(twin: Twin, path: str, rid: str, on: bool, hands: int, passes: int) -> float:
    """Instructions of one run of ``path`` (a hand, a line, a process) with the twin on/off."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "MJSCORE_CODEGEN": "eager",
           "MJSCORE_NO_CACHE": "1"}
    if not on:
        env.update(dict(twin.env_off))
    off = "" if on else twin.off
    if path == "start":
        return float(_counted(_START, [str(HERE), rid, off], env))
    base = _counted(_CHILD, ["", str(HERE), rid, str(hands), "0", path, off], env)
    more = _counted(_CHILD, ["", str(HERE), rid, str(hands), str(passes), path, off], env)
    return (more - base) / passes


def worth(name: str, rid: str, hands: int = 60, passes: int = 2) -> list[tuple[str, float]]:
    """(path, off over on) for each path the twin serves: 1.25 means the fast twin saves a
    fifth of the path's instructions."""
    twin = TWINS[name]
    return [(p, cost(twin, p, rid, False, hands, passes) / cost(twin, p, rid, True, hands, passes))
            for p in twin.paths]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="mcr,hangzhou,jinhua,xiamen")
    ap.add_argument("--twins", default=",".join(TWINS))
    ap.add_argument("--hands", type=int, default=60, help="hands per wildcard count")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("twins: valgrind is not on PATH (Debian: apt-get install valgrind)")
    sys.path.insert(0, str(HERE))
    for name in args.twins.split(","):
        print(f"{name}: {TWINS[name].what}", flush=True)
        for rid in args.rulesets.split(","):
            figs = ", ".join(f"{p} ×{r:.3f}" for p, r in worth(name, rid, args.hands))
            print(f"  {rid}: off over on: {figs}", flush=True)


if __name__ == "__main__":
    main()
