"""The report a player checks against the tiles on the table, in zh and en.

Expected text is worked by hand from docs/rulings.md (Hangzhou 暴头/七客/财飘 and their
番, Jinhua's 白板 stand-in, Xiamen's 游金) and the hand as typed: character positions are
counted in the hand as written, groups in the order the reading lists them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from wcwidth import wcswidth

from scorer.engine.context import Context
from scorer.engine.ready import waits
from scorer.engine.scoring import score
from scorer.errors import RulesetError
from scorer.rules.load import compile_ruleset, list_builtin, load_ruleset
from scorer.table.dispute import dispute
from scorer.views import waits as waits_view
from scorer.views.dispute import dispute_text
from scorer.views.explain import explain_json, explain_text
from scorer.views.i18n import MESSAGES, display_width, t
from scorer.views.jsondata import to_json
from scorer.views.pieces import legend
from scorer.views.report import human
from scorer.views.rulesview import list_text, show_text
from tests.cli.test_app import run

BAOTOU = "123m456p789s234sP9m"  # four sets + a lone 财神 P, the winning 9m pairs it
STAND_IN = "2mP4m456p789s234s55s"  # Jinhua, --wild 3m: the 白板 P is an ordinary 3m


def lines_of(*args: str) -> list[str]:
    """The report's lines at a terminal wide enough that none folds: these tests read what
    the report says; tests/cli/test_fit.py holds every output to 80 columns."""
    os.environ["COLUMNS"] = "200"
    try:
        code, out, err = run("score", *args)
    finally:
        os.environ["COLUMNS"] = "80"
    assert code == 0, err
    return out.split("\n")


# ----------------------------------------------------------------------------- 1 the hand as typed
def test_the_hand_line_keeps_what_was_typed_and_the_sorted_form_follows() -> None:
    en = lines_of("[5555p]123m456s789s11s", "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert en[1] == "Hand:     [5555p]123m456s789s11s"
    assert en[2] == "Sorted:   [5555p]123m1456789s1s"
    # the tiles in the order typed: 5555p, 123m, 456s, 789s, 1s, then the winning 1s apart
    assert en[3] == "Tiles:    [🀝🀝🀝🀝] 🀇🀈🀉🀓🀔🀕🀖🀗🀘🀐 🀐"
    zh = lines_of("[5555p]123m456s789s11s", "--rules", "hangzhou", "--self-draw")
    assert zh[1] == "手牌： [5555p]123m456s789s11s"
    assert zh[2] == "理牌： [5555p]123m1456789s1s"


def test_full_width_input_is_shown_in_normal_spelling_in_the_typed_order() -> None:
    en = lines_of("１２３万 ４５６筒 ７８９条 ２３４条 白 ９万", "--rules", "hangzhou",
                  "--self-draw", "--lang", "en")
    assert en[1] == "Hand:     123m456p789s234sP9m"
    code, out, _ = run("score", "１２３万 ４５６筒 ７８９条 ２３４条 白 ９万", "--rules", "hangzhou",
                       "--self-draw", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["written"] == "123m456p789s234sP9m"
    assert data["hand"] == "123m456p234789sP9m"  # docs/contract.md: the normal form


def test_a_hand_typed_in_normal_form_has_no_second_line() -> None:
    en = lines_of("123m456p234789sP9m", "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert en[1] == "Hand:     123m456p234789sP9m" and en[2].startswith("Tiles:")


# ----------------------------------------------------------------------------- 2 every tile
def test_a_stand_in_is_marked_where_it_sits_with_a_legend_in_both_languages() -> None:
    en = lines_of(STAND_IN, "--rules", "jinhua", "--wild", "3m", "--self-draw", "--lang", "en")
    assert "Reading:  23~4m 456p 234s 789s 55s←   (standard)" in en
    # no wildcard in this hand, so the legend explains ~ and ← only
    assert "Legend:   ~ = P standing in for 3m · ← = completed by the winning tile" in en
    assert "Stand-in: P ×1 → 3m" in en
    zh = lines_of(STAND_IN, "--rules", "jinhua", "--wild", "3m", "--self-draw")
    assert "拆牌： 23~4m 456p 234s 789s 55s←   （标准型）" in zh
    assert "记号： ~ = P 替身，当 3m 用 · ← = 胡的那张" in zh
    assert "替身： P ×1 → 3m" in zh


def test_the_json_says_which_physical_tile_became_what() -> None:
    code, out, _ = run("score", STAND_IN, "--rules", "jinhua", "--wild", "3m", "--self-draw",
                       "--json")
    best = json.loads(out)["best"]
    # the P is the 2nd tile typed (index 1) at character 3 ("2mP"), and sits in 234m,
    # the reading's first group
    assert best["stand_ins"] == [{"index": 1, "position": 3, "tile": "P", "reads": "3m",
                                  "as_self": False, "group": 0}]
    assert best["reading"] == ["23~4m", "456p", "234s", "789s", "55s←"]
    assert best["wildcards"] == {} and best["wildcard_detail"] == []  # no 3m in the hand
    code, out, _ = run("score", BAOTOU, "--rules", "hangzhou", "--self-draw", "--json")
    assert code == 0
    best = json.loads(out)["best"]
    # P is the 13th tile typed (index 12) at character 17 ("123m456p789s234s" is 16
    # characters) and plays the 9m of the 5th group
    assert best["wildcard_detail"] == [{"index": 12, "position": 17, "face": "P", "reads": "9m",
                                        "as_self": False, "group": 4}]
    assert best["wildcards"] == {"12": "9m"}
    assert best["stand_ins"] == []


def test_a_winning_stand_in_is_marked_in_its_group() -> None:
    # 十三不靠 with --wild E: the winning 白板 P (17th character) is an ordinary E
    hand = "147m258p36sSWNCFP"
    en = lines_of(hand, "--rules", "jinhua", "--wild", "E", "--self-draw", "--lang", "en")
    assert "Reading:  1m 4m 7m 2p 5p 8p 3s 6s E~← S W N C F   (gapped honors)" in en
    code, out, _ = run("score", hand, "--rules", "jinhua", "--wild", "E", "--self-draw", "--json")
    assert code == 0
    assert json.loads(out)["best"]["stand_ins"] == [
        {"index": 13, "position": 17, "tile": "P", "reads": "E", "as_self": False, "group": 8}]


def test_no_legend_and_no_wildcard_marks_where_the_ruleset_has_no_wildcards() -> None:
    en = lines_of("123m456p789s234s9m9m", "--rules", "mcr", "--from", "S", "--lang", "en")
    assert not any(line.startswith("Legend:") for line in en)
    assert "Reading:  123m 456p 234s 789s 99m←   (standard; ← = completed by the winning tile)" \
        in en
    zh = lines_of("1111m3333m55m22p44p", "--rules", "sichuan", "--from", "S", "--seat", "W")
    assert not any(line.startswith("记号") for line in zh)
    r = score("123m456p789s234s9m9m", "mcr", Context(discarder="S"))
    assert legend(r, "en") == "" and to_json(r)["best"]["legend"] == ""


# ----------------------------------------------------------------------------- 3 why lines
def test_baotou_says_why_in_both_languages() -> None:
    en = lines_of(BAOTOU, "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert ("Why:      Wildcard pair (bao tou): without the winning 9m: 123m 456p 234s 789s "
            "+ a lone wildcard — waiting on every tile") in en
    zh = lines_of(BAOTOU, "--rules", "hangzhou", "--self-draw")
    assert "为何： 暴头：去掉胡的 9m，剩 123m 456p 234s 789s + 单独一张财神 — 听任意牌" in zh


def test_qike_and_youjin_say_why_and_the_wildcard_has_its_table_name() -> None:
    # 七客: six pairs and a lone 财神 P, the winning 7s pairs it: 2^(2+0+0) = 4 番
    en = lines_of("112233m4455p66sP7s", "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert ("Why:      Seven pairs on a lone wildcard: without the winning 7s: 11m 22m 33m 44p "
            "55p 66s + a lone wildcard — waiting on every tile") in en
    # 游金 (Xiamen): the gold is called 金, in the why line and as the wildcard line's head
    zh = lines_of("[CCC,1][EEEE,2]123m456pNNN9s5s", "--rules", "xiamen", "--wild", "9s",
                  "--self-draw")
    assert "为何： 游金：去掉胡的 5s，剩 [EEEE] [CCC] 123m 456p NNN + 单独一张金 — 听任意牌" in zh
    assert "金：   9s ×1 → 5s" in zh


def test_single_wait_says_what_was_waited_on() -> None:
    en = lines_of("123m456p789s234s9m9m", "--rules", "mcr", "--from", "S", "--lang", "en")
    assert ("Why:      Single Wait: without the winning 9m: 123m 456p 234s 789s + a lone 9m — "
            "waiting on 9m only") in en
    zh = lines_of("123m456p789s234s9m9m", "--rules", "mcr", "--from", "S")
    assert "为何： 单钓将：去掉胡的 9m，剩 123m 456p 234s 789s + 单独一张9m — 只听 9m" in zh


def test_a_pattern_that_does_not_read_the_wait_has_no_why_line() -> None:
    en = lines_of("[5555p]123m456s789s11s", "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert not any(line.startswith("Why:") for line in en)


def test_the_refusal_of_baotou_on_a_discard_says_why() -> None:
    args = (BAOTOU, "--rules", "hangzhou", "--from", "S", "--option", "discard_win=true",
            "--dealer-streak", "3")
    code, out, err = run("score", *args, "--lang", "en")
    assert code == 3 and out == ""
    assert err.rstrip("\n").endswith("(without the winning 9m: 123m 456p 234s 789s + a lone "
                                      "wildcard — waiting on every tile)")
    assert err.count("\n") == 1  # still one line
    code, out, err = run("score", *args, "--json")
    assert code == 3
    assert json.loads(out)["error"]["why"] == ("去掉胡的 9m，剩 123m 456p 234s 789s + "
                                               "单独一张财神 — 听任意牌")


# ----------------------------------------------------------------------------- 4 tiers
def test_tier_names_beside_the_formula() -> None:
    # 清七对 with three 豪华 (1111m 2222m 3333p): 2^(2+3) = 32 番 (docs/rulings.md Hangzhou)
    zh = lines_of("1111m2222m3333p55s", "--rules", "hangzhou", "--self-draw")
    assert "番种： 三豪华清七对 (清七对: 2^(2 + 豪华 3)) = 番 32" in zh
    en = lines_of("1111m2222m3333p55s", "--rules", "hangzhou", "--self-draw", "--lang", "en")
    assert ("Pattern:  triple luxury seven pairs without wildcards (Seven pairs without "
            "wildcards: 2^(2 + luxury 3)) = fan 32") in en
    # 七对子 with one four-of-a-kind and a 财神 in a pair: 豪华七对子, 2^(1+1) = 4
    code, out, _ = run("score", "1111m22p33p44s5sP6s6s", "--rules", "hangzhou", "--self-draw",
                       "--json")
    assert code == 0
    pats = json.loads(out)["best"]["patterns"]
    assert [(p["id"], p["value"], p["tier"]) for p in pats] == [
        ("qidui", 4, {"zh": "豪华七对子", "en": "luxury seven pairs"})]


def test_a_pattern_below_its_first_named_tier_has_no_tier() -> None:
    code, out, _ = run("score", BAOTOU, "--rules", "hangzhou", "--self-draw", "--piao", "1",
                       "--json")
    assert code == 0
    (pat,) = json.loads(out)["best"]["patterns"]
    assert pat["id"] == "piao" and pat["value"] == 4 and "tier" not in pat  # 财飘 2^(1+1)


def test_tiers_are_checked_when_the_ruleset_loads(tmp_path: Path) -> None:
    base = (load_ruleset("hangzhou").sources[0])
    text = Path(base).read_text(encoding="utf-8")
    bad = text.replace("name: 双财飘,", "name: \"双{nonsense}财飘\",", 1)
    assert bad != text
    with pytest.raises(RulesetError) as e:
        compile_ruleset(bad, "bad.yaml")
    msg = str(e.value)
    assert "tiers[0].name" in msg and "{nonsense} is not a number" in msg
    assert re.search(r"bad\.yaml:\d+", msg)
    with pytest.raises(RulesetError) as e:
        compile_ruleset(text.replace("- {when: piao == 2, name: 双财飘", "- {when: piao ==,"
                                     " name: 双财飘", 1), "bad.yaml")
    assert "tiers[0].when" in str(e.value)


# ----------------------------------------------------------------------------- 5 languages
# English labels that must not be left in a zh view (pattern names and a ruleset's own
# notes, option descriptions and expressions are the ruleset's)
ENGLISH_HEADS = ["Hand:", "Sorted:", "Tiles:", "Reading:", "Legend:", "Wildcard:", "Gold:",
                 "Stand-in:", "Why:", "Pattern:", "Payment:", "Replaced:", "Options:",
                 "Flowers:", "Below:"]
ENGLISH_WORDS = ["from each of", " from ", "winner", "(dealer)", "(idle)", "self-drawn",
                 "on a discard", "'s discard", "completed by", "wildcard (", "standing in",
                 "itself", "(standard", "seven pairs)", "without the winning", "waiting on",
                 "a lone", "discarder", "Readings considered", "best first", " more",
                 "not chosen", "pays less", "equal, listed", "same:", "Both rulesets",
                 " with cap", "not scored", "seat", "role", "points"]
ENGLISH_TABLE_HEADS = {"seat", "role", "points", "shape", "reading", "patterns", "score",
                       "winner", "why", "name", "English", "tally", "value", "when",
                       "replaces", "option", "values", "default", "meaning", "tiles", "tile",
                       "how"}


def _headers(text: str) -> list[str]:
    """The header lines of the text's tables: each line above a line of dashes."""
    lines = text.split("\n")
    return [lines[k - 1] for k in range(1, len(lines)) if re.fullmatch(r"[- ]*-{3,}[- ]*",
                                                                         lines[k])]


