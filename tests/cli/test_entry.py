"""The entry point's two paths give the same answer.

``mjscore score`` and ``mjscore waits`` read a well-formed line with
:func:`scorer.lines.grammar.parse` and never import typer (a third of a cold start); everything
else goes through the typer app.
Each line here is run both ways in this process — ``main(argv)`` and
``main(argv, fast=False)``, which sends every line through typer as before — and the
two runs must print the same stdout and stderr and exit with the same status.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli.entry import main
from scorer.lines.grammar import OPTIONS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("hangzhou", "jinhua", "xiamen", "mcr", "sichuan")


def run(argv: list[str], fast: bool) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``mjscore ARGV`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv), fast=fast)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def both(argv: list[str]) -> tuple[int, str, str]:
    fast, slow = run(argv, True), run(argv, False)
    assert fast == slow, f"mjscore {' '.join(argv)}: the fast path differs from typer's"
    return fast


def example_lines() -> list[list[str]]:
    lines = []
    for rid in EXAMPLES:
        for raw in (ROOT / "examples" / f"{rid}.txt").read_text(encoding="utf-8").splitlines():
            text = raw.split("#", 1)[0].strip()
            if text:
                lines.append(["score", *text.split(), "--rules", rid])
    return lines


LINES = example_lines()


@pytest.mark.parametrize("extra", [[], ["--json"], ["--lang", "en", "--explain"],
                                   ["--json", "--explain-top", "3", "--no-unicode"]],
                         ids=["text", "json", "en-explain", "json-top"])
def test_every_example_line_prints_the_same_both_ways(extra: list[str]) -> None:
    assert len(LINES) > 40
    codes = {both([*argv, *extra])[0] for argv in LINES}
    assert 0 in codes  # the examples are mostly wins; the set is not all errors


@pytest.mark.parametrize("argv", [
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw"],
    ["score", "123m", "456p", "789s234sP9m", "--rules=hangzhou", "--piao=2", "--self-draw"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--vs", "jinhua", "--self-draw"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--vs-option", "cap=8"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--bogus"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw=yes"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--piao", "x"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--piao"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--lang", "fr"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--explain-top", "0"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "-x"],
    ["score", "123m456p789s234sP9m", "--rules", "nowhere"],
    ["score", "123m456p789s234sP9m"],
    ["score", "--rules", "mcr"],
    ["score", "--", "123m456p789s234sP9m", "--rules", "mcr"],
    ["score", "123m456p789s234sP9x", "--rules", "mcr", "--json"],
    ["score", "111m222m333m444m55m", "--rules", "mcr", "--json"],
    ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--help"],
    ["score", "--help"],
    ["score"],
    ["--version"],
    ["rules"],
    ["waits", "123m456p789s234sP", "--rules", "hangzhou"],
    ["waits", "123m456p789s23s55p", "--rules", "mcr", "--json"],
    ["waits", "123m456p789s23s55p", "--rules", "mcr", "--lang", "en", "--no-unicode"],
    ["waits", "123m456p789s234sP9m", "--rules", "hangzhou"],
    ["waits", "123m456p789s23s55p", "--rules", "mcr", "--vs", "hangzhou"],
    ["waits", "123m456p789s23s55p", "--rules", "mcr", "--explain"],
    ["waits", "123m456p789s23s55p", "--rules", "mcr", "--bogus"],
    ["waits", "--help"],
], ids=lambda a: " ".join(a)[:60])
def test_awkward_lines_print_the_same_both_ways(argv: list[str]) -> None:
    both(argv)


# A command line made of the table's flags with values that are good, bad or missing,
# in any order, some repeated: wherever the fast path accepts one, typer must agree.
HANDS = ["123m456p789s234sP9m", "[EEE]123m456p789s55p", "19m19p19s1234567z1m", "123m",
         "123m456p789s234s55", "PPP123m456p789s22s", "123m456p789s23s55p", "[EEE]123m456p78s55p"]
VALUES = ["E", "S", "W", "N", "5s", "P", "1", "2", "0", "-1", "x", "", "E:S", "cap=8",
          "hangzhou", "mcr", "--self-draw"]


def _flag() -> st.SearchStrategy[list[str]]:
    def words(f_and: tuple[str, str, bool]) -> list[str]:
        name, value, joined = f_and
        f = next(o for o in OPTIONS if o.names[0] == name)
        if f.switch:
            return [f"{name}={value}"] if joined and value == "x" else [name]
        return [f"{name}={value}"] if joined else [name, value]
    return st.tuples(st.sampled_from([o.names[0] for o in OPTIONS if o.field != "vs"]),
                     st.sampled_from(VALUES), st.booleans()).map(words)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=st.sampled_from(["score", "score", "waits"]), hand=st.sampled_from(HANDS),
       rules=st.sampled_from(["hangzhou", "mcr", "xiamen"]),
       flags=st.lists(_flag(), max_size=5), hand_at=st.integers(0, 5),
       split=st.booleans())
def test_generated_lines_print_the_same_both_ways(command: str, hand: str, rules: str,
                                                  flags: list[list[str]], hand_at: int,
                                                  split: bool) -> None:
    words = [w for f in flags for w in f]
    at = min(hand_at, len(flags))
    before = [w for f in flags[:at] for w in f]
    after = words[len(before):]
    hand_words = [hand[:3], hand[3:]] if split and len(hand) > 3 else [hand]
    both([command, *before, *hand_words, "--rules", rules, *after])


def test_a_score_line_imports_no_typer(tmp_path: Path) -> None:
    code = ("import sys\nfrom scorer.cli.entry import main\n"
            "try:\n    main(['score', '123m456p789s234sP9m', '--rules', 'hangzhou', "
            "'--self-draw', '--json'])\nexcept SystemExit as e:\n    assert not e.code, e\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click')))\n")
    # run from elsewhere: the installed scorer (compiled or not), not the tree's sources
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout.splitlines()
    assert json.loads(out[0])["best"]  # the hand was scored: its JSON came out
    assert out[-1] == "[]"


def test_other_commands_and_help_still_go_through_typer() -> None:
    code, out, _ = run(["score", "--help", "--lang", "en"], True)
    assert code == 0 and "--self-draw" in out and "Usage:" in out
    code, out, _ = run(["rules"], True)
    assert code == 0 and "hangzhou" in out


# -- batch ---------------------------------------------------------------------------------
EVENING = str(ROOT / "examples" / "evening.txt")
HZ = str(ROOT / "examples" / "hangzhou.txt")
BATCH_FAST = [  # lines the fast path reads itself (checked below: parse gives them)
    ["batch", HZ, "--rules", "hangzhou"],
    ["batch", HZ, "--rules=hangzhou", "--format", "csv", "--lang", "en"],
    ["batch", HZ, "--format=table", "--rules", "hangzhou", "--no-totals"],
    ["batch", EVENING, "--stake", "2", "--lang=en"],
    ["batch", EVENING, "--totals", "--format", "jsonl", "--jobs", "1"],
    ["batch", EVENING, "--no-progress", "--totals", "--no-totals"],
    ["batch", HZ, "--rules", "hangzhou", "--jobs", "2"],  # (small: scored in this process)
    ["batch", HZ, "--rules", "hangzhou", "--jobs", "1", "--jobs", "300"],  # last one wins
    ["batch", HZ, "--rules", "hangzhou", "--jobs", "0"],
    ["batch", HZ, "--rules", "hangzhou", "--lang", "fr"],
    ["batch", HZ, "--rules", "hangzhou", "--format", "xml"],
    ["batch", HZ, "--rules", "hangzhou", "--stake", "cheap"],
    ["batch", HZ, "--rules", "hangzhou", "stray"],
    ["batch", HZ, "--rules", "nowhere"],
    ["batch", HZ, "--rules", "hangzhou", "--version"],
    ["batch", HZ, "--self-draw", "--rules", "hangzhou", "--option", "players=3"],
    ["batch", str(ROOT / "no-such-file.txt"), "--rules", "mcr"],
    ["batch", "-", "--rules", "hangzhou"],  # (standard input: empty here)
]
BATCH_TYPER = [  # lines left to typer, which words their mistakes
    ["batch"],
    ["batch", "--rules", "mcr", HZ],
    ["batch", HZ, "--rules", "hangzhou", "--jobs", "x"],
    ["batch", HZ, "--rules", "hangzhou", "--jobs"],
    ["batch", HZ, "--rules", "hangzhou", "--format"],
    ["batch", HZ, "--rules", "hangzhou", "--progress=1"],
    ["batch", HZ, "--rules", "hangzhou", "--help"],
    ["batch", HZ, "--", "--rules", "hangzhou"],
    ["batch", HZ, "--lang", "--rules", "hangzhou"],
]


def _steady(result: tuple[int, str, str]) -> tuple[int, str, str]:
    """A batch run's output without its rate (hands/s), which no two runs share."""
    code, out, err = result
    return code, out, re.sub(r"[\d,.]+ hands/s|每秒 [\d,.]+ 手", "N hands/s", err)


