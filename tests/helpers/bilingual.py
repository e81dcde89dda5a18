"""Checks that an error said in zh and in en is the same error: no English sentence left
in the Chinese, the same numbers, quoted values, flags and tiles in both, and the same
``error.code``; and a way to run a command in both languages and get its JSON error."""

from __future__ import annotations

import json
import re
from typing import Any

from typer.testing import CliRunner

from scorer.cli.app import app

# English words of three letters or more, two in a row: a sentence left in English
ENGLISH = re.compile(r"\b[a-z]{3,} [a-z]{3,}\b", re.IGNORECASE)
# what both languages write alike: flags, quoted values, numbers, tiles
_SAME = re.compile(r"--[a-z][a-z-]*|'[^']*'|\d+(?:[.,]\d+)*[mpsz]?")
# what may stand in Chinese as written: a flag and its value, a command, a quoted value, a
# file name
_NOTATION = re.compile(r"--[a-z][a-z-]*(?:[ =][^\s：，；（）]+)?|'[^']*'|\"[^\"]*\"|"
                       r"(?:mjscore )?rules [a-z-]+|mjscore [a-z-]+|\S+\.(?:ya?ml|txt)\b")

runner = CliRunner()


def same_things(zh: str, en: str) -> None:
    """Assert ``zh`` has no English sentence and names what ``en`` names (as multisets
    of flags, quoted values, numbers and tiles)."""
    bare = _NOTATION.sub("", zh)
    assert not ENGLISH.search(bare), f"English under zh: {zh!r}"
    assert re.search(r"[\u4e00-\u9fff]", zh), f"no Chinese at all: {zh!r}"
    assert sorted(_SAME.findall(zh)) == sorted(_SAME.findall(en)), (zh, en)


def rules_check_said(path: Any, place: str, zh: str, en: str) -> None:
    """Assert ``mjscore rules check PATH`` refuses the file (exit 2) with the one line
    ``PLACE: ZH`` under --lang zh and ``PLACE: EN`` under --lang en, the two naming the
    same things (:func:`same_things`)."""
    said = {}
    for lang in ("zh", "en"):
        r = runner.invoke(app, ["rules", "check", str(path), "--lang", lang])
        assert r.exit_code == 2, (lang, r.stdout, r.stderr)
        said[lang] = r.stdout.rstrip("\n")
    assert said == {"zh": f"{place}: {zh}", "en": f"{place}: {en}"}
    same_things(zh, en)


def json_error(args: list[str], lang: str) -> dict[str, Any]:
    """The JSON ``error`` of ``mjscore ARGS --json --lang LANG`` (a failing command)."""
    r = runner.invoke(app, [*args, "--json", "--lang", lang])
    assert r.exit_code in (2, 3), (r.exit_code, r.stdout, r.stderr)
    err: dict[str, Any] = json.loads(r.stdout)["error"]
    return err


def batch_errors(path: str, args: list[str], lang: str) -> list[dict[str, Any]]:
    """The ``error`` of every failed line of ``mjscore batch PATH ARGS --lang LANG``."""
    r = runner.invoke(app, ["batch", path, *args, "--lang", lang])
    recs = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    return [rec["error"] for rec in recs if "error" in rec]


def twins(zh: dict[str, Any], en: dict[str, Any]) -> None:
    """Assert two JSON errors are one error in two languages: the same code and params,
    the messages :func:`same_things`."""
    assert zh["code"] == en["code"], (zh, en)
    assert zh.get("params") == en.get("params"), (zh, en)
    same_things(zh["message"], en["message"])
