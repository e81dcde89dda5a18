"""Every decomposition of a hand into groups, with wildcards as jokers.

The search works on tile *counts* (a 34-entry tuple) plus a number of jokers,
never on a 34^k substitution loop: the lowest natural tile left must belong to
some group, so only the groups containing it are tried (a pair, a pung, or one
of the up to three chows through it), each filled with natural tiles where the
hand has them and with jokers where it does not or where using the joker
instead frees a natural tile. Jokers left when every natural tile is placed
form groups of their own ("free" groups) whose readings are enumerated
afterwards by :func:`free_readings`. Results depend only on the counts and
are memoised (:func:`functools.lru_cache`), so batches of similar hands are cheap.

A :class:`Group` records which of its logical tiles are played by jokers
(``wild``), so later stages can tell a wildcard used as its own face from one
that stands in for another tile.

Shapes (see :data:`SHAPES`):

* ``standard``      a pair + N sets (N = 4 for 14-tile hands, 5 for Xiamen's 17)
* ``seven_pairs``   seven pairs; four identical tiles may count as two pairs
* ``thirteen_orphans`` one of each terminal and honor + one more of them
* ``honors_knitted`` 十三不靠 / 全不靠 families: 14 distinct tiles, see :func:`honors_knitted`
* ``knitted_straight`` 组合龙: 147/258/369 in three suits + a set + a pair
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from .tiles import NUM_KINDS

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


def is_free(g: Group) -> bool:
    return not g.tiles


def _chow_starts(i: int) -> list[int]:
    """Start tiles of the chows that contain suited tile i."""
    if i >= 27:
        return []
    n = i % 9
    return [i - k for k in (2, 1, 0) if 0 <= n - k <= 6]


@lru_cache(maxsize=1 << 16)
def standard(counts: Counts, jokers: int, sets: int) -> tuple[tuple[Group, ...], ...]:
    """All decompositions of the concealed tiles into one pair and ``sets`` sets.

    Returns sorted group tuples; groups made only of jokers are FREE_PAIR/FREE_SET.

    >>> from scorer.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("11123m"): c[t] += 1
    >>> [[g.kind for g in d] for d in standard(tuple(c), 0, 1)]
    [['chow', 'pair'], ['pair', 'pung']]
    """
    if sum(counts) + jokers != 2 + 3 * sets:
        return ()
    c = list(counts)
    acc: list[Group] = []
    out: set[tuple[Group, ...]] = set()

    def rec(i: int, j: int, need_pair: bool, left: int) -> None:
        while i < NUM_KINDS and c[i] == 0:
            i += 1
        if i == NUM_KINDS:
            # Only jokers remain: they must form the missing groups by themselves.
            if j == (2 if need_pair else 0) + 3 * left:
                out.add(tuple(sorted(acc + [FREE_PAIR] * need_pair + [FREE_SET] * left)))
            return
        ci = c[i]
        if need_pair:
            for nat in (2, 1):
                wild = 2 - nat
                if ci >= nat and j >= wild:
                    c[i] -= nat
                    acc.append(Group("pair", (i, i), (i,) * wild))
                    rec(i, j - wild, False, left)
                    acc.pop()
                    c[i] += nat
        if left == 0:
            return
        for nat in (3, 2, 1):
            wild = 3 - nat
            if ci >= nat and j >= wild:
                c[i] -= nat
                acc.append(Group("pung", (i, i, i), (i,) * wild))
                rec(i, j - wild, need_pair, left - 1)
                acc.pop()
                c[i] += nat
        for s in _chow_starts(i):
            # Tiles below i have no natural copies left (i is the lowest), so they are jokers;
            # each tile above i may be natural (if present) or a joker.
            below = i - s
            if below > j:
                continue
            options: list[list[tuple[int, bool]]] = [[]]
            for t in range(i + 1, s + 3):
                nxt: list[list[tuple[int, bool]]] = []
                for o in options:
                    if c[t] > 0:
                        nxt.append([*o, (t, True)])
                    nxt.append([*o, (t, False)])
                options = nxt
            for o in options:
                wild_tiles = [s + k for k in range(below)] + [t for t, nat in o if not nat]
                if len(wild_tiles) > j:
                    continue
                c[i] -= 1
                for t, nat in o:
                    if nat:
                        c[t] -= 1
                acc.append(Group("chow", (s, s + 1, s + 2), tuple(sorted(wild_tiles))))
                rec(i, j - len(wild_tiles), need_pair, left - 1)
                acc.pop()
                for t, nat in o:
                    if nat:
                        c[t] += 1
                c[i] += 1

    rec(0, jokers, True, sets)
    return tuple(sorted(out))


@lru_cache(maxsize=1 << 14)
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


@lru_cache(maxsize=1 << 12)
def thirteen_orphans(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """One of each terminal and honor plus a second of one of them (十三幺)."""
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
    """Yield the decomposition with every free group replaced by each of its readings."""
    free = [g for g in groups if is_free(g)]
    if not free:
        yield groups
        return
    fixed = [g for g in groups if not is_free(g)]
    seen: set[tuple[Group, ...]] = set()

    def rec(k: int, acc: list[Group]) -> Iterator[tuple[Group, ...]]:
        if k == len(free):
            key = tuple(sorted(fixed + acc))
            if key not in seen:
                seen.add(key)
                yield key
            return
        for r in free_readings(free[k], candidates):
            yield from rec(k + 1, [*acc, r])

    yield from rec(0, [])


# -- knitted shapes (全不靠 / 七星不靠, 组合龙) -----------------------------------
HONORS = tuple(range(27, 34))


def _knitted_sequences() -> tuple[tuple[int, ...], ...]:
    """The six knitted straights: 147, 258 and 369 each in a different suit (组合龙)."""
    from itertools import permutations

    out = []
    for suits in permutations(range(3)):
        out.append(tuple(sorted(s * 9 + start + 3 * k for s, start in zip(suits, (0, 1, 2),
                                                                          strict=True)
                                for k in range(3))))
    return tuple(out)


KNITTED = _knitted_sequences()


def takes_sets(fn: object) -> object:
    """Mark a shape function that takes ``(counts, jokers, sets)`` and may stand beside
    fixed melds (it holds some of the hand's sets, e.g. a knitted straight + one set)."""
    fn.with_melds = True  # type: ignore[attr-defined]
    return fn


@lru_cache(maxsize=1 << 12)
def honors_knitted(counts: Counts, jokers: int) -> tuple[tuple[Group, ...], ...]:
    """14 different tiles: suited ones from one knitted straight, plus honors (全不靠).

    The suited tiles must all belong to one of the six knitted straights (147,
    258, 369 in three different suits); every tile appears once. With all seven
    honors it is 七星不靠, with all nine suited tiles it holds a 组合龙 — rulesets
    tell those apart by counting honors. Jokers fill missing tiles of the pattern.
    Every tile is a 'single' group.

    >>> from scorer.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("147m258p36sESWNCF"): c[t] += 1
    >>> len(honors_knitted(tuple(c), 0)), honors_knitted(tuple(c), 0)[0][0].kind
    (1, 'single')
    """
    if sum(counts) + jokers != 14 or any(n > 1 for n in counts):
        return ()
    present = {t for t, n in enumerate(counts) if n}
    out: set[tuple[Group, ...]] = set()
    for seq in KNITTED:
        allowed = set(seq) | set(HONORS)
        if not present <= allowed:
            continue
        missing = sorted(allowed - present)
        from itertools import combinations

        for fill in combinations(missing, jokers):
            groups = [Group("single", (t,)) for t in present]
            groups += [Group("single", (t,), (t,)) for t in fill]
            out.add(tuple(sorted(groups)))
    return tuple(sorted(out))


@takes_sets
@lru_cache(maxsize=1 << 14)
def knitted_straight(counts: Counts, jokers: int, sets: int) -> tuple[tuple[Group, ...], ...]:
    """A knitted straight (组合龙: 147, 258, 369 in three suits) + the other sets + a pair.

    ``sets`` is the number of concealed sets the hand needs (4 minus fixed melds);
    the knitted straight stands for three of them, so it takes ``sets >= 3``. Its
    tiles form three 'knit' groups (e.g. 147m); the rest is decomposed as the
    standard shape.

    >>> from scorer.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("147m258p369s123sEE"): c[t] += 1
    >>> [g.kind for g in knitted_straight(tuple(c), 0, 4)[0]]
    ['chow', 'knit', 'knit', 'knit', 'pair']
    """
    if sets < 3 or sum(counts) + jokers != 2 + 3 * sets:
        return ()
    out: set[tuple[Group, ...]] = set()
    for seq in KNITTED:
        # each knitted tile is a natural copy when the hand has one, or a joker; a joker may
        # also stand in for a present tile so that the natural copy serves the other sets
        options: list[list[tuple[int, bool]]] = [[]]
        for t in seq:
            nxt = []
            for o in options:
                if counts[t] > 0:
                    nxt.append([*o, (t, True)])
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


# -- waits ---------------------------------------------------------------------
@lru_cache(maxsize=1 << 16)
def standard_waits(counts: Counts, sets: int) -> int:
    """The tiles that complete ``counts`` (3n+1 tiles) into a pair + ``sets`` sets, as a bitmask.

    Bit t is set when adding tile t makes a complete hand, whether or not a fifth
    copy would be needed (as in the reference calculators, which do not look at
    the wall).

    >>> from scorer.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("1112345678999m"): c[t] += 1
    >>> [t + 1 for t in range(34) if standard_waits(tuple(c), 4) >> t & 1]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    if sum(counts) != 3 * sets + 1:
        return 0
    c = list(counts)
    found = 0

    def rec(i: int, sets_left: int, need_pair: bool, partial: int) -> None:
        # partial: -1 while the one incomplete piece is not placed, else its wait mask
        nonlocal found
        while i < NUM_KINDS and c[i] == 0:
            i += 1
        if i == NUM_KINDS:
            if sets_left == 0 and not need_pair and partial >= 0:
                found |= partial
            return
        suited = i < 27
        n = i % 9
        if sets_left and c[i] >= 3:
            c[i] -= 3
            rec(i, sets_left - 1, need_pair, partial)
            c[i] += 3
        if sets_left and suited and n <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            rec(i, sets_left - 1, need_pair, partial)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if need_pair and c[i] >= 2:
            c[i] -= 2
            rec(i, sets_left, False, partial)
            c[i] += 2
        if partial >= 0:
            return
        if sets_left:  # an incomplete set: ii (waits i), i i+1 (i-1, i+2), i i+2 (i+1)
            if c[i] >= 2:
                c[i] -= 2
                rec(i, sets_left - 1, need_pair, 1 << i)
                c[i] += 2
            if suited and n <= 7 and c[i + 1]:
                mask = (1 << (i - 1) if n >= 1 else 0) | (1 << (i + 2) if n <= 6 else 0)
                c[i] -= 1
                c[i + 1] -= 1
                rec(i, sets_left - 1, need_pair, mask)
                c[i] += 1
                c[i + 1] += 1
            if suited and n <= 6 and c[i + 2]:
                c[i] -= 1
                c[i + 2] -= 1
                rec(i, sets_left - 1, need_pair, 1 << (i + 1))
                c[i] += 1
                c[i + 2] += 1
        if need_pair:  # a single tile waiting for its pair
            c[i] -= 1
            rec(i, sets_left, False, 1 << i)
            c[i] += 1

    rec(0, sets, True, -1)
    return found


def seven_pairs_wait(counts: Counts) -> int:
    """The tile that completes 13 tiles into seven pairs (four of a kind = two pairs), as a
    bitmask (0 if none).

    >>> c = [0] * 34; c[0] = 2; c[1] = 2; c[2] = 2; c[3] = 2; c[4] = 2; c[5] = 2; c[6] = 1
    >>> seven_pairs_wait(tuple(c)) == 1 << 6
    True
    """
    if sum(counts) != 13:
        return 0
    pairs = sum(n // 2 for n in counts)
    if pairs != 6:
        return 0
    for t, n in enumerate(counts):
        if n % 2:
            return 1 << t
    return 0  # pragma: no cover - 13 tiles always leave an odd count
