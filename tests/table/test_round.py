"""Settlement of whole 血战到底 rounds (scorer.table.round, `mjscore round`).

Every expected total is worked by hand from docs/rulings.md#sichuan (kongs 直杠 2 底 from the
discarder, 补杠 1 底 and 暗杠 2 底 from each player still in; 一炮多响; 呼叫转移; 查花猪
the cap or 16; 查大叫 the ready hand's best discard win; 退税), in the comment of each case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.table.round import RoundError, settle_round

ROUNDS = Path(__file__).resolve().parents[1] / "rounds"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def totals(name: str) -> dict[str, int]:
    return settle_round((ROUNDS / name).read_text(encoding="utf-8")).totals


def test_yipaoduoxiang_after_a_kong() -> None:
    # E 暗杠 8s: S W N pay 2 each (E +6). E's next discard 6p wins for S and W (杠上炮):
    # S 平胡 1 × 杠上炮 2 = 2, W 清一色 4 × 2 = 8, and E hands each the kong's 6 (呼叫转移).
    # End: E [8888s]123s456s77s99s is ready on 7s/9s, 清一色 4 × 根 2 = 8; N is not ready
    # and pays E 8. E: 6 - 8 - 14 + 8 = -8; S: -2 + 8 = 6; W: -2 + 14 = 12; N: -2 - 8 = -10.
    r = settle_round((ROUNDS / "yipaoduoxiang.txt").read_text(encoding="utf-8"))
    assert r.totals == {"E": -8, "S": 6, "W": 12, "N": -10}
    passed = [t for e in r.events for t in e.transfers if t.reason == "passed_on"]
    assert [(t.payer, t.payee, t.amount) for t in passed] == [("E", "S", 6), ("E", "W", 6)]
    assert r.waits["E"] == {"tile": "7s", "multiplier": 8, "amount": 8}


def test_robbed_kong_with_huazhu_no_cap() -> None:
    # S 补杠 5m is robbed by W: the kong pays nothing; S pays W 平胡 1 × 抢杠 2 = 2.
    # End: E is 花猪 and pays S and N (still in, not 花猪) 16 each (no cap); N is not ready
    # and pays S (ready on 2s, 平胡 1) 1. E -32; S -2 + 16 + 1 = 15; W +2; N 16 - 1 = 15.
    assert totals("robbed.txt") == {"E": -32, "S": 15, "W": 2, "N": 15}


def test_huazhu_with_cap() -> None:
    # the same round with 封顶 8: E pays 8 to each of S and N.
    # E -16; S -2 + 8 + 1 = 7; W +2; N 8 - 1 = 7.
    text = "rules sichuan --option cap=8\n" + (ROUNDS / "robbed.txt").read_text(encoding="utf-8")
    assert settle_round(text).totals == {"E": -16, "S": 7, "W": 2, "N": 7}


def test_early_winner_pays_nothing_for_later_kongs() -> None:
    # S self-draws 平胡 1 × 自摸 2: E W N pay 2 each. W 暗杠 9s: only E and N pay 2 (S is out).
    # N 直杠 3s on E's discard: E pays 2. E self-draws 平胡 × 自摸: W and N pay 2.
    # End: W ready, best 清一色 4 × 根 2 = 8; N not ready pays W 8 and returns its kong's
    # 2 to E (退税). S +6; E -2 -2 -2 +4 +2 = 0; W -2 +4 -2 +8 = 8; N -2 -2 +2 -2 -8 -2 = -14.
    assert totals("early.txt") == {"E": 0, "S": 6, "W": 8, "N": -14}


def test_three_winners_end_the_round() -> None:
    # S wins on E's discard: 平胡 1. W on E's discard: 111s222s333s44s555s 清对 8.
    # N self-draws 平胡 1 × 自摸 2 = 2, paid by E alone (S and W are out). E -11.
    r = settle_round((ROUNDS / "three.txt").read_text(encoding="utf-8"))
    assert r.totals == {"E": -11, "S": 1, "W": 8, "N": 2}
    assert r.status == {"E": "in", "S": "won", "W": "won", "N": "won"}


def test_nobody_wins() -> None:
    # E 直杠 2m on S's discard: S pays 2. W 补杠 7p: E S N pay 1 each.
    # End: E ready on 9m/1p (平胡 1 × 根 2 = 2); S and W not ready; N 花猪.
    # 查花猪: N pays E S W 16 each. 查大叫: S and W pay E 2 each. 退税: W returns 1 to E S N.
    # E 2 - 1 + 16 + 4 + 1 = 22; S -2 - 1 + 16 - 2 + 1 = 12; W 3 + 16 - 2 - 3 = 14;
    # N -1 - 48 + 1 = -48.
    r = settle_round((ROUNDS / "nobody.txt").read_text(encoding="utf-8"))
    assert r.totals == {"E": 22, "S": 12, "W": 14, "N": -48}
    assert r.status == {"E": "ready", "S": "not_ready", "W": "not_ready", "N": "huazhu"}


def test_tuishui_by_a_huazhu() -> None:
    # E 暗杠 5s: S W N pay 2. End: E 花猪 pays S W N 16 each and returns the kong's 2 each;
    # W not ready pays S (ready 1p, 平胡 1) and N (ready 7s, 平胡 1) 1 each.
    # E 6 - 48 - 6 = -48; S -2 + 16 + 1 + 2 = 17; W -2 + 16 - 2 + 2 = 14; N = 17.
    assert totals("pigkong.txt") == {"E": -48, "S": 17, "W": 14, "N": 17}


def test_base_multiplies_everything() -> None:
    # 底 2: S 直杠 on E: E pays 4. S self-draws 平胡 × 根 2 × 自摸 2 = 4 倍 × 底 2 = 8 each.
    text = ("rules sichuan --base 2\nS kong 5p from E\n"
            "S win [5555p,2]123m456m789m1m1m --self-draw\n"
            "E hand 123s456s789s1122s\nW hand 13579m2468p1357s\nN hand 22m33m44m66p77p88p9p\n")
    r = settle_round(text)
    assert r.totals["S"] == 4 + 3 * 8 + 0
    assert sum(r.totals.values()) == 0


@pytest.mark.parametrize("text,line,words", [
    ("S win 123m456m789m11p45p6p --from E\nS kong 9s concealed\n", 2, "won at line 1"),
    ("S win 123m456m789m11p45p6p --from E\nW win 111s222s333s44s55s5s --from S\n", 2,
     "won at line 1"),
    ("E kong 5p concealed\nS kong 5p concealed\n", 2, "only four"),
    ("E kong 5p concealed\nS win 123m456m789m55p66p6p --from W\n", 2, "only 4 exist"),
    ("E kong EEEE concealed\n", 1, "m, p or s"),
    ("E kong 5p\n", 1, "from SEAT (直杠)"),
    ("S win 123m456m789m11p45p6p --from E\nW win 111s222s333s44s55s5s --from E\n"
     "N win 777m888m99m567p78p9p --self-draw\nE win 234s567s23p44p55p5p --self-draw\n", 4,
     "round is over"),
    ("S win 123m456p789s234m55m --from E\n", 1, "花猪"),
    ("S win [123m,1]456m789m234m55m --from E\n", 1, "no chows"),
    ("S win 123m456m789m11p45p6p --from E --seat S\n", 1, "--seat"),
    ("S win 123m456m789m11p45p6p --from E --after-kong\n", 1, "--after-kong"),
    ("E kong 5p concealed\nS win 123m456m789m11p78p9p --from E\n", 3, "no 'SEAT hand' line for"),
    ("E dance\n", 1, "kong, win or hand"),
    ("S hand 123m\n", 1, "13"),
    ("E kong 5p concealed\nrules sichuan\n", 2, "before the first event"),
    ("rules sichuan --option cap=7\n", 1, "cap"),
])
def test_bad_round_lines(text: str, line: int, words: str) -> None:
    with pytest.raises(Exception) as info:
        settle_round(text)
    msg = str(info.value)
    assert msg.startswith(f"line {line}:"), msg
    assert words in msg, msg
    assert isinstance(info.value, RoundError) or getattr(info.value, "exit_code", 0) in (2, 3)


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer", "round", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_json_and_errors() -> None:
    p = _cli(str(ROUNDS / "nobody.txt"), "--json", "--lang", "en")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["totals"] == {"E": 22, "S": 12, "W": 14, "N": -48} and data["zero_sum"]
    assert data["players"]["E"] == {"status": "ready", "wins": 0,
                                    "wait": {"tile": "9m", "multiplier": 2, "amount": 2}}
    kinds = [e["kind"] for e in data["events"]]
    assert kinds[-3:] == ["chahuazhu", "chadajiao", "tuishui"]
    bad = _cli("-", "--lang", "en", stdin="S win 123m456p789s234m55m --from E\n")
    assert bad.returncode == 3 and bad.stderr.startswith("mjscore: line 1:")
    zh = _cli("-", "--lang", "zh", stdin="E kong 5p concealed\nS kong 5p concealed\n")
    assert zh.stderr == "mjscore: 第 2 行：5p 的杠：E 在第 1 行已经杠过，一种牌只有四张\n"
    assert "Traceback" not in bad.stderr
    bad = _cli("-", "--json", stdin="E kong 5p concealed\nS kong 5p concealed\n")
    err = json.loads(bad.stdout)["error"]
    assert bad.returncode == 2 and err["kind"] == "round" and err["code"] == "round.kong_twice"
    assert err["params"] == {"at_line": 2, "tile": "5p", "seat": "E", "kong_line": 1}


def test_example_round_file_settles() -> None:
    r = settle_round((EXAMPLES / "sichuan-round.txt").read_text(encoding="utf-8"))
    assert sum(r.totals.values()) == 0


def test_garbage_round_files_give_line_errors_never_tracebacks() -> None:
    import random

    from scorer.errors import MjscoreError

    rnd = random.Random(15)
    words = ["E", "S", "W", "N", "X", "kong", "win", "hand", "rules", "5p", "5555p", "EEEE",
             "from", "added", "concealed", "--from", "--self-draw", "--after-kong",
             "--robbing-kong", "--kong-draw", "123m456m789m11p45p6p", "[5555p]123m789m11m23m4m",
             "'", "#", "--option", "cap=16", "--base", "0", "sichuan", "[", "13579m12345679s",
             "--heavenly", "--earthly", "999999999999"]
    for _ in range(400):
        text = "\n".join(" ".join(rnd.choice(words) for _ in range(rnd.randint(0, 5)))
                         for _ in range(rnd.randint(1, 6)))
        try:
            r = settle_round(text)
        except MjscoreError as e:
            assert e.message.startswith("line "), (text, e.message)
        else:
            assert sum(r.totals.values()) == 0


def test_a_round_needs_a_sichuan_ruleset() -> None:
    # mcr has no --base (it said 'line 0: --base has no meaning'); hangzhou settled a round
    # of its own payments: both refused by name, on the rules line when a line names them
    win = "S win 123m456m789m55p66p6p --from E\n"
    for rules in ("mcr", "hangzhou"):
        with pytest.raises(RoundError) as info:
            settle_round(win, rules)
        assert info.value.code == "round.not_sichuan" and "at_line" not in info.value.params
        assert str(info.value).startswith(f"rules {rules}: not a Sichuan ruleset")
        with pytest.raises(RoundError) as info:
            settle_round(f"rules {rules}\n" + win)
        assert str(info.value).startswith(f"line 1: rules {rules}: ")
