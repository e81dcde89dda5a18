"""The ruleset store's built entries (scorer.rules.store): a start that reads an entry scores
exactly as one that builds the ruleset from its file, and an entry that is not ours,
not private, damaged, tampered with or out of date is never used.

Every comparison is between the two ways of getting the same ruleset (built from the
file now, or read from an entry written by that build): the expected side is the
ordinary build, which the golden files hold to the rules.
"""

from __future__ import annotations

import io
import marshal
import os
import pickle
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorer
from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.scoring import score
from scorer.errors import MjscoreError
from scorer.lang import Compiled, Prebuilt
from scorer.rules import pickled, store
from scorer.rules.files import builtin_path
from scorer.rules.load import compile_ruleset
from scorer.rules.model import Ruleset
from scorer.rules.plan import plan_of, with_plan
from scorer.views.jsondata import to_json
from scorer.views.report import human
from scorer.views.rulespage import markdown
from scorer.views.rulesview import show_text, with_options
from scorer.views.rulesyaml import yaml_text
from tests.helpers.handgen import ruleset_ids, winning_hands

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
HOUSE = sorted((ROOT / "examples" / "house").glob("*.yaml"))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache of this test's own; returns its directory (made on first write)."""
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path / "xdg" / "mjscore"))
    monkeypatch.delenv("MJSCORE_NO_CACHE", raising=False)
    return tmp_path / "xdg" / "mjscore"


def build(path: Path) -> Ruleset:
    """The ruleset built from its file, now (no built entry read); writes the entry."""
    real = store.read_built
    store.read_built = lambda file, text: None  # type: ignore[assignment]
    try:
        return compile_ruleset(path.read_text(encoding="utf-8"), str(path))
    finally:
        store.read_built = real  # type: ignore[assignment]


def read_back(path: Path) -> Ruleset | None:
    got = store.read_built(str(path), path.read_text(encoding="utf-8"))
    return None if got is None else got[0]


def entry_of(home: Path) -> Path:
    [e] = sorted(home.glob("*.built"))
    return e


def expressions(rs: Ruleset) -> list[Compiled]:
    """Every compiled expression a ruleset holds, found as pickle finds them."""
    out: list[Compiled] = []

    class Finder(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, Compiled):
                out.append(obj)
                return len(out)
            return "named" if obj is scorer.rules.facts.TILE_ATTRS or \
                obj is scorer.rules.facts.GROUP_ATTRS else None

    Finder(io.BytesIO()).dump(rs)
    return out


def outcome(rs: Ruleset, line: str) -> Any:
    """Everything a table sees of one line: the JSON, the explained report, or the error."""
    argv = shlex.split(line)
    try:
        # (the ruleset scored is rs: "--rules" only completes the command line)
        p = parse_score_args(argv if "--rules" in argv else [*argv, "--rules", "x"])
        result = score(str(p["hand"]), rs, context_from_params(p))
    except MjscoreError as e:
        return ("error", type(e).__name__, str(e), e.exit_code)
    return (to_json(result, "zh"), to_json(result, "en"),
            human(result, lang="zh", explain=True, unicode=False, top=3))


def golden_lines(stem: str) -> list[str]:
    f = GOLDEN / f"{stem}.yaml"
    return [c["line"] for c in yaml.safe_load(f.read_text(encoding="utf-8"))] if f.exists() else []


