"""No foreign text inside a message (issue 27): what the operating system, typer's parser and
the TOML parser refuse is said from codes in the run's language, zh and en, and what a
Chinese input method types for a number or a flag name reads as its ASCII.

Every expected line is written here from the catalogue's templates (scorer/text/codes*.py)
and the C library's words for an errno; each zh line is checked to hold no English
sentence (tests/cli/test_fit.py's ``english``) and to name what its en twin names
(tests/helpers/bilingual.py).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import batchrun
from scorer.cli.entry import main
from scorer.cli.usage import usage_code
from scorer.text.render import render
from tests.cli.test_fit import english
from tests.helpers.bilingual import same_things, twins

HAND = "123m456p789s234sP9m"  # README's worked Hangzhou hand: 自摸 番 2, E gets 4 from each
MCR = "123m456p789s234s99m"  # 13 fan on a discard in MCR: the discarder pays 21, the others 8


def run(*args: str, fast: bool = True) -> tuple[int, str, str]:
    """The real entry point (config, the argv reading, both parsers, the usage errors)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args), fast=fast)
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def said(args: list[str], zh: str, en: str, status: int = 2, fast: bool = True) -> dict[str, Any]:
    """Assert ``mjscore ARGS`` says the one line ``mjscore: ZH`` under --lang zh and
    ``mjscore: EN`` under --lang en, exits ``status``, and gives the same JSON error (code
    and params) in both; returns the JSON error (en). ``fast=False``: typer reads every
    line (as :func:`scorer.cli.entry.main` can be told)."""
    errors = {}
    at = 2 if args[0] == "rules" else 1  # (--lang and --json after the command: the line's
    # last argument may be the mistake)
    for lang, want in (("zh", zh), ("en", en)):
        code, out, err = run(*args[:at], "--lang", lang, *args[at:], fast=fast)
        assert (code, err) == (status, f"mjscore: {want}\n"), (lang, code, err)
        code, out, _ = run(*args[:at], "--json", "--lang", lang, *args[at:], fast=fast)
        assert code == status, (lang, out)
        errors[lang] = json.loads(out.splitlines()[-1])["error"]
    twins(errors["zh"], errors["en"])
    assert english(zh, given=" ".join(args)) == [], zh
    return errors["en"]


# ---- 1. the operating system's refusals: a reason of the catalogue, never strerror

def test_a_missing_file(tmp_path: Path) -> None:
    f = tmp_path / "nofile.txt"
    for command in ("batch", "round", "standings"):
        err = said([command, str(f)], f"读不了 {f}：没有这个文件或文件夹",
                   f"cannot read {f}: No such file or directory")
        assert err["code"] == "file.unreadable"
        assert err["params"] == {"path": str(f), "reason": "not_found", "errno": "ENOENT"}


def test_a_directory_given_as_a_file(tmp_path: Path) -> None:
    for command in ("batch", "round", "standings"):
        err = said([command, str(tmp_path)], f"读不了 {tmp_path}：这是文件夹，不是文件",
                   f"cannot read {tmp_path}: Is a directory")
        assert err["params"]["reason"] == "is_dir"


def test_the_config_file_is_a_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJSCORE_CONFIG", str(tmp_path))
    said(["config"], f"{tmp_path}: 读不了配置文件：这是文件夹，不是文件",
         f"{tmp_path}: cannot read the config file: Is a directory")


def test_an_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "hands.txt"
    f.write_text(f"{HAND} --rules hangzhou --self-draw\n", encoding="utf-8")
    f.chmod(0)
    if os.access(f, os.R_OK):  # root reads it all the same: the system's refusal, mocked
        real = open

        def refused(path: Any, *a: Any, **k: Any) -> Any:
            if str(path) == str(f):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real(path, *a, **k)

        monkeypatch.setattr(batchrun, "open", refused, raising=False)
    err = said(["batch", str(f)], f"读不了 {f}：没有权限", f"cannot read {f}: Permission denied")
    assert err["params"]["reason"] == "permission" and err["params"]["errno"] == "EACCES"


