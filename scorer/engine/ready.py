"""What a hand one tile short was waiting on: every tile that completes it, scored.

Three functions, for the ``mjscore waits`` command, the report's "why" line and
Sichuan's 查大叫 (the most a ready hand could win)::

    waits(hand, ruleset, context=None) -> Waits
    tiles_waited(hand, ruleset, context=None) -> frozenset[int]
    best_wait(hand, ruleset, context=None) -> Outcome | None

``hand`` is notation text or a :class:`~scorer.model.hand.Hand` holding the
ruleset's ``hand_size - 1`` tiles (13, or 16 in Xiamen), melds included, a kong
counting as 3: every tile written is a held tile (there is no winning tile yet).
``ruleset`` is a :class:`~scorer.rules.model.Ruleset` or a built-in id / path;
``context`` the flags of ``score`` (seat, wildcard, options, streak, …).

How the tile comes (decided here, documented in README under ``mjscore waits``):

* with neither ``--self-draw`` nor ``--from`` in the context, each tile is scored
  self-drawn *and* on a discard from each other seat, in the order 上家, 对家, 下家
  (a seat can matter: Hangzhou's 放铳 is legal only between the dealer and an
  idle player; elsewhere it decides who pays);
* ``--self-draw`` scores only the self-drawn win, ``--from SEAT`` (or
  ``--robbing-kong``) only the discard from that seat;
* a way that the flags themselves rule out (``--piao`` on a discard) is left out
  and said once (:attr:`Waits.skipped`), not repeated for every tile.

Which tiles are scored: of the 34 faces, those in play at the table of which the
hand does not already hold every copy (4, or the wildcards in play), and that
complete a winning shape of the ruleset (:func:`scorer.search.readings.completes`,
the scorer's own search stopped at the first decomposition). Only those are scored,
each with :func:`scorer.engine.scoring.score`, so a result here is exactly what
``mjscore score`` gives for the completed hand. A face that completes the shape but
is all in the hand is listed in :attr:`Waits.held_out` (a wait on it is empty).

"Any tile" (暴头 / 游金 / 三金倒 shapes): when every drawable face in play completes
the hand, :meth:`Waits.entries` collapses the faces whose outcomes are identical —
the same patterns with the same values and counts and the same payments, for every
way the tile can come — into one "any tile" entry: the largest such group (ties: the
one holding the lowest tile). Every face whose outcome differs is its own entry.

>>> w = waits("123m456p789s234sP", "hangzhou")
>>> w.any_tile, len(w.tiles), w.entries()[0].any_tile
(True, 34, True)
>>> sorted(tiles_waited("1112345678999m", "mcr")) == list(range(9))
True
"""

from __future__ import annotations

import time
from dataclasses import field, replace
from typing import Any

from ..errors import ContextError, EvaluationError, HandError, MjscoreError, NotAWin
from ..lang import budget
from ..model import tiles as T
from ..model.hand import Hand
from ..model.notation import parse_hand
from ..record import record
from ..rules.load import load_ruleset
from ..rules.model import Ruleset
from ..text.render import word
from .context import Context, Table, resolve
from .result import Result
from .scoring import score
from .waitfacts import WaitFacts, drawable, shape_context, shape_tiles, wait_facts

# wait_facts and WaitFacts live in .waited (what one report needs, without the rest of
# this module); they are part of this module's API as README documents it
__all__ = ["Outcome", "TileWait", "WaitEntry", "WaitFacts", "Waits", "best_wait",
           "short_hand", "tiles_waited", "wait_facts", "waits"]

WAITS_BUDGET = 5.0  # seconds of CPU for all the hands one waits() call scores (user rulesets)
SELF_DRAW = "self_draw"
DISCARD = "discard"


