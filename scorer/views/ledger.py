"""Render an evening's totals (:class:`scorer.table.ledger.Totals`): a table for people, CSV rows
and a JSON record for scripts. Pure functions: they return text or values, they print nothing.

Money is written exactly (:func:`scorer.table.ledger.decimal_text`): ``2.5``, never ``2.4999``.
In JSON every money field (``stake`` too) is a whole number when the stake is, and a string
holding the exact decimal (``"2.5"``) when it is not, so no reader ever gets a rounded float.
"""

from __future__ import annotations

from typing import Any

from ..table.ledger import Totals, decimal_text
from .i18n import DEFAULT_LANG
from .i18n import t as _t
from .texttable import fold_lines

TOTALS_CSV_HEADER = ["kind", "name", "won", "lost", "net", "hands_won", "penalties"]
TRANSFER_CSV_HEADER = ["kind", "payer", "payee", "amount"]


def _money(t: Totals) -> Any:
    whole = t.stake.denominator == 1
    return (lambda x: int(x)) if whole else decimal_text


def totals_record(t: Totals) -> dict[str, Any]:
    """The JSON record of the totals, of its own kind so a jsonl reader tells it from a hand.

    >>> from scorer.table.ledger import book
    >>> rec = totals_record(book([{"payments": {"E": 3, "S": -3}}]).totals(stake="0.5"))
    >>> rec["kind"], rec["by"], rec["stake"], rec["transfers"]
    ('totals', 'seat', '0.5', [{'from': 'S', 'to': 'E', 'amount': '1.5'}])
    >>> rec["players"][0]
    {'name': 'E', 'won': '1.5', 'lost': '0', 'net': '1.5', 'hands_won': 1, 'penalties': 0}
    """
    money = _money(t)
    return {
        "kind": "totals",
        "by": t.by or "seat",
        "stake": money(t.stake),
        "hands": t.hands,
        "failed": list(t.failed),
        "disputed": list(t.disputed),
        "penalties": list(t.penalties),
        "adjustments": list(t.adjustments),
        "players": [{"name": r.name, "won": money(r.won), "lost": money(r.lost),
                     "net": money(r.net), "hands_won": r.hands_won,
                     "penalties": r.penalties} for r in t.rows],
        "transfers": [{"from": x.payer, "to": x.payee, "amount": money(x.amount)}
                      for x in t.transfers],
    }


def totals_csv_rows(t: Totals, header: bool = False) -> list[list[Any]]:
    """CSV rows: one ``totals`` row per player (kind, name, won, lost, net, hands won,
    false wins booked against the player),
    then one ``transfer`` row per transfer (kind, payer, payee, amount); with ``header``,
    each kind's column names first. Returns a list of rows for :func:`csv.writer`.

    >>> from scorer.table.ledger import book
    >>> totals_csv_rows(book([{"payments": {"E": 2, "S": -2}}]).totals())
    [['totals', 'E', '2', '0', '2', 1, 0], ['totals', 'S', '0', '2', '-2', 0, 0], ['transfer', 'S', 'E', '2']]
    """
    rows: list[list[Any]] = [TOTALS_CSV_HEADER] if header else []
    rows += [["totals", r.name, decimal_text(r.won), decimal_text(r.lost), decimal_text(r.net),
              r.hands_won, r.penalties] for r in t.rows]
    if header:
        rows.append(TRANSFER_CSV_HEADER)
    rows += [["transfer", x.payer, x.payee, decimal_text(x.amount)] for x in t.transfers]
    return rows


SUBTOTALS_CSV_HEADER = ["kind", "file", *TOTALS_CSV_HEADER[1:]]
# `batch --totals-csv PATH`'s one table: every row of the totals, the transfers and each
# file's subtotals under one header (a spreadsheet or pandas.read_csv loads it whole)
TOTALS_FILE_HEADER = ["kind", "file", *TOTALS_CSV_HEADER[1:], *TRANSFER_CSV_HEADER[1:]]


def totals_file_rows(t: Totals, file: str = "", kind: str = "totals") -> list[list[Any]]:
    """The rows of :data:`TOTALS_FILE_HEADER` for ``t``: a ``kind`` row per player (``totals``,
    or ``subtotals`` of ``file``), then a ``transfer`` row per transfer (none for subtotals),
    each with every column, the ones of the other kind empty.

    >>> from scorer.table.ledger import book
    >>> for row in totals_file_rows(book([{"payments": {"E": 2, "S": -2}}]).totals()):
    ...     print(row)
    ['totals', '', 'E', '2', '0', '2', 1, 0, '', '', '']
    ['totals', '', 'S', '0', '2', '-2', 0, 0, '', '', '']
    ['transfer', '', '', '', '', '', '', '', 'S', 'E', '2']
    """
    width = len(TOTALS_CSV_HEADER) - 1
    rows: list[list[Any]] = []
    for row in totals_csv_rows(t):
        if row[0] == "totals":
            rows.append([kind, file, *row[1:], "", "", ""])
        elif kind == "totals":
            rows.append(["transfer", file, *[""] * width, *row[1:]])
    return rows


def subtotals_csv_rows(t: Totals, file: str) -> list[list[Any]]:
    """One file's subtotals as CSV rows: a header row, then a ``subtotals`` row per player
    (the columns of the totals rows, the file second).

    >>> from scorer.table.ledger import book
    >>> subtotals_csv_rows(book([{"payments": {"E": 2, "S": -2}}]).totals(), "a.txt")[1]
    ['subtotals', 'a.txt', 'E', '2', '0', '2', 1, 0]
    """
    return [SUBTOTALS_CSV_HEADER] + [["subtotals", file, *row[1:]]
                                     for row in totals_csv_rows(t) if row[0] == "totals"]


