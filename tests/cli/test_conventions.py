"""The command line's conventions, as people already know them from other tools: -h, help
that names every ruleset of the registry, the shell completing values (not only flags),
rules --json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.rules.files import list_builtin

ROOT = Path(__file__).resolve().parents[2]


def mjscore(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **env}, check=False)


@pytest.mark.parametrize("command", [[], ["score"], ["waits"], ["batch"], ["rules"],
                                     ["rules", "show"], ["rules", "list"], ["round"],
                                     ["standings"], ["serve"], ["config"]])
@pytest.mark.parametrize(("lang", "usage"), [("en", "Usage: mjscore"), ("zh", "用法：mjscore")])
def test_dash_h_is_help(command: list[str], lang: str, usage: str) -> None:
    short = mjscore(*command, "-h", MJSCORE_LANG=lang)
    long = mjscore(*command, "--help", MJSCORE_LANG=lang)
    assert short.returncode == 0 and short.stdout.startswith(usage), short.stderr
    assert short.stdout == long.stdout
    assert "-h, --help" in short.stdout


@pytest.mark.parametrize(("lang", "comma"), [("en", ","), ("zh", "、")])
def test_help_names_every_ruleset_of_the_registry(lang: str, comma: str) -> None:
    ids = list_builtin()
    assert {"hangzhou", "sichuan", "sichuan-xueliu", "mcr-house"} <= set(ids)
    for command in ([], ["score"], ["waits"]):
        text = "".join(mjscore(*command, "-h", MJSCORE_LANG=lang).stdout.split())  # (wrapped)
        assert comma.join(ids) in text, command


def _complete(words: str, cwd: Path) -> list[str]:
    """What bash offers after ``words`` (the last one being typed), through the script
    ``mjscore --show-completion bash`` prints, sourced in a bash of its own."""
    script = mjscore("--show-completion", "bash", cwd=cwd).stdout
    assert "_MJSCORE_COMPLETE=complete_bash" in script
    # the script runs `mjscore`: here, this interpreter's, from the source tree
    shim = cwd / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "mjscore").write_text(f"#!/bin/sh\nexec {sys.executable} -m scorer \"$@\"\n")
    (shim / "mjscore").chmod(0o755)
    drive = (f"{script}\nCOMP_WORDS=({words})\nCOMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\n"
             "_mjscore_completion mjscore\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    env = {**os.environ, "PATH": f"{shim}:{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run(["bash", "-c", drive], capture_output=True, text=True, cwd=cwd,
                       env=env, check=False)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.splitlines() if w]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash drives the completion script")
def test_the_shell_completes_the_values_of_flags(tmp_path: Path) -> None:
    (tmp_path / "my-table.yaml").write_text("extends: hangzhou\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    (tmp_path / "house").mkdir()
    ids = list_builtin()
    assert _complete("mjscore score 11m --rules ''", tmp_path) == [*ids, "bin/", "house/",
                                                                  "my-table.yaml"]
    assert _complete("mjscore score 11m --rules si", tmp_path) == ["sichuan", "sichuan-xueliu"]
    assert _complete("mjscore score 11m --vs m", tmp_path) == ["mcr", "mcr-house",
                                                              "my-table.yaml"]
    assert _complete("mjscore waits 11m --seat ''", tmp_path) == ["E", "S", "W", "N"]
    assert _complete("mjscore score 11m --from W", tmp_path) == ["W"]
    assert _complete("mjscore score 11m --round ''", tmp_path) == ["E", "S", "W", "N"]
    assert _complete("mjscore score 11m --lang ''", tmp_path) == ["zh", "en"]
    assert _complete("mjscore batch x.txt --format ''", tmp_path) == ["jsonl", "csv", "table"]
    assert _complete("mjscore standings x.txt --format j", tmp_path) == ["json"]
    assert _complete("mjscore rules show x", tmp_path) == ["xiamen"]
    assert _complete("mjscore round x.txt --rules sichuan-", tmp_path) == ["sichuan-xueliu"]
    assert _complete("mjscore config --lang e", tmp_path) == ["en"]


def test_rules_json_lists_and_shows_what_the_page_api_gives() -> None:
    from scorer.rules.load import load_ruleset
    from scorer.serve.api import Api, ruleset_json

    listed = json.loads(mjscore("rules", "list", "--json").stdout)
    assert listed == Api().rules_list()  # GET /api/rules: the built-ins, with their flags
    assert [r["id"] for r in listed] == list_builtin()
    assert json.loads(mjscore("rules", "--json").stdout) == listed  # the old spelling too
    shown = json.loads(mjscore("rules", "show", "sichuan", "--json").stdout)
    assert shown == ruleset_json(load_ruleset("sichuan"))  # GET /api/rules/sichuan
    assert shown["id"] == "sichuan" and shown["name"] == "四川麻将（血战到底）"
    assert {p["id"] for p in shown["patterns"]} >= {"pinghu", "qingyise", "gen"}
    # with an option as its default, as `rules show` shows it
    capped = json.loads(mjscore("rules", "show", "hangzhou", "--option", "cap=128",
                                "--json").stdout)
    assert next(o for o in capped["options"] if o["name"] == "cap")["default"] == 128
    # an error, as JSON too
    r = mjscore("rules", "show", "nowhere", "--json")
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["code"] == "ruleset.no_builtin"
    r = mjscore("rules", "show", "mcr", "--json", "--yaml", "--lang", "en")
    assert r.returncode == 2 and "choose one" in r.stderr