RULESET_FILES = [builtin_path(r) for r in ruleset_ids()] + HOUSE


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_every_ruleset_reads_back_and_scores_its_golden_hands_the_same(
        home: Path, path: Path) -> None:
    fresh = build(path)
    again = read_back(path)
    assert again is not None, "no built entry was written or it did not read back"
    exprs = expressions(again)
    assert len(exprs) == len(expressions(fresh)) > 20
    # nearly every expression comes back with generated code, the rest compiled from text
    assert sum(isinstance(c, Prebuilt) for c in exprs) >= 0.8 * len(exprs)
    assert [c.src for c in exprs] == [c.src for c in expressions(fresh)]
    assert [c.where for c in exprs] == [c.where for c in expressions(fresh)]
    assert [str(c.type) for c in exprs] == [str(c.type) for c in expressions(fresh)]
    lines = golden_lines(path.stem) or golden_lines(fresh.id)
    if path in HOUSE:  # a house file: the golden hands of the ruleset it extends
        lines = golden_lines(str(fresh.chain[-1]).removesuffix(".yaml"))
    assert lines
    for line in lines:
        assert outcome(again, line) == outcome(fresh, line), line


_pairs: dict[str, tuple[Ruleset, Ruleset]] = {}


def pair(rid: str) -> tuple[Ruleset, Ruleset]:
    """(built from the file, read back from its entry) for a built-in ruleset, made once
    (in the suite's own cache directory, tests/conftest.py)."""
    if rid not in _pairs:
        fresh = build(builtin_path(rid))
        again = read_back(builtin_path(rid))
        assert again is not None
        _pairs[rid] = (fresh, again)
    return _pairs[rid]


@pytest.mark.parametrize("rid", ruleset_ids())
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_hands_score_the_same_from_an_entry(rid: str, data: st.DataObject) -> None:
    fresh, again = pair(rid)
    g = data.draw(winning_hands(rid))
    assert outcome(again, g.line) == outcome(fresh, g.line), g.line


def test_a_failing_expression_fails_with_the_closures_words(home: Path, tmp_path: Path) -> None:
    # generated code raising is run again by the closures: the same message, file and line
    f = tmp_path / "boom.yaml"
    # (generated code says IndexError(8) where the closures say which list and index)
    f.write_text("extends: hangzhou\nid: boom\npatterns:\n  - id: boom\n    name: 炸\n"
                 "    when: 'True'\n    value: '[1, 2][wild_count + 7]'\n",
                 encoding="utf-8")
    fresh = build(f)
    again = read_back(f)
    assert again is not None
    [p] = [p for p in again.patterns if p.id == "boom"]
    assert isinstance(p.value, Prebuilt)
    line = "123m456p789s234sP9m --self-draw"
    got, want = outcome(again, line), outcome(fresh, line)
    assert got == want and want[0] == "error", want
    assert want[2].endswith("boom.yaml:7 patterns[0].value: index 8 is outside a list of 2")


def test_the_closure_tree_is_compiled_only_when_asked_for(home: Path) -> None:
    mcr = builtin_path("mcr")
    build(mcr)
    rs = read_back(mcr)
    assert rs is not None
    p = rs.patterns[0]
    assert isinstance(p.when, Prebuilt) and "tree" not in p.when.__dict__
    assert type(p.when.tree).__name__ in ("BoolOp", "Compare", "Call", "Name", "Constant")
    assert "tree" in p.when.__dict__ and p.when.node_fns


def test_the_generated_pattern_loop_builds_from_an_entry(home: Path) -> None:
    # the loop a batch generates reads each expression's tree: compiled from the text
    for rid in ("mcr", "xiamen"):
        path = builtin_path(rid)
        fresh = build(path)
        again = read_back(path)
        assert again is not None
        gen = with_plan(again, plan_of(again).generate_now(again))
        assert plan_of(gen).generated.loop is not None
        for line in golden_lines(rid)[:40]:
            assert outcome(gen, line) == outcome(fresh, line), line


def write_entry(e: Path, body: bytes, **header: Any) -> None:
    import json

    raw = e.read_bytes()
    head = json.loads(raw.partition(b"\n")[0])
    head.update(header)
    head["digest"] = store.digest(body)
    e.write_bytes(json.dumps(head).encode() + b"\n" + body)


@pytest.mark.parametrize("how", ["flipped", "truncated", "empty", "header", "evil", "function",
                                 "code"])
