"""What a scored hand is made of, as data: its sets, its wildcards and its payment chain.

The fields of :class:`~scorer.engine.result.Result` a library user reads, typed, with
nothing worded (the views render them in zh or en). Each is a named tuple, as the search's
:class:`~scorer.search.readings.Reading` and :class:`~scorer.search.decompose.Group` are:
frozen and hashable, and cheap to make (a frozen dataclass costs several times more per
instance, and the JSON of a batch makes a payment chain for each new settlement):

* :attr:`Result.decomposition <scorer.engine.result.Result.decomposition>`: the sets and
  the pair of the winning reading (:class:`TileSet`: kind, tiles in notation, concealed
  or not, which tiles wildcards played, the one the winning tile completed);
* :attr:`Result.wildcards <scorer.engine.result.Result.wildcards>`: which physical
  wildcard (or stand-in, Jinhua's and Xiamen's 白板) stood for which tile, and in which
  set (:class:`WildcardReading`: the search's :mod:`scorer.search.slots`, handed over);
* :attr:`Result.payment_chain <scorer.engine.result.Result.payment_chain>`: the patterns
  applied tally by tally with the running value (:class:`Step`), the headline score, and
  what each seat pays (:class:`PayerShare`, :class:`ChengbaoMove`, the final payments).

Each is worked out when it is first asked for, from the result (scoring a hand computes
none of them).

>>> from scorer import score, Context
>>> r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
>>> [s.text for s in r.decomposition], r.wildcards[0].reads, r.payment_chain.score
(['123m', '456p', '234s', '789s', '9*9m'], '9m', 2)
"""

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from ..lang import GROUP, TILE, elem_of
from ..model import tiles as T
from ..model.hand import Hand
from ..rules.model import Pattern, Ruleset
from ..search.decompose import Group
from ..search.readings import Reading, WildSpec, describe_group
from ..search.slots import stand_in_slots, wildcard_slots
from .payments import Settlement


