"""Which tiles complete a hand one tile short, by shape: the waits search, on tile counts.

The ``wait`` fact (:mod:`scorer.rules.facts`: edge, closed or single, only when the hand
waited on one tile) asks which tiles complete the concealed tiles without the winning
tile; :func:`standard_waits` answers for a pair and sets, :func:`seven_pairs_wait` for
seven pairs, each as a bitmask of tiles. Neither scores anything nor looks at the wall
(what ``mjscore waits`` scores is :mod:`scorer.engine.ready`); for a ruleset's shapes at
once, :func:`scorer.search.shapewaits.shape_waits`.
"""

from __future__ import annotations

from typing import Any

from ..memo import Memo
from ..model.tiles import NUM_KINDS
from .decompose import HANDS, Counts

_MEMO_STANDARD_WAITS: Memo[Any, int] = Memo(HANDS, "search.waits.standard_waits")


def standard_waits(counts: Counts, sets: int) -> int:
    """The tiles that complete ``counts`` (3n+1 tiles) into a pair + ``sets`` sets, as a bitmask.

    Bit t is set when adding tile t makes a complete hand, whether or not a fifth
    copy would be needed (as in the reference calculators, which do not look at
    the wall).

    >>> from scorer.model.notation import parse_tiles
    >>> c = [0] * 34
    >>> for t, _ in parse_tiles("1112345678999m"): c[t] += 1
    >>> [t + 1 for t in range(34) if standard_waits(tuple(c), 4) >> t & 1]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    key = (counts, sets)
    hit = _MEMO_STANDARD_WAITS.get(key)
    if hit is None:
        hit = _MEMO_STANDARD_WAITS.put(key, _compute_standard_waits(counts, sets))
    return hit


def _compute_standard_waits(counts: Counts, sets: int) -> int:
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

