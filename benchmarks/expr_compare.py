"""Compare safe-expression options for ruleset formulas: simpleeval, rule-engine and
the whitelisted-AST-to-closures compiler mjscore uses (scorer/expr.py).

Run: pip install simpleeval rule-engine; python benchmarks/expr_compare.py
"""
import ast, operator, timeit
import simpleeval, rule_engine

EXPR = "2 ** (1 + luxury + piao) if seven_pairs and lone_wild else 1"
ENV = {"luxury": 1, "piao": 2, "seven_pairs": True, "lone_wild": True}

# 1. simpleeval (interprets the AST on every call)
se = simpleeval.SimpleEval(names=ENV)
parsed = se.parse(EXPR)
f_se = lambda: se.eval(EXPR, previously_parsed=parsed)

# 2. rule-engine (typed, own grammar; its syntax has no '**' or 'x if c else y' the same way)
RE_EXPR = "(seven_pairs and lone_wild) ? (2 ** (1 + luxury + piao)) : 1"
try:
    rule = rule_engine.Rule(RE_EXPR)
    f_re = lambda: rule.evaluate(ENV)
except Exception as e:
    print("rule-engine:", e); f_re = None

# 3. whitelisted ast compiled into closures
OPS = {ast.Add: operator.add, ast.Pow: operator.pow}
def comp(n):
    if isinstance(n, ast.Expression): return comp(n.body)
    if isinstance(n, ast.Constant): v = n.value; return lambda e: v
    if isinstance(n, ast.Name): k = n.id; return lambda e: e[k]
    if isinstance(n, ast.BinOp):
        l, r, op = comp(n.left), comp(n.right), OPS[type(n.op)]; return lambda e: op(l(e), r(e))
    if isinstance(n, ast.BoolOp):
        fs = [comp(v) for v in n.values]
        return lambda e: all(f(e) for f in fs)
    if isinstance(n, ast.IfExp):
        t, b, o = comp(n.test), comp(n.body), comp(n.orelse); return lambda e: b(e) if t(e) else o(e)
    raise ValueError(n)
f_ast_c = comp(ast.parse(EXPR, mode="eval"))
f_ast = lambda: f_ast_c(ENV)
native = lambda: (2 ** (1 + ENV["luxury"] + ENV["piao"]) if ENV["seven_pairs"] and ENV["lone_wild"] else 1)
for name, f in [("simpleeval", f_se), ("rule-engine", f_re), ("ast->closures", f_ast), ("plain python", native)]:
    if f is None: continue
    n = 20000
    t = min(timeit.repeat(f, number=n, repeat=5)) / n
    print(f"{name:14s} {t*1e6:7.2f} us/eval  result={f()}")
# safety probes
for bad in ["__import__('os').system('true')", "().__class__.__bases__[0].__subclasses__()", "2 ** 2 ** 64"]:
    try:
        r = simpleeval.simple_eval(bad); print("simpleeval accepted", bad[:30], "->", str(r)[:20])
    except Exception as e:
        print("simpleeval refused", bad[:30], type(e).__name__)
