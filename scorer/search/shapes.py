"""The winning shapes: one registry row per shape, everything the search and the words need.

A row says how the concealed tiles are decomposed in that shape (:mod:`scorer.search.decompose`),
for which hand sizes the shape exists, which fixed melds a hand in it may show, whether the
winning tile completes one of its groups, a cheap necessary condition on the tile counts,
and a cheap test. A shape's words (Chinese and English) are the catalogue's, under
``shape.NAME`` and ``shape.NAME.long`` (:mod:`scorer.text.words`: their one home). A ruleset
names shapes by these keys (``shapes: [standard, seven_pairs]``); adding a shape is one row
here and its two words there.

>>> SHAPES["seven_pairs"].sizes, SHAPES["seven_pairs"].words("zh")
(frozenset({14}), '七对')
>>> SHAPES["standard"].words("en", sets=5)
'a pair and 5 sets'
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import tiles as T
from ..record import dataclass
from ..text.render import value, word
from . import decompose as D
from . import kind_shapes as K
from . import special_shapes as S
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
    without the winning tile (it completes no group, ``Reading.win == -1``).
    """

    name: str
    find: Finder
    sizes: frozenset[int] | None = None  # hand sizes the shape exists for; None: any
    melds: Callable[[Group], bool] | None = None
    needs_win: bool = True
    coded: bool = False
    possible: Callable[[Counts], bool] | None = None  # checked before the shape's search

    def words(self, lang: str = "en", sets: int = 4) -> str:
        """The shape in words, e.g. ``a pair and 4 sets`` (``lang`` zh or en)."""
        return word(f"shape.{self.name}.long", lang, sets=sets)


def _standard(counts: Counts, jokers: int, sets: int, codes: Codes) -> tuple[tuple[Group, ...], ...]:
    return D.standard(counts, jokers, sets) if sets >= 0 else ()


def _plain(fn: Callable[[Counts, int], tuple[tuple[Group, ...], ...]]) -> Finder:
    return lambda counts, jokers, sets, codes: fn(counts, jokers)


def _coded(fn: Callable[[Counts, int, Codes], tuple[tuple[Group, ...], ...]]) -> Finder:
    return lambda counts, jokers, sets, codes: fn(counts, jokers, codes)


_ROWS = (
    Shape("standard", _standard, melds=any_meld),
    Shape("seven_pairs", _plain(S.seven_pairs), frozenset({14}),
          possible=lambda c: max(c) <= 4),
    Shape("thirteen_orphans", _plain(S.thirteen_orphans),
          frozenset({14}),
          possible=lambda c: all(n == 0 for t, n in enumerate(c) if t not in S.ORPHANS)),
    Shape("honors_knitted", _plain(S.honors_knitted)),
    # a knitted straight holds three sets; the fourth may be any fixed meld
    Shape("knitted_straight", _plain(S.knitted_straight), melds=any_meld),
    Shape("gapped_honors", _coded(K.gapped_honors),
          frozenset({14}), coded=True, possible=lambda c: max(c) <= 1),  # 14 distinct tiles
    # 乱风: claimed pungs of honors are fine, any suited meld is not
    Shape("all_honors", _coded(K.all_honors),
          melds=lambda g: all(T.is_honor(t) for t in g.tiles), coded=True,
          possible=lambda c: not any(c[:27])),
    # 三金倒: the hand as held, its melds as they are
    Shape("as_held", _plain(D.as_held), melds=any_meld, needs_win=False),
)

SHAPES: dict[str, Shape] = {s.name: s for s in _ROWS}


def shape_words(names: tuple[str, ...], sets: int, lang: str = "en") -> str:
    """Shapes in words, e.g. ``a pair and 4 sets or seven pairs``; an unknown name as written.

    >>> shape_words(("standard", "seven_pairs"), 4), shape_words(("standard",), 4, "zh")
    ('a pair and 4 sets or seven pairs', '一对将加4副面子')
    """
    return value(list(names), lang, "shapes", {"sets": sets})
