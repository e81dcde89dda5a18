"""The table's score sheet: what a booked line holds, the seats as the deal passes, the
totals and the files it exports. Pure functions over a table's settings and lines (the
database is :mod:`.store`); the totals are :mod:`scorer.table.ledger`'s, the very records
``mjscore batch --totals`` books, so the sheet and the exported file always agree.

A table's settings::

    {"rules": "hangzhou", "upload": null, "seating": {"E": "Ann", "S": "Bo", ...},
     "stake": "1", "rotate": "dealer", "flags": ["--option", "cap=64"], "title": ""}

``rotate`` says how the seats move after a line: ``dealer`` (the deal passes unless the
dealer won: 连庄), ``every`` (after every hand, as MCR plays), ``manual`` (only when set).
A line (an entry) is ``{"kind", "line", "seating", "record", "summary"}``: ``line`` is the
hand as a batch line (``kind`` ``hand``), the events of a Sichuan round (``round``), a
penalty (``penalty``) or an adjustment (``adjust``); ``record`` is what the ledger books
(payments, winner).

>>> s = {"rules": "hangzhou", "seating": {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"},
...      "stake": "1", "rotate": "dealer", "flags": []}
>>> line_of("123m456m789p234s55s", ["--self-draw"], s)
'123m456m789p234s55s --self-draw --rules hangzhou'
>>> seating_after(s, {"winner": "S"})["E"]
'Bo'
"""

from __future__ import annotations

import csv
import io
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from ..lines.reader import MAX_LINE
from ..model.tiles import SEATS, seat_of
from ..table.ledger import Builder, parse_stake, rotate
from ..views.ledger import totals_csv_rows, totals_record
from ..views.rows import csv_cell
from .api import RequestError

ROTATE = ("dealer", "every", "manual")
# flags a sheet's hand may not carry: the table's own (its ruleset, the seating), a second
# side (a dispute is asked on the page, the table books its own ruleset), how `score` prints
TABLE_FLAGS = frozenset({"--rules", "--vs", "--vs-option", "--players", "--json", "--explain",
                         "--explain-top", "--lang", "--no-unicode"})
MCR_PENALTY = 10  # MCR: a false win (错和) pays 10 to each other player, as MCR clubs charge
MAX_PENALTY = 1_000_000


def check_flags(flags: Any) -> list[str]:
    """The hand's flags, as a list of strings without the table's own; raises RequestError.

    >>> check_flags(["--self-draw", "--seat", "S"])
    ['--self-draw', '--seat', 'S']
    >>> check_flags(["--rules", "mcr"])
    Traceback (most recent call last):
    scorer.serve.api.RequestError: flags: --rules belongs to the table, not to a hand
    """
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags) or len(flags) > 80:
        raise RequestError("serve.flags_list")
    for f in flags:
        name = f.partition("=")[0]
        if name in TABLE_FLAGS:
            raise RequestError("serve.table_flag", flag=name)
    return list(flags)


def line_of(hand: Any, flags: Sequence[str], settings: Mapping[str, Any]) -> str:
    """The batch line that books ``hand`` with ``flags`` at this table (its ruleset and
    table-wide flags last). Raises RequestError for a hand that is not a string or a line
    too long for a batch file."""
    if not isinstance(hand, str) or not hand.strip():
        raise RequestError("serve.hand_string")
    words = [hand.strip(), *flags, *settings.get("flags", []), "--rules", settings["rules"]]
    line = shlex.join(words) if any(not w or any(c in w for c in " \t'\"#\\$`") for w in words) \
        else " ".join(words)
    if len(line) > MAX_LINE:
        raise RequestError("serve.line_too_long", 413, limit=MAX_LINE)
    return line


def seating_after(settings: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, str]:
    """Who sits where for the next hand, after a line with this ``record`` was booked.

    >>> seating_after({"seating": {"E": "A", "S": "B"}, "rotate": "every"}, {"winner": "E"})
    {'E': 'B', 'S': 'A'}
    """
    seating = dict(settings["seating"])
    mode = settings.get("rotate", "dealer")
    if mode == "manual" or record.get("penalty"):
        return seating
    winner = record.get("winner")
    won = [winner] if isinstance(winner, str) else list(winner or [])
    if mode == "dealer" and "E" in won:
        return seating  # 连庄: the dealer won and deals again
    return rotate(seating)


