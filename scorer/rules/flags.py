"""The context flags of ``mjscore score``: one table, one row per flag.

Everything else about a flag is derived from its row: the command-line grammar
(:mod:`scorer.lines.grammar`, and the typer options of ``mjscore score``), the flag text in
messages (:data:`FLAG_TEXT`), which flags a ruleset may list under ``context:`` and
the facts each one feeds (:data:`FEEDS`, used by the check that a fact's flag is
listed), the integer ranges, and the claims that cannot hold together
(:func:`conflicts`). Adding a flag is one row here, one field of
:class:`~scorer.engine.context.Context`, and one fact in :mod:`scorer.rules.facts`
if it feeds a new one.

The compatibility data (``implies`` and ``excludes``) is the common rulings
(docs/rulings.md#common-how-the-tile-came and #common-impossible-claims).

>>> FLAG["piao"].names, FLAG["piao"].maximum
(('--piao',), 3)
>>> [(a.name, b.name) for a, b in conflicts(["heavenly", "last_tile"])]
[('--last-tile', '--heavenly')]
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from ..record import record

# Bounds of a whole-number flag where the game itself gives none (a dealer streak, a
# base stake): large enough for any table, small enough that no amount explodes.
MAX_FLAG_INT = 10**6
MAX_BASE = 10**12
MAX_STREAK = 16


@record(frozen=True)
class Flag:
    """One context flag of ``mjscore score``.

    ``field`` is its :class:`~scorer.engine.context.Context` field; ``names`` its
    command-line spellings (the first is the one messages use); ``type`` is ``bool``
    (a switch), ``int`` or ``str``; ``multiple`` flags may be repeated (a tuple);
    ``key`` is its name under a ruleset's ``context:`` (None: not listed there);
    ``always``: every ruleset accepts it without listing it; ``feeds``: the facts it
    sets; ``implies``: the fields it states as well (``--kong-draw`` states a
    self-draw); ``excludes``: the fields that cannot be claimed with it. What a whole
    number counts is the catalogue's ``unit.FIELD`` (a ruleset's label of the field first).

    >>> FLAG["discarder"].name, FLAG["discarder"].key, FLAG["discarder"].always
    ('--from', 'from', True)
    """

    field: str
    names: tuple[str, ...]
    type: type
    help: str
    default: object = None
    metavar: str | None = None
    multiple: bool = False
    key: str | None = ""
    always: bool = False
    feeds: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    implies: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The flag as messages write it, e.g. ``'--from'``."""
        return self.names[0]

    @property
    def yaml_key(self) -> str | None:
        """Its name under a ruleset's ``context:`` (``from`` for ``--from``), or None."""
        return self.field if self.key == "" else self.key

    @property
    def value_name(self) -> str:
        """What ``--help`` shows for the flag's value: its ``metavar``, else N for a whole
        number and TEXT for words ("" for a switch).

        >>> FLAG["discarder"].value_name, FLAG["kongs"].value_name, FLAG["self_draw"].value_name
        ('SEAT', 'N', '')
        """
        if self.type is bool:
            return ""
        return self.metavar or ("N" if self.type is int else "TEXT")

    @property
    def switch(self) -> bool:
        """A flag that takes no value (``--self-draw``)."""
        return self.type is bool

    def bounds(self) -> tuple[int, int]:
        """The range of a whole-number flag, before a ruleset narrows it.

        >>> FLAG["kongs"].bounds(), FLAG["base"].bounds()
        ((0, 4), (1, 1000000000000))
        """
        return (self.minimum if self.minimum is not None else 0,
                self.maximum if self.maximum is not None else MAX_FLAG_INT)


# The first go-round claims (a win on the dealt tiles, on the dealer's first discard, or
# within the first go-round) exclude each other and every later event of the round.
_FIRST_ROUND = ("heavenly", "earthly", "human")
_LATER = ("last_tile", "kong_draw", "robbing_kong", "ready_at_deal")  # (--kongs: via --kong-draw)

