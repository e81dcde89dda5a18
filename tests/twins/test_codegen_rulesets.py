"""The generated pattern loop (scorer/rules/plan.py) against the closures, ruleset by ruleset.

The oracle is the closure path, which the golden suites hold to docs/rulings.md: every golden
hand and every example line, under every built-in ruleset and the house files of
examples/house/, and then seeded mutations of the built-in files (operators swapped,
constants changed, comprehensions added, loaded as a user's file, so metered) must
score the same with the generated loop as with the closures only: every reading
considered, its patterns, values, counts and items, tallies, payments, the JSON report,
the CPU budget's ticks, or the same error, word for word.
"""

from __future__ import annotations

import os
import random
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer import score
from scorer.cli.app import context_from_params, parse_score_args
from scorer.errors import MjscoreError, RulesetError
from scorer.lang import budget
from scorer.rules import facts as F
from scorer.rules import plan as P
from scorer.rules.load import compile_ruleset, list_builtin, load_ruleset
from scorer.rules.model import Ruleset
from scorer.rules.plan import plan_of, with_plan
from scorer.search.decompose import Group
from scorer.views.jsondata import to_json

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _golden(rid: str) -> list[str]:
    path = GOLDEN / f"{rid}.yaml"
    if not path.exists():
        return []
    return [c["line"] for c in yaml.safe_load(path.read_text(encoding="utf-8"))]


def _examples(rid: str) -> list[str]:
    path = ROOT / "examples" / f"{rid}.txt"
    if not path.exists():
        return []
    return [x.strip() for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


def _hangzhou_with(path: Path, patterns: str) -> str:
    """A copy of hangzhou.yaml with ``patterns`` (YAML list items) added, as a user's file."""
    text = (ROOT / "rulesets" / "hangzhou.yaml").read_text(encoding="utf-8")
    assert "\npayment:" in text
    path.write_text(text.replace("\npayment:", "\n" + patterns + "\npayment:", 1),
                    encoding="utf-8")
    return str(path)


def _pair(rs: Ruleset) -> tuple[Ruleset, Ruleset]:
    """(generated, closures only) copies of a ruleset."""
    gen = with_plan(rs, plan_of(rs).generate_now(rs))
    assert plan_of(gen).generated.loop is not None, "the loop could not be generated"
    return gen, with_plan(rs, plan_of(rs).closures_only())


@contextmanager
def _ticks() -> Iterator[list[int]]:
    """Record the ticks of every budget score() opens."""
    seen: list[budget.Budget | None] = []
    out: list[int] = []
    real = budget.limited

    @contextmanager
    def spy(limit: float | None) -> Iterator[budget.Budget | None]:
        with real(limit) as b:
            seen.append(b)
            yield b
    budget.limited = spy  # type: ignore[assignment]
    try:
        yield out
    finally:
        budget.limited = real  # type: ignore[assignment]
        out += [b.ticks if b is not None else 0 for b in seen]


def _outcome(line: str, rs: Ruleset) -> Any:
    """Everything a caller can see of scoring ``line`` under ``rs``, errors included."""
    argv = shlex.split(line)
    try:
        p = parse_score_args([*argv, "--rules", rs.id] if "--rules" not in argv else argv)
        ctx = context_from_params(p)
    except MjscoreError as e:
        return ("input", str(e))
    for fam in plan_of(rs).families:  # shared by both plans: a warm memo would tick less
        fam.cache.clear()
        fam.combos.clear()
    with _ticks() as ticks:
        try:
            r = score(str(p["hand"]), rs, ctx)
        except MjscoreError as e:
            return ("error", type(e).__name__, e.exit_code, str(e))
    readings = [(c.reading.describe(), c.reading.shape,
                 [(h.pattern.id, h.value, h.count, h.items, h.replaced_by) for h in c.hits],
                 [(h.pattern.id, h.value, h.replaced_by) for h in c.replaced],
                 c.tallies, c.score, c.payments, c.tie, [(t, p.id, v) for t, p, v in c.also])
                for c in r.candidates]
    return ("ok", readings, [(rd.describe(), why) for rd, why in r.excluded],
            to_json(r), to_json(r, "en"), ticks)


def _same(rs: Ruleset, lines: list[str]) -> int:
    """Assert both paths agree on every line; return how many lines scored."""
    gen, clo = _pair(rs)
    ok = 0
    for line in lines:  # (the formulas rendered are remembered by these throw-away copies)
        want, got = _outcome(line, clo), _outcome(line, gen)
        assert got == want, line
        ok += want[0] == "ok"
    return ok


def _in_child(call: str) -> None:
    """Run ``call`` (an expression using this module's functions) in a child process: the
    comparisons load and render many rulesets, and later tests measure the memory of their
    own children, which start with this process's peak."""
    import subprocess
    import sys

    # the tree's folder is appended, not prepended: `scorer` stays the package under test
    # (the installed, compiled one in .ci/run's last step, which runs without cwd on the path)
    code = (f"import sys; sys.path.append({str(ROOT)!r}); "
            "import pathlib, tempfile; from tests.twins import test_codegen_rulesets as m; "
            f"globals().update(vars(m)); {call}")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=600, env={**os.environ, "MJSCORE_NO_CACHE": "1"})
    assert r.returncode == 0, r.stdout + r.stderr[-4000:]


