"""The one renderer of batch records: a JSON line, CSV rows, or rows of a text table.

A record is the JSON of ``score --json`` plus ``"line"`` and ``"kind"`` (``"hand"``, or
``"dispute"`` for a ``--vs`` line: both sides), or ``{"error": ..., "line": N}``, as
:func:`scorer.lines.records.score_record` returns it. CSV and table rows show pattern names in
the chosen language (the ids stay in JSON and in the CSV ``patterns`` column) and the
unit of the score as the ruleset names it (its ``labels: score:``, e.g. 番, 倍, k).

>>> rec = {"line": 3, "input_hand": "123m5p8",
...        "error": {"kind": "notation", "message": "position 7: bad"}}
>>> csv_text(csv_rows(rec)[0])
'3,123m5p8,,,,,,,,position 7: bad,,,,,,,\\n'
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..model.tiles import SEATS

FORMATS = ("jsonl", "csv", "table")
# The first ten columns are those of docs/contract.md's batch CSV; the rest were added after.
CSV_FIELDS = ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W", "N", "error",
              "unit", "pattern_names", "players", "side", "differences", "source", "path"]
# The table's column names, as catalogue keys (scorer/text/words.py): the table is read by
# people, in the run's language; the CSV's header (CSV_FIELDS) is read by programs, and stays
TABLE_HEADERS = ["col_line", "col_hand", "col_ruleset", "col_score", "col_unit",
                 "col_patterns", "E", "S", "W", "N", "col_error", "col_players"]
NAME_JOIN = {"zh": "、", "en": ", "}


def pattern_names(patterns: Sequence[Mapping[str, Any]], lang: str = "zh") -> str:
    """The patterns' names in ``lang``, ×N for a pattern counted N times.

    >>> pattern_names([{"name": "喜相逢", "name_en": "Mixed double chow", "count": 2},
    ...                {"name": "连六", "name_en": "Short straight", "count": 1}], "en")
    'Mixed double chow ×2, Short straight'
    """
    key = "name" if lang == "zh" else "name_en"
    return NAME_JOIN.get(lang, ", ").join(
        str(p.get(key) or p.get("id", "")) + (f" ×{p['count']}" if p.get("count", 1) > 1 else "")
        for p in patterns)


def seating_text(players: Mapping[str, str] | None) -> str:
    """A seating as ``--players`` takes it, or ``""``.

    >>> seating_text({"E": "Ann", "S": "Bo"})
    'E=Ann,S=Bo'
    """
    return ",".join(f"{s}={n}" for s, n in players.items()) if players else ""


def _hand_row(data: Mapping[str, Any], lang: str, line: Any, players: str, side: str = "",
              differences: str = "") -> list[Any]:
    """The CSV columns of one scored (or failed) hand record."""
    if "error" in data:
        hand = data.get("input_hand") or data.get("hand", "")
        return [line, hand, data.get("ruleset", data.get("rules", "")), "", "", "", "", "", "",
                data["error"]["message"], "", "", players, side, differences, "", ""]
    pats = data["best"]["patterns"]
    pay = data["payments"]
    return [line, data["hand"], data["ruleset"], data["best"]["score"],
            " ".join(p["id"] for p in pats), *(pay.get(s, "") for s in SEATS), "",
            data.get("unit", ""), pattern_names(pats, lang), players, side, differences,
            data.get("source", ""), data.get("path", "")]


def _ledger_row(data: Mapping[str, Any], lang: str, line: Any, players: str) -> list[Any]:
    """The CSV columns of a penalty, an adjustment or a round (``round EVENT / …``): the
    line as typed in ``hand``, its kind in ``patterns``, what it books in words in
    ``pattern_names``.

    >>> _ledger_row({"kind": "penalty", "input": "penalty S", "ruleset": "mcr",
    ...              "payments": {"E": 10, "S": -30, "W": 10, "N": 10},
    ...              "penalty": {"seat": "S", "amount": 10}}, "en", 3, "")[:12]
    [3, 'penalty S', 'mcr', '', 'penalty', 10, -30, 10, 10, '', '', 'false win: S pays 10 to each']
    """
    from .i18n import t

    pay = data["payments"]
    pen = data.get("penalty")
    won = data.get("winner") or []
    words = t("penalty_row", lang, seat=pen["seat"], amount=pen["amount"]) \
        if data["kind"] == "penalty" and isinstance(pen, Mapping) else t("adjust_row", lang) \
        if data["kind"] == "adjust" else t("round_row", lang, winners=" ".join(won)) if won \
        else t("round_row_none", lang)
    return [line, data.get("input", data["kind"]), data.get("ruleset", ""), "", data["kind"],
            *(pay.get(s, "") for s in SEATS), "", "", words, players, "", "", "", ""]


def csv_rows(data: Mapping[str, Any], lang: str = "zh") -> list[list[Any]]:
    """The CSV rows of a record (:data:`CSV_FIELDS`): one for a hand, two for a dispute
    (``side`` A and B, the same line, ``differences`` naming the rows that differ).

    >>> a = {"ruleset": "mcr", "hand": "11m", "best": {"score": 8, "patterns": []},
    ...      "payments": {"E": 9, "S": -3, "W": -3, "N": -3}}
    >>> [r[13] for r in csv_rows({"line": 1, "kind": "dispute", "a": a, "b": a,
    ...                           "differences": []})]
    ['A', 'B']
    """
    line = data.get("line", 0)
    players = seating_text(data.get("players"))
    if data.get("kind") in ("penalty", "adjust", "round") and "error" not in data:
        return [_ledger_row(data, lang, line, players)]
    if data.get("kind") == "dispute" and "error" not in data:
        diff = " ".join(data.get("differences", ()))
        units = data.get("units", {})
        return [_hand_row({"unit": units.get(s, ""), **data[s]}, lang, line, players, s.upper(),
                          diff) for s in ("a", "b")]
    return [_hand_row(data, lang, line, players)]


def table_rows(data: Mapping[str, Any], lang: str = "zh") -> list[list[Any]]:
    """The rows of a record in the table (:data:`TABLE_HEADERS`): pattern names, not ids;
    a dispute as its A and B rows and a ``B − A`` row of each seat's difference.

    >>> table_rows({"line": 4, "input_hand": "12m", "error": {"message": "bad"},
    ...             "players": {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}})
    [[4, '12m', '', '', '', '', '', '', '', '', 'bad', 'Ann Bo Cy Di']]
    """
    rows = []
    seated = data.get("players") or {}
    names = " ".join(seated.get(x, "—") for x in SEATS) if seated else ""
    for r in csv_rows(data, lang):
        side = f"{r[13]}: " if r[13] else ""
        opts = data[r[13].lower()].get("options") if r[13] else None
        ruleset = side + str(r[2]) + "".join(f" {k}={v}" for k, v in (opts or {}).items())
        rows.append([r[0], r[1], ruleset, r[3], r[10], r[11], *r[5:9], r[9], names])
        names = ""  # a dispute's B row sits at the same table
    if data.get("kind") == "dispute" and "payment_differences" in data:
        d = data["payment_differences"]
        from .dispute import differences_text

        rows.append(["", "", "B − A", "", "", differences_text(data.get("differences", ()), lang),
                     *(f"{d[s]:+d}" if s in d else "" for s in SEATS), "", ""])
    return rows


def csv_text(row: Sequence[Any]) -> str:
    """One CSV line, quoted where needed, each cell through :func:`csv_cell`.

    >>> print(csv_text(["a,b", 1, "=1+1", "-4"]), end="")
    "a,b",1,'=1+1,-4
    """
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([csv_cell(v) for v in row])
    return buf.getvalue()


# A spreadsheet opening a CSV reads a cell that starts with one of these as a formula (a
# player's name "=HYPERLINK(...)" would run as one: CSV injection); a ' before it is the
# spreadsheets' own mark for "this is text", and shows nothing
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows and never runs: a text that starts like a
    formula (``=``, ``+``, ``-``, ``@``, a tab, a carriage return) after a ``'``; a number,
    and a text that is one (``-4``, ``+12``), as it is.

    >>> csv_cell("=SUM(A1)"), csv_cell("@x"), csv_cell("-4"), csv_cell(-4), csv_cell("Ann")
    ("'=SUM(A1)", "'@x", '-4', -4, 'Ann')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START) \
            and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def jsonl_text(data: Mapping[str, Any]) -> str:
    """One JSON line (UTF-8 text, not escaped).

    >>> jsonl_text({"line": 1, "name": "自摸"})
    '{"line": 1, "name": "自摸"}\\n'
    """
    return _ENCODE(data) + "\n"


# json.dumps with an option builds a new encoder on every call; one made once writes the
# same text (dumps(ensure_ascii=False) is this encoder's encode)
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def table_headers(lang: str = "zh") -> list[str]:
    """The table's column names in ``lang`` (seats stay E S W N, as in every table).

    >>> table_headers("en")[:6], table_headers("zh")[-1]
    (['line', 'hand', 'ruleset', 'score', 'unit', 'patterns'], '玩家（E S W N）')
    """
    from ..text.render import word

    return [h if h in SEATS else word(h, lang) for h in TABLE_HEADERS]


def table_text(rows: Sequence[Sequence[Any]], lang: str = "zh") -> str:
    """A block of rows (:func:`table_rows`) as a plain text table under
    :func:`table_headers` in ``lang``, within the terminal's width
    (:func:`.texttable.fitted`: long cells fold; a column empty in every row of the block,
    such as ``error`` when no line failed, is left out).

    >>> print(table_text([[1, "11m", "mcr", 8, "番", "甲", 9, -3, -3, -3, "", ""]], "en"))
      line  hand    ruleset    score    patterns      E    S    W    N
    ------  ------  ---------  -------  ----------  ---  ---  ---  ---
         1  11m     mcr        8 番     甲            9   -3   -3   -3
    """
    from ..text.render import word
    from .texttable import fitted

    # the score and its unit share a column (2 番), and a cell folds down to 6 columns: twelve
    # columns in 80; the hand and the ruleset fold last: what a reader matches to the file.
    # The seating's header is short ("seating": its names are in seat order, E S W N)
    heads = table_headers(lang)
    heads = [*heads[:4], *heads[5:-1], word("col_seating", lang)]
    merged = [[*r[:3], f"{r[3]} {r[4]}" if r[4] not in ("", None) else r[3], *r[5:]]
              for r in rows]
    return fitted(merged, heads, last=(1, 2), drop_empty=True, floor=6)


def record_text(data: Mapping[str, Any], fmt: str, lang: str = "zh") -> str:
    """A record in ``fmt`` (jsonl or csv), ready to write.

    >>> record_text({"line": 2, "error": {"message": "x"}}, "csv")
    '2,,,,,,,,,x,,,,,,,\\n'
    """
    if fmt == "jsonl":
        return jsonl_text(data)
    return "".join(csv_text(r) for r in csv_rows(data, lang))
