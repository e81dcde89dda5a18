"""Hands as players type them (issue 12): full-width input, 万筒条 suffixes, 一…九,
hints for the common slips, a chow claimed only from 上家, a hand split over shell
arguments.

The alternative spellings are made here by plain character tables written for the test
(:func:`fullwidth`, :func:`chinese`), not by the code under test; the scores they must
give are the hand-worked values of tests/golden/*.yaml (docs/rulings.md).
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from _pytest.mark.structures import ParameterSet
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.engine.context import Context
from scorer.engine.scoring import score
from scorer.errors import HandError, NotationError
from scorer.lines.pool import score_many
from scorer.model.hand import Hand
from scorer.model.notation import join_hand_args, parse_hand
from tests.conftest import run_line
from tests.model.test_notation import hands

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


# -- spellings, written independently of scorer/model/notation.py ---------------------
def fullwidth(text: str) -> str:
    """ASCII as a Chinese input method in full-width mode types it: ``1`` -> ``１``."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c
                   for c in text)


_NUMERALS = "一二三四五六七八九"
_SUFFIXES = {"m": "万萬", "w": "万萬", "p": "筒饼餅", "b": "筒饼餅", "s": "条索條", "t": "条索條"}
_HONORS = dict(zip("ESWNCFP", "东南西北中发白", strict=True))


def chinese(text: str, rng: random.Random, honors: bool = True) -> str:
    """Suffixes 万/筒/饼/条/索, numerals 一…九 (each digit at random), 【】 brackets and,
    with ``honors``, 东南西北中发白 for the honor letters.

    Only characters of a digit run become numerals: ``,2`` after a meld stays a digit,
    and each mapping is one typed character for one, as a player would type it.
    """
    out = []
    for c in text:
        if c in "123456789" and rng.random() < 0.7:
            out.append(_NUMERALS[int(c) - 1])
        elif c in _SUFFIXES:
            out.append(rng.choice(_SUFFIXES[c]))
        elif c in _HONORS and honors:
            out.append(_HONORS[c])
        elif c in "[]":
            out.append(rng.choice(["【】", "［］"])["[]".index(c)])
        else:
            out.append(c)
    return "".join(out)


# -- the golden hands score as their ASCII spelling --------------------------------------
def _golden_scoring_cases() -> list[ParameterSet]:
    out = []
    for f in sorted(GOLDEN.glob("*.yaml")):
        for i, case in enumerate(yaml.safe_load(f.read_text(encoding="utf-8"))):
            if "payments" in case:
                out.append(pytest.param(f.stem, case, id=f"{f.stem}:{i + 1}"))
    return out


@pytest.mark.parametrize("ruleset,case", _golden_scoring_cases())
def test_golden_hands_score_the_same_in_every_spelling(ruleset: str,
                                                      case: dict[str, Any]) -> None:
    argv = shlex.split(case["line"])
    ascii_hand = parse_hand(argv[0])
    want = {k: case["payments"].get(k, 0) for k in "ESWN"}
    rng = random.Random(case["line"])  # a fixed spelling per case
    for spelled in (fullwidth(argv[0]), chinese(argv[0], rng), fullwidth(chinese(argv[0], rng))):
        assert parse_hand(spelled) == ascii_hand, spelled
        result = run_line(shlex.join([spelled, *argv[1:]]), ruleset)
        assert result.payments == want, spelled
        if "score" in case:  # some golden cases pin only the payments
            assert result.best.score == case["score"], spelled


def test_golden_covers_every_ruleset() -> None:
    assert {p.values[0] for p in _golden_scoring_cases()} >= {
        "hangzhou", "jinhua", "xiamen", "mcr", "mcr-house"}


def test_the_readme_example_typed_in_chinese() -> None:
    # README: 123m456p789s234sP9m --self-draw --piao 2 --seat W -> W +32, E -16, S N -8
    ctx = Context(self_draw=True, piao=2, seat="W")
    for hand in ("123万456筒789条234条白9万", "一二三万四五六饼七八九索二三四条白九万",
                 "１２３ｍ４５６ｐ７８９ｓ２３４ｓＰ９ｍ", "123m 456p　789s 234s P 9m"):
        assert score(hand, "hangzhou", ctx).payments == {"E": -16, "S": -8, "W": 32, "N": -8}


