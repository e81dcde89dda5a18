"""The engine mechanisms added for MCR: knitted shapes, waits, combine-once families,
ties, fallback patterns, message placeholders, placement analysis, ruleset checks.

Expected values are worked by hand (each test says how) or, where marked, the
reference calculator PyMahjongGB's for the same hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scorer.errors import NotAWin, RulesetError
from scorer.model.notation import parse_tiles
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.rules.plan import plan_of
from scorer.search import special_shapes as S
from scorer.search.combine import resolve
from scorer.search.decompose import Group
from tests.conftest import ROOT, run_line


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t, _ in parse_tiles(text):
        c[t] += 1
    return tuple(c)


# -- shapes ---------------------------------------------------------------------------
def test_honors_knitted_takes_one_knitted_straight_and_honors() -> None:
    # 147m 258p 3s are all in the straight 147m-258p-369s; 7 honors: 七星不靠
    (d,) = S.honors_knitted(counts("147m258p3sESWNCFP"), 0)
    assert len(d) == 14 and all(g.kind == "single" for g in d)
    # 1m and 2m in one suit are not knitted: no reading
    assert S.honors_knitted(counts("1247m58p36sESWNCF"), 0) == ()
    # a pair is not allowed
    assert S.honors_knitted(counts("147m258p36sESWNCC"), 0) == ()


def test_honors_knitted_with_a_joker_fills_each_missing_tile() -> None:
    # 13 distinct tiles of 147m258p369s + ESWN: the joker may be any of 9 - 9 + 7 - 4 = 3
    # missing honors (C, F, P), nothing else
    got = S.honors_knitted(counts("147m258p369sESWN"), 1)
    assert sorted(g.tiles[0] for d in got for g in d if g.wild) == [31, 32, 33]


def test_knitted_straight_with_a_set_and_a_pair() -> None:
    (d,) = S.knitted_straight(counts("147m258p369s123sEE"), 0)
    assert [g.kind for g in d] == ["chow", "knit", "knit", "knit", "pair"]
    # with one fixed meld the concealed part is the knitted straight and a pair
    (d,) = S.knitted_straight(counts("147m258p369sEE"), 0)
    assert [g.kind for g in d] == ["knit", "knit", "knit", "pair"]
    # a missing 9s is filled by a joker
    (d,) = S.knitted_straight(counts("147m258p36s123sEE"), 1)
    assert [g.wild for g in d if g.kind == "knit"] == [(), (), (26,)]
    assert S.knitted_straight(counts("147m258p36s123sEE"), 0) == ()


def test_knitted_straight_stands_beside_one_claimed_set() -> None:
    # PyMahjongGB: 组合龙 12 + 单钓将 1 (the claimed set is not concealed: no 门前清)
    r = run_line("[123s,1]147m258p369sEE --from N", "mcr")
    assert sorted(h.pattern.id for h in r.best.hits) == ["knitted_straight", "single_wait"]
    assert r.best.score == 13


@pytest.mark.parametrize("line,fan", [
    ("12m456p789s234sEE3m --from N", "edge_wait"),      # 12m waits 3m only
    ("13m456p789s234sEE2m --from N", "closed_wait"),    # 13m waits 2m only
    ("123m456p789s234sEE --from N", "single_wait"),     # a lone E waits for its pair
])
def test_one_tile_waits(line: str, fan: str) -> None:
    ids = {h.pattern.id for h in run_line(line, "mcr").best.hits}
    assert fan in ids and not ({"edge_wait", "closed_wait", "single_wait"} - {fan}) & ids


def test_two_sided_wait_is_no_wait_fan() -> None:
    # 45m waits 3m and 6m: no 边张/嵌张/单钓 (花龙 8 + 门前清 2 = 10, PyMahjongGB agrees)
    r = run_line("45m123p789s234sEE6m --from N", "mcr")
    assert {h.pattern.id for h in r.best.hits} == {"mixed_straight", "concealed_hand"}


# -- concealed pungs on a discard ------------------------------------------------------
def test_discard_pung_of_the_winning_tile_is_claimed() -> None:
    # 1m completes only 111m: it counts as claimed, 999p is the one concealed pung, so no
    # 双暗刻 (PyMahjongGB: 门前清 2 + 连六 1 + 幺九刻 ×2 + 无字 1 = 6)
    with pytest.raises(NotAWin) as e:
        run_line("11m999p456s789s55s1m --from N", "mcr")
    r = e.value.details
    assert "two_concealed_pungs" not in {h.pattern.id for h in r.best.hits}
    assert r.best.score == 6
    # self-drawn, both pungs are concealed: 双暗刻 (PyMahjongGB: 10)
    r = run_line("11m999p456s789s55s1m --self-draw", "mcr")
    assert "two_concealed_pungs" in {h.pattern.id for h in r.best.hits}
    assert r.best.score == 10


# -- combine once ----------------------------------------------------------------------
def chow(s: int) -> Group:
    return Group("chow", (s, s + 1, s + 2))


SAME = (2, lambda g: g[0].tiles == g[1].tiles)
MIXED = (2, lambda g: g[0].tiles[0] % 9 == g[1].tiles[0] % 9 and g[0].tiles != g[1].tiles)
SIX = (2, lambda g: g[1].tiles[0] == g[0].tiles[0] + 3 and g[0].tiles[0] // 9 == g[1].tiles[0] // 9)
STEP3 = (3, lambda g: all(g[k].tiles[0] + 1 == g[k + 1].tiles[0] for k in (0, 1)))


def test_pairs_count_at_most_sets_minus_one() -> None:
    # 234567s 234567p: 喜相逢 234s-234p, 567s-567p; 连六 234s-567s, 234p-567p = 4 pairs over 4
    # chows: at most 3 count; the last pattern in order (连六) gives up one
    sets = [chow(1), chow(4), chow(19), chow(22)]
    assert resolve(sets, [SAME, MIXED, SIX]) == (0, 2, 1)


def test_three_set_pattern_then_one_more_pair() -> None:
    # 234m 345m 456m (shifted by one) + 789m: the three count once; 789m combines once more
    # with one of them: 456m-789m is 连六
    sets = [chow(1), chow(2), chow(3), chow(6)]
    assert resolve(sets, [STEP3, SAME, MIXED, SIX]) == (1, 0, 0, 1)


def test_mcr_combine_once_examples() -> None:
    # the reference calculator's own examples of 套算一次 (its source comments)
    r = run_line("234567s234567p55m --from N", "mcr")
    got = {h.pattern.id: h.count for h in r.best.hits}
    assert (got["mixed_double_chow"], got["short_straight"]) == (2, 1)
    r = run_line("234s223344567p55m --from N", "mcr")
    got = {h.pattern.id: h.count for h in r.best.hits}
    assert (got["pure_double_chow"], got["mixed_double_chow"], got["short_straight"]) == (1, 1, 1)


# -- ties, fallback, messages, placement ---------------------------------------------------
def test_ties_take_the_first_decomposition_in_set_order() -> None:
    # 3456667899p 666s + 9p: 345p 666p 789p 666s 99p (双同刻 2) and 345p 678p 999p 666s 66p
    # (连六 1 + 幺九刻 1) both total 6; the reference keeps the first in set order
    # (PyMahjongGB: 门前清 + 双同刻 + 缺一门 + 无字 = 6)
    with pytest.raises(NotAWin) as e:
        run_line("69p6s6653997p6s84p6s --seat S --round N --from N", "mcr")
    ids = {h.pattern.id for h in e.value.details.best.hits}
    assert ids == {"concealed_hand", "double_pung", "one_voided_suit", "no_honors"}


def test_chicken_hand_is_a_fallback() -> None:
    # nothing else counts: 无番和 8; any other fan (here 自摸) takes its place
    r = run_line("[123m,1][456p,1]555m78sCC6s --from W", "mcr")
    assert [h.pattern.id for h in r.best.hits] == ["chicken_hand"]
    with pytest.raises(NotAWin):
        run_line("[123m,1][456p,1]555m78sCC6s --self-draw", "mcr")  # 自摸 1: below 8


def test_below_minimum_message_names_the_minimum_and_json_keeps_the_fans() -> None:
    with pytest.raises(NotAWin) as e:
        run_line("123m456m789p234s55s --from S --option min_fan=6", "mcr")
    assert str(e.value) == "below 6 fan: 5 without flowers"
    out = subprocess.run([sys.executable, "-m", "scorer", "score", "123m456m789p234s55s",
                          "--rules", "mcr", "--from", "S", "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 3
    data = json.loads(out.stdout)
    assert data["error"]["reason"] == "below_minimum"
    assert sorted(p["id"] for p in data["best"]["patterns"]) == [
        "all_chows", "concealed_hand", "short_straight"]
    assert "payments" not in data and "payment_chain" not in data["best"]


def test_placement_analysis() -> None:
    # MCR never asks which group the winning tile completed: one placement per
    # decomposition; Hangzhou's 暴头 does ask
    assert plan_of(load_ruleset("mcr")).placement is False
    assert plan_of(load_ruleset("hangzhou")).placement is True


def test_mcr_house_extends_mcr() -> None:
    house = load_ruleset("mcr-house")
    base = load_ruleset("mcr")
    assert {p.id for p in base.patterns} < {p.id for p in house.patterns}
    assert len(house.patterns) - len(base.patterns) == 12  # the fan list's twelve starred fans


# -- ruleset checks -------------------------------------------------------------------
def _compile(tmp_path: Path, patterns: str) -> None:
    text = textwrap.dedent("""\
        id: t
        payment: {amount: score}
        patterns:
        """) + textwrap.indent(textwrap.dedent(patterns), "  ")
    f = tmp_path / "t.yaml"
    f.write_text(text, encoding="utf-8")
    compile_ruleset(text, str(f))


def test_combination_pattern_sees_only_its_sets(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="sees only the sets a, b"):
        _compile(tmp_path, """\
            - id: x
              combine: {of: chows, sets: 2}
              when: "a.tile == b.tile and self_draw"
              value: 1
            """)


def test_combination_pattern_needs_a_list_of_groups(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="must name a list of groups"):
        _compile(tmp_path, """\
            - id: x
              combine: {of: suits, sets: 2}
              when: "a.tile == b.tile"
              value: 1
            """)
    with pytest.raises(RulesetError, match="from 2 to 4"):
        _compile(tmp_path, """\
            - id: x
              combine: {of: chows, sets: 5}
              value: 1
            """)


def test_message_placeholders_are_checked(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        id: t
        not_a_win:
          - {id: m, on: result, when: "score < 1", message: "below {nonsense}"}
        patterns:
          - {id: p, value: 1}
        payment: {amount: score}
        """)
    with pytest.raises(RulesetError, match=r"\{nonsense\} is not a name here"):
        compile_ruleset(text, str(tmp_path / "t.yaml"))


def test_ties_prefer_names_patterns(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        id: t
        ties: {order: sets, prefer: [nope]}
        patterns:
          - {id: p, value: 1}
        payment: {amount: score}
        """)
    with pytest.raises(RulesetError, match="no pattern with id 'nope'"):
        compile_ruleset(text, str(tmp_path / "t.yaml"))
