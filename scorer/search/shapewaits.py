"""Which tiles complete a hand one tile short in any of a ruleset's shapes, in one search.

What the report's why line, a batch record and ``waits`` ask of a hand before its winning
tile (:mod:`scorer.engine.waitfacts`), instead of adding each of the 34 tiles and searching
the hand again: on a table without wildcards the standard shape is one search
(:func:`~scorer.search.waits.standard_waits`), and the other shapes test only the tiles
that can complete them (:func:`_candidates`). A hand that holds a wildcard is left to the
search of :func:`_wild_waits`: the standard shape by the covers of each suit with each of
its tiles added (:func:`~scorer.search.decompose.standard_exists_added`), the other shapes
by each tile added to the hand as the table reads it (no Hand made and read again). The
wildcard's face and its stand-in added to any hand are left to the caller
(:func:`read_as_other`): either one changes how the table reads the tiles.
"""

from __future__ import annotations

from ..model.tiles import NUM_KINDS
from .decompose import Counts, standard_exists_added
from .readings import Interpretation, WildSpec, completes
from .shapes import SHAPES
from .special_shapes import KNITTED, ORPHANS
from .waits import standard_waits

_ORPHAN_MASK = sum(1 << t for t in ORPHANS)
_HONOR_MASK = sum(1 << t for t in range(27, NUM_KINDS))
_KNITTED_MASKS = tuple(sum(1 << t for t in seq) for seq in KNITTED)


def _near(counts: Counts) -> int:
    """The tiles that can share a pair, pung or chow with a held tile: the tile itself, and
    a suited tile's neighbours up to two away in its suit, as a bitmask."""
    mask = 0
    for t, n in enumerate(counts):
        if n:
            if t < 27:
                lo = t - t % 9
                mask |= ((1 << (min(t + 2, lo + 8) + 1)) - 1) ^ ((1 << max(t - 2, lo)) - 1)
            else:
                mask |= 1 << t
    return mask


def _candidates(name: str, counts: Counts, held: int, near: int) -> int:
    """The tiles that may complete ``counts`` (no wildcard in the hand) in shape ``name``, as
    a bitmask: a superset, each tile of it tested exactly; every tile for a shape it does
    not know. Without wildcards the tile added is a group's natural tile, so it is held
    (a pair, seven pairs), near a held tile (a pung or chow), an orphan (十三幺), or what
    a knitted straight lacks (全不靠, 组合龙)."""
    if name == "seven_pairs":
        return held
    if name == "thirteen_orphans":
        return _ORPHAN_MASK
    if name == "honors_knitted":  # every tile once: the suited ones of one knitted straight
        if any(n > 1 for n in counts):
            return 0
        out = 0
        suited = held & ~_HONOR_MASK
        for k in _KNITTED_MASKS:
            if suited & ~k == 0:
                out |= k | _HONOR_MASK
        return out & ~held
    if name == "knitted_straight":  # the added tile in the straight (the one it lacks) or
        out = near  # in the sets and pair beside it
        for k in _KNITTED_MASKS:
            lack = k & ~held
            if lack and lack & (lack - 1) == 0:
                out |= lack
        return out
    return (1 << NUM_KINDS) - 1


def read_as_other(spec: WildSpec) -> tuple[int, ...]:
    """The tiles a table reads as another when one is added: the wildcard's face (a joker)
    and its stand-in (a copy of the face); :func:`shape_waits` leaves them to the caller.

    >>> read_as_other(WildSpec(face=33, stand_in=32)), read_as_other(WildSpec())
    ((33, 32), ())
    """
    return tuple(t for t in (spec.face, spec.stand_in) if t is not None)


