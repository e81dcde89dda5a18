"""Generated code (scorer/lang/codegen.py) against the closures, expression by expression.

The oracle is the closure tree of scorer/lang/compile.py, the evaluator every other test
already holds to docs/rulings.md: on random well-typed expressions and random environments the
generated function must give the same value (of the same type), raise where the closure
raises, and tick the CPU budget exactly as much. Then the allowlist (hostile generated
text is refused before it is compiled), the fallback on trees too deep to write, the
inline attribute templates against their accessors, and the switch.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorer.lang import Compiled, Scope, budget, compile_expr
from scorer.lang import compile as C
from scorer.lang.codegen import MAX_EMIT_DEPTH, CodegenError, Emitter, check_source
from scorer.lang.errors import ExprError

SCOPE = Scope({"a": "int", "b": "int", "c": "int", "p": "bool", "q": "bool", "n": "int?",
               "xs": "list[int]", "ys": "list[int]", "s": "str"})

# -- random expressions, typed so that most of them compile -------------------------------
VARS = ("x", "y", "z")
ints = st.deferred(lambda: st.one_of(
    st.sampled_from(["a", "b", "c", "x", "y", "0", "1", "2", "7", "300", "n"]),
    st.tuples(ints, st.sampled_from(["+", "-", "*", "//", "%", "**"]), ints).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"),
    ints.map(lambda e: f"-{e}"),
    ints.map(lambda e: f"+{e}"),
    st.tuples(ints, bools, ints).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    lists.map(lambda e: f"len({e})"),
    lists.map(lambda e: f"sum({e})"),
    st.tuples(st.sampled_from(["min", "max"]), lists).map(lambda t: f"{t[0]}({t[1]})"),
    st.tuples(st.sampled_from(["min", "max"]), ints, ints).map(
        lambda t: f"{t[0]}({t[1]}, {t[2]})"),
    ints.map(lambda e: f"abs({e})"),
    st.tuples(lists, ints).map(lambda t: f"{t[0]}[{t[1]}]"),
    st.tuples(lists, st.sampled_from(VARS), bools).map(
        lambda t: f"count({t[1]} for {t[1]} in {t[0]} if {t[2]})"),
))
bools = st.deferred(lambda: st.one_of(
    st.sampled_from(["p", "q", "True", "False", "n is None", "n is not None", "s == 'E'",
                     "'a' in s"]),
    st.tuples(ints, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"),
    st.tuples(ints, st.sampled_from(["<", "<="]), ints, st.sampled_from(["<", "=="]), ints).map(
        lambda t: f"({t[0]} {t[1]} {t[2]} {t[3]} {t[4]})"),
    st.tuples(bools, st.sampled_from(["and", "or"]), bools).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"),
    st.lists(bools, min_size=3, max_size=5).map(lambda bs: "(" + " and ".join(bs) + ")"),
    bools.map(lambda e: f"not {e}"),
    st.tuples(ints, st.sampled_from(["in", "not in"]), lists).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"),
    st.tuples(st.sampled_from(["any", "all"]), lists, st.sampled_from(VARS), bools).map(
        lambda t: f"{t[0]}({t[2]} > 1 or {t[3]} for {t[2]} in {t[1]})"),
))
lists = st.deferred(lambda: st.one_of(
    st.sampled_from(["xs", "ys", "[]", "[1, 2, 3]", "[a, b]"]),
    st.tuples(ints, st.sampled_from(VARS), lists, bools).map(
        lambda t: f"[{t[0]} for {t[1]} in {t[2]} if {t[3]}]"),
    st.tuples(ints, lists, lists).map(lambda t: f"[{t[0]} for x in {t[1]} for y in {t[2]}]"),
    st.tuples(st.sampled_from(["distinct", "sorted"]), lists).map(lambda t: f"{t[0]}({t[1]})"),
    st.tuples(bools, lists, lists).map(lambda t: f"({t[1]} if {t[0]} else {t[2]})"),
))
small = st.integers(-4, 40)
envs = st.fixed_dictionaries({
    "a": small, "b": small, "c": st.integers(-3, 3), "p": st.booleans(), "q": st.booleans(),
    "n": st.one_of(st.none(), small), "xs": st.lists(small, max_size=5).map(tuple),
    "ys": st.lists(st.integers(0, 3), max_size=4).map(tuple),
    "s": st.sampled_from(["E", "abc", ""]),
})


def _run(fn: Any, env: dict[str, Any], metered: bool) -> tuple[Any, int]:
    """(('ok', value) or ('raised',), ticks) of one evaluation under a fresh budget."""
    with budget.limited(100.0 if metered else None) as b:
        try:
            out: Any = ("ok", fn(dict(env)))
        except Exception:  # which error it is, the closures word (the engine re-runs them)
            out = ("raised",)
        return out, (b.ticks if b is not None else 0)


def _typed(v: Any) -> Any:
    """A value with the type of every part (True and 1 are different answers)."""
    if isinstance(v, tuple):
        return ("tuple", tuple(_typed(x) for x in v))
    return (type(v).__name__, v)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(src=st.one_of(ints, bools, lists), env=envs)
def test_generated_expression_equals_its_closures(src: str, env: dict[str, Any]) -> None:
    # both compilations of each expression: metered (a user's file) and trusted (built-in)
    for metered in (True, False):
        try:
            c = compile_expr(src, SCOPE, metered=metered)
        except ExprError:
            assume(False)
            return
        gen = Emitter().evaluator(c)
        (want, want_ticks), (got, got_ticks) = _run(c.fn, env, metered), _run(gen, env, metered)
        assert want[0] == got[0], (src, env, metered, want, got)
        if want[0] == "ok":
            assert _typed(got[1]) == _typed(want[1]), (src, env, metered)
            assert got_ticks == want_ticks, (src, env, want_ticks, got_ticks)
        if not metered:
            assert got_ticks == want_ticks == 0


@pytest.mark.parametrize("src,env,value,ticks", [
    # worked by hand from scorer/lang/budget.py's rule: 7 nodes, so 1 + 7 // 4 = 2 ticks at
    # the top; the loop's body (xs, x > 2, x: 5 nodes) weighs 1 + 5 // 4 = 2 per item, 5
    # items; count() reads the 3 items kept, one tick each
    ("count(x for x in xs if x > 2)", {"xs": (1, 2, 3, 4, 5)}, 3, 2 + 2 * 5 + 3),
    ("a and b", {"a": 0, "b": 7}, 0, 1),
    ("+p", {"p": True}, True, 1),
])
def test_worked_values_and_ticks(src: str, env: dict[str, Any], value: Any, ticks: int) -> None:
    scope = Scope({"xs": "list[int]", "a": "int", "b": "int", "p": "bool"})
    gen = Emitter().evaluator(compile_expr(src, scope))
    got, n = _run(gen, env, True)
    assert got == ("ok", value) and type(got[1]) is type(value)
    assert n == ticks


def test_names_appear_only_as_quoted_keys_and_loop_variables_renamed() -> None:
    c = compile_expr("count(g for g in xs if g > a)", SCOPE)
    text = Emitter().expr(c)
    tree = ast.parse(text, mode="eval")
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert names <= {"env", "_v0"} | {f"_h{i}" for i in range(9)}, names
    assert "env['xs']" in text and "env['a']" in text and " g " not in text


def test_generated_code_runs_with_empty_builtins_and_only_its_helpers() -> None:
    em = Emitter()
    fn = em.evaluator(compile_expr("len(xs) + a", SCOPE))
    glob = fn.__globals__
    assert glob["__builtins__"] == {}
    assert set(glob) - {"__builtins__", "_expr"} == set(em.helpers)


# -- the allowlist ---------------------------------------------------------------------------
HOSTILE = {
    "attribute": "def _f(env):\n    return env['x'].__class__",
    "plain attribute": "def _f(env):\n    return env['x'].real",
    "import": "def _f(env):\n    import os\n    return 1",
    "lambda": "def _f(env):\n    return (lambda: 1)()",
    "dunder name": "def _f(env):\n    return __import__",
    "builtin call": "def _f(env):\n    return open('x')",
    "keyword call": "def _f(env):\n    return _h0(env, key=1)",
    "dynamic subscript": "def _f(env):\n    return env[env['k']]",
    "dunder key": "def _f(env):\n    return env['__reading__']",
    "walrus": "def _f(env):\n    return (_x := 1)",
    "two functions": "def _f(env):\n    return 1\ndef _g(env):\n    return 2",
    "module code": "_x = 1\ndef _f(env):\n    return 1",
    "default argument": "def _f(env, _y=print):\n    return 1",
    "assign a helper": "def _f(env):\n    _h0 = 1\n    return _h0",
    "while": "def _f(env):\n    while True:\n        pass",
    "for statement": "def _f(env):\n    for _i in env['xs']:\n        pass",
    "raise": "def _f(env):\n    raise _h0",
    "f-string": "def _f(env):\n    return f'{env}'",
    "bytes": "def _f(env):\n    return b'x'",
    "starred": "def _f(env):\n    return _h0(*env)",
    "unknown name": "def _f(env):\n    return _zz",
    "try": "def _f(env):\n    try:\n        return 1\n    except _h0:\n        return 2",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_allowlist_refuses_hostile_generated_text(name: str, tmp_path: Path) -> None:
    src = HOSTILE[name]
    with pytest.raises(CodegenError):
        check_source(ast.parse(src), ["_h0"])
    em = Emitter()
    em.helpers["_h0"] = len
    with pytest.raises(CodegenError):
        em.function(src, "_f")


def test_a_refused_text_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    em = Emitter()
    em.helpers["_h0"] = marker.touch
    with pytest.raises(CodegenError):
        em.function("def _f(env):\n    return _h0()\n_h0()", "_f")  # module-level call
    assert not marker.exists()


def test_attributes_are_refused_unless_an_inline_template_reads_them() -> None:
    src = "def _f(env):\n    return env['g'].kind"
    with pytest.raises(CodegenError, match=r"Attribute \.kind"):
        check_source(ast.parse(src), [])
    check_source(ast.parse(src), [], {"kind"})
    with pytest.raises(CodegenError, match=r"Attribute \.__class__"):
        check_source(ast.parse("def _f(env):\n    return env['g'].__class__"), [], {"__class__"})
    with pytest.raises(CodegenError):
        Emitter({len: "{}.__class__"})
    with pytest.raises(CodegenError):
        Emitter({len: "{}.kind + {}.kind"})  # the value would be computed twice


# -- deep and huge expressions: the closures are kept ------------------------------------------
# Each runs in a child process: its trees are large, and later tests measure the memory of
# their children, which start with this process's peak.
ROOT = Path(__file__).resolve().parents[2]


def _in_child(check: str) -> None:
    import subprocess
    import sys

    # the tree's folder appended, not prepended: `scorer` stays the package under test (the
    # installed, compiled one in .ci/run's last step, which runs without cwd on the path)
    code = (f"import sys; sys.path.append({str(ROOT)!r}); "
            f"from tests.twins.test_codegen import {check}; {check}()")
    r = subprocess.run([sys.executable, "-c", code],
                       cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "MJSCORE_NO_CACHE": "1"})
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("check", ["_check_a_tree_too_deep_to_write_is_a_codegen_error",
                                   "_check_1000_nested_levels_are_a_codegen_error_at_every_step",
                                   "_check_a_5000_term_and_generates_and_agrees"])
def test_deep_and_huge_expressions(check: str) -> None:
    _in_child(check)


def _deep_not(depth: int) -> Compiled:
    """A compiled ``not not ... p`` of ``depth`` levels: ``not p`` compiled, its tree
    replaced by a deeper one (the compiler itself refuses more than 40 levels)."""
    from dataclasses import replace

    c = compile_expr("not p", Scope({"p": "bool"}))
    tree: ast.expr = ast.Name("p", ast.Load())
    for _ in range(depth):
        tree = ast.UnaryOp(ast.Not(), tree)
    return replace(c, tree=tree)


def _check_a_tree_too_deep_to_write_is_a_codegen_error() -> None:
    with pytest.raises(CodegenError, match="nested more than"):
        Emitter().expr(_deep_not(MAX_EMIT_DEPTH + 5))
    assert Emitter().evaluator(_deep_not(51))({"p": True}) is False


def _check_1000_nested_levels_are_a_codegen_error_at_every_step() -> None:
    import scorer.lang.codegen as G

    c = _deep_not(1000)
    with pytest.raises(CodegenError, match="nested more than"):
        Emitter().expr(c)
    with pytest.MonkeyPatch.context() as mp:  # past the emitter's own bound:
        mp.setattr(G, "MAX_EMIT_DEPTH", 100_000)
        with pytest.raises(CodegenError, match="RecursionError"):  # writing recurses too deep
            Emitter().expr(c)
        # and text with 1000 nested parentheses is refused by Python's parser
        text = "(not " * 1000 + "env['p']" + ")" * 1000
        with pytest.raises(CodegenError, match=r"SyntaxError|RecursionError"):
            Emitter().function(f"def _f(env):\n    return {text}\n", "_f")


def _check_a_5000_term_and_generates_and_agrees() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(C, "MAX_NODES", 20_000)
        mp.setattr(C, "MAX_SOURCE", 60_000)
        src = " and ".join(["p", "q", "a > 1"] * 1667)
        c = compile_expr(src, SCOPE)
    assert len(c.tree.values) == 5001  # type: ignore[attr-defined]
    env = {"p": True, "q": True, "a": 2}
    fn = Emitter().evaluator(c)
    assert _run(fn, env, True) == _run(c.fn, env, True)
    assert _run(fn, {**env, "a": 0}, True) == _run(c.fn, {**env, "a": 0}, True)


@pytest.mark.parametrize("error", [RecursionError, SyntaxError, MemoryError])
def test_compile_problems_are_codegen_errors(error: type[Exception],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import scorer.lang.codegen as G

    def fail(*_: Any, **__: Any) -> Any:
        raise error("simulated")

    monkeypatch.setattr(G, "compile", fail, raising=False)  # shadows the builtin in codegen
    with pytest.raises(CodegenError, match=error.__name__):
        Emitter().evaluator(compile_expr("a + 1", SCOPE))
