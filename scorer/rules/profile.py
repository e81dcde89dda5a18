"""How the tile-profile facts are computed: which suits and classes of tile a reading
holds (``suits``, ``all_green``, ``min_number``, ``quads`` …), from its tiles as read.

The facts themselves (names, types, meanings) are registered in :mod:`scorer.rules.facts`;
this module computes them, in two fused families (:func:`profile_family`: one 34-bit mask
of the kinds held tested against masks of the classes of tiles; :func:`count_family`: one
count of the tiles), each fact also alone (:class:`Profiled`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..memo import Memo
from ..model import tiles as T
from ..model.hand import Hand
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
PROFILE_NAMES = frozenset(_PROFILE)


def _profile_holder(env: Env) -> Env:
    """Where a reading's tile profile is kept: the hand's Env at a table without
    wildcards (every reading then holds the hand's own tiles), else the reading's."""
    return env.parent if (env.parent is not None and env["wild_face"] is None) else env


def profile(env: Env, name: str) -> Any:
    """One profile fact of the reading's tiles, computed alone by its scan of the counts
    (the fused family :func:`profile_family` gives the same value with the others)."""
    holder = _profile_holder(env)
    key = "__profile_" + name
    if key in holder:
        return holder[key]
    value = _PROFILE[name](_tile_counts(env))
    holder[key] = value
    return value


def _mask_of(tiles: frozenset[int] | range) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


# Classes of tiles as 34-bit masks (bit t for tile t): a reading's profile is its own mask
# of the kinds it holds tested against these, instead of one scan of its tiles per fact.
_SUIT_MASKS = tuple(_mask_of(range(9 * s, 9 * s + 9)) for s in range(3))
_SUITED = _SUIT_MASKS[0] | _SUIT_MASKS[1] | _SUIT_MASKS[2]
_HONORS = _mask_of(range(27, 34))
_WINDS = _mask_of(range(27, 31))
_DRAGONS = _mask_of(range(31, 34))
_TERMINALS = _mask_of(frozenset({0, 8, 9, 17, 18, 26}))
_SIMPLES = _SUITED & ~_TERMINALS
_YAOJIU = _TERMINALS | _HONORS
_GREEN = _mask_of(GREEN_TILES)
_REVERSIBLE = _mask_of(REVERSIBLE_TILES)
# the suits held, by which of the three suit masks the reading meets (bit s for suit s)
_SUITS_BY_BITS = tuple(tuple(T.SUITS[s] for s in range(3) if bits >> s & 1) for bits in range(8))


def _profile_tiles(env: Env, holder: Env) -> tuple[int, ...]:
    """Every tile of the reading, as read (from the hand itself when ``holder`` is the
    hand's Env: then every reading holds the hand's own tiles)."""
    if holder is env:
        tiles: tuple[int, ...] = env["tiles"]
        return tiles
    h: Hand = holder["__hand__"]
    return (*h.concealed, h.winning, *(t for m in h.melds for t in m.tiles))


def profile_family(env: Env) -> dict[str, Any]:
    """The tile-profile facts that depend only on which kinds the reading holds (suits,
    has_wind, …, all_reversible, min_number, max_number): one 34-bit mask of those kinds
    tested against class masks.

    >>> env = Env(wild_face=None, tiles=(0, 1, 2, 3, 4, 5, 6, 7, 8, 31, 31, 31, 32, 32))
    >>> f = profile_family(env)  # 123456789m CCC FF
    >>> f["suits"], f["has_dragon"], f["all_honors"], f["min_number"], f["max_number"]
    (('m',), True, False, 1, 9)
    """
    holder = _profile_holder(env)
    got: dict[str, Any] | None = holder.get("__profile__")
    if got is not None:
        return got
    tiles = _profile_tiles(env, holder)
    got = _PROFILES.get(tiles)  # the readings of a hand mostly hold the same tiles
    if got is not None:
        holder["__profile__"] = got
        return got
    mask = 0
    for t in set(tiles):
        mask |= 1 << t
    suited = mask & _SUITED
    # the numbers held in any suit, as bits 0-8 (number n at bit n-1)
    numbers = (suited | suited >> 9 | suited >> 18) & 0x1FF
    got = {
        "suits": _SUITS_BY_BITS[bool(mask & _SUIT_MASKS[0]) | bool(mask & _SUIT_MASKS[1]) << 1
                                | bool(mask & _SUIT_MASKS[2]) << 2],
        "has_wind": bool(mask & _WINDS),
        "has_dragon": bool(mask & _DRAGONS),
        "all_honors": not mask & ~_HONORS,
        "all_terminals": not mask & ~_TERMINALS,
        "all_yaojiu": not mask & ~_YAOJIU,
        "all_simples": not mask & ~_SIMPLES,
        "all_green": not mask & ~_GREEN,
        "all_reversible": not mask & ~_REVERSIBLE,
        "min_number": (numbers & -numbers).bit_length(),
        "max_number": numbers.bit_length(),
    }
    _PROFILES.put(tiles, got)
    holder["__profile__"] = got
    return got


# The tile-profile families by the reading's tiles as read (in group order), shared by
# every reading and hand that holds them: read-only dicts, emptied when full
PROFILES_SIZE = 4096
_PROFILES: Memo[tuple[int, ...], dict[str, Any]] = Memo(PROFILES_SIZE, "rules.profile.masked")
_COUNTS: Memo[tuple[int, ...], dict[str, Any]] = Memo(PROFILES_SIZE, "rules.profile.counted")


def count_family(env: Env) -> dict[str, Any]:
    """The tile-profile facts that count tiles (honor_tiles, suited_tiles, quads), from one
    count of the reading's tiles.

    >>> count_family(Env(wild_face=None, tiles=(0, 0, 0, 0, 1, 2, 31, 31, 31, 32, 32)))
    {'honor_tiles': 5, 'suited_tiles': 6, 'quads': 1}
    """
    holder = _profile_holder(env)
    got: dict[str, Any] | None = holder.get("__profile_counts__")
    if got is not None:
        return got
    tiles = _profile_tiles(env, holder)
    got = _COUNTS.get(tiles)
    if got is not None:
        holder["__profile_counts__"] = got
        return got
    counts = [0] * T.NUM_KINDS
    honors = 0
    for t in tiles:
        counts[t] += 1
        if t >= 27:
            honors += 1
    got = {"honor_tiles": honors, "suited_tiles": len(tiles) - honors,
           "quads": counts.count(4)}
    _COUNTS.put(tiles, got)
    holder["__profile_counts__"] = got
    return got


class Profiled:
    """A profile fact computed alone (:func:`profile`); a class, not a closure, so that the
    compiled build can take it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, env: Env) -> Any:
        return profile(env, self.name)


# the 14 profile facts in two families: a ruleset that reads only `suits` (Jinhua) does
# not count tiles, one that reads only `honor_tiles` builds no mask
COUNTED = ("honor_tiles", "suited_tiles", "quads")
MASKED = tuple(n for n in _PROFILE if n not in COUNTED)
