"""Xiamen-specific behaviour beyond the golden payments, and the general mechanisms it added.

* conditional shapes (``shapes: [{shape: as_held, when: ...}]``) and the ``as_held`` shape
* a pattern's ``each:`` (the report names what it counted), ``also:`` shown in the chain
* the payment line ``(底 16 + 水 7) × 4 + 50 = 142 from each of S, W, N``
* golds read as themselves vs substituted, 白板 in melds, a gold in a meld
* 17-tile hands through the CLI (exit statuses, one-line messages)

Expected texts and values are worked by hand from docs/rulings.md (Xiamen section).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.cli.entry import main
from scorer.engine.result import Result
from scorer.errors import HandError, NotAWin, RulesetError
from scorer.model.notation import parse_tiles
from scorer.rules.load import compile_ruleset
from scorer.search.decompose import as_held
from scorer.views.pieces import chain_lines, payment_lines, wildcard_map
from scorer.views.report import human
from tests.conftest import run_line


def xm(line: str) -> Result:
    """Score a Xiamen line as the CLI would."""
    return run_line(line, "xiamen")


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t, _ in parse_tiles(text):
        c[t] += 1
    return tuple(c)


# ----------------------------------------------------------------------------- report
def test_payment_line_and_itemised_shui() -> None:
    # 游金: [CCC] 箭碰牌 1, NNN 风暗刻 2, [EEEE] 风明杠 3, one gold 1 = 水 7; dealer 底 16
    r = xm("[CCC,1][EEEE,2]123m456pNNN9s5s --wild 9s --self-draw")
    text = human(r, unicode=False, lang="en")
    assert "Payment:  (base 16 + shui 7) × 4 + 50 = 142 from each of S, W, N" in text
    text = human(r, unicode=False)
    assert "付分： (底 16 + 水 7) × 4 + 50 = 142，S, W, N 各付" in text
    assert chain_lines(r.ruleset, r.best) == [
        "游金 = k 4",
        "箭碰牌 [CCC] 1 + 风暗刻 NNN 2 + 风明杠 [EEEE] 3 + 金牌 1 = 水 7",
        "游金 50 = 奖 50",
    ]


def test_zero_bonus_is_left_out_of_the_payment_line() -> None:
    r = xm("123m456m789p234s567s55p --wild 9m --self-draw")
    assert payment_lines(r) == ["(底 16 + 水 0) × 2 = 32，S, W, N 各付"]
    assert payment_lines(r, lang="en") == ["(base 16 + shui 0) × 2 = 32 from each of S, W, N"]


def test_items_counted_twice_are_listed_one_by_one() -> None:
    # two concealed suited pungs, idle S on a discard: (8 + 1 + 1) × 1 = 10
    r = xm("123m678m777p333s456s55p --wild 9m --from E --seat S")
    assert "暗刻 777p 1 + 暗刻 333s 1 = 水 2" in chain_lines(r.ruleset, r.best)
    assert r.payments == {"E": -10, "S": 30, "W": -10, "N": -10}


def test_flowers_are_named_in_the_report() -> None:
    r = xm("123m456m789p234s567s55p --wild 9m --self-draw --flowers 1234f5f")
    text = human(r, unicode=False)
    assert "花牌： 春 夏 秋 冬 梅" in text
    assert "Flowers:  春 夏 秋 冬 梅" in human(r, unicode=False, lang="en")
    assert "花牌 1 + 春夏秋冬 8 = 水 9" in text


def test_hangzhou_payment_lines_use_the_same_wording() -> None:
    r = run_line("123m456p789s234sP9m --self-draw --piao 2 --seat W", "hangzhou")
    assert payment_lines(r) == ["底分 1 × 庄闲分 2 × 番 8 = 16，E 付",
                                "底分 1 × 庄闲分 1 × 番 8 = 8，S, N 各付"]
    assert payment_lines(r, lang="en") == ["base 1 × dealer factor 2 × fan 8 = 16 from E",
                                           "base 1 × dealer factor 1 × fan 8 = 8 from each of S, N"]


# ----------------------------------------------------------------------------- golds
def test_gold_used_as_itself_is_not_a_substitution() -> None:
    r = xm("123m46m5m789p234s567s55p --wild 5m --self-draw")
    assert [(w["reads"], w["as_self"]) for w in wildcard_map(r)] == [("5m", True)]
    assert r.best.wild_substituted == 0


def test_gold_substituted_in_a_chow() -> None:
    # 234s + 56s + gold reads 234s 456s or 234s 567s, or 123s 456s with the gold as 1s
    r = xm("123m456m789p234s56s9s55p --wild 9s --self-draw")
    [w] = wildcard_map(r)
    assert w["reads"] in ("1s", "4s", "7s") and not w["as_self"]
    assert r.best.wild_substituted == 1


def test_three_golds_as_held_are_golds() -> None:
    r = xm("123m456m789p23s9s9s9sEF5p --wild 9s --self-draw")
    assert r.best.reading.shape == "as_held"
    assert r.best.reading.win == -1  # judged without a winning group
    assert [w["as_self"] for w in wildcard_map(r)] == [True, True, True]


def test_white_dragon_takes_the_gold_face_in_a_meld_only() -> None:
    r = xm("[78sP,1]123m456m789p234s55p --wild 9s --self-draw")
    assert r.best.reading.describe()[0] == "[789s]"
    # outside melds P is a white dragon: PPP is a concealed dragon pung
    r = xm("123m456m789p234sPPP55p --wild 9s --self-draw")
    assert "PPP" in r.best.reading.describe()


def test_gold_in_a_meld_names_the_stand_in() -> None:
    with pytest.raises(HandError) as e:
        xm("[78s9s]123m456m789p234s55p --wild 9s --self-draw")
    assert str(e.value) == "position 1: no wildcard 9s in a meld; write P for its 白板"


def test_gold_in_a_meld_when_the_gold_is_the_white_dragon() -> None:
    # --wild P: the 白板 are the golds, so there is no stand-in to suggest
    with pytest.raises(HandError) as e:
        xm("[PPP,1]123m456m789p234s55p --wild P --self-draw")
    assert str(e.value) == "position 1: no wildcard P in a meld"


# ----------------------------------------------------------------------------- shapes
def test_as_held_groups() -> None:
    [groups] = as_held(counts("5555p777s1mE"), 2)
    kinds = sorted((g.kind, g.tiles) for g in groups)
    assert kinds == [("pung", (13, 13, 13)), ("pung", (24, 24, 24)), ("single", ()),
                     ("single", ()), ("single", (0,)), ("single", (13,)), ("single", (27,))]


def test_as_held_only_where_its_condition_holds() -> None:
    # two golds: the shape is not tried, and the message names only the complete shape
    with pytest.raises(NotAWin) as e:
        xm("123m456m789p23s9s9sEFC5p --wild 9s --self-draw")
    assert e.value.message == "not a winning hand: not a pair and 5 sets"


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "r.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_shape_condition_is_checked_at_load(tmp_path: Path) -> None:
    path = _write(tmp_path, "extends: xiamen\nshapes: [standard, {shape: as_held, "
                  "when: \"wild_cuont == 3\"}]\n")
    with pytest.raises(RulesetError) as e:
        compile_ruleset(Path(path).read_text(), path)
    [p] = e.value.problems
    assert p.key == "shapes[1].when" and "did you mean 'wild_count'" in p.message


def test_fourteen_tile_shapes_are_refused_for_seventeen(tmp_path: Path) -> None:
    path = _write(tmp_path, "extends: xiamen\nshapes: [standard, seven_pairs]\n")
    with pytest.raises(RulesetError) as e:
        compile_ruleset(Path(path).read_text(), path)
    assert [(p.key, p.message) for p in e.value.problems] == [
        ("shapes[1]", "seven_pairs is a 14-tile shape; this ruleset's hand_size is 17")]


def test_shape_entry_needs_a_shape(tmp_path: Path) -> None:
    path = _write(tmp_path, "extends: xiamen\nshapes: [standard, {when: \"wild_count == 3\"}]\n")
    with pytest.raises(RulesetError) as e:
        compile_ruleset(Path(path).read_text(), path)
    assert [(p.key, p.message) for p in e.value.problems] == [
        ("shapes[1].shape", "missing (a shape name)")]


def test_each_must_be_a_list_and_excludes_count(tmp_path: Path) -> None:
    path = _write(tmp_path, "extends: xiamen\npatterns:\n"
                  "  - {id: jinpai, each: wild_count}\n"
                  "  - {id: anke, count: 2}\n")
    with pytest.raises(RulesetError) as e:
        compile_ruleset(Path(path).read_text(), path)
    found = {(p.key, p.message.split(" (")[0].split(",")[0]) for p in e.value.problems}
    # an entry is named by its index in the file it is written in (this file's 0 and 1,
    # not the merged list's 24 and 11)
    assert ("patterns[0].each", "must give a list") in found
    assert ("patterns[1].each", "give count or each") in found


def test_extended_ruleset_without_stand_in(tmp_path: Path) -> None:
    path = _write(tmp_path, "extends: xiamen\nid: xiamen_nostandin\nwildcard: {stand_in: null}\n")
    with pytest.raises(HandError) as e:
        run_line("[78s9s]123m456m789p234s55p --wild 9s --self-draw", path)
    assert str(e.value) == "position 1: no wildcard 9s in a meld"


# ----------------------------------------------------------------------------- CLI
def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as e:
        main([*argv])
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(e.value.code or 0), out, err


@pytest.mark.parametrize("hand,where", [
    ("123m456m789p234s567s5p", "position 21: 16 tiles;"),  # the last tile
    ("123m456m789p234s567s555p", "position 23: 18 tiles (tile 18);")])
def test_cli_wrong_tile_count(capsys: pytest.CaptureFixture[str], hand: str,
                              where: str) -> None:
    code, out, err = _cli(capsys, "score", hand, "--rules", "xiamen", "--wild", "9m",
                          "--self-draw", "--lang", "en")
    assert code == 2 and out == ""
    assert err == f"mjscore: {where} a win needs 17 (+1 per kong)\n"


def test_cli_gold_on_a_discard_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys, "score", "123m456m789p234s56s9s55p", "--rules", "xiamen",
                          "--wild", "9s", "--from", "S", "--seat", "W", "--json")
    assert code == 3
    err_json = json.loads(out)["error"]
    assert err_json["kind"] == "not_a_win"
    assert "有金不能捉炮" in err_json["message"]
    assert err.startswith("mjscore: 有金不能捉炮：只能自摸")
    assert (err_json["code"], err_json["params"]["check"]) == ("rule.refused", "gold_discard")


def test_cli_json_payments(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "score", "[CCC,1][EEEE,2]123m456pNNN9s5s", "--rules", "xiamen",
                        "--wild", "9s", "--self-draw", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["best"]["score"] == 4
    assert data["best"]["tallies"] == {"k": 4, "shui": 7, "bonus": 50}
    assert data["payments"] == {"E": 426, "S": -142, "W": -142, "N": -142}
    items = {p["id"]: p.get("items") for p in data["best"]["patterns"]}
    assert items == {"youjin": None, "jianpeng": ["[CCC]"], "fengank": ["NNN"],
                     "fengminggang": ["[EEEE]"], "jinpai": None}


def test_rules_view_shows_the_conditional_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "rules", "xiamen", "--lang", "en")
    assert code == 0
    assert "hand: 17 tiles; shapes: standard, as held (when wild_count == 3)" in out
    code, out, _ = _cli(capsys, "rules", "xiamen")
    assert code == 0
    assert "手牌 17 张；牌型：标准型, 按手牌（条件 wild_count == 3）" in out
    assert "\n金：--wild 指定的牌" in out  # the gold, by its Xiamen name


# ----------------------------------------------------------------------------- examples
def _example_lines() -> list[tuple[str, str, int]]:
    """(hand line, winner seat, hand-worked amount) from the comment above each line."""
    import re

    out = []
    comment = ""
    path = Path(__file__).resolve().parents[2] / "examples" / "xiamen.txt"
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("#"):
            comment += raw
        elif raw.strip():
            seat, amount = re.findall(r"\(([ESWN]) \+(\d+)\)", comment)[-1]
            out.append((raw.strip(), seat, int(amount)))
            comment = ""
    return out


@pytest.mark.parametrize("line,seat,amount", _example_lines())
def test_examples_file(line: str, seat: str, amount: int) -> None:
    assert xm(line).payments[seat] == amount


# ----------------------------------------------------------------------------- expressions
def test_single_loop_comprehensions() -> None:
    from scorer.lang import Scope, compile_expr

    scope = Scope({"xs": "list[int]", "x": "int"})
    env = {"xs": (1, 2, 3), "x": 7}
    assert compile_expr("[y * 2 for y in xs if y > 1]", scope)(env) == (4, 6)
    assert compile_expr("[y for y in xs]", scope)(env) == (1, 2, 3)
    assert compile_expr("count(y for y in xs if y != 2)", scope)(env) == 2
    assert compile_expr("[y for y in xs if y > 1 if y < 3]", scope)(env) == (2,)
    assert "y" not in env and env["x"] == 7  # the loop variable does not leak
