"""Properties of scoring over generated winning hands, for every ruleset in rulesets/.

The hands come from :mod:`tests.helpers.handgen` (random legal shapes, with wildcards where the
ruleset has them). What is checked, per ruleset:

* exact, balanced payments: every payment of every reading considered is an int, they
  sum to zero, the winner receives, nobody else does (also for a hand refused below a
  minimum, which still carries its result);
* the best reading is the best of ``--explain``'s list: no reading considered pays the
  winner more, or as much with a higher headline number;
* permuting the concealed tiles (the winning tile stays last) or the melds changes
  nothing;
* replacing the wildcards by the natural tiles they stand for in the best reading keeps
  the hand a legal win, and never lowers the 清-type families the ruleset promises
  (:data:`MONOTONE`, written down in docs/robustness.md).

A generated hand is a legal shape, so it is never an input error (exit 2).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorer.engine.result import Result
from scorer.errors import MjscoreError, NotAWin
from scorer.model import tiles as T
from scorer.views.explain import explain_json
from scorer.views.pieces import wildcard_map
from tests.helpers.handgen import SUIT_TILES, GenHand, ruleset_ids, setups, winning_hands

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# Wildcard monotonicity each ruleset promises (docs/robustness.md): families of 清-type
# patterns whose value never goes down when the wildcards of a hand are replaced by the
# natural tiles they stand for. A ruleset not listed promises only that the hand stays a
# legal win.
MONOTONE: dict[str, dict[str, tuple[str, ...]]] = {
    # 七对子 2^(1+L) becomes 清七对 2^(2+L) once no wildcard is left
    "hangzhou": {"seven pairs": ("qidui", "qingqidui")},
    # 清一色 ×2 with a wildcard, ×4 without; 七对子 ×2 becomes 清七对 ×4
    "jinhua": {"one suit": ("qingyise",), "seven pairs": ("qidui", "qingqidui")},
}


def outcome(g: GenHand) -> tuple[Result | None, MjscoreError | None]:
    """Score a generated hand: (result, None) or (None, error); a result rides on NotAWin."""
    try:
        return g.score(), None
    except NotAWin as e:
        return (e.details if isinstance(e.details, Result) else None), e
    except MjscoreError as e:
        return None, e


def check_result(r: Result) -> None:
    winner = r.winner
    for s in r.candidates:
        pays = s.payments
        assert all(type(v) is int for v in pays.values()), pays
        assert sum(pays.values()) == 0, pays
        assert pays[winner] >= 0 and all(v <= 0 for k, v in pays.items() if k != winner), pays
        assert set(pays) == set("ESWN") and all(pays[k] == 0 for k in "ESWN"
                                                if k not in r.table.seats), pays
    best = r.best
    assert all(s.key(winner) <= best.key(winner) for s in r.candidates)
    listing = explain_json(r)
    assert listing[0]["payments"] == best.payments and listing[0]["score"] == best.score
    assert listing[0]["decomposition"] == best.reading.describe()
    top = (best.payments[winner], best.score)
    assert all((item["payments"][winner], item["score"]) <= top for item in listing), listing


def summary(r: Result | None, e: MjscoreError | None) -> tuple[object, ...]:
    """What must not depend on the order tiles are written in."""
    if e is not None and r is None:
        return ("error", e.exit_code, type(e).__name__, re.sub(r"position \d+", "position", str(e)))
    assert r is not None
    s = r.best
    return ("error" if e else "ok", s.score, sorted(h.pattern.id for h in s.hits),
            dict(s.payments), sorted(s.reading.describe()), len(r.candidates))


class Seen:
    """Counts what a property actually checked, so a test cannot pass on nothing."""

    def __init__(self) -> None:
        self.n: dict[str, int] = {}

    def __call__(self, what: str) -> None:
        self.n[what] = self.n.get(what, 0) + 1

    def at_least(self, what: str, k: int) -> None:
        assert self.n.get(what, 0) >= k, f"only {self.n} checked"


@pytest.mark.parametrize("rules", ruleset_ids())
def test_generated_hands_win_with_balanced_payments(rules: str) -> None:
    seen = Seen()

    @SETTINGS
    @given(winning_hands(rules))
    def check(g: GenHand) -> None:
        r, e = outcome(g)
        assert e is None or e.exit_code == 3, f"{g.line}: {e}"  # a legal shape: never exit 2
        if r is not None:
            check_result(r)
            seen("result")

    check()
    seen.at_least("result", 10)


@pytest.mark.parametrize("rules", ruleset_ids())
def test_order_of_concealed_tiles_and_melds_does_not_matter(rules: str) -> None:
    seen = Seen()

    @SETTINGS
    @given(winning_hands(rules), st.randoms(use_true_random=False))
    def check(g: GenHand, rnd) -> None:
        conc = list(g.concealed)
        melds = list(g.melds)
        rnd.shuffle(conc)
        rnd.shuffle(melds)
        h2 = GenHand(g.setup, tuple(melds), tuple(conc), g.winning, g.flags, g.shape)
        assert summary(*outcome(g)) == summary(*outcome(h2)), f"{g.line} vs {h2.line}"
        seen("moved" if h2.text != g.text else "same")

    check()
    seen.at_least("moved", 10)


def naturalised(g: GenHand, r: Result) -> GenHand | None:
    """The hand with every substituted wildcard written as the tile it stands for in the
    best reading; None if that would need a fifth physical copy."""
    phys = list(g.physical)
    changed = False
    for w in wildcard_map(r):
        if not w["as_self"]:
            phys[w["index"]] = T.parse_tile(w["reads"])
            changed = True
    if not changed or any(phys.count(t) > 4 for t in set(phys)):
        return None
    return g.with_physical(tuple(phys))


def family_values(r: Result, ids: tuple[str, ...], best_only: bool) -> int:
    scored = [r.best] if best_only else r.candidates
    return max((h.value for s in scored for h in s.hits if h.pattern.id in ids), default=0)


WILD_RULESETS = [rid for rid in ruleset_ids() if any(s.wild for s in setups(rid))]


def test_monotone_families_name_real_patterns() -> None:
    for rid, fams in MONOTONE.items():
        if rid not in ruleset_ids():
            continue  # not landed yet
        from scorer.rules.load import load_ruleset

        ids = {p.id for p in load_ruleset(rid).patterns}
        for name, fam in fams.items():
            assert set(fam) <= ids, f"{rid} {name}: {set(fam) - ids} are not patterns"


def _wild_hands(rules: str) -> st.SearchStrategy[GenHand]:
    """Wildcard hands, with extra seven-pairs and one-suit ones for the 清-type families."""
    shapes = {sh for s in setups(rules) for sh in s.ruleset.shapes}
    parts = [winning_hands(rules, wild=True)]
    parts += [winning_hands(rules, wild=True, only=t) for t in SUIT_TILES.values()]
    if "seven_pairs" in shapes:
        parts.append(winning_hands(rules, wild=True, shapes=("seven_pairs",)))
    return st.one_of(parts)


@pytest.mark.parametrize("rules", WILD_RULESETS)
def test_natural_tiles_instead_of_wildcards(rules: str) -> None:
    seen = Seen()

    @settings(SETTINGS, max_examples=80)
    @given(_wild_hands(rules))
    def check(g: GenHand) -> None:
        r, e = outcome(g)
        assume(r is not None and e is None)
        assert r is not None
        h2 = naturalised(g, r)
        assume(h2 is not None)
        assert h2 is not None
        r2, e2 = outcome(h2)
        assert e2 is None and r2 is not None, f"{g.line} wins but {h2.line} gives {e2}"
        seen("naturalised")
        for name, fam in MONOTONE.get(rules, {}).items():
            before = family_values(r, fam, best_only=True)
            after = family_values(r2, fam, best_only=False)
            assert after >= before, f"{name}: {g.line} has {before}, {h2.line} only {after}"
            if before:
                seen(name)

    check()
    seen.at_least("naturalised", 10)
    for name in MONOTONE.get(rules, {}):
        seen.at_least(name, 3)


# -- 承包: moving shares never loses or creates a point -----------------------------------------
# The reverse factor (docs/rulings.md#hangzhou-chengbao): "B wins → A pays all three shares ×2".
REVERSE_FACTOR = {"hangzhou": 2, "jinhua": 2}
CHENGBAO_RULESETS = [rid for rid in ruleset_ids() if rid in REVERSE_FACTOR]


@pytest.mark.parametrize("rules", CHENGBAO_RULESETS)
def test_chengbao_moves_every_point(rules: str) -> None:
    seen = Seen()

    @settings(SETTINGS, max_examples=80)
    @given(winning_hands(rules), st.data())
    def check(g: GenHand, data: st.DataObject) -> None:
        streak = ("--dealer-streak", "3") if "dealer_streak" in g.setup.ruleset.flags else ()
        plain = GenHand(g.setup, g.melds, g.concealed, g.winning, (*g.flags, *streak), g.shape)
        r0, e0 = outcome(plain)
        assume(r0 is not None and e0 is None)
        assert r0 is not None
        seats = list(g.setup.seats)
        a = data.draw(st.sampled_from(seats))
        b = data.draw(st.sampled_from([s for s in seats if s != a]))
        with_cb = GenHand(g.setup, g.melds, g.concealed, g.winning,
                          (*plain.flags, "--chengbao", f"{a}:{b}"), g.shape)
        r1, e1 = outcome(with_cb)
        if e1 is not None and e1.exit_code == 2:
            assert "--chengbao" in str(e1), e1  # a relation the ruleset does not allow
            return
        assert r1 is not None and e1 is None, e1
        winner = r0.winner
        p0, p1 = r0.payments, r1.payments
        total = p0[winner]  # what the payers owe without 承包
        if winner == a:  # B alone pays every share
            want = {s: 0 for s in "ESWN"} | {winner: total, b: -total}
        elif winner == b:  # A alone pays every share × 2
            k = REVERSE_FACTOR[rules]
            want = {s: 0 for s in "ESWN"} | {winner: k * total, a: -k * total}
        else:  # a relation without the winner changes nothing
            want = dict(p0)
        assert p1 == want, f"{with_cb.line}: {p1} != {want} (without 承包: {p0})"
        seen("winner in relation" if winner in (a, b) else "other")

    check()
    seen.at_least("winner in relation", 5)
