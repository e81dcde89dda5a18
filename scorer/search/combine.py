"""Patterns judged on combinations of sets, counted under the "combine once" principle.

Some patterns are about two, three or four sets together: two identical chows
(一般高), three chows making 1-9 (清龙), three pungs of one number in three suits
(三同刻). A ruleset marks such a pattern with ``combine: {of: chows, sets: 2}``;
its ``when`` then sees only the sets ``a``, ``b`` (``c``, ``d``), sorted by their
tiles. All combination patterns over the same list (``of``) form a *family*,
resolved together on every reading by :func:`resolve`, which follows the
non-repeat and combine-once principles (不重复, 套算一次) of the Chinese
Official rules as the reference calculators implement them:

1. The largest combinations first. If the sets of a combination of *all* the
   family's sets match a pattern, that pattern counts once and nothing else of
   the family does (一色四同顺 leaves no room for 一色三同顺 or 一般高).
2. Otherwise the first combination of three or more sets (in the order of the
   sorted sets) that matches a pattern counts once; each remaining set may then
   combine *once more* with one of the sets already combined: the first pair
   pattern, in the family's order, that it forms with any of them counts once.
3. With no combination of three or more, every pair of sets is judged (the
   first matching pattern in the family's order). A set may be combined with
   sets already combined only once, so at most (sets involved - 1) pairs count;
   the surplus is dropped from the last pattern of the family backwards, first
   down to one of each, then down to none.

A family's result depends only on its sets, so it is memoised: the patterns of
a family may look only at ``a``..``d`` (checked when the ruleset is loaded).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from itertools import combinations
from typing import Any

from ..memo import Memo
from ..record import dataclass
from .decompose import Group

Pred = Callable[[tuple[Group, ...]], Any]
SET_NAMES = ("a", "b", "c", "d")
MAX_SETS = len(SET_NAMES)
_CACHE_LIMIT = 1 << 16

# Group attributes that depend on nothing but the group's tiles: a family whose patterns use
# only these is memoised by tiles (shared by every hand with the same sets).
TILE_ONLY_ATTRS = frozenset({"kind", "tiles", "tile", "suit", "number", "pair", "chow", "pung",
                             "kong", "honor", "wind", "dragon", "suited", "terminal", "yaojiu"})


def resolve(sets: Sequence[Group], pats: Sequence[tuple[int, Pred]],
            first_match: Callable[[tuple[Group, ...], list[int]], int | None] | None = None
            ) -> tuple[int, ...]:
    """How many times each pattern of a family counts on these sets (see module docstring).

    ``pats`` are ``(size, predicate)`` in the family's order; a predicate takes the
    tuple of ``size`` sets (sorted). Returns one count per pattern. ``first_match``, if
    given, replaces the search for the first pattern (of the given indices) that a
    combination matches (a memoised version, see :class:`Family`).

    >>> from scorer.search.decompose import Group
    >>> chow = lambda s: Group("chow", (s, s + 1, s + 2))
    >>> same = (2, lambda g: g[0].tiles == g[1].tiles)
    >>> mixed = (2, lambda g: g[0].tiles[0] % 9 == g[1].tiles[0] % 9 and g[0] != g[1])
    >>> resolve([chow(1), chow(1), chow(10), chow(10)], [same, mixed])  # 234m 234m 234p 234p
    (2, 1)
    """
    by_size: dict[int, list[int]] = {}
    for i, (k, _) in enumerate(pats):
        by_size.setdefault(k, []).append(i)

    def search(combo: tuple[Group, ...], idxs: list[int]) -> int | None:
        for i in idxs:
            if pats[i][1](combo):
                return i
        return None

    first = first_match or search
    found = _one_larger(sets, pats, by_size, first)
    return found if found is not None else _pairs(sets, pats, by_size.get(2, []), first)


First = Callable[[tuple[Group, ...], list[int]], int | None]


def _one_larger(sets: Sequence[Group], pats: Sequence[tuple[int, Pred]],
                by_size: dict[int, list[int]], first: First) -> tuple[int, ...] | None:
    """The counts when a combination of three or more sets matches (the largest first):
    it counts once, and each other set at most once more with a pair pattern against the
    sets already used; None when none matches."""
    n = len(sets)
    pair_pats = by_size.get(2, [])
    for k in sorted((k for k in by_size if 3 <= k <= n), reverse=True):
        for sub in combinations(range(n), k):
            hit = first(tuple(sets[j] for j in sub), by_size[k])
            if hit is None:
                continue
            counts = [0] * len(pats)
            counts[hit] += 1
            used = list(sub)
            for r in range(n):
                if r in sub:
                    continue
                for pi in pair_pats:
                    if any(pats[pi][1]((sets[min(r, u)], sets[max(r, u)])) for u in used):
                        counts[pi] += 1
                        break
                used.append(r)
            return tuple(counts)
    return None


def _pairs(sets: Sequence[Group], pats: Sequence[tuple[int, Pred]], pair_pats: list[int],
           first: First) -> tuple[int, ...]:
    """The counts of pair patterns alone: every matching pair counts, then the surplus over
    what the sets involved can make (n sets, n - 1 combinations) is taken off the last
    patterns first, down to one each before any goes to none."""
    counts = [0] * len(pats)
    matched: list[tuple[int, int, int]] = []
    for i, j in combinations(range(len(sets)), 2):
        hit = first((sets[i], sets[j]), pair_pats)
        if hit is not None:
            matched.append((i, j, hit))
            counts[hit] += 1
    involved = {i for i, _, _ in matched} | {j for _, j, _ in matched}
    surplus = len(matched) - (len(involved) - 1)
    for limit in (1, 0):
        for pi in reversed(pair_pats):
            while surplus > 0 and counts[pi] > limit:
                counts[pi] -= 1
                surplus -= 1
    return tuple(counts)


@dataclass
class Family:
    """The combination patterns over one list of sets (``of``), in the ruleset's order.

    ``patterns`` are indices into the ruleset's patterns; ``preds`` their predicates
    ``(size, fn)``; ``by_tiles`` says the memo may key on tiles alone.
    """

    of: str
    patterns: tuple[int, ...]
    preds: tuple[tuple[int, Pred], ...]
    by_tiles: bool = True
    cache: Memo[tuple[Any, ...], tuple[int, ...]] = field(
        default_factory=lambda: Memo(_CACHE_LIMIT), repr=False, compare=False)
    # (pattern indices, combination) -> the first of them it matches, -1 for none: there are
    # few distinct combinations of two or three sets, so this is shared by nearly every hand
    combos: Memo[tuple[Any, ...], int] = field(default_factory=lambda: Memo(_CACHE_LIMIT),
                                               repr=False, compare=False)

    def _first(self, combo: tuple[Group, ...], idxs: list[int]) -> int | None:
        key = (idxs[0], *((g.kind, g.tiles) for g in combo)) if self.by_tiles else None
        if key is not None:
            hit = self.combos.get(key)
            if hit is not None:
                return hit if hit >= 0 else None
        found = None
        for i in idxs:
            if self.preds[i][1](combo):
                found = i
                break
        if key is not None:
            self.combos.put(key, -1 if found is None else found)
        return found

    def counts(self, groups: Sequence[Group]) -> tuple[int, ...]:
        """Counts per pattern for these sets (memoised).

        >>> from scorer.search.decompose import Group
        >>> f = Family("pungs", (0,), ((2, lambda g: g[0].tiles[0] % 9 == g[1].tiles[0] % 9),))
        >>> f.counts([Group("pung", (1, 1, 1)), Group("pung", (10, 10, 10))])
        (1,)
        """
        if len(groups) < 2:  # no combination to make
            return (0,) * len(self.preds)
        sets = sorted(groups, key=lambda g: g.tiles)
        key = tuple((g.kind, g.tiles) for g in sets) if self.by_tiles else tuple(sets)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache.put(key, resolve(sets, self.preds, self._first))
        return hit


def predicate(fn: Callable[[Any], Any], size: int) -> Pred:
    """Turn a compiled expression over ``a``..``d`` into a predicate on a tuple of sets."""
    names = SET_NAMES[:size]

    def pred(combo: tuple[Group, ...]) -> Any:
        return fn(dict(zip(names, combo, strict=True)))
    return pred
