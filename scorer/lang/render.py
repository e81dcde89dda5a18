"""Showing a formula with the values it was computed from (the "why" of a score)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .ops import BINOPS


class Renderable(Protocol):
    """What rendering reads of a compiled expression (:class:`scorer.lang.compiled.Compiled`):
    its tree, and the evaluator of each node by ``id(node)``. A protocol, so that this
    module needs nothing from the compiler, which uses :func:`fmt` from here."""

    @property
    def tree(self) -> ast.expr: ...

    @property
    def node_fns(self) -> Mapping[int, Callable[[Any], Any]]: ...

_PREC = {"Add": 1, "Sub": 1, "Mult": 2, "FloorDiv": 2, "Mod": 2, "Pow": 3}


def fmt(v: Any) -> str:
    """Return a value as a reader sees it: yes / no / none for the constants.

    >>> fmt(True), fmt(None), fmt(8)
    ('yes', 'none', '8')
    """
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    return str(v)


def formula_text(c: Renderable, env: Any, labels: Mapping[str, str] | None = None,
           show_names: bool = True) -> str:
    """Return a formula with the values it was computed from, taking only the branch used.

    >>> from scorer.lang import Scope, compile_expr
    >>> c = compile_expr("base * (2 ** streak if dealer else 1) * fan",
    ...                  Scope({"base": "int", "streak": "int", "dealer": "bool", "fan": "int"}))
    >>> formula_text(c, {"base": 2, "streak": 2, "dealer": True, "fan": 8}, {"base": "底分"})
    '底分 2 × 2^(streak 2) × fan 8'

    A name labelled ``''`` shows as its bare number, and is left out of a sum when 0:

    >>> c = compile_expr("(di + shui) * k + bonus", Scope(dict.fromkeys(
    ...     ["di", "shui", "k", "bonus"], "int")))
    >>> lab = {"di": "底", "shui": "水", "k": "", "bonus": ""}
    >>> formula_text(c, {"di": 16, "shui": 7, "k": 4, "bonus": 50}, lab)
    '(底 16 + 水 7) × 4 + 50'
    >>> formula_text(c, {"di": 8, "shui": 0, "k": 2, "bonus": 0}, lab)
    '(底 8 + 水 0) × 2'
    """
    labels = labels or {}

    def r(node: ast.expr, parent_prec: int = 0) -> str:
        fn = c.node_fns.get(id(node))
        if isinstance(node, ast.Constant):
            return str(node.value)
        if isinstance(node, ast.Name):
            value = fn(env) if fn else env[node.id]
            label = labels.get(node.id, node.id if show_names else "")
            return f"{label} {fmt(value)}".strip()
        if isinstance(node, ast.IfExp):
            test = c.node_fns[id(node.test)](env)
            return r(node.body if test else node.orelse, parent_prec)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            # a bare (unlabelled) addend that is 0 says nothing: "× 2 + 0" shows as "× 2"
            for keep, other in ((node.left, node.right), (node.right, node.left)):
                if (isinstance(other, ast.Name) and labels.get(other.id) == ""
                        and env[other.id] == 0):
                    return r(keep, parent_prec)
        op = type(node.op).__name__ if isinstance(node, ast.BinOp) else ""
        if isinstance(node, ast.BinOp) and op in BINOPS:
            prec = _PREC[op]
            sym = BINOPS[op][0]
            if isinstance(node.op, ast.Mult | ast.Add) and isinstance(
                    node.right, ast.BinOp | ast.IfExp) and _same_op(node.right, node.op, c, env):
                text = f"{r(node.left, prec)} {sym} {r(node.right, prec)}"
                return f"({text})" if prec < parent_prec else text
            if isinstance(node.op, ast.Pow):
                right = r(node.right, 99)
                if not isinstance(node.right, ast.Constant):
                    right = f"({right})" if not right.startswith("(") else right
                text = f"{r(node.left, prec + 1)}^{right}"
            else:
                text = f"{r(node.left, prec)} {sym} {r(node.right, prec + 1)}"
            return f"({text})" if prec < parent_prec else text
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "min", "max"
        ) and len(node.args) > 1:
            return f"{node.func.id}({', '.join(r(a) for a in node.args)})"
        if fn is not None:
            return fmt(fn(env))
        return ast.unparse(node)

    return r(c.tree)


def _same_op(node: ast.expr, op: ast.operator, c: Renderable, env: Any) -> bool:
    """Return whether ``node`` (after the branch an if-expression takes) is the same op."""
    while isinstance(node, ast.IfExp):
        node = node.body if c.node_fns[id(node.test)](env) else node.orelse
    return isinstance(node, ast.BinOp) and type(node.op) is type(op)
