"""The tile-profile facts, the hand facts filled in at once, the existence test of the
standard shape and the memo of reading outcomes give what the straightforward
computations give.

Oracles: the tile-profile facts are scanned here from their descriptions in
docs/facts.md (a tile-by-tile reading of each definition, nothing from
scorer.rules.facts); the eager hand facts are each fact's own function; standard_exists
the full enumeration scorer.search.decompose.standard; the outcome memo scoring after it
is emptied.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Context, load_ruleset, score
from scorer.errors import HandError, MjscoreError
from scorer.model.notation import parse_hand, parse_tiles
from scorer.rules import facts as F
from scorer.rules.facts import Env
from scorer.rules.plan import plan_of
from scorer.search import decompose as D
from scorer.search.readings import NO_WILD, WildSpec, interpret
from scorer.views.jsondata import to_json
from tests.helpers.handgen import GenHand, winning_hands

# The classes of tiles, written out by hand from docs/facts.md (tile t: 0-8 m, 9-17 p,
# 18-26 s, 27-30 E S W N, 31-33 C F P).
TERMINALS = {0, 8, 9, 17, 18, 26}
GREEN = {19, 20, 21, 23, 25, 32}  # 2 3 4 6 8 bamboo, F
REVERSIBLE = {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33}  # 1234589p 245689s P


def profile_by_scan(tiles: list[int]) -> dict[str, Any]:
    """Each profile fact as its description says, by looking at every tile."""
    suited = [t for t in tiles if t < 27]
    return {
        "suits": tuple(s for k, s in enumerate("mps") if any(t // 9 == k for t in suited)),
        "honor_tiles": len(tiles) - len(suited),
        "suited_tiles": len(suited),
        "has_wind": any(27 <= t <= 30 for t in tiles),
        "has_dragon": any(31 <= t <= 33 for t in tiles),
        "all_honors": all(t >= 27 for t in tiles),
        "all_terminals": all(t in TERMINALS for t in tiles),
        "all_yaojiu": all(t in TERMINALS or t >= 27 for t in tiles),
        "all_simples": all(t < 27 and t not in TERMINALS for t in tiles),
        "all_green": all(t in GREEN for t in tiles),
        "all_reversible": all(t in REVERSIBLE for t in tiles),
        "min_number": min((t % 9 + 1 for t in suited), default=0),
        "max_number": max((t % 9 + 1 for t in suited), default=0),
        "quads": sum(1 for t in set(tiles) if tiles.count(t) == 4),
    }


PROFILE = tuple(profile_by_scan([]))


def reading_envs(g: GenHand) -> list[Env]:
    result = g.won()
    return [] if result is None else [s.env for s in result.candidates]


def fresh_env(renv: Env) -> Env:
    """A reading's Env as the scorer makes it, before any reading fact is computed."""
    parent = renv.parent
    assert parent is not None
    hand_names = {k: v for k, v in parent.items() if not k.startswith("__profile")}
    env = Env(Env(**hand_names))
    dict.update(env, hand_names)
    env["__reading__"] = renv["__reading__"]
    if "__win_natural__" in renv:
        env["__win_natural__"] = renv["__win_natural__"]
    return env


@settings(max_examples=100, deadline=None)
@given(winning_hands())
def test_profile_facts_match_a_scan_of_the_tiles(g: GenHand) -> None:
    for renv in reading_envs(g):
        env = fresh_env(renv)
        tiles = [t for grp in env["__reading__"].groups for t in grp.tiles]
        want = profile_by_scan(tiles)
        assert {n: env[n] for n in PROFILE} == want, g.line
        # and each fact asked for first, on its own, gives the same
        for n in PROFILE:
            assert fresh_env(renv)[n] == want[n], (n, g.line)


@settings(max_examples=100, deadline=None)
@given(winning_hands())
def test_fill_hand_matches_each_eager_fact_alone(g: GenHand) -> None:
    h = parse_hand(g.text)
    try:
        spec = g.score().table.wild
    except MjscoreError:
        spec = NO_WILD
    try:
        interp = interpret(h, spec)
    except HandError:
        return
    env = Env()
    F.fill_hand(env, h, interp)
    for f in F.EAGER_HAND:
        assert env[f.name] == f.fn(env), (f.name, g.line)  # type: ignore[misc]


def test_an_option_named_like_a_profile_fact_keeps_its_value() -> None:
    reading = score("123m456p789s234sPP", "hangzhou", Context(self_draw=True)).best.reading
    env = Env(Env(wild_face=33), wild_face=33, suits="an option", __reading__=reading)
    assert env["has_wind"] is False  # the other profile facts are computed ...
    assert env["suits"] == "an option"  # ... without overwriting a name already there


counts_st = st.lists(st.integers(0, 4), min_size=34, max_size=34)


@settings(max_examples=300, deadline=None)
@given(counts_st, st.integers(0, 5), st.integers(0, 5))
def test_standard_exists_is_whether_standard_finds_one(c: list[int], jokers: int,
                                                       sets: int) -> None:
    # trim to the right number of tiles, so the question is not refused at once
    need = 2 + 3 * sets - jokers
    counts = list(c)
    while sum(counts) > need > 0:
        k = max(range(34), key=lambda t: (counts[t], t))
        counts[k] -= 1
    key = tuple(counts)
    assert D.standard_exists(key, jokers, sets) == bool(D.standard(key, jokers, sets))


