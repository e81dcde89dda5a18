"""The JSON of a result is the same whether a formula's text comes from the memo of
scorer.views.pieces._render or is rendered afresh (scorer.lang.render is the oracle)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

from scorer import load_ruleset
from scorer.lang import Scope, compile_expr, formula_text
from scorer.memo import forget, held
from scorer.views import jsondata, pieces
from tests.helpers.handgen import GenHand, winning_hands


def fresh(rs: Any, c: Any, env: Any, lang: str, lab: Any) -> str:
    return formula_text(c, env, lab(rs, lang))


def texts(result: Any) -> list[str]:
    return [json.dumps(jsondata.to_json(result, lang), ensure_ascii=False)
            for lang in ("zh", "en", "zh")]


@given(winning_hands())
def test_json_is_the_same_with_and_without_the_memo(g: GenHand) -> None:
    result = g.won()
    if result is None:
        return  # a legal shape the ruleset refuses: nothing to render
    memo = texts(result) + texts(result)  # the second time from the memo
    original = pieces._render
    pieces._render = fresh  # type: ignore[assignment]
    try:
        plain = texts(result)
    finally:
        pieces._render = original
    assert memo == plain * 2


def rendered(rs: Any) -> Any:
    """The memo of rendered formulas the ruleset holds."""
    return held(rs, "views.rendered", pieces.RENDERED)


def test_the_memo_is_used() -> None:
    rs = load_ruleset("hangzhou")
    forget(rs, "views.rendered")
    from scorer import Context, score

    jsondata.to_json(score("123m456p789s234sP9m", rs, Context(self_draw=True, piao=2, seat="W")))
    assert len(rendered(rs))


def test_equal_values_of_other_types_are_not_confused() -> None:
    c = compile_expr("x * 2 if x else 0", Scope({"x": "int"}))
    assert formula_text(c, {"x": 1}, {}) != formula_text(c, {"x": True}, {})
    rs = load_ruleset("mcr")  # any ruleset: the memo keys on it
    for env in ({"x": 1}, {"x": True}, {"x": 1.0}, {"x": 1}):
        assert pieces._render(rs, c, env, "zh", lambda _rs, _lang: {}) == formula_text(c, env, {})


@pytest.mark.parametrize("value", [[1, 2], {"a": 1}])
def test_values_that_are_not_plain_are_rendered_each_time(value: Any) -> None:
    c = compile_expr("len(x)", Scope({"x": "list[int]"}))
    rs = load_ruleset("mcr")
    before = len(rendered(rs))
    assert pieces._render(rs, c, {"x": value}, "zh", lambda _rs, _lang: {}) == formula_text(
        c, {"x": value}, {})
    assert len(rendered(rs)) == before