def test_an_errno_without_a_word_is_named(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "fifo.txt"

    def odd(path: Any, *a: Any, **k: Any) -> Any:
        raise OSError(errno.ENXIO, os.strerror(errno.ENXIO), str(path))

    monkeypatch.setattr(batchrun, "open", odd, raising=False)
    err = said(["batch", str(f)], f"读不了 {f}：系统错误 ENXIO",
               f"cannot read {f}: system error ENXIO")
    assert err["params"] == {"path": str(f), "reason": "other", "errno": "ENXIO"}


def test_a_ruleset_the_system_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pathlib

    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.yaml").write_text("extends: mcr\n", encoding="utf-8")
    real = pathlib.Path.open

    def refused(self: pathlib.Path, *a: Any, **k: Any) -> Any:
        if self.name == "r.yaml":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(pathlib.Path, "open", refused)
    err = said(["score", MCR, "--rules", "r.yaml", "--self-draw"],
               "读不了规则 'r.yaml'：没有权限", "cannot read ruleset 'r.yaml': Permission denied")
    assert err["code"] == "ruleset.os_error"


def test_rules_new_cannot_write(tmp_path: Path) -> None:
    target = tmp_path / "no-folder" / "my.yaml"
    said(["rules", "new", str(target), "--from", "mcr"],
         f"rules new {target}：写不了：没有这个文件或文件夹",
         f"rules new {target}: cannot write: No such file or directory")


def test_serve_s_database_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    pytest.importorskip("starlette")  # (the [serve] extra: the command imports its app)
    text = tmp_path / "text.sqlite"
    text.write_text("a text, no database\n", encoding="utf-8")
    newer = tmp_path / "newer.sqlite"
    with contextlib.closing(sqlite3.connect(newer)) as db:
        db.execute("PRAGMA user_version = 99")  # a schema no mjscore has written yet
        db.commit()
    from scorer.serve.store import MIGRATIONS

    for path, zh, en in (
            (text, f"--db {text}：不是牌桌的数据库（SQLITE_NOTADB）",
             f"--db {text}: not a tables' database (SQLITE_NOTADB)"),
            (newer, f"--db {newer}：牌桌的数据库是更新的 mjscore 写的（结构版本 99；这个版本最多读 "
                    f"{len(MIGRATIONS)}）",
             f"--db {newer}: the tables' database is a newer mjscore's (schema 99; this one "
             f"reads up to {len(MIGRATIONS)})")):
        if sys.version_info < (3, 11) and path == text:
            continue  # (SQLite's error names come with Python 3.11)
        for lang, want in (("zh", zh), ("en", en)):
            monkeypatch.setenv("MJSCORE_LANG", lang)  # (serve speaks the host's language)
            assert run("serve", "--db", str(path), "--port", "0")[::2] == (2, f"mjscore: {want}\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize(("lang", "line"), [("zh", "mjscore: 写不了输出：磁盘上没有空间了"),
                                            ("en", "mjscore: cannot write the output: No space "
                                                   "left on device")])
def test_a_full_disk_in_either_language(lang: str, line: str) -> None:
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "scorer", "score", HAND, "--rules",
                            "hangzhou", "--self-draw", "--lang", lang], stdout=full,
                           stderr=subprocess.PIPE, timeout=60)
    assert (p.returncode, p.stderr.decode()) == (74, line + "\n")


# ---- 2. typer's usage errors: from the exception's class, never click's English

SCORE = ["score", HAND, "--rules", "hangzhou"]
WHERE = " (mjscore score --help)"


