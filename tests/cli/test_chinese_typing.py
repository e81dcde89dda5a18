"""Chinese typing wherever a person types (issue 27 item 5): full-width punctuation and the
ideographic space in batch, round and standings files and in flags' values read as their
ASCII, and seats in words (东南西北; 上家/对家/下家 said from the winner).

Expected values are worked by hand from docs/rulings.md#mcr (国标): a discard win pays the
winner 8 + fan from the discarder and 8 from each other player. The hand
``123m456p789s234s99m`` won on a discard (no wind pungs, so the same at every seat) is 花龙
8 + 门前清 2 + 平和 2 + 单钓将 1 = 13 fan: the discarder pays 21, the others 8, the winner
gets 37. Turn order E→S→W→N, E's 上家 is N (docs/rulings.md#common-seats).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorer.engine.context import Context, resolve
from scorer.engine.scoring import score
from scorer.lines.records import score_record
from scorer.model.notation import parse_hand
from scorer.model.tiles import seat_from
from scorer.rules.load import load_ruleset
from scorer.table.round import EXAMPLE, settle_round
from tests.helpers.hostile import cli

HAND = "123m456p789s234s99m"  # 13 fan on a discard in MCR (module doc)
# the winner's seat -> (上家, 对家, 下家), by hand from the turn E→S→W→N
RELATIVE = {"E": ("N", "W", "S"), "S": ("E", "N", "W"), "W": ("S", "E", "N"),
            "N": ("W", "S", "E")}


def _discard_win(winner: str, discarder: str) -> dict[str, int]:
    """The MCR payments of HAND won by ``winner`` on ``discarder``'s tile, by hand."""
    return {s: 37 if s == winner else -21 if s == discarder else -8 for s in "ESWN"}


def _totals(out: str) -> dict[str, int]:
    """Each player's net in a batch's JSON lines (its totals record)."""
    rec = [json.loads(x) for x in out.splitlines()][-1]
    assert rec["kind"] == "totals", rec
    return {p["name"]: p["net"] for p in rec["players"]}


ASCII_FILE = f"""# players: 甲,乙,丙,丁
{HAND} --rules mcr --from N
{HAND} --rules mcr --seat S --from E
adjust 甲 +5 乙 -5
"""
# the same evening typed with a Chinese input method: ＃ ： ， the ideographic space, －－ ＋
# and full-width letters
WIDE_FILE = f"""＃ players： 甲，乙，丙，丁
{HAND}\u3000--rules mcr\u3000－－from Ｎ
{HAND} －－rules ｍｃｒ --seat Ｓ --from=Ｅ
adjust 甲 ＋5 乙 －5
"""
# line 2: 甲 (E) wins on 丁 (N): 甲 +37, 丁 -21, 乙 丙 -8; line 3: 乙 (S) wins on 甲 (E):
# 乙 +37, 甲 -21, 丙 丁 -8; line 4: 5 from 乙 to 甲
NETS = {"甲": 37 - 21 + 5, "乙": -8 + 37 - 5, "丙": -8 - 8, "丁": -21 - 8}


def test_a_players_line_typed_full_width_names_the_players_and_the_totals_agree() -> None:
    assert sum(NETS.values()) == 0
    for text in (ASCII_FILE, WIDE_FILE):
        r = cli("batch", "-", "--totals", "--format", "jsonl", "-q", stdin=text)
        assert r.code == 0, r.err
        assert _totals(r.out) == NETS  # by player: the seating line was read
        hands = [json.loads(x) for x in r.out.splitlines()[:2]]
        assert hands[0]["payments"] == _discard_win("E", "N")
        assert hands[1]["payments"] == _discard_win("S", "E")
        assert hands[0]["players"] == {"E": "甲", "S": "乙", "W": "丙", "N": "丁"}


def test_the_table_of_a_full_width_file_is_the_ascii_file_s() -> None:
    a = cli("batch", "-", "--totals", "--format", "table", "-q", stdin=ASCII_FILE, lang="zh")
    b = cli("batch", "-", "--totals", "--format", "table", "-q", stdin=WIDE_FILE, lang="zh")
    assert a.code == b.code == 0, (a.err, b.err)
    assert a.out == b.out


