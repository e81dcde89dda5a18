"""The CLI surface of docs/contract.md, through typer's runner and as an installed command."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.cli.entry import main


def run(*args: str) -> tuple[int, str, str]:
    """Run the real entry point (usage errors are turned into one line there)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def unfold(text: str) -> str:
    r"""``text`` with every line break and the spaces around it as one space: what a folded
    output says, whatever the width it was folded to.

    >>> unfold("Pattern:  a long\n          name = fan 8")
    'Pattern: a long name = fan 8'
    """
    return re.sub(r"\s+", " ", text)


def test_score_json_has_the_contract_fields() -> None:
    code, out, _ = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "hangzhou"
    assert data["hand"] == "123m456p234789sP9m"
    best = data["best"]
    assert best["score"] == 2
    assert best["patterns"] == [{"id": "baotou", "name": "暴头",
                                 "name_en": "Wildcard pair (bao tou)", "value": 2, "count": 1}]
    assert best["decomposition"] == ["123m", "456p", "234s", "789s", "9*9m"]
    assert best["wildcards"] == {"12": "9m"}  # the 13th tile written is the P, read as 9m
    assert data["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_human_report_shows_reading_chain_and_table() -> None:
    code, out, _ = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       "--piao", "2", "--seat", "W", "--lang", "en")
    assert code == 0
    out = unfold(out)  # the report folds at 80 columns: its text is read here
    assert "Wildcard: P ×1 → 9m" in out
    # 双财飘: two wildcard discards before the 暴头 (docs/rulings.md, Hangzhou), 2^(2+1) = 8
    assert ("Double piao (two wildcard discards) (Wildcard discarded, then bao tou: "
            "2^(piao 2 + 1)) = fan 8") in out
    assert "base 1 × dealer factor 2 × fan 8 = 16 from E" in out
    assert "base 1 × dealer factor 1 × fan 8 = 8 from each of S, N" in out
    code, out, _ = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       "--piao", "2", "--seat", "W")
    assert code == 0
    assert "财神： P ×1 → 9m" in out
    assert "番种： 双财飘 (财飘: 2^(飘 2 + 1)) = 番 8" in out
    assert "付分： 底分 1 × 庄闲分 2 × 番 8 = 16，E 付" in out
    assert "       底分 1 × 庄闲分 1 × 番 8 = 8，S, N 各付" in out


def test_explain_lists_every_reading_best_first() -> None:
    code, out, _ = run("score", "123m456p789s234sPP", "--rules", "hangzhou", "--self-draw",
                       "--explain", "--json")
    assert code == 0
    data = json.loads(out)
    scores = [item["payments"]["E"] for item in data["explain"]]
    assert scores == sorted(scores, reverse=True)
    assert data["explain"][0]["payments"]["E"] == data["payments"]["E"]
    assert any(p["id"] == "zimo" for item in data["explain"] for p in item["patterns"])


@pytest.mark.parametrize("args,code,fragment", [
    (["score", "123m5p8", "--rules", "hangzhou", "--lang", "en"], 2, "position 7"),
    (["score", "123m5p8", "--rules", "hangzhou"], 2, "第 7 个字符"),  # zh: the default
    (["score", "123m456m789p234s56s", "--rules", "hangzhou", "--self-draw", "--lang", "en"],
     3, "not a winning hand"),
    (["score", "123m456m789p234s56s", "--rules", "hangzhou", "--self-draw"], 3, "不是胡牌"),
    (["score", "123m456m789p234s55s", "--rules", "nosuch", "--lang", "en"], 2,
     "no built-in ruleset"),
    (["score", "123m456m789p234s55s", "--rules", "hangzhou", "--bogus", "--lang", "en"], 2,
     "No such option"),
    # a usage error speaks the run's language too (zh here: no --lang, a C locale's default)
    (["score", "123m456m789p234s55s", "--rules", "hangzhou", "--bogus"], 2, "没有这个选项"),
    (["score", "123m456m789p234s55s"], 2, "--rules"),
    (["score", "123m456m789p234s55s", "--rules", "hangzhou", "--lang", "fr"], 2, "--lang"),
])
def test_errors_are_one_line_with_the_documented_status(args: list[str], code: int,
                                                        fragment: str) -> None:
    got, out, err = run(*args)
    assert got == code
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err
    assert "Traceback" not in err


def test_json_error_goes_to_stdout_too() -> None:
    code, out, err = run("score", "123m5p8", "--rules", "hangzhou", "--json", "--lang", "en")
    assert code == 2
    assert json.loads(out) == {"error": {"kind": "notation", "position": 7,
                                         "message": "position 7: '8' has no suit letter after it",
                                         "code": "notation.no_suit",
                                         "params": {"digit": "8", "position": 7}}}
    assert "position 7" in err
    # in Chinese: the same code and parameters, the message in Chinese
    code, out, err = run("score", "123m5p8", "--rules", "hangzhou", "--json")
    assert json.loads(out)["error"] == {"kind": "notation", "position": 7,
                                        "message": "第 7 个字符：'8' 后面没有花色字母",
                                        "code": "notation.no_suit",
                                        "params": {"digit": "8", "position": 7}}
    assert err == "mjscore: 第 7 个字符：'8' 后面没有花色字母\n"


def test_rules_list_and_show(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run("rules")
    assert code == 0 and "hangzhou" in out
    monkeypatch.setenv("COLUMNS", "200")  # a terminal where no cell of the tables folds
    code, out, _ = run("rules", "hangzhou")
    assert code == 0
    for fragment in ("qike", "七客", "2 ** (2 + luxury + piao)", "cap", "none, 64, 128, 256"):
        assert fragment in out


def test_installed_command_finds_its_rulesets(tmp_path: Path) -> None:
    # Run from an empty folder so the installed package (not the source tree) is used,
    # both as the console script and as `python -m scorer`.
    exe = shutil.which("mjscore") or str(Path(sys.executable).parent / "mjscore")
    for cmd in ([exe], [sys.executable, "-m", "scorer"]):
        r = subprocess.run([*cmd, "score", "11223344556677s", "--rules", "hangzhou",
                            "--self-draw", "--json"], capture_output=True, text=True,
                           check=False, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["payments"]["E"] == 24