FLAGS: tuple[Flag, ...] = (
    Flag("self_draw", ("--self-draw",), bool, "The winning tile was self-drawn.", False,
         always=True, feeds=("self_draw", "discard"),
         excludes=("discarder", "robbing_kong")),
    Flag("discarder", ("--from",), str, "Seat that discarded the winning tile: E S W N (东南西北), "
         "or 上家/对家/下家 seen from the winner (上家 = the seat before it in turn).",
         key="from", always=True, feeds=("discarder", "discard", "self_draw"),
         # a self-drawn win has no discarder; every flag that implies a self-draw
         # (--kong-draw, --piao, --you, --ready-at-deal, --heavenly) excludes it through that
         excludes=("self_draw",), metavar="SEAT"),
    Flag("seat", ("--seat",), str, "The winner's seat, E S W N (东南西北); E is the dealer.", "E",
         always=True,
         feeds=("seat", "seat_wind", "winner_is_dealer"), metavar="SEAT"),
    Flag("round", ("--round",), str, "Prevalent wind.", "E", always=True,
         feeds=("round", "round_wind"), metavar="WIND"),
    Flag("wild", ("--wild",), str, "Wildcard face (财神 / 金), e.g. 3m.", feeds=("wild",), metavar="TILE"),
    # the longest run a table counts: Hangzhou's 老庄 stop at 3; a 连庄 run (Xiamen doubles
    # the dealer's 底 each time) longer than the 16 deals of a four-wind game is no table's
    # (docs/rulings.md#xiamen-di), and 2^16 keeps every amount a table can pay
    Flag("dealer_streak", ("--dealer-streak",), int, "老庄 / 连庄 count (the dealer's streak).",
         feeds=("dealer_streak",), minimum=0, maximum=MAX_STREAK, metavar="N"),
    Flag("kong_draw", ("--kong-draw",), bool, "Won on a kong replacement.", False,
         feeds=("kong_draw", "kongs"), implies=("self_draw",),
         excludes=(*_FIRST_ROUND, "robbing_kong")),
    # a hand holds at most four kongs, so at most four came one after another
    Flag("kongs", ("--kongs",), int, "Consecutive kongs before the win.", feeds=("kongs",),
         minimum=0, maximum=4, implies=("kong_draw",), metavar="N"),
    Flag("robbing_kong", ("--robbing-kong",), bool, "Won by robbing a kong.", False,
         feeds=("robbing_kong",),
         # the robbed tile comes from another player's kong, before any replacement draw;
         # a kong is never declared on the last tile of the wall
         excludes=(*_FIRST_ROUND, "self_draw", "kong_draw", "last_tile")),
    Flag("last_tile", ("--last-tile",), bool, "Won on the last tile.", False,
         feeds=("last_tile",), excludes=(*_FIRST_ROUND, "robbing_kong")),
    Flag("fourth_tile", ("--fourth-tile",), bool, "和绝张: the last copy.", False,
         feeds=("fourth_tile",)),
    # 财飘 counts the winner's turns with a wildcard discard before the win: Hangzhou's 0..3
    Flag("piao", ("--piao",), int, "财飘: consecutive wildcard discards.", feeds=("piao",),
         minimum=0, maximum=3, implies=("self_draw",), metavar="N"),
    Flag("you", ("--you",), int, "游金 level: 1, 2 (双游), 3 (三游).", feeds=("you",),
         minimum=0, maximum=3, implies=("self_draw",), metavar="N"),
    Flag("ready_at_deal", ("--ready-at-deal",), bool, "天听: ready at the deal.", False,
         feeds=("ready_at_deal",), implies=("self_draw",), excludes=_FIRST_ROUND),
    Flag("heavenly", ("--heavenly",), bool, "天胡 / 三金倒 at the deal.", False,
         feeds=("heavenly",), implies=("self_draw",),
         excludes=("earthly", "human", *_LATER)),
    # 地胡 is a discard win in Jinhua and a self-draw in MCR house rules: it implies neither
    Flag("earthly", ("--earthly",), bool, "地胡 (the earthly win).", False, feeds=("earthly",),
         excludes=("heavenly", "human", *_LATER)),
    # 人胡 is self-drawn where a ruleset says so (Jinhua): the ruleset states that, not the row
    Flag("human", ("--human",), bool, "人胡 (the human win).", False, feeds=("human",),
         excludes=("heavenly", "earthly", *_LATER)),
    Flag("flowers", ("--flowers",), str, "A count 0-8, or which: 1258f / 春夏梅.",
         feeds=("flowers", "flower_list", "flowers_known"), metavar="N|TILES"),
    Flag("chengbao", ("--chengbao",), str, "A:B — A made three 摊 off B (repeatable).", (),
         multiple=True, metavar="A:B"),
    Flag("base", ("--base",), int, "底分 / 底注 (the base stake).",
         feeds=("base",), minimum=1, maximum=MAX_BASE, metavar="N"),
    Flag("after_kong", ("--after-kong",), bool,
         "杠上炮: won on the discard after the discarder's own kong.", False,
         feeds=("after_kong",), excludes=("self_draw", "kong_draw", "robbing_kong")),
    Flag("out", ("--out",), str, "Seats already out of the round (血战到底), e.g. S,W or "
         "上家,对家 (repeatable).", (),
         multiple=True, feeds=("out",), metavar="SEATS"),
    Flag("options", ("--option",), str, "Ruleset option KEY=VALUE (repeatable), e.g. cap=128.",
         (), multiple=True, key=None, metavar="KEY=VALUE"),
)

