"""The flag table (scorer/rules/flags.py): one row per flag, and everything derived from it.

The expected conflicts are the common rulings docs/rulings.md#common-how-the-tile-came and
#common-impossible-claims, read by hand; the command-line grammar of
scorer/lines/grammar.py is checked against typer's own parser of `mjscore score` (click), which
reads the same rows through a different road.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st

import scorer
from scorer.cli.app import app
from scorer.engine.context import Context
from scorer.errors import ContextError
from scorer.lines.grammar import OPTIONS, ArgvError, context_from_params, parse, parse_params
from scorer.lines.pool import score_record
from scorer.model.notation import join_hand_args
from scorer.rules import flags as ruleset
from scorer.rules.flags import FLAG, FLAG_TEXT, FLAGS, conflicts, states
from scorer.rules.load import load_ruleset
from tests.cli.test_app import run

ROOT = Path(__file__).resolve().parents[2]


def _written_annotations(path: Path, name: str) -> dict[str, str]:
    """The field annotations of class ``name`` as written in ``path``, e.g.
    ``{"discarder": "str | None", ...}``: a compiled build keeps only their classes at run
    time (``type`` for ``str | None``), the source has them in both builds."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    return {n.target.id: ast.unparse(n.annotation) for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def test_every_context_field_has_exactly_one_row() -> None:
    fields = {f.name: f for f in dataclasses.fields(Context)}
    assert [f.field for f in FLAGS] == list(fields)
    # the source of the package imported (an installed one holds its .py files, compiled or not)
    written = _written_annotations(Path(scorer.__file__).parent / "engine" / "context.py",
                                   "Context")
    assert list(written) == list(fields)
    for row in FLAGS:
        f = fields[row.field]
        assert f.default == row.default, row.field
        # the field's annotation names the row's type (a tuple of it when repeatable)
        assert row.type.__name__ in written[row.field], (row.field, written[row.field])
        assert ("tuple" in written[row.field]) == row.multiple, row.field


def test_command_line_names_are_unique_and_contract_names_all_present() -> None:
    names = [n for f in OPTIONS for n in f.names]
    assert len(names) == len(set(names))
    contract = {"--rules", "--self-draw", "--from", "--seat", "--round", "--wild",
                "--dealer-streak", "--kong-draw", "--kongs", "--robbing-kong", "--last-tile",
                "--fourth-tile", "--piao", "--you", "--ready-at-deal", "--heavenly", "--earthly",
                "--human", "--flowers", "--chengbao", "--base", "--option", "--json", "--explain",
                "--lang", "--vs", "--vs-option"}
    assert contract <= set(names)


def test_derived_tables_are_the_old_ones() -> None:
    # what ruleset.py and context.py spelled out by hand before the table
    assert ruleset.INT_FLAGS == ("dealer_streak", "kongs", "piao", "you", "base")
    assert set(ruleset.ALWAYS_FLAGS) == {"seat", "round", "from", "self_draw"}
    assert ruleset.FEEDS["kong_draw"] == ("kong_draw", "kongs")
    assert ruleset.FEEDS["flowers"] == ("flowers", "flower_list", "flowers_known")
    assert "from" not in ruleset.FEEDS and "options" not in FLAG_TEXT
    assert FLAG_TEXT["discarder"] == "--from" and FLAG_TEXT["ready_at_deal"] == "--ready-at-deal"


def test_every_fact_a_flag_feeds_is_declared() -> None:
    from scorer.rules import facts

    # given directly (piao) or computed from the flags' values (seat_wind), at context level
    for row in FLAGS:
        for fact in row.feeds:
            assert fact in facts.FACTS and facts.FACTS[fact].level == "context", (row.field, fact)


@pytest.mark.parametrize("row", FLAGS, ids=lambda r: r.field)
def test_every_row_reaches_the_parser_the_help_and_batch(row) -> None:
    value = {bool: None, int: "2", str: "S"}[row.type]
    if row.field == "options":
        value = "cap=64"
    argv = ["123m456m789p234s55s", "--rules", "mcr", row.name, *([value] if value else [])]
    ctx = parse(argv).context
    got = getattr(ctx, row.field)
    want = {None: True, "2": 2, "S": "S", "cap=64": (("cap", "64"),)}[value]
    assert got == (want if not row.multiple or row.field == "options" else (value,))
    assert row.field in ctx.given() or row.field in ("seat", "round", "options")
    code, out, _ = run("score", "--help", "--lang", "en")
    assert code == 0 and row.name in out and row.help.split()[0] in out
    # a batch line with the flag: parsed, and (where MCR has no use for it) refused by name;
    # the line says how its tile came, in the way the flag allows
    how = " --self-draw" if "self_draw" in states(row.field) and row.field != "self_draw" \
        else "" if row.field in ("self_draw", "discarder") else " --from N"
    rec = score_record(" ".join(argv[:1] + argv[3:]) + how, ["--rules", "mcr"], lang="en")
    if row.yaml_key is not None and not row.always and row.yaml_key not in \
            load_ruleset("mcr").flags:
        assert rec["error"]["message"] == f"{row.name} has no meaning in the mcr ruleset"
    else:
        assert "No such option" not in str(rec.get("error"))


