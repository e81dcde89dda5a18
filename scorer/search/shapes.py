"""The winning shapes: one registry row per shape, everything the search and the words need.

A row says how the concealed tiles are decomposed in that shape (:mod:`scorer.search.decompose`),
for which hand sizes the shape exists, which fixed melds a hand in it may show, whether the
winning tile completes one of its groups, a cheap necessary condition on the tile counts,
and the shape in words (Chinese and English) for messages and rules pages. A ruleset names
shapes by these keys (``shapes: [standard, seven_pairs]``); adding a shape is one row.

>>> SHAPES["seven_pairs"].sizes, SHAPES["seven_pairs"].en
(frozenset({14}), 'seven pairs')
>>> SHAPES["standard"].words("en", sets=5)
'a pair and 5 sets'
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import tiles as T
from ..record import dataclass
from . import decompose as D
from . import kind_shapes as K
from .decompose import Group

Counts = tuple[int, ...]
Codes = tuple[int, ...] | None
# (natural tile counts, jokers, concealed sets wanted, tile codes) -> the decompositions
Finder = Callable[[Counts, int, int, Codes], tuple[tuple[Group, ...], ...]]


def any_meld(g: Group) -> bool:
    """Every fixed meld is fine (the shape takes the melds as they are)."""
    return True


@dataclass(frozen=True)
class Shape:
    """One winning shape (see the module docstring).

    ``melds`` is None when a hand with fixed melds cannot take the shape, else the test
    each meld's reading must pass (:func:`any_meld` for all); ``coded`` shapes are judged
    by kind of tile and fill wildcards once per combination of tile codes
    (:func:`scorer.search.readings.tile_codes`); ``needs_win`` is False for a shape judged
    without the winning tile (it completes no group, ``Reading.win == -1``). ``en`` may
    hold ``{sets}``, the number of sets of the standard shape.
    """

    name: str
    find: Finder
    zh: str
    en: str
    sizes: frozenset[int] | None = None  # hand sizes the shape exists for; None: any
    melds: Callable[[Group], bool] | None = None
    needs_win: bool = True
    coded: bool = False
    possible: Callable[[Counts], bool] | None = None  # checked before the shape's search

    def words(self, lang: str = "en", sets: int = 4) -> str:
        """The shape in words, e.g. ``a pair and 4 sets`` (``lang`` zh or en)."""
        return (self.zh if lang == "zh" else self.en).format(sets=sets)


def _standard(counts: Counts, jokers: int, sets: int, codes: Codes) -> tuple[tuple[Group, ...], ...]:
    return D.standard(counts, jokers, sets) if sets >= 0 else ()


def _plain(fn: Callable[[Counts, int], tuple[tuple[Group, ...], ...]]) -> Finder:
    return lambda counts, jokers, sets, codes: fn(counts, jokers)


def _coded(fn: Callable[[Counts, int, Codes], tuple[tuple[Group, ...], ...]]) -> Finder:
    return lambda counts, jokers, sets, codes: fn(counts, jokers, codes)


_ROWS = (
    Shape("standard", _standard, "一对将加{sets}副面子", "a pair and {sets} sets",
          melds=any_meld),
    Shape("seven_pairs", _plain(D.seven_pairs), "七对", "seven pairs", frozenset({14}),
          possible=lambda c: max(c) <= 4),
    Shape("thirteen_orphans", _plain(D.thirteen_orphans), "十三幺", "thirteen orphans",
          frozenset({14}),
          possible=lambda c: all(n == 0 for t, n in enumerate(c) if t not in D.ORPHANS)),
    Shape("honors_knitted", _plain(D.honors_knitted), "全不靠",
          "honors and knitted tiles (全不靠)"),
    # a knitted straight holds three sets; the fourth may be any fixed meld
    Shape("knitted_straight", _plain(D.knitted_straight), "组合龙",
          "a knitted straight with a set and a pair (组合龙)", melds=any_meld),
    Shape("gapped_honors", _coded(K.gapped_honors), "十三不靠（七风）",
          "14 unrelated tiles (十三不靠: each suit's tiles 3+ apart, 5+ honors)",
          frozenset({14}), coded=True, possible=lambda c: max(c) <= 1),  # 14 distinct tiles
    # 乱风: claimed pungs of honors are fine, any suited meld is not
    Shape("all_honors", _coded(K.all_honors), "全是字牌（乱风）", "all honors",
          melds=lambda g: all(T.is_honor(t) for t in g.tiles), coded=True,
          possible=lambda c: not any(c[:27])),
    # 三金倒: the hand as held, its melds as they are
    Shape("as_held", _plain(D.as_held), "不论牌型，照手上的牌（三金倒）", "any tiles, as held",
          melds=any_meld, needs_win=False),
)

SHAPES: dict[str, Shape] = {s.name: s for s in _ROWS}


def shape_words(names: tuple[str, ...], sets: int, lang: str = "en",
                sep: str = " or ") -> str:
    """Shapes in words, e.g. ``a pair and 4 sets or seven pairs``; an unknown name as written.

    >>> shape_words(("standard", "seven_pairs"), 4)
    'a pair and 4 sets or seven pairs'
    """
    return sep.join(SHAPES[s].words(lang, sets) if s in SHAPES else s.replace("_", " ")
                    for s in names)
