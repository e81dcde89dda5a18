"""Properties of batch totals over random evenings: any hands of the example files, any
seatings (given by '# players:' lines and by a line's --players), any stake.

The oracle is the records themselves: each player's won, lost and net are summed here from
every record's payments and seating, apart from the ledger; the transfers must bring every
net to zero in at most players − 1 steps.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.lines.pool import score_many
from scorer.table.ledger import Builder

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ("Ann", "Bo", "Cy", "Di", "Eve")


@functools.cache
def _hands() -> tuple[str, ...]:
    """Every example hand that scores, with its ruleset on the line."""
    out = []
    for rules in ("hangzhou", "jinhua", "xiamen", "mcr", "sichuan"):
        for text in (EXAMPLES / f"{rules}.txt").read_text(encoding="utf-8").splitlines():
            hand = text.split("#")[0].strip()
            if hand:
                out.append(f"{hand} --rules {rules}")
    recs = list(score_many(out))
    return tuple(line for line, r in zip(out, recs, strict=True) if r.ok)


seatings = st.permutations(NAMES).map(lambda p: ",".join(p[:4]))
evening = st.lists(st.tuples(st.sampled_from(range(200)), st.sampled_from(("header", "line",
                                                                            "none")), seatings),
                   min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(evening, seatings, st.sampled_from(("1", "2", "0.5", "0.25")))
def test_totals_are_the_sums_and_the_transfers_settle(plan: list[tuple[int, str, str]],
                                                     start: str, stake: str) -> None:
    hands = _hands()
    lines = []
    for pick, how, seating in plan:
        hand = hands[pick % len(hands)]
        if how == "header":
            lines += [f"# players: {seating}", hand]
        elif how == "line":
            lines.append(f"{hand} --players {seating}")
        else:
            lines.append(hand)
    b = Builder()
    expected: dict[str, list[int]] = {}
    for rec in score_many(lines, ["--players", start]):
        assert rec.ok, rec.error
        b.add(rec, None)
        names = rec.data["players"]
        for seat, pts in rec.data["payments"].items():
            if pts:
                expected.setdefault(names[seat], []).append(pts)
    k = Fraction(stake)
    t = b.ledger().totals(stake)
    got = {r.name: (r.won, r.lost, r.net) for r in t.rows if r.won or r.lost}
    assert got == {n: (k * sum(p for p in v if p > 0), -k * sum(p for p in v if p < 0),
                       k * sum(v)) for n, v in expected.items()}
    left = {r.name: r.net for r in t.rows}
    for x in t.transfers:
        assert x.amount > 0
        left[x.payer] += x.amount
        left[x.payee] -= x.amount
    assert set(left.values()) <= {0}
    assert len(t.transfers) <= max(len(t.rows) - 1, 0)
    assert t.hands == len(plan)
    assert list(itertools.chain(t.failed, t.disputed)) == []
