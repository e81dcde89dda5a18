"""readings() against the enumeration it replaced, reading for reading and in order.

:func:`scorer.search.readings.readings` places a natural winning tile in the groups of a
decomposition found once for all the fills of its free groups, and fills equal free
groups in non-decreasing order instead of keeping a set of the fills made. The reference
here is the former enumeration, written out: every fill of the free groups in product
order, the first of each sorted fill kept, and ``_place_win`` on each. The order matters
(the ranking of readings is stable: among equal readings the first wins), so the lists
are compared as they are. The hands: every golden line of every ruleset, and each with
one to four of its concealed tiles replaced by its table's wildcard (a joker can play any
tile, so the hand stays complete).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest
import yaml

from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.context import resolve
from scorer.errors import MjscoreError
from scorer.model.hand import Hand
from scorer.model.notation import parse_hand
from scorer.rules.load import load_ruleset
from scorer.search import decompose as D
from scorer.search import readings as R
from scorer.search.decompose import Group

TESTS = Path(__file__).resolve().parents[1]


def _expand_free_reference(groups: tuple[Group, ...], candidates: tuple[int, ...]
                           ) -> Iterator[tuple[Group, ...]]:
    """Every fill of the free groups in product order, each sorted fill once."""
    free = [g for g in groups if D.is_free(g)]
    if not free:
        yield groups
        return
    fixed = [g for g in groups if not D.is_free(g)]
    seen: set[tuple[Group, ...]] = set()
    for acc in product(*[D.free_readings(g, candidates) for g in free]):
        key = tuple(sorted(fixed + list(acc)))
        if key not in seen:
            seen.add(key)
            yield key


def _readings_reference(interp: R.Interpretation, spec: R.WildSpec, shapes: tuple[str, ...],
                        sets: int, self_draw: bool, place_once: bool) -> list[R.Reading]:
    out: list[R.Reading] = []
    concealed_sets = sets - len(interp.melds)
    cands = R.free_candidates(interp, spec)
    meld_tiles = frozenset(t for opts in interp.melds for g in opts for t in g.tiles)
    for name in shapes:
        shape = R._shape(name)
        melds = interp.melds
        if shape.melds is not None:
            melds = tuple(tuple(g for g in opts if shape.melds(g)) for opts in melds)
        for counts, win_tile in R._stand_in_variants(interp, spec, name):
            if shape.possible is not None and not shape.possible(counts):
                continue
            codes = R.tile_codes(spec, counts, win_tile, meld_tiles) if shape.coded else None
            once = place_once and win_tile is not None
            for d in R._decompose(shape, counts, interp.jokers, concealed_sets,
                                  bool(interp.melds), codes):
                if not shape.needs_win:
                    d = R._bind_loose(d, spec.face)
                for concrete in _expand_free_reference(d, cands):
                    for meld_groups in product(*melds):
                        R._place_win(shape, meld_groups, concrete, win_tile, self_draw, out,
                                     once)
    return out


def _cases() -> list[tuple[str, str]]:
    out = []
    for f in sorted((TESTS / "golden").glob("*.yaml")):
        for case in yaml.safe_load(f.read_text(encoding="utf-8")):
            out.append((f.stem, case["line"]))
    return out


def _with_jokers(h: Hand, face: int, n: int) -> Hand:
    """``h`` with its first ``n`` concealed tiles that are not ``face`` replaced by it."""
    held = list(h.concealed)
    k = 0
    for i, t in enumerate(held):
        if k < n and t != face:
            held[i] = face
            k += 1
    return Hand(h.melds, tuple(sorted(held)), h.winning)


def _compare(rid: str, line: str) -> tuple[int, list[str]]:
    """(hands compared, lines naming each difference) for a golden line and its variants."""
    argv = shlex.split(line)
    if "--rules" not in argv:
        argv += ["--rules", rid]
    try:
        p = parse_score_args(argv)
        h, ctx = parse_hand(str(p["hand"])), context_from_params(p)
        rs = load_ruleset(str(p.get("rules") or rid))
        table = resolve(rs, ctx, h)
    except MjscoreError:  # a line refused before any reading is built
        return 0, []
    spec = table.wild
    hands = [h]
    if spec.face is not None:
        hands += [_with_jokers(h, spec.face, n) for n in range(1, spec.in_play + 1)]
    compared = 0
    problems = []
    for hand in hands:
        try:
            interp = R.interpret(hand, spec)
        except MjscoreError:
            continue
        for once in (False, True):
            R.clear_memo()
            got = R.readings(interp, spec, rs.shapes, rs.sets, table.self_draw, once)
            want = _readings_reference(interp, spec, rs.shapes, rs.sets, table.self_draw, once)
            compared += 1
            if got != want:
                problems.append(f"{rid} {hand.notation()} once={once}: {len(got)} readings, "
                                f"the reference {len(want)}")
    return compared, problems


@pytest.mark.parametrize("rid", ["hangzhou", "jinhua", "xiamen", "mcr", "mcr-house",
                                 "sichuan", "sichuan-xueliu"])
def test_readings_equal_the_former_enumeration(rid: str) -> None:
    compared = 0
    problems: list[str] = []
    for stem, line in _cases():
        if stem != rid:
            continue
        n, found = _compare(rid, line)
        compared += n
        problems += found
    assert not problems, "\n".join(problems[:20])
    assert compared > 10, compared
