"""How the tile-profile facts are computed: which suits and classes of tile a reading
holds (``suits``, ``all_green``, ``min_number``, ``quads`` …), from its tiles as read.

The facts themselves (names, types, meanings) are registered in :mod:`scorer.rules.facts`;
this module computes each of them, on first use, from one count of the reading's tiles
(:func:`profile`, :class:`Profiled`): a ruleset that reads ``suits`` alone does not pay
for ``all_green``. (They were also computed in two fused families, by masks of the kinds
held; benchmarks/twins.py found that worth 4-8 % of a steady hand at most, below the 10 %
a second version must pay: docs/speed.md.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..model import tiles as T
from ..search.readings import Reading
from .env import Env

# Tiles of the kinds below (indices, see scorer.model.tiles).
GREEN_TILES = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 bamboo and green dragon (绿一色)
REVERSIBLE_TILES = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})  # 推不倒


def _tile_counts(env: Env) -> dict[int, int]:
    """How many of each tile the reading holds, melds included (kongs count four).

    Computed once per reading; once per hand at a table without wildcards, as every
    reading then has the hand's own tiles (counted from the hand, melds included)."""
    holder: Env = env.parent if (env.parent is not None and env["wild_face"] is None) else env
    counts: dict[int, int] | None = holder.get("__counts__")
    if counts is not None:
        return counts
    counts = {}
    if holder is env:
        for t in env["tiles"]:
            counts[t] = counts.get(t, 0) + 1
    else:
        h = holder["__hand__"]
        for t in (*h.concealed, h.winning):
            counts[t] = counts.get(t, 0) + 1
        for m in h.melds:
            for t in m.tiles:
                counts[t] = counts.get(t, 0) + 1
    holder["__counts__"] = counts
    return counts


