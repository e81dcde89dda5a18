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
