"""The shapes judged by kind of tile rather than by sets: Jinhua's 十三不靠 / 七风
(``gapped_honors``: 14 distinct tiles, the suited tiles of one suit pairwise at least 3
apart) and 乱风 (``all_honors``: every tile an honor, in any arrangement).

Their decompositions are lone tiles (``Group("single", …)``), and their wildcards are
filled with every valid tile, one fill per combination of the class features the ruleset
can see (the tile codes of :func:`scorer.search.readings.tile_codes`), so that a ruleset
which only asks "honor or suited?" is not given 34 readings of each wildcard.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, pairwise, product
from typing import Any

from ..memo import Memo
from .decompose import HANDS, HONORS, Counts, Group

GAP = 3  # 十三不靠: tiles of one suit at least two apart ("至少相隔两张"), i.e. numbers differ by 3+


def _gapped(nums: list[int]) -> bool:
    """True if the sorted numbers differ pairwise by at least :data:`GAP`."""
    return all(b - a >= GAP for a, b in pairwise(nums))


_MEMO_SUIT_FILLS: Memo[Any, tuple[tuple[int, ...], ...]] = Memo(
    256, "search.kind_shapes._suit_fills")


def _suit_fills(present: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every set of extra numbers 0..8 one suit can take so that the suit stays gapped.

    >>> _suit_fills((0, 3, 6))
    ((),)
    >>> len(_suit_fills(()))  # 1 empty + 9 singles + 21 pairs + 10 triples
    41
    """
    key = present
    hit = _MEMO_SUIT_FILLS.get(key)
    if hit is None:
        hit = _MEMO_SUIT_FILLS.put(key, _compute_suit_fills(present))
    return hit


def _compute_suit_fills(present: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    free = [n for n in range(9) if all(abs(n - p) >= GAP for p in present)]
    out: list[tuple[int, ...]] = []
    for k in range(0, 4 - len(present)):
        out.extend(c for c in combinations(free, k) if _gapped(list(c)))
    return tuple(out)


_MEMO_GAPPED_HONORS: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    HANDS, "search.kind_shapes.gapped_honors")


def gapped_honors(counts: Counts, jokers: int, codes: tuple[int, ...] | None = None) -> tuple[
        tuple[Group, ...], ...]:
    """十三不靠-type hands: 14 distinct tiles, suited tiles of one suit pairwise 3+ apart.

    A suit can hold at most three such tiles (147, 159, …), so the hand has at
    least five different honors; with all seven it is Jinhua's 七风. Suits do
    not have to be knitted with each other (1m4m7m1p4p7p is fine), which is what
    sets this family apart from MCR's 全不靠. Each tile is a 'single' group;
    jokers fill the missing tiles in every way that keeps the hand valid (a
    ruleset judges which fills it allows, e.g. 七风's "no wildcard for an honor").
    With ``codes`` (a code per tile, see ``readings.tile_codes``) only one fill
    per combination of codes is made: three jokers have hundreds of fills, the
    ruleset tells few of them apart.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("147m258p369sESWNC"): c[t] += 1
    >>> [len(d) for d in gapped_honors(tuple(c), 0)]
    [14]
    >>> len(gapped_honors(tuple(c), 1))  # 15 tiles: not a 14-tile hand
    0
    """
    key = (counts, jokers, codes)
    hit = _MEMO_GAPPED_HONORS.get(key)
    if hit is None:
        hit = _MEMO_GAPPED_HONORS.put(key, _compute_gapped_honors(counts, jokers, codes))
    return hit


