"""The ruleset expression language: a typed, side-effect-free subset of Python expressions.

Conditions and formulas in a ruleset (``when: lone_wild and self_draw``,
``value: 2 ** (1 + luxury + piao)``) are parsed with :func:`ast.parse` and then
*compiled into a tree of closures* after every node has been checked against a
whitelist and every name and attribute against the vocabulary of the place the
expression is used in. Nothing is passed to ``eval``/``exec``/``compile``; a
ruleset cannot reach attributes, builtins, imports or I/O, only the names it is
given. (Measured against simpleeval and rule-engine in
``benchmarks/expr_compare.py``: 0.8 µs per evaluation against 2.9 µs and 12 µs.)

What is allowed:

* integers, strings, ``True``/``False``/``None``, list/tuple literals
* names from the vocabulary (hand facts, context, options, tallies)
* attributes of tiles and groups (``g.pung``, ``t.suit``) — from a fixed table
* ``+ - * // % **``, ``not and or``, comparisons incl. ``in``/``not in``/``is None``,
  ``a if c else b``, indexing a list with an integer
* generator/list comprehensions over lists the vocabulary provides (at most 3
  nested ``for``), so every loop is bounded by the size of a hand
* the functions in :data:`FUNCTIONS`

Numbers are exact integers. A power or product above 2**8192, a negative
exponent and a division by zero raise :class:`EvalError`; constant
sub-expressions are folded at load time so ``2 ** 2 ** 64`` is refused there.
"""

from __future__ import annotations

import ast
import difflib
import math
import operator
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import EvaluationError

Fn = Callable[[Any], Any]  # an evaluator: env -> value

MAX_SOURCE = 2000
MAX_NODES = 600
MAX_DEPTH = 40
MAX_BITS = 8192
MAX_LOOPS = 3

INT, BOOL, STR, NONE, ANY, TILE, GROUP = "int", "bool", "str", "none", "any", "tile", "group"


def list_of(t: str) -> str:
    """Return the list type of ``t``: ``list_of('group') == 'list[group]'``."""
    return f"list[{t}]"


def elem_of(t: str) -> str | None:
    """Return the element type of a list type, or None."""
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return None


def base(t: str) -> str:
    """Strip the optional marker: ``base('tile?') == 'tile'``."""
    return t[:-1] if t.endswith("?") else t


def is_numeric(t: str) -> bool:
    return base(t) in (INT, BOOL, ANY)


class ExprError(Exception):
    """A load-time error in an expression; ``col`` is the 0-based character offset."""

    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


class EvalError(EvaluationError):
    """A run-time error in an expression (division by zero, a number too large, too slow).

    It is an :class:`~scorer.errors.EvaluationError`, so one that escapes is still a
    one-line error with exit status 2, never an internal error.
    """


@dataclass(frozen=True)
class Attr:
    """An attribute of a runtime type: its result type and accessor ``fn(value) -> result``.

    With ``env=True`` the accessor is ``fn(value, env)`` (for attributes that depend on
    the table, such as whether a wildcard reads as its own face).
    """

    type: str
    fn: Callable[..., Any]
    doc: str = ""
    env: bool = False


@dataclass
class Scope:
    """What an expression may refer to.

    ``names`` maps each name to its type; ``attrs`` maps a type to its attribute
    table; ``coerce`` turns a string constant into a value of a type (e.g. the
    string ``'E'`` compared with a tile becomes the tile index), raising
    ValueError if it cannot; ``readings`` says whether ``any_reading(...)`` is
    allowed (hand-level checks) and with which scope its argument is compiled.
    """

    names: Mapping[str, str]
    attrs: Mapping[str, Mapping[str, Attr]] = field(default_factory=dict)
    coerce: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    readings: Scope | None = None
    what: str = "name"