@record(frozen=True)
class Outcome:
    """One way of winning on one tile: the scored :class:`Result`, or why it is no win.

    ``how`` is ``"self_draw"`` or ``"discard"``; ``discarder`` the seat that
    discarded (None when self-drawn); ``error`` the
    :class:`~scorer.errors.NotAWin` or :class:`~scorer.errors.ContextError` that
    scoring raised, as data (its ``code`` and ``params``: the views word it in the
    language asked, :meth:`reason_in`), ``code`` its reason code (``below_minimum``,
    ``illegal`` …, or ``context``).

    >>> o = waits("123m456p789s2355p", "mcr", Context(discarder="N")).tiles[2].outcomes[0]
    >>> o.code, o.error.code, o.error.params["check"], o.error.params["values"]["fan"]
    ('below_minimum', 'rule.refused', 'minimum', 3)
    >>> o.reason_in("zh")
    '不够 8 番起和：不算花牌只有 3 番'
    """

    tile: int
    how: str
    discarder: str | None
    result: Result | None
    error: MjscoreError | None = None
    code: str = ""

    @property
    def reason(self) -> str:
        """Why this way is no win, in English ("" when it wins); :meth:`reason_in` says it in
        another language."""
        return self.reason_in("en")

    def reason_in(self, lang: str) -> str:
        """Why this way is no win, in ``lang`` (zh or en), or "" when it wins."""
        return self.error.render(lang) if self.error is not None else ""

    @property
    def won(self) -> bool:
        """True when the tile wins this way."""
        return self.result is not None

    @property
    def amount(self) -> int:
        """What the winner receives (0 when it is no win), e.g. 32."""
        return self.result.payments[self.result.winner] if self.result is not None else 0

    def signature(self) -> tuple[Any, ...]:
        """What two outcomes must share to be shown as one: patterns, values, payments.

        Returns ``(won, patterns, payments)`` or ``(False, code, error)`` (the error as its
        code and params).
        """
        if self.result is None:
            return (False, self.code, _as_data(self.error))
        best = self.result.best
        return (True, tuple((h.pattern.id, h.value, h.count) for h in best.hits),
                tuple(sorted(best.payments.items())))


@record(frozen=True)
class TileWait:
    """A tile that completes the hand, with every way it was scored (self-drawn first)."""

    tile: int
    outcomes: tuple[Outcome, ...]

    @property
    def self_draw(self) -> Outcome | None:
        """The self-drawn outcome, or None when it was not asked for."""
        return next((o for o in self.outcomes if o.how == SELF_DRAW), None)

    @property
    def discards(self) -> tuple[Outcome, ...]:
        """The discard outcomes, one per discarding seat (上家, 对家, 下家)."""
        return tuple(o for o in self.outcomes if o.how == DISCARD)

    @property
    def best(self) -> Outcome | None:
        """The outcome that pays the winner most (None when no way wins), e.g. the 自摸."""
        wins = [o for o in self.outcomes if o.won]
        return max(wins, key=_rank) if wins else None

    def signature(self) -> tuple[Any, ...]:
        """Every outcome's :meth:`Outcome.signature`, with how the tile came."""
        return tuple((o.how, o.discarder, o.signature()) for o in self.outcomes)


@record(frozen=True)
class WaitEntry:
    """One row of the answer: a tile, or ``any_tile`` for the faces that all score alike."""

    tiles: tuple[int, ...]
    wait: TileWait  # the first of ``tiles``: its outcomes stand for all of them
    any_tile: bool = False


