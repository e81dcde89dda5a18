"""A CSV a spreadsheet opens runs no formula (issue 33, "CSV cells"): a text cell that a
spreadsheet would read as a formula (it starts with = + - @, a tab or a carriage return) is
written after a ', the spreadsheets' mark for text; numbers, and texts that are numbers
("-4", "+12"), are written as they are.

The players' names reach the CSV of ``batch --totals``, ``standings`` and the page's export as
typed, so they are where a formula comes in: each is checked where it is written.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.helpers.hostile import cli

HAND = "123m456p789s234sP9m --rules hangzhou --self-draw"
# what a spreadsheet would run as a formula
NAMES = ["=1+1", "+SUM(1)", "-2+3", "@SUM(A1)"]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _cells(rows: list[list[str]]) -> set[str]:
    return {c for r in rows for c in r}


def test_batch_totals_write_a_formula_name_as_text(tmp_path: Path) -> None:
    f = tmp_path / "evening.txt"
    f.write_text(HAND + "\n", encoding="utf-8")
    players = ",".join(f"{s}={n}" for s, n in zip("ESWN", NAMES, strict=True))
    r = cli("batch", str(f), "--format", "csv", "--totals", "--players", players)
    assert r.code == 0, r.err
    cells = _cells(_rows(r.out))
    for name in NAMES:
        assert "'" + name in cells, (name, r.out)
        assert name not in cells, (name, r.out)
    # the points stay numbers: the loser's -4 is not quoted (worked by hand: hangzhou's
    # self-drawn baotou, 2 fan, base 1: each of three pays 4, the winner gets 12)
    totals = [row for row in _rows(r.out) if row[:1] == ["totals"]]
    assert [row[1:5] for row in totals] == [["'=1+1", "12", "0", "12"],
                                            ["'+SUM(1)", "0", "4", "-4"],
                                            ["'-2+3", "0", "4", "-4"],
                                            ["'@SUM(A1)", "0", "4", "-4"]], totals


def test_a_plain_name_and_a_number_stay_as_they_are(tmp_path: Path) -> None:
    f = tmp_path / "evening.txt"
    f.write_text(HAND + "\n", encoding="utf-8")
    r = cli("batch", str(f), "--format", "csv", "--totals", "--players", "Ann,Bo,Cy,Di")
    assert r.code == 0, r.err
    assert not any(c.startswith("'") for c in _cells(_rows(r.out))), r.out


def test_standings_write_a_formula_name_as_text(tmp_path: Path) -> None:
    f = tmp_path / "match.txt"
    seating = ",".join(f"{s}={n}" for s, n in zip("ESWN", NAMES, strict=True))
    f.write_text(f"# game: 1\n# players: {seating}\n1112345678999m5m --self-draw\n",
                 encoding="utf-8")
    r = cli("standings", str(f), "--format", "csv")
    assert r.code == 0, r.err
    cells = _cells(_rows(r.out))
    for name in NAMES:
        assert "'" + name in cells and name not in cells, (name, r.out)
    # the points stay numbers, unquoted: each game's 比赛分 (the 5th cell) sums to zero
    games = [row for row in _rows(r.out) if row[:1] == ["game"]]
    assert len(games) == 4 and sum(int(row[4]) for row in games) == 0, r.out


def test_the_page_s_export_writes_a_formula_name_as_text() -> None:
    from scorer.serve.sheet import export_csv

    seating = {"E": "=1+1", "S": "Bo", "W": "Cy", "N": "@SUM(A1)"}
    entry = {"n": 1, "kind": "adjust", "seating": seating, "line": "adjust E 3 S -3",
             "record": {"kind": "adjust", "payments": {"E": 3, "S": -3, "W": 0, "N": 0}}}
    rows = _rows(export_csv({}, [entry]))
    assert rows[0] == ["n", "kind", "undone", "seating", "line", "'=1+1", "Bo", "Cy",
                       "'@SUM(A1)"], rows
    assert rows[1][5:] == ["3", "-3", "0", "0"], rows  # the points as numbers
    assert ["transfer", "Bo", "'=1+1", "3"] in rows, rows