@pytest.mark.parametrize("winner", "ESWN")
@pytest.mark.parametrize("k, word", [(0, "上家"), (1, "对家"), (2, "下家")])
def test_from_a_relative_seat_is_the_seat_it_names(winner: str, k: int, word: str) -> None:
    payer = RELATIVE[winner][k]
    want = _discard_win(winner, payer)
    # the library
    assert score(HAND, "mcr", Context(seat=winner, discarder=word)).payments == want
    assert seat_from(word, winner) == payer
    # the command line, both parsers (the fast one and typer's)
    for fast in (True, False):
        by_word = cli("score", HAND, "--rules", "mcr", "--seat", winner, "--from", word,
                      "--json", fast=fast)
        by_seat = cli("score", HAND, "--rules", "mcr", "--seat", winner, "--from", payer,
                      "--json", fast=fast)
        assert by_word.code == 0, by_word.err
        a, b = json.loads(by_word.out), json.loads(by_seat.out)
        assert a.pop("flags")["--from"] == word  # "flags" echoes them as given
        b.pop("flags")
        assert a == b and a["payments"] == want


@pytest.mark.parametrize("word, seat", [("东", "E"), ("南", "S"), ("西", "W"), ("北", "N"),
                                        ("東", "E"), ("Ｗ", "W"), ("n", "N")])
