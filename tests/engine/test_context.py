"""Claims a table can trust: every claim consistent or refused, no silent default.

The rulings are docs/rulings.md#common-how-the-tile-came and #common-impossible-claims
(and #hangzhou-wildcard-discard, #xiamen-di). Each refusal is an input error (exit 2)
that names both claims, or the claim and the tile or meld that rules it out, on the
command line and in batch lines alike; never a traceback. The pairs are generated from
the flag table and, independently, written out by hand from the rulings.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # the test group installs tomli there
    import tomli as tomllib

import scorer
from scorer.lines.pool import score_record as _score_record
from scorer.rules.flags import FLAG, FLAGS, conflicts
from tests.cli.test_app import run

ROOT = Path(__file__).resolve().parents[2]

# one hand per ruleset that parses (a winning shape where it matters) and the flags each
# needs anyway (the 金 / 财神 face)
HANDS = {
    "hangzhou": ("123m456m789p234s55s", ["--option", "discard_win=true", "--dealer-streak", "3"]),
    "jinhua": ("123m456m789p234s55s", ["--wild", "9s"]),
    "xiamen": ("123m456m789p234s567s55p", ["--wild", "9m"]),
    "mcr": ("123m456m789p234s55s", []),
    "mcr-house": ("123m456m789p234s55s", []),
    "sichuan": ("123m456m789m22p345p", []),
}
RULESETS = list(HANDS)
# a value for each flag that takes one
VALUE = {"discarder": "S", "kongs": "1", "piao": "1", "you": "1"}


def _argv(field: str) -> list[str]:
    row = FLAG[field]
    return [row.name] if row.switch else [row.name, VALUE[field]]


def score_record(text: str, defaults: list[str], lang: str = "en") -> dict:
    """A line's record with its messages in English by default (their words are what these
    tests read; the Chinese has the same codes and parameters)."""
    return _score_record(text, defaults, lang=lang)


def _record(ruleset: str, flags: list[str], hand: str | None = None) -> dict:
    base, needs = HANDS[ruleset]
    line = " ".join([hand or base, *flags])
    return score_record(line, ["--rules", ruleset, *needs])


TABLE_PAIRS = sorted({tuple(sorted((a.field, b.field)))
                      for a, b in itertools.combinations(FLAGS, 2)
                      if conflicts([a.field, b.field])})

# written from docs/rulings.md#common-impossible-claims and #common-errors, not from the table
RULED_OUT = [
    *[(a, b) for a in ("heavenly", "earthly", "human")
      for b in ("last_tile", "kong_draw", "robbing_kong", "ready_at_deal")],
    ("heavenly", "earthly"), ("heavenly", "human"), ("earthly", "human"),
    ("robbing_kong", "kong_draw"), ("robbing_kong", "last_tile"), ("robbing_kong", "self_draw"),
    ("self_draw", "discarder"), ("kong_draw", "discarder"), ("kongs", "discarder"),
    ("piao", "discarder"), ("you", "discarder"), ("ready_at_deal", "discarder"),
    ("heavenly", "discarder"),
]


def test_the_table_rules_out_every_pair_the_rulings_do() -> None:
    assert {tuple(sorted(p)) for p in RULED_OUT} <= set(TABLE_PAIRS)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("pair", TABLE_PAIRS, ids="+".join)
def test_every_contradictory_pair_is_refused_naming_both(ruleset: str, pair) -> None:
    a, b = pair
    rec = _record(ruleset, [*_argv(a), *_argv(b)])
    err = rec.get("error")
    assert err is not None, rec
    assert err["kind"] == "context" and "internal" not in err["kind"]
    assert FLAG[a].name in err["message"] and FLAG[b].name in err["message"], err
    assert err["code"].startswith("flags.contradict") and "contradict each other" in err["message"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("pair", RULED_OUT[:6] + RULED_OUT[-7:], ids="+".join)
def test_contradictions_on_the_command_line(ruleset: str, pair) -> None:
    base, needs = HANDS[ruleset]
    code, out, err = run("score", base, "--rules", ruleset, *needs, *_argv(pair[0]),
                         *_argv(pair[1]))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mjscore: ") and "Traceback" not in err
    assert FLAG[pair[0]].name in err and FLAG[pair[1]].name in err


def test_the_issue_s_examples() -> None:
    rec = score_record("123m456p789s234s55s --wild 9m --heavenly --last-tile", ["--rules", "jinhua"])
    assert rec["error"]["message"].startswith("--last-tile and --heavenly contradict each other")
    rec = score_record("123m456p789s234s55s --wild 9m --human --seat S --last-tile",
                       ["--rules", "jinhua"])
    assert rec["error"]["message"].startswith("--last-tile and --human contradict each other")
    rec = score_record("123m456m789p234s55s --heavenly --self-draw --last-tile",
                       ["--rules", "mcr-house"])
    assert rec["error"]["message"].startswith("--last-tile and --heavenly contradict each other")
    rec = score_record("123m456m789p234s567s55p --wild 9m --self-draw --ready-at-deal --heavenly",
                       ["--rules", "xiamen"])
    assert rec["error"]["message"].startswith("--ready-at-deal and --heavenly contradict")


# -- claims the hand rules out --------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["jinhua", "xiamen", "mcr", "mcr-house", "sichuan"])
def test_robbing_kong_with_another_copy_names_the_tile(ruleset: str) -> None:
    # the winning 5s is the second 5s of the hand: the robbed pung held the other three
    hand = {"xiamen": "123m456m789p234s567p55s", "sichuan": "123m456m789m22s345s5s"}.get(
        ruleset, "123m456m789p234s55s")
    rec = _record(ruleset, ["--robbing-kong", "--from", "S"], hand)
    msg = rec["error"]["message"]
    # where: the second copy of 5s as written
    assert re.match(r"position \d+: --robbing-kong contradicts the hand: it holds another 5s$",
                    msg), msg


def test_robbing_kong_names_a_copy_in_a_meld() -> None:
    rec = score_record("[555s,1]123m456m789p22s5s --robbing-kong --from S", ["--rules", "mcr"])
    msg = rec["error"]["message"]
    assert msg.startswith("position 1: ") and msg.endswith("another 5s")  # the meld [555s,1]


def test_the_issue_s_mcr_robbed_kong_and_fourth_tile() -> None:
    for flag in ("--robbing-kong", "--fourth-tile"):
        code, _, err = run("score", "[123m,1][345p,1][678s,1]88mEE8m", "--rules", "mcr",
                           "--from", "N", flag)
        assert code == 2 and flag in err and err.startswith("mjscore: 第 25 个字符：") and "8m" in err


def test_fourth_tile_needs_no_concealed_copy_but_melds_may_show_them() -> None:
    rec = score_record("123m456p789s23s55s4s --from S --fourth-tile", ["--rules", "mcr"])
    assert "error" not in rec, rec
    rec = score_record("123m456p789s234s55s --from S --fourth-tile", ["--rules", "mcr"])
    assert rec["error"]["message"] == "position 17: --fourth-tile (和绝张): the hand holds another 5s"
    # three copies in sight among the melds: 和绝张 is possible
    rec = score_record("[555s,2]123m456p11p34s5s --from S --fourth-tile", ["--rules", "mcr"])
    assert rec.get("error", {}).get("kind") != "context", rec  # (below 8 fan: exit 3)


@pytest.mark.parametrize("ruleset", ["hangzhou", "jinhua", "mcr", "mcr-house", "sichuan"])
def test_kong_claims_without_the_kongs_name_the_melds(ruleset: str) -> None:
    one_kong = "[1111m]456m789p234s55s" if ruleset != "sichuan" else "[1111m]456m789m22p345p"
    if ruleset in ("hangzhou", "jinhua"):  # the rulesets that count consecutive kongs
        rec = _record(ruleset, ["--kongs", "2"], one_kong)
        assert rec["error"]["message"] == \
            "--kongs 2 needs 2 kong meld(s); the hand shows 1 (kongs: [1111m])"
    rec = _record(ruleset, ["--kong-draw"])
    assert rec["error"]["message"] == \
        "--kong-draw needs 1 kong meld(s); the hand shows 0 (none)"


@pytest.mark.parametrize("ruleset,flag", [
    ("jinhua", "--heavenly"), ("xiamen", "--heavenly"), ("mcr-house", "--heavenly"),
    ("sichuan", "--heavenly"), ("mcr-house", "--earthly"), ("sichuan", "--earthly"),
])
def test_first_round_wins_with_melds_name_the_meld(ruleset: str, flag: str) -> None:
    hand = {"xiamen": "[123m,1]456m789p234s567s55p", "sichuan": "[222m,1]456m789m22p345p"}.get(
        ruleset, "[123m,1]456m789p234s55s")
    rec = _record(ruleset, [flag, "--self-draw", "--seat", "S" if flag == "--earthly" else "E"],
                  hand)
    meld = hand[:hand.index("]") + 1]
    assert rec["error"]["message"].startswith(f"{flag}: {meld} cannot be claimed at the deal")


def test_mcr_house_human_is_before_any_claim() -> None:
    # docs/rulings.md#mcr-house-meanings: 人和 is won before any claim
    rec = score_record("[123m,1]456m789p234s55s --human --from S", ["--rules", "mcr-house"],
                       lang="zh")
    assert rec["error"]["message"].startswith("--human 和副露矛盾")
    assert (rec["error"]["code"], rec["error"]["params"]["check"]) == ("rule.error", "human_claimed")
    rec = score_record("[123m,1]456m789p234s55s --human --from S", ["--rules", "mcr-house"],
                       lang="en")
    assert rec["error"]["message"].startswith("--human contradicts the melds")


# -- how the tile came ----------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_silence_is_an_error_naming_both(ruleset: str) -> None:
    rec = _record(ruleset, [])
    msg = rec["error"]["message"]
    assert "--self-draw" in msg and "--from" in msg and rec["error"]["kind"] == "context"
    base, needs = HANDS[ruleset]
    code, _, err = run("score", base, "--rules", ruleset, *needs)
    assert code == 2 and "--self-draw" in err and "--from" in err


def test_hangzhou_without_discard_wins_needs_no_statement() -> None:
    # README: 123m456p789s234sP9m is 暴头 2 番; E dealer at 1 老庄: each idle pays 1 × 2 × 2 = 4
    rec = score_record("123m456p789s234sP9m", ["--rules", "hangzhou"])
    assert rec["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_flags_only_a_self_draw_carries_state_it() -> None:
    # mcr-house 天和: 平和 2 + 连六 1 (123m 456m) + 258将 1 (55s) + 天和 168 (which leaves out
    # 不求人 and 自摸) = 172; self-drawn by the dealer: each pays 8 + 172 = 180
    rec = score_record("123m456m789p234s55s --heavenly", ["--rules", "mcr-house"])
    assert rec["payments"] == {"E": 540, "S": -180, "W": -180, "N": -180}
    # Xiamen 天听 k 4 + 50: dealer 底 16, 水 0: (16 + 0) × 4 + 50 = 114 each
    rec = score_record("123m456m789p234s567s55p --wild 9m --ready-at-deal", ["--rules", "xiamen"])
    assert rec["payments"] == {"E": 342, "S": -114, "W": -114, "N": -114}


def test_batch_lines_say_how_the_tile_came(tmp_path: Path) -> None:
    f = tmp_path / "hands.txt"
    f.write_text("123m456m789p234s567s55p --wild 9m --self-draw\n"
                 "123m456m789p234s567s55p --wild 9m\n"
                 "123m456m789p234s567s55p --wild 9m --from S --you 1\n", encoding="utf-8")
    code, out, _ = run("batch", str(f), "--rules", "xiamen")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [("error" in r) for r in recs] == [False, True, True]
    assert "--self-draw" in recs[1]["error"]["message"]
    assert recs[2]["error"]["code"] == "flags.contradict_implied"
    assert recs[2]["error"]["message"].startswith("--from 和 --you 互相矛盾")


def test_a_dispute_side_that_drops_heavenly_keeps_the_self_draw() -> None:
    code, out, _ = run("score", "123m456m789p234s55s", "--rules", "mcr-house", "--heavenly",
                       "--vs", "mcr", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["b"]["ignored_flags"] == ["--heavenly"]
    # B: MCR's 平和 2 + 连六 1 + 不求人 4 = 7, below 8: not a win, said on that side
    assert "8" in json.dumps(data["b"])


# -- Hangzhou: a discarded 财神 ---------------------------------------------------------------
def test_hangzhou_refuses_a_discard_win_on_a_wildcard() -> None:
    code, _, err = run("score", "123m456m789p234s5sP", "--rules", "hangzhou", "--from", "W",
                       "--option", "discard_win=true", "--dealer-streak", "3")
    assert code == 3 and "财神不能放铳" in err


# -- bounds ---------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,flags,message", [
    ("xiamen", ["--self-draw", "--dealer-streak", "100000"],
     "--dealer-streak 100000: Xiamen counts at most 16 连庄"),
    ("xiamen", ["--self-draw", "--dealer-streak", "17"],
     "--dealer-streak 17: Xiamen counts at most 16 连庄"),
    ("xiamen", ["--self-draw", "--dealer-streak", "-1"],
     "--dealer-streak -1: Xiamen counts at least 0 连庄"),
    ("hangzhou", ["--self-draw", "--dealer-streak", "4"],
     "--dealer-streak 4: Hangzhou counts at most 3 老庄"),
    ("hangzhou", ["--self-draw", "--piao", "4"], "--piao 4: Hangzhou counts at most 3"),
    ("hangzhou", ["--self-draw", "--base", "0"], "--base 0: Hangzhou counts at least 1"),
    ("xiamen", ["--you", "4"], "--you 4: Xiamen counts at most 3"),
    ("xiamen", ["--you", "0"], "--you 0: Xiamen counts at least 1"),
    ("mcr", ["--self-draw", "--base", "5"], "--base has no meaning in the mcr ruleset"),
    ("jinhua", ["--self-draw", "--kongs", "5"], "--kongs 5: Jinhua counts at most 4"),
    ("mcr", ["--self-draw", "--flowers", "9"], "--flowers 9: there are only 8 flowers"),
    ("hangzhou", ["--self-draw", "--base", "1" + "0" * 13],
     "--base 10000000000000: Hangzhou counts at most 1000000000000"),
])
def test_numbers_out_of_range_name_the_flag(ruleset: str, flags: list[str], message: str) -> None:
    rec = _record(ruleset, flags)
    assert rec["error"]["message"].startswith(message), rec["error"]
    assert rec["error"]["message"].count(flags[-2]) == 1  # the flag once, not twice
    base, needs = HANDS[ruleset]
    code, _, err = run("score", base, "--rules", ruleset, *needs, *flags, "--lang", "en")
    assert code == 2 and err == f"mjscore: {rec['error']['message']}\n"
    # in Chinese (the default), the same code, flag and numbers
    zh = _score_record(" ".join([HANDS[ruleset][0], *flags]), ["--rules", ruleset,
                                                                 *HANDS[ruleset][1]])["error"]
    assert zh["code"] == rec["error"]["code"] and zh["message"].startswith(flags[-2])
    assert not re.search(r"[a-z]{3,} [a-z]{3,}", zh["message"]), zh["message"]
    code, _, err = run("score", base, "--rules", ruleset, *needs, *flags)
    assert code == 2 and err == f"mjscore: {zh['message']}\n"


def test_xiamen_longest_streak_pays_whole_amounts() -> None:
    # docs/rulings.md#xiamen-di: 底 2 × 8 × 2^16 = 1,048,576; 自摸 k 2, 水 0: 2,097,152 each
    rec = _record("xiamen", ["--self-draw", "--dealer-streak", "16"])
    assert rec["payments"] == {"E": 6291456, "S": -2097152, "W": -2097152, "N": -2097152}


# -- the hand split over several arguments --------------------------------------------------
def test_an_unquoted_hand_is_joined() -> None:
    quoted = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw", "--json")
    split = run("score", "123m", "456p", "789s", "234s", "P9m", "--rules", "hangzhou",
                "--self-draw", "--json")
    assert quoted[0] == split[0] == 0 and json.loads(quoted[1])["payments"] == \
        json.loads(split[1])["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}
    code, _, _ = run("waits", "123m", "456p", "789s", "234s", "P", "--rules", "hangzhou",
                       "--json")
    assert code == 0


def test_an_unquoted_hand_reports_positions_as_if_quoted() -> None:
    code, _, err = run("score", "123m", "456p", "789s", "234s", "P9x", "--rules", "hangzhou")
    _, _, quoted = run("score", "123m 456p 789s 234s P9x", "--rules", "hangzhou")
    assert code == 2 and err == quoted and "第 23 个字符" in err


def test_a_batch_line_with_a_split_hand() -> None:
    rec = score_record("123m 456p 789s 234s P9m --self-draw", ["--rules", "hangzhou"])
    assert rec["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}
    rec = score_record("--self-draw 123m 456p 789s 234s P9m", ["--rules", "hangzhou"])
    assert rec["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}


# -- the small ones -------------------------------------------------------------------------
def test_version_is_written_once() -> None:
    code, out, _ = run("--version")
    # then the build (tests/test_build.py checks which)
    assert code == 0 and re.fullmatch(r"mjscore 0\.1\.0 \((compiled|pure Python)\)\n", out), out
    assert scorer.__version__ == "0.1.0"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "scorer.__version__"}
    assert importlib.metadata.version("mjscore") == scorer.__version__


def test_vs_option_errors_name_vs_option() -> None:
    code, _, err = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       "--vs-option", "foo=bar", "--lang", "en")
    assert code == 2 and err.startswith("mjscore: --vs-option foo: no such option")


def test_rules_without_a_value_points_at_score_help() -> None:
    code, _, err = run("score", "123m456p789s234sP9m", "--rules")
    assert code == 2 and err.endswith("(mjscore score --help)\n")


def test_shell_completion_is_offered() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "--install-completion" in out


# -- rules check: every problem, in the user's file -----------------------------------------
def test_rules_check_lists_every_problem_in_the_users_file(tmp_path: Path) -> None:
    f = tmp_path / "three.yaml"
    f.write_text("extends: hangzhou\n"
                 "options:\n  cap: {default: 100}\n"
                 "patterns:\n  - id: baotou\n    value: \"fan_x + 1\"\n"
                 "context:\n  dealer_streak: {default: 9}\n", encoding="utf-8")
    code, out, err = run("rules", "check", str(f), "--lang", "en")
    lines = out.splitlines()
    assert code == 2 and len(lines) == 3, out
    assert all(line.startswith(f"{f}:") for line in lines), out
    assert [re.sub(r"^.*?:\d+:\d+ ", "", line).split(":")[0] for line in lines] == [
        "options.cap.default", "patterns[0].value", "context.dealer_streak.default"]
    assert "rulesets/" not in out and err == f"{f}: 3 problems\n"


def test_rules_check_a_missing_file_is_one_line(tmp_path: Path) -> None:
    code, out, err = run("rules", "check", str(tmp_path / "nope.yaml"), "--lang", "en")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mjscore: ruleset file not found: ")
    code, out, err = run("rules", "check", str(tmp_path / "nope.yaml"))
    assert code == 2 and err.startswith("mjscore: 找不到规则文件：")


def test_rules_check_points_an_inherited_problem_at_the_users_change(tmp_path: Path) -> None:
    # the built-in default (none) is no longer one of the values this file gives
    f = tmp_path / "values.yaml"
    f.write_text("extends: hangzhou\noptions:\n  cap: {values: [64, 128]}\n", encoding="utf-8")
    code, out, _ = run("rules", "check", str(f), "--lang", "en")
    assert code == 2 and out.startswith(f"{f}:3:3 options.cap.default: must be one of the values")
    assert out.count("\n") == 1


def test_options_take_a_mapping_as_the_command_line_takes_pairs() -> None:
    from scorer import Context, score

    hand = "123m456p789s234sP9m"
    # the mapping and the pairs are one context: equal, hashed alike, scored alike
    as_map = Context(self_draw=True, dealer_streak=3, options={"cap": 64})
    as_pairs = Context(self_draw=True, dealer_streak=3, options=(("cap", "64"),))
    assert as_map == as_pairs and hash(as_map) == hash(as_pairs)
    assert score(hand, "hangzhou", as_map).payments == score(hand, "hangzhou", as_pairs).payments
    # MCR's minimum as a number: examples/mcr.txt's 门前清 2 + 平和 2 + 连六 1 = 5 fan, no win
    # at the default 8, wins at 5
    five = Context(discarder="S", options={"min_fan": 5})
    assert score("123m456m789p234s55s", "mcr", five).best.score == 5
    assert Context(options={"xueliu": True}).options == (("xueliu", "true"),)
