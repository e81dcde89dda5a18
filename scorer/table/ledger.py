"""The evening's ledger: hands' payments in, totals per player and a settlement out.

Pure functions and values, no I/O. A record is one scored hand: a
:class:`scorer.lines.records.Record`, or a plain dict of the ``score --json`` shape
(``{"payments": {"E": .., "S": .., "W": .., "N": ..}}``, optionally ``"winner"``,
``"line"`` and ``"players"``). Seats rotate as the deal passes, so a seat is not
a person: give each record the names of who sat where (``{"E": "Ann", ...}``,
:func:`rotate` moves them on by one deal) and the payments are booked to names.
Without names the totals are per seat, and the result says so (``by == "seat"``).

    >>> seating = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}
    >>> hands = [{"line": 1, "winner": "E", "payments": {"E": 12, "S": -4, "W": -4, "N": -4}},
    ...          {"line": 2, "error": {"kind": "notation", "message": "position 3: ..."}},
    ...          {"line": 3, "winner": "S", "payments": {"E": -16, "S": 32, "W": -8, "N": -8}}]
    >>> ledger = book(hands, [seating, seating, rotate(seating)])
    >>> t = ledger.totals(stake="0.5")
    >>> t.by, t.hands, t.failed
    ('player', 2, (2,))
    >>> for r in t.rows:
    ...     print(r.name, decimal_text(r.won), decimal_text(r.lost), decimal_text(r.net), r.hands_won)
    Ann 6 4 2 1
    Bo 0 10 -10 0
    Cy 16 2 14 1
    Di 0 6 -6 0
    >>> [(x.payer, x.payee, decimal_text(x.amount)) for x in t.transfers]
    [('Bo', 'Cy', '10'), ('Di', 'Cy', '4'), ('Di', 'Ann', '2')]

By hand 3 the deal had passed once: Bo sat E and paid 16, Cy won 32 as S, Ann paid 8
as N. Ann won 12 and paid 8 points, at 0.5 a point 6 and 4.

**Money.** The ledger keeps whole points; :meth:`Ledger.totals` multiplies every
amount by ``stake`` (money per point: ``2``, ``"0.5"``, ``Decimal("0.25")``). The
stake must be a terminating decimal (``1/3`` is refused), so every amount is an
exact decimal: nothing is ever rounded, and the transfers sum to the nets exactly.

**Settlement.** :func:`settle` returns transfers (payer, payee, amount > 0) after
which every net is zero. Guaranteed: at most k − 1 transfers for k players whose
net is not zero (so at most players − 1). With up to :data:`EXACT_LIMIT` such
players the count is also the fewest possible; beyond that it is greedy and
may use more than the fewest (finding the fewest is NP-hard in general).

**Merging.** ``a.merge(b)`` is the ledger of a's records followed by b's; it is
associative with :class:`Ledger` ``()`` as identity, so partial ledgers of a file's
chunks can be reduced in any tree shape (as a Dask or Spark reduction does).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Union

from ..errors import ContextError
from ..model.numbers import typed
from ..model.tiles import SEATS, is_relative, narrow, seat_of
from ..record import record

EXACT_LIMIT = 12  # players with a nonzero net for which settle() searches the fewest transfers
MAX_NAME = 64
MAX_STAKE_EXPONENT = 30  # a stake such as 1e999999999 would build a gigantic integer

Stake = Union[int, str, Decimal, Fraction, float]  # noqa: UP007 (a runtime alias on 3.10)
Seating = Mapping[str, str]


class LedgerError(ContextError):
    """A record, a seating or a stake the ledger cannot book; ``line`` is the record's line.

    >>> str(LedgerError("ledger.pay_sum", line=7, total="+2"))
    'line 7: payments do not sum to zero (+2)'
    """

    def __init__(self, code: str, line: int | None = None, flag: str | None = None,
                 **params: Any) -> None:
        super().__init__(code, flag, **params, **({"at_line": line} if line else {}))
        self.line = line


@record(frozen=True)
class Entry:
    """One player's (or seat's) booked points: all whole numbers, ``lost`` as a positive count."""

    won: int = 0
    lost: int = 0
    hands_won: int = 0
    penalties: int = 0  # false wins booked against this player

    def __add__(self, other: Entry) -> Entry:
        return Entry(self.won + other.won, self.lost + other.lost, self.hands_won + other.hands_won,
                     self.penalties + other.penalties)


@record(frozen=True)
class Row:
    """A line of the totals: money won and lost (both ≥ 0), ``net = won − lost``, hands won,
    false wins booked against the player (penalties and adjustments count in the money)."""

    name: str
    won: Fraction
    lost: Fraction
    net: Fraction
    hands_won: int
    penalties: int = 0


@record(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (> 0)."""

    payer: str
    payee: str
    amount: Fraction


