"""Live differential test: MCR hands scored by mjscore and by PyMahjongGB must agree exactly.

Runs only with ``pip install ".[oracle]" && python -m pytest -m oracle`` (PyMahjongGB
builds C++ at install; the default run deselects the ``oracle`` marker and checks the
recorded answers instead, tests/golden/test_mcr_golden.py). It compares mjscore with the live
oracle on the generated hands, and checks that tests/data/mcr_oracle.jsonl is still what
the installed PyMahjongGB answers (if not, rerun ``python -m tests.tools.regen_mcr_oracle``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.golden.test_mcr_golden import impossible, load, ours
from tests.helpers.mcr_hands import ORACLE_IDS, generate, oracle
from tests.tools.regen_mcr_oracle import N_HANDS, SEED, records

pytestmark = pytest.mark.oracle


def test_agrees_with_pymahjonggb() -> None:
    cases = generate(N_HANDS, seed=SEED)
    seen: Counter[str] = Counter()
    problems = []
    for c in cases:
        hand, _, flags = c.line.partition(" ")
        if impossible({"hand": hand, "context": flags}):
            continue  # refused by mjscore (tests/golden/test_mcr_golden.py checks it)
        want_total, want = oracle(c.oracle_args)
        total, got = ours(c.line)
        seen.update(want)
        if total != want_total or got != want:
            problems.append(f"{c.line}: ours {total} {sorted(got.items())}, "
                            f"PyMahjongGB {want_total} {sorted(want.items())}")
    assert not problems, f"{len(problems)} of {N_HANDS} disagree:\n" + "\n".join(problems[:20])
    # and the set exercises every fan (81 and 明暗杠)
    missing = set(ORACLE_IDS.values()) - set(seen)
    assert not missing, sorted(missing)


def test_recorded_answers_are_current() -> None:
    header, rows = load()
    live_header, *live = records(N_HANDS, SEED)
    assert header["generator"] == live_header["generator"]
    stale = [f"{r['hand']} {r['context']}" for r, now in zip(rows, live, strict=True) if r != now]
    assert not stale, (f"{len(stale)} recorded answers differ from {live_header['oracle']} "
                       f"(recorded with {header['oracle']}); first: {stale[:5]}")