@record(frozen=True)
class Waits:
    """The answer for a hand one tile short (see the module docstring).

    ``tiles`` lists every completing tile in tile order; ``held_out`` the faces that
    would complete it but are all in the hand; ``any_tile`` is True when every
    drawable face in play completes it; ``skipped`` maps a way the tile could come
    (``"self_draw"``, ``"discard"``) that the flags rule out to the error that says why.
    """

    ruleset: Ruleset
    hand: Hand
    context: Context
    seat: str
    tiles: tuple[TileWait, ...]
    held_out: tuple[int, ...] = ()
    any_tile: bool = False
    skipped: dict[str, MjscoreError] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        """True when some tile completes the hand (听牌), e.g. False for a broken hand."""
        return bool(self.tiles)

    @property
    def reason(self) -> str:
        """Why nothing is listed: ``"not ready: …"``, or "" when the hand is ready (English;
        :meth:`reason_in` says it in another language)."""
        return self.reason_in("en")

    @property
    def why(self) -> tuple[str, dict[str, Any]] | None:
        """Why nothing is listed, as a word of the catalogue and its params, or None when
        the hand is ready: ``("waits.not_ready", {})``, or ``("waits.not_ready_held",
        {"tiles": [...]})`` when the tiles that would complete it are all in the hand."""
        if self.tiles:
            return None
        if self.held_out:
            return "waits.not_ready_held", {"tiles": " ".join(T.name(t) for t in self.held_out)}
        return "waits.not_ready", {}

    def reason_in(self, lang: str) -> str:
        """:attr:`why` in ``lang`` (zh or en), or "" when the hand is ready.

        >>> w = waits("1357m2468p13579s", "mcr")
        >>> w.ready, w.reason_in("en")
        (False, 'not ready: no tile completes the hand')
        >>> w.reason_in("zh")
        '没听牌：没有牌能和这手牌'
        """
        why = self.why
        return "" if why is None else word(why[0], lang, **why[1])

    @property
    def winning(self) -> tuple[TileWait, ...]:
        """The tiles on which at least one way wins (e.g. not those below MCR's minimum)."""
        return tuple(w for w in self.tiles if w.best is not None)

    def entries(self) -> list[WaitEntry]:
        """The rows to show: one per tile, or an "any tile" row and the exceptions.

        >>> [len(e.tiles) for e in waits("1112345678999m", "mcr").entries()]
        [1, 1, 1, 1, 1, 1, 1, 1, 1]
        """
        if not self.any_tile:
            return [WaitEntry((w.tile,), w) for w in self.tiles]
        groups: dict[tuple[Any, ...], list[TileWait]] = {}
        for w in self.tiles:
            groups.setdefault(w.signature(), []).append(w)
        main = max(groups.values(), key=lambda g: (len(g), -g[0].tile))
        out = [WaitEntry(tuple(w.tile for w in main), main[0], any_tile=True)]
        out += [WaitEntry((w.tile,), w) for w in self.tiles if w not in main]
        return out


def _as_data(e: MjscoreError | None) -> tuple[str, str]:
    """An error as a key that two equal errors share: its code and its params (as text, as
    params may hold lists)."""
    return ("", "") if e is None else (e.code, repr(sorted(e.params.items())))


def _rank(o: Outcome) -> tuple[int, int, int]:
    """Order outcomes by what the winner receives, then the headline, then self-drawn."""
    assert o.result is not None
    return (o.amount, o.result.best.score, o.how == SELF_DRAW)


def _load(ruleset: Ruleset | str) -> Ruleset:
    return load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def short_hand(hand: Hand | str, rs: Ruleset) -> Hand:
    """The hand one tile short, checked: every tile written is held.

    Returns a :class:`Hand` whose ``concealed`` holds every concealed tile and whose
    ``winning`` is the last one written (kept only because a Hand has one); raises
    :class:`~scorer.errors.HandError` (exit 2) naming the count and what is expected.

    >>> short_hand("123m456p789s234sP", load_ruleset("hangzhou")).tile_total()
    13
    >>> short_hand("123m456p789s234sPP", load_ruleset("hangzhou"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.errors.HandError: position 18: 14 tiles; waits take 13 (+1/kong); drop the winning tile
    """
    h = parse_hand(hand) if isinstance(hand, str) else hand
    need = rs.hand_size - 1 + h.kong_count
    have = h.tile_total()
    if have != need:
        order = [pos for _, pos in h.sources]
        pos = (order[need] if have > need else order[-1]) if len(order) == have else None
        raise HandError("waits.count_kongs" if h.kong_count else "waits.count", position=pos,
                        have=have, ruleset=rs.id, need=need, base=rs.hand_size - 1,
                        kongs=h.kong_count, leave="out" if have == need + 1 else "keep")
    return h


