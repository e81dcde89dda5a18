"""The optimiser's plan: kept apart from the ruleset's data, holding the ruleset's caches."""

from __future__ import annotations

import re
from dataclasses import fields

from hypothesis import given
from hypothesis import strategies as st

from scorer import Context, score
from scorer.lang import Scope, compile_expr
from scorer.memo import Memo
from scorer.rules.files import builtin_path
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.rules.model import Check, Ruleset
from scorer.rules.plan import Plan, plan_of
from scorer.text import show
from scorer.views.rulesview import with_options


def test_the_analysis_is_not_part_of_the_ruleset_data() -> None:
    names = {f.name for f in fields(Ruleset)}
    for analysis in ("detail", "features", "placement", "fast", "reusable", "payment_names",
                     "families", "max_tallies"):
        assert analysis not in names
        assert hasattr(plan_of(load_ruleset("hangzhou")), analysis)


def test_the_plan_is_built_once_per_ruleset() -> None:
    rs = load_ruleset("hangzhou")
    assert plan_of(rs) is plan_of(rs)
    assert isinstance(plan_of(rs), Plan)
    # the same file compiled again is another ruleset, with a plan (and caches) of its own
    path = builtin_path("hangzhou")
    other = compile_ruleset(path.read_text(encoding="utf-8"), str(path))
    assert plan_of(other) is not plan_of(rs)
    # so is a copy with other option defaults (an id-keyed cache could confuse the two)
    assert plan_of(with_options(rs, (("cap", "128"),))) is not plan_of(rs)


def test_the_context_cache_is_the_plans() -> None:
    path = builtin_path("hangzhou")
    rs = compile_ruleset(path.read_text(encoding="utf-8"), str(path))
    assert len(plan_of(rs).tables) == 0
    score("123m456p789s234sPP", rs, Context(self_draw=True))
    score("123m456p789s234sP9m", rs, Context(self_draw=True))
    assert len(plan_of(rs).tables) == 1  # one set of flags, checked once
    score("123m456p789s234sPP", rs, Context(self_draw=True, seat="S"))
    assert len(plan_of(rs).tables) == 2
    assert len(plan_of(rs).settlements) == 2  # one payment cache per winner seat


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


_TEMPLATE = st.lists(st.one_of(st.sampled_from(["{a}", "{fan}", "{b}", "{", "}", "{a b}", "{{a}}"]),
                               st.text(alphabet="x -番{}", max_size=4)), max_size=6).map("".join)


@given(_TEMPLATE)
def test_a_check_message_fills_its_placeholders_as_a_substitution_would(template: str) -> None:
    # the reference: every {name} replaced by the value as a ruleset file writes it
    values = {"a": 1, "fan": True, "b": None}
    want = re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: show(values[m.group(1)]), template)
    check = Check("m", compile_expr(True, Scope({})), template)
    assert check.message(values) == want
    assert check.message(values) == want  # the second time from the remembered cut