@dataclass
class Compiled:
    """A compiled expression: call it with an environment (a mapping of names)."""

    src: str
    fn: Fn
    type: str
    names: frozenset[str]
    tree: ast.expr
    node_fns: dict[int, Fn]
    const: bool = False
    attrs: frozenset[tuple[str, str]] = frozenset()  # (type, attribute) pairs used
    compares: frozenset[str] = frozenset()  # types compared with == / in (e.g. 'group')
    cost: int = 0  # worst-case evaluation steps, estimated at load time (see MAX_COST)
    where: str = ""  # 'file:line key' of the expression, set by the ruleset compiler

    def __call__(self, env: Any) -> Any:
        try:
            return self.fn(env)
        except EvalError as e:
            raise EvalError(self._at(str(e))) from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError,
                OverflowError, MemoryError, RecursionError) as e:
            raise EvalError(self._at(f"{type(e).__name__}: {e}")) from None

    def _at(self, message: str) -> str:
        """Prefix a run-time error with where the expression is written (once)."""
        if not self.where or message.startswith(self.where):
            return message
        return f"{self.where}: {message}"

    def number(self, env: Any, minimum: int | None = None) -> int:
        """Evaluate a value that must be a whole number (``True``/``False`` count as 1/0).

        An expression typed ``int?`` (e.g. an option whose value may be none) can give
        None at run time; that, or a number below ``minimum``, is an :class:`EvalError`
        naming the expression, never a crash further on.

        >>> compile_expr("cap", Scope({"cap": "int?"})).number({"cap": 64})
        64
        """
        v = self(env)
        if not isinstance(v, int):
            raise EvalError(self._at(f"'{self.src}' gave {_fmt(v)}, not a whole number"))
        if minimum is not None and v < minimum:
            raise EvalError(self._at(f"'{self.src}' gave {v}; it must be at least {minimum}"))
        return int(v)


# -- the clock: ruleset evaluation is stopped after TIME_LIMIT seconds of CPU per hand ------
TIME_LIMIT: float | None = 0.4
_deadline = [math.inf]  # time.process_time() after which evaluation stops
_ticks = [0]


def start_clock(limit: float | None = None) -> None:
    """Start the evaluation clock for one hand (:func:`scorer.engine.scoring.score` calls this).

    The limit is CPU time of this process (time.process_time), so a busy machine does
    not make a legitimate hand fail. ``limit=math.inf`` (trusted, built-in rulesets) or
    ``TIME_LIMIT = None`` runs without the clock.
    """
    lim = TIME_LIMIT if limit is None else limit
    _deadline[0] = math.inf if lim is None else time.process_time() + lim


def stop_clock() -> None:
    """Switch the clock off (after a hand), so later direct evaluations are not cut short."""
    _deadline[0] = math.inf


def _tick(n: int) -> None:
    """Count ``n`` loop iterations; look at the clock after every 256 or so."""
    t = _ticks[0] + n
    _ticks[0] = t
    if t >= _next_look[0]:
        _next_look[0] = t + 256
        check_clock()


_next_look = [256]


def check_clock() -> None:
    """Raise EvalError if the current hand has used up its evaluation time.

    >>> start_clock(); check_clock(); stop_clock()
    """
    if time.process_time() > _deadline[0]:
        raise EvalError(f"the ruleset's expressions ran for more than {TIME_LIMIT} s of CPU on "
                        "this hand and were stopped (a loop that does too much work?)")


def _check_bits(v: Any) -> Any:
    if isinstance(v, int) and v.bit_length() > MAX_BITS:
        raise EvalError(f"a number larger than 2**{MAX_BITS} (refused to keep memory bounded)")
    return v


def safe_pow(a: int, b: int) -> int:
    """``a ** b`` for exact integers with a bound on the result size.

    >>> safe_pow(2, 10)
    1024
    >>> safe_pow(2, 2 ** 64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.lang.expr.EvalError: 2 ** 18446744073709551616 is larger than 2**8192 (refused ...)
    """
    if b < 0:
        raise EvalError(f"negative exponent in {a} ** {b}: results must be whole numbers")
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return 1 if b % 2 == 0 else -1
    # |a| >= 2**(bit_length - 1), so the result has at least (bit_length - 1) * b + 1 bits:
    # refuse before computing when that is too many; otherwise it has at most twice that
    # (plus b) and is cheap to compute and check exactly (2 ** 8000 is allowed)
    if b > MAX_BITS or (abs(a).bit_length() - 1) * b > MAX_BITS:
        raise EvalError(f"{a} ** {b} is larger than 2**{MAX_BITS} (refused to keep memory bounded)")
    result: int = _check_bits(a**b)
    return result


def safe_mul(a: int, b: int) -> int:
    result: int = _check_bits(a * b)
    return result


def safe_floordiv(a: int, b: int) -> int:
    if b == 0:
        raise EvalError(f"division by zero in {a} // {b}")
    return a // b


def safe_mod(a: int, b: int) -> int:
    if b == 0:
        raise EvalError(f"division by zero in {a} % {b}")
    return a % b


_BINOPS: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("×", safe_mul),
    ast.FloorDiv: ("//", safe_floordiv),
    ast.Mod: ("%", safe_mod),
    ast.Pow: ("^", safe_pow),
}

