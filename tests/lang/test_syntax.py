"""scorer.lang.syntax: an expression that does not parse is said in our words, in zh and en,
at the column where it goes wrong; Python's SyntaxError text is never shown. Expected texts
written by hand, through 'rules check' of a file with that expression."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.lang.errors import ExprError
from scorer.lang.syntax import syntax_error
from tests.helpers.bilingual import rules_check_said

# (the when: expression, code, column of the file, zh, en); the expression starts at 2:27
CASES = [
    ("self_draw and (seven_pairs", "expr.unclosed", 41, "语法错误：'(' 没有配对的右括号",
     "syntax error: '(' is never closed"),
    ("self_draw)", "expr.unmatched", 36, "语法错误：')' 前面没有配对的左括号",
     "syntax error: ')' closes nothing before it"),
    ("self_draw && seven_pairs", "expr.write_instead", 37,
     "语法错误：规则表达式不写 '&&'，要写 'and'",
     "syntax error: a ruleset expression does not write '&&'; write 'and'"),
    ("fan = 8", "expr.write_instead", 31, "语法错误：规则表达式不写 '='，要写 '=='",
     "syntax error: a ruleset expression does not write '='; write '=='"),
    ("!self_draw", "expr.write_instead", 27, "语法错误：规则表达式不写 '!'，要写 'not'",
     "syntax error: a ruleset expression does not write '!'; write 'not'"),
    ("self_draw seven_pairs", "expr.syntax", 37, "语法错误：这里的 'seven_pairs' 读不下去",
     "syntax error: cannot go on at 'seven_pairs'"),
    ("self_draw and", "expr.syntax_end", 40, "语法错误：表达式提前结束了",
     "syntax error: the expression ends too early"),
    ("'abc", "expr.open_quote", 27, "语法错误：引号没有配对", "syntax error: a quote is never closed"),
    ("fan / 2 > 1", "expr.operator_use", 27, "不允许运算符 /（要写 //：整数除法）",
     "operator / is not allowed (write //: whole-number division)"),
]


@pytest.mark.parametrize(("expr", "code", "col", "zh", "en"), CASES, ids=[c[1] for c in CASES])
def test_a_syntax_error_is_said_in_both_languages(tmp_path: Path, expr: str, code: str, col: int,
                                                  zh: str, en: str) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(f'extends: hangzhou\npatterns: [{{id: a, when: "{expr}", value: 1}}]\n',
                 encoding="utf-8")
    rules_check_said(f, f"{f}:2:{col} patterns[0].when", zh, en)


@pytest.mark.parametrize("src", ["a b", "a and", "(a", "a)", "'a", "a && b", "a = 1", "1 +* 2",
                                 "f(,)", "a if b", "[1, 2", "x[", "lambda: 1 +"])
def test_no_syntax_error_carries_python_words(src: str) -> None:
    from scorer.lang.compile import compile_expr

    with pytest.raises(ExprError) as e:
        compile_expr(src, {})
    assert "error" not in e.value.params  # Python's SyntaxError.msg is not a parameter
    code, _, _ = syntax_error(src, None)
    assert 0 <= e.value.col <= len(src) and code.startswith("expr.")
