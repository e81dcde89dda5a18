"""docs/contract.md names exactly what exists: commands, options, exit statuses, built-in ids.

Each test reads the page and the running program separately — the commands and options
from the typer app's own tree (what ``--help`` lists), the statuses from the error
classes and scorer.cli.output, the ids from the rulesets shipped — and holds them equal:
every one named exists, and every one that exists is named.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import typer.main

import scorer.errors
from scorer.cli import output
from scorer.cli.app import app
from scorer.cli.rulescmd import legacy
from scorer.rules.files import list_builtin

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "contract.md").read_text(encoding="utf-8")


def _commands() -> dict[str, list[object]]:
    """Every command of the app by its path (``mjscore rules check``): its options."""
    out: dict[str, list[object]] = {}

    def walk(c: object, path: str) -> None:
        out[path] = [p for p in c.params  # type: ignore[attr-defined]
                     if getattr(p, "param_type_name", "") == "option"]
        for name, sub in sorted(getattr(c, "commands", {}).items()):
            walk(sub, f"{path} {name}")

    walk(typer.main.get_command(app), "mjscore")
    return out


COMMANDS = _commands()


def _shown(option: object) -> str:
    """An option as the table writes it: ``--totals/--no-totals`` for a switch pair."""
    opts, off = list(option.opts), list(option.secondary_opts)  # type: ignore[attr-defined]
    return f"{opts[0]}/{off[0]}" if off else opts[0]


def _section(anchor: str) -> str:
    start = PAGE.index(f'<a id="{anchor}"></a>')
    end = PAGE.find("<a id=", start + 1)
    return PAGE[start:end if end > 0 else len(PAGE)]


def _table() -> dict[str, list[str]]:
    """The options table: command -> the options its row lists, as written."""
    rows = {}
    for line in _section("options").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`mjscore"):
            # a switch pair's cell "--a/--no-a" is one option
            rows[cells[0].strip("`")] = re.findall(r"`(--[a-z][a-z-]*(?:/--[a-z][a-z-]*)?)`",
                                                   cells[1])
    return rows


def test_every_command_has_its_row_and_every_row_is_a_command() -> None:
    assert set(_table()) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_s_row_lists_exactly_its_options(command: str) -> None:
    visible = {_shown(o) for o in COMMANDS[command] if not getattr(o, "hidden", False)}
    listed = _table()[command]
    assert len(listed) == len(set(listed)), listed  # none twice
    assert set(listed) == visible, (sorted(set(listed) - visible), sorted(visible - set(listed)))


def test_every_command_named_on_the_page_exists() -> None:
    top = {c.split()[1] for c in COMMANDS if c != "mjscore"}
    named = re.findall(r"`mjscore ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?", PAGE)
    assert named
    for first, second in named:
        assert first in top, first
        if second and f"mjscore {first} {second}" not in COMMANDS:
            # a word after a command that has no sub-commands is its argument, written in
            # capitals (HAND, FILE): a lower-case one must be a sub-command
            assert not any(c.startswith(f"mjscore {first} ") for c in COMMANDS), second
    # and every command (and sub-command) is named outside the table too
    prose = PAGE.replace(_section("options"), "")
    for c in COMMANDS:
        if c != "mjscore":
            assert f"`{c}" in prose or f"`{c.replace('mjscore ', '')}" in prose, c


def test_every_flag_named_on_the_page_exists() -> None:
    known = {"--help"} | {n for opts in COMMANDS.values() for o in opts
                          for n in (*o.opts, *o.secondary_opts)}  # type: ignore[attr-defined]
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*[a-z])", PAGE))
    # `rules --clear-cache`: a spelling the rules group reads as its sub-command
    spelt = {f for f in named - known if f not in legacy([f])}
    assert named - known - spelt == set()
    # every context flag of score is also in the page's list of flags
    flags = set(re.findall(r"`(--[a-z][a-z-]*)", _section("flags")))
    score = {n for o in COMMANDS["mjscore score"] for n in o.opts}  # type: ignore[attr-defined]
    run = {"--vs", "--vs-option", "--json", "--explain", "--explain-top", "--lang",
           "--no-unicode"}  # how to score and print: under `commands` and `options`
    assert score - run <= flags, sorted(score - run - flags)


def _statuses_documented() -> set[int]:
    rows = re.findall(r"^\| (\d+) \|", _section("errors"), flags=re.M)
    assert len(rows) == len(set(rows)), rows
    return {int(r) for r in rows}


def test_every_exit_status_is_documented_and_every_documented_one_is_used() -> None:
    errors = {c.exit_code for c in vars(scorer.errors).values()
              if inspect.isclass(c) and issubclass(c, scorer.errors.MjscoreError)}
    cli = {v for k, v in vars(output).items() if k.startswith("EXIT_") and isinstance(v, int)}
    used = {0, 1} | errors | cli  # 0 ran, 1 a batch or standings line failed
    assert used == {0, 1, 2, 3, 70, 74, 130, 141, 143}
    assert _statuses_documented() == used


def test_the_built_in_ids_are_exactly_those_shipped() -> None:
    text = _section("install")
    para = text[text.index("built-in id"):]
    para = para[:para.index(") or the path")]
    named = re.findall(r"`([a-z][a-z-]*)`", para)
    assert sorted(named) == sorted(list_builtin()) and len(named) == len(set(named))
