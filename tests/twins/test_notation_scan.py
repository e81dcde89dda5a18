"""The one-pass scanner of well-formed hands (scorer.model.notation._scan) reads every
hand exactly as the full parser does — melds, positions, sources, what was written — and
leaves every other input, every mistake included, to the full parser."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.errors import NotationError
from scorer.model.hand import Hand
from scorer.model.notation import _parse_normal, _scan, parse_hand


def everything(h: Hand) -> tuple[object, ...]:
    """All of a Hand, the fields left out of == included (sources, written, positions)."""
    return (tuple(astuple(m) for m in h.melds), h.concealed, h.winning, h.sources, h.written)


def full(text: str) -> tuple[object, ...] | str:
    try:
        return everything(_parse_normal(text))
    except NotationError as e:
        return f"error: {e}"


def agree(text: str) -> None:
    expected = full(text)
    scanned = _scan(text)
    if isinstance(expected, str):
        assert scanned is None, (text, expected)
    elif scanned is not None:
        assert everything(scanned) == expected, text
    try:
        got: tuple[object, ...] | str = everything(parse_hand(text))
    except NotationError as e:
        got = f"error: {e}"
    assert got == expected


TYPICAL = ["123m456p789s234sP9m", "[EEE][123m]55p789s23p4p", "11223344556677s",
           "[5555p]123m456s789sEE", "19m19s19pESWNCFPN", "[5555p,2]123m456s789sEE",
           "111w333777t12388b", "123m 456p 789s 234s P9m", "[CCC,1][EEEE,2]123m456pNNN9s5s",
           "1234567z1234567z", "[123m,1]456p789s234s55p", "[1111m][2222m,3]3334m"]


@pytest.mark.parametrize("text", TYPICAL)
def test_typical_hands_are_scanned_as_parsed(text: str) -> None:
    scanned = _scan(text)
    assert scanned is not None, "a well-formed hand takes the scanner"
    assert everything(scanned) == full(text)


@pytest.mark.parametrize("text", [
    "123m5p8", "[123m,2]456p789s55pEE", "[55pP=555p]123m456p789s5p", "123m [456p]",
    "[12m]456p789s234s55p", "[5555p,0]123m456s789sEE", "[ EEE]123m456p789s5p", "8z",
    "0m", "123M", "", "   ", "[EEE]", "123m\t456p", "１２３ｍ"])
def test_everything_else_goes_to_the_full_parser(text: str) -> None:
    assert _scan(text) is None
    if text.isascii():
        agree(text)


@given(st.text(alphabet="[]=,0123456789mpswbtzESWNCFPf -", max_size=40))
def test_scanner_and_parser_agree_on_any_text(text: str) -> None:
    agree(text)


tile_group = st.one_of(
    st.tuples(st.text(alphabet="123456789", min_size=1, max_size=4),
              st.sampled_from("mpswbt")).map("".join),
    st.tuples(st.text(alphabet="1234567", min_size=1, max_size=3), st.just("z")).map("".join),
    st.sampled_from("ESWNCFP"))
meld = st.tuples(st.lists(tile_group, min_size=1, max_size=3).map("".join),
                 st.sampled_from(["", ",1", ",2", ",3"])).map(lambda p: f"[{p[0]}{p[1]}]")
hand_text = st.tuples(st.lists(meld, max_size=4), st.lists(tile_group, min_size=1, max_size=8),
                      st.lists(st.booleans(), min_size=12, max_size=12)).map(
    lambda p: "".join(g + (" " if sp else "") for g, sp in zip(p[0] + p[1], p[2] * 2,
                                                               strict=False)))


@given(hand_text)
def test_scanner_and_parser_agree_on_hand_shaped_text(text: str) -> None:
    agree(text)