def _zh_views() -> list[str]:
    views = []
    for args, ctx in ((BAOTOU, Context(self_draw=True, piao=2, seat="W")),
                      ("1111m2222m3333p55s", Context(self_draw=True)),
                      (STAND_IN, Context(self_draw=True, wild="3m")),
                      ("[CCC,1][EEEE,2]123m456pNNN9s5s", Context(self_draw=True, wild="9s")),
                      ("234567s234567p55m", Context(discarder="N", seat="S", flowers="2"))):
        rid = {"1111m2222m3333p55s": "hangzhou", BAOTOU: "hangzhou", STAND_IN: "jinhua",
               "234567s234567p55m": "mcr"}.get(args, "xiamen")
        views.append(human(score(args, rid, ctx), "zh", explain=True))
    d = dispute("1111m2222m3333p55s", "hangzhou", Context(self_draw=True, dealer_streak=3),
                "hangzhou", Context(self_draw=True, dealer_streak=3, options=(("cap", "64"),)))
    views.append(dispute_text(d, "zh"))
    views.append(waits_view.human(waits("123m456p789s234sP", "hangzhou"), "zh"))
    return views


def test_no_english_label_is_left_under_lang_zh() -> None:
    for text in _zh_views():
        for line in text.split("\n"):
            if re.match(r"\[\d+\] ", line):  # a waits note: the ruleset's own message
                continue
            assert not any(line.startswith(h) for h in ENGLISH_HEADS), line
            # pattern names are Chinese here; what is left must not be an English label
            assert not any(w in line for w in ENGLISH_WORDS), (line, text)
        for head in _headers(text):
            assert not set(head.split()) & ENGLISH_TABLE_HEADS, head


