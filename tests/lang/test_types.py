"""The expression language's parts: types as objects, sizes from the scope, the function
registry, and metered closures that give the same values as unmetered ones."""

from __future__ import annotations

import pytest

from scorer.lang import (
    BOOL,
    FUNCTIONS,
    GROUP,
    INT,
    TILE,
    EvalError,
    ExprError,
    Scope,
    budget,
    compile_expr,
    elem_of,
    is_list,
    list_of,
    maybe,
    parse_type,
)


@pytest.mark.parametrize("text", ["int", "bool", "tile?", "list[group]", "list[list[int]]",
                                  "list[str]?"])
def test_types_read_back_as_written(text: str) -> None:
    assert str(parse_type(text)) == text


def test_types_are_objects_with_helpers() -> None:
    assert elem_of(list_of(GROUP)) == GROUP and elem_of(maybe(list_of(TILE))) == TILE
    assert is_list("list[int]?") and not is_list(INT)
    assert list_of(GROUP, 6) == list_of(GROUP)  # the size is not part of the identity
    assert hash(list_of(GROUP, 6)) == hash(list_of(GROUP))
    assert maybe(maybe(TILE)) == maybe(TILE) and str(maybe(BOOL)) == "bool?"


def test_list_sizes_come_from_the_scope() -> None:
    # three nested loops: 10**3 steps per loop body is fine, 200**3 is over the bound
    src = "count(1 for a in xs for b in xs for c in xs)"
    assert compile_expr(src, Scope({"xs": list_of(INT, 10)}))({"xs": (1,) * 10}) == 1000
    with pytest.raises(ExprError, match="may take up to"):
        compile_expr(src, Scope({"xs": list_of(INT, 200)}))


def test_every_registered_function_compiles_and_runs() -> None:
    calls = {"len": ("len(xs)", 3), "count": ("count(xs)", 3), "any": ("any(xs)", True),
             "all": ("all(xs)", True), "sum": ("sum(xs)", 6), "min": ("min(xs)", 1),
             "max": ("max(2, 5)", 5), "abs": ("abs(-4)", 4), "distinct": ("distinct([1, 1, 2])",
                                                                         (1, 2)),
             "sorted": ("sorted([3, 1])", (1, 3)), "tile": ("tile('x') == 'y'", True),
             "any_reading": ("any_reading(r)", True)}
    assert set(calls) == set(FUNCTIONS)  # a new row needs a case here
    inner = Scope({"r": BOOL})
    scope = Scope({"xs": list_of(INT, 3)}, coerce={TILE: lambda s: 7}, readings=inner)
    env = {"xs": (1, 2, 3), "__readings__": [{"r": False}, {"r": True}]}
    for name, (src, want) in calls.items():
        for metered in (False, True):
            assert compile_expr(src, scope, metered=metered)(env) == want, (name, metered)


def test_metered_and_unmetered_closures_agree_and_only_metered_ones_tick() -> None:
    scope = Scope({"n": INT, "xs": list_of(INT, 8)})
    src = "sum(x * 2 ** (n + x) for x in xs if x % 2) + max(xs) - len(xs)"
    env = {"n": 100, "xs": tuple(range(8))}
    plain, metered = compile_expr(src, scope, metered=False), compile_expr(src, scope)
    want = sum(x * 2 ** (100 + x) for x in range(8) if x % 2) + 7 - 8
    with budget.limited(10.0) as b:
        assert plain(env) == want
        assert b is not None and b.ticks == 0
        assert metered(env) == want
        assert b.ticks > 8


def test_an_exhausted_budget_stops_a_loop_free_expression() -> None:
    c = compile_expr("3 ** (5000 + n) % 7", Scope({"n": INT}))
    with budget.limited(0.0), pytest.raises(EvalError, match=r"ran for more than 0\.0 s"):
        for _ in range(100):
            c({"n": 1})
    assert c({"n": 1}) == 3 ** 5001 % 7  # outside the block: no budget in force


# ---------------------------------------------------------------- the tree walker
_WALKED = [
    "f(x, 1, *ys, k=2, **kw)", "[a for a in xs if a > 1 for b in a]", "{1: 2, **d}",
    "a if b else c", "lambda q: q", "x[1:2, ::3]", "not (a < b <= c) and d or e",
    "f'{x!r:>{w}}'", "def g(a, *b, c=1):\n    yield a", "{*s, 1}", "-x ** ~y", "a.b.c(d)[e]",
]


@pytest.mark.parametrize("src", _WALKED)
def test_children_are_ast_iter_child_nodes(src: str) -> None:
    import ast

    from scorer.lang.cost import children

    mode = "exec" if src.startswith("def") else "eval"
    nodes = list(ast.walk(ast.parse(src, mode=mode)))
    assert len(nodes) > 3
    for node in nodes:
        assert children(node) == list(ast.iter_child_nodes(node))
