"""The waits search (scorer.search.waits): which tiles complete a hand one tile short, as
a pair and sets or as seven pairs. Expected tiles worked by hand (九莲宝灯 waits on all
nine, an edge wait on one, two-sided on two)."""

from __future__ import annotations

from scorer.model.notation import parse_tiles
from scorer.search.waits import seven_pairs_wait, standard_waits


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t, _ in parse_tiles(text):
        c[t] += 1
    return tuple(c)


def tiles_of(mask: int) -> list[int]:
    return [t for t in range(34) if mask >> t & 1]


def test_standard_waits() -> None:
    # 1112345678999m waits on all nine (九莲宝灯)
    assert tiles_of(standard_waits(counts("1112345678999m"), 4)) == list(range(9))
    # 12m + sets + pair: only 3m (an edge wait)
    assert tiles_of(standard_waits(counts("12m456p789s234sEE"), 4)) == [2]
    # 45m: 3m and 6m
    assert tiles_of(standard_waits(counts("45m456p789s234sEE"), 4)) == [2, 5]
    # 1111m + 2 sets: 111m and a lone 1m, or 11m + 11m waiting for a pung: 1m only (a
    # fifth copy, as the reference calculators count it)
    assert tiles_of(standard_waits(counts("1111m456p789s"), 3)) == [0]


def test_seven_pairs_wait() -> None:
    assert tiles_of(seven_pairs_wait(counts("1122m3344p5566sE"))) == [27]
    assert seven_pairs_wait(counts("1122m3344p556sEF")) == 0  # only five pairs
