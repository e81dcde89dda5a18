"""`mjscore standings`: MCR match standings through the CLI, on the club evening of
examples/standings/club.txt (five games, every tie pattern, each share worked by hand in
its comments) and on evening files that are a game each."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction as F
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from scorer.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
CLUB = str(ROOT / "examples" / "standings" / "club.txt")
# per game: name -> (比赛分, 标准分), worked by hand in the file
GAMES = [
    {"Ann": (200, F(3)), "Bo": (200, F(3)), "Cy": (-200, F(1, 2)), "Di": (-200, F(1, 2))},
    {"Ann": (121, F(4)), "Cy": (-8, F(3, 2)), "Di": (-8, F(3, 2)), "Bo": (-105, F(0))},
    {"Ann": (300, F(4)), "Bo": (-100, F(1)), "Cy": (-100, F(1)), "Di": (-100, F(1))},
    {"Ann": (10, F(7, 3)), "Bo": (10, F(7, 3)), "Cy": (10, F(7, 3)), "Di": (-30, F(0))},
    {n: (0, F(7, 4)) for n in ("Ann", "Bo", "Cy", "Di")},
]
STANDINGS = [("Ann", 1, F(181, 12), 631), ("Bo", 2, F(97, 12), 5), ("Cy", 3, F(85, 12), -298),
             ("Di", 4, F(19, 4), -338)]


def _run(*args: str, files: tuple[str, ...] = (CLUB,)) -> Any:
    return runner.invoke(app, ["standings", *files, *args])


def test_the_club_evening_as_worked_by_hand() -> None:
    r = _run("--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert len(data["games"]) == 5 and data["failed"] == []
    for g, want in zip(data["games"], GAMES, strict=True):
        got = {p["name"]: (p["match"], F(p["standard_exact"])) for p in g["players"]}
        assert got == want
        for p in g["players"]:
            assert p["standard"] == float(F(p["standard_exact"]))
    assert data["games"][1]["name"] == "2, tied across places 2-3" and data["games"][1]["line"]
    got = [(s["name"], s["place"], F(s["standard_exact"]), s["match"]) for s in data["standings"]]
    assert got == STANDINGS


def test_csv_and_both_languages() -> None:
    rows = list(csv.reader(io.StringIO(_run("--format", "csv").stdout)))
    assert rows[0][:4] == ["kind", "game", "name", "player"]
    four = [r for r in rows if r[0] == "game" and r[1] == "5"]
    assert {(r[3], r[7], r[8]) for r in four} == {(n, "1.75", "7/4") for n in
                                                  ("Ann", "Bo", "Cy", "Di")}
    three = [r for r in rows if r[0] == "game" and r[1] == "4" and r[3] != "Di"]
    assert {(r[5], r[6], r[7], r[8]) for r in three} == {("1", "1", "2.33", "7/3")}
    st = [r for r in rows if r[0] == "standing"]
    assert [(r[3], r[4]) for r in st] == [("Ann", "15.08"), ("Bo", "8.08"), ("Cy", "7.08"),
                                          ("Di", "4.75")]
    en = _run("--lang", "en").stdout
    assert "Standings after 5 games (by standard points, then match points)" in en
    assert ["Cy", "-8", "2=", "1.5"] in [line.split() for line in en.splitlines()]
    zh = _run().stdout
    assert "5 局后的排名（按标准分，再按比赛分）" in zh and "标准分" in zh and "比赛分" in zh


def test_a_file_is_a_game() -> None:
    weeks = tuple(str(ROOT / "examples" / "season" / f"week{i}.txt") for i in (1, 2))
    data = json.loads(_run("--json", files=weeks).stdout)
    assert [g["name"] for g in data["games"]] == list(weeks)
    # week 1: Ann +30, Bo +22, Di -6, Cy -46 (penalty included); week 2: Cy +290,
    # Ann -70 (adjustment included), Di -90, Bo -130
    assert [(p["name"], p["match"], p["standard"]) for p in data["games"][0]["players"]] == [
        ("Ann", 30, 4), ("Bo", 22, 2), ("Di", -6, 1), ("Cy", -46, 0)]
    assert [(p["name"], p["match"]) for p in data["games"][1]["players"]] == [
        ("Cy", 290), ("Ann", -70), ("Di", -90), ("Bo", -130)]
    # Ann 4 + 2 = 6; Cy 0 + 4 = 4; Di 1 + 1 = 2, 比赛分 -96; Bo 2 + 0 = 2, 比赛分 -108
    assert [(s["name"], s["standard"], s["match"]) for s in data["standings"]] == [
        ("Ann", 6, -40), ("Cy", 4, 244), ("Di", 2, -96), ("Bo", 2, -108)]


def test_mistakes_name_their_file_and_line(tmp_path: Path) -> None:
    five = tmp_path / "five.txt"
    five.write_text("# game: g\n# players: A,B,C,D\npenalty A 1\n# players: E,B,C,D\n"
                    "penalty E 1\n", encoding="utf-8")
    r = _run("--lang", "en", files=(str(five),))
    assert r.exit_code == 2 and f"{five}:1: game g: 5 players (A, B, C, D, E)" in r.stderr
    zh = _run("--lang", "zh", files=(str(five),))
    assert f"{five}:1: 第 g 局：5 个玩家（A、B、C、D、E）；一局要 4 个" in zh.stderr
    loose = tmp_path / "loose.txt"
    loose.write_text("# players: A,B,C,D\npenalty A 1\n# game: g\n", encoding="utf-8")
    r = _run("--lang", "en", files=(str(loose),))
    assert r.exit_code == 2 and f"{loose}:2: a line before the first '# game:'" in r.stderr
    bare = tmp_path / "bare.txt"
    bare.write_text("1112345678999m5m --self-draw\n", encoding="utf-8")
    r = _run("--lang", "en", files=(str(bare),))
    assert r.exit_code == 2 and "no player names" in r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("# players: A,B,C,D\n1112345678999m5m --self-draw\n123m\n", encoding="utf-8")
    r = _run("--json", "--lang", "en", files=(str(bad),))
    assert r.exit_code == 1 and f"mjscore: {bad}: line 3:" in r.stderr
    assert json.loads(r.stdout)["failed"] == [f"{bad}:3"]