@record(frozen=True)
class Totals:
    """The evening: ``rows`` in order of first appearance (seats in E S W N order),
    ``transfers`` that settle it, and which lines were not booked (``failed``), were
    disputes booked on their side A (``disputed``; line 0 where a record had none), or
    were penalties and adjustments (``penalties``, ``adjustments``: not hands, counted in
    the money). ``by`` is ``"player"`` or ``"seat"`` (``""`` for an empty ledger)."""

    by: str
    stake: Fraction
    hands: int
    rows: tuple[Row, ...]
    transfers: tuple[Transfer, ...]
    failed: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    adjustments: tuple[int, ...] = ()


@record(frozen=True)
class Ledger:
    """Booked points per player (or per seat), immutable: :meth:`add` and :meth:`merge`
    return a new ledger.

    >>> a = Ledger().add({"payments": {"E": 6, "S": -2, "W": -2, "N": -2}})
    >>> b = Ledger().add({"payments": {"E": -4, "S": 6, "W": -2}})
    >>> sorted((x.payer, x.payee, int(x.amount)) for x in a.merge(b).totals().transfers)
    [('N', 'E', 2), ('W', 'S', 4)]
    """

    by: str = ""
    entries: Mapping[str, Entry] = field(default_factory=dict)
    hands: int = 0
    failed: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    adjustments: tuple[int, ...] = ()

    def add(self, record: Any, players: Seating | str | None = None) -> Ledger:
        """This ledger with one more record booked; returns a new :class:`Ledger`.

        ``players`` names who sat where for this hand (a mapping or ``"E=Ann,S=Bo,..."``);
        without it, the record's own ``"players"`` field if it has one, else the seats.
        A record with an ``"error"`` is not booked: its line joins ``failed``. A record
        with ``"skip"`` (a blank or comment line) is ignored. A dispute record
        (``{"a": {...}, "b": {...}}``) books side A, the table's ruleset, and its line
        joins ``disputed`` (if A has no result, the line joins ``failed``). A penalty or an
        adjustment (``"kind": "penalty"`` / ``"adjust"``, :mod:`scorer.table.penalty`) is
        booked in the points but is not a hand: its line joins ``penalties`` or
        ``adjustments``. Raises :class:`LedgerError` for a record it cannot read.

        >>> Ledger().add({"line": 4, "error": {"message": "bad"}}).failed
        (4,)
        """
        b = Builder(self)
        b.add(record, players)
        return b.ledger()

    def merge(self, other: Ledger) -> Ledger:
        """The ledger of this one's records followed by ``other``'s; returns a new ledger.

        Associative, with ``Ledger()`` as identity (rows keep the order of first appearance).

        >>> a = Ledger().add({"payments": {"E": 2, "S": -2}}, {"E": "Ann", "S": "Bo"})
        >>> b = Ledger().add({"payments": {"E": 3, "S": -3}}, {"E": "Bo", "S": "Cy"})
        >>> {n: e.won - e.lost for n, e in a.merge(b).entries.items()}
        {'Ann': 2, 'Bo': 1, 'Cy': -3}
        """
        if self.by and other.by and self.by != other.by:
            raise LedgerError("ledger.merge_mixed", flag="--players")
        entries = dict(self.entries)
        for name, e in other.entries.items():
            entries[name] = entries.get(name, Entry()) + e
        return Ledger(self.by or other.by, entries, self.hands + other.hands,
                      (*self.failed, *other.failed), (*self.disputed, *other.disputed),
                      (*self.penalties, *other.penalties),
                      (*self.adjustments, *other.adjustments))

    def totals(self, stake: Stake = 1) -> Totals:
        """The totals in money (points × ``stake``) and the transfers that settle them.

        >>> t = Ledger().add({"payments": {"E": 6, "S": -2, "W": -2, "N": -2}}).totals(stake=2)
        >>> [(r.name, int(r.net)) for r in t.rows], len(t.transfers)
        ([('E', 12), ('S', -4), ('W', -4), ('N', -4)], 3)
        """
        k = parse_stake(stake)
        names = list(self.entries)
        if self.by == "seat":  # seats in table order, whatever hand first touched them
            names = [s for s in SEATS if s in self.entries]
        rows = tuple(Row(n, self.entries[n].won * k, self.entries[n].lost * k,
                         (self.entries[n].won - self.entries[n].lost) * k,
                         self.entries[n].hands_won, self.entries[n].penalties) for n in names)
        transfers = settle({r.name: r.net for r in rows})
        return Totals(self.by, k, self.hands, rows, tuple(transfers), self.failed, self.disputed,
                      self.penalties, self.adjustments)