def test_rules_views_have_no_english_label_under_lang_zh() -> None:
    for rid in list_builtin():
        text = show_text(rid, "zh").split("\n说明：")[0]  # the notes are the ruleset's
        for head in _headers(text):
            assert not set(head.split()) & ENGLISH_TABLE_HEADS, (rid, head)
        first_words = {line.split("：")[0] for line in text.split("\n") if "：" in line}
        assert not first_words & {"hand", "tallies", "context flags", "notes", "extends"}
        for label in ("hand:", "tallies:", "headline:", "context flags:", "notes:",
                      "(default", "only if nothing else counts"):
            assert label not in text, (rid, label)
    assert not set(_headers(list_text("zh"))[0].split()) & ENGLISH_TABLE_HEADS


def test_lang_en_has_no_chinese_label() -> None:
    text = human(score(BAOTOU, "hangzhou", Context(self_draw=True, seat="W", piao=2)), "en",
                 explain=True)
    for zh, _en in MESSAGES.values():
        if re.search(r"[\u4e00-\u9fff]", zh) and zh not in ("财神",):
            # a Chinese label other than the ruleset's words (财神, 底分, 庄闲分, 番) and
            # the names of the Hangzhou patterns
            assert zh.split("{")[0] not in text or zh.split("{")[0] == "", zh


