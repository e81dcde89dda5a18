"""A season through the CLI: `mjscore batch week1 week2 week3 --subtotals`, three evening
files with false wins and an adjustment, totalled together (a name is one person in every
file). Every payment is worked by hand in the files' comments (examples/season/); the
subtotals and the season are their sums, worked by hand too."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from scorer.cli.app import app

runner = CliRunner()
SEASON = Path(__file__).resolve().parents[2] / "examples" / "season"
FILES = [str(SEASON / f"week{i}.txt") for i in (1, 2, 3)]
# name: net, per week and over the season (the files' last comments)
WEEKS = [{"Ann": 30, "Bo": 22, "Cy": -46, "Di": -6},
         {"Cy": 290, "Di": -90, "Ann": -70, "Bo": -130},
         {"Ed": -42, "Ann": 6, "Bo": 22, "Cy": 14}]
SEASON_NETS = {"Ann": -34, "Bo": -86, "Cy": 258, "Di": -96, "Ed": -42}
# hands won and false wins over the season
COUNTS = {"Ann": (1, 0), "Bo": (2, 1), "Cy": (1, 1), "Di": (0, 0), "Ed": (1, 1)}


def _run(*args: str, files: list[str] = FILES) -> Any:
    return runner.invoke(app, ["batch", *files, "--rules", "mcr", *args])


def test_the_season_totals_as_summed_by_hand() -> None:
    r = _run("--format", "jsonl", "--subtotals")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["file"] for x in recs if x["kind"] == "file"] == FILES
    subs = [x for x in recs if x["kind"] == "subtotals"]
    assert [x["file"] for x in subs] == FILES
    for sub, want in zip(subs, WEEKS, strict=True):
        assert {p["name"]: p["net"] for p in sub["players"]} == want
    season = recs[-1]
    assert season["kind"] == "totals" and season["files"] == FILES
    assert {p["name"]: p["net"] for p in season["players"]} == SEASON_NETS
    assert {p["name"]: (p["hands_won"], p["penalties"]) for p in season["players"]} == COUNTS
    assert season["hands"] == 5
    assert season["penalties"] == [f"{FILES[0]}:9", f"{FILES[1]}:7", f"{FILES[2]}:8"]
    assert season["adjustments"] == [f"{FILES[1]}:9"]
    # the transfers settle every net
    owed = dict(SEASON_NETS)
    for x in season["transfers"]:
        owed[x["from"]] += x["amount"]
        owed[x["to"]] -= x["amount"]
    assert set(owed.values()) == {0} and len(season["transfers"]) <= 4


def test_csv_and_table_carry_the_same_season() -> None:
    rows = list(csv.reader(io.StringIO(_run("--format", "csv", "--subtotals").stdout)))
    assert [r[1] for r in rows if r[0] == "file"] == FILES
    subs = [r for r in rows if r[0] == "subtotals"]
    assert {(r[1], r[2]): int(r[5]) for r in subs} == {
        (f, n): v for f, week in zip(FILES, WEEKS, strict=True) for n, v in week.items()}
    assert {r[1]: int(r[4]) for r in rows if r[0] == "totals"} == SEASON_NETS
    assert {r[1]: int(r[6]) for r in rows if r[0] == "totals"} == {
        n: c[1] for n, c in COUNTS.items()}
    pen = [r for r in rows if r[:1] and r[0].isdigit() and r[4] == "penalty"]
    assert [(r[1], r[5:9]) for r in pen] == [
        ("penalty Cy", ["10", "10", "-30", "10"]), ("penalty N", ["10", "10", "10", "-30"]),
        ("penalty Ed 16", ["-48", "16", "16", "16"])]
    text = _run("--format", "table", "--lang", "en").stdout
    assert "The 3 files together" in text
    assert ["Cy", "326", "68", "+258", "1", "1"] in [line.split() for line in text.splitlines()]


def test_a_line_that_does_not_sum_to_zero_names_its_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("# players: Ann,Bo,Cy,Di\nadjust Ann +5 Bo -3\n", encoding="utf-8")
    r = _run("--format", "jsonl", "--lang", "en", files=[FILES[0], str(bad)])
    assert r.exit_code == 1
    assert f"{bad}: line 2: the adjustment sums to +2, not 0" in r.stderr
    season = json.loads(r.stdout.splitlines()[-1])
    assert season["failed"] == [f"{bad}:2"]
    assert {p["name"]: p["net"] for p in season["players"]} == WEEKS[0]


def test_names_in_one_file_and_seats_in_another_cannot_be_totalled(tmp_path: Path) -> None:
    bare = tmp_path / "bare.txt"
    bare.write_text("penalty S 5\n", encoding="utf-8")
    r = _run("--lang", "en", files=[FILES[0], str(bare)])
    assert r.exit_code == 2 and "no player names, unlike earlier files" in r.stderr


def test_one_file_keeps_its_old_output() -> None:
    r = _run("--format", "jsonl", "--totals", files=FILES[:1])
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert not any(x["kind"] in ("file", "subtotals") for x in recs)
    assert recs[-1]["penalties"] == [9] and "files" not in recs[-1]
