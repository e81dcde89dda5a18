"""A seeded generator of random valid MCR winning hands, and the bridge to PyMahjongGB.

Used by the differential test (tests/golden/test_mcr_oracle.py) and usable by benchmarks:
``generate(n, seed)`` returns ``Case`` objects, each with the command-line form of
the hand (``line``) and the arguments of PyMahjongGB's ``MahjongFanCalculator``
(``oracle_args``), which is the independent oracle (a test-only dependency).

Hands are drawn across every shape and context the MCR ruleset knows: the standard
shape with chows, pungs and kongs (claimed or concealed), seven pairs, thirteen
orphans, honors-and-knitted (全不靠/七星不靠), knitted straight + a set + a pair
(with 0 or 1 meld), nine gates, and dense one- or two-suit hands with several
decompositions; suits and tiles are biased so that the rarer fans (flushes, shifted and
same-number sets, all-honors, wind and dragon hands) turn up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from scorer.model.hand import format_tiles
from scorer.search.special_shapes import KNITTED, ORPHANS

SEATS = "ESWN"
CODES = [f"W{n}" for n in range(1, 10)] + [f"B{n}" for n in range(1, 10)] + [
    f"T{n}" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


@dataclass
class Case:
    """One generated hand: its command line and the oracle's arguments."""

    line: str
    oracle_args: dict[str, Any]
    shape: str


def _tile_text(t: int) -> str:
    return format_tiles((t,))


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counts = [0] * 34

    def can(self, tiles: list[int] | tuple[int, ...]) -> bool:
        need: dict[int, int] = {}
        for t in tiles:
            need[t] = need.get(t, 0) + 1
        return all(self.counts[t] + n <= 4 for t, n in need.items())

    def take(self, tiles: list[int] | tuple[int, ...]) -> None:
        for t in tiles:
            self.counts[t] += 1


def _pick_tile(rng: random.Random, style: dict[str, Any]) -> int:
    """A tile biased by the hand's style (a favourite suit, honors, a number range)."""
    r = rng.random()
    if r < style["honor_p"]:
        pool = style.get("honors") or list(range(27, 34))
        return int(rng.choice(pool))
    suit = rng.choice(style["suits"])
    lo, hi = style["numbers"]
    return suit * 9 + rng.randint(lo, hi) - 1


