r"""Every decomposition of a hand into groups, with wildcards as jokers.

(The shapes that are not a pair and sets are :mod:`scorer.search.special_shapes`; the shapes
judged by kind of tile :mod:`scorer.search.kind_shapes`; which tiles complete a hand one tile
short, :mod:`scorer.search.waits`.)

The search works on tile *counts* (a 34-entry tuple) plus a number of jokers,
never on a 34^k substitution loop: the lowest natural tile left must belong to
some group, so only the groups containing it are tried (a pair, a pung, or one
of the up to three chows through it), each filled with natural tiles where the
hand has them and with jokers where it does not or where using the joker
instead frees a natural tile. Jokers left when every natural tile is placed
form groups of their own ("free" groups) whose readings are enumerated
afterwards by :func:`free_readings`. Results depend only on the counts and
are remembered (bounded :class:`~scorer.memo.Memo`\ s, by the counts), so batches of similar
hands are cheap.

A :class:`Group` records which of its logical tiles are played by jokers
(``wild``), so later stages can tell a wildcard used as its own face from one
that stands in for another tile.

Shapes (one row each in :data:`scorer.search.shapes.SHAPES`):

* ``standard``      a pair + N sets (N = 4 for 14-tile hands, 5 for Xiamen's 17)
* ``seven_pairs``   seven pairs; four identical tiles may count as two pairs
* ``thirteen_orphans`` one of each terminal and honor + one more of them
* ``honors_knitted`` 全不靠 / 七星不靠: 14 distinct tiles, suited ones from one knitted
  straight, see :func:`scorer.search.special_shapes.honors_knitted`
* ``knitted_straight`` 组合龙: 147/258/369 in three suits + a set + a pair
* ``gapped_honors``  14 distinct tiles, suited tiles of one suit pairwise at least 3 apart
  (so at least five honors): Jinhua's 十三不靠 / 七风, see
  :func:`scorer.search.kind_shapes.gapped_honors`
* ``all_honors``     every tile an honor, in any arrangement (Jinhua's 乱风), see
  :func:`scorer.search.kind_shapes.all_honors`
* ``as_held``       no winning shape at all: the hand as held (Xiamen's 三金倒), see
  :func:`as_held`
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product
from typing import Any, NamedTuple

from ..memo import Memo
from ..model.tiles import NUM_KINDS

Counts = tuple[int, ...]


class Group(NamedTuple):
    """One group of a decomposition.

    ``kind`` is 'pair', 'chow', 'pung', 'kong', 'single' (a lone tile of a
    knitted/orphans hand) or 'knit' (a 147-type triple of a knitted straight);
    ``tiles`` are its logical tiles, sorted; ``wild`` the logical tiles among
    them played by jokers (sorted, a sub-multiset of ``tiles``); ``meld`` the
    index of the fixed meld it came from or -1 for concealed tiles;
    ``exposed`` True for a claimed meld; ``has_win`` True for the group the
    winning tile completed; ``concealed`` False for claimed melds and for a
    pung or kong completed by a discarded winning tile.
    """

    kind: str
    tiles: tuple[int, ...]
    wild: tuple[int, ...] = ()
    meld: int = -1
    exposed: bool = False
    has_win: bool = False
    concealed: bool = True

    @property
    def naturals(self) -> tuple[int, ...]:
        """The tiles of the group that are not played by jokers."""
        if not self.wild:
            return self.tiles
        rest = list(self.tiles)
        for w in self.wild:
            rest.remove(w)
        return tuple(rest)


# Placeholders for groups made only of jokers; their readings come later.
FREE_PAIR = Group("pair", ())
FREE_SET = Group("set", ())
# A joker left loose by :func:`as_held`; the reading binds it to the wildcard's own face.
LOOSE_JOKER = Group("single", ())


def is_free(g: Group) -> bool:
    return not g.tiles


def _chow_starts(i: int) -> list[int]:
    """Start tiles of the chows that contain suited tile i."""
    if i >= 27:
        return []
    n = i % 9
    return [i - k for k in (2, 1, 0) if 0 <= n - k <= 6]


def _chow_fills(i: int, s: int, has: Callable[[int], bool]) -> list[tuple[tuple[int, ...],
                                                                         tuple[int, ...]]]:
    """Every way to fill the chow s, s+1, s+2 through tile i, the lowest natural tile left.

    Returns ``(natural tiles taken above i, tiles played by jokers)`` pairs: the tiles
    below i are jokers (i is the lowest natural tile left); each tile above i is a
    natural one when ``has(tile)``, or a joker -- both, when it has one, since using the
    joker there frees the natural tile for another group.

    >>> _chow_fills(1, 0, lambda t: True)     # 2m in 123m, with a 3m in hand
    [((2,), (0,)), ((), (0, 2))]
    """
    fills: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), tuple(range(s, i)))]
    for t in range(i + 1, s + 3):
        nxt = []
        for nat, wild in fills:
            if has(t):
                nxt.append(((*nat, t), wild))
            nxt.append((nat, (*wild, t)))
        fills = nxt
    return fills


# How many results each cache keeps: the decompositions of whole hands (by their counts)
# and the partial results per suit. About what a batch of 1,000 distinct hands fills, so a
# longer batch holds little more: 100,000 distinct lines peaked at 39 MiB against 29 for
# 1,000 (at 2**16 entries: 134 MiB). A batch that repeats its hands finds them in the
# readings memo first (search/readings.py), which is what keeps a steady batch fast.
HANDS = 1 << 10
SUITS = 1 << 11

_MEMO_STANDARD: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(HANDS, "search.decompose.standard")


def standard(counts: Counts, jokers: int, sets: int) -> tuple[tuple[Group, ...], ...]:
    """All decompositions of the concealed tiles into one pair and ``sets`` sets.

    Sets never span suits, so each suit (and the honors) is decomposed on its own,
    with every joker budget, and the parts are combined: the per-suit results depend
    only on that suit's nine counts and are cached across hands (see :func:`_suit_parts`):
    in a batch, most suits have been seen before. With more than two jokers the
    whole-hand search (:func:`_standard_search`, also the cross-check in the tests) is
    faster on a cold cache.

    Returns sorted group tuples; groups made only of jokers are FREE_PAIR/FREE_SET.
    Below: 44 + 111 222 333, 44 + 123 123 123, and 11 + 123 234 234.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("11122233344m"): c[t] += 1
    >>> [[g.kind for g in d] for d in standard(tuple(c), 0, 3)]
    [['chow', 'chow', 'chow', 'pair'], ['chow', 'chow', 'chow', 'pair'], ['pair', 'pung', 'pung', 'pung']]
    """
    key = (counts, jokers, sets)
    hit = _MEMO_STANDARD.get(key)
    if hit is None:
        hit = _MEMO_STANDARD.put(key, _compute_standard(counts, jokers, sets))
    return hit


def _compute_standard(counts: Counts, jokers: int, sets: int) -> tuple[tuple[Group, ...], ...]:
    if sum(counts) + jokers != 2 + 3 * sets:
        return ()
    if jokers > 2:
        # With three or four jokers a suit has many local joker placements that the whole
        # hand rules out; a cold per-suit cache costs more than the whole-hand search.
        return _standard_search(counts, jokers, sets)
    parts = [_suit_parts(b, counts[b:b + n], jokers) for b, n in ((0, 9), (9, 9), (18, 9), (27, 7))]
    out: set[tuple[Group, ...]] = set()

    def combine(k: int, j: int, n: int, pair: bool,
                acc: tuple[tuple[tuple[Group, ...], ...], ...]) -> None:
        if k == len(parts):
            left_sets = sets - n
            if left_sets < 0 or jokers - j != (0 if pair else 2) + 3 * left_sets:
                return
            free = [FREE_PAIR] * (not pair) + [FREE_SET] * left_sets
            for combo in product(*acc):
                out.add(tuple(sorted([g for part in combo for g in part] + free)))
            return
        for (pj, pn, pp), options in parts[k].items():
            if j + pj <= jokers and n + pn <= sets and not (pair and pp):
                combine(k + 1, j + pj, n + pn, pair or pp, (*acc, options))

    combine(0, 0, 0, False, ())
    return tuple(sorted(out))


SuitParts = dict[tuple[int, int, bool], tuple[tuple[Group, ...], ...]]


_MEMO_SUIT_PARTS: Memo[Any, SuitParts] = Memo(SUITS, "search.decompose._suit_parts")


def _suit_parts(base: int, counts: Counts, max_jokers: int) -> SuitParts:
    """Every way to cover one suit's natural tiles with groups, jokers filling gaps.

    Keys are (jokers used, sets, whether the pair is among them); every group holds
    at least one natural tile of this suit (groups of jokers alone are added by the
    caller). Honors (base 27) form no chows.
    """
    key = (base, counts, max_jokers)
    hit = _MEMO_SUIT_PARTS.get(key)
    if hit is None:
        hit = _MEMO_SUIT_PARTS.put(key, _compute_suit_parts(base, counts, max_jokers))
    return hit


# Complexity 18 (its recursion, rec: 17), over the 15 allowed, on purpose: rec tries, at
# the lowest tile left, every group through it (a pair, a pung, the chows, each filled with
# natural tiles or jokers), one branch per kind of group, at every node of the search: a
# call per branch would be paid thousands of times by a hand met for the first time.
def _compute_suit_parts(base: int, counts: Counts, max_jokers: int) -> SuitParts:  # noqa: C901
    c = list(counts)
    n = len(c)
    honors = base >= 27
    acc: list[Group] = []
    out: dict[tuple[int, int, bool], set[tuple[Group, ...]]] = {}
    # the groups come ready-made from tables (a cold suit makes thousands of them)
    pairs, pungs = _PAIRS, _PUNGS

    def rec(i: int, j: int, pair: bool) -> None:  # noqa: C901 (see above)
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            key = (j, len(acc) - pair, pair)
            out.setdefault(key, set()).add(tuple(sorted(acc)))
            return
        t = base + i
        ci = c[i]
        if not pair:
            for nat in (2, 1):
                wild = 2 - nat
                if ci >= nat and j + wild <= max_jokers:
                    c[i] -= nat
                    acc.append(pairs[t][wild])
                    rec(i, j + wild, True)
                    acc.pop()
                    c[i] += nat
        for nat in (3, 2, 1):
            wild = 3 - nat
            if ci >= nat and j + wild <= max_jokers:
                c[i] -= nat
                acc.append(pungs[t][wild])
                rec(i, j + wild, pair)
                acc.pop()
                c[i] += nat
        if honors:
            return
        # the chows through t: t is the lowest natural tile left, so the chow's tiles
        # below it are jokers; each above it natural or a joker (both, when held)
        at = _CHOWS_AT[t]
        for k in (2, 1, 0):  # the chow starts of _chow_starts, in its order
            fills = at[k]
            if not fills:
                continue
            held = 0
            if k == 0:
                held = (c[i + 1] > 0) | (c[i + 2] > 0) << 1
            elif k == 1:
                held = int(c[i + 1] > 0)
            for above, jokers, g in fills[held]:
                if j + jokers > max_jokers:
                    continue
                c[i] -= 1
                for u in above:
                    c[i + u] -= 1
                acc.append(g)
                rec(i, j + jokers, pair)
                acc.pop()
                for u in above:
                    c[i + u] += 1
                c[i] += 1

    rec(0, 0, False)
    return {k: tuple(sorted(v)) for k, v in out.items()}


_Fill = tuple[tuple[int, ...], int, Group]  # see _chow_table


def _chow_table(t: int) -> tuple[tuple[tuple[_Fill, ...], ...], ...]:
    """The chows through suited tile ``t`` when it is the lowest natural tile left, by the
    place ``k`` of ``t`` in the chow (0, 1, 2; empty where that chow does not exist): for
    each pattern ``held`` of the tiles above ``t`` in it (bit ``m`` for the ``m``-th one
    held), every fill as (offsets above ``t`` of the natural tiles taken, jokers used, the
    group), in the order of :func:`_chow_fills`.

    >>> [(a, n, g.wild) for a, n, g in _chow_table(1)[1][1]]  # 2m in 123m, a 3m held
    [((1,), 1, (0,)), ((), 2, (0, 2))]
    """
    out: list[tuple[tuple[_Fill, ...], ...]] = []
    for k in range(3):
        s = t - k
        if t >= 27 or not 0 <= t % 9 - k <= 6:
            out.append(())
            continue
        by_held: list[tuple[_Fill, ...]] = []
        for held in range(1 << (2 - k)):
            above = frozenset(t + 1 + m for m in range(2) if held >> m & 1)
            fills = _chow_fills(t, s, above.__contains__)
            by_held.append(tuple((tuple(u - t for u in taken), len(wild),
                                  Group("chow", (s, s + 1, s + 2), wild))
                                 for taken, wild in fills))
        out.append(tuple(by_held))
    return tuple(out)


_PAIRS = tuple((Group("pair", (t, t)), Group("pair", (t, t), (t,))) for t in range(NUM_KINDS))
_PUNGS = tuple(tuple(Group("pung", (t, t, t), (t,) * w) for w in range(3))
               for t in range(NUM_KINDS))
_CHOWS_AT = tuple(_chow_table(t) for t in range(NUM_KINDS))


_MEMO_STANDARD_EXISTS: Memo[Any, bool] = Memo(HANDS, "search.decompose.standard_exists")


def standard_exists(counts: Counts, jokers: int, sets: int) -> bool:
    """True when :func:`standard` finds at least one decomposition, without building any.

    With the tile count right (``sum(counts) + jokers == 2 + 3 * sets``), groups that hold
    ``N`` natural tiles in ``k`` sets and ``p`` pairs use ``3k + 2p - N`` jokers, and the
    jokers left are exactly what ``sets - k`` more sets and the missing pair need. So a
    decomposition exists when the natural tiles can be covered by at most ``sets`` sets
    and at most one pair, whatever the jokers: per suit, the fewest sets that cover its
    tiles without a pair and with one (:func:`_suit_need`, cached across hands). The waits
    ask this 34 times per hand, each time with one suit changed.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("1112345678999m"): c[t] += 1
    >>> standard_exists(tuple(c), 1, 4), standard_exists(tuple(c), 0, 4)
    (True, False)
    """
    key = (counts, jokers, sets)
    hit = _MEMO_STANDARD_EXISTS.get(key)
    if hit is None:
        hit = _MEMO_STANDARD_EXISTS.put(key, _compute_standard_exists(counts, jokers, sets))
    return hit


def _compute_standard_exists(counts: Counts, jokers: int, sets: int) -> bool:
    if sum(counts) + jokers != 2 + 3 * sets:
        return False
    needs = [_suit_need(counts[0:9]), _suit_need(counts[9:18]), _suit_need(counts[18:27]),
             _suit_need(counts[27:], honors=True)]
    plain = sum(no_pair for no_pair, _ in needs)
    if plain <= sets:  # the pair, if any, is made of jokers
        return True
    return any(plain - no_pair + with_pair <= sets for no_pair, with_pair in needs)


def standard_exists_added(counts: Counts, jokers: int, sets: int) -> int:
    """The tiles ``t`` for which :func:`standard_exists` holds of ``counts`` with one more
    ``t`` (and the same jokers), as a bitmask: the waits of a hand one tile short that may
    hold jokers, in one pass. A tile added changes its own suit only, so the other suits'
    covers are worked out once, and each suit's with each of its tiles added.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("123m456p789s23s5p"): c[t] += 1   # and one joker
    >>> m = standard_exists_added(tuple(c), 1, 4)
    >>> m == sum(1 << t for t in range(34) if standard_exists(
    ...     tuple(n + (u == t) for u, n in enumerate(c)), 1, 4))
    True
    """
    if sum(counts) + 1 + jokers != 2 + 3 * sets:
        return 0
    bounds = ((0, 9), (9, 18), (18, 27), (27, NUM_KINDS))
    needs = [_suit_need(counts[lo:hi], lo == 27) for lo, hi in bounds]
    found = 0
    for k, (lo, hi) in enumerate(bounds):
        others = [needs[u] for u in range(4) if u != k]
        plain_others = sum(no_pair for no_pair, _ in others)
        part = list(counts[lo:hi])
        for t in range(lo, hi):
            part[t - lo] += 1
            no_pair, with_pair = _suit_need(tuple(part), lo == 27)
            part[t - lo] -= 1
            # as _compute_standard_exists, with this suit's need
            plain = plain_others + no_pair
            if plain <= sets or plain - no_pair + with_pair <= sets or any(
                    plain - a + b <= sets for a, b in others):
                found |= 1 << t
    return found


_NEVER = 1 << 20  # more sets than any hand holds: no cover


def _suit_need(counts: Counts, honors: bool = False) -> tuple[int, int]:
    """The fewest sets that cover one suit's natural tiles with groups of :func:`standard`
    (pairs, pungs, chows, each holding at least one natural tile, jokers filling the
    rest): (without a pair, with one pair; ``_NEVER`` if none). The counts are one suit's
    nine (the same for every suit), or the seven honors' (no chows).

    >>> _suit_need((1, 1, 0, 0, 0, 0, 0, 0, 0)), _suit_need((2, 0, 0, 0, 0, 0, 0), honors=True)
    ((1, 1), (1, 0))
    """
    return _cover(counts, honors, False), _cover(counts, honors, True)


_MEMO_COVER: Memo[Any, int] = Memo(SUITS, "search.decompose._cover")


def _cover(c: Counts, honors: bool, pair: bool) -> int:
    """The fewest sets covering the counts ``c`` of one suit, with one pair among the
    groups if ``pair`` (:func:`_suit_need`); memoised across suits and hands, as what is
    left of a suit after its lowest group is often a suit seen before."""
    key = (c, honors, pair)
    hit = _MEMO_COVER.get(key)
    if hit is None:
        hit = _MEMO_COVER.put(key, _compute_cover(c, honors, pair))
    return hit


def _compute_cover(c: Counts, honors: bool, pair: bool) -> int:
    size = len(c)
    i = 0
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        return _NEVER if pair else 0
    best = _NEVER
    ci = c[i]
    cc = list(c)
    # A group that leaves a natural copy of its tile to another group while a joker plays
    # that tile in it can take the copy instead (the other group then holds a joker there,
    # or goes if only jokers are left; a pair that goes leaves a cover without a pair,
    # which standard_exists tries too): so each group takes every natural tile it can, and
    # only which group covers i is tried.
    if pair:
        cc[i] = ci - min(ci, 2)
        best = min(best, _cover(tuple(cc), honors, False))
    cc[i] = ci - min(ci, 3)
    best = min(best, 1 + _cover(tuple(cc), honors, pair))
    if not honors:  # the chows through i, in the suit's own numbering (0-8)
        for st in range(max(i - 2, 0), min(i, 6) + 1):
            cc = list(c)
            for u in range(max(st, i), st + 3):
                if cc[u]:
                    cc[u] -= 1
            best = min(best, 1 + _cover(tuple(cc), honors, pair))
    return min(best, _NEVER)


# Complexity 19 (its recursion, rec: 17), over the 15 allowed, on purpose: rec tries, at
# the lowest tile left, every group through it (a pair, a pung, the chows, each filled with
# natural tiles or jokers), one branch per kind of group, at every node of the search: a
# call per branch would be paid thousands of times by a hand met for the first time.
def _standard_search(  # noqa: C901
        counts: Counts, jokers: int, sets: int) -> tuple[tuple[Group, ...], ...]:
    """The whole-hand search: :func:`standard` uses it for three or more jokers, and the
    tests use it as the reference for the per-suit combination."""
    if sum(counts) + jokers != 2 + 3 * sets:
        return ()
    # Memoised on the sub-state: placing jokers in different ways often leaves the same
    # tiles to decompose, and that remainder is then searched once.
    memo: dict[tuple[Counts, int, bool, int], frozenset[tuple[Group, ...]]] = {}

    def rec(c: Counts, j: int, need_pair: bool,  # noqa: C901 (see above)
            left: int) -> frozenset[tuple[Group, ...]]:
        key = (c, j, need_pair, left)
        hit = memo.get(key)
        if hit is not None:
            return hit
        i = 0
        while i < NUM_KINDS and c[i] == 0:
            i += 1
        out: set[tuple[Group, ...]] = set()
        if i == NUM_KINDS:
            # Only jokers remain: they must form the missing groups by themselves.
            if j == (2 if need_pair else 0) + 3 * left:
                out.add(tuple(sorted([FREE_PAIR] * need_pair + [FREE_SET] * left)))
            memo[key] = res = frozenset(out)
            return res

        def take(g: Group, used: dict[int, int], nj: int, np: bool, nl: int) -> None:
            cc = list(c)
            for t, k in used.items():
                cc[t] -= k
            for r in rec(tuple(cc), nj, np, nl):
                out.add(tuple(sorted((g, *r))))

        ci = c[i]
        if need_pair:
            for nat in (2, 1):
                wild = 2 - nat
                if ci >= nat and j >= wild:
                    take(Group("pair", (i, i), (i,) * wild), {i: nat}, j - wild, False, left)
        if left:
            for nat in (3, 2, 1):
                wild = 3 - nat
                if ci >= nat and j >= wild:
                    take(Group("pung", (i, i, i), (i,) * wild), {i: nat}, j - wild, need_pair,
                         left - 1)
            for s in _chow_starts(i):
                for taken, jtiles in _chow_fills(i, s, lambda t: c[t] > 0):
                    if len(jtiles) <= j:
                        take(Group("chow", (s, s + 1, s + 2), jtiles),
                             {i: 1, **dict.fromkeys(taken, 1)}, j - len(jtiles), need_pair,
                             left - 1)
        memo[key] = res = frozenset(out)
        return res

    return tuple(sorted(rec(tuple(counts), jokers, True, sets)))


HONORS = tuple(range(27, 34))


_MEMO_AS_HELD: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(HANDS, "search.decompose.as_held")


def as_held(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """The hand as held, for a win that needs no winning shape (三金倒, three golds).

    Returns one decomposition: a concealed pung for every tile held three or four
    times as natural tiles (the pungs "actually held"; a fourth copy stays loose,
    since an undeclared kong is not a kong), every other natural tile as a
    ``single``, and each joker as a loose :data:`LOOSE_JOKER` (the reading binds it
    to the wildcard's own face: a gold counted as a gold, not a substitution).
    Jokers never complete a pung here; readings where they do come from the
    complete shapes, and the scorer keeps whichever pays more.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("5555p1mE"): c[t] += 1
    >>> [(g.kind, g.tiles) for g in as_held(tuple(c), 1)[0]]
    [('pung', (13, 13, 13)), ('single', ()), ('single', (0,)), ('single', (13,)), ('single', (27,))]
    """
    key = (counts, jokers)
    hit = _MEMO_AS_HELD.get(key)
    if hit is None:
        hit = _MEMO_AS_HELD.put(key, _compute_as_held(counts, jokers))
    return hit


def _compute_as_held(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    groups: list[Group] = []
    for t, n in enumerate(counts):
        if n >= 3:
            groups.append(Group("pung", (t, t, t)))
            n -= 3
        groups.extend(Group("single", (t,)) for _ in range(n))
    groups.extend(LOOSE_JOKER for _ in range(jokers))
    return (tuple(sorted(groups)),)


def free_readings(g: Group, candidates: tuple[int, ...]) -> list[Group]:
    """Every reading of a group made only of jokers.

    A free pair reads as any candidate tile; a free set as a pung of any
    candidate tile or any chow made of candidates.

    >>> len(free_readings(FREE_PAIR, tuple(range(34)))), len(free_readings(FREE_SET, tuple(range(34))))
    (34, 55)
    """
    if g.kind == "pair":
        return [Group("pair", (t, t), (t, t)) for t in candidates]
    out = [Group("pung", (t, t, t), (t, t, t)) for t in candidates]
    # A free chow is any chow through a candidate tile (its other tiles need not be
    # candidates: they are only there to make the chow).
    starts = sorted({s for t in candidates for s in _chow_starts(t)})
    for s in starts:
        out.append(Group("chow", (s, s + 1, s + 2), (s, s + 1, s + 2)))
    return out


def expand_free(groups: tuple[Group, ...], candidates: tuple[int, ...]) -> Iterator[
        tuple[Group, ...]]:
    """Yield the decomposition with every free group replaced by each of its readings.

    Each decomposition once: equal free groups (two free sets) take their readings in
    non-decreasing order, which gives each multiset of readings once, the first way the
    product of the readings would (no set of the yielded tuples is kept); each free
    group's readings are made once, not once per reading of the groups before it.

    >>> d = (Group("pair", (0, 0)), FREE_SET, FREE_SET)
    >>> len(free_readings(FREE_SET, (5, 9))), len(list(expand_free(d, (5, 9))))  # 6 * 7 / 2
    (6, 21)
    """
    free = [g for g in groups if is_free(g)]
    if not free:
        yield groups
        return
    fixed = [g for g in groups if not is_free(g)]
    n = len(free)
    options = [free_readings(free[0], candidates)]
    for k in range(1, n):
        options.append(options[k - 1] if free[k] == free[k - 1]
                       else free_readings(free[k], candidates))
    # from which reading of the group before a free group's readings start (equal groups)
    same = [k > 0 and free[k] == free[k - 1] for k in range(n)]

    def rec(k: int, start: int, acc: list[Group]) -> Iterator[tuple[Group, ...]]:
        if k == n:
            yield tuple(sorted(fixed + acc))
            return
        opts = options[k]
        for i in range(start if same[k] else 0, len(opts)):
            yield from rec(k + 1, i, [*acc, opts[i]])

    yield from rec(0, 0, [])