def test_every_message_has_both_languages_and_the_same_placeholders() -> None:
    for key, (zh, en) in MESSAGES.items():
        assert zh and en, key
        assert sorted(re.findall(r"\{(\w+)\}", zh)) == sorted(re.findall(r"\{(\w+)\}", en)), key
    assert t("role_winner", "zh") == "胡家" and t("role_winner", "en") == "winner"


# ----------------------------------------------------------------------------- 6 widths
def test_tables_line_up_with_wide_characters() -> None:
    text = human(score(BAOTOU, "hangzhou", Context(self_draw=True, seat="W", piao=2)), "zh")
    table = text.split("\n\n")[-1].split("\n")
    # seat, role, points: the last column is right-aligned, so every line ends in one column
    assert len({wcswidth(line) for line in table}) == 1, table
    assert table[0].split() == ["座位", "角色", "分数"]
    assert table[2].split() == ["E（庄）", "付", "-16"]


def test_rules_pages_fit_100_columns() -> None:
    for rid in [*list_builtin(), "tests/house/hangzhou-streak3.yaml"]:
        if not Path(rid).suffix or Path(rid).is_file():
            for lang in ("zh", "en"):
                for line in show_text(rid, lang).split("\n"):
                    assert wcswidth(line) <= 100, (rid, lang, wcswidth(line), line)