@pytest.mark.parametrize(("args", "code", "zh", "en"), [
    (["score", HAND], "usage.missing_option", "缺少选项 '--rules'", "Missing option '--rules'."),
    (["score", "--rules", "mcr"], "usage.missing_argument", "缺少参数 'HAND'",
     "Missing argument 'HAND'."),
    ([*SCORE, "--self-drew"], "usage.no_such_option_near",
     "没有这个选项：--self-drew（相近的选项：--self-draw）",
     "No such option: --self-drew (Possible options: --self-draw)"),
    ([*SCORE, "--self-draw", "--piao"], "usage.needs_value", "选项 '--piao' 后面要给一个值",
     "Option '--piao' requires an argument."),
    ([*SCORE, "--self-draw=yes"], "usage.takes_no_value", "选项 '--self-draw' 不带值",
     "Option '--self-draw' does not take a value."),
    ([*SCORE, "--piao", "x"], "usage.not_a_number", "'--piao' 的值无效：'x' 不是整数",
     "Invalid value for '--piao': 'x' is not a valid int."),
])
def test_a_usage_error_of_score(args: list[str], code: str, zh: str, en: str) -> None:
    # where the flags are listed, except after the close ones (one line of 80 columns)
    where = "" if code == "usage.no_such_option_near" else WHERE
    for fast in (True, False):  # the fast parser and typer's say it alike
        err = said(args, zh + where, en + where, fast=fast)
        assert err["code"] == code and err["kind"] == "usage"


def test_no_such_command_has_a_did_you_mean() -> None:
    err = said(["scroe", HAND], "没有这个命令：'scroe'；是不是 'score'？ (mjscore --help)",
               "No such command 'scroe'; did you mean 'score'? (mjscore --help)")
    assert err["params"] == {"command": "scroe", "hint": "score"}
    said(["xyzzy"], "没有这个命令：'xyzzy' (mjscore --help)",
         "No such command 'xyzzy' (mjscore --help)")


def test_extra_arguments_and_a_bad_choice(tmp_path: Path) -> None:
    err = said(["config", "foo", "bar"], "多出来的参数：'foo bar' (mjscore config --help)",
               "Got unexpected extra argument(s): 'foo bar' (mjscore config --help)")
    assert err["params"] == {"extra": "foo bar"}
    f = tmp_path / "b.txt"
    f.write_text(f"{HAND} --rules hangzhou --self-draw\n", encoding="utf-8")
    said(["batch", str(f), "--format", "xml"], "--format xml：用 jsonl、csv 或 table",
         "--format xml: use jsonl, csv or table")


def test_an_unknown_usage_error_is_said_alike_in_both_languages() -> None:
    from typer._click.exceptions import BadArgumentUsage, UsageError

    for e in (UsageError("Something click says"), BadArgumentUsage("Argument 'x' takes 2 values.")):
        assert usage_code(e) == ("usage.error", {})
    assert render("usage.error", {}, "zh") == "这个命令行读不懂"
    assert render("usage.error", {}, "en") == "the command line cannot be read"


# ---- 3. the config file: a nested error in the run's language; TOML's place and problem

def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("MJSCORE_CONFIG", str(path))
    return path


def test_a_config_stake_that_is_no_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _config(tmp_path, monkeypatch, 'rules = "mcr"\nstake = "0.5x"\n')
    err = said(["config"], f"{path}:2 stake: '0.5x' 不行：--stake '0.5x'：不是十进制数（写成 2 或 0.5 这样）",
               f"{path}:2 stake: '0.5x' is not a value here: --stake '0.5x': not a decimal "
               "number (like 2 or 0.5)")
    assert err["params"]["cause"] == {"code": "stake.not_decimal",
                                      "params": {"flag": "--stake", "value": "'0.5x'"}}


def test_a_config_seating_that_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _config(tmp_path, monkeypatch, 'players = "E=甲,X=乙"\n')
    said(["config"], f"{path}:1 players: 'E=甲,X=乙' 不行：--players 的第 5 个字符：'X' 不是座位（E S W N）",
         f"{path}:1 players: 'E=甲,X=乙' is not a value here: --players position 5: 'X' is not "
         "a seat (E S W N)")


def test_an_environment_value_that_is_no_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJSCORE_FORMAT", "xml")
    said(["batch", "-"], "MJSCORE_FORMAT='xml' 不行：可以是 jsonl、csv或table",
         "MJSCORE_FORMAT='xml' is not a value here: use jsonl or csv or table")


