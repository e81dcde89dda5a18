"""An evening settled through the CLI: `mjscore batch examples/evening.txt --totals`.

The evening (examples/evening.txt) holds ten lines across the five rulesets, the seats
rotating as the deal passes ('# players:' lines and a line's own --players), a mistyped
hand and a disputed hand (--vs-option). Every payment below is worked by hand in the
file's comments from the rulings (docs/rulings.md) and the README's worked examples;
the totals are their sums, worked by hand too. Each format is run through the CLI runner,
and every scored line is checked against `mjscore score` for the same line.
"""

from __future__ import annotations

import csv
import io
import json
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scorer.cli.app import app
from scorer.lines.pool import score_many
from scorer.table.ledger import Builder

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
EVENING = ROOT / "examples" / "evening.txt"
SEATING = ["--players", "E=Ann,S=Bo,W=Cy,N=Di"]

# line -> {player: points}, worked by hand (examples/evening.txt explains each)
HANDS: dict[int, dict[str, int]] = {
    9: {"Ann": 12, "Bo": -4, "Cy": -4, "Di": -4},
    12: {"Ann": 6, "Bo": -2, "Cy": -2, "Di": -2},
    18: {"Bo": -4, "Cy": 8, "Di": -2, "Ann": -2},
    21: {"Bo": -16, "Cy": -8, "Di": 32, "Ann": -8},
    26: {"Cy": 32, "Di": -8, "Ann": -16, "Bo": -8},
    30: {"Bo": -8, "Cy": 36, "Di": -8, "Ann": -20},
    36: {"Cy": 426, "Di": -142, "Ann": -142, "Bo": -142},
    39: {"Ann": 32, "Di": -32},
    43: {"Cy": 768, "Di": -256, "Ann": -256, "Bo": -256},  # the dispute, side A
}
BAD, DISPUTED = 23, 43
# name: (won, lost, net, hands won), summed by hand in the file's last comment
TOTALS = {"Ann": (50, 444, -394, 3), "Bo": (0, 440, -440, 0), "Cy": (1270, 14, 1256, 5),
          "Di": (32, 454, -422, 1)}


def _batch(*args: str) -> Any:
    return runner.invoke(app, ["batch", str(EVENING), *SEATING, "--totals", *args])


def _lines() -> dict[int, str]:
    return dict(enumerate(EVENING.read_text(encoding="utf-8").splitlines(), 1))


def _settles(nets: dict[str, Fraction], transfers: list[tuple[str, str, Fraction]]) -> None:
    """Every transfer is positive, they bring each net to zero, and there are at most
    players − 1 of them."""
    left = dict(nets)
    for payer, payee, amount in transfers:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values()), left
    assert len(transfers) <= len(nets) - 1