def test_rules_pages_say_the_wildcard_suits_and_payment_in_words() -> None:
    # a wrapped line breaks at a space: read the page as one text
    en = show_text("hangzhou", "en").replace("\n", " ").replace("  ", " ")
    assert ("wildcard: P by default (or the tile --wild names); 4 in play — "
            "`tile('P') if wild_mode == 'fixed' else wild`") in en
    assert "suits: m characters p dots s bamboo — `['m', 'p'] if no_bamboo else ['m', 'p', "\
        "'s']`" in en
    assert "payment: each payer pays base × (min(dealer factor × fan, cap)" in en
    zh = show_text("jinhua", "zh").replace("\n", "")
    assert "财神：--wild 指定的牌（翻出的那张），3 张在场；P 当财神本来的牌用 — `wild`" in zh
    assert "财神" not in show_text("mcr", "zh").split("\n")[2]  # MCR: no wildcard line


def test_display_width_counts_wide_characters_twice() -> None:
    assert display_width("番种 ab") == wcswidth("番种 ab") == 7


# ----------------------------------------------------------------------------- 7 explain
def test_explain_has_one_row_per_reading_with_the_alternatives() -> None:
    r = score(BAOTOU, "hangzhou", Context(self_draw=True))
    listing = explain_json(r)
    # one reading: 暴头 2 番 (+12 for the dealer), or as a plain 自摸 1 番 (+6)
    assert len(listing) == 1
    assert [p["id"] for p in listing[0]["patterns"]] == ["baotou"]
    assert [[p["id"] for p in a["patterns"]] for a in listing[0]["alternatives"]] == [["zimo"]]
    assert listing[0]["why_not"] is None
    text = explain_text(r, "en")
    assert text.split("\n")[0] == "Readings considered (1 distinct, best first):"
    assert "+12 / +6" in text and "best" in text
    zh = explain_text(r, "zh")
    assert zh.split("\n")[0] == "考虑过的拆法（1 种不同，由高到低）："
    assert "暴头 2或自摸 1" in zh and "最佳" in zh


