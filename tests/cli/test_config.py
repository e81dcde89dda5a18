"""Defaults where people keep them (scorer.cli.config): the config file in the platform's
config folder and the MJSCORE_* variables, flag > environment > config file > built-in
default for each setting, shown by `mjscore config`; a config file that is wrong is one line
naming the file, line and key (exit 2), never a traceback. Run as installed commands, in a
home of their own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.cli.config import KEYS, Config

ROOT = Path(__file__).resolve().parents[2]
HAND = "123m456p789s234sP9m"  # 暴头 2 番: the dealer's self-draw, each idle player pays 4
MCR = "234567s234567p55m"  # README's MCR hand: S on N's discard, 10 fan


def mjscore(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``mjscore ARGS`` with ``home`` as HOME (its config folder ~/.config/mjscore) and
    ``env`` added; no MJSCORE_* variable but those given."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("MJSCORE_") or k in ("MJSCORE_CACHE_DIR",)}
    base.pop("XDG_CONFIG_HOME", None)
    base.update({"HOME": str(home), "LANG": "C.UTF-8", "LC_ALL": "", **env})
    return subprocess.run([sys.executable, "-m", "scorer", *args], capture_output=True,
                          text=True, env=base, cwd=ROOT, check=False)


def write_config(home: Path, text: str) -> Path:
    folder = home / ".config" / "mjscore"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_config_file_in_the_platforms_folder_gives_the_ruleset_and_language(
        tmp_path: Path) -> None:
    write_config(tmp_path, 'rules = "hangzhou"\nlang = "en"\n')
    r = mjscore(tmp_path, "score", HAND, "--self-draw", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ruleset"] == "hangzhou" and out["payments"] == {"E": 12, "S": -4, "W": -4,
                                                                "N": -4}
    assert out["best"]["patterns"][0]["name_en"] == "Wildcard pair (bao tou)"
    text = mjscore(tmp_path, "score", HAND, "--self-draw").stdout
    assert text.startswith("杭州麻将 Hangzhou — winner E (dealer), self-drawn")  # English


def test_a_flag_wins_over_the_environment_which_wins_over_the_file(tmp_path: Path) -> None:
    write_config(tmp_path, 'rules = "hangzhou"\nlang = "en"\n')
    # the environment's ruleset over the file's; the flag's over both
    r = mjscore(tmp_path, "score", MCR, "--from", "N", "--seat", "S", "--json",
                MJSCORE_RULES="mcr")
    assert json.loads(r.stdout)["ruleset"] == "mcr"
    r = mjscore(tmp_path, "score", HAND, "--self-draw", "--rules", "hangzhou", "--json",
                MJSCORE_RULES="mcr")
    assert json.loads(r.stdout)["ruleset"] == "hangzhou"
    # the language: MJSCORE_LANG over the file's en, --lang over MJSCORE_LANG
    zh = mjscore(tmp_path, "score", HAND, "--self-draw", MJSCORE_LANG="zh").stdout
    assert "W 胡" not in zh and "胡（庄家），自摸" in zh
    en = mjscore(tmp_path, "score", HAND, "--self-draw", "--lang", "en", MJSCORE_LANG="zh")
    assert "winner E (dealer)" in en.stdout
    # without any: the built-in defaults (no ruleset: score says --rules is missing)
    bare = tmp_path / "bare"
    bare.mkdir()
    r = mjscore(bare, "score", HAND, "--self-draw")
    assert r.returncode == 2 and "--rules" in r.stderr


def test_batch_takes_its_format_players_stake_and_ruleset_from_the_defaults(
        tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND} --self-draw\n{HAND} --self-draw --rules mcr\n", encoding="utf-8")
    write_config(tmp_path, 'rules = "hangzhou"\nformat = "csv"\nplayers = "Ann,Bo,Cy,Di"\n'
                 'stake = "0.5"\n')
    r = mjscore(tmp_path, "batch", str(hands), "--lang", "en")
    rows = r.stdout.splitlines()
    # CSV (the file's format), the file's ruleset on line 1, the line's own on line 2 (an
    # MCR error: no flowers, below 8 fan); a default stake does not turn the totals on
    assert rows[0].startswith("line,hand,ruleset,score") and len(rows) == 3, r.stdout
    assert rows[1].split(",")[2] == "hangzhou" and "Ann Bo Cy Di" not in rows[1]
    assert "E=Ann,S=Bo,W=Cy,N=Di" in rows[1]
    # --totals: at the file's stake, booked to the file's players
    r = mjscore(tmp_path, "batch", str(hands), "--format", "jsonl", "--totals")
    totals = json.loads(r.stdout.splitlines()[-1])
    assert totals["stake"] == "0.5" and totals["by"] == "player"
    # (money at a decimal stake is a string holding the exact decimal: 12 × 0.5, 4 × 0.5)
    assert {p["name"]: p["net"] for p in totals["players"]} == {
        "Ann": "6", "Bo": "-2", "Cy": "-2", "Di": "-2"}
    # the environment over the file, the flags over both
    r = mjscore(tmp_path, "batch", str(hands), "--totals", "--stake", "2", "--players",
                "Di,Cy,Bo,Ann", MJSCORE_FORMAT="jsonl", MJSCORE_STAKE="3")
    totals = json.loads(r.stdout.splitlines()[-1])
    assert totals["stake"] == 2 and totals["players"][0] == {
        "name": "Di", "won": 24, "lost": 0, "net": 24, "hands_won": 1, "penalties": 0}
    r = mjscore(tmp_path, "batch", str(hands), "--totals", MJSCORE_FORMAT="jsonl",
                MJSCORE_STAKE="3")
    assert json.loads(r.stdout.splitlines()[-1])["stake"] == 3


def test_the_fast_path_honours_the_defaults_without_loading_typer(tmp_path: Path) -> None:
    """A well-formed `mjscore score` is read without typer (scorer.cli.entry); its ruleset
    may come from the defaults and it is still read so."""
    write_config(tmp_path, 'rules = "hangzhou"\n')
    code = ("import sys, atexit\n"
            "atexit.register(lambda: print('typer' in sys.modules, file=sys.stderr))\n"
            "from scorer.cli.entry import main\n"
            f"main(['score', '{HAND}', '--self-draw'])\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MJSCORE_R")}
    env.pop("XDG_CONFIG_HOME", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**env, "HOME": str(tmp_path)}, check=False)
    assert r.returncode == 0 and "杭州麻将" in r.stdout
    assert r.stderr.strip().splitlines()[-1] == "False"


@pytest.mark.parametrize(("text", "where", "en"), [
    ('rules = "hangzhou"\nlang = en\n', "config.toml:2:8 lang: ", "not valid TOML"),
    ('rules = "hangzhou"\nlangg = "en"\n', "config.toml:2 langg: ",
     "no such setting; the settings are: rules, lang, players, stake, format; did you mean "
     "'lang'?"),
    ('format = "xml"\n', "config.toml:1 format: ", "'xml' is not a value here: use jsonl or csv "
     "or table"),
    ('\n\nstake = "1/3"\n', "config.toml:3 stake: ", "'1/3' is not a value here"),
    ('players = ["Ann", "Bo"]\n', "config.toml:1 players: ", "the value must be a text or a "
     "number (this one is an array)"),
    ('[batch]\nformat = "csv"\n', "config.toml:1 batch: ", "no such setting"),
])
def test_a_config_file_that_is_wrong_is_one_line_naming_file_line_and_key(
        tmp_path: Path, text: str, where: str, en: str) -> None:
    path = write_config(tmp_path, text)
    for args in (["score", HAND, "--self-draw", "--lang", "en"], ["config", "--lang", "en"],
                 ["batch", "-", "--lang", "en"], ["rules", "list", "--lang", "en"]):
        r = mjscore(tmp_path, *args)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stdout == "" and "Traceback" not in r.stderr
        line = r.stderr.strip()
        assert "\n" not in line and line.startswith(f"mjscore: {path.parent}/{where}"), line
        assert en in line
    zh = mjscore(tmp_path, "config").stderr
    assert zh.startswith(f"mjscore: {path.parent}/{where}") and "\n" not in zh.strip()
    # and as JSON, for a script that asked for it
    r = mjscore(tmp_path, "score", HAND, "--self-draw", "--json")
    err = json.loads(r.stdout)["error"]
    assert err["code"].startswith("config.") and err["params"]["file"] == str(path)


def test_an_environment_variable_that_is_wrong_names_itself(tmp_path: Path) -> None:
    r = mjscore(tmp_path, "batch", "-", "--lang", "en", MJSCORE_FORMAT="xml")
    assert r.returncode == 2
    assert r.stderr.strip() == ("mjscore: MJSCORE_FORMAT='xml' is not a value here: use jsonl or "
                                "csv or table")
    r = mjscore(tmp_path, "config", "--lang", "en", MJSCORE_CONFIG=str(tmp_path / "no.toml"))
    assert r.returncode == 2 and r.stderr.strip() == (
        f"mjscore: {tmp_path / 'no.toml'}: the config file MJSCORE_CONFIG names does not exist")
    # an unknown MJSCORE_LANG is passed over, as it always was
    r = mjscore(tmp_path, "config", "--json", MJSCORE_LANG="fr")
    assert json.loads(r.stdout)["settings"]["lang"]["source"] == "locale"


def test_mjscore_config_shows_each_value_and_where_it_came_from(tmp_path: Path) -> None:
    path = write_config(tmp_path, '# our table\nrules = "house/my.yaml"\nlang = "en"\n')
    r = mjscore(tmp_path, "config", "--json", MJSCORE_STAKE="0.5")
    data = json.loads(r.stdout)
    assert data["file"] == str(path) and data["found"] is True
    assert data["settings"] == {
        # a path in the file is relative to the file's folder
        "rules": {"value": str(path.parent / "house" / "my.yaml"), "source": "config",
                  "where": f"{path}:2"},
        "lang": {"value": "en", "source": "config", "where": f"{path}:3"},
        "players": {"value": None, "source": "default", "where": ""},
        "stake": {"value": "0.5", "source": "env", "where": "MJSCORE_STAKE"},
        "format": {"value": "jsonl", "source": "default", "where": ""},
    }
    # the file's language: en; a terminal wide enough that the temporary path does not fold
    text = mjscore(tmp_path, "config", MJSCORE_STAKE="0.5", COLUMNS="300").stdout
    assert text.splitlines()[0] == f"Config file: {path} (read)"
    rows = {line.split()[0]: line.split(maxsplit=2)[1:] for line in text.splitlines()[4:9]}
    assert rows["stake"] == ["0.5", "environment MJSCORE_STAKE"]
    assert rows["players"] == ["—", "built-in default"]
    assert f"config file {path}:3" in text
    zh = mjscore(tmp_path, "config", "--lang", "zh", COLUMNS="300").stdout
    assert zh.splitlines()[0] == f"配置文件：{path}（已读取）" and "内置默认" in zh


def test_every_setting_has_its_variable_and_the_docs_name_them() -> None:
    assert set(KEYS) == {"rules", "lang", "players", "stake", "format"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    contract = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    for key, (var, _) in KEYS.items():
        assert var in readme and var in contract, var
        assert f"{key} = " in readme, key
    c = Config.read({"MJSCORE_CONFIG": "", "HOME": "/nonexistent-home"})
    assert {k: c.setting(k).source for k in KEYS} == dict.fromkeys(KEYS, "default")