def season_record(t: Totals, parts: list[tuple[str, Any]]) -> dict[str, Any]:
    """The totals record of several files totalled together (a season): ``totals_record``
    with ``"files"`` (each file in order) and each line list (``failed``, ``disputed``,
    ``penalties``, ``adjustments``) naming its lines as ``FILE:LINE``. ``parts`` are the
    files with their ledgers (:class:`scorer.table.ledger.Ledger`).

    >>> from scorer.table.ledger import book
    >>> a = book([{"line": 3, "error": {"message": "x"}}])
    >>> b = book([{"line": 1, "payments": {"E": 2, "S": -2}}])
    >>> r = season_record(a.merge(b).totals(), [("a.txt", a), ("b.txt", b)])
    >>> r["files"], r["failed"], r["hands"]
    (['a.txt', 'b.txt'], ['a.txt:3'], 1)
    """
    rec = totals_record(t)
    rec["files"] = [path for path, _ in parts]
    rec.update(season_places(parts))
    return rec


def season_places(parts: list[tuple[str, Any]]) -> dict[str, list[str]]:
    """The line lists of several files' ledgers (``failed``, ``disputed``, ``penalties``,
    ``adjustments``) as ``FILE:LINE``, for :func:`totals_table` and :func:`season_record`.

    >>> from scorer.table.ledger import book
    >>> season_places([("a.txt", book([{"line": 3, "error": {}}]))])["failed"]
    ['a.txt:3']
    """
    return {key: [f"{path}:{n}" for path, led in parts for n in getattr(led, key)]
            for key in ("failed", "disputed", "penalties", "adjustments")}


def totals_table(t: Totals, noun: str = "hand", lang: str = DEFAULT_LANG,
                 places: dict[str, list[str]] | None = None) -> str:
    """The totals for people at the table: a heading, a row per player, the transfers, in
    ``lang`` (zh or en). ``noun`` names what was totalled (``"round"`` for a session of
    血战 rounds); ``places`` names the lines of several files (:func:`season_places`).

    >>> from scorer.table.ledger import book
    >>> t = book([{"payments": {"E": 6, "S": -2, "W": -2, "N": -2}}],
    ...          {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}).totals()
    >>> print(totals_table(t, lang="en"))
    Totals of 1 hand, per player
    <BLANKLINE>
    player      won    lost    net    hands won
    --------  -----  ------  -----  -----------
    Ann           6       0     +6            1
    Bo            0       2     -2            0
    Cy            0       2     -2            0
    Di            0       2     -2            0
    <BLANKLINE>
    To settle (3 transfers):
      Bo pays Ann 2
      Cy pays Ann 2
      Di pays Ann 2
    >>> print(totals_table(t).splitlines()[0])
    共 1 盘的合计，按玩家
    """
    from tabulate import tabulate  # imported here, as in the report: keeps start-up fast

    seat = t.by != "player"
    what = _t(f"noun_{noun}" if t.hands == 1 else f"noun_{noun}s", lang)
    by = _t("col_seat" if seat else "col_player", lang)  # the first column's word
    head = _t("totals_of", lang, n=t.hands, noun=what, by=by)
    if t.stake != 1:
        head += _t("at_stake", lang, stake=decimal_text(t.stake))
    lines = [head]
    if seat and t.rows:
        lines.append(_t("seats_rotate", lang))
    where = places or {key: [str(k) for k in getattr(t, key)]
                       for key in ("failed", "disputed", "penalties", "adjustments")}
    if t.failed:
        n = len(t.failed)
        lines.append(_t("not_counted_1" if n == 1 else "not_counted_n", lang, n=n,
                        lines=", ".join(where["failed"])))
    if t.disputed:
        lines.append(_t("disputed_booked", lang, lines=", ".join(where["disputed"])))
    if t.penalties:
        lines.append(_t("penalties_booked", lang, lines=", ".join(where["penalties"])))
    if t.adjustments:
        lines.append(_t("adjustments_booked", lang, lines=", ".join(where["adjustments"])))
    rows = [[r.name, decimal_text(r.won), decimal_text(r.lost),
             ("+" if r.net > 0 else "") + decimal_text(r.net), r.hands_won]
            + ([r.penalties] if t.penalties else []) for r in t.rows]
    lines.append("")
    headers = [by, _t("col_won", lang),
               _t("col_lost", lang), _t("col_net", lang),
               _t("col_wins" if noun != "hand" else "col_hands_won", lang)]
    headers += [_t("col_penalties", lang)] if t.penalties else []
    lines.append(tabulate(rows, headers=headers, tablefmt="simple",
                          colalign=("left", *("right",) * (len(headers) - 1)),
                          disable_numparse=True))
    lines.append("")
    if not t.transfers:
        lines.append(_t("settle_nothing", lang))
    else:
        n = len(t.transfers)
        lines.append(_t("settle_1", lang) if n == 1 else _t("settle_n", lang, n=n))
        lines += ["  " + _t("pays_to", lang, payer=x.payer, payee=x.payee,
                            amount=decimal_text(x.amount)) for x in t.transfers]
    return fold_lines("\n".join(lines))