def _with(h: Hand, tile: int) -> Hand:
    """The hand completed by ``tile``: every held tile concealed, ``tile`` the winning one."""
    end = max((pos for _, pos in h.sources), default=0) + 1
    return Hand(h.melds, h.concealed_with_win, tile, (*h.sources, (tile, end)))


def tiles_waited(hand: Hand | str, ruleset: Ruleset | str,
                 context: Context | None = None) -> frozenset[int]:
    """The faces that complete the hand's shape (no scoring): the cheap question.

    Returns tile indices (see :mod:`scorer.model.tiles`); faces of which the hand holds
    every copy, or not in play, are left out. Raises HandError (wrong count) and
    ContextError (bad flags) as :func:`waits` does.

    >>> sorted(T.name(t) for t in tiles_waited("123m456p789s2355p", "mcr"))  # 23p or 55p open
    ['1p', '4p', '6p', '7p']
    """
    rs = _load(ruleset)
    h = short_hand(hand, rs)
    ctx = shape_context(context or Context())
    table = resolve(rs, ctx, h)
    return frozenset(shape_tiles(h, rs, table, drawable(h, table)))


def _ways(ctx: Context, table: Table) -> list[tuple[str, Context]]:
    """How the tile may come, each with its context (see the module docstring)."""
    if ctx.self_draw:
        return [(SELF_DRAW, ctx)]
    if ctx.discarder is not None:  # (the seat as the table read it: --from 上家 is N for E)
        return [(DISCARD, replace(ctx, discarder=table.discarder))]
    seat = table.env["seat"]
    k = T.SEATS.index(seat)
    # 上家, 对家, 下家: the seats before the winner in turn order, nearest first
    others = [T.SEATS[(k - d) % 4] for d in (1, 2, 3)]
    ways = [] if ctx.robbing_kong else [(SELF_DRAW, replace(ctx, self_draw=True))]
    ways += [(DISCARD, replace(ctx, discarder=s)) for s in others if s in table.seats]
    return ways


def _context_only_refusal(rs: Ruleset, table: Table) -> NotAWin | None:
    """A ruleset's not-a-win check that reads only the flags, if it holds for this context.

    Such a check refuses every tile alike (Hangzhou without 放铳: no discard win), so the
    hand's readings need not be built 34 times to hear it.
    """
    names = frozenset(table.env)
    with budget.limited(None if rs.trusted else budget.TIME_LIMIT):
        try:
            for chk in rs.not_a_win:
                if chk.on == "hand" and chk.when.names <= names and chk.when(table.env):
                    return NotAWin("rule.refused", chk.reason, **chk.params(table.env))
        except MjscoreError:
            return None
        except Exception:  # an expression that fails here fails in score() too, with its message
            return None
    return None


def _outcome(full: Hand, rs: Ruleset, how: str, ctx: Context) -> Outcome | None:
    """Score one completed hand one way; None when the tile cannot be there (HandError)."""
    try:
        r = score(full, rs, ctx)
    except NotAWin as e:
        return Outcome(full.winning, how, ctx.discarder, None, e, e.reason)
    except ContextError as e:
        return Outcome(full.winning, how, ctx.discarder, None, e, "context")
    except HandError:
        return None
    return Outcome(full.winning, how, ctx.discarder, r)


