"""The settlement of one Sichuan round, 血战到底 or 血流成河, from its events in order (pure).

A round file has one event a line (``#`` starts a comment, blank lines are skipped)::

    rules sichuan --option cap=16        # optional, before any event: ruleset, options, --base
    S kong 5p from E                     # 直杠: S claims E's discarded 5p for a kong
    W kong 7s added                      # 补杠: W adds the drawn fourth 7s to a claimed pung
    N kong 2m concealed                  # 暗杠
    S win [5555p,3]123m789m11m23m4m --from N      # a win: hand and flags as for `score`
    W win [7777s,2]456s789s22s23m1m --from N      # another win on the same discard: 一炮多响
    E hand 123m456m789m1155p             # at the end, each player who has not won: its 13 tiles

Under 血战到底 (``sichuan``) a winner is out of the round, and three winners end it; under
血流成河 (option ``xueliu``, the ruleset ``sichuan-xueliu``) a winner stays in and may win
again, every player pays and is paid whoever has won, and the round ends at the wall's end.

:func:`settle_round` reads the text and returns a :class:`RoundResult`: every event with
who paid whom and why — as data, a reason code and its parameters (:class:`Charge`), which
:mod:`scorer.views.round` words in zh or en —, the end-of-round checks (查花猪, 查大叫, 退税),
the status of each player and the per-seat totals, which always sum to zero.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..engine.context import Context
from ..engine.ready import best_wait as _best_wait
from ..engine.result import Result
from ..engine.scoring import score
from ..errors import MjscoreError
from ..model import tiles as T
from ..model.notation import parse_hand
from ..model.numbers import is_whole, shown, whole
from ..model.tiles import SEATS
from ..record import record
from ..rules.load import load_ruleset
from ..rules.model import Ruleset

# A short round for the examples below: two kongs, nobody wins, the end checks.
EXAMPLE = """E kong 2m from S
W kong 7p added
E hand [2222m,3]345m678m99m11p
S hand 11m33m66m1234579s
W hand [7777p,2]11358p13579s
N hand 45m23p69p2466888s
"""
# Kong income in 底 (docs/rulings.md#sichuan: 刮风下雨): who pays, and how much each.
KONG_KINDS = {"from": "直杠", "added": "补杠", "concealed": "暗杠"}
KONG_BASES = {"from": 2, "added": 1, "concealed": 2}
# 查花猪 without a cap: 16 倍 (docs/rulings.md#sichuan)
HUAZHU_DEFAULT = 16
# the flags a win line may carry (the seat and --out come from the round itself)
BOOL_FLAGS = {"--self-draw": "self_draw", "--kong-draw": "kong_draw",
              "--robbing-kong": "robbing_kong", "--last-tile": "last_tile",
              "--heavenly": "heavenly", "--earthly": "earthly", "--after-kong": "after_kong"}
# the reasons a transfer gives (codes, worded by scorer.views.round), and their parameters
REASONS = {
    "kong": "how (from | added | concealed), tile",
    "win": "patterns (id, name, name_en, value, count), multiplier, each (per payer, 底 "
           "included), capped (the cap, when it cut the 倍), added (加底 per payer)",
    "passed_on": "seat (the kong's player), tile, line (呼叫转移)",
    "huazhu": "seat (the 花猪)",
    "not_ready": "seat (the ready player paid), tile, multiplier (查大叫)",
    "refund": "seat (the kong's player), tile, line (退税)",
}
# a kong's tile: one digit 1-9 and a suit, or the same digit four times (ASCII only)
_KONG_TILE = re.compile(r"([1-9])(?:\1{3})?([mpswbt])")


class RoundError(MjscoreError):
    """A round file that cannot be settled; the message starts with ``line N:``."""

    kind = "round"
    exit_code = 2


@record(frozen=True)
class Charge:
    """One charge of the round (not the ledger's settling :class:`scorer.table.ledger.Transfer`):
    ``payer`` pays ``payee`` ``amount`` points, for ``reason`` (a code of
    :data:`REASONS`) with its ``params``; :func:`scorer.views.round.reason_text` words it."""

    payer: str
    payee: str
    amount: int
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)


@record
class Event:
    """A line of the round (kong, win, end hand) or an end-of-round check (line 0)."""

    line: int
    seat: str
    kind: str  # kong | win | hand | chahuazhu | chadajiao | tuishui
    text: str
    transfers: list[Charge] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)


@record
class _Kong:
    line: int
    seat: str
    tile: int
    how: str  # from | added | concealed
    discarder: str | None
    event: Event
    robbed: bool = False
    passed_on: bool = False  # its income went to a 杠上炮 winner (呼叫转移)


@record
class RoundResult:
    """The settled round: events in order, each player's status, totals (zero-sum).

    ``mode`` is ``"xuezhan"`` (血战到底) or ``"xueliu"`` (血流成河); ``wins`` counts each
    seat's wins. :func:`scorer.views.round.round_json` gives its JSON, and
    :func:`scorer.views.round.round_text` its text.
    """

    ruleset: Ruleset
    base: int
    events: list[Event]
    status: dict[str, str]  # won | ready | not_ready | huazhu | in
    waits: dict[str, dict[str, Any]]  # ready players: best wait {tile, multiplier, amount}
    totals: dict[str, int]
    mode: str = "xuezhan"
    wins: dict[str, int] = field(default_factory=dict)


def _err(line: int, code: str, **params: Any) -> RoundError:
    """A round error on ``line`` (its message ``line N: …``): ``code`` of the catalogue."""
    return RoundError(code, at_line=line, **params)


def _on_line(line: int, e: MjscoreError, keep: bool = False) -> RoundError:
    """Another error (a hand's, a ruleset's) said on the round's ``line``: its code and
    parameters kept; with ``keep`` (a win line's scoring) its exit status and kind too."""
    err = RoundError(e.code, **{**e.params, "at_line": line})
    if keep:
        err.exit_code, err.kind = e.exit_code, e.kind
    return err


def _seat(word: str, line: int, what: str, of: str | None = None) -> str:
    """The seat a word names (E S W N, 东南西北); with ``of`` (the line's player) also
    上家/下家/对家 said from its place (``S kong 5p from 上家``: E)."""
    s = T.seat_from(word, of) if of is not None else T.seat_of(word)
    if s is None:
        if T.is_relative(word):  # the line's own seat: nobody to say it from
            raise _err(line, "seat.relative_here", value=word)
        if what:
            raise _err(line, "round.seat_after", what=what, word=word)
        raise _err(line, "round.seat", word=word)
    return s


def _kong_tile(word: str, line: int) -> int:
    """'5p' or '5555p' -> the tile; honors, 0 and other shapes are errors."""
    m = _KONG_TILE.fullmatch(word.strip())
    if m is None:
        raise _err(line, "round.kong_tile", word=word)
    return T.parse_tile(m.group(1) + m.group(2))


def best_wait(hand: str, seat: str, discarder: str, rs: Ruleset, base: int,
              options: tuple[tuple[str, str], ...], out: tuple[str, ...]
              ) -> tuple[str, int, int] | None:
    """The best winning tile of a 13-tile hand, as a discard win by ``discarder``.

    Returns (tile, 倍, amount the discarder would pay), or None when no tile wins (无叫):
    :func:`scorer.engine.ready.best_wait` with the context of a discard win.

    >>> best_wait("123m456m789m1122p", "E", "S", load_ruleset("sichuan"), 1, (), ())
    ('1p', 1, 1)
    """
    o = _best_wait(hand, rs, Context(seat=seat, discarder=discarder, base=base,
                                     options=options, out=out))
    if o is None or o.result is None:
        return None
    return T.name(o.tile), o.result.best.score, -o.result.payments[discarder]


def win_params(res: Result, base: int) -> dict[str, Any]:
    """The parameters of a win's transfers: the patterns counted, the 倍, what each payer
    pays, and the cap or 加底 that made it differ from 底 × 倍.

    >>> p = win_params(score("123m456m789m123p5p5p", "sichuan", Context(self_draw=True)), 1)
    >>> [x["id"] for x in p["patterns"]], p["multiplier"], p["each"]
    (['pinghu', 'zimo'], 2, 2)
    """
    each = max((-v for v in res.payments.values() if v < 0), default=0)
    out: dict[str, Any] = {
        "patterns": [{"id": h.pattern.id, "name": h.pattern.name, "name_en": h.pattern.name_en,
                      "value": h.value, "count": h.count} for h in res.best.hits],
        "multiplier": res.best.score, "each": each}
    cap = res.table.env.get("cap")
    capped = min(res.best.score, cap) if isinstance(cap, int) and cap > 0 else res.best.score
    if capped != res.best.score:
        out["capped"] = cap
    added = each // base - capped if base else 0
    if added > 0:
        out["added"] = added
    return out


class _Round:
    def __init__(self, rules: str) -> None:
        self.rs = load_ruleset(rules)
        self.base = 1
        self.options: tuple[tuple[str, str], ...] = ()
        self.events: list[Event] = []
        self.kongs: list[_Kong] = []
        self.winners: list[str] = []  # in order of first win
        self.wins: Counter[str] = Counter()
        self.won_at: dict[str, int] = {}
        self.hands: dict[str, tuple[int, str]] = {}  # seat -> (line, hand text) at the end
        self.shown: dict[str, Counter[int]] = {}  # seat -> its tiles as last shown
        self.aside: Counter[int] = Counter()  # 血流: the winning tiles set aside, shown
        self.started = False
        self.xueliu, self.cap = self.probe(0)

    # -- settings ------------------------------------------------------------------------
    def probe(self, n: int) -> tuple[bool, int | None]:
        """Check the ruleset and options on a plain win (so a bad option is named on its
        line, not at the first win); return (血流成河?, the cap or None). A ruleset without
        the option ``xueliu`` is not a Sichuan table (mcr, hangzhou …): refused by name."""
        if "xueliu" not in self.rs.options:
            raise RoundError("round.not_sichuan", ruleset=self.rs.id,
                             **({"at_line": n} if n else {}))
        try:
            res = score("123m456m789m123p5p5p", self.rs, Context(self_draw=True, base=self.base,
                                                                 options=self.options))
        except MjscoreError as e:
            raise _on_line(n, e) from None
        cap = res.table.env.get("cap")
        return bool(res.table.env.get("xueliu", False)), cap if isinstance(cap, int) else None

    def over(self) -> bool:
        return not self.xueliu and len(self.winners) >= 3

    def is_out(self, seat: str) -> bool:
        """Out of the round: a winner under 血战到底 (under 血流成河 nobody is)."""
        return not self.xueliu and seat in self.wins

    def out(self) -> tuple[str, ...]:
        return () if self.xueliu else tuple(self.winners)

    def never_won(self, exclude: str | None = None) -> list[str]:
        return [s for s in SEATS if s not in self.wins and s != exclude]

    def in_play(self, exclude: str | None = None) -> list[str]:
        """Who pays a kong or a self-draw: every other player still in."""
        return [s for s in SEATS if not self.is_out(s) and s != exclude]

    # -- lines ---------------------------------------------------------------------------
    def line(self, n: int, text: str) -> None:
        try:  # (＃ －－from　上家 typed full width: one character for one)
            words = shlex.split(T.narrow(text), comments=True)
        except ValueError:
            raise _err(n, "round.unreadable") from None
        if not words:
            return
        if words[0].lower() == "rules":
            return self.rules_line(n, words[1:])
        if len(words) < 2:
            raise _err(n, "round.event_form")
        seat = _seat(words[0], n, "")
        what = words[1].lower()
        if self.over():
            raise _err(n, "round.over", winners=list(self.winners))
        if what == "hand":
            return self.hand_line(n, seat, words[2:], text)
        if self.hands:
            raise _err(n, "round.after_hands", what=what)
        if what == "kong":
            return self.kong_line(n, seat, words[2:], text)
        if what == "win":
            return self.win_line(n, seat, words[2:], text)
        raise _err(n, "round.event", word=words[1])

    def rules_line(self, n: int, args: list[str]) -> None:
        if self.started:
            raise _err(n, "round.rules_late")
        if not args:
            raise _err(n, "round.rules_form")
        try:
            self.rs = load_ruleset(args[0])
        except MjscoreError as e:
            raise _on_line(n, e) from None
        i = 1
        opts = []
        while i < len(args):
            flag = args[i]
            if flag in ("--option", "--base") and i + 1 < len(args):
                val = args[i + 1]
                if flag == "--base":
                    if not is_whole(val) or whole(val) < 1:
                        raise _err(n, "round.base", value=shown(val))
                    self.base = whole(val)
                else:
                    k, eq, v = val.partition("=")
                    if not eq:
                        raise _err(n, "round.option_form", value=val)
                    opts.append((k.strip(), v.strip()))
                i += 2
            else:
                raise _err(n, "round.rules_flag", flag=flag)
        self.options = tuple(opts)
        self.xueliu, self.cap = self.probe(n)

    def check_in(self, n: int, seat: str, role: str) -> None:
        if self.is_out(seat):
            raise _err(n, "round.out", round_role=role, seat=seat, won=self.won_at[seat])

    def kong_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "kong")
        if not args:
            raise _err(n, "round.kong_form")
        tile = _kong_tile(args[0], n)
        how = args[1].lower() if len(args) > 1 else ""
        discarder = None
        if how == "from":
            if len(args) != 3:
                raise _err(n, "round.kong_from_form")
            discarder = _seat(args[2], n, "from", seat)
            if discarder == seat:
                raise _err(n, "round.kong_own")
            self.check_in(n, discarder, "discarder")
        elif how not in ("added", "concealed") or len(args) != 2:
            raise _err(n, "round.kong_how", word=args[0])
        for k in self.kongs:
            if k.tile == tile and not k.robbed:
                raise _err(n, "round.kong_twice", tile=T.name(tile), seat=k.seat,
                           kong_line=k.line)
        self.add_shown(n, seat, Counter({tile: 4}), keep=True)
        ev = Event(n, seat, "kong", text.strip(), detail={
            "kong": KONG_KINDS[how], "how": how, "tile": T.name(tile), "discarder": discarder})
        per = KONG_BASES[how] * self.base
        payers = [discarder] if discarder else self.in_play(seat)
        for p in payers:
            ev.transfers.append(Charge(p, seat, per, "kong", {"how": how,
                                                                 "tile": T.name(tile)}))
        self.kongs.append(_Kong(n, seat, tile, how, discarder, ev))
        self.events.append(ev)

    def add_shown(self, n: int, seat: str, tiles: Counter[int], keep: bool = False) -> None:
        """Record the tiles a player shows (``keep``: a kong, beside those shown before, the
        copies it held becoming the kong; else in their place); no tile may be held more
        than four times across the table."""
        mine = Counter(self.shown.get(seat, Counter())) if keep else Counter()
        for t, c in tiles.items():
            mine[t] = max(mine[t], c) if keep else mine[t] + c
        if not keep:
            for k in self.kongs:
                if k.seat == seat and not k.robbed and mine[k.tile] < 4:
                    raise _err(n, "round.kong_missing", seat=seat, tile=T.name(k.tile),
                               kong_line=k.line, n=mine[k.tile])
        for t, c in mine.items():
            others = sum(v[t] for s, v in self.shown.items() if s != seat) + self.aside[t]
            if c + others > 4:
                raise _err(n, "round.copies", tile=T.name(t), seat=seat, n=c, others=others)
        self.shown[seat] = mine

    def win_flags(self, n: int, seat: str, flags: list[str]) -> dict[str, Any]:
        kw: dict[str, Any] = {}
        i = 0
        while i < len(flags):
            f = flags[i]
            if f in BOOL_FLAGS:
                kw[BOOL_FLAGS[f]] = True
                i += 1
            elif f == "--from" and i + 1 < len(flags):
                kw["discarder"] = _seat(flags[i + 1], n, "--from", seat)
                i += 2
            elif f in ("--seat", "--out"):
                raise _err(n, "round.win_seat_flag", flag=f)
            else:
                raise _err(n, "round.win_flag", flag=f, flags=list(BOOL_FLAGS))
        disc = kw.get("discarder")
        if disc is not None:
            self.check_in(n, disc, "discarder")
            if disc == seat:
                raise _err(n, "round.own_discard", seat=disc)
        return kw

    def last_kong(self, n: int, kw: dict[str, Any], seat: str) -> tuple[_Kong | None,
                                                                          _Kong | None]:
        """The kong a --robbing-kong win robs and the kong a --after-kong win follows."""
        disc = kw.get("discarder")
        last = self.kongs[-1] if self.kongs else None
        robbed = source = None
        if kw.get("robbing_kong"):
            robbed = last
            if robbed is None or not self.only_wins_since(robbed.event) or robbed.how != "added" \
                    or robbed.seat != disc:
                raise _err(n, "round.robbing")
        if kw.get("kong_draw") and (last is None or last.seat != seat or last.robbed
                                    or not self.only_wins_since(last.event, 0)):
            raise _err(n, "round.kong_draw", seat=seat)
        if kw.get("after_kong"):
            source = last
            if source is None or source.seat != disc or source.robbed \
                    or not self.only_wins_since(source.event):
                raise _err(n, "round.after_kong")
        return robbed, source

    def shares_tile(self, seat: str, disc: str | None, tile: int, robbed: _Kong | None
                    ) -> bool:
        """Is this win another winner of the tile the win just before it took (一炮多响, or
        a second player robbing the same 补杠)? The tile is then one physical tile, held
        once: consecutive win lines of other players on the same discarder's same tile
        share it (docs/rulings.md#sichuan-round)."""
        prev = self.events[-1] if self.events else None
        if prev is None or prev.kind != "win" or disc is None:
            return False
        if prev.detail["discarder"] != disc or prev.detail["tile"] != T.name(tile):
            return False
        if robbed is not None and prev.detail.get("robbed_line") != robbed.line:
            return False
        # the winners of that tile so far: prev and the shared wins before it
        i = len(self.events) - 1
        seats = {prev.seat}
        while i > 0 and self.events[i].detail.get("shared"):
            i -= 1
            seats.add(self.events[i].seat)
        return seat not in seats

    def win_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "winner")
        if not args:
            raise _err(n, "round.win_form")
        hand, flags = args[0], args[1:]
        kw = self.win_flags(n, seat, flags)
        disc = kw.get("discarder")
        robbed, source = self.last_kong(n, kw, seat)
        try:
            res = score(hand, self.rs, Context(seat=seat, base=self.base, options=self.options,
                                               out=self.out(), **kw))
        except MjscoreError as e:
            raise _on_line(n, e, keep=True) from None
        h = parse_hand(hand)
        if robbed is not None and h.winning != robbed.tile:
            raise _err(n, "round.robbed_tile", tile=T.name(robbed.tile))
        shared = self.shares_tile(seat, disc, h.winning, robbed)
        if robbed is not None and not robbed.robbed:
            robbed.robbed = True
            robbed.event.transfers.clear()
            robbed.event.detail["robbed"] = True
            self.shown[robbed.seat][robbed.tile] -= 1
        counts = h.physical_counts()
        if shared:  # the tile is the first winner's, already counted
            counts[h.winning] -= 1
        self.add_shown(n, seat, counts)
        if self.xueliu:
            # the winning tile is set aside, shown for the rest of the round; the winner
            # plays on, and its concealed tiles may change before it shows them again: only
            # its melds stay counted as its own
            self.aside[h.winning] += 0 if shared else 1
            self.shown[seat] = Counter(t for m in h.melds for t in m.tiles)
        ev = Event(n, seat, "win", text.strip(), detail={
            "hand": hand, "multiplier": res.best.score,
            "patterns": [{"id": x.pattern.id, "name": x.pattern.name,
                          "name_en": x.pattern.name_en, "value": x.value, "count": x.count}
                         for x in res.best.hits],
            "discarder": disc, "self_draw": res.table.self_draw, "tile": T.name(h.winning),
            "win": self.wins[seat] + 1})
        if shared:
            ev.detail["shared"] = True
        if robbed is not None:
            ev.detail["robbed_line"] = robbed.line
        params = win_params(res, self.base)
        for p, v in res.payments.items():
            if v < 0:
                ev.transfers.append(Charge(p, seat, -v, "win", params))
        if source is not None:
            income = sum(t.amount for t in source.event.transfers)
            source.passed_on = True
            if income:
                ev.transfers.append(Charge(disc or "", seat, income, "passed_on", {
                    "seat": disc, "tile": T.name(source.tile), "line": source.line}))
        self.events.append(ev)
        if seat not in self.wins:
            self.winners.append(seat)
            self.won_at[seat] = n
        self.wins[seat] += 1

    def only_wins_since(self, ev: Event, limit: int = 3) -> bool:
        """The events after ``ev`` are at most ``limit`` wins (the same discard or kong)."""
        i = self.events.index(ev)
        later = self.events[i + 1:]
        return len(later) <= limit and all(e.kind == "win" for e in later)

    def hand_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "player")
        if seat in self.wins:
            raise _err(n, "round.hand_winner", seat=seat, won=self.won_at[seat])
        if seat in self.hands:
            raise _err(n, "round.hand_twice", seat=seat, first=self.hands[seat][0])
        if len(args) != 1:
            raise _err(n, "round.hand_form")
        try:
            h = parse_hand(args[0])
        except MjscoreError as e:
            raise _on_line(n, e) from None
        counts = h.physical_counts()
        if any(t >= 27 for t in counts):
            raise _err(n, "round.honors")
        if any(len(set(m.tiles)) == 3 for m in h.melds):
            raise _err(n, "round.chows")
        size = sum(counts.values()) - h.kong_count
        if size != 13:
            raise _err(n, "round.hand_size", seat=seat, n=size)
        self.add_shown(n, seat, counts)
        self.hands[seat] = (n, args[0])
        self.events.append(Event(n, seat, "hand", text.strip(), detail={"hand": args[0]}))

    # -- the end -------------------------------------------------------------------------
    def finish(self, last_line: int) -> RoundResult:
        status = {s: ("won" if s in self.wins else "in") for s in SEATS}
        waits: dict[str, dict[str, Any]] = {}
        if not self.over():
            missing = [s for s in self.never_won() if s not in self.hands]
            if missing:
                raise _err(last_line + 1, "round.missing_hands", seats=missing)
            self.end_checks(status, waits)
        totals = {s: 0 for s in SEATS}
        for e in self.events:
            for t in e.transfers:
                totals[t.payer] -= t.amount
                totals[t.payee] += t.amount
        if sum(totals.values()) != 0:  # pragma: no cover - balanced by construction
            raise MjscoreError("round.unbalanced", totals=dict(totals))
        return RoundResult(self.rs, self.base, self.events, status, waits, totals,
                           "xueliu" if self.xueliu else "xuezhan",
                           {s: self.wins[s] for s in SEATS})

    def end_checks(self, status: dict[str, str], waits: dict[str, dict[str, Any]]) -> None:
        """查花猪, 查大叫 and 退税, among the players who never won (the only ones still in
        under 血战到底; under 血流成河 a winner is neither checked nor paid by them)."""
        left = self.never_won()
        for s in left:
            text = self.hands[s][1]
            suits = {T.SUITS[t // 9] for t in parse_hand(text).physical_counts()}
            if len(suits) == 3:
                status[s] = "huazhu"
                continue
            disc = next(p for p in SEATS if p != s and not self.is_out(p))
            w = best_wait(text, s, disc, self.rs, self.base, self.options, self.out())
            if w is None:
                status[s] = "not_ready"
            else:
                status[s] = "ready"
                waits[s] = {"tile": w[0], "multiplier": w[1], "amount": w[2]}
        pig = (self.cap or HUAZHU_DEFAULT) * self.base
        ev = Event(0, "", "chahuazhu", "查花猪")
        for s in left:
            if status[s] == "huazhu":
                for p in left:
                    if p != s and status[p] != "huazhu":
                        ev.transfers.append(Charge(s, p, pig, "huazhu", {"seat": s}))
        ev2 = Event(0, "", "chadajiao", "查大叫")
        for s in left:
            if status[s] != "not_ready":
                continue
            for r in left:
                if status[r] == "ready":
                    wr = waits[r]
                    ev2.transfers.append(Charge(s, r, wr["amount"], "not_ready", {
                        "seat": r, "tile": wr["tile"], "multiplier": wr["multiplier"]}))
        ev3 = Event(0, "", "tuishui", "退税")
        for k in self.kongs:
            if status[k.seat] in ("not_ready", "huazhu") and not k.robbed and not k.passed_on:
                for t in k.event.transfers:
                    ev3.transfers.append(Charge(k.seat, t.payer, t.amount, "refund", {
                        "seat": k.seat, "tile": T.name(k.tile), "line": k.line}))
        self.events += [e for e in (ev, ev2, ev3) if e.transfers]


def settle_round(text: str, rules: str = "sichuan") -> RoundResult:
    """Settle a round file's text; raise :class:`RoundError` (``line N: …``) on a bad line.

    >>> r = settle_round(EXAMPLE)
    >>> r.status["N"], r.totals
    ('huazhu', {'E': 22, 'S': 12, 'W': 14, 'N': -48})
    """
    r = _Round(rules)
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        r.line(n, line)
    if not r.started:
        raise _err(len(lines) or 1, "round.empty")
    return r.finish(len(lines))
