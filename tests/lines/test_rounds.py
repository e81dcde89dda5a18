"""scorer.lines.rounds: a whole Sichuan round as one batch line, ``round EVENT / EVENT …``,
booked in an evening's ledger beside hands and penalties. The expected totals are worked by
hand: examples/sichuan-evening.txt's comments (each round worked where it comes from), the
issue's 一炮多响 round (E 0, S +1, W +1, N −2)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from scorer.cli.app import app
from scorer.lines.records import score_record
from scorer.lines.rounds import round_line

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EVENING = str(EXAMPLES / "sichuan-evening.txt")
SHARED = ("round S win 123m456m789m55p66p6p --from E / W win 111s222s333s99s45p6p --from E / "
          "E hand [777m,1]888m999m44s55s / N hand 1135m112346899p")


def _batch(*args: str) -> Any:
    return runner.invoke(app, ["batch", *args])


def test_a_round_line_books_the_rounds_totals() -> None:
    rec = score_record(SHARED, ["--rules", "sichuan"], players="Ann,Bo,Cy,Di", lang="en")
    assert rec["kind"] == "round" and "error" not in rec
    assert rec["payments"] == {"E": 0, "S": 1, "W": 1, "N": -2}
    assert rec["winner"] == ["S", "W"] and rec["players"]["N"] == "Di"
    assert rec["round"]["totals"] == rec["payments"] and rec["round"]["mode"] == "xuezhan"


def test_the_sichuan_evening_totals_as_summed_by_hand() -> None:
    r = _batch(EVENING, "--totals", "--format", "jsonl")
    assert r.exit_code == 0, r.output
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["kind"] for x in recs] == ["round", "round", "penalty", "round", "totals"]
    tot = recs[-1]
    assert {p["name"]: p["net"] for p in tot["players"]} == {
        "Ann": -10, "Bo": -15, "Cy": 17, "Di": 8}
    assert {p["name"]: (p["hands_won"], p["penalties"]) for p in tot["players"]} == {
        "Ann": (0, 1), "Bo": (1, 0), "Cy": (3, 0), "Di": (1, 0)}
    assert tot["hands"] == 3 and len(tot["penalties"]) == 1
    # the 血流成河 round: S won twice, counted once as the round's winner
    assert recs[3]["round"]["mode"] == "xueliu" and recs[3]["winner"] == ["S"]


def test_csv_and_table_show_the_round() -> None:
    rows = list(csv.reader(io.StringIO(_batch(EVENING, "--format", "csv", "--lang", "en").stdout)))
    first = rows[1]
    assert first[4] == "round" and first[5:9] == ["4", "4", "8", "-16"]
    assert first[11] == "Sichuan round: S W won"
    # at a terminal where no cell folds (at 80 columns the cell folds: tests/cli/test_fit.py)
    table = runner.invoke(app, ["batch", EVENING, "--format", "table", "--lang", "zh"],
                          env={"COLUMNS": "1000"}).stdout
    assert "四川一局：S W 胡" in table


def test_a_bad_event_names_its_line_and_event(tmp_path: Path) -> None:
    f = tmp_path / "e.txt"
    f.write_text("# players: Ann,Bo,Cy,Di\n"
                 "round S win 123m456m789m55p66p6p --from E / S win 123m456m789m55p66p6p "
                 "--from W\npenalty Ann 1\n", encoding="utf-8")
    r = _batch(str(f), "--totals", "--format", "jsonl", "--lang", "en")
    assert r.exit_code == 1
    assert "line 2: event 2: the winner S won" in r.stderr
    rec = json.loads(r.stdout.splitlines()[0])
    assert rec["kind"] == "round" and rec["error"]["code"] == "round.out"
    assert rec["error"]["params"]["event"] == 2
    tot = json.loads(r.stdout.splitlines()[-1])
    # not counted: only the false win (Ann pays 1 to each)
    assert tot["failed"] == [2]
    assert {p["name"]: p["net"] for p in tot["players"]} == {"Ann": -3, "Bo": 1, "Cy": 1, "Di": 1}


def test_round_line_keeps_the_events_and_drops_the_comments() -> None:
    text = (EXAMPLES / "sichuan-round.txt").read_text(encoding="utf-8")
    line = round_line(text)
    assert line.startswith("round rules sichuan --option cap=16 / N kong 5s concealed / ")
    assert line.endswith(" / N hand [5555s]13579m24688s") and "#" not in line
    assert score_record(line, [])["payments"] == {"E": 4, "S": 4, "W": 8, "N": -16}
