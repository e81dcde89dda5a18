"""scorer.text.render: where, what and the hint in one place; templates are data."""

from __future__ import annotations

import pickle

from scorer.errors import ContextError, NotationError, NotAWin, Problem, RulesetError
from scorer.text.render import body, fill, render, where, word


def test_where_prefixes_are_rendered_in_one_place_per_language() -> None:
    assert where({"position": 19}, "en") == "position 19: "
    assert where({"position": 19}, "zh") == "第 19 个字符："
    assert where({"at_line": 4, "position": 2}, "zh") == "第 4 行：第 2 个字符："
    assert where({"file": "a.yaml", "line": 3, "column": 1, "key": "x.y"}, "zh") == \
        "a.yaml:3:1 x.y: "
    assert where({"file": "", "key": "extends"}, "en") == "extends: "
    assert where({}, "en") == ""


def test_the_hint_is_a_parameter_worded_by_the_catalogue() -> None:
    p = {"name": "hangzou", "known": "hangzhou, mcr", "hint": "hangzhou"}
    assert body("ruleset.no_builtin", p, "en").startswith(
        "no built-in ruleset 'hangzou'; did you mean 'hangzhou'?; see mjscore rules list")
    assert "是不是 'hangzhou'？" in body("ruleset.no_builtin", p, "zh")
    assert word("hint", "en", hint=["a", "b"]) == "; did you mean 'a' or 'b'?"


def test_a_ruleset_template_is_never_run_as_a_format_string() -> None:
    # a ruleset is untrusted: {name} only, no attribute access, indexing or format spec
    hostile = "{x.__class__.__mro__} {x[0]} {x:>99999} {x!r} {x:word} {x}"
    got = render("rule.refused", {"message": {"zh": hostile, "en": hostile},
                                  "values": {"x": 5}}, "en")
    assert got == "{x.__class__.__mro__} {x[0]} {x:>99999} {x!r} {x:word} 5"


def test_lists_and_nested_words_follow_the_language() -> None:
    p = {"shapes": ["standard", "seven_pairs"], "sets": 4}
    assert body("win.not_complete", p, "en") == \
        "not a winning hand: not a pair and 4 sets or seven pairs"
    assert body("win.not_complete", p, "zh") == "不是胡牌：凑不成一对将加4副面子或七对"
    # more than two: the first and how many others, so that the line stays one line
    p = {"shapes": ["standard", "seven_pairs", "thirteen_orphans"], "sets": 4}
    assert body("win.not_complete", p, "en") == \
        "not a winning hand: not a pair and 4 sets or 2 other shapes"
    assert body("win.not_complete", p, "zh") == "不是胡牌：凑不成一对将加4副面子或另外 2 种牌型"
    assert fill("{a}", {"a": ["x", "y"]}, "zh") == "x、y"
    assert fill("{a}", {"a": ["x", "y"]}, "en") == "x, y"


def test_errors_carry_code_and_params_and_render_in_both_languages() -> None:
    e = NotationError("notation.unexpected_char", 19, "hand text", char="x", what="hand")
    assert (e.code, e.params) == ("notation.unexpected_char",
                                  {"char": "x", "what": "hand", "position": 19})
    assert str(e) == "position 19: unexpected character 'x' in the hand"
    assert e.render("zh") == "第 19 个字符：手牌里有意外的字符 'x'"
    assert e.detail == "unexpected character 'x' in the hand"


def test_an_error_survives_pickling_with_its_parameters() -> None:
    # a batch's workers send errors to the parent
    for e in (NotationError("notation.zero", 3, "0m"), ContextError("lang.bad", "--lang",
              value="fr"), NotAWin("win.not_complete", "not_winning", shapes=["standard"],
              sets=4), RulesetError(Problem("a.yaml", 1, 2, "k", "ruleset.too_big",
                                            {"path": "a.yaml"}))):
        back = pickle.loads(pickle.dumps(e))
        assert (type(back), back.code, back.params, str(back)) == (
            type(e), e.code, e.params, str(e))


def test_a_ruleset_error_says_how_many_more_problems_in_the_language() -> None:
    e = RulesetError([Problem("a.yaml", 1, 1, "k", "ruleset.too_big", {"path": "a"}),
                      Problem("a.yaml", 2, 1, "j", "ruleset.too_big", {"path": "a"})])
    assert str(e).endswith(" (+1 more)")
    assert e.render("zh").endswith("（另有 1 个问题）")
    assert e.code == "ruleset.too_big" and e.params["line"] == 1
