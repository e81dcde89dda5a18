"""The per-reading path: readings scored by the values of the names they read, the
reading's facts filled in at once, Envs that do not copy the hand's names.

Oracle: the same engine with the keyed scoring switched off (``scoring.KEYED`` false:
every reading's Env seeded with the hand's names, every reading evaluated, as before the
keyed path existed), whose results the golden suites hold; the names a plan reads are
written out by hand from rulesets/hangzhou.yaml.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Context, load_ruleset, score
from scorer.engine import scoring
from scorer.errors import EvaluationError, MjscoreError
from scorer.model.notation import parse_hand
from scorer.rules import facts as F
from scorer.rules.facts import Env
from scorer.rules.plan import plan_of
from scorer.views.explain import explain_json
from scorer.views.jsondata import to_json
from tests.helpers.handgen import GenHand, winning_hands

ROOT = Path(__file__).resolve().parents[2]
# Hangzhou's worst hands: four wildcards, a thousand readings
WORST = ("3m2mP7m8m9m8m9m9m4m8mPPP", "5s8p4sP4pP9pP8p9p7p7p4pP", "[7p8p9p,1]EEP7mPEP4m5m6mP")


def _context(flags: list[str]) -> Context:
    from scorer.cli.app import context_from_params, parse_score_args

    return context_from_params(parse_score_args(["1m", "--rules", "x", *flags]))


def outcome(line: str, rid: str) -> Any:
    """Everything a scored line shows: each candidate in order (reading, patterns, tallies,
    score, payments, tie rank), the readings ruled out, the JSON and the explain list."""
    hand, *flags = shlex.split(line)
    try:
        r = score(hand, load_ruleset(rid), _context(flags))
    except MjscoreError as e:
        return (type(e).__name__, str(e))
    return ([(s.reading, [(h.pattern.id, h.value, h.count, h.items, h.replaced_by)
                          for h in s.hits], [h.pattern.id for h in s.replaced], s.tallies,
              s.score, s.payments, s.wild_substituted, s.tie) for s in r.candidates],
            r.excluded, json.dumps(to_json(r, "en"), ensure_ascii=False),
            json.dumps(explain_json(r, "en"), ensure_ascii=False))


class unkeyed:
    """``with unkeyed():`` every reading evaluated and seeded, as before the keyed path."""

    def __enter__(self) -> None:
        scoring.KEYED = False
        assert not scoring._keyed(load_ruleset("hangzhou"))

    def __exit__(self, *exc: object) -> None:
        scoring.KEYED = True


def forget(rid: str) -> None:
    """The remembered outcomes of ``rid`` forgotten (its settlements are kept: other tests
    look at what the batch left there)."""
    plan = plan_of(load_ruleset(rid))
    for memo in (plan.met, plan.outcomes):
        memo.clear()


def both(lines: list[str], rid: str) -> Iterator[tuple[Any, Any]]:
    """Each line's outcome keyed (twice: the second from the memos) and unkeyed."""
    forget(rid)
    first = [outcome(x, rid) for x in lines]
    again = [outcome(x, rid) for x in lines]
    forget(rid)
    with unkeyed():
        plain = [outcome(x, rid) for x in lines]
    for a, b, p in zip(first, again, plain, strict=True):
        yield a, p
        yield b, p


def test_the_keyed_path_is_taken_where_it_is_meant_to_be() -> None:
    assert scoring._keyed(load_ruleset("hangzhou"))
    # their patterns read a reading's sets and groups: nearly every reading is new
    for rid in ("jinhua", "xiamen", "mcr"):
        assert not scoring._keyed(load_ruleset(rid))


def test_hangzhou_plan_names_as_its_file_writes_them() -> None:
    plan = plan_of(load_ruleset("hangzhou"))
    # patterns zimo .. qingqidui: when, value
    assert plan.found_names == ("discard", "kong_draw", "kongs", "lone_wild", "luxury", "piao",
                                "self_draw", "seven_pairs", "standard", "wild_count")
    # caibikao: "must_baotou_with_wild and wild_count > 0 and not lone_wild", no placeholder
    assert plan.check_names == ("lone_wild", "must_baotou_with_wild", "wild_count")
    assert plan.scalar_key
    assert [c.id for c in plan.reading_checks] == ["caibikao"]
    assert [c.id for c in plan.hand_checks] == ["discard_off", "discard_streak", "discard_idle",
                                               "baotou_discard", "wild_discard"]