# -- properties ------------------------------------------------------------------------
@given(hands(), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_a_hand_in_full_width_or_chinese_reads_the_same(h: Hand, rng: random.Random) -> None:
    text = h.notation()
    assert parse_hand(fullwidth(text)) == h
    assert parse_hand(chinese(text, rng)) == h
    # invisible characters pasted from a chat app change nothing either
    assert parse_hand("\u200b".join(chinese(text, rng))) == h


@given(st.text(alphabet="123456789 0mpswbtzESWNCFPMx[],=", max_size=40),
       st.randoms(use_true_random=False))
@settings(max_examples=400, deadline=None)
def test_full_width_errors_point_where_ascii_errors_do(text: str, rng: random.Random) -> None:
    """Any text, good or bad: the other spelling gives the same hand or the same error at
    the same typed position (every replacement is one character for one)."""
    try:
        want: Hand | tuple[int | None, str] = parse_hand(text)
    except NotationError as e:
        want = (e.position, e.detail)
    for spelled in (fullwidth(text), chinese(text, rng, honors=False)):
        try:
            got: Hand | tuple[int | None, str] = parse_hand(spelled)
        except NotationError as e:
            got = (e.position, e.detail)
        if isinstance(want, tuple) and isinstance(got, tuple) and spelled != fullwidth(text):
            # a lone 条 is told as what was typed, not as a letter: positions must agree
            assert got[0] == want[0], spelled
        else:
            assert got == want, spelled


# -- positions are the typed characters' ------------------------------------------------
@pytest.mark.parametrize("text,position,message", [
    ("１２３ｍ５ｐ８", 7, "'8' has no suit letter after it"),
    ("一二三万五筒八", 7, "'8' has no suit letter after it"),
    # a zero-width space (dropped) still counts as a typed character
    ("１２３\u200bｍ５ｐ８", 8, "'8' has no suit letter after it"),
    ("🀄\ufe0f123m5p8", 9, "'8' has no suit letter after it"),
    ("\u200b\u200b123m]", 7, "']' without a '[' before it"),
    ("123万 4x56筒", 7, "unexpected character 'x' in the hand"),
    ("东东条", 3, "suit '条' has no digits before it"),
    ("【123万", 1, "'[' is never closed with ']'"),
    ("", 1, "no concealed tiles; the last one is the winning tile"),
    ("\ufeff", 2, "no concealed tiles; the last one is the winning tile"),
])
def test_error_positions_point_at_the_typed_character(text: str, position: int,
                                                      message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert str(info.value) == f"position {position}: {message}"
    assert info.value.text == text


def test_later_errors_use_the_typed_positions_too() -> None:
    h = parse_hand("\u200b[1111m]\u200b1m23m456p789s11s")
    with pytest.raises(HandError) as info:
        h.check_copies()
    assert info.value.position == 10  # the fifth 1m: character 10 as typed
    assert h.melds[0].position == 2
    with pytest.raises(HandError) as info2:
        score("\u200b[12mP,2]123m456s789s1p1p", "hangzhou", Context(self_draw=True))
    assert info2.value.position == 2


def test_what_was_understood_keeps_the_users_order() -> None:
    h = parse_hand("[EEE] [123m] 55p 789s 23p 4p")
    assert h.written == "[EEE][123m]55p789s23p4p"
    assert h.notation() == "[123m][EEE]2355p789s4p"  # the normal form (JSON) is sorted
    assert parse_hand("［东东东］【一二三万】五五饼　七八九条 二三筒 四筒").written == \
        "[EEE][123m]55p789s23p4p"
    assert parse_hand("789s234s1z东").written == "789s234sEE"
    assert parse_hand("🀇🀈🀉🀀").written == "123mE"
    assert Hand((), (0,), 0).as_written() == "1m1m"  # not parsed: the normal form


# -- hints for what was probably meant --------------------------------------------------
@pytest.mark.parametrize("text,position,message", [
    ("123M456p", 4, "'M': suit letters are lower-case: m"),
    ("ESW123T", 7, "'T': suit letters are lower-case: t"),
    ("123m456p789s234sp9m", 17, "'p' after a suit letter: did you mean P (白)?"),
    ("123m456p789s234ss9m", 17, "'s' after a suit letter: did you mean S (南)?"),
    ("EEw123m", 3, "'w' has no digits before it; W (西)?"),
    ("m123", 1, "suit letter 'm' has no digits before it"),
    ("123S", 4, "'S' after digits: the suit is s (S: 南)"),
    ("123P", 4, "'P' after digits: the suit is p (P: 白)"),
    ("e123m", 1, "'e' is no tile; honors are uppercase: E (东)?"),
    ("123mn", 5, "'n' is no tile; honors are uppercase: N (北)?"),
    ("123mc", 5, "'c' is no tile; honors are uppercase: C (中)?"),
    ("123mf", 5, "'f' is no tile; honors are uppercase: F (发)?"),
    ("123m15f", 7, "flowers are given with --flowers, not in the hand"),
    ("1230m", 4, "'0' is no tile number (1-9); for a red five write 5"),
    ("１２３０ｍ", 4, "'0' is no tile number (1-9); for a red five write 5"),
    ("123mR", 5, "'R' is not a tile: the red dragon 中 is C"),
    ("123mG", 5, "'G' is not a tile: the green dragon 发 is F"),
    ("123mD", 5, "'D' is no tile: dragons are C (中), F (发), P (白)"),
    ("(123m)4p", 1, "'(': melds take square brackets, e.g. [123m]"),
    ("（123m）4p", 1, "'(': melds take square brackets, e.g. [123m]"),
    ("123m,456p", 5, "',' outside a meld: an offer goes inside, e.g. [555p,2]"),
    ("123m=456p", 5, "'=' outside a meld: it goes inside, e.g. [55pP=555p]"),
    ("123m/456p", 5, "'/' is not notation: groups need no separator"),
    ("东风东风", 2, "'风' is not needed: a wind is one character (东)"),
    ("白板123m", 2, "'板' is not needed: 白板 is written 白 (or P)"),
    ("红中123m", 1, "'红' is not a tile: the red dragon is 中 (or C)"),
    ("①23m", 1, "unexpected character '①' in the hand; did you mean '1'?"),
    ("[555p,E]123m", 7, "offer 'E': 1 (上家), 2 (对家), 3 (下家); discarder: --from"),
    ("[555p,对家]123m", 7, "offer '对家': 1 (上家), 2 (对家), 3 (下家); 对家: 2"),
    ("[1111m,0]123m", 8, "offer '0': 1 (上家), 2 (对家), 3 (下家); 暗杠: [1111m]"),
])
def test_hints_say_what_was_probably_meant(text: str, position: int, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert str(info.value) == f"position {position}: {message}"


# -- a chow comes from 上家 only ---------------------------------------------------------
def _chow_message(meld: str, offer: int, who: str) -> str:
    return f"a chow comes from 上家, not ',{offer}' ({who}): [{meld}]"


@pytest.mark.parametrize("text,position,meld,offer,who", [
    ("[123m,2]456p789s234s55s", 7, "123m", 2, "对家"),
    ("[789s,3]123m456p234s55s", 7, "789s", 3, "下家"),
    ("[123m, 2]456p789s234s55s", 8, "123m", 2, "对家"),  # points at the 2, past the space
    ("［１２３ｍ，２］456p789s234s55s", 7, "123m", 2, "对家"),
    ("[12mP=123m,2]456p789s234s55s", 12, "12mP=123m", 2, "对家"),
])
def test_a_chow_offered_by_another_seat_is_refused(text: str, position: int, meld: str,
                                                   offer: int, who: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert str(info.value) == f"position {position}: {_chow_message(meld, offer, who)}"


def test_a_chow_from_shang_jia_and_pungs_from_anyone_are_accepted() -> None:
    assert parse_hand("[123m,1]456p789s234s55s").melds[0].offer == 1
    assert parse_hand("[123m]456p789s234s55s").melds[0].offer == 0
    assert [m.offer for m in parse_hand("[555p,2][777s,3]123m456p5s").melds] == [2, 3]


def test_a_wildcard_meld_from_dui_jia_cannot_be_read_as_a_chow() -> None:
    # Hangzhou: 白板 P is the 财神. [12mP,2] could only be the chow 123m: refused.
    with pytest.raises(HandError) as info:
        score("[12mP,2]123m456s789s1p1p", "hangzhou", Context(self_draw=True))
    assert str(info.value) == "position 1: [12mP,2] is a chow, never from 对家: [12mP]"
    # [5pPP,2] may still be the pung 555p (not 345p, 456p or 567p)
    r = score("[5pPP,2]123m456s789s1p1p", "hangzhou", Context(self_draw=True))
    assert [g.kind for g in r.best.reading.groups if g.meld == 0] == ["pung"]
    # from 上家 the chow reading is allowed: [12mP,1] is 123m with the 财神 as 3m
    r = score("[12mP,1]123m456s789s1p1p", "hangzhou", Context(self_draw=True))
    assert [(g.kind, g.tiles) for g in r.best.reading.groups if g.meld == 0] == \
        [("chow", (0, 1, 2))]


# -- a hand split over shell arguments ---------------------------------------------------
def test_a_hand_in_several_arguments_is_joined() -> None:
    joined = join_hand_args(["123m", "456p", "789s", "234s", "P9m"])
    assert joined == "123m 456p 789s 234s P9m"
    assert parse_hand(joined) == parse_hand("123m456p789s234sP9m")
    assert join_hand_args(["[EEE]", "", " 123m ", "55p789s23p4p"]) == \
        "[EEE] 123m 55p789s23p4p"
    assert join_hand_args(["１２３万", "４５６筒"]) == "１２３万 ４５６筒"
    # positions count the one space between arguments, as if the hand had been quoted
    with pytest.raises(NotationError) as info:
        parse_hand(join_hand_args(["123m", "45x6p"]))
    assert str(info.value) == "position 8: unexpected character 'x' in the hand"


# -- batch lines read hands with the same parser -----------------------------------------
def test_batch_lines_accept_every_spelling() -> None:
    lines = ["123m456p789s234sP9m --self-draw",
             "１２３ｍ４５６ｐ７８９ｓ２３４ｓＰ９ｍ --self-draw",
             "一二三万四五六筒七八九条二三四条白九万 --self-draw",
             "１２３ｍ５ｐ８ --self-draw",
             "[123m,2]456p789s234s55s --self-draw"]
    recs = list(score_many(lines, ["--rules", "hangzhou"], lang="en"))
    # dealer self-draw: 财飘 2^(0+1) = 2 番 × 庄闲分 2 = 4 from each of three (test_batch)
    for rec in recs[:3]:
        assert rec.ok, rec.error
        assert rec.data["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}
        assert rec.data["hand"] == "123m456p234789sP9m"  # JSON hand: the normal form
    assert not recs[3].ok and recs[3].data["error"]["message"] == \
        "position 7: '8' has no suit letter after it"
    assert not recs[4].ok and "a chow comes from 上家" in \
        recs[4].data["error"]["message"]


def test_tile_and_flower_flags_read_the_same_forms() -> None:
    from scorer.model.notation import parse_flowers
    from scorer.model.tiles import parse_tile

    assert parse_tile("九万") == parse_tile("９ｍ") == parse_tile("9m") == 8
    assert parse_tile("五筒") == parse_tile("5p") == 13 and parse_tile("Ｐ") == 33
    with pytest.raises(ValueError):
        parse_tile("０ｍ")
    assert parse_flowers("３") == (3, ())
    assert parse_flowers("１５ｆ") == parse_flowers("一五f") == (2, (1, 5))