@pytest.mark.parametrize("rid", list_builtin())
def test_every_golden_hand_and_example_scores_alike(rid: str) -> None:
    _in_child(f"_golden_alike({rid!r})")


def _golden_alike(rid: str) -> None:
    lines = _golden(rid) + _examples(rid)
    assert lines
    assert _same(load_ruleset(rid), lines) > len(lines) // 3


@pytest.mark.parametrize("house", sorted((ROOT / "examples" / "house").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_house_files_score_alike(house: Path) -> None:
    _in_child(f"_house_alike({str(house)!r})")


def _house_alike(house: str) -> None:
    rs = load_ruleset(house)
    assert not rs.trusted  # a user's file: its expressions are metered
    base = rs.chain[-1].removesuffix(".yaml")
    lines = _golden(base) + _examples(base)
    assert _same(rs, lines) > 0


# -- mutated user rulesets -------------------------------------------------------------------
EXPR_LINE = re.compile(r"^(\s+(?:- )?(?:when|value|count): )(.+)$")
SWAPS = [(" == ", " != "), (" != ", " == "), (" > ", " >= "), (" >= ", " > "), (" < ", " <= "),
         (" <= ", " < "), (" and ", " or "), (" or ", " and "), (" + ", " * "), (" * ", " + "),
         (" - ", " + ")]
# extra terms that hold on many readings and loop over the reading's lists
WHEN_TERMS = ["count(g for g in sets if g.pung) >= 1", "any(t.honor for t in tiles)",
              "len([g for g in groups if not g.concealed]) < 3",
              "count(1 for a in sets for b in sets if a.kind == b.kind) > 4",
              "sum(g.number for g in chows) >= 0"]
VALUE_TERMS = ["count(g for g in pungs if g.honor)", "len(distinct(t.suit for t in tiles))",
               "max([1] + [g.number for g in sets if g.chow])", "(2 if any(g.kong for g in sets) else 0)"]


def _mutate(text: str, rng: random.Random, n: int) -> str:
    lines = text.splitlines()
    spots = [i for i, x in enumerate(lines) if EXPR_LINE.match(x)
             and not EXPR_LINE.match(x).group(2).startswith((">", "|", "{", "["))]  # type: ignore[union-attr]
    for i in rng.sample(spots, min(n, len(spots))):
        m = EXPR_LINE.match(lines[i])
        assert m
        head, src = m.group(1), m.group(2).strip()
        if src.startswith('"') and src.endswith('"'):
            src = src[1:-1]
        if '"' in src or "#" in src:
            continue
        kind = rng.randrange(4)
        swaps = [s for s in SWAPS if s[0] in src]
        if kind == 0 and swaps:
            a, b = rng.choice(swaps)
            src = src.replace(a, b, 1)
        elif kind == 1 and re.search(r"\b\d+\b", src):
            nums = list(re.finditer(r"\b\d+\b", src))
            k = rng.choice(nums)
            new = rng.choice([0, 1, int(k.group()) + 1, int(k.group()) * 2])
            src = src[:k.start()] + str(new) + src[k.end():]
        elif "when" in head:
            src = f"({src}) {rng.choice(['and', 'or'])} {rng.choice(WHEN_TERMS)}"
        else:
            src = f"({src}) + {rng.choice(VALUE_TERMS)}"
        lines[i] = f'{head}"{src}"'
    return "\n".join(lines) + "\n"


MUTANTS_PER_RULESET = 6


@pytest.mark.parametrize("rid", list_builtin())
def test_mutated_user_rulesets_score_alike(rid: str) -> None:
    _in_child(f"_mutants_alike({rid!r}, pathlib.Path(tempfile.mkdtemp()))")


def _mutants_alike(rid: str, tmp_path: Path) -> None:
    text = (ROOT / "rulesets" / f"{rid}.yaml").read_text(encoding="utf-8")
    lines = (_golden(rid) + _examples(rid))[:40]
    rng = random.Random(f"codegen-{rid}")
    loaded = scored = 0
    for k in range(MUTANTS_PER_RULESET * 3):
        if loaded == MUTANTS_PER_RULESET:
            break
        path = tmp_path / f"{rid}-mutant{k}.yaml"
        src = _mutate(text, rng, rng.randrange(1, 6))
        path.write_text(src, encoding="utf-8")
        try:
            rs = compile_ruleset(src, str(path))
        except RulesetError:
            continue  # a mutation the schema refuses (a type error): nothing to compare
        loaded += 1
        scored += _same(rs, lines)
    assert loaded == MUTANTS_PER_RULESET
    assert scored > 0


# -- the inline attribute templates against their accessors --------------------------------
def _groups() -> list[Group]:
    out = []
    for t in range(34):
        for kind in ("pair", "pung", "kong", "single"):
            out.append(Group(kind, (t,) * {"pair": 2, "pung": 3, "kong": 4, "single": 1}[kind]))
        if t < 27 and t % 9 < 7:
            out.append(Group("chow", (t, t + 1, t + 2)))
    out.append(Group("knit", (0, 12, 24)))
    flags = [dict(meld=-1, exposed=False, has_win=False, concealed=True),
             dict(meld=0, exposed=True, has_win=True, concealed=False),
             dict(meld=2, exposed=False, has_win=True, concealed=True)]
    return [g._replace(**f) for g in out for f in flags]  # type: ignore[arg-type]


def test_each_inline_template_is_its_accessor() -> None:
    from scorer.lang.codegen import Emitter

    names = {fn: (kind, name) for kind, table in (("group", F.GROUP_ATTRS),
                                                 ("tile", F.TILE_ATTRS))
             for name, a in table.items() for fn in [a.fn]}
    for fn, template in P.INLINE_ATTRS.items():
        kind, name = names[fn]
        em = Emitter(P.INLINE_ATTRS)
        inline = em.function(f"def _f(_t):\n    return {template.replace('{}', '_t')}\n", "_f")
        values = _groups() if kind == "group" else list(range(34))
        for v in values:
            assert inline(v) == fn(v) and type(inline(v)) is type(fn(v)), (name, v)


# -- the switch and the fallback ------------------------------------------------------------
def test_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, mode in (("off", "off"), ("eager", "eager"), ("", "auto"), ("bogus", "auto")):
        monkeypatch.setenv(P.CODEGEN_ENV, value)
        assert P.Generated().mode == mode
    monkeypatch.setenv(P.CODEGEN_ENV, "eager")
    rs = compile_ruleset((ROOT / "rulesets" / "jinhua.yaml").read_text(encoding="utf-8"),
                         str(ROOT / "rulesets" / "jinhua.yaml"))
    assert plan_of(rs).generated.loop is not None  # at once
    monkeypatch.setenv(P.CODEGEN_ENV, "off")
    rs = compile_ruleset("extends: hangzhou\nid: mine\n", "mine.yaml")
    for _ in range(3):
        plan_of(rs).generated.readings = P.AUTO_READINGS
        score("123m456p789s234sPP", rs, context_from_params(parse_score_args(
            ["1m", "--rules", "hangzhou", "--self-draw"])))
    assert plan_of(rs).generated.loop is None


def test_auto_generates_once_enough_readings_were_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(P.CODEGEN_ENV, raising=False)
    rs = compile_ruleset("extends: hangzhou\nid: mine\n", "mine.yaml")
    ctx = context_from_params(parse_score_args(["1m", "--rules", "hangzhou", "--self-draw"]))
    score("123m456p789s234sPP", rs, ctx)
    assert plan_of(rs).generated.loop is None and 0 < plan_of(rs).generated.readings < P.AUTO_READINGS
    while plan_of(rs).generated.readings < P.AUTO_READINGS:
        score("123m456p789s234sPP", rs, ctx)
    assert plan_of(rs).generated.loop is None  # made before the next hand, outside its budget
    score("123m456p789s234sPP", rs, ctx)
    assert plan_of(rs).generated.loop is not None


@pytest.mark.parametrize("error", [RecursionError, SyntaxError, MemoryError])
def test_any_generation_problem_keeps_the_closures(error: type[Exception],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: Any) -> Any:
        raise error("simulated")

    monkeypatch.setattr(P, "_loop_source", fail)
    rs = load_ruleset("mcr")
    fresh = with_plan(rs, plan_of(rs).generate_now(rs))
    assert plan_of(fresh).generated.loop is None and plan_of(fresh).generated.tried
    lines = _golden("mcr")[:20]
    clo = with_plan(rs, plan_of(rs).closures_only())
    assert [_outcome(x, fresh) for x in lines] == [_outcome(x, clo) for x in lines]


def test_deep_and_huge_expressions_in_a_ruleset() -> None:
    _in_child("mp = pytest.MonkeyPatch(); _huge(pathlib.Path(tempfile.mkdtemp()), mp)")


def _huge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.lang import compile as C

    monkeypatch.setattr(C, "MAX_NODES", 60_000)
    monkeypatch.setattr(C, "MAX_SOURCE", 200_000)
    big_and = " and ".join(["self_draw", "len(tiles) > 1"] * 2500)  # 5,000 terms
    rs = load_ruleset(_hangzhou_with(tmp_path / "deep.yaml",
                                     f"  - id: huge\n    when: \"{big_and}\"\n    value: 1\n"))
    assert _same(rs, _golden("hangzhou")[:25]) > 0
    # a loop too long to be worth compiling is not: the closures run
    monkeypatch.setattr(P, "MAX_LOOP_SOURCE", 1000)
    assert plan_of(rs).generate_now(rs).generated.loop is None


def test_an_error_inside_generated_code_is_worded_by_the_closures(tmp_path: Path) -> None:
    rs = load_ruleset(_hangzhou_with(tmp_path / "div.yaml", "  - id: div\n    when: self_draw\n"
                                     "    value: \"1 // (len(tiles) - len(tiles))\"\n"))
    gen, clo = _pair(rs)
    want = _outcome("123m456p789s234sPP --self-draw", clo)
    assert want[0] == "error" and "division by zero" in want[3] and "div.yaml:" in want[3]
    assert _outcome("123m456p789s234sPP --self-draw", gen) == want


def test_generated_code_stops_at_the_cpu_limit() -> None:
    _in_child("_stops_at_the_limit(pathlib.Path(tempfile.mkdtemp()))")


def _stops_at_the_limit(tmp_path: Path) -> None:
    # generated loops run ~30x faster than the closures: 120 patterns of 18**3 items with
    # attribute reads and sums are still far over 0.4 s on a hand with four wildcards
    pats = "".join(f"  - id: slow{i}\n    when: \"count(1 for a in tiles for b in tiles for c in "
                   f"tiles if a.number + b.number == c.number) > {i + 1000}\"\n    value: 1\n"
                   for i in range(120))
    rs = load_ruleset(_hangzhou_with(tmp_path / "slow.yaml", pats))
    gen = with_plan(rs, plan_of(rs).generate_now(rs))
    assert plan_of(gen).generated.loop is not None
    import time

    t0 = time.thread_time()
    got = _outcome("PPPP123m456p789s1s --self-draw", gen)
    used = time.thread_time() - t0
    assert got[0] == "error" and "ran for more than 0.4 s of CPU" in got[3], got
    assert used < 0.4 + 0.3
