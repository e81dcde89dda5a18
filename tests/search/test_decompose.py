"""The decomposition engine, pinned down like perft counts in chess.

The joker search is checked against an independent oracle: substitute every
tile for every wildcard (the 34^k loop the engine avoids) and decompose the
resulting natural hands with a deliberately naive enumerator written here. The
sets of logical decompositions must be identical.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from scorer.model.notation import parse_hand, parse_tiles
from scorer.search import decompose as D
from scorer.search.decompose import FREE_PAIR, Group
from scorer.search.readings import WildSpec, interpret, meld_readings, readings


def counts_of(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t, _ in parse_tiles(text):
        c[t] += 1
    return tuple(c)


# -- the naive oracle (no jokers): all ways to pick a pair, then sets -------------------
def naive_sets(c: list[int], n: int) -> list[tuple[tuple[str, tuple[int, ...]], ...]]:
    if n == 0:
        return [()] if not any(c) else []
    i = next((k for k, v in enumerate(c) if v), None)
    if i is None:
        return []
    out = []
    if c[i] >= 3:
        c[i] -= 3
        out += [(("pung", (i, i, i)), *rest) for rest in naive_sets(c, n - 1)]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out += [(("chow", (i, i + 1, i + 2)), *rest) for rest in naive_sets(c, n - 1)]
        for k in (i, i + 1, i + 2):
            c[k] += 1
    return out


def naive_standard(c: tuple[int, ...], sets: int) -> set[tuple[tuple[str, tuple[int, ...]], ...]]:
    out = set()
    for p in range(34):
        if c[p] >= 2:
            rest = list(c)
            rest[p] -= 2
            for s in naive_sets(rest, sets):
                out.add(tuple(sorted((("pair", (p, p)), *s))))
    return out


def logical(groups: tuple[Group, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple(sorted((g.kind, g.tiles) for g in groups))


def engine_standard(c: tuple[int, ...], jokers: int, sets: int) -> set[tuple]:
    out = set()
    for d in D.standard(c, jokers, sets):
        for concrete in D.expand_free(d, tuple(range(34))):
            out.add(logical(concrete))
    return out


def oracle_standard(c: tuple[int, ...], jokers: int, sets: int) -> set[tuple]:
    out: set[tuple] = set()
    for subst in itertools.combinations_with_replacement(range(34), jokers):
        full = list(c)
        for t in subst:
            full[t] += 1
        out |= naive_standard(tuple(full), sets)
    return out


@pytest.mark.parametrize("text,sets,expected", [
    ("11122233344m", 3, 3),  # 44+111 222 333, 44+123 123 123, 11+123 234 234
    ("123m456p789s234s55s", 4, 1),
    ("11112233445566s", 4, 1),  # only 11 + 123 123 456 456 (every other pair strands a tile)
    ("11122233355m", 3, 2),  # 55 + 111 222 333, 55 + 123 123 123
])
def test_known_counts(text: str, sets: int, expected: int) -> None:
    c = counts_of(text)
    assert len(D.standard(c, 0, sets)) == expected
    assert {logical(d) for d in D.standard(c, 0, sets)} == naive_standard(c, sets)


def test_random_hands_with_jokers_match_the_substitution_oracle() -> None:
    rng = random.Random(20261130)
    checked = 0
    for _ in range(120):
        jokers = rng.choice([1, 1, 2])
        sets = rng.choice([1, 2, 3])
        n = 2 + 3 * sets - jokers
        wall = [t for t in range(34) for _ in range(4)]
        # bias towards winning hands: build one and drop `jokers` tiles
        tiles: list[int] = []
        pair = rng.randrange(34)
        tiles += [pair, pair]
        for _s in range(sets):
            if rng.random() < 0.5:
                s = rng.choice([x for x in range(27) if x % 9 <= 6])
                tiles += [s, s + 1, s + 2]
            else:
                t = rng.randrange(34)
                tiles += [t, t, t]
        rng.shuffle(tiles)
        tiles = tiles[:n]
        if max(Counter(tiles).values()) > 4:
            continue
        del wall
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        assert engine_standard(tuple(c), jokers, sets) == oracle_standard(tuple(c), jokers, sets)
        checked += 1
    assert checked > 80


def test_free_readings() -> None:
    allt = tuple(range(34))
    assert len(D.free_readings(FREE_PAIR, allt)) == 34
    assert len(D.free_readings(D.FREE_SET, allt)) == 34 + 21


def test_meld_readings_with_wildcards() -> None:
    spec = WildSpec(face=33)
    h = parse_hand("[5pPP]123m456s789s1p1p")
    kinds = sorted((g.kind, g.tiles) for g in meld_readings(h.melds[0], 0, spec))
    assert kinds == [("chow", (11, 12, 13)), ("chow", (12, 13, 14)), ("chow", (13, 14, 15)),
                     ("pung", (13, 13, 13))]
    h = parse_hand("[55pP=555p]123m456s789s1p1p")
    (g,) = meld_readings(h.melds[0], 0, spec)
    assert g.tiles == (13, 13, 13) and g.wild == (13,)


def test_win_placement_and_lone_wild() -> None:
    # 123m 456p 789s 234s + P + winning 9m: the 9m pairs the lone P
    spec = WildSpec(face=33, detail=2)
    h = parse_hand("123m456p789s234sP9m")
    rs = readings(interpret(h, spec), spec, ("standard",), 4, True)
    wins = [r.groups[r.win] for r in rs]
    assert all(g.kind == "pair" and g.tiles == (8, 8) for g in wins)


def test_discarded_winning_tile_makes_its_pung_exposed() -> None:
    spec = WildSpec()
    h = parse_hand("123m456p789s55s22s2s")
    discard = readings(interpret(h, spec), spec, ("standard",), 4, False)
    won = {r.groups[r.win] for r in discard}
    assert all(not g.concealed for g in won if g.kind == "pung")
    selfdrawn = readings(interpret(h, spec), spec, ("standard",), 4, True)
    assert all(g.concealed for r in selfdrawn for g in r.groups)


def test_per_suit_decomposition_matches_the_whole_hand_search() -> None:
    # standard() combines cached per-suit parts; the whole-hand search is its reference.
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from gen import winning_hand

    rng = random.Random(7)
    compared = 0
    for sets in (4, 5):
        for wilds in (0, 1, 2):
            for _ in range(150):
                h = parse_hand(winning_hand(rng, sets=sets, wilds=wilds).text)
                it = interpret(h, WildSpec(face=33))
                n = sets - len(it.melds)
                for counts in (it.counts, _shift_one(it.counts, rng)):
                    assert set(D.standard(counts, it.jokers, n)) == set(
                        D._standard_search(counts, it.jokers, n))
                    compared += 1
    assert compared == 2 * 2 * 3 * 150


def _shift_one(counts: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """The same hand with one tile moved (usually no longer winning)."""
    c = list(counts)
    src = rng.choice([t for t, n in enumerate(c) if n])
    dst = rng.choice([t for t, n in enumerate(c) if n < 4 and t != src])
    c[src] -= 1
    c[dst] += 1
    return tuple(c)


def _every_placement(h_text: str, spec: WildSpec, shapes: tuple[str, ...], self_draw: bool
                     ) -> set[tuple[object, ...]]:
    """The oracle for readings(): each decomposition of each shape, each free group read
    every way, each choice of meld readings, the winning tile in every group that can hold
    it (once in equal groups), gathered in a set (so equal readings count once). Written
    out naively here."""
    from scorer.search.shapes import SHAPES

    interp = interpret(parse_hand(h_text), spec)
    cands = tuple(spec.candidates)
    w = interp.win_tile
    out: set[tuple[object, ...]] = set()
    for name in shapes:
        shape = SHAPES[name]
        if interp.melds and shape.melds is None:
            continue  # a shape of concealed tiles only
        ok = shape.melds or (lambda g: True)
        for d in shape.find(interp.counts, interp.jokers, 4 - len(interp.melds), None):
            if not shape.needs_win:  # a loose joker is the wildcard's face, held as itself
                d = tuple(sorted(Group("single", (spec.face,), (spec.face,))
                                 if g == D.LOOSE_JOKER else g for g in d))
            free = [g for g in d if D.is_free(g)]
            fixed = [g for g in d if not D.is_free(g)]
            for fill in itertools.product(*(D.free_readings(g, cands) for g in free)):
                groups = tuple(sorted(fixed + list(fill)))
                for melds in itertools.product(*([g for g in opts if ok(g)]
                                                 for opts in interp.melds)):
                    if not shape.needs_win:
                        out.add((name, (*melds, *groups), -1, w is None, w))
                        continue
                    for k, g in enumerate(groups):
                        if w is None and not g.wild:
                            continue
                        if w is not None and Counter(g.tiles)[w] <= Counter(g.wild)[w]:
                            continue  # no natural copy of the winning tile in the group
                        if g in groups[:k]:
                            continue  # the same group twice: the winning tile in it once
                        won = g._replace(has_win=True, concealed=self_draw or g.kind not in
                                         ("pung", "kong"))
                        out.add((name, (*melds, *groups[:k], won, *groups[k + 1:]),
                                 len(melds) + k, w is None, w))
    return out


@pytest.mark.parametrize("text", [
    "3m2mP7m8m9m8m9m9m4m8mPPP",  # four wildcards, the winning one among them
    "[6p7p8p,1]4mP6m5m5s6sP7sP3mP",  # a meld, four wildcards
    "1sPP2sP2m4m3m1m3m2s2sP3s", "1122m3344p55sPPP6s", "123m456p789s234sP9m",
    "11223344556677m", "[5pPP]123m456s789s1p1p", "PPPP11m22m33m44m5m",
    "19m19p19sESWNCFP9m", "19m19p1sESWNCFPP", "147m258p36sESWNCP", "147m258p369sEWPP",
    "1m4m7m2p5p8p3s6s9sESPPN", "EESSWWNNCCFFPP", "147m1p7pESWNCFPPE",
    "147m258p369s234s55p", "147m258pP69s234sP5p",  # knitted straights
])
def test_readings_are_every_placement_once(text: str) -> None:
    """readings() compares no reading with another: it gives each reading the naive
    enumeration finds, once, in every shape (detail 2: every free fill)."""
    from scorer.search.shapes import SHAPES

    spec = WildSpec(face=33, detail=2)
    shapes = tuple(SHAPES)
    # (_place_win finds equal groups next to each other: every shape gives them sorted)
    interp = interpret(parse_hand(text), spec)
    for name in shapes:
        for d in SHAPES[name].find(interp.counts, interp.jokers, 4 - len(interp.melds), None):
            assert list(d) == sorted(d), name
    found = 0
    for self_draw in (True, False):
        got = readings(interpret(parse_hand(text), spec), spec, shapes, 4, self_draw)
        assert len(got) == len(set(got))
        assert set(got) == _every_placement(text, spec, shapes, self_draw)
        found += len(got)
    assert found
