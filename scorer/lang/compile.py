"""The ruleset expression language: a typed, side-effect-free subset of Python expressions.

Conditions and formulas in a ruleset (``when: lone_wild and self_draw``,
``value: 2 ** (1 + luxury + piao)``) are parsed with :func:`ast.parse` and then
*compiled into a tree of closures* after every node has been checked against a
whitelist and every name and attribute against the vocabulary of the place the
expression is used in. The text a ruleset holds is never passed to
``eval``/``exec``/``compile``; a ruleset cannot reach attributes, builtins, imports or
I/O, only the names it is given. (:mod:`scorer.lang.codegen` later writes *new* source
from the checked tree, checks that text against an allowlist and compiles it; the
closures built here stay, for rendering and for wording errors.) Measured against
simpleeval and rule-engine in ``benchmarks/expr_compare.py``: 0.8 µs per evaluation
against 2.9 µs and 12 µs.

What is allowed:

* integers, strings, ``True``/``False``/``None``, list/tuple literals
* names from the vocabulary (the scope), attributes of the types it lists
* ``+ - * // % **``, ``not and or``, comparisons incl. ``in``/``not in``/``is None``,
  ``a if c else b``, indexing a list with an integer
* generator/list comprehensions over lists the scope provides (at most 3
  nested ``for``), so every loop is bounded by the sizes the scope declares
* the functions of :data:`scorer.lang.functions.FUNCTIONS`

Numbers are exact integers (:mod:`scorer.lang.ops`). Constant sub-expressions are
folded at load time so ``2 ** 2 ** 64`` is refused there; what one expression folds
is bounded too (``MAX_FOLDED_BITS``). Compiled with ``metered=True`` (the default; the
rules layer passes False for its trusted built-in files) the closures count their work
against the CPU budget in force (:mod:`scorer.lang.budget`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ..text.near import close_matches
from . import budget
from .budget import tick
from .closures import CMP_FN_CONST, CMP_NAME_CONST, CMPOPS, and_names, call_one, loops_fn, metered_top
from .compiled import Attr, Compiled, Fn, Scope
from .cost import MAX_COST, Cost, children
from .errors import EvalError, ExprError
from .functions import CONDITION, FUNCTIONS, LIST, NUMBER, NUMBER_LIST, NUMBERS, TILE_NAME
from .ops import BINOPS, MAX_BITS, METERED_BINOPS
from .syntax import syntax_error
from .types import (
    ANY,
    BOOL,
    GROUP,
    INT,
    NONE,
    STR,
    TILE,
    Type,
    base,
    elem_of,
    is_numeric,
    list_of,
    maybe,
)

MAX_SOURCE = 2000
MAX_NODES = 600
MAX_DEPTH = 40
MAX_LOOPS = 3
MAX_FOLDED_BITS = 4 * MAX_BITS  # big numbers one expression may fold at load, in all
_WORD = 64


def _offset_to_char(src: str, col: int) -> int:
    """ast col_offset is in UTF-8 bytes; convert to a character offset."""
    return len(src.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def compile_expr(src: Any, scope: Scope, *, metered: bool = True,
                 known_cost: int | None = None) -> Compiled:
    """Check and compile one expression; raise :class:`ExprError` with a column on failure.

    >>> c = compile_expr("2 ** (1 + luxury)", Scope({"luxury": "int"}))
    >>> c({"luxury": 2}), str(c.type)
    (8, 'int')

    With ``metered`` (the default) the closures count their work against the CPU
    budget in force (:func:`scorer.lang.budget.limited`); trusted expressions are
    compiled with ``metered=False`` and pay nothing.

    ``known_cost`` is for an expression that already passed, with this same code and
    scope: its size and cost bound are not worked out again (a third of the time), and
    ``known_cost`` is its cost. The rules layer gives it only for an entry of its own
    cache of built rulesets (:mod:`scorer.rules.store`), never for text a user wrote.
    """
    if isinstance(src, bool):
        src = "True" if src else "False"
    elif isinstance(src, int):
        src = str(src)
    if not isinstance(src, str):
        raise ExprError("expr.not_text", kind=type(src).__name__)
    if len(src) > MAX_SOURCE:
        raise ExprError("expr.too_long", n=len(src), limit=MAX_SOURCE)
    if not src.strip():
        raise ExprError("expr.empty")
    text = src.strip()
    lead = len(src) - len(src.lstrip())
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        # what is wrong, in our words, read from the text where the parser stopped (its
        # message is Python's English: never shown)
        code, col, params = syntax_error(text, e.offset)
        raise ExprError(code, col + lead, **params) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expr.too_deep") from None
    if known_cost is None:
        _check_size(tree)
    comp = _Compiler(text, scope, lead, metered)
    fn, typ = comp.visit(tree.body)
    const = comp.is_const(tree.body)
    cost = Cost(comp.types, comp.consts).cost(tree.body) if known_cost is None else known_cost
    if cost > MAX_COST:
        raise ExprError("expr.cost", lead, cost=f"{cost:,}", limit=f"{MAX_COST:,}")
    weight = 0
    if metered and not const:
        fn = metered_top(fn, comp.nodes)
        weight = 1 + comp.nodes // 4
    return Compiled(text, fn, typ, frozenset(comp.used), tree.body, comp.node_fns, const,
                    frozenset(comp.attrs_used), frozenset(comp.compared), cost,
                    consts=comp.consts, attr_at=comp.attr_at, loop_weight=comp.loop_weight,
                    weight=weight, metered=metered)


def _check_size(tree: ast.AST) -> None:
    nodes = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ExprError("expr.too_many_parts", limit=MAX_NODES)
        if depth > MAX_DEPTH:
            raise ExprError("expr.nested", limit=MAX_DEPTH)
        stack += [(child, depth + 1) for child in children(node)]



class _Compiler:
    """Checks one tree against the whitelist and the scope, and builds its closures."""

    def __init__(self, src: str, scope: Scope, lead: int, metered: bool = True) -> None:
        self.src = src
        self.scope = scope
        self.lead = lead
        self.metered = metered
        self.binops = METERED_BINOPS if metered else {k: f for k, (_, f) in BINOPS.items()}
        self.nodes = 0  # nodes compiled (the weight of one evaluation)
        self.folded_bits = 0  # size of the big numbers folded so far
        self.used: set[str] = set()
        self.locals: dict[str, Type] = {}
        self.loops = 0
        self.node_fns: dict[int, Fn] = {}
        self.consts: dict[int, Any] = {}
        self.attrs_used: set[tuple[Type, str]] = set()
        self.compared: set[Type] = set()
        self.types: dict[int, Type] = {}  # node id -> type, for the cost estimate
        # attribute node id -> its Attr, and whether the value it reads may be none
        self.attr_at: dict[int, tuple[Attr, bool]] = {}
        self.loop_weight: dict[int, int] = {}  # comprehension node id -> ticks per item

    # -- helpers -----------------------------------------------------------------
    def err(self, node: ast.AST, code: str, **params: Any) -> ExprError:
        col = _offset_to_char(self.src, getattr(node, "col_offset", 0)) + self.lead
        return ExprError(code, col, **params)

    def is_const(self, node: ast.AST) -> bool:
        return id(node) in self.consts

    def visit(self, node: ast.expr) -> tuple[Fn, Type]:
        method = getattr(self, "v_" + type(node).__name__, None)
        if method is None:
            raise self.err(node, "expr.not_allowed", construct=_describe(node))
        tick()  # compiling is work too: under the load's budget, if one is in force
        self.nodes += 1
        fn, typ = method(node)
        self.node_fns[id(node)] = fn
        self.types[id(node)] = typ
        return fn, typ

    def fold(self, node: ast.AST, fn: Fn, typ: Type, children: list[ast.AST]) -> tuple[Fn, Type]:
        """Evaluate constant sub-expressions now, so huge numbers fail at load time.

        Returns the closure and type of ``node``: a constant one if every child is constant.
        What one expression folds is bounded in all (``MAX_FOLDED_BITS``), so the constants a
        ruleset keeps grow with its text, never with its arithmetic.
        """
        if children and all(id(c) in self.consts for c in children):
            try:
                value = fn({})
            except EvalError as e:
                raise self.err(node, e.code, **e.params) from None
            except ZeroDivisionError:
                raise self.err(node, "expr.divide_zero") from None
            except (TypeError, ValueError, OverflowError) as e:
                # what went wrong by the kind of error (Python words it in English)
                raise self.err(node, "expr.cannot_compute", what=type(e).__name__) from None
            if type(value) is int and (bits := value.bit_length()) > _WORD:
                self.folded_bits += bits
                if self.folded_bits > MAX_FOLDED_BITS:
                    raise self.err(node, "expr.folded_bits", limit=MAX_FOLDED_BITS)
            self.consts[id(node)] = value
            return (lambda env, v=value: v), typ
        return fn, typ

    # -- leaves ------------------------------------------------------------------
    def v_Constant(self, node: ast.Constant) -> tuple[Fn, Type]:
        v = node.value
        if isinstance(v, bool):
            typ = BOOL
        elif isinstance(v, int):
            if v.bit_length() > MAX_BITS:
                raise self.err(node, "expr.big_number", limit=MAX_BITS)
            typ = INT
        elif isinstance(v, str):
            typ = STR
        elif v is None:
            typ = NONE
        else:
            raise self.err(node, "expr.constant", kind=type(v).__name__)
        self.consts[id(node)] = v
        return (lambda env: v), typ

    def v_Name(self, node: ast.Name) -> tuple[Fn, Type]:
        name = node.id
        if name in self.locals:
            typ = self.locals[name]
        elif name in self.scope.names:
            typ = self.scope.names[name]
            self.used.add(name)
        else:
            known = list(self.scope.names) + list(self.locals)
            close = close_matches(name, known)
            raise self.err(node, self.scope.what, name=name, hint=close[0] if close else None,
                           sets=self.scope.sets)
        return (lambda env: env[name]), typ

    def v_List(self, node: ast.List | ast.Tuple) -> tuple[Fn, Type]:
        parts = [self.visit(e) for e in node.elts]
        types = {base(t) for _, t in parts}
        elem = types.pop() if len(types) == 1 else ANY
        fns = [f for f, _ in parts]
        fn: Fn = lambda env: tuple(f(env) for f in fns)  # noqa: E731
        return self.fold(node, fn, list_of(elem), list(node.elts) or [node])

    v_Tuple = v_List

    # -- operators ---------------------------------------------------------------
    def v_BinOp(self, node: ast.BinOp) -> tuple[Fn, Type]:
        opname = type(node.op).__name__
        if opname not in self.binops:
            if isinstance(node.op, ast.Div | ast.BitXor):  # what was meant has a spelling
                raise self.err(node, "expr.operator_use", op="/" if isinstance(
                    node.op, ast.Div) else "^", use="//" if isinstance(node.op, ast.Div)
                    else "**")
            sym = {ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.LShift: "<<",
                   ast.RShift: ">>"}.get(type(node.op), opname)
            raise self.err(node, "expr.operator", op=sym)
        lf, lt = self.visit(node.left)
        rf, rt = self.visit(node.right)
        if type(node.op) is ast.Add and base(lt) == STR and base(rt) == STR:
            raise self.err(node, "expr.join_text")
        for t, side in ((lt, node.left), (rt, node.right)):
            if not is_numeric(t):
                raise self.err(side, "expr.arith_type", type=str(t))
        op = self.binops[opname]
        fn: Fn = lambda env: op(lf(env), rf(env))  # noqa: E731
        return self.fold(node, fn, INT, [node.left, node.right])

    def v_UnaryOp(self, node: ast.UnaryOp) -> tuple[Fn, Type]:
        f, t = self.visit(node.operand)
        if isinstance(node.op, ast.Not):
            if isinstance(node.operand, ast.Name):
                n = node.operand.id
                g: Fn = lambda env: not env[n]  # noqa: E731
            else:
                g = lambda env: not f(env)  # noqa: E731
            return self.fold(node, g, BOOL, [node.operand])
        if isinstance(node.op, ast.USub | ast.UAdd):
            if not is_numeric(t):
                raise self.err(node, "expr.arith_type", type=str(t))
            g = (lambda env: -f(env)) if isinstance(node.op, ast.USub) else f
            return self.fold(node, g, INT, [node.operand])
        raise self.err(node, "expr.operator", op="~")

    def v_BoolOp(self, node: ast.BoolOp) -> tuple[Fn, Type]:
        fns = [self.visit(v)[0] for v in node.values]
        if isinstance(node.op, ast.And) and all(isinstance(v, ast.Name) for v in node.values):
            names = [v.id for v in node.values if isinstance(v, ast.Name)]
            return self.fold(node, and_names(names), BOOL, list(node.values))
        # two operands are by far the commonest: give them a closure without a loop
        if len(fns) == 2:
            a, b = fns
            if isinstance(node.op, ast.And):
                fn2: Fn = lambda env: a(env) and b(env)  # noqa: E731
            else:
                fn2 = lambda env: a(env) or b(env)  # noqa: E731
            return self.fold(node, fn2, BOOL, list(node.values))
        if isinstance(node.op, ast.And):
            def fn(env: Any) -> Any:
                v: Any = True
                for f in fns:
                    v = f(env)
                    if not v:
                        return v
                return v
        else:
            def fn(env: Any) -> Any:
                v: Any = False
                for f in fns:
                    v = f(env)
                    if v:
                        return v
                return v
        return self.fold(node, fn, BOOL, list(node.values))

    def v_Compare(self, node: ast.Compare) -> tuple[Fn, Type]:
        lf, lt = self.visit(node.left)
        parts: list[tuple[Callable[[Any, Any], bool], Fn]] = []
        prev_t, prev_node = lt, node.left
        children: list[ast.AST] = [node.left]
        for op, right in zip(node.ops, node.comparators, strict=True):
            if type(op) not in CMPOPS:
                raise self.err(node, "expr.comparison")
            rf, rt = self._compare_operand(right, prev_t, op)
            if isinstance(op, ast.Is | ast.IsNot) and not (
                isinstance(right, ast.Constant) and right.value is None
            ):
                raise self.err(right, "expr.is_none")
            if isinstance(op, ast.In | ast.NotIn):
                if elem_of(base(rt)) is None and base(rt) not in (STR, ANY):
                    raise self.err(right, "expr.in_type", type=str(rt))
            elif not isinstance(op, ast.Is | ast.IsNot):
                self._check_comparable(prev_t, rt, node, op)
            parts.append((CMPOPS[type(op)], rf))
            if not isinstance(op, ast.Is | ast.IsNot):
                self.compared.update(base(t) for t in (prev_t, rt))
                for t in (prev_t, rt):
                    e = elem_of(base(t))
                    if e:
                        self.compared.add(e)
            prev_t, prev_node = rt, right
            children.append(right)
        del prev_node
        return self.fold(node, self._compare_fn(node, lf, parts), BOOL, children)

    def _compare_fn(self, node: ast.Compare, lf: Fn,
                    parts: list[tuple[Callable[[Any, Any], bool], Fn]]) -> Fn:
        """The function of a checked comparison: ``x == 3`` reads its constant side once,
        ``a < b < c`` stops at the first comparison that fails."""
        if len(parts) == 1:
            cmp, rf = parts[0]
            right_node = node.comparators[0]
            if id(right_node) in self.consts:  # `x == 3`: no call for the constant side
                const = self.consts[id(right_node)]
                op_t = type(node.ops[0])
                if isinstance(node.left, ast.Name):
                    return CMP_NAME_CONST[op_t](node.left.id, const)
                return CMP_FN_CONST[op_t](lf, const)
            return lambda env: cmp(lf(env), rf(env))

        def chain(env: Any) -> Any:
            left = lf(env)
            for cmp, rfn in parts:
                right = rfn(env)
                if not cmp(left, right):
                    return False
                left = right
            return True
        return chain

    def _compare_operand(self, node: ast.expr, other: Type, op: ast.cmpop) -> tuple[Fn, Type]:
        """Compile a comparison operand, coercing string constants to the other side's type."""
        target = base(other)
        if isinstance(op, ast.In | ast.NotIn):
            if isinstance(node, ast.List | ast.Tuple) and target in self.scope.coerce:
                values = []
                for e in node.elts:
                    if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
                        return self.visit(node)
                    values.append(self._coerce(e, target))
                tup = tuple(values)
                self.consts[id(node)] = tup
                return (lambda env: tup), list_of(target)
            return self.visit(node)
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and target in self.scope.coerce):
            v = self._coerce(node, target)
            self.consts[id(node)] = v
            return (lambda env: v), target
        return self.visit(node)

    def _coerce(self, node: ast.Constant, target: Type) -> Any:
        try:
            return self.scope.coerce[target](str(node.value))
        except ValueError:  # the target's words for it (a tile: tile.unknown)
            raise self.err(node, "tile.unknown", text=str(node.value)) from None

    def _check_comparable(self, a: Type, b: Type, node: ast.AST, op: ast.cmpop) -> None:
        a0, b0 = base(a), base(b)
        if ANY in (a0, b0) or NONE in (a0, b0):
            return
        if is_numeric(a0) and is_numeric(b0):
            return
        if a0 != b0:
            raise self.err(node, "expr.compare_types", a=str(a), b=str(b))
        if not isinstance(op, ast.Eq | ast.NotEq) and a0 in (GROUP,):
            raise self.err(node, "expr.compare_groups")

    def v_IfExp(self, node: ast.IfExp) -> tuple[Fn, Type]:
        tf, _ = self.visit(node.test)
        bf, bt = self.visit(node.body)
        of, ot = self.visit(node.orelse)
        if base(bt) != base(ot) and not (is_numeric(bt) and is_numeric(ot)) and NONE not in (
            bt, ot) and ANY not in (bt, ot):
            raise self.err(node, "expr.branches", a=str(bt), b=str(ot))
        typ = bt if base(bt) != NONE else maybe(ot)
        if is_numeric(bt) and is_numeric(ot) and BOOL not in (bt, ot):
            typ = INT
        fn: Fn = lambda env: bf(env) if tf(env) else of(env)  # noqa: E731
        return self.fold(node, fn, typ, [node.test, node.body, node.orelse])

    def v_Subscript(self, node: ast.Subscript) -> tuple[Fn, Type]:
        vf, vt = self.visit(node.value)
        elem = elem_of(base(vt))
        if elem is None:
            raise self.err(node, "expr.index_type", type=str(vt))
        if isinstance(node.slice, ast.Slice):
            raise self.err(node, "expr.slice")
        idx_f, it = self.visit(node.slice)
        if base(it) != INT:
            raise self.err(node.slice, "expr.index_number")

        def fn(env: Any) -> Any:
            seq = vf(env)
            i = idx_f(env)
            if not -len(seq) <= i < len(seq):
                raise EvalError("eval.index", index=i, n=len(seq))
            return seq[i]
        return fn, elem

    def v_Attribute(self, node: ast.Attribute) -> tuple[Fn, Type]:
        vf, vt = self.visit(node.value)
        table = self.scope.attrs.get(base(vt))
        if not table:
            raise self.err(node, "expr.no_attributes", type=str(vt))
        attr = table.get(node.attr)
        if attr is None:
            close = close_matches(node.attr, table)
            raise self.err(node, "expr.no_attribute", type=str(base(vt)), name=node.attr,
                           hint=close[0] if close else None)
        self.attrs_used.add((base(vt), node.attr))
        self.attr_at[id(node)] = (attr, vt.optional)
        get = attr.fn
        if attr.env:
            fn_env: Fn = lambda env: get(vf(env), env)  # noqa: E731
            return fn_env, attr.type
        if vt.optional:
            fn: Fn = lambda env: None if (v := vf(env)) is None else get(v)  # noqa: E731
            return fn, maybe(attr.type)
        if isinstance(node.value, ast.Name):  # `g.pung`: no call for the name
            n = node.value.id
            return (lambda env: get(env[n])), attr.type
        return (lambda env: get(vf(env))), attr.type

    # -- comprehensions ----------------------------------------------------------
    def _comprehension(self, node: ast.GeneratorExp | ast.ListComp) -> tuple[Fn, Type]:
        if len(node.generators) + self.loops > MAX_LOOPS:
            raise self.err(node, "expr.loops", limit=MAX_LOOPS)
        saved = dict(self.locals)
        nodes_before = self.nodes
        loops = [self._loop(node, gen) for gen in node.generators]
        elt_f, elt_t = self.visit(node.elt)
        self.loops -= len(node.generators)
        self.locals = saved
        weight = 1 + (self.nodes - nodes_before) // 4  # ticks per item: the body's size
        self.loop_weight[id(node)] = weight
        return loops_fn(loops, elt_f, weight, self.metered), list_of(elt_t)

    def _loop(self, node: ast.GeneratorExp | ast.ListComp, gen: ast.comprehension
              ) -> tuple[str, Fn, list[Fn]]:
        """One ``for var in list if ...`` of a comprehension, checked: its variable (now a
        local of the given element type), the list's function and the conditions'."""
        if gen.is_async:
            raise self.err(node, "expr.async")
        if not isinstance(gen.target, ast.Name):
            raise self.err(gen.target, "expr.loop_variable")
        var = gen.target.id
        if var in self.scope.names:
            raise self.err(gen.target, "expr.loop_name_taken", name=var)
        it_f, it_t = self.visit(gen.iter)
        elem = elem_of(base(it_t))
        if elem is None:
            raise self.err(gen.iter, "expr.loop_over", type=str(it_t))
        self.locals[var] = elem
        self.loops += 1
        return var, it_f, [self.visit(c)[0] for c in gen.ifs]

    v_GeneratorExp = _comprehension
    v_ListComp = _comprehension

    # -- calls -------------------------------------------------------------------
    def v_Call(self, node: ast.Call) -> tuple[Fn, Type]:
        if not isinstance(node.func, ast.Name):
            raise self.err(node, "expr.call", functions=list(FUNCTIONS))
        name = node.func.id
        row = FUNCTIONS.get(name)
        if row is None:
            close = close_matches(name, FUNCTIONS)
            raise self.err(node, "expr.unknown_function", name=name,
                           hint=close[0] if close else None)
        if node.keywords:
            raise self.err(node, "expr.keywords", name=name)
        if row.args == CONDITION:
            return self._any_reading(node)
        if row.args == TILE_NAME:
            if (len(node.args) != 1 or not isinstance(node.args[0], ast.Constant)
                    or not isinstance(node.args[0].value, str) or TILE not in self.scope.coerce):
                raise self.err(node, "expr.tile_arg")
            v = self._coerce(node.args[0], TILE)
            self.consts[id(node)] = v
            return (lambda env: v), TILE
        args = [self.visit(a) for a in node.args]
        types = [t for _, t in args]
        if row.args == NUMBERS and len(args) != 1:
            if not args:
                raise self.err(node, "expr.needs_args", name=name)
            for t, a in zip(types, node.args, strict=True):
                if not is_numeric(t) and base(t) != NONE:
                    raise self.err(a, "expr.needs_numbers", name=name, type=str(t))
            fns = [f for f, _ in args]
            many = row.impl
            assert many is not None
            fn: Fn = lambda env: many(*(g(env) for g in fns))  # noqa: E731
            return self.fold(node, fn, INT, list(node.args))
        self._check_one(node, name, row, types)
        typ = row.result if row.result is not None else types[0]
        impl = row.metered if self.metered and row.metered else row.impl
        fn = call_one(node.args[0], args[0][0], impl, self.metered and row.per_item)
        return self.fold(node, fn, typ, list(node.args))

    def _check_one(self, node: ast.Call, name: str, row: Any, types: list[Type]) -> None:
        """The argument of a function of one number or one list (``abs``, ``len``, ``sum``
        …): one, of the kind the function takes; what it compares is noted."""
        if row.args == NUMBER:
            if len(types) != 1 or not is_numeric(types[0]):
                raise self.err(node, "expr.one_number", name=name)
        elif row.args in (LIST, NUMBER_LIST, NUMBERS):
            if len(types) != 1:
                raise self.err(node, "expr.one_list", name=name)
            elem = elem_of(types[0])
            if elem is None:
                raise self.err(node.args[0], "expr.needs_list", name=name, type=str(types[0]))
            if row.args == NUMBER_LIST and not is_numeric(elem):
                raise self.err(node, "expr.list_numbers", name=name)
            if row.compares:
                self.compared.add(elem)

    def _any_reading(self, node: ast.Call) -> tuple[Fn, Type]:
        if self.scope.readings is None:
            raise self.err(node, "expr.any_reading_level")
        if len(node.args) != 1:
            raise self.err(node, "expr.any_reading_args")
        inner = _Compiler(self.src, self.scope.readings, self.lead, self.metered)
        inner.types = self.types
        inner.consts = self.consts
        f, _ = inner.visit(node.args[0])
        self.nodes += inner.nodes
        self.used |= inner.used
        self.attrs_used |= inner.attrs_used
        self.compared |= inner.compared
        self.node_fns.update(inner.node_fns)
        weight = 1 + inner.nodes // 4
        metered = self.metered
        look = budget.current

        def fn(env: Any) -> bool:
            b = look() if metered else None
            for r in env["__readings__"]:
                if b is not None:  # a hand can have thousands of readings: look each time
                    b.tick(weight)
                    b.look()
                if f(r):
                    return True
            return False
        return fn, BOOL




def _describe(node: ast.AST) -> str:
    """The construct a node is, for expr.not_allowed: its word in the catalogue
    (``construct.NAME``), else its name quoted (a word of Python's own)."""
    name = type(node).__name__
    return name if name in _CONSTRUCTS else f"'{name}'"


_CONSTRUCTS = frozenset(("Lambda", "NamedExpr", "Await", "Yield", "YieldFrom", "JoinedStr",
                         "FormattedValue", "Dict", "Set", "DictComp", "SetComp", "Starred",
                         "Slice"))