@pytest.mark.parametrize("hand", WORST)
@pytest.mark.parametrize("flags", [["--self-draw"], ["--self-draw", "--piao", "2"],
                                   ["--self-draw", "--kong-draw", "--kongs", "2"],
                                   ["--self-draw", "--option", "must_baotou_with_wild=true"]])
def test_the_worst_hands_score_as_every_reading_evaluated(hand: str, flags: list[str]) -> None:
    line = shlex.join([hand, *flags])
    for keyed, plain in both([line], "hangzhou"):
        assert keyed == plain
    if "must_baotou_with_wild=true" in flags:  # ruled-out readings are kept, with the rule
        assert plain[1] and all("才比拷" in m["message"]["en"] for _, m in plain[1])


@settings(max_examples=60, deadline=None)
@given(st.lists(winning_hands("hangzhou"), min_size=1, max_size=5))
def test_hangzhou_hands_score_as_every_reading_evaluated(gs: list[GenHand]) -> None:
    for keyed, plain in both([g.line for g in gs], "hangzhou"):
        assert keyed == plain


@settings(max_examples=30, deadline=None)
@given(st.lists(winning_hands(), min_size=1, max_size=4))
def test_every_ruleset_scores_as_before(gs: list[GenHand]) -> None:
    # the others are not keyed, but their readings' facts are filled in at once too
    for g in gs:
        for keyed, plain in both([g.line], g.setup.rules):
            assert keyed == plain


def test_a_reading_env_sees_the_hand_names_it_does_not_copy() -> None:
    reading = score("123m456p789s234sPP", "hangzhou", Context(self_draw=True)).best.reading
    hand = Env(wild_face=33, luxury="an option", self_draw=True)
    renv = Env(hand, __reading__=reading)
    assert renv["self_draw"] is True
    assert renv["luxury"] == "an option"  # a hand name shadows the reading fact
    # a fact asked for beside it keeps the shadowed one too
    other = Env(hand, __reading__=reading)
    assert other["standard"] is True and other["luxury"] == "an option"
    assert Env(Env(wild_face=33), __reading__=reading)["luxury"] == 0


def test_reading_facts_are_each_fact_computed_alone() -> None:
    r = score("3m2mP7m8m9m8m9m9m4m8mPPP", "hangzhou", Context(self_draw=True))
    for s in r.candidates[:200]:
        got = F.reading_facts(s.reading, 33, None)
        assert set(got) == F.READING_FAMILY
        for name, value in got.items():
            fn = F.FACTS[name].fn
            assert fn is not None
            assert fn(Env(Env(wild_face=33), __reading__=s.reading)) == value, name


def test_a_failing_hand_check_is_named_where_it_is_written(tmp_path: Path) -> None:
    text = (ROOT / "rulesets" / "hangzhou.yaml").read_text(encoding="utf-8")
    when = 'when: "discard and not discard_win"'
    line = text[:text.index(when)].count("\n") + 1
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(when, 'when: "1 // (dealer_streak - 1) > 5"'),
                    encoding="utf-8")
    with pytest.raises(EvaluationError) as e:  # --dealer-streak defaults to 1
        score("123m456p789s234s99m", str(path), Context(self_draw=True))
    assert str(e.value) == (f"{path}:{line} not_a_win[0].when: division by zero in 1 // 0")