@pytest.mark.parametrize("text, jokers, sets, want", [
    ("1112345678999m", 1, 4, True),   # nine gates plus any tile
    ("1112345678999m", 0, 4, False),  # 13 tiles: one short
    ("19m19p19sESWNCF", 1, 4, False),  # thirteen lone tiles: no 4 sets with one wildcard
    ("EESSWWNNCCFFP", 1, 4, False),  # seven pairs of honors, one wildcard: no 4 sets
    ("EEESSSWWWNNNC", 1, 4, True),  # four pungs, the wildcard pairs C
    ("123m", 11, 4, True),  # wildcards make the rest
    ("", 14, 4, True),  # only wildcards
])
def test_standard_exists_worked_by_hand(text: str, jokers: int, sets: int, want: bool) -> None:
    counts = [0] * 34
    for t, _ in parse_tiles(text) if text else ():
        counts[t] += 1
    assert D.standard_exists(tuple(counts), jokers, sets) is want


def records(lines: list[str], rid: str, clear: bool) -> list[str]:
    rs = load_ruleset(rid)
    out = []
    for line in lines:
        if clear:
            plan_of(rs).outcomes.clear()
            plan_of(rs).settlements.clear()
        hand, *flags = shlex.split(line)
        ctx = _context(flags)
        try:
            out.append(json.dumps(to_json(score(hand, rs, ctx), "en"), ensure_ascii=False))
        except MjscoreError as e:
            out.append(str(e))
    return out


def _context(flags: list[str]) -> Context:
    from scorer.cli.app import context_from_params, parse_score_args

    return context_from_params(parse_score_args(["1m", "--rules", "x", *flags]))


@settings(max_examples=40, deadline=None)
@given(st.lists(winning_hands(), min_size=2, max_size=6))
def test_outcome_memo_gives_what_scoring_afresh_gives(gs: list[GenHand]) -> None:
    for g in gs:
        rid = g.setup.rules
        lines = [x.line for x in gs if x.setup.rules == rid]
        lines = lines + lines[::-1]  # the same hands again, from the memo
        assert records(lines, rid, clear=False) == records(lines, rid, clear=True)


def test_the_outcome_memo_is_shared_by_hands() -> None:
    rs = load_ruleset("mcr")
    plan_of(rs).outcomes.clear()
    ctx = Context(self_draw=True)
    score("123m456m789m123p11s", rs, ctx)
    size = sum(len(m) for m in plan_of(rs).outcomes.values())
    score("123m456m789m123p11s", rs, ctx)  # the same patterns: nothing new stored
    assert sum(len(m) for m in plan_of(rs).outcomes.values()) == size > 0


def test_a_remembered_bad_meld_is_reported_where_it_is_written() -> None:
    spec = WildSpec(face=33, in_melds=False)
    for text, pos in (("[55pP]123m456s789s1p1p", 1), ("[123m][55pP]456s789s1p1p", 7)):
        with pytest.raises(HandError) as e:
            interpret(parse_hand(text), spec)
        assert e.value.position == pos
        assert "no wildcard P in a meld" in str(e.value)


def test_the_outcome_memo_keeps_no_env_or_reading_alive() -> None:
    import gc

    from scorer.search.readings import Reading

    rs = load_ruleset("hangzhou")
    plan_of(rs).outcomes.clear()
    for hand in ("123m456p789s234sP9m", "123m456p789s234s99m", "11223344556677s"):
        score(hand, rs, Context(self_draw=True))
    todo = [plan_of(rs).outcomes]
    seen: set[int] = set()
    while todo:  # everything the memo holds, as far as it reaches
        x = todo.pop()
        if id(x) in seen or isinstance(x, type):
            continue
        seen.add(id(x))
        assert not isinstance(x, (Env, Reading)), type(x)
        if isinstance(x, (dict, list, tuple)) or type(x).__module__.startswith("scorer"):
            todo.extend(gc.get_referents(x))
    assert len(seen) > 10


def test_patterns_met_are_remembered_within_a_hand_by_the_values_they_read() -> None:
    # four wildcards: a thousand readings, few distinct values of standard, lone_wild, ...
    rs = load_ruleset("hangzhou")
    hand, ctx = "3m2mP7m8m9m8m9m9m4m8mPPP", Context(self_draw=True)
    with_memo = score(hand, rs, ctx)
    assert len(with_memo.candidates) >= 1000
    from scorer.engine import scoring

    many = scoring._MANY_READINGS
    scoring._MANY_READINGS = 10**9  # no hand has that many: no memo
    try:
        plan_of(rs).outcomes.clear()
        plain = score(hand, rs, ctx)
    finally:
        scoring._MANY_READINGS = many

    def summary(r: Any) -> list[Any]:
        return [(s.reading, [(h.pattern.id, h.value, h.count, h.items) for h in s.hits],
                 s.tallies, s.score, s.payments) for s in r.candidates]
    assert summary(with_memo) == summary(plain)
    assert json.dumps(to_json(with_memo, "en")) == json.dumps(to_json(plain, "en"))


def test_group_terminal_and_yaojiu_as_their_descriptions_say() -> None:
    from itertools import product

    from scorer.search.decompose import Group

    attrs = F.GROUP_ATTRS
    for tiles in product(range(34), repeat=2):
        g = Group("pair", tiles)
        assert attrs["terminal"].fn(g) == any(t in TERMINALS for t in tiles)  # a 1 or 9
        assert attrs["yaojiu"].fn(g) == any(t in TERMINALS or t >= 27 for t in tiles)