def book(records: Iterable[Any], players: Iterable[Seating | str | None] | Seating | str | None
         = None) -> Ledger:
    """The ledger of ``records``; ``players`` is one seating for all of them, or one per
    record (an iterable of mappings, in step with the records). Returns a :class:`Ledger`.

    >>> book([{"payments": {"E": -8, "S": 8}}], {"E": "Ann", "S": "Bo"}).totals().rows[1].net
    Fraction(8, 1)
    """
    b = Builder(Ledger())
    if players is None or isinstance(players, (str, Mapping)):
        for rec in records:
            b.add(rec, players)
        return b.ledger()
    seatings = iter(players)
    for rec in records:
        seating = next(seatings, _MISSING)
        if seating is _MISSING:
            raise LedgerError("ledger.few_seatings", _data_of(rec)[1], "--players")
        b.add(rec, seating)  # type: ignore[arg-type]
    return b.ledger()


class Builder:
    """Books records in place, one at a time (a ledger of n records in O(n), not a copy per
    record, as :meth:`Ledger.add` makes): for a stream of records read as they arrive.
    :meth:`ledger` returns the :class:`Ledger` booked so far.

    >>> b = Builder()
    >>> b.add({"line": 1, "payments": {"E": 2, "S": -2}}, "Ann,Bo")
    >>> b.add({"line": 2, "error": {"message": "bad"}}, None)
    >>> b.ledger().hands, b.ledger().failed, dict(b.ledger().entries)["Bo"].lost
    (1, (2,), 2)
    """

    def __init__(self, start: Ledger | None = None) -> None:
        start = start if start is not None else Ledger()
        self.by = start.by
        self.entries: dict[str, Entry] = dict(start.entries)
        self.hands = start.hands
        self.failed = list(start.failed)
        self.disputed = list(start.disputed)
        self.penalties = list(start.penalties)
        self.adjustments = list(start.adjustments)

    def ledger(self) -> Ledger:
        """The ledger of the records booked so far."""
        return Ledger(self.by, self.entries, self.hands, tuple(self.failed), tuple(self.disputed),
                      tuple(self.penalties), tuple(self.adjustments))

    def add(self, record: Any, players: Seating | str | None) -> None:
        """Book one record (see :meth:`Ledger.add`); raises :class:`LedgerError` and books
        nothing if the record cannot be read."""
        data, line = _data_of(record)
        if data.get("skip"):
            return
        if "error" in data:
            self.failed.append(line or 0)
            return
        seating = players if players is not None else data.get("players")
        disputed = "payments" not in data and isinstance(data.get("a"), Mapping)
        if disputed and "error" in data["a"]:  # not a win under the table's own ruleset
            self.failed.append(line or 0)
            return
        if disputed:
            data = data["a"]
            seating = seating if seating is not None else data.get("players")
        pay = _payments(data, line)
        # a penalty (the page's records say "penalty" without a kind) or an adjustment
        extra = "penalty" if data.get("kind") == "penalty" or isinstance(
            data.get("penalty"), Mapping) else "adjust" if data.get("kind") == "adjust" else ""
        offender = data["penalty"].get("seat") if extra == "penalty" and isinstance(
            data.get("penalty"), Mapping) else None
        by = "seat" if seating is None else "player"
        if self.by and by != self.by:
            raise LedgerError("ledger.named_late" if by == "player" else "ledger.unnamed_late",
                              line, "--players")
        names = _seating(seating, line) if seating is not None else {s: s for s in SEATS}
        winners = set() if extra else _winners(data, pay, line)
        booked = []
        for seat, amount in pay.items():
            won = seat in winners
            if amount == 0 and not won:
                continue
            if seat not in names:
                raise LedgerError("ledger.winner_unnamed" if amount > 0 else
                                  "ledger.payer_unnamed", line, "--players", seat=seat,
                                  amount=abs(amount))
            booked.append((names[seat], Entry(max(amount, 0), max(-amount, 0), int(won),
                                              int(seat == offender))))
        # only a record read whole is booked: an error leaves the builder as it was
        for name, e in booked:
            self.entries[name] = self.entries.get(name, Entry()) + e
        self.by = by
        if extra == "penalty":
            self.penalties.append(line or 0)
        elif extra == "adjust":
            self.adjustments.append(line or 0)
        else:
            self.hands += 1
        if disputed:
            self.disputed.append(line or 0)


