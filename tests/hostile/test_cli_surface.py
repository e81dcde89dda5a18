"""The whole command line, fuzzed (issue 33): random commands from the option tree, random
hands (winning, spoiled, hostile), random files, each with and without ``--json``.

The commands and their options are read from the typer app itself (what ``--help`` lists,
as tests/docs/test_contract.py does), so a command or flag added later is fuzzed too.
Every run, in-process:

* exits with a documented status (0, 1, 2, 3), never 70 (an internal error) and never
  with a traceback;
* on an error (2 or 3) prints exactly one line on stderr, ``mjscore: ...`` (``rules
  check``: one line per problem on stdout, its count on stderr), and with ``--json`` the
  error object on stdout's last line: ``{"error": {"kind", "message", "code", "params"}}``;
* on success with ``--json``, prints JSON.

Bounded in time: a few seconds in the default run; ``MJSCORE_FUZZ=N`` runs N examples,
and the ``slow`` variant (``-m slow``) runs 3,000.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli.app import app, asks_json
from tests.helpers.handgen import GenHand, render, ruleset_ids, winning_hands
from tests.helpers.hostile import cli

N = int(os.environ.get("MJSCORE_FUZZ", "0"))
DOCUMENTED = {0, 1, 2, 3}  # in-process: 74, 130, 141 and 143 need a real process and signal
RULESETS = ruleset_ids()


def _tree() -> dict[tuple[str, ...], list[Any]]:
    """Every command (by its words after ``mjscore``) and its click options."""
    out: dict[tuple[str, ...], list[Any]] = {}

    def walk(c: Any, path: tuple[str, ...]) -> None:
        if not getattr(c, "commands", None):
            out[path] = [p for p in c.params if getattr(p, "param_type_name", "") == "option"]
        for name, sub in sorted(getattr(c, "commands", {}).items()):
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return out


TREE = _tree()
# the options that take a value (a --json after one is its value, not the flag)
VALUED = {n for opts in TREE.values() for o in opts if not o.is_flag for n in o.opts}
# the commands whose output --json makes JSON (batch writes JSON lines by --format)
OWN_JSON = {path[0] for path, opts in TREE.items() if path[:1] != ("batch",)
            and any("--json" in o.opts for o in opts)}
# commands that would not end (a server) are run only with a value that makes them stop
# before they start: serve's workers out of range
NEVER_RUN = {("serve",): ["--workers", "65"]}

HOSTILE_NUMBERS = ["٣", "３", "²", "1_0", "+1", " 1", "-1", "0", "9" * 30, "9" * 5000, "",
                   "1e3", "\x00", "0x10"]
HOSTILE_TEXT = ["", "x", "\x1b[31m", "\n", "a\nb", "😀", "E", "SW", "5m", "0m", "8z", "E:E",
                "cap=64", "nope=1", "cap", "=", "春梅", "15f", "9", "zh", "en", "fr", "-",
                "/etc/passwd", "/nonexistent.yaml", "mcr", "hangzhou", "sichuan", "jsonl",
                "csv", "table", "json", "0.5", "1/3", "Ann,Bo,Cy,Di", "E=Ann,X=Bo", "x" * 300]


def _takes_int(option: Any) -> bool:
    """Whether an option reads an integer (click's ``type``; typer 0.29's own parameters
    say it by their ``type_descriptor``'s annotation)."""
    if getattr(getattr(option, "type", None), "name", "") in ("integer", "INTEGER"):
        return True
    return getattr(getattr(option, "type_descriptor", None), "annotation", None) is int


def _value(draw: st.DrawFn, option: Any) -> list[str]:
    """An option and a value for it, valid, near or hostile (a switch takes none)."""
    name = draw(st.sampled_from([*option.opts, *option.secondary_opts]))
    if option.is_flag:
        return [name] if draw(st.integers(0, 9)) else [f"{name}=1"]
    if _takes_int(option) or name in ("--jobs", "--port", "--workers", "--base",
                                                   "--kongs", "--piao", "--you",
                                                   "--dealer-streak", "--explain-top"):
        value = draw(st.one_of(st.integers(-2, 6).map(str), st.sampled_from(HOSTILE_NUMBERS)))
    else:
        value = draw(st.one_of(st.sampled_from(HOSTILE_TEXT + RULESETS),
                               st.text(max_size=12)))
    return [name] if draw(st.integers(0, 30)) == 0 else [name, value]  # (sometimes none)


HANDS = ["123m456p789s234sP9m", "123m456m789m123p5p5p", "11223344556677s", "12X3m", "",
         "[5555p]123m456m789m11m", "123m456p789s234sP", "１２３m456m789m123p5p5p", "[",
         "19m19s19pESWNCFPN", "x" * 300]


@st.composite
def hand(draw: st.DrawFn, short: bool = False) -> list[str]:
    """A hand and the flags it needs (a generated winning hand: its ruleset and setup;
    ``short``: one tile short of it, for ``waits``), or a spoiled or hostile one."""
    kind = draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3]))
    if kind == 0:
        g: GenHand = draw(winning_hands(draw(st.sampled_from(RULESETS))))
        text = render(g.melds, g.concealed[:-1], g.concealed[-1]) if short and g.concealed \
            else g.text
        return [text, "--rules", g.rules, *g.setup.flags, *([] if short else g.flags)]
    if kind == 1:
        return [draw(st.sampled_from(HANDS))]
    if kind == 2:
        text = list(draw(st.sampled_from(HANDS)))
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(text)))
            text.insert(i, draw(st.sampled_from("0123456789mpsz[],=E P٣\x00\n")))
        return ["".join(text)]
    return [draw(st.text(max_size=40))]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILE_LINES = ["123m456p789s234sP9m --rules hangzhou --self-draw", "12X", "# players: Ann,Bo,Cy,Di",
              "123m456m789m123p5p5p --rules mcr --from S", "--rules", "rules sichuan --base ٣",
              "S kong 0m concealed", "E kong 5p concealed", "E hand 123m456m789m1155p",
              "penalty E", "adjust E 3 S -3", "# game: one", "extends: hangzhou\nid: mine",
              "extends: hangzhou\nid: old\nties: {order: sets}", "patterns: [", "\udcff\udcfe",
              "x" * 5000]


