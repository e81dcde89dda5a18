"""The README stays true: its opening commands, CI's test command, and its worked examples."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.cli.test_app import run

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


FIRST = ('python3 -m venv .venv && . .venv/bin/activate && pip install . && '
         'mjscore score "123m456p789s234sP9m" --rules hangzhou --self-draw')
# pip 25.1 reads dependency groups; a new venv's pip may be older (3.11's is 23.2)
SECOND = ('. .venv/bin/activate && pip install --upgrade pip && pip install --group test && '
          'python -m pytest -n auto')


def test_readme_opens_with_install_and_test_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    # the first installs (pure Python: seconds) and scores; the second works in a new
    # terminal too (it activates the venv the first made) and builds nothing
    assert blocks[0].strip() == FIRST
    assert blocks[1].strip() == SECOND
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m venv" in ci or "python3 -m venv" in ci
    # CI runs both commands as given, in its own fresh venv (its pip upgraded first) ...
    steps = [line for line in ci.splitlines() if line and not line.startswith("#")]
    assert "python -m pip install --quiet --upgrade pip" in steps
    install = steps.index("python -m pip install --quiet .")
    assert steps[install + 1] == FIRST.split(" && ")[-1]
    test_install = steps.index("python -m pip install --quiet --group test")
    assert steps[test_install + 1] == SECOND.split(" && ")[-1]
    assert test_install > install + 1
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


def test_library_snippets_run_as_doctests() -> None:
    import doctest

    blocks = re.findall(r"```pycon\n(.*?)```", README, re.S)
    assert blocks, "README shows the library in pycon blocks"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    for n, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README.md pycon block {n + 1}", "README.md", 0))
    results = runner.summarize(verbose=False)
    assert results.attempted >= 5 and results.failed == 0
