"""From a physical hand to every *reading*: a decomposition with a meaning for every tile.

A reading fixes (1) the shape and its groups, (2) what every wildcard stands for
and (3) which group the winning tile completed. Rulesets judge patterns on one
reading; the scorer keeps the reading that pays the winner most.

How the physical tiles are read is the table's wildcard model, a
:class:`WildSpec` built from the ruleset and the context:

* tiles with the wildcard's face are jokers (``face``), at most ``in_play`` copies;
* a stand-in tile (Jinhua's 白板) is an ordinary copy of the wildcard's face,
  everywhere (``stand_in_scope='all'``) or only inside fixed melds (``'melds'``,
  Xiamen, where it may also be read as itself there);
* in some shapes one stand-in may count as itself instead (Jinhua's 十三不靠/七风).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any, NamedTuple

from ..errors import HandError
from ..memo import Memo
from ..model import tiles as T
from ..model.hand import Hand, Meld, format_tiles
from ..model.notation import chow_offer
from ..record import dataclass
from . import decompose as D
from .decompose import Group
from .shapes import SHAPES, Shape, any_meld

ALL_TILES = tuple(range(T.NUM_KINDS))


@dataclass(frozen=True)
class WildSpec:
    """How a table reads wildcard and stand-in tiles (see module docstring)."""

    face: int | None = None
    in_play: int = 4
    stand_in: int | None = None
    stand_in_scope: str = "all"  # 'all' | 'melds'
    stand_in_self_shapes: frozenset[str] = frozenset()
    in_melds: bool = True
    candidates: tuple[int, ...] = ALL_TILES
    detail: int = 2  # how finely the ruleset tells tiles apart (analysis.detail_level)
    # at detail 1, which class features it sees (analysis.class_features)
    features: frozenset[str] = frozenset({"honor", "suit", "wind", "terminal"})


NO_WILD = WildSpec()


class Reading(NamedTuple):
    """One reading of a hand.

    ``groups`` hold fixed melds first, then the concealed groups; ``win`` is the
    index of the group the winning tile completed (-1 for shapes judged without
    it); ``win_wild`` says whether the winning tile is a wildcard; ``win_natural``
    is the tile a natural winning tile is read as (a stand-in counted as itself
    reads differently from the stand-in's usual face), None for a wildcard.
    A named tuple, as :class:`Group` is: every hand makes several, each hashed once.
    """

    shape: str
    groups: tuple[Group, ...]
    win: int
    win_wild: bool
    win_natural: int | None = None

    @property
    def win_group(self) -> Group | None:
        return self.groups[self.win] if self.win >= 0 else None

    def describe(self) -> list[str]:
        """Each group as text; wildcard positions marked with '*', e.g. ``['123m', '5*5p']``."""
        return [describe_group(g) for g in self.groups]


_MEMO_DESCRIBE_GROUP: Memo[Any, str] = Memo(4096, "search.readings.describe_group")


def describe_group(g: Group) -> str:
    """Write a group; a tile played by a wildcard gets a '*' and a meld brackets.

    Memoised: every report and JSON record writes its groups, and a batch meets the
    same groups again and again.

    >>> describe_group(Group("chow", (0, 1, 2), (1,)))
    '12*3m'
    """
    key = g
    hit = _MEMO_DESCRIBE_GROUP.get(key)
    if hit is None:
        hit = _MEMO_DESCRIBE_GROUP.put(key, _compute_describe_group(g))
    return hit


def _compute_describe_group(g: Group) -> str:
    wild = list(g.wild)
    parts: list[str] = []
    for t in g.tiles:
        s = format_tiles((t,))
        if t in wild:
            wild.remove(t)
            s = s[:-1] + "*" + s[-1] if t < 27 else s + "*"
        parts.append(s)
    return join_group(g, parts)


def join_group(g: Group, parts: list[str]) -> str:
    """Write a group from its tiles already spelt one by one (marks included): a suited
    run shares one suffix, a meld is bracketed.

    >>> join_group(Group("chow", (0, 1, 2), ()), ["1m", "2*m", "3m"])
    '12*3m'
    """
    if g.tiles and g.tiles[0] < 27 and all(T.suit_of(t) == T.suit_of(g.tiles[0]) for t in g.tiles):
        text = "".join(p[:-1] for p in parts) + parts[0][-1]
    else:
        text = "".join(parts)
    if g.meld >= 0:
        text = f"[{text}]" if g.exposed else f"[{text}] concealed"
    return text


def _logical(t: int, spec: WildSpec, in_meld: bool) -> list[int | None]:
    """The logical identities one physical tile can take: a tile, or None for a joker."""
    if spec.face is not None and t == spec.face:
        return [None]
    if spec.stand_in is not None and t == spec.stand_in and spec.face is not None:
        if spec.stand_in_scope == "all":
            return [spec.face]
        if in_meld:
            return [spec.face, t]
    return [t]


def meld_readings(meld: Meld, index: int, spec: WildSpec) -> list[Group]:
    """Every way a fixed meld can be read; raise HandError if there is none.

    >>> from scorer.model.notation import parse_hand
    >>> m = parse_hand("[5pPP]123m456s789s1p1p").melds[0]
    >>> [format_tiles(g.tiles) for g in meld_readings(m, 0, WildSpec(face=33))]
    ['555p', '345p', '456p', '567p']
    """
    got = _meld_readings(meld.tiles, meld.offer, meld.reading, index, spec)
    if isinstance(got, HandError):
        raise _at(got, meld.position)
    return list(got)


def _at(e: HandError, position: int) -> HandError:
    """The memo's error for a meld, at the meld's position in this hand."""
    return HandError(e.code, position, **{k: v for k, v in e.params.items() if k != "position"})


_MEMO_MELD_READINGS: Memo[Any, tuple[Group, ...] | HandError] = Memo(
    4096, "search.readings._meld_readings")


def _meld_readings(tiles: tuple[int, ...], offer: int, reading: tuple[int, ...] | None,
                   index: int, spec: WildSpec) -> tuple[Group, ...] | HandError:
    """The readings of the meld ``tiles``/``offer``/``reading`` at ``index`` (memoised: the
    same melds come back hand after hand), or the HandError it makes (with no position:
    the caller raises one at the meld's)."""
    key = (tiles, offer, reading, index, spec)
    hit = _MEMO_MELD_READINGS.get(key)
    if hit is None:
        hit = _MEMO_MELD_READINGS.put(key, _compute_meld_readings(tiles, offer, reading, index, spec))
    return hit


def _compute_meld_readings(tiles: tuple[int, ...], offer: int, reading: tuple[int, ...] | None,
                           index: int, spec: WildSpec) -> tuple[Group, ...] | HandError:
    meld = Meld(tiles, offer, reading)
    try:
        return tuple(_meld_readings_of(meld, index, spec))
    except HandError as e:
        return e.with_traceback(None)  # kept in the memo: without the frames it ran in


def _meld_readings_of(meld: Meld, index: int, spec: WildSpec) -> list[Group]:
    exposed = not meld.concealed_kong
    options = [_logical(t, spec, True) for t in meld.tiles]
    if any(o == [None] for o in options) and not spec.in_melds:
        st = spec.stand_in
        stand = "" if st is None or st == spec.face else "white" if st == T.WHITE else "tile"
        raise HandError("meld.wild_in_meld", meld.position, wild=T.name(spec.face or 0),
                        stand=stand, st=T.name(st) if st is not None else "")
    out: dict[Group, None] = {}
    chow_refused = False
    for combo in product(*options):
        naturals = sorted(t for t in combo if t is not None)
        jokers = len(combo) - len(naturals)
        for kind, tiles in _set_shapes(naturals, jokers, len(combo), spec.candidates):
            if meld.reading is not None and tiles != meld.reading:
                continue
            if kind == "chow" and meld.offer in (2, 3):
                chow_refused = True  # 吃 only from 上家; the parser catches visible chows
                continue
            wild = list(tiles)
            for t in naturals:
                wild.remove(t)
            out[Group(kind, tiles, tuple(wild), index, exposed, False, not exposed)] = None
    if not out:
        written = format_tiles(meld.tiles)
        if meld.reading is not None:
            raise HandError("meld.bad_reading", meld.position, meld=written,
                            reading=format_tiles(meld.reading))
        if chow_refused:
            raise HandError("meld.chow_only", meld.position, **chow_offer(written, meld.offer))
        raise HandError("meld.not_a_set", meld.position, meld=written)
    return list(out)


def _set_shapes(naturals: list[int], jokers: int, size: int,
                candidates: tuple[int, ...]) -> Iterator[tuple[str, tuple[int, ...]]]:
    """Sets of ``size`` tiles containing the given naturals, jokers filling the rest."""
    distinct = sorted(set(naturals))
    if len(distinct) <= 1:
        pung_tiles = distinct or list(candidates)
        for t in pung_tiles:
            yield ("kong" if size == 4 else "pung"), (t,) * size
    if size != 3 or len(distinct) != len(naturals):
        return
    starts: set[int] = set()
    if distinct:
        lo, hi = distinct[0], distinct[-1]
        if hi >= 27 or hi - lo > 2 or T.suit_of(lo) != T.suit_of(hi):
            return
        for s in range(hi - 2, lo + 1):
            if s >= 0 and T.suit_of(s) == T.suit_of(lo) and s % 9 <= 6:
                starts.add(s)
    else:
        starts = {t for t in candidates if t < 27 and t % 9 <= 6}
    cand = set(candidates)
    for s in sorted(starts):
        tiles = (s, s + 1, s + 2)
        if all(t in cand or t in distinct for t in tiles):
            yield "chow", tiles


class Interpretation(NamedTuple):
    """The physical hand as the table reads it: natural counts, jokers and meld options
    (a named tuple: one per hand, and 34 per hand whose waits are asked)."""

    counts: tuple[int, ...]
    jokers: int
    win_tile: int | None  # None when the winning tile is a joker
    melds: tuple[tuple[Group, ...], ...]
    wild_count: int  # every wildcard tile in the hand, melds included
    stand_ins: int  # stand-in tiles among the concealed ones


def interpret(hand: Hand, spec: WildSpec) -> Interpretation:
    """Read the physical hand under a wildcard model (raises HandError for impossible melds).

    >>> from scorer.model.notation import parse_hand
    >>> i = interpret(parse_hand("123m456p789s234sP9m"), WildSpec(face=33))
    >>> i.jokers, i.win_tile, i.wild_count, i.counts[8]
    (1, 8, 1, 1)
    """
    # the tiles counted first, then the jokers and stand-ins moved, as _logical reads each
    # concealed tile (no call per tile)
    counts = [0] * T.NUM_KINDS
    for t in hand.concealed:
        counts[t] += 1
    win = hand.winning
    counts[win] += 1
    face = spec.face
    jokers = stand_ins = 0
    win_lg: int | None = win
    if face is not None:
        jokers = counts[face]
        counts[face] = 0
        st = spec.stand_in
        if st is not None and st != face and spec.stand_in_scope == "all":
            stand_ins = counts[st]
            counts[face] += stand_ins
            counts[st] = 0
            if win == st:
                win_lg = face
        if win == face:
            win_lg = None
    melds: tuple[tuple[Group, ...], ...] = ()
    wild_count = jokers
    if hand.melds:
        got = []
        known = _MEMO_MELD_READINGS.get  # (the memo's own get: no Python call for a meld met)
        for i, m in enumerate(hand.melds):
            options = (known((m.tiles, m.offer, m.reading, i, spec))
                       or _meld_readings(m.tiles, m.offer, m.reading, i, spec))
            if isinstance(options, HandError):
                raise _at(options, m.position)
            got.append(options)
            if face is not None:
                wild_count += m.tiles.count(face)
        melds = tuple(got)
    return Interpretation(tuple(counts), jokers, win_lg, melds, wild_count, stand_ins)


# The readings of recent hands (a batch meets the same hands again), by every argument of
# readings(); only hands with few readings are kept (a thousand readings of a four-wildcard
# hand would hold memory for a case that costs most elsewhere), MEMO_HELD readings in all
# (about 3 MB). Emptied when full.
MEMO_HELD = 8192
MEMO_READINGS = 64  # hands with more readings are not remembered
_MEMO: Memo[tuple[Any, ...], tuple[Reading, ...]] = Memo(MEMO_HELD, "search.readings.readings")


def clear_memo() -> None:
    """Forget the remembered readings (a benchmark's cold start); returns None."""
    _MEMO.clear()


def readings(interp: Interpretation, spec: WildSpec, shapes: tuple[str, ...], sets: int,
             self_draw: bool, place_once: bool = False) -> list[Reading]:
    """Every distinct reading of the hand in the given shapes.

    ``sets`` is the number of sets of the standard shape (4, or 5 for 17-tile
    hands), melds included. With ``place_once`` (a ruleset whose expressions never
    ask which group the winning tile completed, see
    :attr:`scorer.rules.plan.Plan.placement`) a natural winning tile is placed in the
    first group that holds it only, instead of once per such group. A hand with few
    readings is remembered (``_MEMO``): the same arguments give the same readings.

    >>> from scorer.model.notation import parse_hand
    >>> h = parse_hand("123m456p789s234s99m")
    >>> [r.describe() for r in readings(interpret(h, NO_WILD), NO_WILD, ("standard",), 4,
    ...                                  True)]  # groups by kind, then tiles (m p s)
    [['123m', '456p', '234s', '789s', '99m']]
    """
    key = (interp, spec, shapes, sets, self_draw, place_once)
    known = _MEMO.get(key)
    if known is not None:
        return list(known)
    found = _readings(interp, spec, shapes, sets, self_draw, place_once)
    if len(found) <= MEMO_READINGS:  # (a hand with none weighs one: its entry)
        _MEMO.put(key, tuple(found), max(1, len(found)))
    return found


def _readings(interp: Interpretation, spec: WildSpec, shapes: tuple[str, ...], sets: int,
              self_draw: bool, place_once: bool) -> list[Reading]:
    out: list[Reading] = []
    concealed_sets = sets - len(interp.melds)
    cands = free_candidates(interp, spec)
    meld_tiles = frozenset(t for opts in interp.melds for g in opts for t in g.tiles)
    for name in shapes:
        shape = _shape(name)
        melds = interp.melds
        meld_ok = shape.melds
        if meld_ok is not None and meld_ok is not any_meld:
            melds = tuple(tuple(g for g in opts if meld_ok(g)) for opts in melds)
        possible = shape.possible
        # The readings come out distinct without being compared (a thousand hashes of
        # nested tuples for four wildcards): a shape's decompositions are distinct, free
        # groups are the only groups made of jokers alone (so two fills of different
        # decompositions differ), the stand-in variants differ in their tiles or winning
        # tile, and _place_win places the winning tile once among equal groups.
        # tests/search/test_decompose.py checks this against a naive enumeration, in a set.
        for counts, win_tile in _stand_in_variants(interp, spec, name):
            if possible is not None and not possible(counts):
                continue  # a cheap necessary condition fails: skip the shape's search
            codes = tile_codes(spec, counts, win_tile, meld_tiles) if shape.coded else None
            decomps = _decompose(shape, counts, interp.jokers, concealed_sets, bool(interp.melds),
                                 codes)
            once = place_once and win_tile is not None
            natural = shape.needs_win
            for d in decomps:
                if natural and win_tile is not None:
                    # the groups a natural winning tile completes are the decomposition's
                    # own (a group of jokers alone holds none of its tiles naturally): found
                    # once for every fill of its free groups, and none means no reading
                    targets = _win_targets(d, win_tile)
                    if targets:
                        _place_targets(name, melds, d, cands, targets[:1] if once else targets,
                                       win_tile, self_draw, out)
                    continue
                if not shape.needs_win:
                    d = _bind_loose(d, spec.face)
                for concrete in D.expand_free(d, cands):
                    for meld_groups in product(*melds):
                        _place_win(shape, meld_groups, concrete, win_tile, self_draw, out, once)
    return out


def completes(interp: Interpretation, spec: WildSpec, shapes: tuple[str, ...], sets: int) -> bool:
    """True when :func:`readings` would find at least one reading, without building any.

    The same search, stopped at the first decomposition: groups made only of wildcards
    are not expanded and the winning tile is not placed (a decomposition covers every
    natural tile, so it can always be placed). The waits of a hand one tile short ask
    this for each of the 34 tiles before scoring the few that complete it.

    >>> from scorer.model.notation import parse_hand
    >>> h = parse_hand("123m456p789s234sP9m")
    >>> completes(interpret(h, WildSpec(face=33)), WildSpec(face=33), ("standard",), 4)
    True
    >>> completes(interpret(h, NO_WILD), NO_WILD, ("standard",), 4)
    False
    """
    concealed_sets = sets - len(interp.melds)
    meld_tiles = frozenset(t for opts in interp.melds for g in opts for t in g.tiles)
    for name in shapes:
        shape = _shape(name)
        meld_ok = shape.melds
        if meld_ok is not None and not all(any(meld_ok(g) for g in opts)
                                           for opts in interp.melds):
            continue
        possible = shape.possible
        for counts, win_tile in _stand_in_variants(interp, spec, name):
            if possible is not None and not possible(counts):
                continue
            if name == "standard":  # the common question: answered without any groups
                if concealed_sets >= 0 and D.standard_exists(counts, interp.jokers,
                                                             concealed_sets):
                    return True
                continue
            codes = tile_codes(spec, counts, win_tile, meld_tiles) if shape.coded else None
            if _decompose(shape, counts, interp.jokers, concealed_sets, bool(interp.melds), codes):
                return True
    return False


def tile_codes(spec: WildSpec, counts: tuple[int, ...], win_tile: int | None = None,
               keep: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
    """For each tile, what the ruleset can tell about it when a wildcard plays it; None = all.

    Shapes judged by kind of tile (十三不靠, 乱风) could fill their wildcards with
    every valid tile, hundreds of fills for three wildcards; a ruleset that only
    looks at suits (``spec.detail`` 1, ``spec.features``) scores most of them
    alike. Tiles with the same code are interchangeable: swapping them changes
    nothing the ruleset can see, because they have the same class (the features
    it uses; one class for all at detail 0) and the hand holds the same number of
    each. The wildcard's face (a wildcard used as itself), the natural winning
    tile and the tiles in ``keep`` (those of fixed melds, which ``counts`` does
    not hold) keep a code of their own. At detail 2 every tile counts: None.

    >>> spec = WildSpec(face=4, detail=1, features=frozenset({"suit"}))
    >>> c = tile_codes(spec, (0,) * 34)
    >>> c[0] == c[8], c[0] == c[9], c[0] == c[4]   # 1m ~ 9m; not 1p; not the face 5m
    (True, False, False)
    """
    if spec.detail >= 2:
        return None
    f = spec.features if spec.detail == 1 else frozenset()
    out = []
    for t in range(T.NUM_KINDS):
        if t == spec.face or t == win_tile or t in keep:
            out.append(-1 - t)
            continue
        code = 0
        if "suit" in f:
            code = code * 4 + "mpsz".index(T.suit_of(t))
        if "honor" in f:
            code = code * 2 + T.is_honor(t)
        if "wind" in f:
            code = code * 2 + T.is_wind(t)
        if "terminal" in f:
            code = code * 2 + T.is_terminal(t)
        out.append(code * 8 + min(counts[t], 7))
    return tuple(out)


_CLASS_ORDER = {
    # suited: terminals, then simples from the middle out; honors: each on its own
    "terminal": (0, 8), "simple": (4, 3, 5, 2, 6, 1, 7),
}


def free_candidates(interp: Interpretation, spec: WildSpec) -> tuple[int, ...]:
    """The tiles a group made only of wildcards is read as, exact for the ruleset.

    With ``spec.detail`` 2 every tile in play. Otherwise the tiles already in the
    hand (a wildcard pair may duplicate one: 豪华, a fifth copy), the wildcard's own
    face, and "fresh" tiles: as many per class as there can be free groups (one
    per two jokers), where a class is every fresh tile (detail 0) or each suit's
    terminals and simples, the winds and the dragons (detail 1). Tiles the
    ruleset cannot tell apart would only repeat the same scores.

    >>> from scorer.model.notation import parse_hand
    >>> h = parse_hand("1122m3344p55sPPPP")
    >>> spec = WildSpec(face=33, detail=0)
    >>> [format_tiles((t,)) for t in free_candidates(interpret(h, spec), spec)]
    ['1m', '2m', '4m', '5m', '3p', '4p', '5s', 'P']
    """
    if spec.detail >= 2 or interp.jokers < 2:
        return spec.candidates
    allowed = set(spec.candidates)
    present = {t for t, n in enumerate(interp.counts) if n}
    for options in interp.melds:
        for g in options:
            present.update(g.tiles)
    keep = set(present)
    if spec.face is not None:
        keep.add(spec.face)
    k = interp.jokers // 2
    if spec.detail == 0:
        classes = [[t for s in range(3) for t in (s * 9 + o for o in (4, 3, 5, 2, 6, 1, 7, 0, 8))]
                   + list(range(27, 34))]
    else:
        classes = [[s * 9 + o for o in _CLASS_ORDER[c]] for s in range(3)
                   for c in ("terminal", "simple")] + [list(T.WINDS), list(T.DRAGONS)]
    for cls in classes:
        fresh = [t for t in cls if t in allowed and t not in keep]
        keep.update(fresh[:k])
    # no neighbours are kept for chows: a free set reads as every chow through a kept
    # tile, its other tiles being no candidates (decompose.free_readings)
    return tuple(sorted(t for t in keep if t in allowed))


def _stand_in_variants(interp: Interpretation, spec: WildSpec, shape: str) -> Iterator[
        tuple[tuple[int, ...], int | None]]:
    yield interp.counts, interp.win_tile
    if (shape in spec.stand_in_self_shapes and interp.stand_ins and spec.face is not None
            and spec.stand_in is not None):
        counts = list(interp.counts)
        counts[spec.face] -= 1
        counts[spec.stand_in] += 1
        yield tuple(counts), interp.win_tile
        # the winning tile itself may be the stand-in counted as itself
        if interp.win_tile == spec.face:
            yield tuple(counts), spec.stand_in


def _shape(name: str) -> Shape:
    shape = SHAPES.get(name)
    if shape is None:  # the ruleset schema refuses unknown shapes: a caller's mistake
        raise ValueError(f"unknown shape {name!r}")
    return shape


def _decompose(shape: Shape, counts: tuple[int, ...], jokers: int, sets: int,
               has_melds: bool, codes: tuple[int, ...] | None = None) -> tuple[tuple[Group, ...], ...]:
    if has_melds and shape.melds is None:
        return ()
    return shape.find(counts, jokers, sets, codes)


def _bind_loose(groups: tuple[Group, ...], face: int | None) -> tuple[Group, ...]:
    """Read every loose joker of a shape as the wildcard's own face (a gold held as a gold)."""
    if face is None or D.LOOSE_JOKER not in groups:
        return groups
    loose = Group("single", (face,), (face,))
    return tuple(sorted(loose if g == D.LOOSE_JOKER else g for g in groups))


_new = tuple.__new__  # a named tuple made without its Python-level __new__ (half the time)
# won groups, shared by the readings holding them (a few hundred at most: the 62-90 of one
# four-wildcard hand, and not the groups of every hand a long batch meets, which at 4,096
# held a batch's memory 1.1x higher at 30,000 distinct lines than at 10,000:
# tests/hostile/test_robust.py)
_WON: Memo[tuple[Group, bool], Group] = Memo(256, "search.readings._won")


def _won(g: Group, self_draw: bool) -> Group:
    """``g`` as the group the winning tile completed (a pung or kong of a discard is not
    concealed), one object for all the readings that hold it: a thousand readings of a
    hand hold a few dozen.

    >>> _won(Group("pung", (1, 1, 1)), False)[5:]
    (True, False)
    """
    key = (g, self_draw)
    won = _WON.get(key)
    if won is None:
        won = _WON.put(key, _new(Group, (g.kind, g.tiles, g.wild, g.meld, g.exposed, True,
                                         self_draw or g.kind not in ("pung", "kong"))))
    return won


def _win_targets(groups: tuple[Group, ...], win_tile: int) -> list[Group]:
    """The distinct groups of a decomposition that a natural ``win_tile`` may have
    completed (it is one of their natural tiles), in order: where :func:`_place_win`
    places it.

    >>> got = _win_targets((Group("chow", (0, 1, 2), (0,)), Group("pair", (0, 0), (0,)),
    ...                     Group("pung", (0, 0, 0)), Group("pung", (0, 0, 0))), 0)
    >>> [g.kind for g in got]   # not the chow: a joker plays its 1m
    ['pair', 'pung']
    """
    out: list[Group] = []
    last: Group | None = None
    for g in groups:
        if win_tile not in g.tiles or (win_tile in g.wild and g.tiles.count(win_tile)
                                       <= g.wild.count(win_tile)):
            continue
        if g == last:
            continue  # (sorted: a group equal to one kept follows it)
        last = g
        out.append(g)
    return out


def _place_targets(name: str, melds: tuple[tuple[Group, ...], ...], d: tuple[Group, ...],
                   cands: tuple[int, ...], targets: list[Group], win_tile: int,
                   self_draw: bool, out: list[Reading]) -> None:
    """Append to ``out`` the readings of the decomposition ``d``, each fill of its free
    groups with each choice of the melds' readings, a natural winning tile placed in each
    of ``targets`` (:func:`_win_targets` of ``d``): what :func:`_place_win` gives each,
    the groups won made once for all the fills. A fill holds no natural tile, so the
    first group of a filled ``d`` equal to a target is the one."""
    placed = [(g, _won(g, self_draw)) for g in targets]
    base = len(melds)
    for groups in D.expand_free(d, cands):
        for meld_groups in product(*melds):
            row = [*meld_groups, *groups]
            for g, won in placed:
                k = base + groups.index(g)
                row[k] = won
                out.append(_new(Reading, (name, tuple(row), k, False, win_tile)))
                row[k] = g


def _place_win(shape: Shape, melds: tuple[Group, ...], groups: tuple[Group, ...],
               win_tile: int | None, self_draw: bool, out: list[Reading],
               once: bool = False) -> None:
    """Append to ``out`` the readings of one decomposition: the winning tile placed in each
    distinct group that can hold it (in the first only, with ``once``)."""
    name = shape.name
    if not shape.needs_win:
        # judged without the winning tile: it completes no group
        out.append(Reading(name, melds + groups, -1, win_tile is None, win_tile))
        return
    last: Group | None = None
    base = len(melds)
    wild_win = win_tile is None
    row: list[Group] | None = None
    for k, g in enumerate(groups):
        if wild_win:
            if not g.wild:
                continue
        elif win_tile not in g.tiles or (win_tile in g.wild and g.tiles.count(win_tile)
                                         <= g.wild.count(win_tile)):
            continue  # the winning tile is none of the group's natural tiles
        if g == last:
            continue  # (the groups are sorted: a group equal to one placed in follows it)
        last = g
        won = _won(g, self_draw)
        if row is None:
            row = [*melds, *groups]
        # the reading's groups: this row with the winning group in place (one tuple made,
        # not three slices joined: fewer objects for the garbage collector to visit)
        row[base + k] = won
        out.append(_new(Reading, (name, tuple(row), base + k, wild_win, win_tile)))
        row[base + k] = g
        if once:
            return
