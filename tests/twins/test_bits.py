"""The reading facts as the generated pattern loop reads them against the facts themselves
(the closures' path): the profile facts as bit tests and small ints of a reading's compact
description (scorer/rules/plan.py DESCRIBED, scorer/rules/profile.py description), the same
value and type on every reading of every golden hand and example line of every built-in
ruleset and on seeded and one-kind tile sets; and the loop's one-pass concealed_pungs
(ONE_PASS) on the same readings and on every small reading. The whole loop is compared
with the closures in tests/twins/test_codegen_rulesets.py (golden lines, house files,
seeded mutants), which the description is part of.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest

from scorer import score
from scorer.cli.app import context_from_params, parse_score_args
from scorer.errors import MjscoreError
from scorer.lang.codegen import Emitter
from scorer.rules import facts as F
from scorer.rules import plan as P
from scorer.rules import profile as TP
from scorer.rules.env import Env
from scorer.rules.load import list_builtin, load_ruleset
from scorer.rules.plan import plan_of, with_plan
from scorer.search.decompose import Group
from scorer.search.readings import Reading
from tests.twins.test_codegen_rulesets import _examples, _golden

NAMES = sorted(P.DESCRIBED)


def _described() -> Callable[[Env], tuple[Any, ...]]:
    """A function env -> the DESCRIBED texts' values, in NAMES' order, written and checked
    as the generated loop is."""
    em = Emitter(P.INLINE_ATTRS, P.DESCRIBED)
    body = ", ".join(P.DESCRIBED[n] for n in NAMES)
    src = (f"def _f(env):\n    {P.DESCRIPTION_LOCALS} = {em.helper(TP.description)}(env)\n"
           f"    return ({body},)\n")
    return em.function(src, "_f")  # type: ignore[no-any-return]


def _same(env: Env, got: tuple[Any, ...], where: str) -> None:
    want = tuple(env[n] for n in NAMES)  # the facts' own functions (profile.Profiled)
    for n, w, g in zip(NAMES, want, got, strict=True):
        assert g == w and type(g) is type(w), (where, n, w, g)


def test_every_profile_fact_is_described() -> None:
    assert set(P.DESCRIBED) == set(TP.PROFILE_NAMES)
    assert all(F.FACTS[n].level == "reading" for n in P.DESCRIBED)


def test_each_kind_alone_and_seeded_tile_sets() -> None:
    fn = _described()
    sets: list[tuple[int, ...]] = [(t,) * k for t in range(34) for k in (1, 2, 3, 4)]
    rng = random.Random("bits")
    for _ in range(3000):
        pool = rng.choice([range(34), range(27), range(27, 34), (19, 20, 21, 23, 25, 32),
                           (0, 8, 9, 17, 18, 26, 27, 31), range(9, 27)])
        tiles: list[int] = []
        for _ in range(rng.randrange(1, 19)):
            t = rng.choice(list(pool))
            if tiles.count(t) < 4:
                tiles.append(t)
        sets.append(tuple(tiles))
    sets.append(())
    for tiles in sets:  # (a reading's Env: its facts are computed on first use)
        _same(Env(wild_face=None, tiles=tiles, __reading__=None),
              fn(Env(wild_face=None, tiles=tiles, __reading__=None)), str(tiles))


def test_concealed_pungs_in_one_pass_on_every_small_reading() -> None:
    # every reading of one to three groups from a palette around the winning tile 5m (4):
    # pungs and kongs concealed, claimed or fixed, completed by the winning tile or not,
    # chows that hold it or not; won by self-draw or on a discard, by a natural tile or a
    # wildcard, whatever tile the reading reads the winning tile as
    palette = [Group(kind, tiles, meld=meld, exposed=exposed, has_win=win)
               for kind, tiles in (("pung", (4, 4, 4)), ("pung", (9, 9, 9)),
                                   ("kong", (4, 4, 4, 4)), ("chow", (3, 4, 5)),
                                   ("chow", (10, 11, 12)), ("pair", (4, 4)))
               for meld, exposed in ((-1, False), (0, True), (1, False))
               for win in (False, True)]
    compared = 0
    for k in (1, 2, 3):
        for groups in combinations(palette, k):
            for win_wild in (False, True):
                r = Reading("standard", groups, 0, win_wild)
                for self_draw in (False, True):
                    for win_tile in (4, 9, None):
                        env = Env(__reading__=r, self_draw=self_draw, win_tile=win_tile)
                        want = F.FACTS["concealed_pungs"].fn(env)  # type: ignore[misc]
                        got = TP.concealed_pungs_once(env)
                        assert got == want and type(got) is type(want), (r, self_draw, win_tile)
                        compared += 1
    assert compared > 90_000


@pytest.mark.parametrize("rid", list_builtin())
def test_every_reading_of_every_golden_hand(rid: str) -> None:
    fn = _described()
    rs = load_ruleset(rid)
    clo = with_plan(rs, plan_of(rs).closures_only())
    lines = _golden(rid) + _examples(rid)
    readings = 0
    for line in lines:
        argv = shlex.split(line)
        try:
            p = parse_score_args([*argv, "--rules", rid] if "--rules" not in argv else argv)
            r = score(str(p["hand"]), clo, context_from_params(p))
        except MjscoreError:
            continue
        for c in r.candidates:
            # the description first (its own Env copy: the facts are then computed afresh)
            env = c.env
            fresh = Env(env.parent, **{k: v for k, v in env.items() if k.startswith("__")
                                       and not k.startswith(("__profile_", "__description", "__counts"))})
            _same(env, fn(fresh), line)
            # the one-pass concealed_pungs against the fact's own function
            want, got = env["concealed_pungs"], TP.concealed_pungs_once(fresh)
            assert got == want and type(got) is type(want), (line, want, got)
            readings += 1
    assert readings >= len(lines) // 3


@pytest.mark.parametrize("rid", list_builtin())
def test_the_generated_loops_read_the_description(rid: str) -> None:
    rs = load_ruleset(rid)
    src = plan_of(rs).generate_now(rs).generated.source
    reads = {n for p in rs.patterns if p.count_once is None  # (families: not in the loop)
             for c in (p.when, p.value, p.count, p.each) if c is not None for n in c.names}
    assert (P.DESCRIPTION_LOCALS in src) == bool(reads & set(P.DESCRIBED))
    assert not [n for n in {**P.DESCRIBED, **P.ONE_PASS} if f"env[{n!r}]" in src]
    assert ("_dc = " in src) == ("concealed_pungs" in reads)


# -- loops over a reading's groups as bit tests of its group masks (plan.list_bits) ------
def _loops_both_ways(rid: str) -> list[tuple[str, Callable[[Env], Any], Callable[[Env], Any]]]:
    """Every expression of the patterns of ``rid`` whose text the group masks change:
    (its source, the text with the masks, the text without), written and checked as the
    generated loop is, each with the lines that set the locals it reads."""
    rs = load_ruleset(rid)
    out = []
    for p in rs.patterns:
        if p.count_once is not None:
            continue
        for c in (p.when, p.value, p.count, p.each):
            if c is None or c.const:
                continue
            fns = []
            for lists in (P.list_bits(rs), None):
                em = Emitter(P.INLINE_ATTRS, P.described_names(rs), lists)
                text = em.expr(c)
                lines = ["def _f(env):"]
                if em.masks:
                    lines.append(f"    {P.GROUP_MASK_LOCALS} = {em.helper(TP.group_masks)}(env)")
                if not em.named.isdisjoint(P.DESCRIBED):
                    lines.append(f"    {P.DESCRIPTION_LOCALS} = {em.helper(TP.description)}(env)")
                if "concealed_pungs" in em.named:
                    lines.append(f"    _dc = {em.helper(TP.concealed_pungs_once)}(env)")
                fns.append((text, em.function("\n".join([*lines, f"    return {text}"]) + "\n",
                                              "_f")))
            if fns[0][0] != fns[1][0]:
                out.append((c.src, fns[0][1], fns[1][1]))
    return out


def _outcome(fn: Callable[[Env], Any], env: Env) -> tuple[Any, ...]:
    try:
        v = fn(env)
    except Exception as e:  # the same failure both ways
        return ("raised", type(e).__name__)
    return (v, type(v))


def _palette() -> list[Group]:
    """Groups of every kind on tiles of every class (a 1 and 9, a middle tile, each honor
    class), each also as a claimed meld and as the one the winning tile completed."""
    out = []
    for t in (0, 4, 8, 13, 26, 27, 30, 31, 33):
        kinds: list[tuple[str, tuple[int, ...]]] = [
            ("pung", (t,) * 3), ("kong", (t,) * 4), ("pair", (t, t)), ("single", (t,))]
        if t < 27 and t % 9 <= 6:
            kinds.append(("chow", (t, t + 1, t + 2)))
        if t in (0, 9, 18):
            kinds.append(("knit", (t, t + 3, t + 6)))
        out += [Group(k, tiles, meld=0 if claimed else -1, exposed=claimed, has_win=won)
                for k, tiles in kinds for claimed in (False, True) for won in (False, True)]
    return out


@pytest.mark.parametrize("rid", list_builtin())
def test_group_loops_as_bits_on_every_golden_and_made_reading(rid: str) -> None:
    # every text the group masks change, with them and without, on every reading of every
    # golden and example line, and on 4,000 readings made of one to six groups (repeated
    # kinds and tiles, as wildcards read them; knitted and lone-tile groups) under the hand
    # of each of the first golden lines
    exprs = _loops_both_ways(rid)
    if rid in ("mcr", "mcr-house", "xiamen"):
        assert exprs, "the group masks were expected to serve this ruleset"
    if not exprs:
        return
    rs = load_ruleset(rid)
    clo = with_plan(rs, plan_of(rs).closures_only())
    rng = random.Random(f"groups {rid}")
    palette = _palette()
    compared = made = 0
    for line in _golden(rid) + _examples(rid):
        argv = shlex.split(line)
        try:
            p = parse_score_args([*argv, "--rules", rid] if "--rules" not in argv else argv)
            r = score(str(p["hand"]), clo, context_from_params(p))
        except MjscoreError:
            continue
        envs = [c.env for c in r.candidates]
        if made < 4000:
            parent = envs[0].parent
            assert parent is not None
            for _ in range(200):
                groups = tuple(sorted(rng.choices(palette, k=rng.randint(1, 6))))
                reading = Reading(rng.choice(("standard", "knitted_straight")), groups,
                                  rng.randrange(-1, len(groups)), rng.random() < 0.2)
                envs.append(Env(parent, __reading__=reading))
                made += 1
        for env in envs:
            for src, bits, plain in exprs:
                fresh = Env(env.parent, **{k: v for k, v in env.items() if k == "__reading__"
                                           or k == "__win_natural__"})
                assert _outcome(bits, fresh) == _outcome(plain, Env(env.parent, **fresh)), (
                    line, src, env["__reading__"])
                compared += 1
    assert made >= 1000 and compared >= 1000 * len(exprs)


def test_the_masks_are_read_where_they_pay() -> None:
    # MCR's loops over pungs and groups of tile classes alone are bit tests; a loop that
    # reads a hand's name (圈风刻: the round wind) or a group's own flags stays a loop
    src = plan_of(load_ruleset("mcr")).generate_now(load_ruleset("mcr")).generated.source
    assert P.GROUP_MASK_LOCALS in src
    assert "(_gp & " in src and "for _v13 in env['pungs']" in src
    xsrc = plan_of(load_ruleset("xiamen")).generate_now(load_ruleset("xiamen")).generated.source
    assert "(() if (" in xsrc  # an each: loop skipped where no pung passes its tile test