def penalty_record(settings: Mapping[str, Any], seat: Any, amount: Any) -> dict[str, Any]:
    """What the ledger books for a false win (诈胡) by ``seat``: it pays ``amount`` to each
    other player (MCR: :data:`MCR_PENALTY` when no amount is given). Raises RequestError.

    >>> penalty_record({"rules": "mcr", "seating": {"E": "A", "S": "B", "W": "C", "N": "D"}},
    ...                "南", None)["payments"]
    {'E': 10, 'S': -30, 'W': 10, 'N': 10}
    """
    seats = [s for s in SEATS if s in settings["seating"]]
    if isinstance(seat, str):
        seat = seat_of(seat) or seat  # 南, s, Ｓ: the seat S
    if seat not in seats:
        raise RequestError("serve.seat", seats=seats)
    if amount is None and settings.get("rules") in ("mcr", "mcr-house"):
        amount = MCR_PENALTY
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= MAX_PENALTY:
        raise RequestError("serve.penalty_amount", limit=MAX_PENALTY)
    from ..table.penalty import false_win

    # the ledger's record (scorer.table.penalty): booked as a penalty, not as a hand
    return false_win(seat, amount, seats=seats)


def adjust_record(settings: Mapping[str, Any], amounts: Any) -> dict[str, Any]:
    """What the ledger books for an adjustment: ``amounts`` (player → points, a player a
    seat or a name of the seating) moved between players, as the batch line ``adjust WHO
    POINTS …`` books it (:func:`scorer.table.penalty.ledger_line`): the points sum to zero,
    or it is an error (``adjust.not_zero``). Raises RequestError or LedgerError.

    >>> adjust_record({"seating": {"E": "A", "S": "B", "W": "C", "N": "D"}},
    ...               {"A": 5, "C": -5})["payments"]
    {'E': 5, 'W': -5}
    """
    if not isinstance(amounts, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in amounts.items()) or len(amounts) > len(SEATS):
        raise RequestError("serve.adjust_amounts")
    from ..table.penalty import ADJUST, ledger_line

    words = [ADJUST, *(x for who, v in amounts.items() for x in (who, f"{v:+d}"))]
    return ledger_line(words, settings["seating"])


def adjust_line(record: Mapping[str, Any]) -> str:
    """The batch line of an adjustment's record, by seat (the ``# players:`` line before it
    names them).

    >>> adjust_line({"payments": {"E": 5, "W": -5}})
    'adjust E +5 W -5'
    """
    return "adjust " + " ".join(f"{s} {v:+d}" for s, v in record["payments"].items())


