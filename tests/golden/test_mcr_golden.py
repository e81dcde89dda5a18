"""MCR hands scored by mjscore must match PyMahjongGB's recorded answers exactly.

PyMahjongGB (the reference calculator for MCR, docs/rulings.md#mcr-reference) builds
C++ at install time, so the default test run does not need it: its answers on the
differential hands (~4,000 seeded random winning hands across every shape and context,
from ``tests/helpers/mcr_hands.py``) are committed in ``tests/data/mcr_oracle.jsonl`` with the
version that gave them, by ``python -m tests.tools.regen_mcr_oracle``. For each hand the
total fan and the fans with their counts must be the same. A hand below 8 fan
is compared on the fans found (the engine still reports them in ``NotAWin.details``).
The live comparison is ``python -m pytest -m oracle`` (tests/golden/test_mcr_oracle.py).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from scorer.errors import ContextError, NotAWin
from scorer.model.notation import parse_hand
from tests.conftest import run_line
from tests.helpers.mcr_hands import ORACLE_IDS

DATA = Path(__file__).resolve().parents[1] / "data" / "mcr_oracle.jsonl"
SHAPES = {"standard", "seven_pairs", "thirteen_orphans", "honors_knitted",
          "knitted_straight", "knitted_meld", "nine_gates", "dense"}


def load() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The data file's header and its records (one per hand)."""
    header, *rows = (json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines())
    return header, rows


def ours(line: str) -> tuple[int, dict[str, int]]:
    """mjscore's total fan and {pattern id: count} for ``HAND --flags`` under mcr."""
    try:
        result = run_line(line, "mcr")
    except NotAWin as e:  # below the minimum: the fans found come with the error
        result = e.details  # type: ignore[assignment]
        assert result is not None, f"{line}: {e}"
    return result.best.score, {h.pattern.id: h.count for h in result.best.hits}


def theirs(row: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """The recorded oracle answer as (total, {pattern id: count})."""
    return row["total"], {ORACLE_IDS[en]: count for en, _points, count in row["fans"]}


def test_data_file_is_the_differential_set() -> None:
    header, rows = load()
    assert header["oracle"].startswith("PyMahjongGB ")
    assert len(rows) == 4000
    # the set covers every shape the generator knows, and every fan (81 and 明暗杠)
    assert {r["shape"] for r in rows} == SHAPES
    seen = {en for r in rows for en, _, _ in r["fans"]}
    assert set(ORACLE_IDS) - seen == set()
    # and the recorded totals are the oracle's own sums
    assert all(r["total"] == sum(p * n for _, p, n in r["fans"]) for r in rows)


def impossible(row: dict[str, Any]) -> str | None:
    """Why the row's claims cannot all be true of one win, or None
    (docs/rulings.md#common-impossible-claims). The reference scores such claims (it
    drops 抢杠和 or 和绝张 without a word); mjscore refuses them, so they are not compared.

    >>> impossible({"hand": "123m456p789s234sEE", "context": "--from S --robbing-kong"})
    'robbed another copy'
    """
    flags = row["context"].split()
    h = parse_hand(row["hand"])
    if "--robbing-kong" in flags and "--last-tile" in flags:
        return "robbed on the last tile"
    if "--robbing-kong" in flags and h.physical_counts()[h.winning] > 1:
        return "robbed another copy"
    if "--fourth-tile" in flags and h.winning in h.concealed:
        return "fourth tile with a concealed copy"
    return None


def test_agrees_with_recorded_pymahjonggb() -> None:
    _, rows = load()
    problems = []
    fans: Counter[str] = Counter()
    refused = 0
    for r in rows:
        line = f"{r['hand']} {r['context']}"
        want_total, want = theirs(r)
        if impossible(r):
            try:
                ours(line)
            except ContextError as e:
                refused += 1
                assert e.exit_code == 2
                continue
            problems.append(f"{line}: scored, but its claims cannot all be true "
                            f"({impossible(r)})")
            continue
        total, got = ours(line)
        fans.update(got)
        if total != want_total or got != want:
            problems.append(f"{line}: ours {total} {sorted(got.items())}, "
                            f"PyMahjongGB {want_total} {sorted(want.items())}")
    assert not problems, f"{len(problems)} of {len(rows)} disagree:\n" + "\n".join(problems[:20])
    assert set(ORACLE_IDS.values()) - set(fans) == set()
    # most hands are compared: the generator claims 抢杠和 and 和绝张 at random
    assert refused < len(rows) // 8, refused