def test_jsonl_hands_match_score_and_the_totals_are_the_sums() -> None:
    r = _batch("--format", "jsonl")
    assert r.exit_code == 1  # the mistyped line
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    *hands, totals = recs
    assert [h["line"] for h in hands] == sorted([*HANDS, BAD])
    assert all(h["kind"] in ("hand", "dispute") for h in hands)
    assert {h["line"] for h in hands if h["kind"] == "dispute"} == {DISPUTED}
    text = _lines()
    for h in hands:
        if h["line"] == BAD:
            assert h["input_hand"] == "123m5p8" and "第 7 个字符" in h["error"]["message"]
            assert h["error"]["code"] == "notation.no_suit"
            continue
        side = h["a"] if h["kind"] == "dispute" else h
        names = h["players"]
        assert {names[s]: v for s, v in side["payments"].items() if v} == HANDS[h["line"]]
        # the same line through `mjscore score` gives the same result
        argv = shlex.split(text[h["line"]], comments=True)
        if "--players" in argv:
            i = argv.index("--players")
            del argv[i:i + 2]
        one = runner.invoke(app, ["score", *argv, "--json"])
        assert one.exit_code == 0, one.stderr
        alone = json.loads(one.stdout)
        if h["kind"] == "dispute":
            assert alone["a"]["payments"] == h["a"]["payments"]
            assert alone["b"]["payments"] == h["b"]["payments"]
            assert alone["differences"] == h["differences"]
        else:
            assert alone["payments"] == h["payments"] and alone["best"] == h["best"]
    assert totals["kind"] == "totals" and totals["by"] == "player" and totals["stake"] == 1
    assert totals["hands"] == 9 and totals["failed"] == [BAD]
    assert totals["disputed"] == [DISPUTED]
    got = {p["name"]: (p["won"], p["lost"], p["net"], p["hands_won"]) for p in totals["players"]}
    assert got == TOTALS
    # the totals are the sums of the hands, and each player's won - lost is the net
    for name, (won, lost, net, _) in TOTALS.items():
        pts = [h[name] for h in HANDS.values() if name in h]
        assert (won, lost, net) == (sum(p for p in pts if p > 0), -sum(p for p in pts if p < 0),
                                    sum(pts))
    transfers = [(x["from"], x["to"], Fraction(x["amount"])) for x in totals["transfers"]]
    assert sorted(transfers) == [("Ann", "Cy", 394), ("Bo", "Cy", 440), ("Di", "Cy", 422)]
    _settles({n: Fraction(v[2]) for n, v in TOTALS.items()}, transfers)


def test_csv_rows_then_totals_then_transfers_each_under_its_header() -> None:
    r = _batch("--format", "csv", "--lang", "en")
    assert r.exit_code == 1
    rows = list(csv.reader(io.StringIO(r.stdout)))
    head = rows[0]
    assert head[:10] == ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W", "N",
                         "error"]
    at_totals = rows.index(["kind", "name", "won", "lost", "net", "hands_won", "penalties"])
    at_transfers = rows.index(["kind", "payer", "payee", "amount"])
    hands = [dict(zip(head, row, strict=True)) for row in rows[1:at_totals]]
    by_line: dict[int, list[dict[str, str]]] = {}
    for h in hands:
        by_line.setdefault(int(h["line"]), []).append(h)
    assert sorted(by_line) == sorted([*HANDS, BAD])
    bad = by_line[BAD][0]
    assert bad["hand"] == "123m5p8" and bad["error"].startswith("position 7:")
    a, b = by_line[DISPUTED]
    assert (a["side"], b["side"]) == ("A", "B") and "payments" in a["differences"].split()
    assert (a["E"], b["E"]) == ("768", "192")  # 8 × 32 × 3, and at 封顶 64: 64 × 3
    mcr = by_line[30][0]
    assert mcr["patterns"].split()[:2] == ["concealed_hand", "all_chows"]  # ids stay
    assert mcr["pattern_names"].startswith("Concealed Hand, All Chows")  # names in --lang
    assert {n: by_line[n][0]["unit"] for n in (9, 26, 30, 36, 39)} == {
        9: "fan", 26: "multiplier", 30: "fan", 36: "k", 39: "multiplier"}
    for n, pts in HANDS.items():
        row = by_line[n][0]
        seats = dict(x.split("=") for x in row["players"].split(","))
        assert {seats[s]: int(row[s]) for s in "ESWN" if int(row[s])} == pts
    totals = {row[1]: tuple(int(x) for x in row[2:6]) for row in rows[at_totals + 1:at_transfers]}
    assert totals == TOTALS
    assert all(row[0] == "totals" for row in rows[at_totals + 1:at_transfers])
    transfers = [(row[1], row[2], Fraction(row[3])) for row in rows[at_transfers + 1:]]
    assert all(row[0] == "transfer" for row in rows[at_transfers + 1:])
    _settles({n: Fraction(v[2]) for n, v in TOTALS.items()}, transfers)