_Builder = Builder  # the name it had before it was public
_MISSING = object()


def combine(ledgers: Iterable[Ledger]) -> Ledger:
    """All ``ledgers`` merged in order; returns ``Ledger()`` for none.

    >>> combine([]).hands
    0
    """
    out = Ledger()
    for led in ledgers:
        out = out.merge(led)
    return out


def rotate(players: Seating, passes: int = 1) -> dict[str, str]:
    """The seating after the deal has passed ``passes`` times; returns a new mapping.

    The deal passes to the dealer's 下家: whoever sat S becomes E (the dealer), and
    the old dealer moves to the last seat. Seats not in ``players`` (a 3-player
    table) are left out of the turn.

    >>> rotate({"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"})
    {'E': 'Bo', 'S': 'Cy', 'W': 'Di', 'N': 'Ann'}
    """
    seats = [s for s in SEATS if s in players]
    n = len(seats)
    return {s: players[seats[(i + passes) % n]] for i, s in enumerate(seats)} if n else {}


def parse_players(spec: str, src: str = "--players") -> dict[str, str]:
    """Read a seating such as ``"E=Ann,S=Bo,W=Cy,N=Di"``, or names in seat order
    ``"Ann,Bo,Cy,Di"``; returns ``{seat: name}``. A mistake names its character position.
    Without a comma, spaces separate the seats (``"E=Ann S=Bo"``, as a comment line may
    write them); with one, a name may hold spaces (``"E=Mr Li,S=Bo"``). ``src`` says in
    an error how the seating was given (``--players``, ``# players``).

    >>> parse_players("E=Ann, S=Bo, W=Cy")
    {'E': 'Ann', 'S': 'Bo', 'W': 'Cy'}
    >>> parse_players("Ann Bo Cy Di")["N"]
    'Di'
    >>> parse_players("东=甲，南=乙")  # seat words and a Chinese input method's comma
    {'E': '甲', 'S': '乙'}
    >>> parse_players("E=Ann,X=Bo")
    Traceback (most recent call last):
    scorer.table.ledger.LedgerError: --players position 7: 'X' is not a seat (E S W N)
    """
    import re

    out: dict[str, str] = {}
    parts: list[tuple[int, str]] = []
    spec = narrow(spec)  # (one character for one: the positions are the typed ones)
    if "," not in spec and len(spec.split()) > 1:
        parts = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", spec)]
    else:
        pos = 1
        for part in spec.split(","):
            parts.append((pos, part))
            pos += len(part) + 1
    keyed = ["=" in p for _, p in parts]
    if any(keyed) and not all(keyed):
        raise _spec_error("players.mixed", src, parts[keyed.index(not keyed[0])][0])
    if len(parts) > len(SEATS):
        raise _spec_error("players.too_many", src, parts[len(SEATS)][0], n=len(SEATS))
    for i, (at, part) in enumerate(parts):
        if "=" in part:
            seat, name = part.split("=", 1)
            lead = len(seat) - len(seat.lstrip())
            seat = seat.strip()
            if is_relative(seat):  # 上家=Ann: a seating has nobody to say it from
                raise _spec_error("players.relative", src, at + lead, seat=seat)
            if seat_of(seat) is None:
                raise _spec_error("players.not_seat", src, at + lead, seat=seat)
            seat = str(seat_of(seat))
            if seat in out:
                raise _spec_error("players.seat_twice", src, at + lead, seat=seat)
            name_at = at + len(part.split("=", 1)[0]) + 1
        else:
            seat, name, name_at = SEATS[i], part, at
        out[seat] = _check_name(name, {"src": src, "at": name_at})
    _distinct(out, None, src)
    return out


