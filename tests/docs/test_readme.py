"""The README stays true: its opening commands, CI's test command, and its worked examples."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.cli.test_app import run

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_install_and_test_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    assert "pip install ." in blocks[0] and "mjscore score" in blocks[0]
    # the test command works in a new terminal: it activates the venv the first one made
    assert "python3 -m venv .venv && . .venv/bin/activate &&" in blocks[0]
    assert blocks[1].strip() == '. .venv/bin/activate && pip install ".[test]" && python -m pytest'
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m venv" in ci or "python3 -m venv" in ci
    # CI runs exactly the README's test command (in its own fresh venv) ...
    steps = [line for line in ci.splitlines() if line and not line.startswith("#")]
    test_install = steps.index('python -m pip install --quiet ".[test]"')
    assert steps[test_install + 1] == "python -m pytest"
    # ... and then, as a step of its own, the live oracle comparison the README names
    oracle_install = steps.index('python -m pip install --quiet ".[oracle]"')
    assert oracle_install > test_install + 1
    assert steps[oracle_install + 1] == "python -m pytest -m oracle"
    assert 'pip install ".[oracle]" && python -m pytest -m oracle' in README


def _without_tutorial(text: str) -> str:
    """The README without its house-rules tutorial, whose commands need the files the
    tutorial writes: tests/docs/test_readme_tutorial.py replays it in an empty folder."""
    start = text.find("## Your table's rules in five minutes")
    if start < 0:
        return text
    end = text.find("\n## ", start + 1)
    return text[:start] + (text[end:] if end > 0 else "")


def test_worked_examples_print_what_the_readme_shows() -> None:
    for block in re.findall(r"```console\n(.*?)```", _without_tutorial(README), re.S):
        first, *expected = block.rstrip("\n").split("\n")
        assert first.startswith("$ mjscore ")
        args = shlex.split(first[len("$ mjscore "):])
        code, out, err = run(*args)
        assert code == 0, err
        assert out.rstrip("\n").split("\n") == expected, first
