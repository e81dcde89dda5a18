"""The shapes that are not a pair and sets: seven pairs (七对), thirteen orphans (十三幺),
and the knitted shapes (全不靠 / 七星不靠, 组合龙).

Each is searched on tile counts plus a number of jokers, as :mod:`scorer.search.decompose`
searches the standard shape (whose search the knitted straight reuses for its set and
pair), and remembered by the counts in a bounded :class:`~scorer.memo.Memo`.

>>> c = [0] * 34
>>> for t in ORPHANS: c[t] += 1
>>> c[0] += 1
>>> len(thirteen_orphans(tuple(c), 0)), len(seven_pairs(tuple(c), 0))
(1, 0)
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from ..memo import Memo
from .decompose import FREE_PAIR, HANDS, HONORS, Counts, Group, standard

_MEMO_SEVEN_PAIRS: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    HANDS, "search.special_shapes.seven_pairs")


def seven_pairs(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """All seven-pairs decompositions; four identical tiles count as two pairs.

    A joker pairs a natural tile or another joker (a free pair). A kind with c
    natural copies may take a = c mod 2, c mod 2 + 2, ... jokers (a <= c), each
    making a (tile, joker) pair: the choice matters for 七客 (which tile the lone
    wildcard pairs).

    >>> c = [0] * 34; c[0] = 4; c[1] = 2; c[2] = 2; c[3] = 2; c[4] = 2; c[5] = 2
    >>> len(seven_pairs(tuple(c), 0)), [g.tiles for g in seven_pairs(tuple(c), 0)[0]][:2]
    (1, [(0, 0), (0, 0)])
    """
    key = (counts, jokers)
    hit = _MEMO_SEVEN_PAIRS.get(key)
    if hit is None:
        hit = _MEMO_SEVEN_PAIRS.put(key, _compute_seven_pairs(counts, jokers))
    return hit


def _compute_seven_pairs(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    if sum(counts) + jokers != 14:
        return ()
    kinds = [(t, n) for t, n in enumerate(counts) if n]
    out: set[tuple[Group, ...]] = set()

    def rec(k: int, j: int, acc: list[Group]) -> None:
        if k == len(kinds):
            if j % 2 == 0:
                out.add(tuple(sorted(acc + [FREE_PAIR] * (j // 2))))
            return
        t, n = kinds[k]
        for a in range(n % 2, n + 1, 2):
            if a > j:
                break
            groups = [Group("pair", (t, t))] * ((n - a) // 2) + [Group("pair", (t, t), (t,))] * a
            rec(k + 1, j - a, acc + groups)

    rec(0, jokers, [])
    return tuple(sorted(out))


ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


_MEMO_THIRTEEN_ORPHANS: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    HANDS, "search.special_shapes.thirteen_orphans")


def thirteen_orphans(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """One of each terminal and honor plus a second of one of them (十三幺)."""
    key = (counts, jokers)
    hit = _MEMO_THIRTEEN_ORPHANS.get(key)
    if hit is None:
        hit = _MEMO_THIRTEEN_ORPHANS.put(key, _compute_thirteen_orphans(counts, jokers))
    return hit


def _compute_thirteen_orphans(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    if sum(counts) + jokers != 14:
        return ()
    if any(n and t not in ORPHANS for t, n in enumerate(counts)):
        return ()
    out: set[tuple[Group, ...]] = set()
    for pair_tile in ORPHANS:
        need_j = 0
        groups: list[Group] = []
        ok = True
        for t in ORPHANS:
            want = 2 if t == pair_tile else 1
            have = counts[t]
            if have > want:
                ok = False
                break
            wild = (t,) * (want - have)
            need_j += want - have
            groups.append(Group("pair" if want == 2 else "single", (t,) * want, wild))
        if ok and need_j == jokers:
            out.add(tuple(sorted(groups)))
    return tuple(sorted(out))


# -- knitted shapes (全不靠 / 七星不靠, 组合龙) -----------------------------------
def _knitted_sequences() -> tuple[tuple[int, ...], ...]:
    """The six knitted straights: 147, 258 and 369 each in a different suit (组合龙)."""
    out = []
    for suits in permutations(range(3)):
        out.append(tuple(sorted(s * 9 + start + 3 * k for s, start in zip(suits, (0, 1, 2),
                                                                          strict=True)
                                for k in range(3))))
    return tuple(out)


KNITTED = _knitted_sequences()


_MEMO_HONORS_KNITTED: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    HANDS, "search.special_shapes.honors_knitted")


def honors_knitted(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """14 different tiles: suited ones from one knitted straight, plus honors (全不靠).

    The suited tiles must all belong to one of the six knitted straights (147,
    258, 369 in three different suits); every tile appears once. With all seven
    honors it is 七星不靠, with all nine suited tiles it holds a 组合龙 — rulesets
    tell those apart by counting honors. Jokers fill missing tiles of the pattern.
    Every tile is a 'single' group.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("147m258p36sESWNCF"): c[t] += 1
    >>> len(honors_knitted(tuple(c), 0)), honors_knitted(tuple(c), 0)[0][0].kind
    (1, 'single')
    """
    key = (counts, jokers)
    hit = _MEMO_HONORS_KNITTED.get(key)
    if hit is None:
        hit = _MEMO_HONORS_KNITTED.put(key, _compute_honors_knitted(counts, jokers))
    return hit


def _compute_honors_knitted(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    if sum(counts) + jokers != 14 or any(n > 1 for n in counts):
        return ()
    present = {t for t, n in enumerate(counts) if n}
    out: set[tuple[Group, ...]] = set()
    for seq in KNITTED:
        allowed = set(seq) | set(HONORS)
        if not present <= allowed:
            continue
        missing = sorted(allowed - present)
        for fill in combinations(missing, jokers):
            groups = [Group("single", (t,)) for t in present]
            groups += [Group("single", (t,), (t,)) for t in fill]
            out.add(tuple(sorted(groups)))
    return tuple(sorted(out))


_MEMO_KNITTED_STRAIGHT: Memo[Any, tuple[tuple[Group, ...], ...]] = Memo(
    HANDS, "search.special_shapes.knitted_straight")


def knitted_straight(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """A knitted straight (组合龙: 147, 258, 369 in three suits) + the other sets + a pair.

    The concealed tiles hold a pair and some sets (3n + 2 tiles); the knitted
    straight stands for three of the sets, so it needs n >= 3 (it may sit beside
    one fixed meld, see the ``melds`` of its row in :mod:`scorer.search.shapes`). Its tiles form three 'knit'
    groups (e.g. 147m); the rest is decomposed as the standard shape.

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("147m258p369s123sEE"): c[t] += 1
    >>> [g.kind for g in knitted_straight(tuple(c), 0)[0]]
    ['chow', 'knit', 'knit', 'knit', 'pair']
    """
    key = (counts, jokers)
    hit = _MEMO_KNITTED_STRAIGHT.get(key)
    if hit is None:
        hit = _MEMO_KNITTED_STRAIGHT.put(key, _compute_knitted_straight(counts, jokers))
    return hit


def _compute_knitted_straight(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    total = sum(counts) + jokers
    sets = (total - 2) // 3
    if sets < 3 or total != 2 + 3 * sets:
        return ()
    out: set[tuple[Group, ...]] = set()
    for seq in KNITTED:
        if sum(1 for t in seq if not counts[t]) > jokers:
            continue  # more missing tiles than jokers
        # each knitted tile is a natural copy when the hand has one, or a joker; a joker may
        # also stand in for a present tile so that the natural copy serves the other sets
        options: list[list[tuple[int, bool]]] = [[]]
        for t in seq:
            nxt = []
            for o in options:
                if counts[t] > 0:
                    nxt.append([*o, (t, True)])
                if jokers > sum(1 for _, nat in o if not nat):
                    nxt.append([*o, (t, False)])
            options = nxt
        for o in options:
            used_j = sum(1 for _, nat in o if not nat)
            if used_j > jokers:
                continue
            rest = list(counts)
            for t, nat in o:
                if nat:
                    rest[t] -= 1
            knits = []
            for k in range(3):
                part = o[3 * k:3 * k + 3]
                knits.append(Group("knit", tuple(t for t, _ in part),
                                   tuple(t for t, nat in part if not nat)))
            for d in standard(tuple(rest), jokers - used_j, sets - 3):
                out.add(tuple(sorted([*knits, *d])))
    return tuple(sorted(out))