def test_remembered_readings_are_the_readings_searched_afresh() -> None:
    from scorer.search import readings as R

    rs = load_ruleset("hangzhou")
    spec = R.WildSpec(face=33, detail=plan_of(rs).detail, features=plan_of(rs).features)
    hands = ["123m456p789s234sP9m", "123m456p789s234s99m", "11223344556677s", "112233445566sP7s",
             WORST[0]]
    R.clear_memo()
    for text in hands * 2:  # the second time from the memo where it was kept
        interp = R.interpret(parse_hand(text), spec)
        args = (interp, spec, rs.shapes, rs.sets, True, False)
        assert R.readings(*args) == R._readings(*args)
    # the four-wildcard hand has more readings than are kept; the others are held
    assert sorted(len(v) for v in R._MEMO.values()) == sorted(
        len(R._readings(R.interpret(parse_hand(t), spec), spec, rs.shapes, rs.sets, True, False))
        for t in hands[:4])
    assert R._MEMO.size == sum(len(v) for v in R._MEMO.values()) <= R.MEMO_HELD
    R.clear_memo()
    assert not R._MEMO and R._MEMO.size == 0


def test_the_readings_memo_holds_a_bounded_number_of_readings() -> None:
    from scorer.search import readings as R

    R.clear_memo()
    rs = load_ruleset("mcr")
    spec = R.WildSpec()
    for k in range(3000):  # 3000 distinct hands, one reading or a few each
        a, b = k % 7, k // 7 % 7
        text = f"{a + 1}{a + 2}{a + 3}m{b + 1}{b + 2}{b + 3}p123s789s{k % 9 + 1}{k % 9 + 1}p"
        try:
            interp = R.interpret(parse_hand(text), spec)
        except MjscoreError:
            continue
        R.readings(interp, spec, rs.shapes, rs.sets, k % 2 == 0, False)
        assert R._MEMO.size <= R.MEMO_HELD
    R.clear_memo()


def facts_alone(g: GenHand) -> None:
    """Each reading's facts (filled in by the engine, or computed on use) are each fact's
    own function on a fresh Env of that reading; where the ruleset is not keyed, the
    families are in the Env as _build_readings made it."""
    from scorer.engine.context import resolve

    rs = g.setup.ruleset
    hand, *flags = shlex.split(g.line)
    h = parse_hand(hand)
    try:
        table = resolve(rs, _context(flags), h)
        renvs = scoring._build_readings(rs, table, scoring._check_input(h, rs, table))
        result = scoring._choose(h, rs, table, renvs)
    except MjscoreError:
        return
    names = set(F.READING_FAMILY) | (set(F.LISTS_FAMILY) if plan_of(rs).fill_lists else set())
    for s in result.candidates[:20]:
        alone = Env(table.env, __reading__=s.reading)
        if "__win_natural__" in s.env:
            alone["__win_natural__"] = s.env["__win_natural__"]
        assert s.wild_substituted == F._wild_sub(alone)
        for name in names:
            if not scoring._keyed(rs):
                assert dict.__contains__(s.env, name), name  # filled in, not computed on use
            fn = F.FACTS[name].fn
            assert fn is not None
            assert s.env[name] == fn(alone), (name, g.line)


@settings(max_examples=40, deadline=None)
@given(winning_hands())
def test_the_facts_filled_in_are_each_fact_computed_alone(g: GenHand) -> None:
    facts_alone(g)


@settings(max_examples=20, deadline=None)
@given(winning_hands("hangzhou", wild=True))
def test_keyed_readings_facts_are_each_fact_computed_alone(g: GenHand) -> None:
    facts_alone(g)


@settings(max_examples=40, deadline=None)
@given(st.lists(winning_hands("xiamen"), min_size=1, max_size=4))
def test_each_reading_counts_its_own_items(gs: list[GenHand]) -> None:
    # readings meeting the same patterns with the same counts share their outcome; the
    # items an `each` pattern counted (e.g. which pungs) are each reading's own
    rs = load_ruleset("xiamen")
    for g in gs * 2:  # the second time from the remembered outcomes
        hand, *flags = shlex.split(g.line)
        try:
            r = score(hand, rs, _context(flags))
        except MjscoreError:
            continue
        for s in r.candidates:
            for h in [*s.hits, *s.replaced]:
                if h.pattern.each is not None:
                    assert h.items == tuple(h.pattern.each(s.env)), (g.line, h.pattern.id)