def _random_set(rng: random.Random, style: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    if rng.random() < style["chow_p"]:
        suit = rng.choice(style["suits"])
        lo, hi = style["numbers"]
        start = rng.randint(lo, max(lo, min(hi, 9) - 2))
        start = min(start, 7)
        s = suit * 9 + start - 1
        return "chow", (s, s + 1, s + 2)
    t = _pick_tile(rng, style)
    return "pung", (t, t, t)


def _style(rng: random.Random) -> dict[str, Any]:
    kind = rng.random()
    suits = [0, 1, 2]
    rng.shuffle(suits)
    style: dict[str, Any] = {"suits": suits, "numbers": (1, 9), "honor_p": 0.15, "chow_p": 0.6}
    if kind < 0.2:  # one suit (清一色/混一色 and the pure sequences)
        style["suits"] = suits[:1]
        style["honor_p"] = rng.choice([0.0, 0.0, 0.25])
    elif kind < 0.35:  # two suits
        style["suits"] = suits[:2]
    elif kind < 0.45:  # honors heavy (winds, dragons)
        style["honor_p"] = 0.6
        style["chow_p"] = 0.3
        style["honors"] = rng.choice([[27, 28, 29, 30], [31, 32, 33], list(range(27, 34))])
    elif kind < 0.55:  # a number range (全大/全中/全小/大于五/小于五/断幺/全带五)
        style["numbers"] = rng.choice([(1, 3), (1, 4), (4, 6), (6, 9), (7, 9), (2, 8), (3, 7)])
        style["honor_p"] = 0.0
    elif kind < 0.65:  # pung heavy
        style["chow_p"] = 0.15
    elif kind < 0.75:  # terminals and honors (全带幺/混幺九/清幺九)
        style["numbers"] = rng.choice([(1, 3), (7, 9)])
        style["honor_p"] = rng.choice([0.0, 0.3])
    return style


def _related_sets(rng: random.Random, style: dict[str, Any]) -> list[tuple[str, tuple[int, ...]]]:
    """Sets built around one number pattern (shifted, same-number, straights)."""
    base_suit = rng.choice(style["suits"])
    kind = rng.choice(["chow", "pung"])
    step = rng.choice([0, 1, 2, 3])
    mixed = rng.random() < 0.5
    n = rng.choice([2, 3, 3, 4])
    start = rng.randint(1, 9 if kind == "pung" else 7)
    out = []
    for k in range(n):
        num = start + k * step
        suit = (base_suit + k) % 3 if mixed else base_suit
        if kind == "chow":
            if num > 7:
                break
            s = suit * 9 + num - 1
            out.append(("chow", (s, s + 1, s + 2)))
        else:
            if num > 9:
                break
            t = suit * 9 + num - 1
            out.append(("pung", (t, t, t)))
    return out


def _chow(suit: int, n: int) -> tuple[str, tuple[int, ...]]:
    s = suit * 9 + n - 1
    return "chow", (s, s + 1, s + 2)


def _pung(t: int) -> tuple[str, tuple[int, ...]]:
    return "pung", (t, t, t)


def _template(rng: random.Random) -> tuple[list[tuple[str, tuple[int, ...]]], int]:
    """Sets and pair of a rare hand: 双龙会, 清幺九, 大四喜, 绿一色, 字一色, 全双刻, 无番和."""
    a, b, c = rng.sample(range(3), 3)
    kind = rng.choice(["pure_dragons", "three_dragons", "terminals", "four_winds", "green",
                       "honors", "even", "chicken", "chicken"])
    if kind == "even":  # 全双刻
        tiles = rng.sample([s * 9 + n for s in range(3) for n in (1, 3, 5, 7)], 5)
        return [_pung(t) for t in tiles[:4]], tiles[4]
    if kind == "pure_dragons":  # 一色双龙会
        return [_chow(a, 1), _chow(a, 1), _chow(a, 7), _chow(a, 7)], a * 9 + 4
    if kind == "three_dragons":  # 三色双龙会
        return [_chow(a, 1), _chow(a, 7), _chow(b, 1), _chow(b, 7)], c * 9 + 4
    if kind == "terminals":  # 清幺九
        tiles = rng.sample([s * 9 + n for s in range(3) for n in (0, 8)], 5)
        return [_pung(t) for t in tiles[:4]], tiles[4]
    if kind == "four_winds":  # 大四喜
        return [_pung(t) for t in (27, 28, 29, 30)], rng.choice([*range(27), 31, 32, 33])
    if kind == "green":  # 绿一色
        sets = [rng.choice([_chow(2, 2), _pung(19), _pung(20), _pung(21), _pung(23), _pung(25),
                            _pung(32)]) for _ in range(4)]
        return sets, rng.choice([19, 20, 21, 23, 25, 32])
    if kind == "honors":  # 字一色
        tiles = rng.sample(range(27, 34), 5)
        return [_pung(t) for t in tiles[:4]], tiles[4]
    # 无番和: chows of three suits with no relation, a simple pung, an honor pair
    n1, n2, n3 = rng.choice([(1, 4, 6), (1, 3, 6), (2, 5, 7), (1, 5, 7), (3, 6, 1)])
    return ([_chow(a, n1), _chow(b, n2), _chow(c, n3), _pung(a * 9 + rng.choice([3, 4, 5]))],
            rng.choice([31, 32, 33]))


def _standard(rng: random.Random) -> tuple[list[tuple[str, tuple[int, ...], int]], list[int]] | None:
    """Sets with meld status (0 concealed, 1-3 claimed from, -1 concealed kong) + concealed."""
    style = _style(rng)
    b = _Builder(rng)
    sets: list[tuple[str, tuple[int, ...]]] = []
    pair = None
    if rng.random() < 0.06:
        sets, pair = _template(rng)
        if not b.can([t for _, tiles in sets for t in tiles] + [pair, pair]):
            return None
        b.take([t for _, tiles in sets for t in tiles])
    elif rng.random() < 0.35:
        for s in _related_sets(rng, style):
            if b.can(s[1]):
                b.take(s[1])
                sets.append(s)
    tries = 0
    while len(sets) < 4 and tries < 60:
        tries += 1
        s = _random_set(rng, style)
        if b.can(s[1]):
            b.take(s[1])
            sets.append(s)
    if len(sets) < 4:
        return None
    sets = sets[:4]
    for _ in range(40 if pair is None else 0):
        t = _pick_tile(rng, style) if rng.random() < 0.8 else rng.randrange(34)
        if b.can((t, t)):
            pair = t
            break
    if pair is None:
        return None
    b.take((pair, pair))
    melds: list[tuple[str, tuple[int, ...], int]] = []
    concealed: list[int] = [pair, pair]
    meld_p = rng.choice([0.0, 0.0, 0.25, 0.5, 0.9])
    kong_p = rng.choice([0.0, 0.0, 0.15, 0.4])
    for kind, tiles in sets:
        if kind == "pung" and rng.random() < kong_p and b.counts[tiles[0]] == 3:
            b.counts[tiles[0]] += 1
            melds.append(("kong", (tiles[0],) * 4, rng.choice([-1, 1, 2, 3])))
        elif rng.random() < meld_p:
            melds.append((kind, tiles, rng.randint(1, 3)))
        else:
            concealed.extend(tiles)
    return melds, concealed


def _special(rng: random.Random, shape: str) -> list[int] | None:
    """The 14 concealed tiles of a no-meld special shape."""
    if shape == "seven_pairs":
        style = _style(rng)
        b = _Builder(rng)
        tiles: list[int] = []
        if rng.random() < 0.15:  # seven shifted pairs
            suit = rng.randrange(3)
            start = rng.randint(1, 3)
            return [suit * 9 + start - 1 + k for k in range(7) for _ in range(2)]
        while len(tiles) < 14:
            t = _pick_tile(rng, style) if rng.random() < 0.85 else rng.randrange(34)
            if b.can((t, t)):
                b.take((t, t))
                tiles += [t, t]
        return tiles
    if shape == "thirteen_orphans":
        return [*ORPHANS, rng.choice(ORPHANS)]
    if shape == "honors_knitted":
        seq = list(rng.choice(KNITTED))
        n_suited = rng.choice([7, 8, 9, 9])
        suited = rng.sample(seq, n_suited)
        honors = rng.sample(range(27, 34), 14 - n_suited)
        return suited + honors
    if shape == "knitted_straight":
        seq = list(rng.choice(KNITTED))
        b = _Builder(rng)
        b.take(seq)
        style = _style(rng)
        for _ in range(30):
            s = _random_set(rng, style)
            t = _pick_tile(rng, style) if rng.random() < 0.7 else rng.randrange(34)
            if b.can([*list(s[1]), t, t]):
                return seq + list(s[1]) + [t, t]
        return None
    if shape == "dense":
        return _dense(rng)
    if shape == "nine_gates":
        suit = rng.randrange(3)
        return [suit * 9 + n - 1 for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)] + [
            suit * 9 + rng.randint(1, 9) - 1]
    raise ValueError(shape)