def parse_stake(value: Stake) -> Fraction:
    """The stake as an exact positive fraction with a terminating decimal expansion.

    A float is read by its shortest repr (``0.1`` is one tenth, not the binary
    nearest); a string by :class:`decimal.Decimal`. Returns a :class:`Fraction`.

    >>> parse_stake("0.5"), parse_stake(2)
    (Fraction(1, 2), Fraction(2, 1))
    >>> parse_stake("1/3")
    Traceback (most recent call last):
    scorer.table.ledger.LedgerError: --stake '1/3': not a decimal number (like 2 or 0.5)
    """
    shown = repr(value) if not isinstance(value, str) else repr(value.strip())
    if isinstance(value, bool):
        raise LedgerError("stake.not_number", flag="--stake", value=shown)
    if isinstance(value, Fraction):
        frac = value
    else:
        # (a number as an input method types it, 0。5, read as its ASCII: model.numbers)
        text = repr(value) if isinstance(value, float) else typed(str(value).strip())
        if len(text) > 64:
            raise LedgerError("stake.too_long", flag="--stake", n=len(text), limit=64)
        try:
            if isinstance(value, str) and not (text.isascii() and "_" not in text):
                raise InvalidOperation  # a number is ASCII digits (Decimal reads '٣' and 1_0)
            dec = value if isinstance(value, Decimal) else Decimal(text)
        except InvalidOperation:
            raise LedgerError("stake.not_decimal", flag="--stake", value=shown) from None
        exp = dec.as_tuple().exponent
        if not dec.is_finite() or not isinstance(exp, int):
            raise LedgerError("stake.not_finite", flag="--stake", value=shown)
        if abs(exp) > MAX_STAKE_EXPONENT or dec.adjusted() > MAX_STAKE_EXPONENT:
            raise LedgerError("stake.range", flag="--stake", value=shown,
                              exp=MAX_STAKE_EXPONENT)
        frac = Fraction(dec)
    if frac <= 0:
        raise LedgerError("stake.not_positive", flag="--stake", value=shown)
    if _decimal_places(frac) is None:
        raise LedgerError("stake.not_exact", flag="--stake", value=shown)
    return frac


def decimal_text(x: Fraction | int) -> str:
    """An amount with a terminating decimal expansion, written exactly: no rounding.

    >>> decimal_text(Fraction(5, 2)), decimal_text(Fraction(-12)), decimal_text(Fraction(1, 8))
    ('2.5', '-12', '0.125')
    """
    x = Fraction(x)
    places = _decimal_places(x)
    if places is None:  # every ledger amount is points × a terminating stake
        raise ValueError(f"{x} has no terminating decimal expansion")
    if places == 0:
        return str(x.numerator)
    scaled = abs(x.numerator) * 10**places // x.denominator
    digits = str(scaled).rjust(places + 1, "0")
    return ("-" if x < 0 else "") + digits[:-places] + "." + digits[-places:]


