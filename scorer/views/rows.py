"""The one renderer of batch records: a JSON line, a CSV row, or a block of a text table.

A record is the JSON of ``score --json`` plus ``"line"`` (or ``{"error": ..., "line": N}``),
as :func:`scorer.batch.score_record` returns it.

>>> rec = {"line": 3, "error": {"kind": "notation", "message": "position 7: bad"}}
>>> csv_text(csv_row(rec))
'3,,,,,,,,,position 7: bad\\n'
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

FORMATS = ("jsonl", "csv", "table")
CSV_FIELDS = ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W", "N", "error"]


def csv_row(data: Mapping[str, Any]) -> list[Any]:
    """The CSV columns of a record: line, hand, ruleset, score, pattern ids, E, S, W, N, error.

    >>> csv_row({"line": 1, "hand": "11m", "ruleset": "mcr", "best": {"score": 8,
    ...          "patterns": [{"id": "a"}, {"id": "b"}]},
    ...          "payments": {"E": 9, "S": -3, "W": -3, "N": -3}})
    [1, '11m', 'mcr', 8, 'a b', 9, -3, -3, -3, '']
    """
    if "row" in data:  # already rendered in a worker process
        return list(data["row"])
    if "error" in data:
        return [data.get("line", 0), data.get("hand", ""), data.get("ruleset", ""), "", "", "",
                "", "", "", data["error"]["message"]]
    pats = " ".join(p["id"] for p in data["best"]["patterns"])
    pay = data["payments"]
    return [data.get("line", 0), data["hand"], data["ruleset"], data["best"]["score"], pats,
            pay["E"], pay["S"], pay["W"], pay["N"], ""]


def csv_text(row: Sequence[Any]) -> str:
    """One CSV line, quoted where needed.

    >>> csv_text(["a,b", 1])
    '"a,b",1\\n'
    """
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(row)
    return buf.getvalue()


def jsonl_text(data: Mapping[str, Any]) -> str:
    """One JSON line (UTF-8 text, not escaped).

    >>> jsonl_text({"line": 1, "name": "自摸"})
    '{"line": 1, "name": "自摸"}\\n'
    """
    return json.dumps(data, ensure_ascii=False) + "\n"


def table_text(rows: Sequence[Sequence[Any]]) -> str:
    """A block of rows as a plain text table under the CSV column names.

    >>> print(table_text([[1, "11m", "mcr", 8, "a", 9, -3, -3, -3, ""]]).splitlines()[0].split())
    ['line', 'hand', 'ruleset', 'score', 'patterns', 'E', 'S', 'W', 'N', 'error']
    """
    from tabulate import tabulate  # only the table format pays for importing it

    return str(tabulate(rows, headers=CSV_FIELDS, tablefmt="simple"))


def render(data: Mapping[str, Any], fmt: str) -> str:
    """A record in ``fmt`` (jsonl or csv), ready to write.

    >>> render({"line": 2, "error": {"message": "x"}}, "csv")
    '2,,,,,,,,,x\\n'
    """
    return jsonl_text(data) if fmt == "jsonl" else csv_text(csv_row(data))