# Each profile fact from the tile counts; computed only when an expression asks for it
# (a ruleset that reads `suits` alone does not pay for `all_green`).
_PROFILE: dict[str, Callable[[dict[int, int]], Any]] = {
    "suits": lambda c: tuple(sorted({T.SUITS[t // 9] for t in c if t < 27})),
    "honor_tiles": lambda c: sum(n for t, n in c.items() if t >= 27),
    "suited_tiles": lambda c: sum(n for t, n in c.items() if t < 27),
    "has_wind": lambda c: any(27 <= t <= 30 for t in c),
    "has_dragon": lambda c: any(t >= 31 for t in c),
    "all_honors": lambda c: all(t >= 27 for t in c),
    "all_terminals": lambda c: all(t < 27 and t % 9 in (0, 8) for t in c),
    "all_yaojiu": lambda c: all(t >= 27 or t % 9 in (0, 8) for t in c),
    "all_simples": lambda c: all(t < 27 and t % 9 not in (0, 8) for t in c),
    "all_green": lambda c: all(t in GREEN_TILES for t in c),
    "all_reversible": lambda c: all(t in REVERSIBLE_TILES for t in c),
    "min_number": lambda c: min((t % 9 + 1 for t in c if t < 27), default=0),
    "max_number": lambda c: max((t % 9 + 1 for t in c if t < 27), default=0),
    "quads": lambda c: sum(1 for n in c.values() if n == 4),
}


# the profile facts, each computed from the reading's tiles
PROFILE_NAMES: Final[frozenset[str]] = frozenset(_PROFILE)


def _profile_holder(env: Env) -> Env:
    """Where a reading's tile profile is kept: the hand's Env at a table without
    wildcards (every reading then holds the hand's own tiles), else the reading's."""
    return env.parent if (env.parent is not None and env["wild_face"] is None) else env


def profile(env: Env, name: str) -> Any:
    """One profile fact of the reading's tiles, by its scan of their counts; kept with the
    counts (in the hand's Env at a table without wildcards, where every reading holds the
    hand's own tiles).

    >>> env = Env(wild_face=None, tiles=(0, 1, 2, 3, 4, 5, 6, 7, 8, 31, 31, 31, 32, 32))
    >>> profile(env, "suits"), profile(env, "has_dragon"), profile(env, "honor_tiles")
    (('m',), True, 5)
    """
    holder = _profile_holder(env)
    key = "__profile_" + name
    if key in holder:
        return holder[key]
    value = _PROFILE[name](_tile_counts(env))
    holder[key] = value
    return value


# -- the compact description of a reading's tiles ------------------------------------
# A reading's tiles as bits and small ints, built once (per hand at a table without
# wildcards, as the profile): the generated pattern loop (scorer.rules.plan) reads the
# profile facts from it as bit tests instead of one Env lookup and function call each.
# Bit t of a kinds mask stands for tile t (scorer.model.tiles: 0-26 suited, 27-33 honors).
# (Typed: mypyc's build could not infer their types where plan.py reads them.)
ALL_BITS: Final[int] = (1 << T.NUM_KINDS) - 1
SUITED_BITS: Final[int] = (1 << 27) - 1
WIND_BITS: Final[int] = 0b1111 << 27
DRAGON_BITS: Final[int] = 0b111 << 31
TERMINAL_BITS: Final[int] = sum(1 << t for t in range(27) if t % 9 in (0, 8))
YAOJIU_BITS: Final[int] = TERMINAL_BITS | (ALL_BITS ^ SUITED_BITS)
SIMPLE_BITS: Final[int] = SUITED_BITS ^ TERMINAL_BITS
GREEN_BITS: Final[int] = sum(1 << t for t in GREEN_TILES)
REVERSIBLE_BITS: Final[int] = sum(1 << t for t in REVERSIBLE_TILES)

# (kinds mask, honor_tiles, suited_tiles, quads, min_number, max_number, suits)
Description = tuple[int, int, int, int, int, int, tuple[str, ...]]


def description(env: Env) -> Description:
    """The compact description of a reading's tiles, from the same counts as
    :func:`profile`: the mask of the kinds held (bit t for tile t), the numbers of honor
    and suited tiles, the kinds held four times, the lowest and highest suited number (0
    if none) and the suits; kept where the profile is kept.

    >>> env = Env(wild_face=None, tiles=(0, 1, 2, 3, 4, 5, 6, 7, 8, 31, 31, 31, 32, 32))
    >>> kinds, honors, suited, quads, low, high, suits = description(env)
    >>> kinds == 0b111111111 | 1 << 31 | 1 << 32, honors, suited, quads, low, high, suits
    (True, 5, 9, 0, 1, 9, ('m',))
    """
    holder = _profile_holder(env)
    got: Description | None = holder.get("__description__")
    if got is not None:
        return got
    kinds = honors = suited = quads = numbers = 0
    for t, n in _tile_counts(env).items():
        kinds |= 1 << t
        if t >= 27:
            honors += n
        else:
            suited += n
            numbers |= 1 << (t % 9)
        if n == 4:
            quads += 1
    suits = tuple([T.SUITS[k] for k in range(3) if (kinds >> (9 * k)) & 0x1FF])
    # the lowest set bit's place (1-9), and the highest's
    desc = (kinds, honors, suited, quads, (numbers & -numbers).bit_length(),
            numbers.bit_length(), suits)
    holder["__description__"] = desc
    return desc


def concealed_pungs_once(env: Env) -> int:
    """The fact ``concealed_pungs`` in one pass over the reading's groups, for the
    generated pattern loop (scorer.rules.plan), which reads it as a small int; the fact's
    own function (scorer.rules.facts) stays the closures' and the reference (tests/twins/test_bits.py
    holds the two equal on every reading of every golden hand).

    >>> from scorer.search.decompose import Group
    >>> from scorer.search.readings import Reading
    >>> g = Group("pung", (4, 4, 4), has_win=True)  # 555m completed by a discarded 5m
    >>> r = Reading("standard", (Group("chow", (0, 1, 2)), g), 1, False)
    >>> concealed_pungs_once(Env(__reading__=r, self_draw=False, win_tile=4))
    0
    """
    r: Reading = env["__reading__"]
    self_draw = bool(env["self_draw"])
    wild = r.win_wild
    w = env["win_tile"] if not (self_draw or wild) else None
    n = wild_pungs = 0
    pung_w = chow_w = False
    for g in r.groups:
        kind = g.kind
        if kind == "pung" or kind == "kong":
            if not g.exposed:
                n += 1
            if kind == "pung" and g.meld < 0:
                if g.has_win:
                    wild_pungs += 1
                if w is not None and g.tiles[0] == w:
                    pung_w = True
        elif kind == "chow" and w is not None and g.meld < 0 and w in g.tiles:
            chow_w = True
    if self_draw:
        return n
    if wild:  # the winning tile is where the reading put it
        return n - wild_pungs
    return n - 1 if pung_w and not chow_w else n


class Profiled:
    """A profile fact's function (:func:`profile` of its name); a class, not a closure, so
    that the compiled build can take it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, env: Env) -> Any:
        return profile(env, self.name)


# -- a reading's groups as masks ---------------------------------------------------------
# (pungs, kongs, chows, pairs: the mask of the first tiles of the groups of each kind; a
# group of another kind held; the kinds of which two groups share a first tile, as bits)
GroupMasks = tuple[int, int, int, int, bool, int]


def group_masks(env: Env) -> GroupMasks:
    """A reading's groups as masks, in one pass, for the generated pattern loop
    (scorer.rules.plan): bit t of the first is set when the reading holds a pung (not a
    kong) of tile t, of the second a kong, of the third a chow from t, of the fourth a
    pair of t; then whether it holds a group of another kind (a knitted straight's, a lone
    tile), and the kinds of which two groups share a first tile (1 pungs, 2 kongs, 4
    chows, 8 pairs: two equal chows, or with wildcards two pungs of one tile).
    tests/twins/test_bits.py holds every loop the generated code writes with them to the
    loop itself.

    >>> from scorer.search.decompose import Group
    >>> from scorer.search.readings import Reading
    >>> r = Reading("standard", (Group("chow", (0, 1, 2)), Group("pung", (31, 31, 31)),
    ...                          Group("chow", (0, 1, 2)), Group("pair", (4, 4))), -1, False)
    >>> pungs, kongs, chows, pairs, other, twice = group_masks(Env(__reading__=r))
    >>> pungs == 1 << 31, kongs, chows, pairs == 1 << 4, other, twice
    (True, 0, 1, True, False, 4)
    """
    r: Reading = env["__reading__"]
    pungs = kongs = chows = pairs = 0
    other = False
    twice = 0
    for g in r.groups:
        kind = g.kind
        bit = 1 << g.tiles[0]
        if kind == "chow":
            if chows & bit:
                twice |= 4
            chows |= bit
        elif kind == "pung":
            if pungs & bit:
                twice |= 1
            pungs |= bit
        elif kind == "pair":
            if pairs & bit:
                twice |= 8
            pairs |= bit
        elif kind == "kong":
            if kongs & bit:
                twice |= 2
            kongs |= bit
        else:
            other = True
    return pungs, kongs, chows, pairs, other, twice