def test_explain_shows_the_best_n_and_how_many_more() -> None:
    r = score("123m456m789m3m3m2mP4m", "jinhua", Context(wild="3m", discarder="W"))
    listing = explain_json(r)
    readings = [tuple(x["reading"]) for x in listing]
    assert len(readings) == len(set(readings))  # no two rows read alike
    n = len(listing)
    assert n > 10
    text = explain_text(r, "en", width=200)
    assert text.split("\n")[0] == f"Readings considered ({n} distinct, best first):"
    assert text.split("\n")[-1] == f"… and {n - 10} more (--explain-top {n} lists them all)"
    # 财神头 ×4 and 清一色 ×2 (M 8: W pays 16, S and N 8: +32); a reading without 财神头
    # has M 2: +8
    assert "pays less (+8 < +32)" in text
    code, out, _ = run("score", "123m456m789m3m3m2mP4m", "--rules", "jinhua", "--wild", "3m",
                       "--from", "W", "--explain-top", "3", "--lang", "en")
    assert code == 0
    tail = out.rstrip("\n").split("\n")
    assert tail[-1] == f"… and {n - 3} more (--explain-top {n} lists them all)"
    rows = [line for line in tail if re.match(r"\s*\d+\s", line)]
    assert [int(line.split()[0]) for line in rows] == [1, 2, 3]


def test_explain_top_must_be_positive() -> None:
    code, _, err = run("score", BAOTOU, "--rules", "hangzhou", "--self-draw", "--explain-top",
                       "0")
    assert code == 2 and "--explain-top" in err


# ----------------------------------------------------------------------------- 9 MCR
def test_mcr_below_the_minimum_lists_its_fans() -> None:
    hand = "[123m,1][789p,1]345sNNN5p5p"
    code, out, err = run("score", hand, "--from", "N", "--seat", "S", "--rules", "mcr",
                         "--lang", "en")
    # fans (PyMahjongGB, as in tests/table/test_dispute.py): 幺九刻 1 + 单钓将 1 = 2 < 8; the error
    # stays one line on stderr (docs/contract.md), naming the fans found
    assert (code, out) == (3, "")
    assert err == ("mjscore: below 8 fan: 2 without flowers (Pung of "
                   "Terminals or Honors 1 + Single Wait 1 = fan 2)\n")
    code, out, err = run("score", hand, "--from", "N", "--seat", "S", "--rules", "mcr")
    assert code == 3
    assert err == "mjscore: 不够 8 番起和：不算花牌只有 2 番（幺九刻 1 + 单钓将 1 = 番 2）\n"
    code, out, _ = run("score", hand, "--from", "N", "--seat", "S", "--rules", "mcr", "--json")
    data = json.loads(out)
    assert code == 3 and data["error"]["reason"] == "below_minimum"
    assert [p["id"] for p in data["best"]["patterns"]] == ["pung_of_terminals_or_honors",
                                                           "single_wait"]