def booked(entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The lines that count: those not undone."""
    return [e for e in entries if not e.get("deleted")]


def totals(settings: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The evening's totals as ``batch --totals`` gives them in JSON (``totals_record``):
    the same ledger over the same records and seatings, at the table's stake."""
    b = Builder()
    for e in booked(entries):
        b.add({**e["record"], "line": e["n"]}, e["seating"])
    return totals_record(b.ledger().totals(parse_stake(settings.get("stake", "1"))))


def sheet_json(version: int, settings: Mapping[str, Any], entries: Sequence[Mapping[str, Any]],
               tid: str) -> dict[str, Any]:
    """The sheet every phone shows: the table, its lines in order, totals and transfers."""
    return {"id": tid, "version": version, "settings": dict(settings),
            "entries": [dict(e) for e in entries], "totals": totals(settings, entries)}


def _header(settings: Mapping[str, Any], tid: str) -> list[str]:
    stake = settings.get("stake", "1")
    return [f"# mjscore: the evening of table {tid} ({settings['rules']}), stake {stake}",
            f"# totals: mjscore batch THIS_FILE --totals --stake {stake}"
            + (f" (with {settings['rules']} beside it)" if settings.get("upload") else "")]


def export_batch(settings: Mapping[str, Any], entries: Sequence[Mapping[str, Any]],
                 tid: str) -> str:
    """The evening as a batch file: a ``# players:`` line wherever the seating changes, then
    each booked hand's line, each false win as a ``penalty SEAT POINTS`` line and each
    adjustment as an ``adjust SEAT POINTS …`` line (scorer.table.penalty), each Sichuan
    round as a ``round EVENT / EVENT …`` line (scorer.lines.rounds, its ruleset its first
    event); undone lines as comments. ``batch --totals`` of the file gives the sheet's
    totals (a round counts as a hand, each of its winners as a hand won, as on the sheet).

    >>> s = {"rules": "sichuan", "seating": {"E": "A", "S": "B", "W": "C", "N": "D"}}
    >>> print(export_batch(s, [{"kind": "round", "line": "S win 11m --from E\\nE hand 11p",
    ...     "seating": s["seating"], "record": {"payments": {"E": -2, "S": 2, "W": 0}}}],
    ...     "abcdef").split("\\n", 2)[2])
    # players: E=A,S=B,W=C,N=D
    round rules sichuan / S win 11m --from E / E hand 11p
    <BLANKLINE>
    """
    out = _header(settings, tid)
    seat_spec = None
    for e in entries:
        spec = ",".join(f"{s}={n}" for s, n in e["seating"].items())
        pen = e.get("summary") if e["kind"] == "penalty" else None
        text = e["line"] if e["kind"] == "hand" else (
            f"penalty {pen['seat']} {pen['amount']}" if pen else adjust_line(e["record"])
            if e["kind"] == "adjust" else _round_line(e["line"], settings["rules"]))
        if e.get("deleted"):
            out.append(f"# undone: {text}")
            continue
        if spec != seat_spec:
            out.append(f"# players: {spec}")
            seat_spec = spec
        out.append(text)
    return "\n".join(out) + "\n"


def _round_line(text: str, rules: str) -> str:
    """A round's batch line, its ruleset the first event (unless the round names its own).

    >>> _round_line("S win 123m456m789m55p66p6p --from E\\nE hand 13579m2468p2468p", "sichuan")
    'round rules sichuan / S win 123m456m789m55p66p6p --from E / E hand 13579m2468p2468p'
    """
    from ..lines.rounds import round_events, round_line

    line = round_line(text)
    first = round_events(shlex.split(line)[1:])[:1]
    if first and first[0][0].lower() == "rules":
        return line
    return line.replace("round ", f"round rules {shlex.quote(rules)} / ", 1)


def export_csv(settings: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> str:
    """The evening as CSV: a row per line (number, kind, seating, what was booked, each
    player's points), then the totals' and transfers' rows of ``batch --format csv``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")

    def put(cells: Sequence[Any]) -> None:  # (a name like "=1+1" is no formula: csv_cell)
        w.writerow([csv_cell(c) for c in cells])

    names = list(dict.fromkeys(n for e in entries for n in e["seating"].values()))
    put(["n", "kind", "undone", "seating", "line", *names])
    for e in entries:
        pay = e["record"]["payments"]
        by_name = {e["seating"][s]: v for s, v in pay.items() if s in e["seating"]}
        put([e["n"], e["kind"], int(bool(e.get("deleted"))),
             ",".join(f"{s}={n}" for s, n in e["seating"].items()), e["line"],
             *[by_name.get(n, 0) for n in names]])
    b = Builder()
    for e in booked(entries):
        b.add({**e["record"], "line": e["n"]}, e["seating"])
    for row in totals_csv_rows(b.ledger().totals(parse_stake(settings.get("stake", "1"))),
                               header=True):
        put(row)
    return buf.getvalue()


def summary_of(rec: Mapping[str, Any], seating: Mapping[str, str]) -> dict[str, Any]:
    """What the sheet shows of a scored hand: who won, how, from whom, the score and
    its patterns (with their counts), the unit.

    >>> summary_of({"winner": "S", "self_draw": False, "flags": {"--from": "N"},
    ...             "best": {"score": 12, "patterns": [{"name": "喜相逢", "name_en": "x",
    ...             "value": 1, "count": 2}]}, "unit": "番", "payments": {}},
    ...            {"S": "Bo", "N": "Di"})["from"]
    'N'
    """
    if rec.get("kind") == "dispute":
        rec = {**rec.get("a", {}), "unit": (rec.get("units") or {}).get("a", "")}
    best = rec.get("best") or {}
    flags = rec.get("flags") or {}
    return {"winner": rec.get("winner"), "self_draw": bool(rec.get("self_draw")),
            "from": flags.get("--from"), "score": best.get("score"), "unit": rec.get("unit", ""),
            "hand": rec.get("written") or rec.get("hand"),
            "patterns": [{k: p.get(k) for k in ("name", "name_en", "value", "count")}
                         for p in best.get("patterns", [])],
            "payments": rec.get("payments")}
