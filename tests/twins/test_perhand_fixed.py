"""The per-hand checks done once per context give every hand the answer the hand-by-hand
checks gave: the ruleset's context-level input errors, in their place among the others;
the chows of a cold decomposition from a table made once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer import Context, load_ruleset, score
from scorer.errors import ContextError, HandError
from scorer.rules.plan import plan_of
from scorer.search import decompose as D

JINHUA_NO_WILD = "Jinhua needs --wild TILE, the flipped 财神 (e.g. --wild 3m)"


def test_a_context_error_is_raised_for_every_hand_of_the_context() -> None:
    rs = load_ruleset("jinhua")
    ctx = Context(self_draw=True)  # docs/rules/jinhua.md: the 财神 is flipped, --wild needed
    for hand in ("123m456p789s234s55s", "123m456p789s234s66s", "123m456p789s234s55s"):
        with pytest.raises(ContextError) as e:
            score(hand, rs, ctx)
        assert str(e.value) == JINHUA_NO_WILD


def test_the_flags_that_contradict_the_hand_still_come_first() -> None:
    rs = load_ruleset("jinhua")
    ctx = Context(self_draw=True, kong_draw=True)
    for _ in range(2):  # the second time with the context's verdict remembered
        with pytest.raises(ContextError, match="--kong-draw needs 1 kong meld"):
            score("123m456p789s234s55s", rs, ctx)


def test_the_tiles_are_checked_after_the_context_errors() -> None:
    rs = load_ruleset("jinhua")
    with pytest.raises(ContextError, match="needs --wild"):
        score("123m456p789s234s55s5s", rs, Context(self_draw=True))  # 15 tiles too
    with pytest.raises(HandError, match="15 tiles"):
        score("123m456p789s234s55s5s", rs, Context(self_draw=True, wild="3m"))


def test_hand_level_errors_are_checked_on_every_hand() -> None:
    # Jinhua's human_melds (人胡 with a meld) reads the hand: never remembered per context
    rs = load_ruleset("jinhua")
    ctx = Context(human=True, seat="S", wild="3m")
    score("123m456p789s234s55s", rs, ctx)  # no meld: scored
    with pytest.raises(ContextError):
        score("[123m]456p789s234s55s", rs, ctx)
    score("123m456p789s234s55s", rs, ctx)


def test_the_context_errors_are_worked_out_once_per_context() -> None:
    rs = load_ruleset("hangzhou")
    plan_of(rs).tables.clear()
    east, south = Context(self_draw=True), Context(self_draw=True, seat="S")
    score("123m456p789s234sP9m", rs, east)
    score("123m456p789s234sP9m", rs, south)
    base = plan_of(rs).tables.get(east)
    assert base is not None and base.memo.get("errors") == (None, ())  # Hangzhou's: none holds
    # the next hands of that context read the verdict remembered, not the ruleset's checks
    base.memo.put("errors", (replace(rs.errors[0], template="remembered", template_en=""), ()))
    for hand in ("123m456p789s234sPP", "11223344556677s"):
        with pytest.raises(ContextError, match=r"^remembered$"):
            score(hand, rs, east)
        score(hand, rs, south)  # another context: its own verdict
    plan_of(rs).tables.clear()
    score("123m456p789s234sPP", rs, east)  # worked out again once forgotten: no error


def test_the_chow_table_holds_every_chow_through_a_tile() -> None:
    # by hand: 5m (tile 4) lowest left, with 6m held and 7m not: 567m takes the 6m or not
    fills = D._CHOWS_AT[4][0][0b01]
    assert [(a, n, g.tiles, g.wild) for a, n, g in fills] == [
        ((1,), 1, (4, 5, 6), (6,)), ((), 2, (4, 5, 6), (5, 6))]
    assert D._CHOWS_AT[0][1] == D._CHOWS_AT[0][2] == ()  # no chow has 1m in its middle
    assert all(not any(at) for at in D._CHOWS_AT[27:])  # honors make no chows
    for t in range(27):
        for k, by_held in enumerate(D._CHOWS_AT[t]):
            assert bool(by_held) == (t - k in D._chow_starts(t))
            for held, fills in enumerate(by_held):
                has = {t + 1 + m for m in range(2) if held >> m & 1}
                want = D._chow_fills(t, t - k, has.__contains__)
                assert [(tuple(t + u for u in a), g.wild) for a, _, g in fills] == want