def test_explain_names_the_rule_that_excluded_a_reading() -> None:
    # 才比拷 (must_baotou_with_wild): a hand holding a 财神 must win as 暴头 and the like;
    # 123m 456p 2*34s 789s 5*5s← is 暴头 (2 番), while 123m 3*45p 345s← 789s 6*6p, with the
    # winning 5s in a chow, is no 暴头 and is ruled out by the rule (docs/rulings.md Hangzhou)
    r = score("123m456p789sPP3s4s5s", "hangzhou",
              Context(self_draw=True, options=(("must_baotou_with_wild", "true"),)))
    listing = explain_json(r, "en")
    ruled = [x for x in listing if "excluded" in x]
    message = "才比拷: with a 财神, win as 暴头, 财飘, 杠暴 or 七客"
    assert ruled and all(x["excluded"] == message for x in ruled)
    assert ["123m", "3*45p", "345s←", "789s", "6*6p"] in [x["reading"] for x in ruled]
    assert listing[0]["reading"] == ["123m", "456p", "2*34s", "789s", "5*5s←"]
    text = explain_text(r, "zh", top=len(listing), width=80)
    assert "规则不许：才比拷" in text  # the message folds in its column, within the width
    assert "下：手里有财神，" in text and max(wcswidth(x) for x in text.split("\n")) <= 80


def _columns_line_up(table: str) -> None:
    """Every row of a 'simple' table has its cells where the line of dashes puts the
    columns, counted in display columns (a CJK character takes two)."""
    lines = table.split("\n")
    dash = next(k for k, line in enumerate(lines) if re.fullmatch(r"[- ]*-{3,}[- ]*", line))
    starts = [m.start() for m in re.finditer(r"-+", lines[dash])]
    for line in [lines[dash - 1], *lines[dash + 1:]]:
        cols, col = {}, 0
        for ch in line:
            cols[col] = ch
            col += wcswidth(ch)
        for s in starts[1:]:
            # a cell starts on a column boundary, after the two spaces between columns
            assert s in cols or s >= col, (s, line)
            if s < col:
                assert cols.get(s - 1, " ") == " ", (s, line)


def test_explain_and_rules_tables_line_up_in_chinese() -> None:
    r = score("123m456m789m3m3m2mP4m", "jinhua", Context(wild="3m", discarder="W"))
    _columns_line_up(explain_text(r, "zh").split("\n", 1)[1].rsplit("\n", 1)[0])  # no "and K more"
    for rid in list_builtin():
        text = show_text(rid, "zh")
        start = next(k for k, line in enumerate(text.split("\n")) if line.startswith("id "))
        _columns_line_up("\n".join(text.split("\n")[start:]).split("\n（")[0])


def test_two_stand_ins_one_as_itself_one_as_the_face() -> None:
    # examples/jinhua.txt: 七风 with --wild E, one 白板 counts as 白 and the other (the
    # winning tile, 17th character) is an ordinary E
    hand = "147m258p3sSWNCFPP"
    en = lines_of(hand, "--rules", "jinhua", "--wild", "E", "--self-draw", "--lang", "en")
    assert "Reading:  1m 4m 7m 2p 5p 8p 3s E~← S W N C F P   (gapped honors)" in en
    assert "Stand-in: P ×2 → P (itself), E" in en
    zh = lines_of(hand, "--rules", "jinhua", "--wild", "E", "--self-draw")
    assert "替身： P ×2 → P（本身）, E" in zh
    code, out, _ = run("score", hand, "--rules", "jinhua", "--wild", "E", "--self-draw", "--json")
    assert code == 0
    assert json.loads(out)["best"]["stand_ins"] == [
        {"index": 12, "position": 16, "tile": "P", "reads": "P", "as_self": True, "group": 13},
        {"index": 13, "position": 17, "tile": "P", "reads": "E", "as_self": False, "group": 7}]