def _knitted_with_meld(rng: random.Random) -> tuple[list[tuple[str, tuple[int, ...], int]],
                                                     list[int]] | None:
    seq = list(rng.choice(KNITTED))
    b = _Builder(rng)
    b.take(seq)
    style = _style(rng)
    for _ in range(30):
        kind, tiles = _random_set(rng, style)
        t = _pick_tile(rng, style)
        if b.can([*list(tiles), t, t]):
            off = rng.randint(1, 3)
            if kind == "pung" and rng.random() < 0.3 and b.can([*list(tiles), tiles[0], t, t]):
                return [("kong", (tiles[0],) * 4, rng.choice([-1, off]))], [*seq, t, t]
            return [(kind, tiles, off)], [*seq, t, t]
    return None


def _dense(rng: random.Random) -> list[int] | None:
    """14 concealed tiles of one or two suits drawn at random until they form a standard
    win: hands with several decompositions (ties between them, seven pairs as well)."""
    from scorer.search.decompose import standard

    suits = rng.sample(range(3), rng.choice([1, 1, 2]))
    pool = [s * 9 + k for s in suits for k in range(9)]
    for _ in range(200):
        counts = [0] * 34
        tiles: list[int] = []
        while len(tiles) < 14:
            t = rng.choice(pool)
            if counts[t] < 4:
                counts[t] += 1
                tiles.append(t)
        if standard(tuple(counts), 0, 4):
            return tiles
    return None