def test_a_row_added_to_the_table_reaches_everything(tmp_path: Path) -> None:
    """Adding a flag is one row (and its Context field): the row is added to the source
    at import time, and the new flag works in --help, the parser, batch and a ruleset."""
    house = tmp_path / "house.yaml"
    house.write_text("extends: mcr\ncontext:\n  test_claim:\n", encoding="utf-8")
    # The rows are patched into the source as it is imported, so the script imports the
    # source tree (ROOT first on its path) even when the suite tests an installed compiled
    # build: compiled modules are fixed when built, and adding a row is a source change.
    script = textwrap.dedent(f"""
        import importlib.machinery as M, sys
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        PATCH = {{
            "scorer.rules.flags": ('    Flag("options",', '    Flag("test_claim", '
                '("--test-claim",), bool, "A claim added by a test.", False),\\n'
                '    Flag("options",'),
            "scorer.engine.context": ("    human: bool = False\\n",
                                      "    human: bool = False\\n    test_claim: bool = False\\n"),
        }}
        class Loader(M.SourceFileLoader):
            def get_code(self, name):
                old, new = PATCH[name]
                src = Path(self.path).read_text(encoding="utf-8")
                assert old in src, name
                return compile(src.replace(old, new, 1), self.path, "exec")
        class Finder:
            @staticmethod
            def find_spec(name, path=None, target=None):
                if name not in PATCH:
                    return None
                spec = M.PathFinder.find_spec(name, path)
                spec.loader = Loader(name, spec.origin)
                return spec
        sys.meta_path.insert(0, Finder)
        import scorer
        assert scorer.__file__.startswith({str(ROOT)!r}), scorer.__file__
        from scorer.lines.grammar import parse
        from scorer.lines.pool import score_record
        from scorer.cli.entry import main
        hand = "234567s234567p55m --seat S"
        print("parsed", parse([*hand.split(), "--rules", "mcr", "--test-claim"]).context.test_claim)
        print("builtin", score_record(hand + " --from N --test-claim", ["--rules", "mcr"],
                                      lang="en")["error"]["message"])
        print("house", score_record(hand + " --from N --test-claim",
                                    ["--rules", {str(house)!r}])["payments"]["N"])
        try:
            main(["score", "--help"])
        except SystemExit:
            pass
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "parsed True" in r.stdout
    assert "builtin --test-claim has no meaning in the mcr ruleset" in r.stdout
    # README's MCR example without its two flowers: 10 fan, so the discarder N pays 8 + 10
    assert "house -18" in r.stdout
    assert "--test-claim" in r.stdout and "A claim added by a test." in r.stdout


# -- the compatibility data -------------------------------------------------------------------
def test_exclusions_are_symmetric() -> None:
    # a row lists what it excludes once (adding a flag is one row): conflicts() reads the
    # relation both ways, whichever of the two rows wrote it
    for row in FLAGS:
        for other in row.excludes:
            for pair in ([row.field, other], [other, row.field]):
                assert [(a.field, b.field) for a, b in conflicts(pair)] == \
                    [tuple(f.field for f in FLAGS if f.field in pair)], pair


FIRST_ROUND = ("heavenly", "earthly", "human")
# docs/rulings.md#common-impossible-claims and the input errors of #common-errors
RULED_OUT = [
    *[(a, b) for a in FIRST_ROUND for b in ("last_tile", "kong_draw", "robbing_kong",
                                            "ready_at_deal")],
    ("robbing_kong", "kong_draw"), ("robbing_kong", "last_tile"),
    ("self_draw", "discarder"), ("kong_draw", "discarder"), ("piao", "discarder"),
    ("kongs", "discarder"),  # --kongs N is N kongs before a replacement draw: a self-draw
    # "A win states how its tile came": flags only a self-drawn win carries state it
    ("you", "discarder"), ("ready_at_deal", "discarder"), ("heavenly", "discarder"),
    ("robbing_kong", "self_draw"),  # the robbed tile comes from another player's kong
]
POSSIBLE = [
    ("discarder", "robbing_kong"), ("discarder", "last_tile"), ("discarder", "fourth_tile"),
    ("self_draw", "kong_draw"), ("self_draw", "last_tile"), ("kong_draw", "kongs"),
    ("piao", "kong_draw"), ("earthly", "discarder"), ("human", "self_draw"),
    ("heavenly", "self_draw"), ("you", "self_draw"), ("discarder", "seat"),
]


@pytest.mark.parametrize("pair", RULED_OUT, ids="+".join)
def test_ruled_out_pairs_conflict_and_name_both(pair) -> None:
    got = conflicts(pair)
    assert [{a.field, b.field} for a, b in got] == [set(pair)]


@pytest.mark.parametrize("pair", POSSIBLE, ids="+".join)
def test_possible_pairs_do_not_conflict(pair) -> None:
    assert conflicts(pair) == []


def test_conflicts_lists_every_pair_once() -> None:
    got = conflicts(["heavenly", "last_tile", "discarder", "earthly"])
    assert [(a.name, b.name) for a, b in got] == [
        ("--from", "--heavenly"), ("--last-tile", "--heavenly"), ("--last-tile", "--earthly"),
        ("--heavenly", "--earthly")]


# -- ranges -----------------------------------------------------------------------------------
def test_the_games_ranges_bound_a_ruleset_that_gives_none(tmp_path: Path) -> None:
    house = tmp_path / "kongs.yaml"
    house.write_text("extends: mcr\ncontext:\n  kongs:\n", encoding="utf-8")
    hand = "[1111m][2222p][3333s][4444s]55s"
    rec = score_record(f"{hand} --self-draw --kongs 5", ["--rules", str(house)], lang="en")
    assert rec["error"]["message"] == \
        "--kongs 5: Chinese Official (MCR) counts at most 4 consecutive kongs"


# -- the pure grammar agrees with typer's parser --------------------------------------------
_COMMAND = typer.main.get_command(app).commands["score"]  # type: ignore[attr-defined]


def _typer(argv: list[str]) -> object:
    try:
        p = _COMMAND.make_context("score", list(argv), resilient_parsing=False).params
    except typer.Exit:
        return "help"
    except Exception as e:
        fmt = getattr(e, "format_message", None)
        return ("error", fmt() if callable(fmt) else str(e))
    return _normal(p)


def _normal(p: dict[str, object]) -> object:
    p = dict(p)
    if isinstance(p.get("hand"), list | tuple):  # typer's variadic hand: joined, as score does
        words = list(p["hand"])  # type: ignore[call-overload]
        p["hand"] = words[0] if len(words) == 1 else join_hand_args(words)
    rest = {k: (tuple(v) if isinstance(v, list | tuple) else v) for k, v in p.items()
            if k not in FLAG or k == "options"}
    try:
        ctx = context_from_params(p)
    except ContextError as e:
        return ("context", e.message)
    return (ctx, sorted(rest.items(), key=str))


def _ours(argv: list[str]) -> object:
    try:
        return _normal(parse_params(argv))
    except ArgvError as e:
        return "help" if e.flag == "--help" else ("error", e.message)


CASES = [
    ["123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw", "--piao", "2"],
    ["--rules=mcr", "--from", "N", "11m", "--kongs= 3", "--chengbao", "E:S", "--chengbao=S:W"],
    ["1m", "--rules", "x", "--from", "--seat"], ["1m", "--rules", "x", "--seat", "S", "--seat",
                                                 "W"],
    ["--rules", "x"], ["1m"], ["1m", "--rules", "x", "--kongs", "x"], ["1m", "--kongs", "x"],
    ["1m", "--rules", "x", "--bogus"], ["1m", "--rules", "x", "--kong"], ["1m", "-k"],
    ["1m", "--rules", "x", "--self-draw=1"], ["1m", "--rules", "x", "--from"],
    ["1m", "2m", "3m", "--rules", "x"], ["--", "-1m", "--rules", "x"], ["1m", "--rules", "x",
                                                                        "--", "--json"],
    ["1m", "--rules", "x", "--base", "1_0", "--option", "cap=1", "--vs-option", "a=b"],
    ["1m", "--rules", "x", "--kongs", "x", "--piao", "y"], ["1m", "--rules", "x", "--heav"],
    ["1m", "--rules", "x", "--json", "--lang", "en", "--no-unicode", "--explain", "--vs", "mcr"],
    ["-", "--rules", "x"], ["1m", "--rules", "x", "--option", "nokey"],
]


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_grammar_agrees_with_typer(argv: list[str]) -> None:
    assert _ours(argv) == _typer(argv)


TOKENS = st.sampled_from([
    *[n for f in OPTIONS for n in f.names], "--help", "--bog", "-x", "--", "-", "=",
    "123m456p789s234sP9m", "E", "S", "3", "-1", "x", "cap=128", "E:S", "--piao=1", "--seat=",
    "--self-draw=", "--kongs=2", "--rules=mcr"])


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS, max_size=8))
def test_grammar_agrees_with_typer_on_any_tokens(argv: list[str]) -> None:
    assert _ours(argv) == _typer(argv)


def test_json_echoes_the_flags_as_typed() -> None:
    code, out, _ = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       "--piao", "2", "--seat", "W", "--option", "cap=64", "--json")
    assert code == 0
    import json

    assert json.loads(out)["flags"] == {"--self-draw": True, "--seat": "W", "--round": "E",
                                        "--piao": 2, "--option": {"cap": "64"}}


def test_a_bad_flag_in_a_batch_line_says_which_argument() -> None:
    rec = score_record("123m456p789s234sP9m --self-draw --kongs x", ["--rules", "hangzhou"],
                       lang="en")
    assert rec["error"]["message"] == "Invalid value for '--kongs': 'x' is not a valid int."
    assert rec["error"]["code"] == "usage.not_a_number"
    assert rec["error"]["argument"] == 3  # the line's third argument: --kongs