def test_table_shows_names_units_and_the_settlement() -> None:
    r = _batch("--format", "table")
    assert r.exit_code == 1
    out = r.stdout
    assert "清七对" in out and "暴头" in out and "番" in out and "倍" in out
    assert "zimo" not in out  # ids are for JSON and the CSV id column
    assert "B − A" in out and "B:" in out  # at 80 columns, "B: hangzhou cap=64" folds
    wide = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--totals", "--format", "table"],
                         env={"COLUMNS": "200"}).stdout  # a terminal where no cell folds
    assert "B: hangzhou cap=64" in wide
    # the totals in the table's language (zh by default), as README shows them in English
    assert "共 9 盘的合计，按玩家" in out and "不计：1 行出错（23）" in out
    rows = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines()
            if ln.split() and ln.split()[0] in TOTALS and not ln.startswith(" ")}
    assert {n: (int(v[0]), int(v[1]), int(v[2]), int(v[3])) for n, v in rows.items()} == TOTALS
    assert "结算（3 笔）：" in out and "Bo 付给 Cy 440" in out
    en = _batch("--format", "table", "--lang", "en").stdout
    assert "Totals of 9 hands, per player" in en and "Not counted: 1 failed line (23)" in en
    assert "To settle (3 transfers):" in en and "Bo pays Cy 440" in en
    # the same with the table format's default: no totals when stdout is not a terminal
    plain = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--format", "table"])
    assert "Totals" not in plain.stdout


def test_a_stake_scales_every_amount_exactly() -> None:
    r = _batch("--format", "jsonl", "--stake", "0.5")
    totals = json.loads(r.stdout.splitlines()[-1])
    assert totals["stake"] == "0.5"
    assert {p["name"]: p["net"] for p in totals["players"]} == {
        "Ann": "-197", "Bo": "-220", "Cy": "628", "Di": "-211"}
    # --stake alone asks for the totals
    r2 = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--stake", "2"])
    last = json.loads(r2.stdout.splitlines()[-1])
    assert last["kind"] == "totals" and last["players"][0]["net"] == -788
    for lang, said in (("en", "--stake '1/3': not a decimal number (like 2 or 0.5)"),
                       ("zh", "--stake '1/3'：不是十进制数（写成 2 或 0.5 这样）")):
        bad = runner.invoke(app, ["batch", str(EVENING), "--stake", "1/3", "--lang", lang])
        assert bad.exit_code == 2 and bad.stdout == ""
        assert bad.stderr.strip().splitlines() == [f"mjscore: {said}"]


def test_parallel_chunks_give_the_same_totals() -> None:
    lines = EVENING.read_text(encoding="utf-8").splitlines()

    def total(jobs: int, chunk: int) -> Any:
        b = Builder()
        for rec in score_many(lines, SEATING, jobs=jobs, chunk=chunk, fmt="jsonl"):
            b.add(rec, None)
        return b.ledger().totals()

    serial, parallel = total(1, 128), total(2, 3)
    assert parallel == serial
    assert {r.name: int(r.net) for r in serial.rows} == {n: v[2] for n, v in TOTALS.items()}


def test_without_names_the_totals_are_per_seat_and_say_so(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    # 自摸 1 番 by the dealer (+6), then idle S's 暴头 2 番 (E −4, S +8, W −2, N −2)
    f.write_text("123m456m789p234s55s --self-draw\n123m456p789s234sP9m --self-draw --seat S\n",
                 encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--totals", "--format",
                            "table"])
    assert r.exit_code == 0, r.stderr
    assert "按座位" in r.stdout and "没有给玩家名字" in r.stdout
    j = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--totals"])
    totals = json.loads(j.stdout.splitlines()[-1])
    assert totals["by"] == "seat"
    assert {p["name"]: p["net"] for p in totals["players"]} == {"E": 2, "S": 6, "W": -4, "N": -4}


