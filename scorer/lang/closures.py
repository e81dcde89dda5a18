"""The closures the compiler builds for the shapes that run most often.

:mod:`scorer.lang.compile` checks a tree and builds one closure per node; the commonest
condition shapes (``name == 3``, ``a and b``, a one-loop comprehension, ``len(tiles)``) get
a closure of their own here, each one or two Python calls cheaper per evaluation with the
same semantics, and the budget's ticks where the compiled expression is metered.

>>> CMP_NAME_CONST[ast.Eq]("n", 3)({"n": 3}), and_names(["a", "b"])({"a": 1, "b": 0})
(True, 0)
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from . import budget
from .budget import tick
from .compiled import Fn

CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}


# Closures specialised for the commonest condition shapes (`name == 3`, `f(env) > 0`):
# each saves one or two Python calls per evaluation, with the same semantics.
CMP_NAME_CONST: dict[type, Callable[[str, Any], Fn]] = {
    ast.Eq: lambda n, c: lambda env: env[n] == c,
    ast.NotEq: lambda n, c: lambda env: env[n] != c,
    ast.Lt: lambda n, c: lambda env: env[n] < c,
    ast.LtE: lambda n, c: lambda env: env[n] <= c,
    ast.Gt: lambda n, c: lambda env: env[n] > c,
    ast.GtE: lambda n, c: lambda env: env[n] >= c,
    ast.In: lambda n, c: lambda env: env[n] in c,
    ast.NotIn: lambda n, c: lambda env: env[n] not in c,
    ast.Is: lambda n, c: lambda env: env[n] is c,
    ast.IsNot: lambda n, c: lambda env: env[n] is not c,
}
CMP_FN_CONST: dict[type, Callable[[Fn, Any], Fn]] = {
    ast.Eq: lambda f, c: lambda env: f(env) == c,
    ast.NotEq: lambda f, c: lambda env: f(env) != c,
    ast.Lt: lambda f, c: lambda env: f(env) < c,
    ast.LtE: lambda f, c: lambda env: f(env) <= c,
    ast.Gt: lambda f, c: lambda env: f(env) > c,
    ast.GtE: lambda f, c: lambda env: f(env) >= c,
    ast.In: lambda f, c: lambda env: f(env) in c,
    ast.NotIn: lambda f, c: lambda env: f(env) not in c,
    ast.Is: lambda f, c: lambda env: f(env) is c,
    ast.IsNot: lambda f, c: lambda env: f(env) is not c,
}


def and_names(names: list[str]) -> Fn:
    """``a and b and ...`` over plain names, without a call per operand."""
    if len(names) == 2:
        a, b = names
        return lambda env: env[a] and env[b]
    if len(names) == 3:
        a, b, c = names
        return lambda env: env[a] and env[b] and env[c]

    def fn(env: Any) -> Any:
        v: Any = True
        for n in names:
            v = env[n]
            if not v:
                return v
        return v
    return fn



def metered_top(fn: Fn, nodes: int) -> Fn:
    """``fn`` that ticks once per evaluation, weighted by the expression's size."""
    weight = 1 + nodes // 4
    current = budget.current

    def metered(env: Any) -> Any:
        b = current()
        if b is not None:
            b.tick(weight)
        return fn(env)
    return metered


def loops_fn(loops: list[tuple[str, Fn, list[Fn]]], elt_f: Fn, weight: int,
              metered: bool) -> Fn:
    """The function of a checked comprehension: its items as a tuple, the loop
    variables restored after; under a budget, ``weight`` ticks per item."""
    if len(loops) == 1:
        # one loop (nearly every ruleset comprehension): a plain loop, no recursion
        var, it_f, conds = loops[0]

        def one_loop(env: Any) -> tuple[Any, ...]:
            had = var in env
            old = env[var] if had else None
            out: list[Any] = []
            items = it_f(env)
            if metered:  # once per loop rather than per item
                tick(len(items) * weight)
            for item in items:
                env[var] = item
                for c in conds:
                    if not c(env):
                        break
                else:
                    out.append(elt_f(env))
            if had:
                env[var] = old
            else:
                env.pop(var, None)
            return tuple(out)

        return one_loop

    def gen_items(env: Any) -> list[Any]:
        out: list[Any] = []

        def rec(level: int) -> None:
            if level == len(loops):
                out.append(elt_f(env))
                return
            var, it_f, conds = loops[level]
            had = var in env
            old = env[var] if had else None
            for item in it_f(env):
                if metered:
                    tick(weight)
                env[var] = item
                if all(c(env) for c in conds):
                    rec(level + 1)
            if had:
                env[var] = old
            else:
                env.pop(var, None)
        rec(0)
        return out

    return lambda env: tuple(gen_items(env))


def call_one(arg: ast.expr, f: Fn, impl: Callable[..., Any] | None, per_item: bool) -> Fn:
    """A call of a one-argument function; under a budget, one tick per item it reads."""
    assert impl is not None
    if per_item:
        def metered(env: Any) -> Any:
            items = f(env)
            tick(len(items))
            return impl(items)
        return metered
    if isinstance(arg, ast.Name):  # `len(tiles)`: no call for the name
        n = arg.id
        return lambda env: impl(env[n])
    return lambda env: impl(f(env))
