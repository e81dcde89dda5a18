"""What a won hand was waiting on before its winning tile, for the report's "why" line:
the faces that complete its shape, without scoring them.

The cheap half of :mod:`scorer.engine.ready` (which scores every tile and imports much
more), in a module of its own so that one ``mjscore score`` whose report names its wait
(MCR's 边张 / 嵌张 / 单钓) loads only this. ``waits`` uses the same three functions.

>>> from scorer.engine.scoring import score
>>> f = wait_facts(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))
>>> f.any_tile, f.without.tile_total()
(True, 13)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..errors import HandError
from ..lang import budget
from ..model import tiles as T
from ..model.hand import Hand
from ..record import record
from ..rules.facts import Env, fill_hand, names_at
from ..rules.model import Ruleset
from ..rules.plan import plan_of
from ..search.readings import Interpretation, completes, interpret
from ..search.shapewaits import read_as_other, shape_waits
from .context import Context, Table, resolve
from .result import Result

__all__ = ["WaitFacts", "drawable", "shape_context", "shape_tiles", "shape_tiles_each", "shapes_added",
           "wait_facts", "without_winning"]


def drawable(h: Hand, table: Table) -> list[int]:
    """The faces in play of which the hand does not hold every copy."""
    held = h.physical_counts()
    spec = table.wild
    out = []
    for t in range(T.NUM_KINDS):
        if t < 27 and T.SUITS[t // 9] not in table.suits:
            continue
        limit = spec.in_play if spec.face is not None and t == spec.face else 4
        if held[t] < limit:
            out.append(t)
    return out


def shape_tiles(h: Hand, rs: Ruleset, table: Table, faces: Iterable[int]) -> list[int]:
    """The faces among ``faces`` that complete a winning shape of the ruleset: one wait
    search (:func:`~scorer.search.shapewaits.shape_waits`) for the faces read as themselves,
    the wildcard's face and its stand-in each tested (:func:`shape_tiles_each`, what
    tests/engine/test_waitfacts.py holds the search to); every face tested where a shape's
    condition reads a fact that a tile added may change (:func:`shapes_added`).

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.rules.load import load_ruleset
    >>> rs = load_ruleset("mcr")
    >>> h = parse_hand("1112345678999m")
    >>> shape_tiles(h, rs, resolve(rs, Context(self_draw=True), h), range(34))
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    try:
        interp = interpret(h, table.wild)
    except HandError:  # its melds cannot be read: no tile completes it
        return []
    with budget.limited(None if rs.trusted else budget.TIME_LIMIT):  # (a user's conditions too)
        shapes = shapes_added(h, rs, table, interp)
        mask = shape_waits(interp, table.wild, shapes, rs.sets) if shapes is not None else None
    if mask is None:
        return shape_tiles_each(h, rs, table, faces)
    faces = list(faces)
    other = read_as_other(table.wild)  # a joker or a stand-in added: tested alone
    extra = shape_tiles_each(h, rs, table, [t for t in faces if t in other]) if other else []
    return [t for t in faces if mask >> t & 1 or t in extra]


# The hand facts a tile added to the concealed ones leaves as they are, when it is neither
# the wildcard's face nor its stand-in (rules.facts._hand_family): the fixed melds' and the
# wildcards' counts
_SAME_ADDED = frozenset({"wild_count", "kong_melds", "melds", "exposed_melds", "chow_melds",
                         "concealed_hand", "concealed_kongs", "exposed_kongs"})
_HAND_NAMES = frozenset(names_at("hand", "reading"))


def shapes_added(h: Hand, rs: Ruleset, table: Table, interp: Interpretation
                  ) -> tuple[str, ...] | None:
    """The shapes tried on ``h`` with any tile added that is read as itself: the ruleset's,
    or those whose conditions hold of ``h`` (Xiamen's 三金倒 on ``wild_count == 3``) when
    they read no fact such a tile may change; None when one does (each face is tested)."""
    if not rs.shape_when:
        return rs.shapes
    if any(c.names & _HAND_NAMES - _SAME_ADDED for _, c in rs.shape_when):
        return None
    env = Env()
    dict.update(env, table.env)
    fill_hand(env, h, interp)
    return rs.shapes_for(env)


def shape_tiles_each(h: Hand, rs: Ruleset, table: Table, faces: Iterable[int]) -> list[int]:
    """:func:`shape_tiles` by testing each face: the hand with it added, read and searched."""
    out = []
    # what _with(h, t) builds, but for the tile itself, worked out once for the 34 faces
    end = max((pos for _, pos in h.sources), default=0) + 1
    held = h.concealed_with_win
    with budget.limited(None if rs.trusted else budget.TIME_LIMIT):
        for t in faces:
            full = Hand(h.melds, held, t, (*h.sources, (t, end)))
            try:
                interp = interpret(full, table.wild)
            except HandError:
                continue
            shapes = rs.shapes
            if rs.shape_when:  # a shape may depend on the hand (Xiamen's 三金倒: three golds)
                env = Env()
                dict.update(env, table.env)
                fill_hand(env, full, interp)
                shapes = rs.shapes_for(env)
            if completes(interp, table.wild, shapes, rs.sets):
                out.append(t)
    return out


def shape_context(ctx: Context) -> Context:
    """The context the shape test is judged in: the tile self-drawn, unless --from says not."""
    if ctx.discarder is not None or ctx.robbing_kong:
        return ctx
    return replace(ctx, self_draw=True)


@record(frozen=True)
class WaitFacts:
    """What a won hand was waiting on before its winning tile: for the report's "why" line.

    ``without`` is the hand minus the winning tile, ``tiles`` the faces that completed
    it (:func:`tiles_waited`), ``any_tile`` True when that is every drawable face in
    play (暴头 / 游金 / 七客: "waiting on every tile").
    """

    without: Hand
    tiles: frozenset[int]
    any_tile: bool


def without_winning(h: Hand) -> Hand:
    """The hand without its winning tile: its held tiles, the last of which stands as the
    Hand's winning tile (a Hand needs one) and is counted as held like the others.

    >>> from scorer.model.notation import parse_hand
    >>> w = without_winning(parse_hand("123m456p789s234sP9m"))
    >>> w.tile_total(), w.winning == 33
    (13, True)
    """
    held = h.concealed  # never empty: a won hand holds a pair, or the tile its win pairs
    sources = list(h.sources)
    for k in range(len(sources) - 1, -1, -1):  # drop the winning tile (the last one written)
        if sources[k][0] == h.winning:
            del sources[k]
            break
    return Hand(h.melds, held[:-1], held[-1], tuple(sources))


def wait_facts(result: Result) -> WaitFacts:
    """The waits of a scored hand before its winning tile, under the same ruleset and flags.

    >>> from scorer.engine.scoring import score
    >>> f = wait_facts(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))
    >>> f.any_tile, f.without.tile_total()
    (True, 13)
    """
    rs = result.ruleset
    without = without_winning(result.hand)
    ctx = shape_context(result.table.context)
    # the same hand under the same flags waits on the same tiles (a batch repeats hands):
    # remembered by the ruleset's plan, bounded there; what is kept is the tiles alone
    key = (without, ctx)
    waits = plan_of(rs).waits
    got = waits.get(key)
    if got is None:
        table = resolve(rs, ctx, without)
        faces = drawable(without, table)
        tiles = frozenset(shape_tiles(without, rs, table, faces))
        got = waits.put(key, (tiles, bool(tiles) and len(tiles) == len(faces)))
    return WaitFacts(without, *got)
