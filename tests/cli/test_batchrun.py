"""`batch --totals-csv PATH`: a CSV output that stays one table, the totals in a table of their
own; the cells a spreadsheet would run as formulas made inert; the ruleset's source.

The evening is examples/evening.txt, whose totals tests/cli/test_batchcmd.py holds worked by
hand (TOTALS, HANDS): the same numbers must come out of the one-table files.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from scorer.cli.app import app
from tests.cli.test_batchcmd import BAD, EVENING, HANDS, SEATING, TOTALS

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
TOTALS_HEAD = ["kind", "file", "name", "won", "lost", "net", "hands_won", "penalties",
               "payer", "payee", "amount"]


def _table(text: str) -> list[dict[str, str]]:
    """The rows of a CSV text that must be one table: every row as long as the header."""
    rows = list(csv.reader(io.StringIO(text)))
    assert all(len(row) == len(rows[0]) for row in rows), "not one rectangular table"
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def test_totals_csv_keeps_the_output_one_table_and_the_totals_in_another(tmp_path: Path) -> None:
    side = tmp_path / "totals.csv"
    r = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--format", "csv", "--lang", "en",
                            "--totals-csv", str(side), "-q"])
    assert r.exit_code == 1  # line 23 is mistyped
    hands = _table(r.stdout)
    assert sorted({int(h["line"]) for h in hands}) == sorted([*HANDS, BAD])
    totals = _table(side.read_text(encoding="utf-8"))
    assert list(totals[0]) == TOTALS_HEAD
    got = {t["name"]: (int(t["won"]), int(t["lost"]), int(t["net"]), int(t["hands_won"]))
           for t in totals if t["kind"] == "totals"}
    assert got == TOTALS
    moves = [(t["payer"], t["payee"], Fraction(t["amount"])) for t in totals
             if t["kind"] == "transfer"]
    assert sorted(moves) == [("Ann", "Cy", 394), ("Bo", "Cy", 440), ("Di", "Cy", 422)]
    assert {t["kind"] for t in totals} == {"totals", "transfer"}


def test_totals_csv_of_a_season_holds_each_files_subtotals(tmp_path: Path) -> None:
    side = tmp_path / "season.csv"
    weeks = sorted(str(p) for p in (ROOT / "examples" / "season").glob("*.txt"))
    r = runner.invoke(app, ["batch", *weeks, "--rules", "mcr", "--subtotals", "--format",
                            "jsonl", "--totals-csv", str(side), "-q"])
    assert r.exit_code == 0, r.output
    assert '"kind": "totals"' not in r.stdout and '"kind": "subtotals"' not in r.stdout
    rows = _table(side.read_text(encoding="utf-8"))
    assert [r["file"] for r in rows if r["kind"] == "subtotals"][::4] == weeks
    # each player's season net is the sum of their three weeks' nets
    season = {r["name"]: Fraction(r["net"]) for r in rows if r["kind"] == "totals"}
    weekly: dict[str, Fraction] = {}
    for row in rows:
        if row["kind"] == "subtotals":
            weekly[row["name"]] = weekly.get(row["name"], Fraction(0)) + Fraction(row["net"])
    assert season == weekly and sum(season.values()) == 0


def test_a_totals_csv_that_cannot_be_written_is_refused_before_scoring(tmp_path: Path) -> None:
    r = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--lang", "en",
                            "--totals-csv", str(tmp_path / "no" / "such" / "t.csv")])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert "cannot open" in r.stderr and "t.csv" in r.stderr


def test_names_a_spreadsheet_would_run_come_out_inert(tmp_path: Path) -> None:
    hands = tmp_path / "h.txt"
    # OWASP's examples of CSV injection, as player names: = + - @ starts a formula
    hands.write_text("# players: @SUM(1+1),+cmd,-2+3,Di\n"
                     "123m456p789s234sP9m --self-draw --seat E\n", encoding="utf-8")
    side = tmp_path / "t.csv"
    r = runner.invoke(app, ["batch", str(hands), "--rules", "hangzhou", "--format", "csv",
                            "--totals-csv", str(side), "-q"])
    assert r.exit_code == 0, r.output
    rows = _table(side.read_text(encoding="utf-8"))
    names = [row["name"] for row in rows if row["kind"] == "totals"]
    assert names == ["'@SUM(1+1)", "'+cmd", "'-2+3", "Di"]
    # the numbers keep their sign: -4 is a number to a spreadsheet, not a formula
    assert [row["net"] for row in rows if row["kind"] == "totals"] == ["12", "-4", "-4", "-4"]
    payers = {row["payer"] for row in rows if row["kind"] == "transfer"}
    assert payers == {"'+cmd", "'-2+3", "Di"}
    hand = _table(r.stdout)[0]
    assert hand["E"] == "12" and hand["S"] == "-4"


def test_csv_says_where_the_ruleset_came_from() -> None:
    house = ROOT / "examples" / "house" / "hangzhou-platform.yaml"
    r = runner.invoke(app, ["batch", "-", "--format", "csv"],
                      input=f"123m456p789s234sP9m --self-draw --rules hangzhou\n"
                            f"123m456p789s234sP9m --self-draw --rules {house}\n")
    assert r.exit_code == 0, r.output
    builtin, own = _table(r.stdout)
    assert (builtin["source"], builtin["path"]) == ("builtin", "")
    assert (own["ruleset"], own["source"], own["path"]) == ("hangzhou-platform", "file",
                                                             str(house))