def test_names_on_some_hands_only_is_a_line_error_of_the_totals(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    f.write_text("123m456m789p234s55s --self-draw --players Ann,Bo,Cy,Di\n"
                 "123m456m789p234s55s --self-draw\n", encoding="utf-8")
    for lang, said in (("en", "line 2: not in the totals: this hand names no players, "
                              "earlier ones do\n"),
                       ("zh", "第 2 行：不计入合计：这手没写玩家名字，前面的写了\n")):
        r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--totals",
                                "--lang", lang])
        assert r.exit_code == 1
        assert r.stderr.startswith(said), r.stderr
        totals = json.loads(r.stdout.splitlines()[-1])
        assert totals["hands"] == 1 and totals["failed"] == [2]


def test_rules_may_be_left_to_each_line(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    f.write_text("123m456m789p234s55s --self-draw --rules hangzhou\n"
                 "123m456m789p234s55s --self-draw\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--format", "csv", "--lang", "en"])
    assert r.exit_code == 1, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[1][5] == "6"  # the dealer's 自摸 1 番, 2 from each of three
    assert rows[2][1] == "123m456m789p234s55s"
    assert rows[2][9].startswith("no ruleset for this line: add --rules ID")
    assert "line 2: no ruleset" in r.stderr and "Missing option" not in r.stderr
    z = runner.invoke(app, ["batch", str(f), "--format", "csv", "--lang", "zh"])
    assert list(csv.reader(io.StringIO(z.stdout)))[2][9].startswith(
        "这一行没有规则：给这一行或 batch 加 --rules ID")
    assert "第 2 行：这一行没有规则" in z.stderr and "缺少选项" not in z.stderr


@pytest.mark.parametrize("line, words", [
    ("123m456m789p234s55s --self-draw --stake 2", "--stake is for the whole batch"),
    ("123m456m789p234s55s --self-draw --players Ann,X=Bo", "--players position 5"),
    ("# players: Ann,Ann", "Ann sits at both E and S"),
    ("123m456m789p234s55s --self-draw --players", "requires an argument"),
])
def test_bad_line_flags_are_errors_of_that_line(tmp_path: Path, line: str, words: str) -> None:
    f = tmp_path / "h.txt"
    f.write_text(f"{line}\n123m456m789p234s55s --self-draw\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--lang", "en"])
    assert r.exit_code == 1
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert recs[0]["line"] == 1 and words in recs[0]["error"]["message"]
    assert recs[1]["payments"]["E"] == 6  # the next line is scored all the same
    assert "Traceback" not in r.stderr


def test_help_lists_every_flag_a_line_takes() -> None:
    from scorer.lines.grammar import OPTIONS

    r = runner.invoke(app, ["batch", "--help"])
    assert r.exit_code == 0
    for f in OPTIONS:
        if f.field not in ("as_json", "explain", "no_unicode", "lang"):
            assert f"  {f.name}" in r.stdout, f.name
    for flag in ("--players SEATING", "--totals", "--stake"):
        assert flag in r.stdout


def test_the_readme_shows_what_the_evening_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = "$ mjscore batch examples/evening.txt --players E=Ann,S=Bo,W=Cy,N=Di --totals " \
           "--format table --lang en\n(the table of the ten lines, then:)\n"
    shown = readme[readme.index(head) + len(head):].split("```")[0].rstrip("\n")
    r = runner.invoke(app, ["batch", str(EVENING), *SEATING, "--totals", "--format", "table",
                            "--lang", "en"])
    assert r.stdout.rstrip("\n").endswith("\n" + shown)


