"""Regression tests for bugs found by the robustness work (issue 7), one per fix.

Each test names the input that used to misbehave and what it did.
"""

from __future__ import annotations

import pytest

from scorer.errors import ContextError

from .conftest import run_line

HAND = "123m456p789s234s55s --self-draw"


@pytest.mark.parametrize("flag", ["--seat ''", "--seat SW", "--round SW", "--round ESWN",
                                  "--from EW"])
def test_seat_must_be_one_wind(flag: str) -> None:
    # used to be accepted: `v in "ESWN"` is a substring test, so "" and "SW" passed as seats
    # and `--round SW` silently scored as round S
    with pytest.raises(ContextError, match="a seat is one of E S W N"):
        run_line(f"123m456p789s234s55s {flag}", "hangzhou")


def test_ruleset_not_found_has_no_empty_prefix() -> None:
    # used to print "mjscore: : no built-in ruleset 'nope'" (an empty file name before ':')
    from scorer.errors import RulesetError
    from scorer.ruleset import load_ruleset

    with pytest.raises(RulesetError) as info:
        load_ruleset("nope")
    assert str(info.value).startswith("no built-in ruleset 'nope'")


@pytest.mark.parametrize("hand,pos", [
    ("123m456p789s2345s55s", 19),   # 15 tiles: the 15th tile written is the second 5s
    ("123m456p789s234s5s", 17),     # 13 tiles: the last tile written
    ("[5555m]123m456p789s5s5s5s", 24),  # 16 with a kong (15 wanted): the 16th tile
])
def test_wrong_tile_count_names_a_position(hand: str, pos: int) -> None:
    # used to say only "the hand has 15 tiles; ..." with no position
    from scorer.errors import HandError

    with pytest.raises(HandError) as info:
        run_line(f"{hand} --self-draw", "hangzhou")
    assert info.value.position == pos
    assert str(info.value).startswith(f"position {pos}: the hand has")
