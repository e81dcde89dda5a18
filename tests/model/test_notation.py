"""The hand notation of docs/contract.md#notation: what it reads, what it refuses (with positions), and
that the normal form round-trips: ``parse_hand(h.notation()) == h``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.errors import NotationError
from scorer.model.hand import Hand, Meld, format_tiles
from scorer.model.notation import parse_flowers, parse_hand, parse_tiles
from scorer.model.tiles import glyph, name, parse_tile


def tiles(text: str) -> list[str]:
    return [name(t) for t, _ in parse_tiles(text)]


def test_suits_and_aliases() -> None:
    assert tiles("123m") == ["1m", "2m", "3m"]
    assert tiles("111w333777t12388b") == tiles("111m333777s12388p")
    assert tiles("19p") == ["1p", "9p"]


def test_honors_in_every_spelling() -> None:
    assert tiles("ESWNCFP") == ["E", "S", "W", "N", "C", "F", "P"]
    assert tiles("1234567z") == ["E", "S", "W", "N", "C", "F", "P"]
    assert tiles("东南西北中发白") == ["E", "S", "W", "N", "C", "F", "P"]
    assert tiles("東南西北中發白") == ["E", "S", "W", "N", "C", "F", "P"]
    assert tiles("🀇🀀") == ["1m", "E"]


def test_contract_examples() -> None:
    h = parse_hand("[EEE][123m]55p789s23p4p")
    assert [format_tiles(m.tiles) for m in h.melds] == ["123m", "EEE"]
    assert name(h.winning) == "4p"
    h = parse_hand("11223344556677s")
    assert name(h.winning) == "7s" and len(h.concealed) == 13
    h = parse_hand("[5555p]123m456s789sEE")
    assert h.melds[0].concealed_kong and h.kong_count == 1
    h = parse_hand("19m19s19pESWNCFPN")
    assert name(h.winning) == "N"
    h = parse_hand("[5555p,2]123m456s789sEE")
    assert h.melds[0].offer == 2 and not h.melds[0].concealed_kong
    h = parse_hand("[55pP=555p]123m456s789sEE")
    assert format_tiles(h.melds[0].reading or ()) == "555p"


def test_spaces_are_ignored() -> None:
    assert parse_hand("[EEE] [123m] 55p 789s 23p 4p") == parse_hand("[EEE][123m]55p789s23p4p")


@pytest.mark.parametrize("text,position,fragment", [
    ("123m5p8", 7, "'8' has no suit letter after it"),
    ("123m055p", 5, "'0' is no tile number"),
    ("12x3m", 3, "unexpected character 'x'"),
    ("123me", 5, "honors are uppercase"),
    ("m123", 1, "suit letter 'm' has no digits before it"),
    ("[123m", 1, "never closed"),
    ("[12[3m]]", 4, "cannot be nested"),
    ("123m]", 5, "without a '['"),
    ("[123m,4]456p", 7, ": 1 (上家), 2 (对家), 3 (下家)"),
    ("[123m,0]456p", 7, "1 (上家)"),
    ("[12m]456p", 1, "a meld has 3 or 4 tiles"),
    ("123m[456p]", 5, "fixed melds must come before"),
    ("[55pP=55p]1m", 1, "reading after '=' has 2"),
    ("12389z", 4, "'8z' is not an honor"),
    ("123m15f", 7, "flowers are given with --flowers"),
    ("123m春", 5, "is a flower"),
])
def test_errors_name_the_position(text: str, position: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.position == position
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"position {position}: ")


def test_empty_and_huge_input() -> None:
    with pytest.raises(NotationError, match="no concealed tiles"):
        parse_hand("[123m]")
    with pytest.raises(NotationError, match="at most 200"):
        parse_hand("1m" * 5000)


def test_counts_and_copies() -> None:
    from scorer.errors import HandError

    with pytest.raises(HandError, match="13 tiles; a win needs 14"):
        parse_hand("123m456m789p234s5s").check_size(14, "hangzhou")
    parse_hand("[5555p]123m456s789sEE").check_size(14, "hangzhou")  # 14 + 1 kong
    with pytest.raises(HandError) as info:
        parse_hand("[1111m]1m23m456p789s11s").check_copies()
    assert "5 copies of 1m" in str(info.value) and info.value.position == 8
    with pytest.raises(HandError, match="only 3 are in play"):
        parse_hand("5555m123p456p789s1s").check_copies({4: 3})


def test_unicode_rendering() -> None:
    assert parse_hand("[EEE]123m55p789s23p4p").unicode() == "[🀀🀀🀀] 🀇🀈🀉🀚🀛🀝🀝🀖🀗🀘 🀜"
    assert glyph(33) == "🀆" and glyph(18) == "🀐" and glyph(9) == "🀙"


def test_parse_tile_and_flowers() -> None:
    assert parse_tile("5b") == parse_tile("5p") == 13
    with pytest.raises(ValueError):
        parse_tile("0m")
    assert parse_flowers("0") == (0, ())
    assert parse_flowers("1258f") == (4, (1, 2, 5, 8))
    assert parse_flowers("春夏梅") == (3, (1, 2, 5))
    with pytest.raises(NotationError):
        parse_flowers("9")
    with pytest.raises(NotationError):
        parse_flowers("11f")


# -- round trip ------------------------------------------------------------------
suited = st.integers(0, 26)
any_tile = st.integers(0, 33)


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from(["chow", "pung", "kong", "ckong"]))
    if kind == "chow":
        s = draw(st.integers(0, 26).filter(lambda t: t % 9 <= 6))
        ts: tuple[int, ...] = (s, s + 1, s + 2)
    else:
        t = draw(any_tile)
        ts = (t,) * (3 if kind == "pung" else 4)
    # a chow comes from 上家 only (docs/rulings.md#common-chow-offer: [123m,2] is refused): offer 0 or 1
    top = 1 if kind == "chow" else 3
    offer = 0 if kind == "ckong" else draw(st.integers(0 if kind != "kong" else 1, top))
    return Meld(tiles=ts, offer=offer)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    ms = draw(st.lists(melds(), max_size=4))
    conc = draw(st.lists(any_tile, min_size=1, max_size=13))
    win, rest = conc[-1], conc[:-1]
    return Hand(tuple(sorted(ms, key=lambda m: (m.tiles, m.offer, m.reading or ()))),
                tuple(sorted(rest)), win)


@given(hands())
@settings(max_examples=300, deadline=None)
def test_notation_round_trips(h: Hand) -> None:
    assert parse_hand(h.notation()) == h
