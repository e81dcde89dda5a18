"""The optimiser's plan: kept apart from the ruleset's data, holding the ruleset's caches."""

from __future__ import annotations

from dataclasses import fields

from scorer import Context, score
from scorer.lang import Scope, compile_expr
from scorer.rules.files import builtin_path
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.rules.model import Check, Ruleset
from scorer.rules.plan import Memo, Plan
from scorer.views.rulesview import with_options


def test_the_analysis_is_not_part_of_the_ruleset_data() -> None:
    names = {f.name for f in fields(Ruleset)}
    for analysis in ("detail", "features", "placement", "fast", "reusable", "payment_names",
                     "families", "max_tallies"):
        assert analysis not in names
        assert hasattr(load_ruleset("hangzhou").plan, analysis)


def test_the_plan_is_built_once_per_ruleset() -> None:
    rs = load_ruleset("hangzhou")
    assert rs.plan is rs.plan
    assert isinstance(rs.plan, Plan)
    # the same file compiled again is another ruleset, with a plan (and caches) of its own
    path = builtin_path("hangzhou")
    other = compile_ruleset(path.read_text(encoding="utf-8"), str(path))
    assert other.plan is not rs.plan
    # so is a copy with other option defaults (an id-keyed cache could confuse the two)
    assert with_options(rs, (("cap", "128"),)).plan is not rs.plan


def test_the_context_cache_is_the_plans() -> None:
    path = builtin_path("hangzhou")
    rs = compile_ruleset(path.read_text(encoding="utf-8"), str(path))
    assert len(rs.plan.tables) == 0
    score("123m456p789s234sPP", rs, Context(self_draw=True))
    score("123m456p789s234sP9m", rs, Context(self_draw=True))
    assert len(rs.plan.tables) == 1  # one set of flags, checked once
    score("123m456p789s234sPP", rs, Context(self_draw=True, seat="S"))
    assert len(rs.plan.tables) == 2
    assert len(rs.plan.settlements) == 2  # one payment cache per winner seat


def test_memo_is_bounded() -> None:
    m: Memo[int, int] = Memo(3)
    for k in range(10):
        m.put(k, k * k)
        assert len(m) <= 3
    assert m.get(9) == 81
    assert m.get(0) is None


def test_check_message_fills_its_placeholders() -> None:
    c = Check("min", compile_expr(True, Scope({})),
              "below the {min_fan}-fan minimum: {fan} fan without flowers")
    assert c.message({"min_fan": 8, "fan": 6}) == "below the 8-fan minimum: 6 fan without flowers"
    assert c.message({"min_fan": None, "fan": True}) == (
        "below the none-fan minimum: true fan without flowers")