@st.composite
def a_file(draw: st.DrawFn, folder: Path) -> str:
    """A path: a file of random lines (text or bytes), a folder, a missing file, or '-'."""
    kind = draw(st.integers(0, 7))
    if kind >= 6:  # a file that works: an example the README walks through
        return str(draw(st.sampled_from(sorted(EXAMPLES.glob("*.txt")))))
    if kind == 0:
        return str(folder)
    if kind == 1:
        return str(folder / "missing.yaml")
    if kind == 2:
        return "-"
    lines = draw(st.lists(st.one_of(st.sampled_from(FILE_LINES), st.text(max_size=30)),
                          max_size=5))
    name = draw(st.sampled_from(["f.txt", "f.yaml", "f.yml", "round.txt"]))
    path = folder / f"{draw(st.integers(0, 10**6))}-{name}"
    raw = "\n".join(lines).encode("utf-8", "surrogateescape")
    if kind == 3:
        raw = b"\xff\xfe\x00" + raw
    path.write_bytes(raw)
    return str(path)


@st.composite
def command_line(draw: st.DrawFn, folder: Path) -> tuple[list[str], str]:
    """A command line from the tree, and what it reads on standard input."""
    path = draw(st.sampled_from(sorted(TREE)))
    args = list(path)
    head = path[:1]
    if head in (("score",), ("waits",)):
        args += draw(hand(short=head == ("waits",)))
        if "--rules" not in args and draw(st.integers(0, 4)):
            args += ["--rules", draw(st.sampled_from(RULESETS))]
    elif head in (("batch",), ("round",), ("standings",)) or path in (("rules", "check"),):
        args += [draw(a_file(folder)) for _ in range(draw(st.integers(0, 2)))]
    elif path == ("rules", "new"):
        args += [str(folder / draw(st.sampled_from(["new.yaml", "new.txt", "sub/new.yaml"])))]
    elif path == ("rules", "show"):
        args += [draw(st.sampled_from([*RULESETS, "nope", str(folder)]))]
    options = TREE[path]
    if options:  # (mostly few: each random option is likelier wrong than right)
        for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 4]))):
            args += _value(draw, draw(st.sampled_from(options)))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1]))):
        args.insert(draw(st.integers(1, len(args))), draw(st.sampled_from(
            ["--bogus", "--", "--rules", "-x", "--json=1", "--lang", "٣"])))
    args += NEVER_RUN.get(head, [])
    stdin = "\n".join(draw(st.lists(st.sampled_from(FILE_LINES), max_size=3)))
    return args, stdin


def check(args: list[str], stdin: str, as_json: bool) -> int:
    full = [*args, *(["--json"] if as_json else [])]
    wants = asks_json(full)  # (a --json after "--" is no flag)
    r = cli(*full, stdin=stdin)
    said = (args, as_json, r.code, r.err[-600:])
    assert "Traceback" not in r.out + r.err, said
    assert "internal error" not in r.err, said
    assert r.code in DOCUMENTED, said
    errors = [x for x in r.err_lines if x.startswith("mjscore: ")]
    if r.code in (2, 3):
        if args[:2] == ["rules", "check"]:
            # one line per problem: on stdout (a file's), or one on stderr for a file that
            # cannot be read; each file's count of problems on stderr
            assert all(x.startswith("mjscore: ") or x.endswith((" problem", " problems", "个问题"))
                       for x in r.err_lines), said
        elif args[:1] in (["batch"], ["standings"]):
            # lines already scored are reported on their lines; the error is the last line
            assert r.err_lines and r.err_lines[-1].startswith("mjscore: "), said
        else:
            assert len(r.err_lines) == 1 and len(errors) == 1, said
        if wants:
            # (JSON lines end at "\n" only: a U+2028 or U+0085 in a string is no line end)
            last = r.out.rstrip("\n").split("\n")[-1]
            error = json.loads(last)["error"]
            assert {"kind", "message", "code", "params"} <= set(error), said
            assert "\n" not in error["message"], said
    elif r.code == 0 and as_json and args[0] in OWN_JSON \
            and "--" not in args and "--help" not in args and args[-1] not in VALUED:
        json.loads(r.out)  # the machine form (the --json appended was read as the flag)
    return r.code


@pytest.fixture(scope="module")
def folder() -> Path:
    # the runs happen in it too: a drawn `--totals-csv xiamen` wrote the file `xiamen` into
    # the checkout (and the sdist's file list test then failed on it)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        try:
            yield Path(d)
        finally:
            os.chdir(here)


def _run(folder: Path, examples: int) -> None:
    seen: dict[int, int] = {}

    @settings(max_examples=examples, deadline=None, derandomize=not N,
              suppress_health_check=list(HealthCheck))
    @given(command_line(folder), st.booleans())
    def each(line: tuple[list[str], str], as_json: bool) -> None:
        code = check(*line, as_json)
        seen[code] = seen.get(code, 0) + 1

    each()
    # the fuzz reached runs that succeed and runs that are refused
    assert seen.get(0) and seen.get(2), seen


def test_the_whole_command_line(folder: Path) -> None:
    _run(folder, N or 250)


@pytest.mark.slow
def test_the_whole_command_line_at_length(folder: Path) -> None:
    _run(folder, 3000)