def test_a_damaged_or_tampered_entry_is_ignored_and_rewritten(home: Path, tmp_path: Path,
                                                               how: str) -> None:
    hz = builtin_path("hangzhou")
    build(hz)
    e = entry_of(home)
    raw = e.read_bytes()
    marker = tmp_path / "ran"
    if how == "flipped":  # one byte of the pickle changed: its hash no longer matches
        i = len(raw) - 100
        e.write_bytes(raw[:i] + bytes([raw[i] ^ 1]) + raw[i + 1:])
    elif how == "truncated":
        e.write_bytes(raw[: len(raw) // 2])
    elif how == "empty":
        e.write_bytes(b"")
    elif how == "header":
        e.write_bytes(b"not json\n" + raw.partition(b"\n")[2])
    elif how == "evil":  # a pickle that would run a command, its hash made to match
        class Evil:
            def __reduce__(self) -> Any:
                return (os.system, (f"touch {marker}",))
        write_entry(e, pickle.dumps(Evil()))
    elif how == "function":  # a pickle that calls one of mjscore's own functions
        write_entry(e, b"\x80\x05cscorer.rules.store\nclear\n)R.")
    else:  # an expression whose stored code is not an evaluator (its hash matching)
        e.unlink()
        real = pickled._portable
        pickled._portable = lambda c: (marshal.dumps(42), ())  # type: ignore[assignment]
        try:
            build(hz)
        finally:
            pickled._portable = real  # type: ignore[assignment]
    assert read_back(hz) is None
    assert not marker.exists()
    rs = compile_ruleset(hz.read_text(encoding="utf-8"), str(hz))  # built from the file
    assert rs.id == "hangzhou" and not isinstance(rs.patterns[0].when, Prebuilt)
    assert read_back(hz) is not None  # and the entry written again


def test_an_entry_others_may_write_or_not_ours_is_refused(home: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    mcr = builtin_path("mcr")
    build(mcr)
    e = entry_of(home)
    assert read_back(mcr) is not None
    e.chmod(0o666)
    assert read_back(mcr) is None
    e.chmod(0o600)
    assert read_back(mcr) is not None
    home.chmod(0o755)  # the directory open to others: nothing in it is read
    assert read_back(mcr) is None
    home.chmod(0o700)
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)
    assert read_back(mcr) is None


def test_a_change_to_the_chain_or_the_code_misses(home: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    parent = tmp_path / "parent.yaml"
    parent.write_text("extends: hangzhou\nid: parent\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nid: child\n", encoding="utf-8")
    build(child)
    assert read_back(child) is not None
    parent.write_text("extends: hangzhou\nid: parent\nnotes: [changed]\n", encoding="utf-8")
    assert read_back(child) is None  # the parent's bytes changed
    build(child)
    assert read_back(child) is not None
    monkeypatch.setattr(store, "code_stamp", lambda: "another build of mjscore")
    assert read_back(child) is None
    monkeypatch.undo()
    monkeypatch.setattr(store, "version", lambda: "0.0.0-other")
    assert read_back(child) is None


def test_no_cache_writes_and_reads_nothing(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJSCORE_NO_CACHE", "1")
    build(builtin_path("jinhua"))
    assert not home.exists() or not list(home.glob("*.built"))
    monkeypatch.delenv("MJSCORE_NO_CACHE")
    build(builtin_path("jinhua"))
    monkeypatch.setenv("MJSCORE_NO_CACHE", "1")
    assert read_back(builtin_path("jinhua")) is None


def test_the_code_stamp_follows_the_package_files(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    before = store.code_stamp()
    assert before == store.code_stamp.__wrapped__()  # same files: same stamp
    src = Path(store.__file__)
    st = src.stat()
    try:
        os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        assert store.code_stamp.__wrapped__() != before
    finally:
        os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert store.code_stamp.__wrapped__() == before


def mjscore(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=60)


def test_a_start_from_an_entry_prints_the_same_and_skips_the_schema(tmp_path: Path) -> None:
    env = {"MJSCORE_CACHE_DIR": str(tmp_path / "mjscore")}
    args = ["score", "1m2m3m4m5m6m7m8m9m1p2p3pEE", "--rules", "mcr", "--self-draw",
            "--explain"]
    first = mjscore(*args, env=env)
    assert list(tmp_path.glob("mjscore/*.built"))
    second = mjscore(*args, env=env)
    plain = mjscore(*args, env={"MJSCORE_NO_CACHE": "1"})
    assert first.returncode == second.returncode == plain.returncode == 0
    assert first.stdout == second.stdout == plain.stdout and second.stderr == ""
    probe = ("import sys; from scorer.rules.load import load_ruleset; load_ruleset('mcr');"
             " print(sorted(m for m in ('yaml', 'scorer.rules.schema', 'scorer.lang.codegen')"
             " if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, **env}, timeout=60)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_rules_views_read_the_same_from_an_entry(home: Path, path: Path) -> None:
    # an entry holds no merged document: --yaml reads it again (rules.load.document)
    fresh = build(path)
    again = read_back(path)
    assert again is not None and again.data is None and fresh.data is not None
    for resolved in (False, True):
        assert yaml_text(again, resolved) == yaml_text(fresh, resolved)
    assert show_text(again) == show_text(fresh)
    assert markdown(again) == markdown(fresh)
    if fresh.options:
        name, spec = next(iter(fresh.options.items()))
        pairs = ((name, str(spec.default)),)
        assert yaml_text(with_options(again, pairs), True) == \
            yaml_text(with_options(fresh, pairs), True)


def test_hostile_rulesets_that_load_score_the_same_from_an_entry(home: Path,
                                                                 tmp_path: Path) -> None:
    # the files tests/hostile/test_hostile_rulesets.py runs through the command: those that load
    # (division by zero, none values, CPU-limit bombs) fail the same way from an entry,
    # their generated evaluators ticking the CPU budget as the closures do
    from tests.hostile.test_hostile_rulesets import CASES

    cases = [c for c in CASES if c.check == 0]
    assert len(cases) >= 8
    for c in cases:
        d = tmp_path / c.name.replace(" ", "_").replace("/", "_")
        d.mkdir()
        for name, text in c.files.items():
            (d / name).write_text(text, encoding="utf-8")
        f = d / "hostile.yaml"
        if isinstance(c.text, bytes):
            f.write_bytes(c.text)
        else:
            f.write_text(c.text, encoding="utf-8")
        fresh = build(f)
        again = read_back(f)
        assert again is not None, c.name
        line = shlex.join([c.hand, *c.flags])
        got, want = outcome(again, line), outcome(fresh, line)
        if want[0] == "error" and "ran for more than" in want[2]:
            # stopped by the CPU limit: generated code gets further in the same time, so
            # the pattern it was stopped at may differ; the refusal is the same
            assert got[0] == "error" and got[1] == want[1] and got[3] == want[3], c.name
            assert got[2].split(": ", 1)[1] == want[2].split(": ", 1)[1], (c.name, got[2])
        else:
            assert got == want, (c.name, got[:3] if got[0] == "error" else "scored",
                                 want[:3] if want[0] == "error" else "scored")
        if c.says:
            assert c.says in str(got), (c.name, got)


def test_codegen_off_reads_no_generated_evaluator(home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # MJSCORE_CODEGEN=off is closures only (docs/speed.md): an entry's stored code too
    mcr = builtin_path("mcr")
    build(mcr)
    monkeypatch.setenv("MJSCORE_CODEGEN", "off")
    rs = read_back(mcr)
    assert rs is not None and expressions(rs)
    assert not any(isinstance(c, Prebuilt) for c in expressions(rs))
    monkeypatch.delenv("MJSCORE_CODEGEN")
    rs = read_back(mcr)
    assert rs is not None and any(isinstance(c, Prebuilt) for c in expressions(rs))