def settle(nets: Mapping[str, Fraction | int]) -> list[Transfer]:
    """Transfers after which every net in ``nets`` is zero; returns a list of :class:`Transfer`.

    At most k − 1 transfers for k nonzero nets: each greedy step (the largest
    debtor pays the largest creditor the smaller of the two amounts) clears at
    least one of them, and the last clears both. With at most :data:`EXACT_LIMIT`
    nonzero nets the count is the fewest: k minus the most groups the players
    split into whose nets each sum to zero (a search over subsets, k·2^k steps),
    each group then settled greedily in its size − 1. With more, equal and
    opposite nets first settle pairwise, then greedy; the fewest is NP-hard.
    Groups come in the order of their first member in ``nets``; ties go to the
    earlier name. Raises :class:`LedgerError` if the nets do not sum to zero.

    >>> [(t.payer, t.payee, int(t.amount)) for t in settle({"A": 5, "B": -3, "C": 3, "D": -5})]
    [('D', 'A', 5), ('B', 'C', 3)]
    """
    order = {n: i for i, n in enumerate(nets)}
    fracs = [(n, Fraction(v)) for n, v in nets.items() if v != 0]
    total = sum((v for _, v in fracs), Fraction(0))
    if total != 0:
        raise LedgerError("ledger.nets", total=str(total))
    # Whole numbers over one denominator: the same transfers (scaling changes no choice),
    # and int arithmetic is many times faster than Fraction's.
    den = math.lcm(*(v.denominator for _, v in fracs)) if fracs else 1
    live = [(n, int(v * den)) for n, v in fracs]
    groups = _zero_sum_groups(live) if len(live) <= EXACT_LIMIT else _pairs_first(live)
    out: list[Transfer] = []
    for g in sorted(groups, key=lambda g: min(order[n] for n, _ in g)):
        out.extend(Transfer(a, b, Fraction(x, den)) for a, b, x in _greedy(g, order))
    return out


