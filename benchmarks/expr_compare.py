"""Compare safe-expression options for ruleset formulas, on speed and on safety.

Candidates: simpleeval (interprets Python's AST on each call), rule-engine (its own
typed grammar) and what mjscore does (scorer/lang/): a whitelisted subset of Python's
AST compiled once into closures. Run:

    pip install simpleeval rule-engine && python benchmarks/expr_compare.py
"""

from __future__ import annotations

import ast
import operator
import timeit
from collections.abc import Callable
from typing import Any

EXPR = "2 ** (1 + luxury + piao) if seven_pairs and lone_wild else 1"
ENV = {"luxury": 1, "piao": 2, "seven_pairs": True, "lone_wild": True}
HOSTILE = ["__import__('os').system('true')", "().__class__.__bases__[0].__subclasses__()",
           "2 ** 2 ** 64"]


def closures(node: ast.AST) -> Callable[[dict[str, Any]], Any]:
    """A minimal version of scorer.lang's compiler, enough for EXPR."""
    ops = {ast.Add: operator.add, ast.Pow: operator.pow}
    if isinstance(node, ast.Expression):
        return closures(node.body)
    if isinstance(node, ast.Constant):
        v = node.value
        return lambda e: v
    if isinstance(node, ast.Name):
        k = node.id
        return lambda e: e[k]
    if isinstance(node, ast.BinOp):
        lf, rf, op = closures(node.left), closures(node.right), ops[type(node.op)]
        return lambda e: op(lf(e), rf(e))
    if isinstance(node, ast.BoolOp):
        fs = [closures(v) for v in node.values]
        return lambda e: all(f(e) for f in fs)
    if isinstance(node, ast.IfExp):
        t, b, o = closures(node.test), closures(node.body), closures(node.orelse)
        return lambda e: b(e) if t(e) else o(e)
    raise ValueError(f"not allowed: {type(node).__name__}")


def main() -> None:
    candidates: list[tuple[str, Callable[[], Any]]] = []
    try:
        import simpleeval

        se = simpleeval.SimpleEval(names=ENV)
        parsed = se.parse(EXPR)
        candidates.append(("simpleeval", lambda: se.eval(EXPR, previously_parsed=parsed)))
    except ImportError:
        print("simpleeval not installed")
    try:
        import rule_engine

        rule = rule_engine.Rule("(seven_pairs and lone_wild) ? (2 ** (1 + luxury + piao)) : 1")
        candidates.append(("rule-engine", lambda: rule.evaluate(ENV)))
    except ImportError:
        print("rule-engine not installed")
    from scorer.lang import Scope, compile_expr

    ours = compile_expr(EXPR, Scope({k: "int" for k in ENV}))
    compiled = closures(ast.parse(EXPR, mode="eval"))
    candidates += [("ast->closures", lambda: compiled(ENV)), ("scorer.lang", lambda: ours(ENV)),
                   ("plain python", lambda: 2 ** (1 + ENV["luxury"] + ENV["piao"])
                    if ENV["seven_pairs"] and ENV["lone_wild"] else 1)]
    for name, f in candidates:
        n = 20000
        t = min(timeit.repeat(f, number=n, repeat=5)) / n
        print(f"{name:14s} {t * 1e6:7.2f} us/eval  result={f()}")
    for bad in HOSTILE:
        try:
            compile_expr(bad, Scope({}))
            print(f"scorer.lang ACCEPTED {bad!r}")
        except Exception as e:
            print(f"scorer.lang refused {bad[:34]!r}: {e}")


if __name__ == "__main__":
    main()