FLAG: dict[str, Flag] = {f.field: f for f in FLAGS}
# Context field -> the flag as written on the command line
FLAG_TEXT: dict[str, str] = {f.field: f.name for f in FLAGS if f.yaml_key is not None}
# the flags a ruleset may list under context:, and the facts each one feeds
FEEDS: dict[str, tuple[str, ...]] = {
    f.yaml_key: f.feeds for f in FLAGS if f.yaml_key is not None and not f.always}
INT_FLAGS: tuple[str, ...] = tuple(f.field for f in FLAGS if f.type is int)
ALWAYS_FLAGS: tuple[str, ...] = tuple(f.yaml_key for f in FLAGS if f.always and f.yaml_key)


def states(field: str) -> frozenset[str]:
    """A flag and everything it implies, transitively: ``--kongs`` states a kong draw,
    which states a self-draw.

    >>> sorted(states("kongs"))
    ['kong_draw', 'kongs', 'self_draw']
    """
    out, todo = {field}, [field]
    while todo:
        for implied in FLAG[todo.pop()].implies:
            if implied not in out:
                out.add(implied)
                todo.append(implied)
    return frozenset(out)


def conflicts(given: Iterable[str]) -> list[tuple[Flag, Flag]]:
    """The pairs of given flags (Context field names) that cannot all be true of one win.

    A pair conflicts when one flag, or anything it implies, excludes the other or
    anything the other implies; each pair is named by the flags as given, in table order.

    >>> [(a.name, b.name) for a, b in conflicts(["discarder", "kongs", "self_draw"])]
    [('--self-draw', '--from'), ('--from', '--kongs')]
    >>> conflicts(["self_draw", "kong_draw", "last_tile"])
    []
    """
    wanted = set(given)
    order = [f for f in FLAGS if f.field in wanted]
    out = []
    for a, b in combinations(order, 2):
        sa, sb = states(a.field), states(b.field)
        if any(y in FLAG[x].excludes for x in sa for y in sb) or \
                any(x in FLAG[y].excludes for x in sa for y in sb):
            out.append((a, b))
    return out


def echo(ctx: Any) -> dict[str, Any]:
    """The flags of a :class:`~scorer.engine.context.Context` as given, keyed by their
    command-line names (for the JSON of a result): every flag that was set, and the
    seat and prevailing wind, which always have a value.

    >>> from types import SimpleNamespace as C
    >>> echo(C(self_draw=True, discarder=None, seat="W", round="E", wild=None, piao=2,
    ...        chengbao=(), options=(("cap", "128"),), **{f.field: f.default for f in FLAGS
    ...        if f.field not in ("self_draw", "discarder", "seat", "round", "wild", "piao",
    ...                           "chengbao", "options")}))
    {'--self-draw': True, '--seat': 'W', '--round': 'E', '--piao': 2, '--option': {'cap': '128'}}
    """
    out: dict[str, Any] = {}
    for f in FLAGS:
        v = getattr(ctx, f.field)
        if v in (None, False, ()):
            continue
        out[f.name] = dict(v) if f.field == "options" else list(v) if f.multiple else v
    return out