def _compute_gapped_honors(counts: Counts, jokers: int, codes: tuple[int, ...] | None = None) -> tuple[
                           tuple[Group, ...], ...]:
    if sum(counts) + jokers != 14 or any(n > 1 for n in counts):
        return ()
    present = [tuple(n for n in range(9) if counts[s * 9 + n]) for s in range(3)]
    if not all(_gapped(list(p)) for p in present):
        return ()
    naturals = [Group("single", (t,)) for t, n in enumerate(counts) if n]
    options = [_by_code([tuple(s * 9 + n for n in f) for f in _suit_fills(p)], codes)
               for s, p in enumerate(present)]
    missing_honors = [t for t in HONORS if not counts[t]]
    honor_fills = [_by_code(list(combinations(missing_honors, k)), codes)
                   for k in range(len(missing_honors) + 1)]
    every: list[tuple[int, ...]] = []
    for fills in product(*options):
        suited = sum(len(f) for f in fills)
        if suited > jokers or jokers - suited > len(missing_honors):
            continue
        for honors in honor_fills[jokers - suited]:
            every.append(tuple(sorted([t for f in fills for t in f] + list(honors))))
    # one per code across suits too (a fresh m tile and a fresh honor may share a code)
    return tuple(sorted(tuple(sorted(naturals + [Group("single", (t,), (t,)) for t in tiles]))
                        for tiles in _by_code(every, codes)))


def fill_key(fill: tuple[int, ...], codes: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]],
                                                                      ...]:
    """What tells two wildcard fills apart when tiles of one code are interchangeable.

    For each code, how many times each of its tiles is used: filling S S W and
    W W N alike (if S W N share a code) give ``((c, (1, 2)),)``, but S S S does not.

    >>> codes = (0,) * 34
    >>> fill_key((27, 27, 28), codes) == fill_key((28, 28, 30), codes), fill_key((27,) * 3, codes)
    (True, ((0, (3,)),))
    """
    per: dict[int, dict[int, int]] = {}
    for t in fill:
        d = per.setdefault(codes[t], {})
        d[t] = d.get(t, 0) + 1
    return tuple(sorted((c, tuple(sorted(d.values()))) for c, d in per.items()))


def _by_code(fills: list[tuple[int, ...]], codes: tuple[int, ...] | None) -> list[
        tuple[int, ...]]:
    """The fills with one kept per :func:`fill_key` (all of them without codes)."""
    if codes is None:
        return fills
    seen: dict[object, tuple[int, ...]] = {}
    for f in fills:
        seen.setdefault(fill_key(f, codes), f)
    return list(seen.values())


_MEMO_ALL_HONORS: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    1 << 10, "search.kind_shapes.all_honors")


def all_honors(counts: Counts, jokers: int, codes: tuple[int, ...] | None = None) -> tuple[
        tuple[Group, ...], ...]:
    """Hands of honors only, in any arrangement (乱风): every tile a 'single' group.

    Jokers read as honors, in every combination (with ``codes``, one per
    combination of codes, as in :func:`gapped_honors`). The tile count is the
    hand's (checked before), so this shape may sit beside fixed melds of
    honors (see the ``melds`` of its row in :mod:`scorer.search.shapes`).

    >>> c = [0] * 34; c[27] = 3; c[28] = 2; c[33] = 1
    >>> len(all_honors(tuple(c), 0)), len(all_honors(tuple(c), 2))  # 2 jokers: 28 multisets
    (1, 28)
    >>> c[0] = 1
    >>> all_honors(tuple(c), 0)
    ()
    """
    key = (counts, jokers, codes)
    hit = _MEMO_ALL_HONORS.get(key)
    if hit is None:
        hit = _MEMO_ALL_HONORS.put(key, _compute_all_honors(counts, jokers, codes))
    return hit


def _compute_all_honors(counts: Counts, jokers: int, codes: tuple[int, ...] | None = None) -> tuple[
                        tuple[Group, ...], ...]:
    if any(counts[t] for t in range(27)):
        return ()
    naturals = [Group("single", (t,)) for t in HONORS for _ in range(counts[t])]
    fills = _by_code(list(combinations_with_replacement(HONORS, jokers)), codes)
    return tuple(tuple(sorted(naturals + [Group("single", (t,), (t,)) for t in fill]))
                 for fill in fills)