def waits(hand: Hand | str, ruleset: Ruleset | str, context: Context | None = None) -> Waits:
    """Every tile that completes a hand one tile short, each scored every way it can come.

    Returns a :class:`Waits` (empty ``tiles`` and ``reason`` "not ready: …" when no
    tile completes it); raises HandError for a wrong tile count or an impossible hand,
    ContextError for flags that are wrong whatever the tile (both exit 2 in the CLI).

    >>> w = waits("123m456p789s2355p", "mcr", Context(discarder="N"))
    >>> [T.name(x.tile) for x in w.tiles], [o.discarder for o in w.tiles[0].outcomes]
    (['1p', '4p', '6p', '7p'], ['N'])
    >>> w.tiles[2].outcomes[0].code   # 6p completes the shape, but MCR needs 8 fan
    'below_minimum'
    >>> [T.name(x.tile) for x in w.winning]
    ['1p', '4p']
    """
    rs = _load(ruleset)
    h = short_hand(hand, rs)
    ctx = context or Context()
    base = resolve(rs, shape_context(ctx), h)  # flags wrong whatever the tile: raised here
    h.check_copies({base.wild.face: base.wild.in_play} if base.wild.face is not None else None)
    seat = base.env["seat"]
    faces = drawable(h, base)
    shape_ok = shape_tiles(h, rs, base, range(T.NUM_KINDS))
    held_out = tuple(t for t in shape_ok if t not in faces)
    shape_ok = [t for t in shape_ok if t in faces]

    ways: list[tuple[str, Context, NotAWin | None]] = []
    skipped: dict[str, MjscoreError] = {}
    errors: list[ContextError] = []
    for how, c in _ways(ctx, base):
        try:
            table = resolve(rs, c, h)
        except ContextError as e:  # e.g. --piao on a discard: no tile can win that way
            errors.append(e)
            skipped.setdefault(how, e)
            continue
        ways.append((how, c, _context_only_refusal(rs, table)))
    if not ways and errors:
        raise errors[0]

    found: list[TileWait] = []
    # a user's ruleset gets its CPU limit per scored hand; here up to 34 × 4 hands are
    # scored, so the whole question is bounded too (built-in rulesets are trusted)
    # (this thread's CPU: threads answering at once do not share one allowance)
    deadline = None if rs.trusted else time.thread_time() + WAITS_BUDGET
    for t in shape_ok:
        if deadline is not None and time.thread_time() > deadline:
            raise EvaluationError("waits.budget", place=rs.file, limit=f"{WAITS_BUDGET:g}")
        full = _with(h, t)
        outs: list[Outcome] = []
        can_come = True
        for how, c, refusal in ways:
            if refusal is not None:
                outs.append(Outcome(t, how, c.discarder, None, refusal, refusal.reason))
                continue
            o = _outcome(full, rs, how, c)
            if o is None:
                can_come = False
                break
            outs.append(o)
        if can_come:
            found.append(TileWait(t, tuple(outs)))
        else:
            held_out += (t,)
    # a flag that is wrong for every tile (a ruleset's own input check) is an input error
    if found and all(o.code == "context" for w in found for o in w.outcomes):
        said = {_as_data(o.error): o.error for w in found for o in w.outcomes}
        if len(said) == 1:
            raise next(iter(said.values()))  # type: ignore[misc]
    any_tile = bool(found) and len(found) == len(faces)
    return Waits(rs, h, ctx, seat, tuple(found), tuple(sorted(held_out)), any_tile, skipped)


def best_wait(hand: Hand | str, ruleset: Ruleset | str,
              context: Context | None = None) -> Outcome | None:
    """The highest-paying way a ready hand could win, or None (not ready, or no tile wins).

    For 查大叫 pass the context of a discard win (``Context(discarder=...)``): only that
    way is scored. Ties go to the higher headline number, then self-drawn, then the
    lower tile.

    >>> o = best_wait("123m456m789s123s5p", "mcr", Context(discarder="N"))  # a lone 5p
    >>> T.name(o.tile), o.how, o.discarder
    ('5p', 'discard', 'N')
    """
    w = waits(hand, ruleset, context)
    best: Outcome | None = None
    for tw in w.tiles:
        b = tw.best
        if b is not None and (best is None or _rank(b) > _rank(best)):
            best = b
    return best
