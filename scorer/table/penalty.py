"""What a ledger books besides hands: a false win's penalty, and adjustments that sum to zero.

Pure functions returning ledger records (as :mod:`scorer.table.ledger` books them, beside
the records of scored hands): the evening's page books them through :func:`false_win` and
:func:`adjustment`, and a batch file writes them as lines that :func:`ledger_line` reads::

    penalty S            # a false win (诈胡/错和) by S: MCR, 10 to each other player
    penalty Bo 8         # by a name of the seating in force: 8 to each other player
    adjust E +5 S -5     # points moved between players; the amounts sum to zero
    adjust Ann +10 Bo -4 Cy -6

>>> false_win("S", ruleset=load_ruleset("mcr"))["payments"]
{'E': 10, 'S': -30, 'W': 10, 'N': 10}
>>> adjustment({"E": 5, "S": -5})["payments"]
{'E': 5, 'S': -5}

A penalty or an adjustment is not a hand: the totals count it in each player's points
(and a penalty in the offender's ``penalties``), not in ``hands`` or ``hands_won``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model.tiles import SEATS, is_relative, narrow, seat_of
from ..rules.load import load_ruleset
from ..rules.model import Ruleset
from ..rules.schema import MAX_FALSE_WIN
from .ledger import LedgerError

PENALTY, ADJUST = "penalty", "adjust"  # a line's first word, and its record's "kind"
KINDS = (PENALTY, ADJUST)
MAX_POINTS = 1_000_000_000  # points one adjustment may move to or from a player
_AMOUNT = re.compile(r"[+-]?[0-9]{1,10}")  # ASCII digits only: ５ or ٥ are refused


def false_win(offender: str, amount: int | None = None, ruleset: Ruleset | None = None,
              seats: Iterable[str] = SEATS) -> dict[str, Any]:
    """The record of a false win (诈胡/错和): the seat ``offender`` pays ``amount`` to each
    other seat of ``seats``. Without ``amount``, the ruleset's ``false_win`` (MCR: 10);
    a ruleset without one needs the amount. Raises :class:`LedgerError`.

    >>> false_win("E", 24)["payments"], false_win("E", 24)["penalty"]
    ({'E': -72, 'S': 24, 'W': 24, 'N': 24}, {'seat': 'E', 'amount': 24})
    """
    seats = [s for s in SEATS if s in set(seats)]
    if offender not in seats:
        raise LedgerError("penalty.offender", who=offender, seats=" ".join(seats))
    if amount is None:
        amount = ruleset.false_win if ruleset is not None else None
        if amount is None:
            if ruleset is not None:
                raise LedgerError("penalty.no_amount", who=offender, ruleset=ruleset.id)
            raise LedgerError("penalty.no_amount_rules", who=offender)
    if not isinstance(amount, int) or isinstance(amount, bool) or not \
            1 <= amount <= MAX_FALSE_WIN:
        raise LedgerError("penalty.amount", who=offender, amount=str(amount),
                          limit=f"{MAX_FALSE_WIN:,}")
    pay = {s: (amount if s != offender else -amount * (len(seats) - 1)) for s in seats}
    return {"kind": PENALTY, "payments": pay, "winner": [],
            "penalty": {"seat": offender, "amount": amount}}


def adjustment(amounts: Mapping[str, int]) -> dict[str, Any]:
    """The record of an adjustment: each seat of ``amounts`` receives (or, negative, pays)
    its amount; they must sum to zero. Raises :class:`LedgerError`.

    >>> adjustment({"S": -4, "E": 4})["payments"]
    {'E': 4, 'S': -4}
    >>> adjustment({"E": 5})
    Traceback (most recent call last):
    scorer.table.ledger.LedgerError: the adjustment sums to +5, not 0 (points only move)
    """
    for seat, v in amounts.items():
        if seat not in SEATS:
            raise LedgerError("adjust.seat", who=str(seat))
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > MAX_POINTS:
            raise LedgerError("adjust.amount", who=seat, amount=str(v), limit=f"{MAX_POINTS:,}")
    total = sum(amounts.values())
    if total:
        raise LedgerError("adjust.not_zero", total=f"{total:+d}")
    if not any(amounts.values()):
        raise LedgerError("adjust.nothing")
    return {"kind": ADJUST, "payments": {s: amounts[s] for s in SEATS if s in amounts},
            "winner": []}


def ledger_line(argv: Sequence[str], seating: Mapping[str, str] | None = None,
                rules: str | None = None,
                load: Callable[[str], Ruleset] = load_ruleset) -> dict[str, Any]:
    """The record of a split ``penalty``/``adjust`` line (see the module's examples).

    A player is a seat (E S W N) or a name of ``seating`` (the one in force); the line may
    carry ``--rules ID`` (else ``rules``, the batch's), which a penalty without an amount
    reads for its ``false_win``. Returns the record (with ``"ruleset"`` when one is
    named); raises :class:`LedgerError` naming what is wrong.

    >>> ledger_line(["penalty", "Bo"], {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"},
    ...             "mcr")["payments"]
    {'E': 10, 'S': -30, 'W': 10, 'N': 10}
    >>> ledger_line(["adjust", "E", "+5", "S", "-5"])["payments"]
    {'E': 5, 'S': -5}
    """
    kind, words = argv[0], list(argv[1:])
    if "--rules" in words:
        at = words.index("--rules")
        if at + 1 >= len(words):
            raise LedgerError("ledger_line.rules", flag="--rules", kind=kind)
        rules = words[at + 1]
        del words[at:at + 2]
    for w in words:
        if w.startswith("--"):
            raise LedgerError("ledger_line.flag", flag=w.partition("=")[0], kind=kind, word=w)
    seats = list(seating) if seating else list(SEATS)
    own = len(words) != len(argv) - 1  # the line names its ruleset: always read (and checked)
    rs = load(rules) if rules is not None and (own or (kind == PENALTY and len(words) == 1)) \
        else None
    if kind == PENALTY:
        if not 1 <= len(words) <= 2:
            raise LedgerError("penalty.form")
        who = _player(words[0], seating, kind)
        amount = _amount(words[1], kind, words[0], signed=False) if len(words) == 2 else None
        try:
            rec = false_win(who, amount, rs, seats)
        except LedgerError as e:
            raise _as_written(e, {who: words[0]}) from None
    else:
        if len(words) < 4 or len(words) % 2:
            raise LedgerError("adjust.form")
        amounts: dict[str, int] = {}
        for who_word, points in zip(words[::2], words[1::2], strict=True):
            who = _player(who_word, seating, kind)
            if who in amounts:
                raise LedgerError("adjust.twice", who=who_word)
            amounts[who] = _amount(points, kind, who_word, signed=True)
        try:
            rec = adjustment(amounts)
        except LedgerError as e:
            written = {_player(w, seating, kind): w for w in words[::2]}
            raise _as_written(e, written) from None
    if rs is not None:
        rec["ruleset"] = rs.id
    return rec


def _as_written(e: LedgerError, written: Mapping[str, str]) -> LedgerError:
    """``e`` naming its player as the line wrote it (``penalty Bo 0``, not ``penalty S 0``).

    >>> str(_as_written(LedgerError("adjust.twice", who="S"), {"S": "Bo"}))
    'adjust: Bo is named twice'
    """
    who = e.params.get("who")
    if isinstance(who, str) and who in written:
        e.params = {**e.params, "who": written[who]}
    return e


def _player(word: str, seating: Mapping[str, str] | None, kind: str) -> str:
    """The seat a word names: a seat letter, a player's name in ``seating``, or a seat's other
    name (东南西北, full width: a name that is one of them is the player's)."""
    if word.upper() in SEATS and (not seating or word.upper() in seating):
        return word.upper()
    for seat, name in (seating or {}).items():
        if name == word:
            return seat
    named = seat_of(word)
    if named is not None and (not seating or named in seating):
        return named
    if is_relative(word):
        raise LedgerError("seat.relative_here", value=word)  # (上家 of whom?)
    if seating:
        names = ", ".join(f"{s}={n}" for s, n in seating.items())
        raise LedgerError("ledger_line.not_seated", kind=kind, who=word, seating=names)
    raise LedgerError("ledger_line.no_seating", kind=kind, who=word)


def _amount(word: str, kind: str, who: str, signed: bool) -> int:
    """A whole number of points, in ASCII digits (``+5``, ``-5``; a penalty's unsigned)."""
    plain = narrow(word)  # －５ is -5 (and ＋５ still refused: a number is written in 0-9)
    if not _AMOUNT.fullmatch(plain) or (not signed and plain[0] in "+-"):
        raise LedgerError("adjust.points" if signed else "penalty.points", kind=kind, who=who,
                          word=word)
    return int(plain)