_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
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
_CMP_NAME_CONST: dict[type, Callable[[str, Any], Fn]] = {
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
_CMP_FN_CONST: dict[type, Callable[[Fn, Any], Fn]] = {
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


def _and_names(names: list[str]) -> Fn:
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


def _min(*args: Any) -> Any:
    vals = list(args[0]) if len(args) == 1 else list(args)
    if not vals:
        raise EvalError("min() of an empty list")
    return min(vals)


def _max(*args: Any) -> Any:
    vals = list(args[0]) if len(args) == 1 else list(args)
    if not vals:
        raise EvalError("max() of an empty list")
    return max(vals)


def _distinct(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(items))


def _sum(items: Iterable[Any]) -> int:
    total = 0
    for v in items:
        total = _check_bits(total + v)
    return total


# name -> (arity description, result type function, implementation)
FUNCTIONS: dict[str, str] = {
    "len": "len(list) -> int: number of items",
    "count": "count(items) -> int: number of truthy items, e.g. count(g for g in sets if g.pung)",
    "any": "any(items) -> bool",
    "all": "all(items) -> bool",
    "sum": "sum(numbers) -> int",
    "min": "min(a, b, ...) or min(numbers) -> int",
    "max": "max(a, b, ...) or max(numbers) -> int",
    "abs": "abs(n) -> int",
    "distinct": "distinct(items) -> list: the items without repeats, in order",
    "sorted": "sorted(items) -> list",
    "tile": "tile('5p') -> tile: a tile constant",
    "any_reading": "any_reading(condition) -> bool: true if some reading of the hand meets it "
    "(hand-level checks only)",
}


def _offset_to_char(src: str, col: int) -> int:
    """ast col_offset is in UTF-8 bytes; convert to a character offset."""
    return len(src.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def compile_expr(src: Any, scope: Scope) -> Compiled:
    """Check and compile one expression; raise :class:`ExprError` with a column on failure.

    >>> c = compile_expr("2 ** (1 + luxury)", Scope({"luxury": "int"}))
    >>> c({"luxury": 2}), c.type
    (8, 'int')
    """
    if isinstance(src, bool):
        src = "True" if src else "False"
    elif isinstance(src, int):
        src = str(src)
    if not isinstance(src, str):
        raise ExprError(f"expected an expression (text or number), got {type(src).__name__}")
    if len(src) > MAX_SOURCE:
        raise ExprError(f"expression is {len(src)} characters long; the limit is {MAX_SOURCE}")
    if not src.strip():
        raise ExprError("empty expression")
    text = src.strip()
    lead = len(src) - len(src.lstrip())
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        # Python reports offset 0 when the expression ends too early: point at its end
        col = (e.offset - 1 if e.offset else len(text)) + lead
        where = "" if e.offset else " (the expression ends too early)"
        raise ExprError(f"syntax error: {e.msg}{where}", col) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression is nested too deeply") from None
    _check_size(tree)
    comp = _Compiler(text, scope, lead)
    fn, typ = comp.visit(tree.body)
    const = comp.is_const(tree.body)
    cost = _Cost(comp).cost(tree.body)
    if cost > MAX_COST:
        raise ExprError(f"this expression may take up to {cost:,} steps to evaluate (its loops "
                        f"multiply); the limit is {MAX_COST:,}", lead)
    return Compiled(text, fn, typ, frozenset(comp.used), tree.body, comp.node_fns, const,
                    frozenset(comp.attrs_used), frozenset(comp.compared), cost)


def _check_size(tree: ast.AST) -> None:
    nodes = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ExprError(f"expression has more than {MAX_NODES} parts")
        if depth > MAX_DEPTH:
            raise ExprError(f"expression is nested more than {MAX_DEPTH} levels deep")
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))


class _Compiler:
    def __init__(self, src: str, scope: Scope, lead: int) -> None:
        self.src = src
        self.scope = scope
        self.lead = lead
        self.used: set[str] = set()
        self.locals: dict[str, str] = {}
        self.loops = 0
        self.node_fns: dict[int, Fn] = {}
        self.consts: dict[int, Any] = {}
        self.attrs_used: set[tuple[str, str]] = set()
        self.compared: set[str] = set()
        self.types: dict[int, str] = {}  # node id -> type, for the cost estimate

    # -- helpers -----------------------------------------------------------------
    def err(self, node: ast.AST, message: str) -> ExprError:
        col = _offset_to_char(self.src, getattr(node, "col_offset", 0)) + self.lead
        return ExprError(message, col)

    def is_const(self, node: ast.AST) -> bool:
        return id(node) in self.consts

    def visit(self, node: ast.expr) -> tuple[Fn, str]:
        method = getattr(self, "v_" + type(node).__name__, None)
        if method is None:
            raise self.err(node, f"{_describe(node)} is not allowed in a ruleset expression")
        fn, typ = method(node)
        self.node_fns[id(node)] = fn
        self.types[id(node)] = typ
        return fn, typ

    def fold(self, node: ast.AST, fn: Fn, typ: str, children: list[ast.AST]) -> tuple[Fn, str]:
        """Evaluate constant sub-expressions now, so huge numbers fail at load time."""
        if children and all(id(c) in self.consts for c in children):
            try:
                value = fn({})
            except EvalError as e:
                raise self.err(node, str(e)) from None
            except (TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
                raise self.err(node, f"cannot compute: {e}") from None
            self.consts[id(node)] = value
            return (lambda env, v=value: v), typ
        return fn, typ

    # -- leaves ------------------------------------------------------------------
    def v_Constant(self, node: ast.Constant) -> tuple[Fn, str]:
        v = node.value
        if isinstance(v, bool):
            typ = BOOL
        elif isinstance(v, int):
            if v.bit_length() > MAX_BITS:
                raise self.err(node, f"number larger than 2**{MAX_BITS}")
            typ = INT
        elif isinstance(v, str):
            typ = STR
        elif v is None:
            typ = NONE
        else:
            raise self.err(
                node,
                f"{type(v).__name__} constants are not allowed (numbers are whole numbers)",
            )
        self.consts[id(node)] = v
        return (lambda env: v), typ

    def v_Name(self, node: ast.Name) -> tuple[Fn, str]:
        name = node.id
        if name in self.locals:
            typ = self.locals[name]
        elif name in self.scope.names:
            typ = self.scope.names[name]
            self.used.add(name)
        else:
            known = list(self.scope.names) + list(self.locals)
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self.err(node, f"unknown {self.scope.what} '{name}'{hint}")
        return (lambda env: env[name]), typ

    def v_List(self, node: ast.List | ast.Tuple) -> tuple[Fn, str]:
        parts = [self.visit(e) for e in node.elts]
        types = {base(t) for _, t in parts}
        elem = types.pop() if len(types) == 1 else ANY
        fns = [f for f, _ in parts]
        fn: Fn = lambda env: tuple(f(env) for f in fns)  # noqa: E731
        return self.fold(node, fn, list_of(elem), list(node.elts) or [node])

    v_Tuple = v_List

    # -- operators ---------------------------------------------------------------
    def v_BinOp(self, node: ast.BinOp) -> tuple[Fn, str]:
        if type(node.op) not in _BINOPS:
            sym = {ast.Div: "/ (use // for whole-number division)", ast.MatMult: "@",
                   ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^ (use ** for powers)",
                   ast.LShift: "<<", ast.RShift: ">>"}.get(type(node.op), "this operator")
            raise self.err(node, f"operator {sym} is not allowed")
        lf, lt = self.visit(node.left)
        rf, rt = self.visit(node.right)
        if type(node.op) is ast.Add and base(lt) == STR and base(rt) == STR:
            raise self.err(node, "joining strings is not allowed")
        for t, side in ((lt, node.left), (rt, node.right)):
            if not is_numeric(t):
                raise self.err(side, f"arithmetic needs numbers, this is a {t}")
        op = _BINOPS[type(node.op)][1]
        fn: Fn = lambda env: op(lf(env), rf(env))  # noqa: E731
        return self.fold(node, fn, INT, [node.left, node.right])

    def v_UnaryOp(self, node: ast.UnaryOp) -> tuple[Fn, str]:
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
                raise self.err(node, f"arithmetic needs numbers, this is a {t}")
            g = (lambda env: -f(env)) if isinstance(node.op, ast.USub) else f
            return self.fold(node, g, INT, [node.operand])
        raise self.err(node, "operator ~ is not allowed")

    def v_BoolOp(self, node: ast.BoolOp) -> tuple[Fn, str]:
        fns = [self.visit(v)[0] for v in node.values]
        if isinstance(node.op, ast.And) and all(isinstance(v, ast.Name) for v in node.values):
            names = [v.id for v in node.values if isinstance(v, ast.Name)]
            return self.fold(node, _and_names(names), BOOL, list(node.values))
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

    def v_Compare(self, node: ast.Compare) -> tuple[Fn, str]:
        lf, lt = self.visit(node.left)
        parts: list[tuple[Callable[[Any, Any], bool], Fn]] = []
        prev_t, prev_node = lt, node.left
        children: list[ast.AST] = [node.left]
        for op, right in zip(node.ops, node.comparators, strict=True):
            if type(op) not in _CMPOPS:
                raise self.err(node, "this comparison is not allowed")
            rf, rt = self._compare_operand(right, prev_t, op)
            if isinstance(op, ast.Is | ast.IsNot) and not (
                isinstance(right, ast.Constant) and right.value is None
            ):
                raise self.err(right, "'is' may only be used as 'is None' / 'is not None'")
            if isinstance(op, ast.In | ast.NotIn):
                if elem_of(base(rt)) is None and base(rt) not in (STR, ANY):
                    raise self.err(right, f"'in' needs a list on its right, this is a {rt}")
            elif not isinstance(op, ast.Is | ast.IsNot):
                self._check_comparable(prev_t, rt, node, op)
            parts.append((_CMPOPS[type(op)], rf))
            if not isinstance(op, ast.Is | ast.IsNot):
                self.compared.update(base(t) for t in (prev_t, rt))
                for t in (prev_t, rt):
                    e = elem_of(base(t))
                    if e:
                        self.compared.add(e)
            prev_t, prev_node = rt, right
            children.append(right)
        del prev_node
        if len(parts) == 1:
            cmp, rf = parts[0]
            right_node = node.comparators[0]
            if id(right_node) in self.consts:  # `x == 3`: no call for the constant side
                const = self.consts[id(right_node)]
                op_t = type(node.ops[0])
                if isinstance(node.left, ast.Name):
                    fn: Fn = _CMP_NAME_CONST[op_t](node.left.id, const)
                else:
                    fn = _CMP_FN_CONST[op_t](lf, const)
            else:
                fn = lambda env: cmp(lf(env), rf(env))  # noqa: E731
        else:
            def fn(env: Any) -> Any:
                left = lf(env)
                for cmp, rfn in parts:
                    right = rfn(env)
                    if not cmp(left, right):
                        return False
                    left = right
                return True
        return self.fold(node, fn, BOOL, children)

    def _compare_operand(self, node: ast.expr, other: str, op: ast.cmpop) -> tuple[Fn, str]:
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

    def _coerce(self, node: ast.Constant, target: str) -> Any:
        try:
            return self.scope.coerce[target](str(node.value))
        except ValueError as e:
            raise self.err(node, str(e)) from None

    def _check_comparable(self, a: str, b: str, node: ast.AST, op: ast.cmpop) -> None:
        a0, b0 = base(a), base(b)
        if ANY in (a0, b0) or NONE in (a0, b0):
            return
        if is_numeric(a0) and is_numeric(b0):
            return
        if a0 != b0:
            raise self.err(node, f"cannot compare a {a} with a {b}")
        if not isinstance(op, ast.Eq | ast.NotEq) and a0 in (GROUP,):
            raise self.err(node, "groups can only be compared with == and !=")

    def v_IfExp(self, node: ast.IfExp) -> tuple[Fn, str]:
        tf, _ = self.visit(node.test)
        bf, bt = self.visit(node.body)
        of, ot = self.visit(node.orelse)
        if base(bt) != base(ot) and not (is_numeric(bt) and is_numeric(ot)) and NONE not in (
            bt, ot) and ANY not in (bt, ot):
            raise self.err(node, f"both branches must have one type, got {bt} and {ot}")
        typ = bt if base(bt) != NONE else ot + ("?" if not ot.endswith("?") else "")
        if is_numeric(bt) and is_numeric(ot) and BOOL not in (bt, ot):
            typ = INT
        fn: Fn = lambda env: bf(env) if tf(env) else of(env)  # noqa: E731
        return self.fold(node, fn, typ, [node.test, node.body, node.orelse])

    def v_Subscript(self, node: ast.Subscript) -> tuple[Fn, str]:
        vf, vt = self.visit(node.value)
        elem = elem_of(base(vt))
        if elem is None:
            raise self.err(node, f"only lists can be indexed, this is a {vt}")
        if isinstance(node.slice, ast.Slice):
            raise self.err(node, "slices are not allowed")
        idx_f, it = self.visit(node.slice)
        if base(it) != INT:
            raise self.err(node.slice, "a list index must be a number")

        def fn(env: Any) -> Any:
            seq = vf(env)
            i = idx_f(env)
            if not -len(seq) <= i < len(seq):
                raise EvalError(f"index {i} is outside a list of {len(seq)}")
            return seq[i]
        return fn, elem

    def v_Attribute(self, node: ast.Attribute) -> tuple[Fn, str]:
        vf, vt = self.visit(node.value)
        table = self.scope.attrs.get(base(vt))
        if not table:
            raise self.err(node, f"a {vt} has no attributes")
        attr = table.get(node.attr)
        if attr is None:
            close = difflib.get_close_matches(node.attr, list(table), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self.err(node, f"a {base(vt)} has no attribute '{node.attr}'{hint}")
        self.attrs_used.add((base(vt), node.attr))
        get = attr.fn
        if attr.env:
            fn_env: Fn = lambda env: get(vf(env), env)  # noqa: E731
            return fn_env, attr.type
        if vt.endswith("?"):
            fn: Fn = lambda env: None if (v := vf(env)) is None else get(v)  # noqa: E731
            return fn, attr.type if attr.type.endswith("?") else attr.type + "?"
        if isinstance(node.value, ast.Name):  # `g.pung`: no call for the name
            n = node.value.id
            return (lambda env: get(env[n])), attr.type
        return (lambda env: get(vf(env))), attr.type

    # -- comprehensions ----------------------------------------------------------
    def _comprehension(self, node: ast.GeneratorExp | ast.ListComp) -> tuple[Fn, str]:
        if len(node.generators) + self.loops > MAX_LOOPS:
            raise self.err(node, f"at most {MAX_LOOPS} nested 'for' are allowed")
        saved = dict(self.locals)
        loops: list[tuple[str, Fn, list[Fn]]] = []
        for gen in node.generators:
            if gen.is_async:
                raise self.err(node, "async comprehensions are not allowed")
            if not isinstance(gen.target, ast.Name):
                raise self.err(gen.target, "a loop variable must be a single name")
            var = gen.target.id
            if var in self.scope.names:
                raise self.err(gen.target, f"'{var}' is already a name in rulesets; "
                               "pick another loop variable")
            it_f, it_t = self.visit(gen.iter)
            elem = elem_of(base(it_t))
            if elem is None:
                raise self.err(gen.iter, f"can only loop over a list, this is a {it_t}")
            self.locals[var] = elem
            self.loops += 1
            conds = [self.visit(c)[0] for c in gen.ifs]
            loops.append((var, it_f, conds))
        elt_f, elt_t = self.visit(node.elt)
        self.loops -= len(node.generators)
        self.locals = saved

        if len(loops) == 1:
            # one loop (nearly every ruleset comprehension): a plain loop, no recursion
            var, it_f, conds = loops[0]

            def one_loop(env: Any) -> tuple[Any, ...]:
                had = var in env
                old = env[var] if had else None
                out: list[Any] = []
                items = it_f(env)
                _tick(len(items))  # the clock, once per loop rather than per item
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

            return one_loop, list_of(elt_t)

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
                    _ticks[0] += 1
                    if not _ticks[0] & 255:  # look at the clock every 256 iterations
                        check_clock()
                    env[var] = item
                    if all(c(env) for c in conds):
                        rec(level + 1)
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            rec(0)
            return out

        return (lambda env: tuple(gen_items(env))), list_of(elt_t)

    v_GeneratorExp = _comprehension
    v_ListComp = _comprehension

    # -- calls -------------------------------------------------------------------
    def v_Call(self, node: ast.Call) -> tuple[Fn, str]:
        if not isinstance(node.func, ast.Name):
            raise self.err(node, "only the listed functions can be called "
                           f"({', '.join(FUNCTIONS)})")
        name = node.func.id
        if name not in FUNCTIONS:
            close = difflib.get_close_matches(name, list(FUNCTIONS), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self.err(node, f"unknown function '{name}'{hint}")
        if node.keywords:
            raise self.err(node, f"{name}() takes no keyword arguments")
        if name == "any_reading":
            return self._any_reading(node)
        if name == "tile":
            if (len(node.args) != 1 or not isinstance(node.args[0], ast.Constant)
                    or not isinstance(node.args[0].value, str) or TILE not in self.scope.coerce):
                raise self.err(node, "tile() takes one tile name in quotes, e.g. tile('P')")
            v = self._coerce(node.args[0], TILE)
            self.consts[id(node)] = v
            return (lambda env: v), TILE
        args = [self.visit(a) for a in node.args]
        fns = [f for f, _ in args]
        types = [t for _, t in args]

        def one_list(kind: str = "list") -> tuple[Fn, str]:
            if len(args) != 1:
                raise self.err(node, f"{name}() takes one {kind}")
            if elem_of(base(types[0])) is None:
                raise self.err(node.args[0], f"{name}() needs a list, this is a {types[0]}")
            return fns[0], types[0]

        fn: Fn
        if name == "len":
            f, t = one_list()
            if isinstance(node.args[0], ast.Name):
                n = node.args[0].id
                fn, typ = (lambda env: len(env[n])), INT
            else:
                fn, typ = (lambda env: len(f(env))), INT
        elif name == "count":
            f, t = one_list()
            fn, typ = (lambda env: sum(1 for v in f(env) if v)), INT
        elif name in ("any", "all"):
            f, t = one_list()
            agg = any if name == "any" else all
            fn, typ = (lambda env: agg(f(env))), BOOL
        elif name == "sum":
            f, t = one_list()
            if not is_numeric(elem_of(base(t)) or ANY):
                raise self.err(node, "sum() needs numbers")
            fn, typ = (lambda env: _sum(f(env))), INT
        elif name in ("min", "max"):
            impl = _min if name == "min" else _max
            if not args:
                raise self.err(node, f"{name}() needs arguments")
            if len(args) == 1:
                f, t = one_list()
                fn = lambda env: impl(f(env))  # noqa: E731
            else:
                for t, a in zip(types, node.args, strict=True):
                    if not is_numeric(t) and base(t) != NONE:
                        raise self.err(a, f"{name}() needs numbers, this is a {t}")
                fn = lambda env: impl(*(g(env) for g in fns))  # noqa: E731
            typ = INT
        elif name == "abs":
            if len(args) != 1 or not is_numeric(types[0]):
                raise self.err(node, "abs() takes one number")
            f = fns[0]
            fn, typ = (lambda env: abs(f(env))), INT
        elif name == "distinct":
            f, t = one_list()
            self.compared.add(elem_of(base(t)) or ANY)
            fn, typ = (lambda env: _distinct(f(env))), t
        elif name == "sorted":
            f, t = one_list()
            self.compared.add(elem_of(base(t)) or ANY)
            fn, typ = (lambda env: tuple(sorted(f(env)))), t
        else:  # pragma: no cover - FUNCTIONS and this chain are kept in step
            raise self.err(node, f"unknown function '{name}'")
        return self.fold(node, fn, typ, list(node.args))

    def _any_reading(self, node: ast.Call) -> tuple[Fn, str]:
        if self.scope.readings is None:
            raise self.err(node, "any_reading() can only be used in hand-level checks")
        if len(node.args) != 1:
            raise self.err(node, "any_reading() takes one condition")
        inner = _Compiler(self.src, self.scope.readings, self.lead)
        inner.types = self.types
        inner.consts = self.consts
        f, _ = inner.visit(node.args[0])
        self.used |= inner.used
        self.attrs_used |= inner.attrs_used
        self.compared |= inner.compared
        self.node_fns.update(inner.node_fns)

        def fn(env: Any) -> bool:
            for r in env["__readings__"]:
                check_clock()  # a hand can have thousands of readings
                if f(r):
                    return True
            return False
        return fn, BOOL


# Largest length of the lists the vocabulary provides (a 20-tile hand with 6 kongs has 26
# tiles, 13 orphans make 13 groups); any other list counts as LIST_BOUND.
LIST_BOUND = 34
LIST_SIZES = {"tiles": 26, "hand_tiles": 26, "groups": 14, "sets": 6, "pungs": 6, "chows": 6,
              "kongs_held": 6, "pairs": 7, "flower_list": 8, "suits": 3}
ATTR_LIST_SIZES = {"tiles": 4}
MAX_COST = 1_000_000
_LIST_FUNCS = ("count", "any", "all", "sum", "min", "max", "distinct", "sorted")


class _Cost:
    """Worst-case evaluation steps of a compiled expression, from the sizes of its lists.

    A step is one node evaluated or one list element visited. Loops multiply: a
    comprehension costs its iterable's size times its body, so ``for a in L for b in L
    for c in L`` over a 190-item list is 6.9 million steps and is refused at load time,
    while ``count(g for g in sets if g.pung)`` is a few dozen.
    """

    def __init__(self, comp: _Compiler) -> None:
        self.comp = comp

    def size(self, node: ast.AST) -> int:
        """Largest number of items a list-valued node can have (1 for other values)."""
        typ = self.comp.types.get(id(node), "")
        if elem_of(base(typ)) is None:
            return 1
        if isinstance(node, ast.List | ast.Tuple):
            return len(node.elts)
        if isinstance(node, ast.Name):
            return LIST_SIZES.get(node.id, LIST_BOUND) if node.id in self.comp.scope.names \
                else LIST_BOUND
        if isinstance(node, ast.Attribute):
            return ATTR_LIST_SIZES.get(node.attr, LIST_BOUND)
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            return math.prod(self.size(g.iter) for g in node.generators)
        if isinstance(node, ast.IfExp):
            return max(self.size(node.body), self.size(node.orelse))
        if isinstance(node, ast.Call) and node.args:
            return self.size(node.args[0])  # distinct() / sorted() keep the length
        return LIST_BOUND

    def cost(self, node: ast.AST) -> int:
        if id(node) in self.comp.consts:
            return 1  # folded at load time
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            total, times = 0, 1
            for g in node.generators:
                total += times * self.cost(g.iter)
                times *= self.size(g.iter)
                total += times * (1 + sum(self.cost(c) for c in g.ifs))
            return total + times * self.cost(node.elt)
        total = 1 + sum(self.cost(c) for c in ast.iter_child_nodes(node)
                        if isinstance(c, ast.expr))
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn):
                    total += self.size(right)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in _LIST_FUNCS and len(node.args) == 1:
            total += self.size(node.args[0])
        return total


def _describe(node: ast.AST) -> str:
    names = {
        "Lambda": "lambda", "NamedExpr": "':=' assignment", "Await": "await",
        "Yield": "yield", "YieldFrom": "yield", "JoinedStr": "an f-string",
        "FormattedValue": "an f-string", "Dict": "a dict", "Set": "a set",
        "DictComp": "a dict comprehension", "SetComp": "a set comprehension",
        "Starred": "'*' unpacking", "Slice": "a slice",
    }
    return names.get(type(node).__name__, f"'{type(node).__name__}'")


# -- rendering -----------------------------------------------------------------

_PREC = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.FloorDiv: 2, ast.Mod: 2, ast.Pow: 3}


def render(c: Compiled, env: Any, labels: Mapping[str, str] | None = None,
           show_names: bool = True) -> str:
    """Show a formula with the values it was computed from, taking only the branch used.

    >>> c = compile_expr("base * (2 ** streak if dealer else 1) * fan",
    ...                  Scope({"base": "int", "streak": "int", "dealer": "bool", "fan": "int"}))
    >>> render(c, {"base": 2, "streak": 2, "dealer": True, "fan": 8}, {"base": "底分"})
    '底分 2 × 2^(streak 2) × fan 8'

    A name labelled ``''`` shows as its bare number, and is left out of a sum when 0:

    >>> c = compile_expr("(di + shui) * k + bonus", Scope(dict.fromkeys(
    ...     ["di", "shui", "k", "bonus"], "int")))
    >>> lab = {"di": "底", "shui": "水", "k": "", "bonus": ""}
    >>> render(c, {"di": 16, "shui": 7, "k": 4, "bonus": 50}, lab)
    '(底 16 + 水 7) × 4 + 50'
    >>> render(c, {"di": 8, "shui": 0, "k": 2, "bonus": 0}, lab)
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
            return f"{label} {_fmt(value)}".strip()
        if isinstance(node, ast.IfExp):
            test = c.node_fns[id(node.test)](env)
            return r(node.body if test else node.orelse, parent_prec)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            # a bare (unlabelled) addend that is 0 says nothing: "× 2 + 0" shows as "× 2"
            for keep, other in ((node.left, node.right), (node.right, node.left)):
                if (isinstance(other, ast.Name) and labels.get(other.id) == ""
                        and env[other.id] == 0):
                    return r(keep, parent_prec)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            prec = _PREC[type(node.op)]
            sym = _BINOPS[type(node.op)][0]
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
            return _fmt(fn(env))
        return ast.unparse(node)

    return r(c.tree)


def _same_op(node: ast.expr, op: ast.operator, c: Compiled, env: Any) -> bool:
    """Is ``node`` (after taking the branch an if-expression takes) the same associative op?"""
    while isinstance(node, ast.IfExp):
        node = node.body if c.node_fns[id(node.test)](env) else node.orelse
    return isinstance(node, ast.BinOp) and type(node.op) is type(op)


def _fmt(v: Any) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    return str(v)
