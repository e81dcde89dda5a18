"""scorer.cli.waitscmd: a way a tile cannot win is said under the table in the run's
language (the [n] notes, the skipped ways, "not ready"), from the refusal's code and
params; expected texts written by hand, in both languages."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from scorer.cli.app import app
from tests.helpers.bilingual import same_things

runner = CliRunner()


def _waits(*args: str) -> str:
    # at a terminal where no note folds: these tests read a note's words whole (at 80
    # columns they fold under their [n]: tests/cli/test_fit.py)
    r = runner.invoke(app, ["waits", *args], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize(("args", "zh", "en"), [
    # MCR: 6p and 7p complete the shape but fall below 8 fan
    (["123m456p789s2355p", "--rules", "mcr", "--from", "N"],
     ["说明：", "[1] 不够 8 番起和：不算花牌只有 3 番", "[2] 不够 8 番起和：不算花牌只有 5 番"],
     ["Notes:", "[1] below 8 fan: 3 without flowers",
      "[2] below 8 fan: 5 without flowers"]),
    # Hangzhou without 庄闲放铳: no discard wins, one note for every tile
    (["123m456p789s2355p", "--rules", "hangzhou"],
     ["说明：", "[1] 不许放铳：自摸加 --self-draw，或 --option discard_win=true"],
     ["Notes:", "[1] no discard wins: --self-draw, or --option discard_win=true"]),
])
def test_the_notes_under_the_table_are_in_the_run_language(args: list[str], zh: list[str],
                                                           en: list[str]) -> None:
    z, e = _waits(*args, "--lang", "zh"), _waits(*args, "--lang", "en")
    assert z.rstrip("\n").splitlines()[-len(zh):] == zh
    assert e.rstrip("\n").splitlines()[-len(en):] == en
    for a, b in zip(zh[1:], en[1:], strict=True):
        same_things(a, b)


def test_a_way_the_flags_rule_out_is_said_in_the_run_language() -> None:
    args = ["123m456p789s2355p", "--rules", "hangzhou", "--piao", "1"]
    z, e = _waits(*args, "--lang", "zh"), _waits(*args, "--lang", "en")
    assert "不算： 放铳：--from 和 --piao 互相矛盾：--piao 说的是自摸，而自摸的牌没有放铳者" in z.splitlines()
    assert ("Skipped: on a discard: --from and --piao contradict each other: --piao states a "
            "self-drawn win, and a self-drawn tile has no discarder") in e.splitlines()


def test_not_ready_is_said_in_the_run_language() -> None:
    z = _waits("1357m2468p13579s", "--rules", "mcr", "--lang", "zh")
    e = _waits("1357m2468p13579s", "--rules", "mcr", "--lang", "en")
    assert z.splitlines()[-1] == "听牌： 没听牌：没有牌能和这手牌"
    assert e.splitlines()[-1] == "Waits:   not ready: no tile completes the hand"


def test_the_json_says_why_as_a_code_with_its_params_in_both_languages() -> None:
    args = ["123m456p789s2355p", "--rules", "mcr", "--from", "N", "--json"]
    z = json.loads(_waits(*args, "--lang", "zh"))
    e = json.loads(_waits(*args, "--lang", "en"))
    oz = z["entries"][2]["outcomes"][0]
    oe = e["entries"][2]["outcomes"][0]
    assert oz["reason"] == "不够 8 番起和：不算花牌只有 3 番"
    assert oe["reason"] == "below 8 fan: 3 without flowers"
    assert oz["code"] == oe["code"] == "below_minimum"
    assert oz["error"]["code"] == oe["error"]["code"] == "rule.refused"
    assert oz["error"]["params"] == oe["error"]["params"]
    assert oz["error"]["params"]["values"] == {"min_fan": 8, "fan": 3}
    same_things(oz["reason"], oe["reason"])