SHAPE_WEIGHTS = [("standard", 66), ("seven_pairs", 9), ("thirteen_orphans", 3),
                 ("honors_knitted", 5), ("knitted_straight", 6), ("knitted_meld", 3),
                 ("nine_gates", 4), ("dense", 4)]


def _one(rng: random.Random) -> Case | None:
    shape = rng.choices([s for s, _ in SHAPE_WEIGHTS], [w for _, w in SHAPE_WEIGHTS])[0]
    melds: list[tuple[str, tuple[int, ...], int]] = []
    if shape == "standard":
        got = _standard(rng)
        if got is None:
            return None
        melds, concealed = got
    elif shape == "knitted_meld":
        got = _knitted_with_meld(rng)
        if got is None:
            return None
        melds, concealed = got
    else:
        tiles = _special(rng, shape)
        if tiles is None:
            return None
        concealed = tiles
    if shape == "nine_gates":
        win = concealed[-1]
        rest = concealed[:-1]
    else:
        win = rng.choice(concealed)
        rest = list(concealed)
        rest.remove(win)
    rng.shuffle(rest)

    # context
    seat = rng.choice(SEATS)
    rnd = rng.choice(SEATS)
    flowers = rng.choice([0] * 6 + [1, 2, 3, 8])
    has_kong = any(k == "kong" for k, _, _ in melds)
    self_draw = rng.random() < 0.45
    flags: list[str] = ["--seat", seat, "--round", rnd]
    if flowers:
        flags += ["--flowers", str(flowers)]
    last = rng.random() < 0.08
    fourth = rng.random() < 0.12
    kong_draw = robbing = False
    if self_draw:
        flags.append("--self-draw")
        if has_kong and rng.random() < 0.3:
            kong_draw = True
            flags.append("--kong-draw")
    else:
        flags += ["--from", rng.choice([s for s in SEATS if s != seat])]
        if rng.random() < 0.08:
            robbing = True
            flags.append("--robbing-kong")
    if last:
        flags.append("--last-tile")
    if fourth:
        flags.append("--fourth-tile")

    meld_text = ""
    packs = []
    for kind, tiles, off in melds:
        if kind == "kong" and off == -1:
            meld_text += f"[{format_tiles(tiles)}]"
            packs.append(("GANG", CODES[tiles[0]], 0))
        else:
            # our ',N' is the seat offered from, and a chow comes from 上家 only; the
            # reference calculator's chow offer says which tile was claimed (kept below)
            meld_text += f"[{format_tiles(tiles)},{1 if kind == 'chow' else off}]"
            code = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}[kind]
            tile = tiles[1] if kind == "chow" else tiles[0]
            packs.append((code, CODES[tile], off))
    line = meld_text + format_tiles(tuple(rest)) + _tile_text(win) + " " + " ".join(flags)
    args = dict(pack=tuple(packs), hand=tuple(CODES[t] for t in rest), winTile=CODES[win],
                flowerCount=flowers, isSelfDrawn=self_draw, is4thTile=fourth,
                isAboutKong=kong_draw or robbing, isWallLast=last,
                seatWind=SEATS.index(seat), prevalentWind=SEATS.index(rnd))
    return Case(line, args, shape)


def generate(n: int, seed: int = 1) -> list[Case]:
    """``n`` random winning hands (deterministic for a seed).

    >>> [c.shape for c in generate(3, seed=5)] == [c.shape for c in generate(3, seed=5)]
    True
    """
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < n:
        c = _one(rng)
        if c is not None:
            out.append(c)
    return out