def test_a_players_line_may_separate_seats_by_spaces(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    # the dealer's 自摸 1 番: E +6, each idle player −2; Bo deals
    f.write_text("# players: E=Bo S=Cy W=Di N=Ann\n123m456m789p234s55s --self-draw\n",
                 encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--totals"])
    assert r.exit_code == 0, r.stderr
    totals = json.loads(r.stdout.splitlines()[-1])
    assert {p["name"]: p["net"] for p in totals["players"]} == {
        "Bo": 6, "Cy": -2, "Di": -2, "Ann": -2}


def test_a_table_on_a_terminal_ends_with_the_totals(tmp_path: Path) -> None:
    from scorer.cli.batchrun import run

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = Terminal(), io.StringIO()
    assert run(str(EVENING), SEATING, "table", out=out, err=err) == 1
    assert "结算（3 笔）：" in out.getvalue()
    off = Terminal()
    run(str(EVENING), SEATING, "table", out=off, err=io.StringIO(), totals=False)
    assert "合计" not in off.getvalue() and "结算" not in off.getvalue()  # --no-totals


def test_thirty_evenings_in_two_processes_total_thirty_times_one(tmp_path: Path) -> None:
    """Through the CLI with --jobs 2 (more than two chunks, so a process pool): each worker
    sends back what the ledger reads; the totals are 30 × the evening's (the nets scale, and
    so do the three transfers)."""
    text = EVENING.read_text(encoding="utf-8")
    f = tmp_path / "month.txt"
    f.write_text("".join("# players: E=Ann,S=Bo,W=Cy,N=Di\n" + text for _ in range(30)),
                 encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--jobs", "2", "--totals", "--format", "csv"])
    assert r.exit_code == 1
    rows = list(csv.reader(io.StringIO(r.stdout)))
    at = rows.index(["kind", "name", "won", "lost", "net", "hands_won", "penalties"])
    assert len(rows[1:at]) == 30 * 11  # ten lines, the dispute as two rows
    got = {row[1]: tuple(int(x) for x in row[2:6]) for row in rows[at + 1:] if row[0] == "totals"}
    assert got == {n: tuple(30 * x for x in v) for n, v in TOTALS.items()}
    transfers = sorted((row[1], row[2], int(row[3])) for row in rows if row[0] == "transfer")
    assert transfers == [("Ann", "Cy", 30 * 394), ("Bo", "Cy", 30 * 440), ("Di", "Cy", 30 * 422)]
    assert "（2 个进程）" in r.stderr  # the summary, in the run's language (zh)


def test_a_bad_flag_is_named_by_its_place_on_the_line(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    f.write_text("11m --players Ann,Bo --bogus\n123m456m789p234s55s --self-draw --stake 2\n",
                 encoding="utf-8")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--option", "cap=128"])
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    # the 4th and 3rd words of the lines, whatever flags batch itself was given
    assert [x["error"]["argument"] for x in recs] == [4, 3]


def test_quiet_leaves_out_the_summary_but_not_a_failed_line(tmp_path: Path) -> None:
    """-q/--quiet: no summary (and no progress line) on stderr; a failed line still says so;
    the summary counts in the singular when there is one line, in both languages."""
    f = tmp_path / "two.txt"
    f.write_text("123m456p789s234sP9m --self-draw\n123m5p8 --self-draw\n", encoding="utf-8")
    base = [sys.executable, "-m", "scorer", "batch", str(f), "--rules", "hangzhou"]
    loud = subprocess.run([*base, "--lang", "en"], capture_output=True, text=True, check=False)
    assert loud.stderr.splitlines()[-1].startswith("mjscore batch: 2 lines, 1 failed, ")
    assert loud.stderr.splitlines()[-1].endswith(" hands/s (1 job)")
    for quiet in ("-q", "--quiet"):
        r = subprocess.run([*base, quiet, "--lang", "en", "--progress"], capture_output=True,
                           text=True, check=False)
        assert r.returncode == 1 and r.stdout == loud.stdout
        assert r.stderr == "line 2: position 7: '8' has no suit letter after it\n"
    one = tmp_path / "one.txt"
    one.write_text("123m456p789s234sP9m --self-draw\n", encoding="utf-8")
    for lang, start in (("en", "mjscore batch: 1 line, 0 failed, "), ("zh", "mjscore batch：1 行，")):
        r = subprocess.run([sys.executable, "-m", "scorer", "batch", str(one), "--rules",
                            "hangzhou", "--lang", lang], capture_output=True, text=True,
                           check=False)
        assert r.stderr.startswith(start), r.stderr
