"""The shapes that are not a pair and sets (scorer.search.special_shapes), on counts worked
by hand: seven pairs with four of a kind and with jokers, thirteen orphans with and without
one. (The knitted shapes are held by tests/engine/test_mcr.py on whole hands.)"""

from __future__ import annotations

from scorer.model.notation import parse_tiles
from scorer.search import special_shapes as S
from scorer.search.decompose import FREE_PAIR, Group


def counts_of(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t, _ in parse_tiles(text):
        c[t] += 1
    return tuple(c)


def test_seven_pairs_luxury_and_wild_partners() -> None:
    c = counts_of("11112233445566s")
    (d,) = S.seven_pairs(c, 0)
    assert [g.tiles[0] for g in d].count(18) == 2  # four 1s are two pairs
    # one joker: it must pair the lone tile
    c = counts_of("1122334455667s")
    ds = S.seven_pairs(c, 1)
    assert len(ds) == 1 and Group("pair", (24, 24), (24,)) in ds[0]
    # two jokers and six natural pairs: a free pair, or a natural pair split into two
    # (tile, joker) pairs -- which is what 七客 needs when the winning tile is one of them
    c = counts_of("112233445566s")
    ds = S.seven_pairs(c, 2)
    assert sum(1 for d in ds if FREE_PAIR in d) == 1
    assert len(ds) == 1 + 6


def test_thirteen_orphans() -> None:
    c = counts_of("19m19p19sESWNCFPP")
    (d,) = S.thirteen_orphans(c, 0)
    assert sum(1 for g in d if g.kind == "pair") == 1
    assert S.thirteen_orphans(counts_of("19m19p19sESWNCF55p"), 0) == ()
    assert len(S.thirteen_orphans(counts_of("19m19p19sESWNCFF"), 1)) == 1  # joker is the P
