"""An independent brute-force scorer for Xiamen hands, used as an oracle by the tests.

It shares nothing with the engine but the tile numbering (0-8 m, 9-17 p, 18-26 s,
27-33 E S W N C F P): golds are assigned every multiset of tiles, the resulting
counts are split into a pair and sets by plain recursion, and the rules of docs/rulings.md
(Xiamen) are applied directly:

* 游金: self-drawn and the hand minus the winning tile is five sets (melds
  included) plus one lone gold; its 水 is counted on such a reading.
* k alternatives (点炮和 1, 自摸 2, 游金 4+50, 双游 8+100, 三游 16+150, 天听 4+50,
  三金倒 4+50 at the deal / 3, 天和 4); the payment that is best for the winner.
* 水: pungs and kongs by exposure and kind, flowers, golds; a pung completed by a
  discarded winning tile is exposed unless the tile can be placed elsewhere.
* 三金倒 with no complete reading: melds + natural concealed pungs + flowers + golds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

WIND, DRAGON = range(27, 31), range(31, 34)


@lru_cache(maxsize=200_000)
def splits(counts: tuple[int, ...], pair: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way to split counts into sets (and one pair if ``pair``): (kind, first tile)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return ((),) if not pair else ()
    out: list[tuple[tuple[str, int], ...]] = []
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        out += [(("pair", i), *rest) for rest in splits(tuple(c), False)]
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        out += [(("pung", i), *rest) for rest in splits(tuple(c), pair)]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        out += [(("chow", i), *rest) for rest in splits(tuple(c), pair)]
    return tuple(out)


def pung_shui(tile: int, kong: bool, concealed: bool) -> int:
    """The 水 of one pung or kong (the table of docs/rulings.md#xiamen-shui)."""
    honor = tile >= 27
    if not kong:
        if concealed:
            return 2 if honor else 1
        return 1 if honor else 0
    if concealed:
        return 4 if honor else 3
    return 3 if honor else 2


def flower_shui(flowers: tuple[int, ...]) -> int:
    total = 0
    for block in ((1, 2, 3, 4), (5, 6, 7, 8)):
        held = [f for f in flowers if f in block]
        total += 8 if len(held) == 4 else len(held)
    return total


def oracle(melds: list[tuple[tuple[int, ...], bool]], concealed: list[int], win: int,
           gold: int, *, self_draw: bool, seat: str = "E", base: int = 8, streak: int = 0,
           flowers: tuple[int, ...] = (), you: int = 0, heavenly: bool = False,
           ready: bool = False, sanyou: int = 16) -> dict[str, int] | str:
    """Payments for a Xiamen hand, or 'illegal' / 'no-youjin' / 'not-winning'.

    ``melds`` are (logical tiles, exposed) with no golds; ``concealed`` holds the
    concealed tiles without the winning tile ``win``; golds are tiles equal to ``gold``.
    """
    golds = concealed.count(gold) + (win == gold)
    if not self_draw and golds:
        return "illegal"
    naturals = [t for t in concealed if t != gold]
    win_natural = win != gold
    meld_shui = sum(pung_shui(m[0], len(m) == 4, not exp) for m, exp in melds
                    if len(set(m)) == 1)
    sets_needed = 5 - len(melds)
    di = 2 * base * 2 ** streak if seat == "E" else base
    extra = flower_shui(flowers) + golds

    best: int | None = None

    def offer(k: int, bonus: int, shui: int) -> None:
        nonlocal best
        v = (di + shui) * k + bonus
        best = v if best is None else max(best, v)

    complete_shui: list[int] = []  # 水 of each complete reading (win placement included)
    # every complete reading: golds read as any multiset of tiles
    base_counts = [0] * 34
    for t in naturals:
        base_counts[t] += 1
    for assign in combinations_with_replacement(range(34), golds):
        c = list(base_counts)
        for t in assign:
            c[t] += 1
        if win_natural:
            c[win] += 1
        for split in splits(tuple(c), True):
            if len(split) != sets_needed + 1:
                continue
            # the winning tile's value: a natural win, or any assigned gold value
            win_values = {win} if win_natural else set(assign)
            for wv in win_values:
                placements = [g for g in split if (g[0] == "pair" and g[1] == wv) or
                              (g[0] == "pung" and g[1] == wv) or
                              (g[0] == "chow" and g[1] <= wv <= g[1] + 2)]
                for place in set(placements):
                    shui = meld_shui + extra
                    for g in split:
                        if g[0] == "pung":
                            exposed = (not self_draw) and g == place
                            shui += pung_shui(g[1], False, not exposed)
                    complete_shui.append(shui)
    # 游金: hand minus the winning tile = 5 sets + a lone gold; 水 counted on that reading
    youjin_shui: list[int] = []
    if self_draw and golds >= 1:
        rest_golds = golds - (0 if win_natural else 1) - 1  # one gold stays lone
        if rest_golds >= 0:
            for assign in combinations_with_replacement(range(34), rest_golds):
                c = list(base_counts)
                for t in assign:
                    c[t] += 1
                for split in splits(tuple(c), False):
                    if len(split) == sets_needed:
                        youjin_shui.append(meld_shui + extra + sum(
                            pung_shui(g[1], False, True) for g in split if g[0] == "pung"))
    if you and not youjin_shui:
        return "no-youjin"
    for shui in complete_shui:
        offer(1 if not self_draw else 2, 0, shui)
        if ready and self_draw:
            offer(4, 50, shui)
        if heavenly and seat == "E":
            offer(4, 0, shui)
    for shui in youjin_shui:
        offer(4, 50, shui)
        if you == 2:
            offer(8, 100, shui)
        if you == 3:
            offer(sanyou, 150, shui)
    if golds == 3 and self_draw:
        held = [0] * 34
        for t in naturals + ([win] if win_natural else []):
            held[t] += 1
        as_held = meld_shui + extra + sum(1 if t < 27 else 2 for t in range(34) if held[t] >= 3)
        for shui in [as_held, *complete_shui, *youjin_shui]:
            offer(4, 50, shui) if heavenly else offer(3, 0, shui)
    if best is None:
        return "not-winning"
    pay = {s: -best for s in "ESWN"}
    pay[seat] = 3 * best
    return pay
