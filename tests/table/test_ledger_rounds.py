"""A session of 血战 rounds settles like a session of hands: `mjscore round A B --totals`.

Round totals worked by hand: examples/sichuan-round.txt (its comments; S and W win):
E +4, S +4, W +8, N −16. tests/rounds/nobody.txt (tests/table/test_round.py::test_nobody_wins;
nobody wins): E +22, S +12, W +14, N −48.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from scorer.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
ROUND_A = ROOT / "examples" / "sichuan-round.txt"
ROUND_B = ROOT / "tests" / "rounds" / "nobody.txt"


def _session(tmp_path: Path) -> list[Path]:
    """The two rounds, the deal passed between them: Ann deals the first, Bo the second."""
    a = tmp_path / "a.txt"
    a.write_text("# players: E=Ann,S=Bo,W=Cy,N=Di\n" + ROUND_A.read_text(encoding="utf-8"),
                 encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("# players: Bo,Cy,Di,Ann\n" + ROUND_B.read_text(encoding="utf-8"),
                 encoding="utf-8")
    return [a, b]


def test_two_rounds_settle_per_player(tmp_path: Path) -> None:
    files = [str(p) for p in _session(tmp_path)]
    r = runner.invoke(app, ["round", *files, "--json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert [x["totals"] for x in data["rounds"]] == [{"E": 4, "S": 4, "W": 8, "N": -16},
                                                     {"E": 22, "S": 12, "W": 14, "N": -48}]
    assert data["rounds"][1]["seating"] == {"E": "Bo", "S": "Cy", "W": "Di", "N": "Ann"}
    t = data["totals"]
    assert t["kind"] == "totals" and t["by"] == "player" and t["hands"] == 2
    # Ann: +4 as E, −48 as N; Bo: +4 (S, won) +22 (E); Cy: +8 (W, won) +12 (S);
    # Di: −16 (N) +14 (W)
    assert {p["name"]: (p["won"], p["lost"], p["net"], p["hands_won"]) for p in t["players"]} \
        == {"Ann": (4, 48, -44, 0), "Bo": (26, 0, 26, 1), "Cy": (20, 0, 20, 1),
            "Di": (14, 16, -2, 0)}
    left = {p["name"]: Fraction(p["net"]) for p in t["players"]}
    for x in t["transfers"]:
        left[x["from"]] += x["amount"]
        left[x["to"]] -= x["amount"]
    assert set(left.values()) == {0} and len(t["transfers"]) <= 3


def test_the_text_ends_with_the_totals_and_a_stake_scales_them(tmp_path: Path) -> None:
    files = [str(p) for p in _session(tmp_path)]
    r = runner.invoke(app, ["round", *files, "--lang", "en", "--stake", "0.5"])
    assert r.exit_code == 0, r.stderr
    assert f"== {files[1]} (Bo,Cy,Di,Ann)" in r.stdout
    assert "Totals of 2 rounds, per player, at 0.5 a point" in r.stdout
    assert "Ann pays Bo 13" in r.stdout  # 26 × 0.5


def test_one_round_with_totals_is_per_seat_or_per_the_given_names() -> None:
    r = runner.invoke(app, ["round", str(ROUND_A), "--totals", "--json"])
    assert r.exit_code == 0, r.stderr
    t = json.loads(r.stdout)["totals"]
    assert t["by"] == "seat"
    assert {p["name"]: p["net"] for p in t["players"]} == {"E": 4, "S": 4, "W": 8, "N": -16}
    named = runner.invoke(app, ["round", str(ROUND_A), "--totals", "--json", "--players",
                                "Ann,Bo,Cy,Di"])
    t = json.loads(named.stdout)["totals"]
    assert {p["name"]: p["hands_won"] for p in t["players"]} == {
        "Ann": 0, "Bo": 1, "Cy": 1, "Di": 0}
    # one file without --totals prints as it always did
    plain = runner.invoke(app, ["round", str(ROUND_A), "--json"])
    assert set(json.loads(plain.stdout)) >= {"events", "players", "totals", "zero_sum"}
    assert json.loads(plain.stdout)["totals"] == {"E": 4, "S": 4, "W": 8, "N": -16}


def test_a_bad_round_in_a_session_names_its_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("E kong 5p concealed\nS kong 5p concealed\n", encoding="utf-8")
    r = runner.invoke(app, ["round", str(ROUND_A), str(bad), "--lang", "en"])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"mjscore: {bad}:2: a kong of 5p") and "Traceback" not in r.stderr
    two = tmp_path / "two.txt"
    two.write_text("# players: Ann,Bo,Cy,Di\n# players: Bo,Cy,Di,Ann\n" +
                   ROUND_A.read_text(encoding="utf-8"), encoding="utf-8")
    r = runner.invoke(app, ["round", str(two), "--totals", "--lang", "en"])
    assert r.exit_code == 2 and f"{two}:2: a round has one seating" in r.stderr
    r = runner.invoke(app, ["round", str(ROUND_A), "--totals", "--stake", "x", "--lang", "en"])
    assert r.exit_code == 2 and "--stake 'x'" in r.stderr