# ----------------------------------------------------------------------------- helpers
def _zero_sum_groups(live: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The most groups of ``live`` whose nets each sum to zero (a partition)."""
    k = len(live)
    full = (1 << k) - 1
    sums = [0] * (1 << k)
    best = [0] * (1 << k)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + live[low.bit_length() - 1][1]
        # best[mask]: the most zero-sum prefixes over orderings of mask; each ordering's
        # zero-sum prefixes cut it into zero-sum groups, and every partition is one ordering.
        best[mask] = max(best[mask ^ (1 << i)] for i in range(k) if mask >> i & 1) + (
            sums[mask] == 0)
    groups, mask, cut = [], full, full
    while mask:
        i = next(i for i in range(k) if mask >> i & 1 and
                 best[mask ^ (1 << i)] == best[mask] - (sums[mask] == 0))
        mask ^= 1 << i
        if sums[mask] == 0:  # a zero-sum prefix: the members removed since the last cut are a group
            groups.append([live[j] for j in range(k) if (cut & ~mask) >> j & 1])
            cut = mask
    return groups[::-1]


def _pairs_first(live: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Equal and opposite nets as pairs (each with the earliest one waiting), then everyone
    else as one group; linear in the number of players."""
    waiting: dict[int, deque[int]] = {}
    paired: dict[int, int] = {}
    for i, (_, v) in enumerate(live):
        match = waiting.get(-v)
        if match:
            paired[match.popleft()] = i
        else:
            waiting.setdefault(v, deque()).append(i)
    used = set(paired) | set(paired.values())
    groups = [[live[i], live[j]] for i, j in sorted(paired.items())]
    rest = [x for i, x in enumerate(live) if i not in used]
    return [*groups, rest] if rest else groups


def _greedy(group: list[tuple[str, int]], order: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """The largest debtor pays the largest creditor, until all are even (two heaps:
    n log n for n players, so a file naming many thousands of players stays quick)."""
    debtors = [(v, order[n], n) for n, v in group if v < 0]
    creditors = [(-v, order[n], n) for n, v in group if v > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    out = []
    while debtors and creditors:
        d, di, debtor = heapq.heappop(debtors)
        c, ci, creditor = heapq.heappop(creditors)
        amount = min(-d, -c)
        out.append((debtor, creditor, amount))
        if d + amount:
            heapq.heappush(debtors, (d + amount, di, debtor))
        if c + amount:
            heapq.heappush(creditors, (c + amount, ci, creditor))
    return out


def _decimal_places(x: Fraction) -> int | None:
    """How many decimal places ``x`` needs, or None if its expansion never ends."""
    d = x.denominator
    twos = (d & -d).bit_length() - 1
    d >>= twos
    fives = 0
    while d % 5 == 0:
        d //= 5
        fives += 1
    return max(twos, fives) if d == 1 else None


def _data_of(record: Any) -> tuple[Mapping[str, Any], int | None]:
    data = getattr(record, "data", record)  # a scorer.lines.records.Record carries its JSON in .data
    if not isinstance(data, Mapping):
        raise LedgerError("ledger.record_type", type=type(data).__name__)
    line = getattr(record, "line", None) if data is not record else None
    line = data.get("line", line) if line is None else line
    return data, line if isinstance(line, int) and not isinstance(line, bool) else None


def _payments(data: Mapping[str, Any], line: int | None) -> dict[str, int]:
    pay = data.get("payments")
    if not isinstance(pay, Mapping):
        raise LedgerError("ledger.no_payments", line, example='{"payments": {"E": ..}}')
    out: dict[str, int] = {}
    for seat, amount in pay.items():
        if seat not in SEATS:
            raise LedgerError("ledger.pay_seat", line, seat=seat)
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise LedgerError("ledger.pay_amount", line, seat=seat, amount=repr(amount))
        out[seat] = amount
    if sum(out.values()) != 0:
        raise LedgerError("ledger.pay_sum", line, total=f"{sum(out.values()):+d}")
    return out


def _winners(data: Mapping[str, Any], pay: Mapping[str, int], line: int | None) -> set[str]:
    winner = data.get("winner")
    if winner is None:  # a round's record (several winners) or a bare one: whoever gained
        return {s for s, v in pay.items() if v > 0}
    seats = [winner] if isinstance(winner, str) else winner
    if not isinstance(seats, Sequence) or not all(isinstance(s, str) and s in SEATS for s in seats):
        raise LedgerError("ledger.winner", line, winner=repr(winner))
    return set(seats)


def _seating(seating: Any, line: int | None) -> dict[str, str]:
    if isinstance(seating, str):
        try:
            return parse_players(seating)
        except LedgerError as e:
            raise at_line(e, line) from None
    if not isinstance(seating, Mapping):
        raise LedgerError("players.map_type", line, "--players", type=type(seating).__name__)
    out = {}
    for seat, name in seating.items():
        if seat not in SEATS:
            raise LedgerError("players.map_seat", line, "--players", seat=seat)
        out[seat] = _check_name(name, {"seat": seat}, line)
    _distinct(out, line)
    return out


def at_line(e: LedgerError, line: int | None, src: str | None = None) -> LedgerError:
    """``e`` again, said of the record or file line ``line`` (and, with ``src``, of the
    seating given that way: ``# players``); its code and other params unchanged.

    >>> str(at_line(LedgerError("players.twice", src="--players", name="A", first="E",
    ...                         second="S"), 4, "# players"))
    'line 4: # players: A sits at both E and S'
    """
    params = {k: v for k, v in e.params.items() if k not in ("flag", "at_line")}
    if src is not None and "src" in params:
        params["src"] = src
    return LedgerError(e.code, line, e.flag, **params)


def _check_name(name: Any, where: dict[str, Any], line: int | None = None) -> str:
    """The name stripped; ``where`` is ``{"src", "at"}`` (a seating written as text) or
    ``{"seat"}`` (a record's mapping)."""
    text = name.strip() if isinstance(name, str) else ""
    mapped = "seat" in where
    if not text:
        raise LedgerError("players.map_no_name" if mapped else "players.no_name", line,
                          "--players", **where)
    if len(text) > MAX_NAME or not text.isprintable():
        raise LedgerError("players.map_name_long" if mapped else "players.name_long", line,
                          "--players", limit=MAX_NAME, **where)
    return text


def _distinct(seating: Mapping[str, str], line: int | None, src: str = "players") -> None:
    seen: dict[str, str] = {}
    for seat, name in seating.items():
        if name in seen:
            raise LedgerError("players.twice", line, "--players", src=src, name=name,
                              first=seen[name], second=seat)
        seen[name] = seat


def _spec_error(code: str, src: str, position: int, **params: Any) -> LedgerError:
    return LedgerError(code, flag="--players", src=src, at=position, **params)