def shape_waits(interp: Interpretation, spec: WildSpec, shapes: tuple[str, ...],
                sets: int) -> int:
    """The tiles that complete a hand one tile short in one of ``shapes``, as a bitmask: what
    :func:`~scorer.search.readings.completes` says of the hand with each tile added, in one
    search. ``interp`` is the hand without the tile (its counts hold every concealed tile).
    A hand that holds a wildcard or a stand-in is answered by :func:`_wild_waits`; the
    tiles of :func:`read_as_other` are never in the mask (the caller tests them).

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.search.readings import NO_WILD, interpret
    >>> i = interpret(parse_hand("1112345678999m"), NO_WILD)
    >>> m = shape_waits(i, NO_WILD, ("standard", "seven_pairs"), 4)
    >>> [t + 1 for t in range(34) if m >> t & 1]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    other = 0
    for t in read_as_other(spec):
        other |= 1 << t
    if interp.jokers or interp.stand_ins:
        return _wild_waits(interp, spec, shapes, sets, other)
    counts = interp.counts
    held = sum(1 << t for t, n in enumerate(counts) if n)
    near = -1
    found = 0
    for name in shapes:
        if name == "standard":  # the common shape: one search of its own (standard_waits)
            concealed_sets = sets - len(interp.melds)
            if concealed_sets >= 0:
                found |= standard_waits(counts, concealed_sets) & ~other
            continue
        if near < 0:
            near = _near(counts)
        cands = _candidates(name, counts, held, near) & ~found & ~other
        t = 0
        while cands:
            if cands & 1:
                c = list(counts)
                c[t] += 1
                # the hand with tile t, as interpret reads it: no wildcard, no stand-in
                full = Interpretation(tuple(c), 0, t, interp.melds, 0, 0)
                if completes(full, spec, (name,), sets):
                    found |= 1 << t
            cands >>= 1
            t += 1
    return found


def _wild_waits(interp: Interpretation, spec: WildSpec, shapes: tuple[str, ...], sets: int,
                other: int) -> int:
    """:func:`shape_waits` of a hand that holds a wildcard or a stand-in. A tile added that
    is neither the wildcard's face nor its stand-in (``other``) is read as itself, and the
    other tiles as before: the hand with it is ``interp`` with one more of it, the winning
    tile. The standard shape (unless a stand-in may count as itself in it) is one pass over
    the suits' covers; the other shapes test each tile on that reading, as
    :func:`~scorer.search.readings.completes` does for the hand made and read again.

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.model.tiles import name
    >>> from scorer.search.readings import interpret
    >>> spec = WildSpec(face=33)
    >>> i = interpret(parse_hand("123m456p789s23s5pP"), spec)   # one joker beside 23s 5p
    >>> m = shape_waits(i, spec, ("standard",), 4)
    >>> [name(t) for t in range(34) if m >> t & 1]   # (P added: the caller's, tested alone)
    ['5p', '1s', '4s']
    """
    counts = interp.counts
    found = 0
    full = (1 << NUM_KINDS) - 1
    for name in shapes:
        if name == "standard" and name not in spec.stand_in_self_shapes:
            concealed_sets = sets - len(interp.melds)
            if concealed_sets >= 0:  # (every meld reading is one the standard shape takes)
                found |= standard_exists_added(counts, interp.jokers, concealed_sets)
            continue
        # the shape's cheap condition on the counts, asked here before the hand with the
        # tile is made (gapped_honors: no tile held twice), unless a stand-in counted as
        # itself may give the shape other counts (readings._stand_in_variants)
        shape = SHAPES.get(name)
        possible = shape.possible if shape is not None and not (
            interp.stand_ins and name in spec.stand_in_self_shapes) else None
        cands = full & ~found & ~other
        t = 0
        while cands:
            if cands & 1:
                c = list(counts)
                c[t] += 1
                added_counts = tuple(c)
                if possible is None or possible(added_counts):
                    added = Interpretation(added_counts, interp.jokers, t, interp.melds,
                                           interp.wild_count, interp.stand_ins)
                    if completes(added, spec, (name,), sets):
                        found |= 1 << t
            cands >>= 1
            t += 1
    return found & ~other