@pytest.mark.parametrize("argv", BATCH_FAST + BATCH_TYPER, ids=" ".join)
def test_batch_lines_print_the_same_both_ways(argv: list[str]) -> None:
    from scorer.cli.batchcmd import parse

    assert (parse(argv[1:]) is not None) == (argv in BATCH_FAST)
    fast, slow = _steady(run(argv, True)), _steady(run(argv, False))
    assert fast == slow, f"mjscore {' '.join(argv)}: the fast path differs from typer's"
    assert fast[1] or fast[2]  # it said something


def test_the_fast_batch_reads_what_typer_passes() -> None:
    from scorer.cli.batchcmd import BatchArgs, parse

    assert parse([HZ, "--jobs=3", "--rules", "mcr", "--lang", "en", "--stake=0.5",
                  "--progress", "--totals", "--format", "csv", "--self-draw"]) == BatchArgs(
        HZ, ["--rules", "mcr", "--self-draw"], "csv", 3, True, "en", True, "0.5")


def test_a_batch_line_imports_no_typer(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("123m456p789s234sP9m --self-draw\n", encoding="utf-8")
    code = ("import sys\nfrom scorer.cli.entry import main\n"
            f"try:\n    main(['batch', {str(hands)!r}, '--rules', 'hangzhou'])\n"
            "except SystemExit as e:\n    assert not e.code, e\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout.splitlines()
    assert json.loads(out[0])["payments"]["E"] == 12  # README's worked hand: E receives 12
    assert out[-1] == "[]"
