"""Seeded generator of random winning hands, written in mjscore notation.

Used by the benchmarks (and usable by tests): it builds a pair and N sets from
a shuffled wall (respecting four copies of each tile), sometimes claims some of
the sets as melds or kongs, sometimes makes seven pairs, and then replaces k
tiles by wildcards. The result is written as a hand line with flags.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SUITS = "mps"
HONORS = "ESWNCFP"


def name(t: int) -> str:
    return HONORS[t - 27] if t >= 27 else f"{t % 9 + 1}{SUITS[t // 9]}"


def fmt(tiles: list[int]) -> str:
    return "".join(name(t) for t in tiles)


@dataclass
class Hand:
    text: str
    wilds: int
    shape: str


def _take(counts: list[int], tiles: list[int]) -> bool:
    if all(counts[t] >= tiles.count(t) for t in set(tiles)):
        for t in tiles:
            counts[t] -= 1
        return True
    return False


def winning_hand(rng: random.Random, sets: int = 4, wilds: int = 0, wild_face: int = 33,
                 seven_pairs: float = 0.1, melds: float = 0.3, kongs: float = 0.1,
                 honors: bool = True, exclude: frozenset[int] = frozenset()) -> Hand:
    """One random winning hand with ``wilds`` tiles replaced by the wildcard ``wild_face``."""
    while True:
        counts = [0 if (t in exclude or (not honors and t >= 27)) else 4 for t in range(34)]
        counts[wild_face] = 0  # the wildcard's face appears only as wildcards
        if sets == 4 and rng.random() < seven_pairs:
            kinds = [t for t in range(34) if counts[t] >= 2]
            pairs = rng.sample(kinds, 7)
            tiles = sorted(t for p in pairs for t in (p, p))
            hand_tiles = tiles
            fixed: list[str] = []
            shape = "seven_pairs"
        else:
            groups: list[list[int]] = []
            pair_kind = rng.choice([t for t in range(34) if counts[t] >= 2])
            _take(counts, [pair_kind, pair_kind])
            ok = True
            for _ in range(sets):
                for _attempt in range(50):
                    if rng.random() < 0.55:
                        s = rng.choice([x for x in range(27) if x % 9 <= 6])
                        g = [s, s + 1, s + 2]
                    else:
                        g = [rng.randrange(34)] * 3
                    if _take(counts, g):
                        groups.append(g)
                        break
                else:
                    ok = False
            if not ok:
                continue
            fixed = []
            concealed: list[int] = [pair_kind, pair_kind]
            for g in groups:
                if g[0] == g[1] and rng.random() < kongs and counts[g[0]] >= 1:
                    counts[g[0]] -= 1
                    offer = rng.choice(["", ",1", ",2", ",3"])
                    fixed.append(f"[{fmt([*g, g[0]])}{offer}]")
                elif rng.random() < melds:
                    offer = ",1" if g[0] != g[1] else rng.choice([",1", ",2", ",3"])
                    fixed.append(f"[{fmt(g)}{offer}]")
                else:
                    concealed.extend(g)
            hand_tiles = sorted(concealed)
            shape = "standard"
        # wildcards replace concealed tiles (never the winning tile's pair partner on purpose)
        k = min(wilds, len(hand_tiles))
        idx = rng.sample(range(len(hand_tiles)), k)
        tiles = [wild_face if i in idx else t for i, t in enumerate(hand_tiles)]
        rng.shuffle(tiles)
        text = "".join(fixed) + fmt(tiles)
        return Hand(text, k, shape)
