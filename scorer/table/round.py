"""The settlement of one Sichuan 血战到底 round, from its events in order (pure, no I/O).

A round file has one event a line (``#`` starts a comment, blank lines are skipped)::

    rules sichuan --option cap=16        # optional, before any event: ruleset, options, --base
    S kong 5p from E                     # 直杠: S claims E's discarded 5p for a kong
    W kong 7s added                      # 补杠: W adds the drawn fourth 7s to a claimed pung
    N kong 2m concealed                  # 暗杠
    S win [5555p,3]123m789m11m23m4m --from N      # a win: hand and flags as for `score`
    W win [7777s,2]456s789s22s23m1m --from N      # another win on the same discard: 一炮多响
    E hand 123m456m789m1155p             # at the end, each player still in: its 13 tiles

:func:`settle_round` reads the text and returns a :class:`RoundResult`: every event with
who paid whom and why, the end-of-round checks (查花猪, 查大叫, 退税), the status of each
player and the per-seat totals, which always sum to zero.
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import field
from typing import Any

from ..engine.context import Context
from ..engine.ready import best_wait as _best_wait
from ..engine.scoring import Result, score
from ..errors import MjscoreError
from ..model import tiles as T
from ..model.notation import parse_hand
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


class RoundError(MjscoreError):
    """A round file that cannot be settled; the message starts with ``line N:``."""

    kind = "round"
    exit_code = 2


@record(frozen=True)
class Transfer:
    """One payment: ``payer`` pays ``payee`` ``amount`` points, for a reason in zh and en."""

    payer: str
    payee: str
    amount: int
    why: str
    why_en: str

    def reason(self, lang: str) -> str:
        """The reason in ``lang`` ('zh' or 'en').

        >>> Transfer("E", "S", 2, "直杠", "exposed kong").reason("en")
        'exposed kong'
        """
        return self.why if lang == "zh" else self.why_en


@record
class Event:
    """A line of the round (kong, win, end hand) or an end-of-round check (line 0)."""

    line: int
    seat: str
    kind: str  # kong | win | hand | chahuazhu | chadajiao | tuishui
    text: str
    transfers: list[Transfer] = field(default_factory=list)
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
    """The settled round: events in order, each player's status, totals (zero-sum)."""

    ruleset: Ruleset
    base: int
    events: list[Event]
    status: dict[str, str]  # won | ready | not_ready | huazhu | in
    waits: dict[str, dict[str, Any]]  # ready players: best wait {tile, multiplier, amount}
    totals: dict[str, int]

    def to_json(self, lang: str = "zh") -> dict[str, Any]:
        """The JSON form (README: "Round JSON"); reasons in ``lang``.

        >>> settle_round(EXAMPLE).to_json()["totals"]
        {'E': 22, 'S': 12, 'W': 14, 'N': -48}
        """
        return {
            "ruleset": self.ruleset.id,
            "base": self.base,
            "events": [{"line": e.line or None, "seat": e.seat, "kind": e.kind, "text": e.text,
                        **e.detail,
                        "payments": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                                      "why": t.reason(lang)} for t in e.transfers]}
                       for e in self.events],
            "players": {s: {"status": self.status[s], "wait": self.waits.get(s)}
                        for s in SEATS},
            "totals": dict(self.totals),
            "zero_sum": sum(self.totals.values()) == 0,
        }


def _err(line: int, message: str) -> RoundError:
    return RoundError(f"line {line}: {message}")


def _seat(word: str, line: int, what: str) -> str:
    s = word.strip().upper()
    if s not in SEATS:
        raise _err(line, f"{what} '{word}': a seat is one of E S W N")
    return s


def _kong_tile(word: str, line: int) -> int:
    """'5p' or '5555p' -> the tile; honors and other shapes are errors."""
    w = word.strip()
    if len(w) >= 2 and w[-1] in "mpswbt" and w[:-1].isdigit() and len(set(w[:-1])) == 1 \
            and len(w) - 1 in (1, 4):
        t = T.parse_tile(w[0] + w[-1])
        if t < 27:
            return t
    raise _err(line, f"kong '{word}': write the kong's tile, e.g. 5p or 5555p (suited tiles "
                     "only in Sichuan)")


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


