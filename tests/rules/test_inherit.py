"""extends: a ruleset file that starts from another (a built-in id or a path relative to
itself) and overrides options, values and names, adds and removes patterns.

Every expected position (file:line:col key) is counted by hand in the YAML text the test
writes; every expected score is worked from the Hangzhou rules (docs/rulings.md#hangzhou) in the `why`.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from scorer.engine.context import Context
from scorer.engine.scoring import score
from scorer.errors import RulesetError
from scorer.rules.load import load_ruleset


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def problems(spec: Path | str) -> list[str]:
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(spec))
    return [str(p) for p in info.value.problems]


# ----------------------------------------------------------------------------- merging
def test_extend_builtin_by_id_changes_one_option_default(tmp_path: Path) -> None:
    f = write(tmp_path / "cap.yaml", """
        extends: hangzhou
        options:
          cap: {default: 128}
        """)
    rs = load_ruleset(str(f))
    base = load_ruleset("hangzhou")
    assert rs.options["cap"].default == 128
    assert rs.options["cap"].values == base.options["cap"].values  # the rest is inherited
    assert [p.id for p in rs.patterns] == [p.id for p in base.patterns]
    assert rs.chain == ("cap.yaml", "hangzhou.yaml")
    # why: 七对子 with 三豪华 (1111m 2222m 3333p + 55s): 清七对 2^(2+3) = 32 番; dealer wins, each
    # idle pays 庄闲分 2 × 32 = 64, capped at 128 → not capped; at 3 老庄 8 × 32 = 256 → 128.
    r = score("1111m2222m3333p55s", rs, Context(self_draw=True, dealer_streak=3))
    assert r.best.score == 32
    assert r.payments == {"E": 384, "S": -128, "W": -128, "N": -128}


def test_id_defaults_to_the_file_name(tmp_path: Path) -> None:
    f = write(tmp_path / "our-table.yaml", "extends: hangzhou\n")
    rs = load_ruleset(str(f))
    assert rs.id == "our-table"  # never shown under its parent's id
    assert rs.name_en == "Hangzhou"  # names are inherited unless changed


def test_override_pattern_value_and_name_keeps_the_rest(tmp_path: Path) -> None:
    f = write(tmp_path / "h.yaml", """
        extends: hangzhou
        id: h
        patterns:
          - id: baotou
            name: 爆头
            value: 4
        """)
    rs = load_ruleset(str(f))
    p = rs.pattern("baotou")
    assert (p.name, p.name_en, p.value.src) == ("爆头", "Wildcard pair (bao tou)", "4")
    assert p.when.src == "standard and lone_wild and self_draw"
    assert [q.id for q in rs.patterns].index("baotou") == 2  # keeps its place
    # why: 123m 456p 789s 234s + lone P, wins on 9m: 暴头, now 4 番; dealer: 3 × 2 × 4 = 24
    r = score("123m456p789s234sP9m", rs, Context(self_draw=True))
    assert [h.pattern.name for h in r.best.hits] == ["爆头"]
    assert r.payments == {"E": 24, "S": -8, "W": -8, "N": -8}


def test_add_a_pattern_and_a_context_flag(tmp_path: Path) -> None:
    f = write(tmp_path / "h.yaml", """
        extends: hangzhou
        context:
          last_tile:
        patterns:
          - id: haidi
            name: 海底捞月
            when: last_tile and self_draw
            value: 4
        """)
    rs = load_ruleset(str(f))
    assert rs.patterns[-1].id == "haidi"
    assert "last_tile" in rs.flags and "piao" in rs.flags
    # why: a plain 自摸 (1) on the last tile: 海底捞月 4 is the better exclusive type; each
    # idle pays 2 × 4 = 8
    r = score("123m456m789p234s55s", rs, Context(self_draw=True, last_tile=True))
    assert [h.pattern.id for h in r.best.hits] == ["haidi"]
    assert r.payments["E"] == 24


def test_remove_drops_inherited_patterns(tmp_path: Path) -> None:
    f = write(tmp_path / "h.yaml", """
        extends: hangzhou
        remove: [qingqidui]
        """)
    rs = load_ruleset(str(f))
    assert "qingqidui" not in [p.id for p in rs.patterns]
    # why: 11 22 33m 55 77p 99s + 11m again: seven pairs, 豪华 1 → 七对子 2^(1+1) = 4 (清七对,
    # which would give 2^(2+1) = 8, is gone); dealer: each pays 2 × 4 = 8
    r = score("11112233m5577p99s", rs, Context(self_draw=True))
    assert r.best.score == 4 and r.payments["E"] == 24


def test_remove_then_same_id_replaces_the_entry_whole(tmp_path: Path) -> None:
    f = write(tmp_path / "h.yaml", """
        extends: hangzhou
        remove: [gangkai]
        patterns:
          - id: gangkai
            name: 杠上开花
            when: kong_draw
            value: 4
        """)
    rs = load_ruleset(str(f))
    p = rs.pattern("gangkai")
    assert (p.name, p.name_en, p.value.src, p.notes) == ("杠上开花", "杠上开花", "4", "")
    assert [q.id for q in rs.patterns][-1] == "gangkai"


def test_removed_ids_leave_the_replaces_lists(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", """
        extends: hangzhou
        patterns:
          - id: big
            when: seven_pairs
            value: 64
            replaces: [qidui, qingqidui]
        """)
    f = write(tmp_path / "child.yaml", """
        extends: base.yaml
        remove: [qidui]
        """)
    rs = load_ruleset(str(f))
    assert rs.pattern("big").replaces == frozenset({"qingqidui"})


def test_extend_a_file_by_a_path_relative_to_itself(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path / "club" / "base.yaml", """
        extends: hangzhou
        id: club
        options:
          cap: {default: 64}
        """)
    f = write(tmp_path / "me" / "mine.yaml", """
        extends: ../club/base.yaml
        id: mine
        patterns:
          - {id: zimo, value: 2}
        """)
    monkeypatch.chdir(tmp_path / "me" / "..")  # the cwd is not the file's folder
    rs = load_ruleset(str(f))
    assert rs.chain == ("mine.yaml", "base.yaml", "hangzhou.yaml")
    assert rs.options["cap"].default == 64 and rs.pattern("zimo").value.src == "2"


def test_editing_a_parent_file_is_seen_by_the_next_load(tmp_path: Path) -> None:
    parent = write(tmp_path / "p.yaml", "extends: hangzhou\noptions:\n  cap: {default: 64}\n")
    child = write(tmp_path / "c.yaml", "extends: p.yaml\n")
    assert load_ruleset(str(child)).options["cap"].default == 64
    write(parent, "extends: hangzhou\noptions:\n  cap: {default: 256}\n")
    st = parent.stat()
    os.utime(parent, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # coarse clocks
    assert load_ruleset(str(child)).options["cap"].default == 256


# ----------------------------------------------------------------------------- load errors
def test_cycle_is_an_error_with_the_chain(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", "id: a\nextends: b.yaml\n")
    b = write(tmp_path / "b.yaml", "id: b\n\nextends: a.yaml\n")
    # the loop closes at b.yaml line 3, col 10 (after 'extends: ')
    assert problems(tmp_path / "a.yaml") == [
        f"{b}:3:10 extends: extends itself in a cycle: a.yaml → b.yaml → a.yaml"]


def test_a_file_extending_itself(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "extends: ./a.yaml\n")
    assert problems(a) == [f"{a}:1:10 extends: extends itself in a cycle: a.yaml → a.yaml"]


def test_missing_parent_file_shows_the_chain(tmp_path: Path) -> None:
    mid = write(tmp_path / "club" / "mid.yaml", "id: mid\nextends: gone.yaml\n")
    top = write(tmp_path / "top.yaml", "extends: club/mid.yaml\n")
    [msg] = problems(top)
    assert msg.startswith(f"{mid}:2:10 extends: ruleset file not found: gone.yaml")
    assert msg.endswith("(chain: top.yaml → mid.yaml → gone.yaml)")


def test_missing_builtin_suggests_the_close_one(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", "extends: hangzou\n")
    [msg] = problems(f)
    assert msg.startswith(f"{f}:1:10 extends: no built-in ruleset 'hangzou'; did you mean "
                          "'hangzhou'?")
    assert msg.endswith("(chain: x.yaml → hangzou)")


def test_too_many_levels(tmp_path: Path) -> None:
    write(tmp_path / "l0.yaml", "extends: hangzhou\n")
    for i in range(1, 10):
        write(tmp_path / f"l{i}.yaml", f"extends: l{i - 1}.yaml\n")
    [msg] = problems(tmp_path / "l9.yaml")
    # l9 → l8 → … → l1 is 8 levels; l1's extends would be the 9th
    assert "more than 8 levels of extends" in msg and msg.startswith(f"{tmp_path / 'l1.yaml'}:1:10")


def test_remove_of_an_unknown_id(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", "extends: hangzhou\nremove:\n  - qidui\n  - qingqiduí\n")
    assert problems(f) == [f"{f}:4:5 remove[1]: no inherited pattern, error or not_a_win with "
                           "id 'qingqiduí'; did you mean 'qingqidui'?"]


def test_remove_without_extends(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", "id: x\nremove: [zimo]\n")
    assert problems(f) == [f"{f}:2:1 remove: remove: drops inherited entries; it needs "
                           "extends: (the ruleset to start from)"]


def test_change_of_a_pattern_that_does_not_exist(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", """
        extends: hangzhou
        patterns:
          - {id: zimo, value: 2}
          - {id: baotuo, value: 4}
        """)
    # a misspelt id would otherwise add a pattern that always applies (when defaults to true)
    # line 4 '  - {id: baotuo': the id's value starts at column 10
    assert problems(f) == [f"{f}:4:10 patterns[1].id: no inherited pattern 'baotuo' to change: "
                           "a new pattern needs when: (and name, value); did you mean 'baotou'?"]


# ----------------------------------------------------------------------------- positions
def test_error_in_the_child_points_into_the_child(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", """
        extends: hangzhou
        patterns:
          - id: baotou
            value: 2 * luxurie
        """)
    # the pattern is the child's patterns[0] (not hangzhou's index 2); line 4 is
    # '    value: 2 * luxurie': the expression starts at column 12, the name 4 later
    [msg] = problems(f)
    assert msg.startswith(f"{f}:4:16 patterns[0].value: unknown name 'luxurie'")


def test_error_in_a_parent_file_points_into_the_parent(tmp_path: Path) -> None:
    parent = write(tmp_path / "parent.yaml", """
        extends: hangzhou
        patterns:
          - id: new
            name: 新
            when: seven_pairs and lone_wilds
            value: 8
        """)
    child = write(tmp_path / "child.yaml", "extends: parent.yaml\nid: child\n")
    [msg] = problems(child)
    # line 5 is '    when: seven_pairs and lone_wilds': the value starts at column 11 and
    # 'lone_wilds' 16 characters later, at column 27
    assert msg.startswith(f"{parent}:5:27 patterns[0].when: unknown name 'lone_wilds'")
    assert msg.endswith(f"(inherited by {child})")


def test_override_that_breaks_a_builtin_expression(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", """
        extends: hangzhou
        options:
          cap: {values: [none, high], default: high}
        """)
    [msg] = problems(f)
    # hangzhou's payment.amount does min(zx * score, cap): the child made cap a text
    assert msg.startswith("rulesets/hangzhou.yaml:")
    assert " payment.amount: " in msg and msg.endswith(f"(inherited by {f})")


def test_new_pattern_without_id_in_a_child(tmp_path: Path) -> None:
    f = write(tmp_path / "x.yaml", """
        extends: hangzhou
        patterns:
          - {id: zimo, value: 2}
          - name: 无名
            when: seven_pairs
            value: 3
        """)
    assert problems(f) == [f"{f}:4:5 patterns[1].id: missing"]


# ----------------------------------------------------------------------------- broken house files
# (file text, the first problem after the file name). Positions counted in the text:
# line:column of the offending key or value, 1-based.
BROKEN = [
    ("extends: hangzhou\noptions:\n  cap: {default: 100}\n",
     ":3:18 options.cap.default: must be one of the values (none, 64, 128, 256)"),
    ("extends: hangzhou\npatterns: [baotou]\n",
     ":2:12 patterns[0]: must be a mapping (id, name, when, value)"),
    ("extends: hangzhou\npatterns:\n  id: baotou\n  value: 4\n",
     ":3:3 patterns: must be a list of patterns"),
    ("extends: hangzhou\nremove: [{id: x}]\n",
     ":2:10 remove[0]: must be the id of an inherited entry (text)"),
    ("extends: [hangzhou]\n",
     ":1:10 extends: must be a built-in ruleset id (e.g. hangzhou) or a path to a YAML file, "
     "relative to this file"),
    ("extends:\nid: f\n",
     ":1:9 extends: give the ruleset to start from: a built-in id (e.g. hangzhou) or a path to "
     "a YAML file, relative to this file"),
    ("extends: hangzhou\npattern:\n  - {id: baotou, value: 4}\n",
     ":2:1 pattern: unknown key 'pattern'; did you mean 'patterns'?"),
    ("extends: hangzhou\npatterns:\n  - {id: baotou, valeu: 4}\n",
     ":3:18 patterns[0].valeu: unknown key 'valeu'; did you mean 'value'?"),
    ("extends: hangzhou\npatterns:\n  - id: haidi\n    name: 海底\n    when: last_tile and "
     "self_draw\n    value: 4\n",
     ":5:11 patterns[0].when: uses 'last_tile', which needs the flag 'last_tile' listed under "
     "context: (a line '  last_tile:' below 'context:')"),
    ("extends: hangzhou.yaml\n",
     ":1:10 extends: ruleset file not found: hangzhou.yaml; a built-in ruleset is named by its "
     "id: extends: hangzhou (chain: x.yaml → hangzhou.yaml)"),
    ("extends: hangzhou\npatterns:\n  - {id: baotou, tally: fann}\n",
     ":3:25 patterns[0].tally: unknown tally 'fann'; did you mean 'fan'?"),
    ("extends: hangzhou\ncontext:\n  last_tile: yes\n",
     ":3:14 context.last_tile: must be a mapping (default/min/max)"),
    ("extends: hangzhou\n\tpatterns: []\n",
     ":2:1: a tab in the indentation: YAML indents with spaces only"),
    ("extends: hangzhou\npatterns:\n  - id: x\n    when: self_draw\n    value: 2\n  - id: x\n"
     "    when: seven_pairs\n    value: 2\n",
     ":6:9 patterns[1].id: id 'x' is used twice (also patterns[0])"),
    ("extends: hangzhou\npatterns:\n  - id: baotou\n    replaces: [zimoo]\n",
     ":4:16 patterns[0].replaces[0]: no pattern with id 'zimoo'; did you mean 'zimo'?"),
    ("extends: hangzhou\nid: my table\n", ":2:5 id: use letters, digits, '-' and '_' only"),
    ("extends: hangzhou\noptions:\n  cap: 128\n",
     ":3:8 options.cap: must be a mapping with values/default/description"),
    ("extends: hangzhou\nnot_a_win:\n  - when: self_draw\n", ":3:5 not_a_win[0].message: missing"),
]


@pytest.mark.parametrize("text,first", BROKEN, ids=[f"broken{i}" for i in range(len(BROKEN))])
def test_broken_house_file_names_file_line_and_key(tmp_path: Path, monkeypatch, text: str,
                                                   first: str) -> None:
    monkeypatch.chdir(tmp_path)  # the file as a newcomer names it: x.yaml
    Path("x.yaml").write_text(text, encoding="utf-8")
    assert problems("x.yaml")[0] == f"x.yaml{first}"


def test_score_with_a_broken_house_file_is_one_line_exit_2(tmp_path: Path) -> None:
    from tests.cli.test_app import run

    f = tmp_path / "x.yaml"
    f.write_text(BROKEN[8][0], encoding="utf-8")
    code, out, err = run("score", "123m456m789p234s55s", "--rules", str(f), "--lang", "en")
    assert (code, out) == (2, "")
    assert err == f"mjscore: {f}{BROKEN[8][1]}\n"
    code, out, err = run("score", "123m456m789p234s55s", "--rules", str(f), "--lang", "zh")
    assert (code, out) == (2, "")
    assert err == (f"mjscore: {f}:5:11 patterns[0].when: 用了 'last_tile'，它需要在 context: "
                   "下列出开关 'last_tile'（在 'context:' 下面加一行 '  last_tile:'）\n")
