"""Differential test: MCR hands scored by mjscore and by PyMahjongGB must agree exactly.

PyMahjongGB (a test-only dependency) is the reference calculator RULES.md names for
MCR. ``tests/mcr_hands.py`` generates seeded random winning hands across every shape
and context; for each, the total fan and the list of fans with their counts must be the
same. A hand below the 8-fan minimum is compared on the fans found (the engine still
reports them in ``NotAWin.details``).
"""

from __future__ import annotations

from collections import Counter

from scorer.errors import NotAWin

from .conftest import run_line
from .mcr_hands import ORACLE_IDS, generate, oracle

N_HANDS = 4000  # ~4 s here; the seed makes the set the same on every run


def _ours(line: str) -> tuple[int, dict[str, int]]:
    try:
        result = run_line(line, "mcr")
    except NotAWin as e:  # below the minimum: the fans found come with the error
        result = e.details  # type: ignore[assignment]
        assert result is not None, f"{line}: {e}"
    return result.best.score, {h.pattern.id: h.count for h in result.best.hits}


def test_agrees_with_pymahjonggb() -> None:
    cases = generate(N_HANDS, seed=20240601)
    shapes = Counter(c.shape for c in cases)
    # the set covers every shape the generator knows
    assert set(shapes) == {"standard", "seven_pairs", "thirteen_orphans", "honors_knitted",
                           "knitted_straight", "knitted_meld", "nine_gates", "dense"}, shapes
    seen: Counter[str] = Counter()
    problems = []
    for c in cases:
        want_total, want = oracle(c.oracle_args)
        total, got = _ours(c.line)
        seen.update(want)
        if total != want_total or got != want:
            problems.append(f"{c.line}: ours {total} {sorted(got.items())}, "
                            f"PyMahjongGB {want_total} {sorted(want.items())}")
    assert not problems, f"{len(problems)} of {N_HANDS} disagree:\n" + "\n".join(problems[:20])
    # and the set exercises every fan (81 and 明暗杠)
    missing = set(ORACLE_IDS.values()) - set(seen)
    assert not missing, sorted(missing)