def _chain(res: Result, lang: str) -> str:
    hits = res.best.hits
    parts = []
    for h in hits:
        nm = h.pattern.name if lang == "zh" else h.pattern.name_en
        parts.append(f"{nm} {h.value}" + (f"^{h.count}" if h.count > 1 else ""))
    unit = "倍" if lang == "zh" else "x"
    return " × ".join(parts) + f" = {res.best.score} {unit}"


class _Round:
    def __init__(self, rules: str) -> None:
        self.rs = load_ruleset(rules)
        self.base = 1
        self.options: tuple[tuple[str, str], ...] = ()
        self.events: list[Event] = []
        self.kongs: list[_Kong] = []
        self.winners: list[str] = []
        self.won_at: dict[str, int] = {}
        self.hands: dict[str, tuple[int, str]] = {}  # seat -> (line, hand text) at the end
        self.shown: dict[str, Counter[int]] = {}  # seat -> its tiles as last shown
        self.started = False
        self.last_event: Event | None = None

    # -- lines ---------------------------------------------------------------------------
    def line(self, n: int, text: str) -> None:
        try:
            words = shlex.split(text, comments=True)
        except ValueError as e:
            raise _err(n, f"cannot read the line: {e}") from None
        if not words:
            return
        if words[0].lower() == "rules":
            return self.rules_line(n, words[1:])
        if len(words) < 2:
            raise _err(n, "write SEAT kong|win|hand …, e.g. 'S kong 5p from E'")
        seat = _seat(words[0], n, "seat")
        what = words[1].lower()
        if len(self.winners) >= 3:
            raise _err(n, f"the round is over: {', '.join(self.winners)} have won (three "
                          "winners end a 血战 round; a fourth is impossible)")
        if what == "hand":
            return self.hand_line(n, seat, words[2:], text)
        if self.hands:
            raise _err(n, f"a {what} after the end-of-round hands: the 'hand' lines come last")
        if what == "kong":
            return self.kong_line(n, seat, words[2:], text)
        if what == "win":
            return self.win_line(n, seat, words[2:], text)
        raise _err(n, f"'{words[1]}': an event is kong, win or hand")

    def rules_line(self, n: int, args: list[str]) -> None:
        if self.started:
            raise _err(n, "'rules' must come before the first event")
        if not args:
            raise _err(n, "write 'rules ID|PATH [--option KEY=VALUE] [--base N]'")
        try:
            self.rs = load_ruleset(args[0])
        except MjscoreError as e:
            raise _err(n, e.message) from None
        i = 1
        opts = []
        while i < len(args):
            flag = args[i]
            if flag in ("--option", "--base") and i + 1 < len(args):
                val = args[i + 1]
                if flag == "--base":
                    if not val.isdigit() or int(val) < 1:
                        raise _err(n, f"--base {val}: a whole number, at least 1")
                    self.base = int(val)
                else:
                    k, eq, v = val.partition("=")
                    if not eq:
                        raise _err(n, f"--option {val}: write KEY=VALUE (e.g. cap=16)")
                    opts.append((k.strip(), v.strip()))
                i += 2
            else:
                raise _err(n, f"'{flag}': the rules line takes --option KEY=VALUE and --base N")
        self.options = tuple(opts)
        try:  # check the options now, on this line, rather than at the first win
            score("123m456m789m123p5p5p", self.rs, Context(self_draw=True, base=self.base,
                                                            options=self.options))
        except MjscoreError as e:
            raise _err(n, e.message) from None

    def out(self) -> tuple[str, ...]:
        return tuple(self.winners)

    def still_in(self, exclude: str | None = None) -> list[str]:
        return [s for s in SEATS if s not in self.winners and s != exclude]

    def check_in(self, n: int, seat: str, role: str) -> None:
        if seat in self.winners:
            raise _err(n, f"{role} {seat} won at line {self.won_at[seat]} and is out of the "
                          "round (血战到底: a winner takes no further part)")

    def kong_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "the kong's player")
        if not args:
            raise _err(n, "write 'SEAT kong TILE from SEAT|added|concealed'")
        tile = _kong_tile(args[0], n)
        how = args[1].lower() if len(args) > 1 else ""
        discarder = None
        if how == "from":
            if len(args) != 3:
                raise _err(n, "a 直杠 names its discarder: 'S kong 5p from E'")
            discarder = _seat(args[2], n, "from")
            if discarder == seat:
                raise _err(n, "a 直杠 is made on another player's discard; your own fourth "
                              "tile is 'added' (补杠) or 'concealed' (暗杠)")
            self.check_in(n, discarder, "the discarder")
        elif how not in ("added", "concealed") or len(args) != 2:
            raise _err(n, f"kong {args[0]}: say how — 'from SEAT' (直杠), 'added' (补杠) or "
                          "'concealed' (暗杠)")
        for k in self.kongs:
            if k.tile == tile and not k.robbed:
                raise _err(n, f"a kong of {T.name(tile)}: {k.seat} made one at line {k.line}, "
                              "and there are only four")
        self.add_shown(n, seat, Counter({tile: 4}), keep=True)
        ev = Event(n, seat, "kong", text.strip(), detail={
            "kong": KONG_KINDS[how], "how": how, "tile": T.name(tile), "discarder": discarder})
        per = KONG_BASES[how] * self.base
        payers = [discarder] if discarder else self.still_in(seat)
        for p in payers:
            ev.transfers.append(Transfer(p, seat, per, f"{KONG_KINDS[how]} {T.name(tile)}",
                                         f"{'exposed' if how == 'from' else how} kong "
                                         f"{T.name(tile)}"))
        self.kongs.append(_Kong(n, seat, tile, how, discarder, ev))
        self.events.append(ev)
        self.last_event = ev

    def add_shown(self, n: int, seat: str, tiles: Counter[int], keep: bool = False) -> None:
        """Record the tiles a player shows; no tile may be held more than four times."""
        mine = Counter(self.shown.get(seat, Counter())) if keep else Counter()
        mine.update(tiles)
        if not keep:
            for k in self.kongs:
                if k.seat == seat and not k.robbed and mine[k.tile] < 4:
                    raise _err(n, f"{seat} made a kong of {T.name(k.tile)} at line {k.line}, "
                                  f"but this hand holds {mine[k.tile]} {T.name(k.tile)}")
        for t, c in mine.items():
            others = sum(v[t] for s, v in self.shown.items() if s != seat)
            if c + others > 4:
                raise _err(n, f"{T.name(t)}: {seat} would hold {c} while the others show "
                              f"{others}; a tile has four copies")
        self.shown[seat] = mine

    def win_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "the winner")
        if not args:
            raise _err(n, "write 'SEAT win HAND --from SEAT|--self-draw [flags]'")
        hand, flags = args[0], args[1:]
        kw: dict[str, Any] = {}
        i = 0
        while i < len(flags):
            f = flags[i]
            if f in BOOL_FLAGS:
                kw[BOOL_FLAGS[f]] = True
                i += 1
            elif f == "--from" and i + 1 < len(flags):
                kw["discarder"] = _seat(flags[i + 1], n, "--from")
                i += 2
            elif f in ("--seat", "--out"):
                raise _err(n, f"{f}: a round line gives the seat first, and the round knows "
                              "who is out")
            else:
                raise _err(n, f"'{f}': a win line takes --from SEAT, "
                              f"{', '.join(BOOL_FLAGS)}")
        disc = kw.get("discarder")
        if disc is not None:
            self.check_in(n, disc, "the discarder")
        robbed: _Kong | None = None
        if kw.get("robbing_kong"):
            robbed = self.kongs[-1] if self.kongs else None
            if robbed is None or not self.only_wins_since(robbed.event) or robbed.how != "added" \
                    or robbed.seat != disc:
                raise _err(n, "--robbing-kong: the line before (other winners of the same tile "
                              "aside) must be the 补杠 ('SEAT kong TILE added') of the --from "
                              "player")
        if kw.get("kong_draw"):
            k = self.kongs[-1] if self.kongs else None
            if k is None or k.seat != seat or k.robbed or not self.only_wins_since(k.event, 0):
                raise _err(n, f"--kong-draw: the line before must be {seat}'s own kong")
        source: _Kong | None = None
        if kw.get("after_kong"):
            source = self.kongs[-1] if self.kongs else None
            if source is None or source.seat != disc or source.robbed \
                    or not self.only_wins_since(source.event):
                raise _err(n, "--after-kong: the line before (other winners of the same "
                              "discard aside) must be the --from player's kong")
        try:
            res = score(hand, self.rs, Context(seat=seat, base=self.base, options=self.options,
                                               out=self.out(), **kw))
        except MjscoreError as e:
            err = _err(n, e.message)
            err.exit_code, err.kind = e.exit_code, e.kind
            raise err from None
        if robbed is not None and parse_hand(hand).winning != robbed.tile:
            raise _err(n, f"--robbing-kong: the winning tile is not the robbed "
                          f"{T.name(robbed.tile)}")
        if robbed is not None and not robbed.robbed:
            robbed.robbed = True
            robbed.event.transfers.clear()
            robbed.event.detail["robbed"] = True
            self.shown[robbed.seat][robbed.tile] -= 1
        h = parse_hand(hand)
        self.add_shown(n, seat, h.physical_counts())
        ev = Event(n, seat, "win", text.strip(), detail={
            "hand": hand, "multiplier": res.best.score,
            "patterns": [{"id": x.pattern.id, "name": x.pattern.name,
                          "name_en": x.pattern.name_en, "value": x.value, "count": x.count}
                         for x in res.best.hits],
            "discarder": disc, "self_draw": res.table.self_draw})
        self.last_event = ev
        for p, v in res.payments.items():
            if v < 0:
                ev.transfers.append(Transfer(p, seat, -v, "胡 " + _chain(res, "zh"),
                                             "win " + _chain(res, "en")))
        if source is not None:
            income = sum(t.amount for t in source.event.transfers)
            source.passed_on = True
            if income:
                ev.transfers.append(Transfer(
                    disc or "", seat, income,
                    f"呼叫转移: {disc} 的杠 {T.name(source.tile)} (第 {source.line} 行) 所得",
                    f"kong income passed on: {disc}'s kong {T.name(source.tile)} "
                    f"(line {source.line})"))
        self.events.append(ev)
        self.winners.append(seat)
        self.won_at[seat] = n

    def only_wins_since(self, ev: Event, limit: int = 3) -> bool:
        """The events after ``ev`` are at most ``limit`` wins (the same discard or kong)."""
        i = self.events.index(ev)
        later = self.events[i + 1:]
        return len(later) <= limit and all(e.kind == "win" for e in later)

    def hand_line(self, n: int, seat: str, args: list[str], text: str) -> None:
        self.started = True
        self.check_in(n, seat, "the player")
        if seat in self.hands:
            raise _err(n, f"{seat}'s hand is given twice (line {self.hands[seat][0]})")
        if len(args) != 1:
            raise _err(n, "write 'SEAT hand TILES' (its melds and 13 tiles, no spaces)")
        try:
            h = parse_hand(args[0])
        except MjscoreError as e:
            raise _err(n, e.message) from None
        counts = h.physical_counts()
        if any(t >= 27 for t in counts):
            raise _err(n, "Sichuan plays 108 tiles (m p s only): honor tiles are not in play")
        if any(len(set(m.tiles)) == 3 for m in h.melds):
            raise _err(n, "Sichuan has no chows (不能吃): a claimed chow meld cannot be held")
        size = sum(counts.values()) - h.kong_count
        if size != 13:
            raise _err(n, f"{seat}'s hand has {size} tiles (kongs counted as three); a hand "
                          "waiting at the end holds 13")
        self.add_shown(n, seat, counts)
        self.hands[seat] = (n, args[0])
        self.events.append(Event(n, seat, "hand", text.strip(), detail={"hand": args[0]}))

    # -- the end -------------------------------------------------------------------------
    def finish(self, last_line: int) -> RoundResult:
        status = {s: ("won" if s in self.winners else "in") for s in SEATS}
        waits: dict[str, dict[str, Any]] = {}
        if len(self.winners) < 3:
            missing = [s for s in self.still_in() if s not in self.hands]
            if missing:
                raise _err(last_line + 1, f"end of the round: no hand for "
                           f"{', '.join(missing)}; every player still in needs a "
                           f"'SEAT hand TILES' line (查叫)")
            self.end_checks(status, waits)
        totals = {s: 0 for s in SEATS}
        for e in self.events:
            for t in e.transfers:
                totals[t.payer] -= t.amount
                totals[t.payee] += t.amount
        if sum(totals.values()) != 0:  # pragma: no cover - balanced by construction
            raise MjscoreError(f"round totals do not sum to zero: {totals}")
        return RoundResult(self.rs, self.base, self.events, status, waits, totals)

    def end_checks(self, status: dict[str, str], waits: dict[str, dict[str, Any]]) -> None:
        left = self.still_in()
        for s in left:
            text = self.hands[s][1]
            suits = {T.SUITS[t // 9] for t in parse_hand(text).physical_counts()}
            if len(suits) == 3:
                status[s] = "huazhu"
                continue
            disc = next(p for p in left if p != s)
            w = best_wait(text, s, disc, self.rs, self.base, self.options, self.out())
            if w is None:
                status[s] = "not_ready"
            else:
                status[s] = "ready"
                waits[s] = {"tile": w[0], "multiplier": w[1], "amount": w[2]}
        cap = dict(self.options).get("cap", str(self.rs.options["cap"].default)
                                     if "cap" in self.rs.options else "none")
        pig = (int(cap) if cap not in (None, "none", "None") else HUAZHU_DEFAULT) * self.base
        ev = Event(0, "", "chahuazhu", "查花猪")
        for s in left:
            if status[s] == "huazhu":
                for p in left:
                    if p != s and status[p] != "huazhu":
                        ev.transfers.append(Transfer(s, p, pig, f"查花猪: {s} 是花猪",
                                                     f"flower pig: {s} holds three suits"))
        ev2 = Event(0, "", "chadajiao", "查大叫")
        for s in left:
            if status[s] != "not_ready":
                continue
            for r in left:
                if status[r] == "ready":
                    wr = waits[r]
                    ev2.transfers.append(Transfer(
                        s, r, wr["amount"], f"查大叫: {r} 听 {wr['tile']} {wr['multiplier']} 倍",
                        f"not ready: {r} waits on {wr['tile']}, {wr['multiplier']}x"))
        ev3 = Event(0, "", "tuishui", "退税")
        for k in self.kongs:
            if status[k.seat] in ("not_ready", "huazhu") and not k.robbed and not k.passed_on:
                for t in k.event.transfers:
                    ev3.transfers.append(Transfer(
                        k.seat, t.payer, t.amount,
                        f"退税: {k.seat} 的杠 {T.name(k.tile)} (第 {k.line} 行)",
                        f"kong refund: {k.seat}'s kong {T.name(k.tile)} (line {k.line})"))
        self.events += [e for e in (ev, ev2, ev3) if e.transfers]


def settle_round(text: str, rules: str = "sichuan") -> RoundResult:
    """Settle a round file's text; raise :class:`RoundError` (``line N: …``) on a bad line.

    >>> settle_round(EXAMPLE).status["N"]
    'huazhu'
    """
    r = _Round(rules)
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        r.line(n, line)
    if not r.started:
        raise _err(len(lines) or 1, "the round has no events (kong, win or hand lines)")
    return r.finish(len(lines))


def round_text(result: RoundResult, lang: str = "zh") -> str:
    """The settlement as text: each event with its payments, then the totals.

    >>> print(round_text(settle_round(EXAMPLE), "en").splitlines()[-1])
    total  E +22  S +12  W +14  N -48
    """
    rs = result.ruleset
    name = rs.name if lang == "zh" else rs.name_en
    out = [f"{name} — {'底' if lang == 'zh' else 'base'} {result.base}"]
    labels = {"chahuazhu": ("查花猪", "flower pigs"), "chadajiao": ("查大叫", "not-ready check"),
              "tuishui": ("退税", "kong refunds")}
    for e in result.events:
        if e.line:
            head = f"line {e.line:>3}  {e.text}"
        else:
            zh, en = labels[e.kind]
            head = f"end       {zh if lang == 'zh' else en}"
        if e.detail.get("robbed"):
            head += "   (抢杠: no payment)" if lang == "en" else "   (被抢杠，不收钱)"
        out.append(head)
        for t in e.transfers:
            out.append(f"          {t.payer} → {t.payee} {t.amount:>5}   {t.reason(lang)}")
    st = {"won": ("已胡", "won"), "ready": ("有叫", "ready"), "not_ready": ("无叫", "not ready"),
          "huazhu": ("花猪", "flower pig"), "in": ("—", "—")}
    for s in SEATS:
        w = result.waits.get(s)
        extra = f" {w['tile']} {w['multiplier']}" if w else ""
        out.append(f"{s}: {st[result.status[s]][0 if lang == 'zh' else 1]}{extra}")
    out.append("total  " + "  ".join(f"{s} {v:+d}" for s, v in result.totals.items()))
    return "\n".join(out)
