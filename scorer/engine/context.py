"""The context of a win (the flags of docs/contract.md#flags) and its validation against a ruleset.

:class:`Context` is what a caller says about the win; :func:`resolve` checks it
against the ruleset and the hand — unknown or unused flags, ranges,
contradictions — and returns a :class:`Table` holding the values every
expression sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, cast

from ..errors import ContextError, NotationError
from ..memo import Memo
from ..model import tiles as T
from ..model.hand import Hand
from ..model.notation import parse_flowers
from ..record import dataclass
from ..rules.facts import Env, fill_context
from ..rules.flags import FLAG, FLAG_TEXT, FLAGS, INT_FLAGS, conflicts, states
from ..rules.model import Ruleset
from ..rules.plan import plan_of
from ..search.readings import ALL_TILES, NO_WILD, WildSpec
from ..text import closest, show
from ..text.catalogue import CATALOGUE
from ..text.render import template, word


def option_pairs(options: tuple[tuple[str, str], ...] | Mapping[str, object]
                 ) -> tuple[tuple[str, str], ...]:
    """Options as ``(key, value)`` text pairs: pairs stay as they are; a mapping gives its
    items sorted by key, a value as ``--option`` writes it (``True`` -> ``'true'``).

    >>> option_pairs({"min_fan": 6, "b": False})
    (('b', 'false'), ('min_fan', '6'))
    """
    if isinstance(options, tuple):
        return options
    return tuple((str(k), str(v).lower() if isinstance(v, bool) else str(v))
                 for k, v in sorted(options.items()))


@dataclass(frozen=True)
class Context:
    """What is known about the win besides the tiles. Every field is optional.

    One field per row of the flag table :data:`scorer.rules.flags.FLAGS` (its
    ``field``, type and default; tests/rules/test_flags.py checks that they agree).

    >>> Context(self_draw=True, seat="S", wild="3m", options=(("cap", "128"),)).seat
    'S'

    ``options`` (the ruleset's options, ``--option KEY=VALUE``) is a mapping or pairs; a
    mapping becomes pairs in key order, each value as the command line writes it (``True``
    is ``true``), so that a context stays hashable and equal to the same one typed:

    >>> Context(options={"cap": 64, "xueliu": True}).options
    (('cap', '64'), ('xueliu', 'true'))
    """

    self_draw: bool = False
    discarder: str | None = None
    seat: str = "E"
    round: str = "E"
    wild: str | None = None
    dealer_streak: int | None = None
    kong_draw: bool = False
    kongs: int | None = None
    robbing_kong: bool = False
    last_tile: bool = False
    fourth_tile: bool = False
    piao: int | None = None
    you: int | None = None
    ready_at_deal: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    flowers: str | None = None
    chengbao: tuple[str, ...] = ()
    base: int | None = None
    after_kong: bool = False
    out: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] | Mapping[str, object] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.options, tuple):
            object.__setattr__(self, "options", option_pairs(self.options))

    def option_pairs(self) -> tuple[tuple[str, str], ...]:
        """``options`` as pairs (what ``__post_init__`` made of a mapping).

        >>> Context(options={"cap": 8}).option_pairs()
        (('cap', '8'),)
        """
        return option_pairs(self.options)

    def given(self) -> list[str]:
        """Names of the flags that were set (switches True, others not None/empty), in table
        order. ``--seat`` and ``--round`` always have a value and ``--option`` is no
        context flag, so they are never listed.

        >>> Context(piao=2, self_draw=True, seat="S").given()
        ['self_draw', 'piao']
        """
        out = []
        for f in FLAGS:
            if f.yaml_key is None or f.default not in (None, False, ()):
                continue
            v = getattr(self, f.field)
            if v is True or (v not in (None, False, ()) and not isinstance(v, bool)):
                out.append(f.field)
        return out


@dataclass
class Table:
    """A context checked against a ruleset and a hand: the values expressions see."""

    ruleset: Ruleset
    context: Context
    options: dict[str, Any]
    seats: tuple[str, ...]
    wild: WildSpec
    self_draw: bool
    discarder: str | None
    chengbao: tuple[tuple[str, str], ...]
    env: Env
    inferred_self_draw: bool = False
    suits: tuple[str, ...] = ("m", "p", "s")
    # what is worked out once per context and reused for every hand scored with it (shared
    # by the table of each hand, see resolve): the context-level input errors ("errors"),
    # the views' JSON of the winner and flags (by winner and how the tile came)
    memo: Memo[Any, Any] = field(default_factory=lambda: Memo(32))


def parse_options(rs: Ruleset, pairs: tuple[tuple[str, str], ...],
                  flag: str = "--option") -> dict[str, Any]:
    """Option values for a ruleset: defaults overridden by ``--option KEY=VALUE``; errors
    name ``flag`` (``--vs-option`` for the other side of a dispute).

    >>> from scorer.rules.load import load_ruleset
    >>> parse_options(load_ruleset("mcr"), (("min_fan", "6"),))
    {'min_fan': 6}
    """
    values = {name: spec.default for name, spec in rs.options.items()}
    for key, text in pairs:
        spec = rs.options.get(key)
        if spec is None:
            if not rs.options:
                raise ContextError("option.none", flag, option=key, ruleset=rs.id)
            listing = "; ".join(f"{o.name} ({o.describe_values()})" for o in rs.options.values())
            raise ContextError("option.unknown", flag, option=key, ruleset=rs.id, listing=listing,
                               hint=closest(key, rs.options))
        values[key] = spec.parse(text, flag)
    return values


def _seat(value: str, flag: str, of: str | None = None,
          seats: tuple[str, ...] = T.SEATS) -> str:
    """The seat a flag's value names: E S W N (either case, full width) or 东南西北; with
    ``of`` (the winner's seat) also 上家/下家/对家, said from its place in the turn among
    ``seats`` (docs/rulings.md#common-seats); raises ContextError naming the flag otherwise."""
    v = T.seat_of(value)
    if v is not None:
        return v
    if not T.is_relative(value):
        raise ContextError("seat.unknown", flag, value=value)
    if of is None:  # --seat, --round: nobody to say it from
        raise ContextError("seat.relative", flag, value=value)
    v = T.seat_from(value, of, seats)
    if v is None:
        raise ContextError("seat.no_opposite", flag, value=value, players=len(seats),
                           seats=" ".join(seats))
    return v


def _out(values: tuple[str, ...], seat: str, seats: tuple[str, ...] = T.SEATS) -> list[str]:
    """``--out S,W`` or ``--out S --out W`` (or ``SW``, ``上家，对家``): the seats, in the order
    given; a relative word is said from the winner's ``seat``."""
    out: list[str] = []
    for value in values:
        text = T.narrow(value)
        i = 0
        while i < len(text):
            word = text[i:i + 2] if T.is_relative(text[i:i + 2]) else text[i]
            i += len(word)
            if word not in ", 、":  # (、: the comma of a list written in Chinese)
                out.append(_seat(word, "--out", seat, seats))
    return out


def resolve(rs: Ruleset, ctx: Context, hand: Hand) -> Table:
    """Check a context against the ruleset and hand; return the Table or raise ContextError.

    The context part is checked once per (ruleset, context) and reused: a batch of
    hands with the same flags pays for it once (the cache is the ruleset plan's).
    """
    table: Table = plan_of(rs).tables.get_or(ctx, lambda: _resolve_context(rs, ctx))
    _check_hand(table, hand)
    env = Env()
    dict.update(env, table.env)
    return Table(table.ruleset, table.context, table.options, table.seats, table.wild,
                 table.self_draw, table.discarder, table.chengbao, env,
                 table.inferred_self_draw, table.suits, table.memo)


def _check_hand(table: Table, hand: Hand) -> None:
    """The flags that contradict the hand itself (docs/rulings.md#common-impossible-claims):
    raise ContextError naming the flag and the tile or meld."""
    kongs = table.env["kongs"]
    if kongs > hand.kong_count:
        shown = " ".join(m.notation() for m in hand.melds if m.is_kong)
        flag = "--kongs" if table.context.kongs is not None else "--kong-draw"
        said = f"--kongs {kongs}" if flag == "--kongs" else "--kong-draw"
        raise ContextError("kongs.too_few" if shown else "kongs.none_shown", flag, said=said,
                           n=kongs, have=hand.kong_count, melds=shown)
    ctx = table.context
    if (ctx.heavenly or ctx.earthly) and hand.melds:
        flag = "--heavenly" if ctx.heavenly else "--earthly"
        raise ContextError("flags.fixed_meld", flag, meld=hand.melds[0].notation())
    win = hand.winning
    if ctx.robbing_kong:
        # the robbed kong was a pung of the winning tile plus its fourth copy: the other
        # three are in the robbed player's meld, so the hand can hold no other copy
        n = hand.physical_counts()[win]
        if n > 1:
            raise ContextError("flags.robbed_copy", "--robbing-kong", tile=T.name(win),
                               position=hand.position_of_copy(win, 1))
    if ctx.fourth_tile and hand.concealed.count(win):
        # where: the first copy of the tile as written (none for a hand not read from text)
        raise ContextError("flags.fourth_copy", "--fourth-tile", tile=T.name(win),
                           position=hand.position_of_copy(win, 1))


def _check_out(out: list[str], seats: tuple[str, ...], seat: str, discarder: str | None) -> None:
    """--out (players already out of a 血战 round): a known seat each, never the winner or
    the discarder, and at least one player left to pay."""
    for s in out:
        if s not in seats:
            raise ContextError("seat.not_at_table", "--out", value=s, players=len(seats),
                               seats=" ".join(seats))
    said = ",".join(out)
    if len(set(out)) != len(out):
        raise ContextError("out.twice", "--out", value=said)
    if seat in out:
        raise ContextError("out.winner", "--out", value=said, seat=seat)
    if discarder is not None and discarder in out:
        raise ContextError("out.discarder", "--out", value=said, seat=discarder)
    if len(out) >= len(seats) - 1:
        raise ContextError("out.nobody", "--out", value=said)


def conflict(a: str, b: str) -> tuple[str, dict[str, Any]]:
    """Why two flags (Context fields) cannot both hold, as a code and its parameters: the
    pair of the table that excludes (``conflict``, a word of the catalogue) and the flags
    that state it by implying another (``by``/``state``, ``by2``/``state2``).

    >>> conflict("self_draw", "discarder")
    ('flags.contradict', {'conflict': 'discarder+self_draw'})
    >>> conflict("discarder", "heavenly")[1]
    {'conflict': 'discarder+self_draw', 'by': '--heavenly', 'state': 'self_draw'}
    """
    for x in sorted(states(a)):
        for y in sorted(states(b)):
            if y in FLAG[x].excludes or x in FLAG[y].excludes:
                pair = "+".join(sorted((x, y)))
                params: dict[str, Any] = {
                    "conflict": pair if "conflict." + pair in CATALOGUE else "other"}
                said = [(FLAG_TEXT[f], s if s in _STATES else FLAG_TEXT[s])
                        for f, s in ((a, x), (b, y)) if f != s]
                for k, (by, state) in enumerate(said):
                    params["by" if k == 0 else "by2"] = by
                    params["state" if k == 0 else "state2"] = state
                code = ("flags.contradict", "flags.contradict_implied",
                        "flags.contradict_implied2")[len(said)]
                return code, params
    return "flags.contradict", {"conflict": "other"}


_STATES = ("self_draw", "kong_draw")  # what a flag states, in words (state.NAME)


def flag_range(rs: Ruleset, name: str) -> tuple[int, int]:
    """The range of a whole-number flag (a Context field) in a ruleset: the game's (the
    row's), narrowed by the ruleset's ``context:`` entry, never widened.

    >>> from scorer.rules.load import load_ruleset
    >>> flag_range(load_ruleset("hangzhou"), "dealer_streak"), flag_range(load_ruleset("xiamen"), "you")
    ((1, 3), (1, 3))
    """
    low, high = FLAG[name].bounds()
    spec = rs.flags.get(name)
    lo = max(spec.minimum, low) if spec and spec.minimum is not None else low
    hi = min(spec.maximum, high) if spec and spec.maximum is not None else high
    return lo, hi


def out_of_range(rs: Ruleset, name: str, value: int, lo: int,
                 hi: int) -> tuple[str, dict[str, Any]]:
    """The error for a number out of its range, as a code and its parameters, naming the
    flag and what the game counts (the ruleset's label of the field, else the flag's unit).

    >>> from scorer.rules.load import load_ruleset
    >>> from scorer.text.render import render
    >>> code, params = out_of_range(load_ruleset("xiamen"), "dealer_streak", 100000, 0, 16)
    >>> render(code, params, "en")
    '--dealer-streak 100000: Xiamen counts at most 16 连庄'
    >>> render(code, params, "zh")
    '--dealer-streak 100000：厦门麻将最多算 16 连庄'
    """
    flag = FLAG[name]
    if name in rs.labels:  # the table's own word for it (连庄, 老庄), in both languages
        zh = en = rs.label(name, "zh")
    elif f"unit.{name}" in CATALOGUE:
        zh, en = word(f"unit.{name}", "zh"), word(f"unit.{name}", "en")
    else:
        zh = en = ""
    params: dict[str, Any] = {"flag": flag.name, "value": value, "ruleset": {
        "zh": rs.name, "en": rs.name_en}, "lo": lo, "hi": hi, "unit": {
        "zh": f" {zh}" if zh else "", "en": f" {en}" if en else ""}}
    if lo == hi:  # a house ruleset may pin a flag (e.g. the dealer always at 3 老庄)
        params["ruleset"] = rs.id
        return "range.pinned", params
    return ("range.at_most" if value > hi else "range.at_least"), params


def _resolve_context(rs: Ruleset, ctx: Context) -> Table:
    """Everything about the flags that does not depend on the hand."""
    options = parse_options(rs, ctx.option_pairs())
    given = ctx.given()
    # 1. claims that cannot all be true of one win, whatever the ruleset (the table's
    # implies/excludes): named both, before asking whether the ruleset uses them
    for one, other in conflicts(given):
        code, params = conflict(one.field, other.field)
        raise ContextError(code, other.name, one=one.name, other=other.name, **params)
    # 2. flags the ruleset has no use for (seat, round, from and self-draw are always accepted)
    for name in given:
        if name in ("self_draw", "discarder"):
            continue
        if name not in rs.flags:
            raise ContextError("flags.unused", FLAG_TEXT[name], ruleset=rs.id)
    # 3. integer ranges
    for name in INT_FLAGS:
        v = getattr(ctx, name)
        if v is None:
            continue
        lo, hi = flag_range(rs, name)
        if not lo <= v <= hi:
            code, params = out_of_range(rs, name, v, lo, hi)
            raise ContextError(code, **params)  # (its flag among them)

    def flag_default(name: str, fallback: Any) -> Any:
        v = getattr(ctx, name)
        if v is not None:
            return v
        spec = rs.flags.get(name)
        return spec.default if spec and spec.default is not None else fallback

    seat = _seat(ctx.seat, "--seat")
    rnd = _seat(ctx.round, "--round")
    # a relative word (--from 上家) is said from the winner's place, here among four seats;
    # again below among those at the table when it has fewer
    discarder = _seat(ctx.discarder, "--from", seat) if ctx.discarder is not None else None
    wild_tile: int | None = None
    if ctx.wild is not None:
        try:
            wild_tile = T.parse_tile(ctx.wild)
        except ValueError:
            raise ContextError("wild.not_tile", "--wild", value=ctx.wild,
                               error={"code": "tile.unknown", "params": {"text": ctx.wild}}
                               ) from None

    flowers_count, flower_list = 0, cast(tuple[int, ...], ())
    if ctx.flowers is not None:
        try:
            n, which = parse_flowers(ctx.flowers)
        except NotationError as e:
            # the notation's message may already name the flag (--flowers 9: there are only 8)
            inner = {k: v for k, v in e.params.items() if k != "position"}
            if template(e.code, "en").startswith("--flowers"):
                raise ContextError(e.code, "--flowers", **inner) from None
            raise ContextError("flowers.bad", "--flowers", value=ctx.flowers,
                               error={"code": e.code, "params": inner}) from None
        flowers_count, flower_list = (n or 0), which

    kongs = ctx.kongs if ctx.kongs is not None else (1 if ctx.kong_draw else 0)
    kong_draw = ctx.kong_draw or kongs > 0
    piao = ctx.piao or 0
    you = ctx.you or 0

    env = Env()
    env.update(options)
    env.update(
        seat=seat, round=rnd, wild=wild_tile, dealer_streak=flag_default("dealer_streak", 0),
        kong_draw=kong_draw, kongs=kongs, piao=piao, you=you, flowers=flowers_count,
        flower_list=flower_list, base=flag_default("base", 1),
        self_draw=False, discard=True, discarder=discarder,
        # --out S,W or --out S --out W
        out=_out(ctx.out, seat),
    )
    # a switch that feeds the one fact of its own name passes through as it is
    env.update({f.field: getattr(ctx, f.field) for f in FLAGS if f.switch and f.feeds == (f.field,)})
    fill_context(env)  # seat_wind, winner_is_dealer, ...: computed where they are declared
    # 3. the table: players and seats
    players = rs.players(env)
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise ContextError("table.players", ruleset=rs.id, players=players)
    seats = tuple(T.SEATS[:players])
    if seat not in seats:
        raise ContextError("seat.not_at_table", "--seat", value=seat, players=players,
                           seats=" ".join(seats))
    if len(seats) < len(T.SEATS):  # the turn goes round fewer seats: say them again
        if ctx.discarder is not None and T.is_relative(ctx.discarder):
            discarder = env["discarder"] = _seat(ctx.discarder, "--from", seat, seats)
        env["out"] = _out(ctx.out, seat, seats)
    if discarder is not None and discarder not in seats:
        raise ContextError("seat.not_at_table", "--from", value=discarder, players=players,
                           seats=" ".join(seats))
    if discarder is not None and discarder == seat:
        raise ContextError("from.own_seat", "--from", value=discarder)

    _check_out(env["out"], seats, seat, discarder)

    # 4. self-drawn or not: a win states how its tile came; --self-draw with --from and the
    # like were refused above (docs/rulings.md#common-how-the-tile-came)
    inferred = False
    if any("self_draw" in states(name) for name in given):
        self_draw = True  # --self-draw, or a flag only a self-drawn win carries
    elif discarder is not None or ctx.robbing_kong:
        self_draw = ctx.robbing_kong and rs.robbing_kong == "self_draw"
    elif rs.self_draw_default(env):
        # the ruleset's own: a table with self-drawn wins only (Hangzhou without 放铳), or a
        # flag it defines as a self-draw (Jinhua's --human)
        self_draw = inferred = True
    else:
        raise ContextError("how.missing", "--self-draw", ruleset=rs.id)
    env["self_draw"] = self_draw
    env["discard"] = not self_draw
    if not self_draw and discarder is None and rs.payment.needs_discarder:
        if ctx.robbing_kong:
            raise ContextError("from.robbing_needs", "--from")
        raise ContextError("from.discard_needs", "--from")

    # 5. the suits in play and the wildcard model
    suits = tuple(rs.suits(env))
    bad = [s for s in suits if not isinstance(s, str) or len(s) != 1 or s not in T.SUITS]
    if bad:
        raise rs.suits.fail("eval.suits", bad=[show(b) for b in bad])
    tiles_in_play = tuple(t for t in ALL_TILES if t >= 27 or T.SUITS[t // 9] in suits)
    wspec = NO_WILD
    if rs.wildcard is not None:
        w = rs.wildcard
        face = w.face(env)
        if face is not None and not (isinstance(face, int) and 0 <= face < T.NUM_KINDS):
            raise w.face.fail("eval.face", value=repr(face))
        if face is not None:
            # a face has four copies: more wildcards in play would be a fifth copy, and would
            # let an all-wildcard hand have an astronomical number of readings
            in_play = w.in_play.number(env)
            if not 0 <= in_play <= 4:
                raise w.in_play.fail("eval.in_play", value=in_play)
            plan = plan_of(rs)
            wspec = WildSpec(face=face, in_play=in_play, stand_in=w.stand_in,
                            stand_in_scope=w.stand_in_scope,
                            stand_in_self_shapes=w.stand_in_self_shapes, in_melds=w.in_melds,
                            candidates=tiles_in_play, detail=plan.detail,
                            features=plan.features)
    if piao and wspec.face is None:
        raise ContextError("piao.no_wild", "--piao")
    env["wild_face"] = wspec.face

    # 6. 承包 relations
    relations: list[tuple[str, str]] = []
    for text in ctx.chengbao:
        parts = T.narrow(text).replace(" ", "").split(":")
        if len(parts) != 2:
            raise ContextError("chengbao.syntax", "--chengbao", value=text)
        a, b = (_seat(p, "--chengbao", seat, seats) for p in parts)
        if a == b:
            raise ContextError("chengbao.self", "--chengbao", value=text)
        for s in (a, b):
            if s not in seats:
                raise ContextError("seat.not_at_table", "--chengbao", value=text,
                                   players=players, seats=" ".join(seats))
        cb = rs.payment.chengbao
        if cb is None:
            raise ContextError("flags.unused", "--chengbao", ruleset=rs.id)
        cenv = Env(env, a=a, b=b, a_is_dealer=a == "E", b_is_dealer=b == "E")
        if not cb.allowed(cenv):
            raise ContextError("chengbao.refused", "--chengbao", value=text,
                               message={"zh": cb.message, "en": cb.message_en or cb.message})
        if (a, b) in relations:
            raise ContextError("chengbao.twice", "--chengbao", value=text)
        relations.append((a, b))

    return Table(rs, ctx, options, seats, wspec, self_draw, discarder, tuple(relations), env,
                 inferred, suits=suits)
