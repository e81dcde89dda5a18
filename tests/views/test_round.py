"""scorer.views.round: a settled round's transfers are data (a reason and its parameters);
the words, in zh and en, are chosen here, for the text and the JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scorer.table.round import REASONS, Charge, settle_round
from scorer.text.words import WORDS
from scorer.views.round import reason_text, round_json, round_text

ROUNDS = Path(__file__).resolve().parents[1] / "rounds"

XUELIU = """rules sichuan-xueliu
S win 123m456m789m11p45p6p --from E
W kong 9s concealed
S win 123m456m789m11p45p3p --self-draw
E hand 13579m2468p2468p
W hand [9999s]111s222s333s5s
N hand 123p456p789p22m34m
"""


def test_every_reason_is_worded_in_both_languages() -> None:
    samples = [
        Charge("E", "S", 2, "kong", {"how": "from", "tile": "5p"}),
        Charge("E", "S", 1, "kong", {"how": "added", "tile": "5p"}),
        Charge("E", "S", 2, "kong", {"how": "concealed", "tile": "5p"}),
        Charge("E", "S", 17, "win", {"patterns": [
            {"id": "qinglongqidui", "name": "清龙七对", "name_en": "Full flush dragon seven pairs",
             "value": 32, "count": 1}], "multiplier": 32, "each": 17, "capped": 16, "added": 1}),
        Charge("E", "S", 6, "passed_on", {"seat": "E", "tile": "8s", "line": 3}),
        Charge("N", "S", 16, "huazhu", {"seat": "N"}),
        Charge("N", "S", 8, "not_ready", {"seat": "S", "tile": "7s", "multiplier": 8}),
        Charge("N", "E", 2, "refund", {"seat": "N", "tile": "5s", "line": 1}),
    ]
    assert {t.reason for t in samples} == set(REASONS)
    zh = [reason_text(t, "zh") for t in samples]
    en = [reason_text(t, "en") for t in samples]
    assert zh == ["直杠 5p", "补杠 5p", "暗杠 5p", "胡 清龙七对 32 = 32 倍，封顶 16，加底 1",
                  "呼叫转移: E 的杠 8s (第 3 行) 所得", "查花猪: N 是花猪",
                  "查大叫: S 听 7s 8 倍", "退税: N 的杠 5s (第 1 行)"]
    assert en == ["exposed kong 5p", "added kong 5p", "concealed kong 5p",
                  "win Full flush dragon seven pairs 32 = 32 x, capped at 16, added base 1",
                  "kong income passed on: E's kong 8s (line 3)",
                  "flower pig: N holds three suits", "not ready: S waits on 7s, 8x",
                  "kong refund: N's kong 5s (line 1)"]
    for key, (z, e) in WORDS.items():  # the same placeholders in both languages
        if key.startswith(("round_why.", "round_text.", "round_check.", "round_status.")):
            assert sorted(_holes(z)) == sorted(_holes(e)), key


def _holes(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def test_the_round_holds_no_words() -> None:
    r = settle_round((ROUNDS / "yipaoduoxiang.txt").read_text(encoding="utf-8"))
    for e in r.events:
        for t in e.transfers:
            assert t.reason in REASONS
            assert all(not isinstance(v, str) or v.isascii() for v in t.params.values()), t


def test_xueliu_json_and_text() -> None:
    r = settle_round(XUELIU)
    j = round_json(r, "en")
    assert j["mode"] == "xueliu" and j["ruleset"] == "sichuan-xueliu"
    assert {s: p["wins"] for s, p in j["players"].items()} == {"E": 0, "S": 2, "W": 0, "N": 0}
    wins = [e for e in j["events"] if e["kind"] == "win"]
    assert [(e["seat"], e["win"], e["tile"]) for e in wins] == [("S", 1, "6p"), ("S", 2, "3p")]
    kong = next(e for e in j["events"] if e["kind"] == "kong")
    # S has won and still pays W's concealed kong (血流成河)
    assert [(p["from"], p["amount"], p["reason"]) for p in kong["payments"]] == [
        ("E", 2, "kong"), ("S", 2, "kong"), ("N", 2, "kong")]
    assert kong["payments"][0]["params"] == {"how": "concealed", "tile": "9s"}
    json.dumps(j)  # plain data
    text = round_text(r, "en").splitlines()
    assert text[0] == "Sichuan (Blood flowing into a river) — base 1"
    assert "S: won (2 times)" in text and text[-1] == "total  E -22  S +5  W +20  N -3"
    zh = round_text(r, "zh").splitlines()
    assert zh[0] == "四川麻将（血流成河） — 底 1" and "S: 已胡（2 次）" in zh


def test_xueliu_by_the_option_names_it_in_the_heading() -> None:
    r = settle_round(XUELIU.replace("rules sichuan-xueliu", "rules sichuan --option xueliu=true"))
    assert r.mode == "xueliu" and r.totals == {"E": -22, "S": 5, "W": 20, "N": -3}
    assert round_text(r, "zh").splitlines()[0] == "四川麻将（血战到底） — 血流成河 — 底 1"


def test_cli_round_with_the_xueliu_ruleset() -> None:
    p = subprocess.run([sys.executable, "-m", "scorer", "round", "-", "--rules", "sichuan-xueliu",
                        "--json"], input=XUELIU.replace("rules sichuan-xueliu\n", ""),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["totals"] == {"E": -22, "S": 5, "W": 20, "N": -3}