def test_a_seat_in_words_is_the_seat(word: str, seat: str) -> None:
    winner = "S" if seat == "E" else "E"
    r = cli("score", HAND, "--rules", "mcr", "--seat", winner, "--from", word, "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["payments"] == _discard_win(winner, seat)
    r = cli("score", HAND, "--rules", "mcr", "--seat", word, "--from",
            "上家", "--json")
    assert json.loads(r.out)["payments"] == _discard_win(seat, RELATIVE[seat][0])


def test_a_relative_seat_counts_the_turn_among_the_seats_at_the_table() -> None:
    # Hangzhou at three (E S W), 放铳 on: E's 上家 is W, its 下家 S, and there is no 对家
    flags = ["--rules", "hangzhou", "--option", "players=3", "--option", "discard_win=true",
             "--dealer-streak", "3", "--json"]
    for word, payer in (("上家", "W"), ("下家", "S")):
        a = cli("score", HAND, *flags, "--from", word)
        b = cli("score", HAND, *flags, "--from", payer)
        assert a.code == 0, a.err
        assert json.loads(a.out)["payments"] == json.loads(b.out)["payments"]
        assert json.loads(a.out)["payments"][payer] < 0
    r = cli("score", HAND, *flags, "--from", "对家")
    assert r.code == 2
    err = json.loads(r.out)["error"]
    assert err["code"] == "seat.no_opposite" and err["params"]["seats"] == "E S W"


@pytest.mark.parametrize("lang, said", [("en", "nobody to count from"), ("zh", "没有可参照的人")])
@pytest.mark.parametrize("flag", ["--seat", "--round"])
def test_a_relative_seat_with_nobody_to_say_it_from_is_a_coded_error(lang: str, said: str,
                                                                      flag: str) -> None:
    r = cli("score", HAND, "--rules", "mcr", "--from", "N", flag, "下家", "--json", lang=lang)
    assert r.code == 2
    err = json.loads(r.out)["error"]
    assert err["code"] == "seat.relative" and err["params"]["flag"] == flag
    assert said in err["message"] and f"{flag} 下家" in err["message"]
    assert r.err.count("\n") == 1 and said in r.err


def test_out_and_chengbao_take_full_width_commas_colons_and_seat_words() -> None:
    hand = parse_hand(HAND)
    # --out: the winner E's 上家 N and 对家 W, as 'N,W' says them
    for out in (("上家，对家",), ("上家", "对家"), ("N,W",), ("北、西",)):
        table = resolve(load_ruleset("sichuan"), Context(seat="E", discarder="S", out=out), hand)
        assert table.env["out"] == ["N", "W"] and table.discarder == "S", out
    # --chengbao at Hangzhou's 3 老庄: the winner E's 下家 is S
    rs = load_ruleset("hangzhou")
    for cb, want in (("E:S", ("E", "S")), ("E：下家", ("E", "S")), ("下家:东", ("S", "E")),
                     ("对家：E", ("W", "E"))):
        ctx = Context(self_draw=True, seat="E", dealer_streak=3, chengbao=(cb,))
        assert resolve(rs, ctx, parse_hand("123m456p789s234sP9m")).chengbao == (want,), cb


def test_an_option_with_a_full_width_equals_sign() -> None:
    # MCR's minimum of 8 fan raised to 14: the 13-fan hand is below it (exit 3), as with '='
    for given in ("min_fan=14", "min_fan＝14", "min_fan\u3000＝\u300014"):
        r = cli("score", HAND, "--rules", "mcr", "--from", "N", "--option", given)
        assert r.code == 3, (given, r.err)


def test_positions_still_name_the_character_typed() -> None:
    # the hand's 7th character (the full-width ８) has no suit letter after it
    rec = score_record("１２３ｍ５ｐ８\u3000－－rules ｍｃｒ", (), 4, "en")
    err: dict[str, Any] = rec["error"]
    assert err["code"] == "notation.no_suit" and err["params"]["position"] == 7
    assert rec["input"] == "１２３ｍ５ｐ８\u3000－－rules ｍｃｒ"
    assert rec["input_hand"] == "１２３ｍ５ｐ８"  # as typed, not as read
    # a seating: 'X' is the 5th character of 'E=甲，X=乙' (the 7th of 'E=Ann,X=Bo')
    for spec, at in (("E=甲，X=乙", 5), ("E=Ann,X=Bo", 7)):
        r = cli("batch", "-", "--players", spec, "--json", stdin=f"{HAND} --rules mcr --from N\n")
        assert r.code == 2
        assert f"position {at}" in json.loads(r.out)["error"]["message"], r.out
    # a relative seat in a seating: coded, at the word's position, on a line and in a header
    rec = score_record(f"{HAND} --rules mcr --from N --players 东=甲，上家=乙", (), 1, "zh")
    assert rec["error"]["code"] == "players.relative"
    assert rec["error"]["params"]["at"] == 5 and "第 5 个字符" in rec["error"]["message"]
    rec = score_record("＃ players： 东=甲，上家=乙", (), 1, "en")
    assert rec["error"]["code"] == "players.relative" and rec["error"]["params"]["at"] == 5


def test_a_penalty_names_a_seat_in_words_and_refuses_a_relative_one() -> None:
    rec = score_record("penalty 南 --rules mcr", (), 3, "en")
    assert rec["payments"] == {"E": 10, "S": -30, "W": 10, "N": 10}  # MCR 诈胡: 10 to each
    rec = score_record("penalty 上家 --rules mcr", (), 3, "zh")
    assert rec["error"]["code"] == "seat.relative_here"


def test_a_round_file_reads_seat_words_from_the_line_s_player() -> None:
    # EXAMPLE's first line is 'E kong 2m from S': E's 下家 is S, who pays E's 直杠 2 底
    # (docs/rulings.md#sichuan, 刮风下雨), whichever way it is written
    assert EXAMPLE.startswith("E kong 2m from S\n")
    texts = [EXAMPLE, EXAMPLE.replace("from S", "from 下家", 1),
             EXAMPLE.replace("E kong 2m from S", "东\u3000kong 2m ｆｒｏｍ 南", 1)]
    results = [settle_round(t) for t in texts]
    assert results[0].totals == results[1].totals == results[2].totals
    for r in results:
        (charge,) = r.events[0].transfers
        assert (charge.payer, charge.amount) == ("S", 2)
    r = cli("round", "-", "--json", stdin="上家 kong 5p concealed\n")
    assert r.code == 2
    err = json.loads(r.out)["error"]
    assert err["code"] == "seat.relative_here" and err["params"]["at_line"] == 1


def test_standings_read_full_width_game_and_players_lines() -> None:
    text = (f"＃ game： 第一局\n＃ players： 甲，乙，丙，丁\n{HAND} --from Ｎ\n"
            f"# game: 第二局\n# players: 甲,乙,丙,丁\n{HAND} --from N\n")
    r = cli("standings", "-", "--json", stdin=text)
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert [g["name"] for g in data["games"]] == ["第一局", "第二局"], data


def test_the_page_s_api_reads_seat_words_and_full_width_values() -> None:
    from scorer.serve.api import Api

    api = Api()
    for flags in (["--from", "上家"], ["--from", "北"], ["--from", "Ｎ"], ["--from", "N"]):
        status, out = api.score({"hand": HAND, "flags": ["--rules", "mcr", "--seat", "E",
                                                         *flags]})
        assert status == 200 and out["payments"] == _discard_win("E", "N"), (flags, out)
    status, out = api.score({"hand": HAND, "flags": ["--rules", "mcr", "--seat", "对家",
                                                     "--from", "N", "--lang", "zh"]})
    assert status == 400 and out["error"]["code"] == "seat.relative"
    assert "没有可参照的人" in out["error"]["message"]