# The oracle's English fan names -> the pattern ids of rulesets/mcr.yaml.
ORACLE_IDS = {
    "Big Four Winds": "big_four_winds", "Big Three Dragons": "big_three_dragons",
    "All Green": "all_green", "Nine Gates": "nine_gates", "Four Kongs": "four_kongs",
    "Seven Shifted Pairs": "seven_shifted_pairs", "Thirteen Orphans": "thirteen_orphans",
    "All Terminals": "all_terminals", "Little Four Winds": "little_four_winds",
    "Little Three Dragons": "little_three_dragons", "All Honors": "all_honors",
    "Four Concealed Pungs": "four_concealed_pungs", "Pure Terminal Chows": "pure_terminal_chows",
    "Quadruple Chow": "quadruple_chow", "Four Pure Shifted Pungs": "four_pure_shifted_pungs",
    "Four Pure Shifted Chows": "four_pure_shifted_chows", "Three Kongs": "three_kongs",
    "All Terminals and Honors": "all_terminals_and_honors", "Seven Pairs": "seven_pairs",
    "Greater Honors and Knitted Tiles": "greater_honors_knitted",
    "All Even Pungs": "all_even_pungs", "Full Flush": "full_flush",
    "Pure Triple Chow": "pure_triple_chow", "Pure Shifted Pungs": "pure_shifted_pungs",
    "Upper Tiles": "upper_tiles", "Middle Tiles": "middle_tiles", "Lower Tiles": "lower_tiles",
    "Pure Straight": "pure_straight",
    "Three-Suited Terminal Chows": "three_suited_terminal_chows",
    "Pure Shifted Chows": "pure_shifted_chows", "All Five": "all_five",
    "Triple Pung": "triple_pung", "Three Concealed Pungs": "three_concealed_pungs",
    "Lesser Honors and Knitted Tiles": "lesser_honors_knitted",
    "Knitted Straight": "knitted_straight", "Upper Four": "upper_four",
    "Lower Four": "lower_four", "Big Three Winds": "big_three_winds",
    "Mixed Straight": "mixed_straight", "Reversible Tiles": "reversible_tiles",
    "Mixed Triple Chow": "mixed_triple_chow", "Mixed Shifted Pungs": "mixed_shifted_pungs",
    "Chicken Hand": "chicken_hand", "Last Tile Draw": "last_tile_draw",
    "Last Tile Claim": "last_tile_claim", "Out with Replacement Tile": "out_with_replacement_tile",
    "Robbing The Kong": "robbing_the_kong", "All Pungs": "all_pungs", "Half Flush": "half_flush",
    "Mixed Shifted Chows": "mixed_shifted_chows", "All Types": "all_types",
    "Melded Hand": "melded_hand", "Two Concealed Kongs": "two_concealed_kongs",
    "Two Dragons Pungs": "two_dragons_pungs", "Outside Hand": "outside_hand",
    "Fully Concealed Hand": "fully_concealed_hand", "Two Melded Kongs": "two_melded_kongs",
    "Last Tile": "last_tile", "Dragon Pung": "dragon_pung", "Prevalent Wind": "prevalent_wind",
    "Seat Wind": "seat_wind", "Concealed Hand": "concealed_hand", "All Chows": "all_chows",
    "Tile Hog": "tile_hog", "Double Pung": "double_pung",
    "Two Concealed Pungs": "two_concealed_pungs", "Concealed Kong": "concealed_kong",
    "All Simples": "all_simples", "Pure Double Chow": "pure_double_chow",
    "Mixed Double Chow": "mixed_double_chow", "Short Straight": "short_straight",
    "Two Terminal Chows": "two_terminal_chows",
    "Pung of Terminals or Honors": "pung_of_terminals_or_honors", "Melded Kong": "melded_kong",
    "One Voided Suit": "one_voided_suit", "No Honors": "no_honors", "Edge Wait": "edge_wait",
    "Closed Wait": "closed_wait", "Single Wait": "single_wait", "Self-Drawn": "self_drawn",
    "Flower Tiles": "flower_tiles",
    "Concealed Kong and Melded Kong": "concealed_kong_and_melded_kong",
}


def oracle(args: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """Total fan and {pattern id: count} from PyMahjongGB (raises if it rejects the hand)."""
    from MahjongGB import MahjongFanCalculator

    fans = MahjongFanCalculator(**args, verbose=True)
    total = sum(points * count for points, count, _, _ in fans)
    return total, {ORACLE_IDS[en]: count for _, count, _, en in fans}
