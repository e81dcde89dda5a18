"""scorer.rules.yamlproblems: what PyYAML could not read is a code of the catalogue, said in
zh and en at the same file:line:column, with what it names read from the file (never
PyYAML's English under zh). Expected texts written by hand; run through 'rules check'."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.errors import RulesetError
from scorer.rules.load import compile_ruleset
from tests.helpers.bilingual import rules_check_said

# (file text, code, where, zh, en)
CASES = [
    ("id: x\na: b: c\n", "yaml.mapping_here", "2:5",
     "这里不能有 ': '（键后面的冒号）：值里有 ': ' 的话，给值加上引号",
     "a ': ' (the colon after a key) is not allowed here: quote a value that holds ': '"),
    ("id: x\na: @x\n", "yaml.bad_char", "2:4",
     "'@' 不能开始一个 YAML 值（缩进用空格，不用制表符；以它开头的值要加引号）",
     "'@' cannot start a YAML value (indent with spaces, not tabs; quote a value that starts "
     "with it)"),
    ("id: x\na: 1\nb\nc: 2\n", "yaml.no_colon", "3:1",
     "这一行既不是 'key: value' 也不是 '- item'：键后面少了 ':'",
     "this line is neither 'key: value' nor '- item': the key has no ':'"),
    ("id: x\na: *nope\n", "yaml.undefined_alias", "2:4", "别名 *nope 没有对应的锚点 &nope",
     "the alias *nope has no anchor &nope"),
    ('id: x\na: "abc\n', "yaml.open_quote", "2:4",
     "这个引号没有配对：到文件结束都没有找到另一个引号",
     "this quote is never closed: no matching quote before the end of the file"),
    ("id: x\na: [1, 2\n", "yaml.open_list", "2:4",
     "这个 '[' 列表没有用 ']' 结束（或者它的项没有用 ',' 分开）",
     "this '[' list is not closed with ']' (or its items are not separated by ',')"),
    ("id: x\na: {x: 1\n", "yaml.open_map", "2:4",
     "这个 '{' 映射没有用 '}' 结束（或者它的项没有用 ',' 分开）",
     "this '{' mapping is not closed with '}' (or its entries are not separated by ',')"),
    ("id: x\na:\n  - 1\n b: 2\n", "yaml.indent", "4:2",
     "缩进和上面的键对不齐（或者一个值后面还有别的东西）",
     "the indentation does not line up with the keys above (or something follows a value on "
     "its line)"),
    ("id: x\na: ]\n", "yaml.no_value", "2:4", "这里少了一个值（多了一个 ']'、'}' 或 ','？）",
     "a value is missing here (a stray ']', '}' or ','?)"),
    ("id: x\n---\nb: 1\n", "yaml.documents", "2:1",
     "规则文件是一个 YAML 文档：这里又开始了一个（---）",
     "a ruleset file is one YAML document: another begins here (---)"),
    ("id: x\na: b\x07c\n", "yaml.control_char", "2:5", "文件里有控制字符 U+0007：YAML 不允许",
     "the file holds the control character U+0007: YAML does not allow it"),
]


@pytest.mark.parametrize(("text", "code", "at", "zh", "en"), CASES, ids=[c[1] for c in CASES])
def test_what_yaml_cannot_read_is_said_in_both_languages(tmp_path: Path, text: str, code: str,
                                                         at: str, zh: str, en: str) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(text, encoding="utf-8")
    rules_check_said(f, f"{f}:{at}", zh, en)
    with pytest.raises(RulesetError) as e:
        compile_ruleset(text, "t.yaml")
    assert e.value.code == code and "error" not in e.value.params


def test_a_tab_is_named_as_the_character_it_is() -> None:
    # the character comes from the file at PyYAML's mark, not from PyYAML's words
    with pytest.raises(RulesetError) as e:
        compile_ruleset("id: x\na:\n\tb: 1\n", "t.yaml")
    p = e.value.problems[0]
    assert p.coded() == ("yaml.bad_char", {"char": "\t"})
    assert p.render("zh").startswith("t.yaml:3:1: '\\t' 不能开始一个 YAML 值")
