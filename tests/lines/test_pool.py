"""`mjscore batch`: every line scored like `score`, bad lines reported, order kept."""

from __future__ import annotations

import csv
import io
import json
import shlex
from pathlib import Path

from typer.testing import CliRunner

from scorer.cli.app import app
from scorer.lines.pool import score_many, score_record
from tests.conftest import run_line

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_each_line_matches_score(tmp_path: Path) -> None:
    lines = [ln for ln in (EXAMPLES / "hangzhou.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    recs = list(score_many(lines, ["--rules", "hangzhou"]))
    assert len(recs) == len(lines)
    for rec, line in zip(recs, lines, strict=True):
        assert rec.ok, rec.error
        assert rec.data["payments"] == run_line(line, "hangzhou").payments


def test_bad_lines_do_not_stop_the_others(tmp_path: Path) -> None:
    f = tmp_path / "hands.txt"
    f.write_bytes(b"123m456p789s234sP9m --self-draw\n"
                  b"123m5p8 --self-draw\n"
                  b"\xff\xfe --self-draw\n"
                  b"# a comment\n\n"
                  b"11223344556677s --self-draw  # seven pairs\n")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--lang", "en"])
    assert r.exit_code == 1
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["line"] for x in recs] == [1, 2, 3, 6]
    assert recs[0]["payments"]["E"] == 12 and recs[3]["payments"]["E"] == 24
    assert recs[1]["error"]["message"] == "position 7: '8' has no suit letter after it"
    assert "not UTF-8" in recs[2]["error"]["message"]
    assert "line 2: position 7" in r.stderr and "line 3:" in r.stderr
    assert "6 lines" not in r.stderr and "4 lines, 2 failed" in r.stderr


def test_line_flags_override_batch_defaults(tmp_path: Path) -> None:
    f = tmp_path / "h.txt"
    f.write_text("123m456m789p234s55s --self-draw\n123m456m789p234s55s --self-draw --base 3\n")
    r = runner.invoke(app, ["batch", str(f), "--rules", "hangzhou", "--base", "2",
                            "--format", "csv"])
    assert r.exit_code == 0, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    # the contract's ten columns first, unchanged; the added ones after them
    assert rows[0] == ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W", "N",
                       "error", "unit", "pattern_names", "players", "side", "differences",
                       "source", "path"]
    assert rows[1][5] == "12" and rows[2][5] == "18"  # 2 × 2 × 1 × 3 payers; 3 × 2 × 1 × 3


def test_parallel_keeps_input_order() -> None:
    base = [f"123m456m789p234s55s --self-draw --base {b}" for b in range(1, 301)]
    recs = list(score_many(base, ["--rules", "hangzhou"], jobs=2, chunk=16))
    assert [r.line for r in recs] == list(range(1, 301))
    assert [r.data["payments"]["E"] for r in recs] == [6 * b for b in range(1, 301)]


def test_score_record_is_a_pure_function_of_text() -> None:
    rec = score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzhou"], line=7)
    assert rec["line"] == 7 and rec["best"]["score"] == 2
    bad = score_record("123m456p789s234sP9m --self-draw --piao 9", ["--rules", "hangzhou"])
    assert bad["error"]["exit"] == 2 and "--piao 9" in bad["error"]["message"]
    assert shlex.split("a # b", comments=True) == ["a"]


def test_parallel_example_gives_what_score_many_gives() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("parallel", EXAMPLES / "parallel.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    recs = mod.main(str(EXAMPLES / "hangzhou.txt"), "--rules", "hangzhou")
    lines = (EXAMPLES / "hangzhou.txt").read_text(encoding="utf-8").splitlines()
    expected = list(score_many(lines, ["--rules", "hangzhou"]))
    assert [r["line"] for r in recs] == [r.line for r in expected]
    assert [r["payments"] for r in recs] == [r.data["payments"] for r in expected]