# What payment_chain_of reads of a scored reading (scorer.engine.result's Hit and Scored
# have it), named here: result.py imports this module, which must not import it back
class _Hit(Protocol):
    @property
    def pattern(self) -> Pattern: ...
    @property
    def value(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def items(self) -> tuple[Any, ...]: ...


class _Scored(Protocol):
    @property
    def hits(self) -> Sequence[_Hit]: ...
    @property
    def also(self) -> Sequence[tuple[str, Pattern, int]]: ...
    @property
    def tallies(self) -> Mapping[str, int]: ...
    @property
    def score(self) -> int: ...
    @property
    def settlement(self) -> Settlement: ...

__all__ = [
    "ChengbaoMove",
    "PayerShare",
    "PaymentChain",
    "Step",
    "TileSet",
    "WildcardReading",
    "decomposition_of",
    "payment_chain_of",
    "wildcards_of",
]


class TileSet(NamedTuple):
    """One set (or the pair) of a reading.

    ``kind``: ``"chow"``, ``"pung"``, ``"kong"``, ``"pair"``, ``"single"`` (a lone tile of
    a knitted or thirteen-orphans hand) or ``"knit"`` (a 147 triple of a knitted
    straight). ``tiles``: the tiles it is, in notation, sorted, a wildcard counted as the
    tile it plays. ``wild``: those of ``tiles`` played by wildcards. ``concealed``: False
    for a claimed meld, and for a pung or kong the winning tile completed on a discard
    (it counts as exposed); a concealed kong is concealed. ``meld``: written in brackets
    (a claimed meld or a concealed kong). ``winning``: the set the winning tile
    completed. ``text``: the set as JSON's ``decomposition`` writes it (``12*3m``,
    ``[EEE]``).

    >>> from scorer import score, Context
    >>> r = score("[EEE]123m456p789s1p1p", "mcr", Context(self_draw=True))
    >>> r.decomposition[0]  # doctest: +NORMALIZE_WHITESPACE
    TileSet(kind='pung', tiles=('E', 'E', 'E'), wild=(), concealed=False, meld=True,
            winning=False, text='[EEE]')
    """

    kind: str
    tiles: tuple[str, ...]
    wild: tuple[str, ...]
    concealed: bool
    meld: bool
    winning: bool
    text: str


class WildcardReading(NamedTuple):
    """What one physical wildcard tile stood for in the winning reading.

    ``nth``: its place among the tiles as typed (from 0); ``position``: its character
    in the hand as typed (from 1, as errors count). ``tile``: what it shows (the
    wildcard's face, or a stand-in such as Jinhua's 白板 ``P``). ``reads``: the tile it
    played (``tile`` itself when it counted as itself). ``set``: the index in
    :attr:`Result.decomposition <scorer.engine.result.Result.decomposition>` of the set it
    sits in (-1 when no set took it). ``stand_in``: True for a stand-in, which plays the
    wildcard's face; False for a wildcard, which plays any tile.

    >>> from scorer import score, Context
    >>> score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)).wildcards
    (WildcardReading(nth=12, position=17, tile='P', reads='9m', set=4, stand_in=False),)
    """

    nth: int
    position: int
    tile: str
    reads: str
    set: int
    stand_in: bool = False

    @property
    def as_self(self) -> bool:
        """True when the tile counted as itself (a wildcard playing its own face).

        >>> WildcardReading(3, 3, "P", "P", 1).as_self
        True
        """
        return self.reads == self.tile


class Step(NamedTuple):
    """One pattern applied to a tally, in the order the tally combines them.

    ``tally``: the tally's name (``fan``, ``x``, ...) and ``combine`` how it combines
    (``"sum"``, ``"product"`` or ``"max"``). ``pattern``: the pattern's id; ``name`` and
    ``name_en`` its names. ``value``: its fan count (a sum), factor (a product) or value
    (a max); ``times``: how many times it counts (a sum adds ``value × times``, a product
    multiplies by ``value ** times``). ``running``: the tally's value once this step is
    applied. ``items``: what a pattern with ``each`` counted (sets as written, tiles by
    name), one per time. ``via``: for a value another pattern adds to this tally
    through its ``also:``, that pattern's id ('' otherwise).

    >>> from scorer import score, Context
    >>> r = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S", flowers="2"))
    >>> r.payment_chain.steps[3]  # doctest: +NORMALIZE_WHITESPACE
    Step(tally='fan', combine='sum', pattern='mixed_double_chow', name='喜相逢',
         name_en='Mixed Double Chow', value=1, times=2, running=8, items=(), via='')
    """

    tally: str
    combine: str
    pattern: str
    name: str
    name_en: str
    value: int
    times: int
    running: int
    items: tuple[str, ...] = ()
    via: str = ""


class PayerShare(NamedTuple):
    """What one seat other than the winner owes before 承包 moves shares.

    ``payer``: the seat (``E``, ``S``, ``W``, ``N``); ``pays``: whether the ruleset's
    ``pays`` holds for it (a self-drawn win, the discarder); ``amount``: what it owes (0
    when it does not pay). ``values``: the values the payment's ``amount`` and ``let``
    were computed from, as (name, value) pairs sorted by name (``base``, ``score``, the
    ``let`` values such as Hangzhou's ``zx``; None for an option left unset).

    >>> from scorer import score, Context
    >>> r = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S", flowers="2"))
    >>> r.payment_chain.shares[2]  # doctest: +NORMALIZE_WHITESPACE
    PayerShare(payer='N', pays=True, amount=20,
               values=(('payer_is_discarder', True), ('score', 12), ('self_draw', False)))
    """

    payer: str
    pays: bool
    amount: int
    values: tuple[tuple[str, Any], ...] = ()


class ChengbaoMove(NamedTuple):
    """A 承包 move: between ``a`` and ``b`` (A made three 摊 off B), ``payer`` pays
    ``amount``, every share of the hand (times the reverse factor when B wins).

    >>> ChengbaoMove("E", "S", "S", 24)
    ChengbaoMove(a='E', b='S', payer='S', amount=24)
    """

    a: str
    b: str
    payer: str
    amount: int


class PaymentChain(NamedTuple):
    """How the hand's number and payments came about.

    ``steps``: every pattern applied, tally after tally (:class:`Step`); ``tallies``: each
    tally's final value, as (name, value) pairs in the ruleset's order; ``score``: the
    headline number the ruleset's ``score`` makes of them; ``shares``: what each other
    seat owes (:class:`PayerShare`), in seat order; ``chengbao``: the 承包 moves
    (:class:`ChengbaoMove`); ``payments``: each seat's final points as (seat, points) pairs
    (the winner positive; they sum to zero), in seat order.

    >>> from scorer import score, Context
    >>> r = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S", flowers="2"))
    >>> c = r.payment_chain
    >>> c.tallies, c.score, [(x.payer, x.amount) for x in c.shares]
    ((('fan', 10), ('flowers', 2)), 12, [('E', 8), ('W', 8), ('N', 20)])
    >>> dict(c.payments)
    {'E': -8, 'S': 36, 'W': -8, 'N': -20}
    """

    steps: tuple[Step, ...]
    tallies: tuple[tuple[str, int], ...]
    score: int
    shares: tuple[PayerShare, ...]
    chengbao: tuple[ChengbaoMove, ...]
    payments: tuple[tuple[str, int], ...]


def decomposition_of(reading: Reading) -> tuple[TileSet, ...]:
    """The sets and pair of ``reading`` (:class:`TileSet`), fixed melds first.

    >>> from scorer.search.decompose import Group
    >>> g = (Group("chow", (0, 1, 2), (1,)), Group("pair", (8, 8)))
    >>> [(s.kind, s.tiles, s.wild, s.winning) for s in decomposition_of(
    ...     Reading("standard", g, 1, False))]
    [('chow', ('1m', '2m', '3m'), ('2m',), False), ('pair', ('9m', '9m'), (), True)]
    """
    return tuple([TileSet(g.kind, tuple([T.name(x) for x in g.tiles]),
                          tuple([T.name(x) for x in g.wild]), g.concealed, g.meld >= 0,
                          k == reading.win, describe_group(g))
                  for k, g in enumerate(reading.groups)])


def wildcards_of(hand: Hand, reading: Reading, spec: WildSpec) -> tuple[WildcardReading, ...]:
    """Each physical wildcard tile of ``hand`` and what it played in ``reading``, then each
    stand-in (``spec.stand_in``), each in the order typed; () when the hand holds none.

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.search.decompose import Group
    >>> g = (Group("chow", (0, 1, 2), (1,)), Group("pair", (8, 8)))
    >>> wildcards_of(parse_hand("1mC3m9m9m"), Reading("standard", g, 1, False),
    ...              WildSpec(face=T.parse_tile("C")))
    (WildcardReading(nth=1, position=3, tile='C', reads='2m', set=0, stand_in=False),)
    """
    wild = [WildcardReading(x.nth, x.position, T.name(x.tile), T.name(x.reads), x.group)
            for x in wildcard_slots(hand, reading, spec.face)]
    stand = [WildcardReading(x.nth, x.position, T.name(x.tile), T.name(x.reads), x.group, True)
             for x in stand_in_slots(hand, reading, spec.face, spec.stand_in)]
    return tuple(wild + stand)


def payment_chain_of(rs: Ruleset, s: _Scored) -> PaymentChain:
    """The :class:`PaymentChain` of one scored reading ``s`` of a hand under ``rs``.

    >>> from scorer import score, Context
    >>> r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
    >>> [(x.pattern, x.value, x.running) for x in payment_chain_of(r.ruleset, r.best).steps]
    [('baotou', 2, 2)]
    """
    steps: list[Step] = []
    for tl in rs.tallies:
        running: int | None = None
        adds: list[tuple[Pattern, int, int, tuple[str, ...], str]] = [
            (h.pattern, h.value, h.count, _items(h.pattern, h.items), "")
            for h in s.hits if h.pattern.tally == tl.name]
        # what other patterns add through ``also:`` comes after the tally's own (engine order)
        adds += [(p, v, 1, (), p.id) for tname, p, v in s.also if tname == tl.name]
        for p, v, n, items, via in adds:
            if tl.combine == "sum":
                running = (running or 0) + v * n
            elif tl.combine == "product":
                running = (1 if running is None else running) * v ** n
            else:
                running = v if running is None else max(running, v)
            steps.append(Step(tl.name, tl.combine, p.id, p.name, p.name_en, v, n, running,
                              items, via))
    st = s.settlement
    reads = rs.payment.amount.names | {let.name for let in rs.payment.lets}
    shares = tuple([PayerShare(sh.payer, sh.pays, sh.amount, _values(sh.env, reads))
                    for sh in st.shares])
    return PaymentChain(tuple(steps), tuple(s.tallies.items()), s.score, shares,
                        tuple([ChengbaoMove(*m) for m in st.chengbao]),
                        tuple(st.payments.items()))


def _items(p: Pattern, items: tuple[Any, ...]) -> tuple[str, ...]:
    """What pattern ``p``'s ``each`` counted, as text: a set as written, a tile by name."""
    if p.each is None:
        return ()
    elem = elem_of(p.each.type)
    return tuple([describe_group(x) if elem == GROUP and isinstance(x, Group)
                  else T.name(x) if elem == TILE and isinstance(x, int) else str(x)
                  for x in items])


_PLAIN = (int, bool, str, float, type(None))


def _values(env: Any, names: Any) -> tuple[tuple[str, Any], ...]:
    """The plain values of ``names`` in a share's env, sorted by name; a name the share's
    branch never needed (or that is no plain value) is left out."""
    out = []
    for n in sorted(names):
        try:
            v = env[n]
        except Exception:  # (a name of a branch not taken: nothing to show)
            continue
        if isinstance(v, _PLAIN):
            out.append((n, v))
    return tuple(out)