@pytest.mark.parametrize(("text", "place", "zh", "en"), [
    # 'stake = ' is 8 characters: the value is missing at column 9
    ('rules = "mcr"\nstake = \n', ":2:9 stake", "这里要一个值（引号里的文字、数、true 或 false）",
     "a value is expected here (a text in quotes, a number, true or false)"),
    ('lang = "zh"\nlang = "en"\n', ":2:12 lang", "同一个键写了两次", "a key is given twice"),
    ('format = "csv" x\n', ":1:16 format", "一个值的后面只能是换行（或 # 注释）",
     "a value must be followed by the end of the line (or a # comment)"),
    ('[table\n', ":1:7", "表头要以 ']' 结尾", "a table header must end with ']'"),
])
def test_a_toml_syntax_error_names_line_column_and_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, place: str, zh: str,
        en: str) -> None:
    path = _config(tmp_path, monkeypatch, text)
    err = said(["config"], f"{path}{place}: 不是合法的 TOML：{zh}", f"{path}{place}: not valid TOML: {en}")
    assert err["code"] == "config.syntax"


def test_a_config_value_of_another_toml_type(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = _config(tmp_path, monkeypatch, "stake = true\n")
    said(["config"], f"{path}:1 stake: 值要写成文字或数字（这里是真假值）",
         f"{path}:1 stake: the value must be a text or a number (this one is a boolean)")


# ---- 4. numbers and flag names as a Chinese input method types them

def _json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return [json.loads(x) for x in out.splitlines()]


def test_a_stake_with_a_chinese_full_stop(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_text(f"{HAND} --rules hangzhou --self-draw\n", encoding="utf-8")
    for stake in ("0。5", "０．５", "0.5"):
        code, out, err = run("batch", str(f), "--stake", stake, "--totals")
        assert code == 0, err
        totals = json.loads(out.splitlines()[-1])
        # E wins 2 fan as dealer: 4 from each of S, W, N (12 points); at 0.5 a point, 6 and -2
        assert totals["stake"] == "0.5"
        assert {p["name"]: p["net"] for p in totals["players"]} == {"E": "6", "S": "-2",
                                                                   "W": "-2", "N": "-2"}


def test_full_width_digits_in_a_number_flag() -> None:
    by_ascii = _json("score", HAND, "--rules", "hangzhou", "--self-draw", "--piao", "2")
    assert _json("score", HAND, "--rules", "hangzhou", "--self-draw", "--piao", "２") == by_ascii
    assert by_ascii[0]["best"]["score"] == 8  # 暴头 2 with 2 piao: 2 ** (1 + 2)


def test_full_width_flag_names_as_separate_arguments() -> None:
    # MCR: 上家 of E is N; a discard win of 13 fan: N pays 21, S and W 8, E gets 37
    want = {"E": 37, "S": -8, "W": -8, "N": -21}
    for typed in (["－－from", "上家"], ["——from", "上家"], ["—from", "上家"],
                  ["－－ｆｒｏｍ", "上家"], ["－－from＝上家"], ["--from", "N"]):
        rec = _json("score", MCR, "--rules", "mcr", *typed)[0]
        assert rec["payments"] == want, typed
    zimo = _json("score", HAND, "--rules", "hangzhou", "——self-draw")[0]
    assert zimo["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_a_name_or_a_hand_is_never_read_as_a_flag(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_text(f"{HAND} --rules hangzhou --self-draw\n", encoding="utf-8")
    code, out, err = run("batch", str(f), "--players", "——甲,乙,丙,丁", "--totals")
    assert code == 0, err
    names = [p["name"] for p in json.loads(out.splitlines()[-1])["players"]]
    assert names == ["——甲", "乙", "丙", "丁"]
    # after '--' nothing is a flag: the hand '－－from' is refused as a hand, position 1
    code, _, err = run("score", "--rules", "mcr", "--lang", "en", "--", "－－from")
    assert code == 2 and err.startswith("mjscore: position 1: "), err


def test_a_chinese_line_names_what_the_english_one_names() -> None:
    zh = render("file.unreadable", {"path": "a.txt", "reason": "quota", "errno": "EDQUOT"}, "zh")
    en = render("file.unreadable", {"path": "a.txt", "reason": "quota", "errno": "EDQUOT"}, "en")
    assert (zh, en) == ("读不了 a.txt：超出了磁盘配额", "cannot read a.txt: Disk quota exceeded")
    same_things(zh, en)
