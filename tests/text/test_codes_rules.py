"""scorer.text.codes_rules: a ruleset file's problems carry codes and are worded in zh and
en alike, naming the same file:line:column key, value and did-you-mean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorer.errors import RulesetError
from scorer.rules.load import compile_ruleset

# English words of three letters or more, two in a row: a sentence left in English
ENGLISH = re.compile(r"\b[a-z]{3,} [a-z]{3,}\b")

CASES = [
    # (file text, code, the zh message as a person reads it)
    ("id: x\npatterns: [{id: a, when: true, value: 1.5}]\n", "yaml.not_whole",
     "t.yaml:2:39 patterns[0].value: '1.5'：规则文件里的数字都是整数"),
    ("id: x\nid: y\n", "yaml.key_twice", "t.yaml:2:1 id: 这个键写了两次"),
    ("id: x\npaterns: []\n", "schema.unknown_key",
     "t.yaml:2:1 paterns: 未知的键 'paterns'；是不是 'patterns'？"),
    ("id: x\nhand_size: 15\npatterns: [{id: a, when: true, value: 1}]\n", "schema.hand_size",
     "t.yaml:2:12 hand_size: 必须是像 14 或 17 这样的整数（一对加若干三张的组）"),
    ("id: x\nshapes: [sevn_pairs]\npatterns: [{id: a, when: true, value: 1}]\n",
     "schema.unknown_shape",
     "t.yaml:2:10 shapes[0]: 未知的牌型 'sevn_pairs'；是不是 'seven_pairs'？"),
    ("id: x\npatterns: [{id: a, when: true, value: 1, tally: fann}]\ntallies: {fan: "
     "{combine: sum}}\n", "schema.unknown_tally",
     "t.yaml:2:49 patterns[0].tally: 未知的计数 'fann'；是不是 'fan'？"),
    ("id: x\npatterns: 3\n", "section.patterns", "t.yaml:2:11 patterns: 必须是牌型的列表"),
    ("extends: hangzhou\nwildcard: {face: wild, stand_in: X9}\n", "schema.stand_in_tile",
     "t.yaml:2:34 wildcard.stand_in: 'X9' 不是一张牌（写成 5p、3m、7s、E、C、1z、东 这样）"),
    ("extends: nowhere.yaml\n", "ruleset.not_found", None),
]


def _error(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        compile_ruleset(text, "t.yaml")
    return info.value


@pytest.mark.parametrize(("text", "code", "zh"), CASES)
def test_a_problem_is_a_code_worded_in_both_languages(text: str, code: str,
                                                      zh: str | None) -> None:
    e = _error(text)
    found = [p for p in e.problems if p.coded()[0] == code]
    assert found, [str(p) for p in e.problems]
    en_text, zh_text = found[0].render("en"), found[0].render("zh")
    if zh is not None:
        assert zh_text == zh
    assert not ENGLISH.search(zh_text.split(": ", 1)[1]), zh_text
    # the place, the value and the hint are the same in both
    assert en_text.split(" ", 2)[:2] == zh_text.split(" ", 2)[:2]
    for quoted in re.findall(r"'[^']*'", en_text):
        assert quoted in zh_text


def test_a_problem_in_a_file_another_extends_names_the_extending_file(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text("extends: hangzhou\nid: base\noptions:\n  cap: {default: 100}\n",
                    encoding="utf-8")
    e = _error("extends: base.yaml\nid: mine\n".replace("base.yaml", str(base)))
    assert e.problems[0].params["inherited_by"] == "t.yaml"
    assert e.problems[0].render("en").endswith(" (inherited by t.yaml)")
    assert e.problems[0].render("zh").endswith("（被 t.yaml 继承）")
    assert "必须是这些值之一（none、64、128、256）" in e.problems[0].render("zh")
