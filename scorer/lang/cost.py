"""The load-time cost bound: the most steps an expression can take, from its lists' sizes.

A step is one node evaluated or one list element visited. Loops multiply: a
comprehension costs its iterable's size times its body, so ``for a in L for b in L
for c in L`` over a 190-item list is 6.9 million steps and is refused at load time,
while ``count(g for g in sets if g.pung)`` is a few dozen.

The size of a list comes from its type (:attr:`scorer.lang.types.Type.size`), which the
scope declares for each list it provides; the language itself knows no list by name.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from typing import Any

from .functions import FUNCTIONS
from .types import Type

MAX_COST = 1_000_000
UNKNOWN_SIZE = 34  # a list whose scope declares no size counts as this many items


def children(node: ast.AST) -> list[ast.AST]:
    """The direct child nodes of ``node``, in :func:`ast.iter_child_nodes`' order.

    The same nodes, without its two generators: walking a ruleset's trees (the size check
    and the cost bound, at every load) took 6 of MCR's 20 ms of compiling.

    >>> [type(c).__name__ for c in children(ast.parse("f(x, 1)", mode="eval").body)]
    ['Name', 'Name', 'Constant']
    """
    out: list[ast.AST] = []
    for name in node._fields:
        v = getattr(node, name, None)
        if isinstance(v, ast.AST):
            out.append(v)
        elif type(v) is list:
            out += [x for x in v if isinstance(x, ast.AST)]
    return out


class Cost:
    """Worst-case evaluation steps of one compiled tree.

    ``types`` maps ``id(node)`` to the node's type, ``consts`` the nodes folded at load.

    >>> tree = ast.parse("x + 1", mode="eval").body
    >>> Cost({}, {id(tree.right): 1}).cost(tree)
    3
    """

    def __init__(self, types: Mapping[int, Type], consts: Mapping[int, Any]) -> None:
        self.types = types
        self.consts = consts

    def size(self, node: ast.AST) -> int:
        """Return the largest number of items a list-valued node can have (1 for others)."""
        typ = self.types.get(id(node))
        if typ is None or typ.elem is None:
            return 1
        if isinstance(node, ast.List | ast.Tuple):
            return len(node.elts)
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            return math.prod(self.size(g.iter) for g in node.generators)
        if isinstance(node, ast.IfExp):
            return max(self.size(node.body), self.size(node.orelse))
        if isinstance(node, ast.Call) and node.args:
            return self.size(node.args[0])  # distinct() / sorted() keep the length
        return typ.size if typ.size is not None else UNKNOWN_SIZE

    def cost(self, node: ast.AST) -> int:
        """Return the most steps evaluating ``node`` can take."""
        if id(node) in self.consts:
            return 1  # folded at load time
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            total, times = 0, 1
            for g in node.generators:
                total += times * self.cost(g.iter)
                times *= self.size(g.iter)
                total += times * (1 + sum(self.cost(c) for c in g.ifs))
            return total + times * self.cost(node.elt)
        total = 1 + sum(self.cost(c) for c in children(node) if isinstance(c, ast.expr))
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn):
                    total += self.size(right)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
            f = FUNCTIONS.get(node.func.id)
            if f is not None and f.per_item:
                total += self.size(node.args[0])
        return total
