"""Python source generated from compiled expressions, checked again, then compiled.

:mod:`scorer.lang.compile` turns an expression into a tree of closures: one Python call
per node on every evaluation. This module turns the same *already checked* tree (the
:class:`~scorer.lang.compiled.Compiled` result, with the values it folded and the
attributes it resolved) into Python source text, so that a caller can put many
expressions into one function: the rules layer generates a ruleset's whole per-reading
pattern loop this way (:mod:`scorer.rules.plan`).

**What is compiled is our emitter's output, never the text a user wrote.** A ruleset's
expression is parsed and checked by :mod:`scorer.lang.compile` (whitelisted nodes,
names from the scope, bounded loops and numbers); the emitter below then writes new
text from that tree, in which

* a name of the scope appears only as a quoted key of the environment (``env['pungs']``),
  and a loop variable only as a renamed local (``_v0``): no name the user wrote is
  ever a Python identifier;
* a constant appears as a literal of a plain type (int, str, bool, None, tuples of
  them) or as a helper name;
* every operation that can grow a number (``*``, ``//``, ``%``, ``**``), every
  attribute of a tile or group, every function, the CPU budget's ticks and every
  sub-expression the emitter does not write itself are calls of *helpers*: Python
  functions passed in by name through the generated function's globals (``_h3``).

The text is then parsed again with :func:`ast.parse` and every node is checked against
an allowlist (:func:`check_source`): only the statement and expression types the
emitter writes, no attribute access at all, calls only of helper names, no name
beginning with ``__``, names only of the function's parameters, its locals and its
helpers, subscripts only by a constant. Only then is it passed to :func:`compile`,
and the code runs with empty builtins (``{'__builtins__': {}}``) plus exactly the
helpers it names. Anything unexpected (a tree too deep to write or parse, a
``SyntaxError``, ``MemoryError``, a node outside the allowlist) is a
:class:`CodegenError`, and the caller keeps the closures.

The generated code has the closures' semantics: the same exact integer operations
(:mod:`scorer.lang.ops`), the same value of ``and``/``or``, the same ticks of the CPU
budget (:mod:`scorer.lang.budget`) for a metered expression and none for a trusted one.
It does not reproduce their error messages: a caller that gets an exception from
generated code evaluates again with the closures, which say what failed and where.

>>> from scorer.lang import Scope, compile_expr
>>> c = compile_expr("count(g for g in sets if g > 2) + 1", Scope({"sets": "list[int]"}),
...                  metered=False)
>>> e = Emitter()
>>> e.expr(c)
"(_h1(_h0([_v0 for _v0 in env['sets'] if (_v0 > 2)])) + 1)"
>>> f = e.function("def _f(env):\\n    return " + e.expr(c), "_f")
>>> f({"sets": (1, 3, 5)})
3
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import budget
from .compiled import Compiled
from .functions import CONDITION, FUNCTIONS, NUMBERS, TILE_NAME
from .ops import BINOPS, METERED_BINOPS
from .runtime import checked_index, optional_attr, per_item, ticked

__all__ = ["CodegenError", "Emitter", "ListBits", "check_source"]

# the deepest expression tree written as text (deeper: the closures are kept); Python's
# own parser refuses far less deep nesting of parentheses (about 200 levels)
MAX_EMIT_DEPTH = 150


class CodegenError(Exception):
    """The generated code cannot be used; the caller keeps the closures.

    >>> str(CodegenError("attribute access in generated code"))
    'attribute access in generated code'
    """


_CMP_TEXT: dict[type, str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}

# a value that reading twice costs nothing and gives the same: a local or an env key
_SIMPLE = re.compile(r"(_v[0-9]+|env\['[A-Za-z_][A-Za-z_0-9]*'\])\Z")
_LOCAL = re.compile(r"_[a-z]+[0-9]*\Z")  # the names the emitter and its callers assign


class ListBits:
    """Lists whose items are told apart, by the attributes in ``attrs``, only by a small key
    (a reading's groups by their kind and first tile): what lets :class:`Emitter` write
    ``any``/``all``/``count`` over such a list as bit tests, and skip a loop no item of
    which can pass its leading conditions, with masks worked out when the text is written.

    ``parts`` maps a list's name to its parts, each ``(local, samples, twice)``: a local
    the caller's function sets to the mask of the keys its items have (bit *k* for key
    *k*), ``samples[k]``, an item with key *k* (None for a key no item has), and the bit
    that the local ``unique`` names sets when two of its items share a key (``count`` is
    otherwise the number of bits). ``other`` maps a list's name to a local that is true
    when the list may hold an item of no part (the bit tests are then not used);
    ``popcount`` counts an int's bits. The caller's promise, which its tests hold to the loops themselves:
    every attribute of ``attrs`` has the same value on an item and on its key's sample.
    """

    def __init__(self, attrs: Iterable[Callable[..., Any]],
                 parts: Mapping[str, tuple[tuple[str, tuple[Any, ...], int], ...]],
                 other: Mapping[str, str], unique: str,
                 popcount: Callable[[int], int]) -> None:
        self.attrs = {id(fn) for fn in attrs}
        self._keep = list(attrs)
        self.parts = dict(parts)
        self.other = dict(other)
        self.unique = unique
        self.popcount = popcount


class Emitter:
    """Writes expressions as Python source and compiles functions made of them.

    ``helpers`` maps each helper name the text uses to the object it stands for; the
    same object always gets the same name. One emitter serves one generated function.
    """

    def __init__(self, inline: Mapping[Callable[..., Any], str] | None = None,
                 names: Mapping[str, str] | None = None, lists: ListBits | None = None) -> None:
        # attribute accessors written as source instead of a call: accessor -> a template
        # with one '{}' for the value (e.g. "{}.kind == 'pair'"); the caller's promise,
        # which its tests hold to the accessor. The attributes they read are the only
        # ones the allowlist lets through.
        self.inline: dict[Callable[..., Any], str] = {}
        # names of the environment written as source instead of ``env['name']``: name ->
        # an expression over locals the caller's function sets (e.g. a bit test of a
        # reading's description); the caller's promise, which its tests hold to the
        # environment's value. ``named`` gathers the ones the text uses.
        self.names: dict[str, str] = dict(names or {})
        self.named: set[str] = set()
        # lists whose loops may be written as bit tests (ListBits; unmetered text only),
        # and the mask locals the text written so far reads (the caller sets them)
        self.lists = lists
        self.masks: set[str] = set()
        self.attributes: set[str] = set()
        for fn, template in (inline or {}).items():
            self.inline[fn] = _template(template, self.attributes)
        self.helpers: dict[str, Any] = {}
        self._names: dict[int, str] = {}
        self._keep: list[Any] = []  # objects named by id: kept alive while named
        self._loops = 0  # loop variables written so far (_v0, _v1, ...)
        self._wrapped: dict[tuple[str, int], str] = {}
        # helper name -> (kind, fn) of each helper made by wrapped(): how to make it again
        # (WRAPPERS[kind](fn)) in another process, for the cache of built rulesets
        self.made: dict[str, tuple[str, Callable[[Any], Any]]] = {}

    def loop_variable(self) -> str:
        """Return a new local name for a loop variable (``_v0``, ``_v1``, ...)."""
        name = f"_v{self._loops}"
        self._loops += 1
        return name

    def wrapped(self, kind: str, fn: Callable[[Any], Any],
                make: Callable[[Callable[[Any], Any]], Callable[[Any], Any]]) -> str:
        """Return the helper name of ``make(fn)``, made once per ``kind`` and ``fn``."""
        key = (kind, id(fn))
        name = self._wrapped.get(key)
        if name is None:
            self._keep.append(fn)
            name = self._wrapped[key] = self.helper(make(fn))
            self.made[name] = (kind, fn)
        return name

    # -- helpers and constants -----------------------------------------------------
    def helper(self, obj: Any) -> str:
        """Return the global name under which the generated code calls or reads ``obj``.

        >>> e = Emitter(); e.helper(len), e.helper(len), e.helper(abs)
        ('_h0', '_h0', '_h1')
        """
        name = self._names.get(id(obj))
        if name is None:
            name = f"_h{len(self.helpers)}"
            self._names[id(obj)] = name
            self._keep.append(obj)
            self.helpers[name] = obj
        return name

    def literal(self, v: Any) -> str:
        """Return ``v`` as source: a literal for plain values, else a helper name.

        >>> Emitter().literal((1, "E", None, True))
        "(1, 'E', None, True,)"
        """
        if v is None or type(v) in (bool, str) or (type(v) is int and v.bit_length() <= 64):
            return repr(v)
        if type(v) is tuple and len(v) <= 64:
            return "(" + "".join(self.literal(x) + ", " for x in v).rstrip() + ")"
        return self.helper(v)

    # -- expressions ---------------------------------------------------------------
    def expr(self, c: Compiled, env: str = "env") -> str:
        """Return the source of one compiled expression evaluated on the mapping ``env``.

        The text ticks nothing at its top (the caller writes the ``c.weight`` ticks where
        it evaluates it, as :func:`~scorer.lang.compile.compile_expr`'s wrapper does);
        loops and list functions tick inside it when ``c.metered``. Raises
        :class:`CodegenError` when the tree is too deep or a loop variable is a dunder name.

        >>> from scorer.lang import Scope, compile_expr
        >>> Emitter().expr(compile_expr("a and not b", Scope({"a": "bool", "b": "bool"})))
        "(env['a'] and (not env['b']))"
        """
        try:
            return _Writer(self, c, env).visit(c.tree, {}, 0)
        except (RecursionError, MemoryError) as e:
            raise CodegenError(f"{type(e).__name__} while writing an expression") from None

    def evaluator(self, c: Compiled) -> Callable[[Any], Any]:
        """Return one expression as a generated function ``env -> value``: the closure
        ``c.fn``'s value and ticks (its top weight included); CodegenError if it cannot.

        >>> from scorer.lang import Scope, compile_expr
        >>> c = compile_expr("min(a, 3) * 2 if p else -1", Scope({"a": "int", "p": "bool"}))
        >>> Emitter().evaluator(c)({"a": 5, "p": True})
        6
        """
        text = self.expr(c)
        lines = ["def _expr(env):"]
        if c.weight:
            lines.append(f"    {self.helper(budget.tick)}({c.weight})")
        lines.append(f"    return {text}")
        return self.function("\n".join(lines) + "\n", "_expr")

    # -- functions -----------------------------------------------------------------
    def function(self, source: str, name: str,
                 extra: Mapping[str, Any] | None = None) -> Callable[..., Any]:
        """Check ``source`` (one ``def``) against the allowlist, compile it with empty
        builtins and the helpers, and return the function ``name``; CodegenError if any
        step fails.

        >>> Emitter().function("def _f(env):\\n    return env['x'] + 1", "_f")({"x": 2})
        3
        """
        ns: dict[str, Any] = dict(self.helpers)
        if extra:
            ns.update(extra)
        try:
            tree = ast.parse(source, mode="exec")
            check_source(tree, ns, self.attributes)
            code = compile(tree, "<mjscore generated>", "exec")
        except CodegenError:
            raise
        except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
            raise CodegenError(f"{type(e).__name__}: {e}") from None
        glob: dict[str, Any] = {"__builtins__": {}, **ns}
        exec(code, glob)  # our emitter's text, checked above; see the module docstring
        fn = glob.get(name)
        if not callable(fn):
            raise CodegenError(f"the generated source defines no function {name!r}")
        return fn  # type: ignore[no-any-return]


class _Writer:
    """Writes one compiled tree (see :meth:`Emitter.expr`)."""

    def __init__(self, em: Emitter, c: Compiled, env: str) -> None:
        self.em = em
        self.c = c
        self.env = env
        self.metered = c.metered
        self.binops = METERED_BINOPS if c.metered else {k: f for k, (_, f) in BINOPS.items()}

    def visit(self, node: ast.expr, local: dict[str, str], depth: int) -> str:
        if depth > MAX_EMIT_DEPTH:
            raise CodegenError(f"an expression nested more than {MAX_EMIT_DEPTH} levels deep")
        c = self.c
        if id(node) in c.consts:  # folded or coerced at load: the closure returns this value
            return self.em.literal(c.consts[id(node)])
        method = getattr(self, "v_" + type(node).__name__, None)
        if method is None:
            raise CodegenError(f"no code is written for {type(node).__name__}")
        text: str = method(node, local, depth + 1)
        return text

    def delegate(self, node: ast.expr) -> str:
        """The closure of a node, called on the environment (reads no loop variable)."""
        fn = self.c.node_fns.get(id(node))
        if fn is None:
            raise CodegenError(f"no closure for {type(node).__name__}")
        return f"{self.em.helper(fn)}({self.env})"

    def v_Name(self, node: ast.Name, local: dict[str, str], depth: int) -> str:
        if node.id in local:
            return local[node.id]
        text = self.em.names.get(node.id)
        if text is not None:
            self.em.named.add(node.id)
            return text
        return f"{self.env}[{node.id!r}]"

    def v_BinOp(self, node: ast.BinOp, local: dict[str, str], depth: int) -> str:
        a = self.visit(node.left, local, depth)
        b = self.visit(node.right, local, depth)
        op = type(node.op).__name__
        if not self.metered and op in ("Add", "Sub"):  # operator.add / sub: plain + and -
            return f"({a} {'+' if op == 'Add' else '-'} {b})"
        return f"{self.em.helper(self.binops[op])}({a}, {b})"

    def v_UnaryOp(self, node: ast.UnaryOp, local: dict[str, str], depth: int) -> str:
        v = self.visit(node.operand, local, depth)
        if isinstance(node.op, ast.Not):
            return f"(not {v})"
        if isinstance(node.op, ast.USub):
            return f"(-{v})"
        if isinstance(node.op, ast.UAdd):
            return v  # the closure of +x is x's own (a bool stays a bool)
        raise CodegenError("operator ~")

    def v_BoolOp(self, node: ast.BoolOp, local: dict[str, str], depth: int) -> str:
        word = " and " if isinstance(node.op, ast.And) else " or "
        return "(" + word.join(self.visit(v, local, depth) for v in node.values) + ")"

    def v_Compare(self, node: ast.Compare, local: dict[str, str], depth: int) -> str:
        parts = [self.visit(node.left, local, depth)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts += [_CMP_TEXT[type(op)], self.visit(right, local, depth)]
        return "(" + " ".join(parts) + ")"

    def v_IfExp(self, node: ast.IfExp, local: dict[str, str], depth: int) -> str:
        return (f"({self.visit(node.body, local, depth)} if {self.visit(node.test, local, depth)}"
                f" else {self.visit(node.orelse, local, depth)})")

    def v_Subscript(self, node: ast.Subscript, local: dict[str, str], depth: int) -> str:
        seq = self.visit(node.value, local, depth)
        i = self.visit(node.slice, local, depth)
        return f"{self.em.helper(checked_index)}({seq}, {i})"

    def v_Attribute(self, node: ast.Attribute, local: dict[str, str], depth: int) -> str:
        hit = self.c.attr_at.get(id(node))
        if hit is None:
            raise CodegenError(f"attribute .{node.attr} was not resolved at load")
        attr, optional = hit
        v = self.visit(node.value, local, depth)
        if attr.env:
            return f"{self.em.helper(attr.fn)}({v}, {self.env})"
        template = self.em.inline.get(attr.fn)
        if optional:
            if template is not None and _SIMPLE.match(v):  # read twice: a name or a key
                return f"(None if {v} is None else ({template.replace('{}', v)}))"
            return f"{self.em.wrapped('maybe', attr.fn, optional_attr)}({v})"
        if template is not None:
            return "(" + template.replace("{}", f"({v})") + ")"
        return f"{self.em.helper(attr.fn)}({v})"

    def v_List(self, node: ast.List | ast.Tuple, local: dict[str, str], depth: int) -> str:
        return "(" + "".join(self.visit(e, local, depth) + ", " for e in node.elts).rstrip() + ")"

    v_Tuple = v_List

    def v_GeneratorExp(self, node: ast.GeneratorExp | ast.ListComp, local: dict[str, str],
                       depth: int) -> str:
        weight = self.c.loop_weight.get(id(node))
        if weight is None:
            raise CodegenError("a loop without its weight")
        # The closures keep a loop variable in the environment, saved before the loop and
        # restored after it, so an inner loop's variable shadows an outer one of the same
        # name exactly as a fresh local does. A dunder name could meet the engine's own
        # keys (__reading__), which a fact computed inside the loop reads: closures only.
        inner = dict(local)
        parts: list[str] = []
        for gen in node.generators:
            if not isinstance(gen.target, ast.Name):
                raise CodegenError("a loop variable that is not a name")
            var = gen.target.id
            if var.startswith("__"):
                raise CodegenError(f"loop variable '{var}'")
            it = self.visit(gen.iter, inner, depth)
            if self.metered:
                it = f"{self.em.helper(ticked)}({it}, {weight})"
            name = self.em.loop_variable()
            inner[var] = name
            parts.append(f"for {name} in {it}")
            parts += [f"if {self.visit(cond, inner, depth)}" for cond in gen.ifs]
        elt = self.visit(node.elt, inner, depth)
        # every item is computed before the result is used, as the closures do
        text = f"{self.em.helper(tuple)}([{elt} {' '.join(parts)}])"
        keyed = self._keyed_loop(node, local)
        if keyed is None:
            return text
        # no item can pass the loop's leading conditions that read only its key: no loop
        name, var, conds = keyed
        lead: list[ast.expr] = []
        for cond in conds:
            if not self._of_key(cond, var):
                break
            lead.append(cond)
        masks = self._masks(name, var, lead, None, depth) if lead else None
        if masks is None:
            return text
        lb = self.em.lists
        assert lb is not None  # (_keyed_loop)
        if all(t | f == full for _, t, f, full in masks):  # every key passes: nothing to skip
            return text
        test = " and ".join([f"(({self._mask(loc)} & {t | f}) == 0)" for loc, t, f, _ in masks
                             if t | f]) or "True"
        if name in lb.other:
            test = f"(not {self._mask(lb.other[name])}) and {test}"
        return f"(() if ({test}) else {text})"

    # -- loops over a ListBits list, as bit tests ---------------------------------------
    def _keyed_loop(self, node: ast.GeneratorExp | ast.ListComp, local: dict[str, str]
                    ) -> tuple[str, str, list[ast.expr]] | None:
        """(list, loop variable, conditions split at ``and``) of an unmetered loop over one
        list of the emitter's ListBits; None for any other loop."""
        lb = self.em.lists
        if lb is None or self.metered or len(node.generators) != 1:
            return None
        gen = node.generators[0]
        it = gen.iter
        if not (isinstance(gen.target, ast.Name) and isinstance(it, ast.Name)) or (
                it.id not in lb.parts or it.id in local or it.id in self.em.names
                or id(it) in self.c.consts):
            return None
        conds: list[ast.expr] = []
        todo = list(reversed(gen.ifs))
        while todo:
            cond = todo.pop()
            if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.And) and (
                    id(cond) not in self.c.consts):
                todo += reversed(cond.values)
            else:
                conds.append(cond)
        return it.id, gen.target.id, conds

    def _of_key(self, node: ast.expr, var: str) -> bool:
        """Whether ``node`` reads nothing but the loop variable ``var``, and that only
        through attributes of its key (ListBits.attrs): no name of the environment, no
        other loop, no function over the readings."""
        lb = self.em.lists
        assert lb is not None
        stack: list[ast.AST] = [node]
        while stack:
            n = stack.pop()
            if id(n) in self.c.consts:
                continue
            if isinstance(n, ast.Attribute):
                hit = self.c.attr_at.get(id(n))
                if hit is None or hit[0].env:
                    return False
                if isinstance(n.value, ast.Name) and n.value.id == var:
                    if id(hit[0].fn) not in lb.attrs:
                        return False
                    continue
                stack.append(n.value)
            elif isinstance(n, (ast.Name, ast.GeneratorExp, ast.ListComp, ast.Lambda)):
                return False
            elif isinstance(n, ast.Call):
                if not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS or (
                        FUNCTIONS[n.func.id].args == CONDITION or n.keywords):
                    return False
                stack.extend(n.args)
            else:
                stack.extend(ast.iter_child_nodes(n))
        return True

    def _mask(self, local: str) -> str:
        self.em.masks.add(local)
        return local

    def _masks(self, name: str, var: str, conds: list[ast.expr], elt: ast.expr | None,
               depth: int) -> list[tuple[str, int, int, int]] | None:
        """For each part of list ``name``: its mask local (marked as read), the keys whose
        sample passes ``conds`` (in order, as the loop tests them) and gives a true ``elt``
        (always, when None), those that pass and give a false one, and every key of the
        part; None when a condition raises on a sample (the loop is then written as is)."""
        lb = self.em.lists
        assert lb is not None
        fns = []
        for n in (*conds, elt):
            if n is None:
                continue
            text = self.visit(n, {var: "_q"}, depth)
            fns.append(self.em.function(f"def _p(env, _q):\n    return {text}\n", "_p"))
        out: list[tuple[str, int, int, int]] = []
        for loc, samples, _ in lb.parts[name]:
            t = f = full = 0
            for k, item in enumerate(samples):
                if item is None:
                    continue
                full |= 1 << k
                try:
                    passed = all(fn({}, item) for fn in fns[:len(conds)])
                    value = fns[-1]({}, item) if passed and elt is not None else True
                    if passed and value:
                        t |= 1 << k
                    elif passed:
                        f |= 1 << k
                except Exception:  # raising on a sample: no bits, the loop as it is
                    return None
            out.append((loc, t, f, full))
        return out

    def bits_call(self, fname: str, node: ast.expr, local: dict[str, str], depth: int,
                  text: str) -> str:
        """``text``, the call ``fname(node)`` for any/all/count, written as bit tests of
        the list's masks where the whole loop reads only its items' keys."""
        lb = self.em.lists
        if lb is None or not isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            return text
        keyed = self._keyed_loop(node, local)
        if keyed is None:
            return text
        name, var, conds = keyed
        if not all(self._of_key(n, var) for n in (*conds, node.elt)):
            return text
        masks = self._masks(name, var, conds, node.elt, depth)
        if masks is None:
            return text
        if fname == "any":
            tests = [f"(({self._mask(loc)} & {t}) != 0)" for loc, t, _, _ in masks if t]
            bits = f"({' or '.join(tests)})" if tests else "False"
        elif fname == "all":
            tests = [f"(({self._mask(loc)} & {f}) == 0)" for loc, _, f, _ in masks if f]
            bits = f"({' and '.join(tests)})" if tests else "True"
        else:  # count: the number of keys, where no two items share one
            pc = self.em.helper(lb.popcount)
            terms = [f"{pc}({self._mask(loc)} & {t})" for loc, t, _, _ in masks if t]
            bits = f"({' + '.join(terms)})" if terms else "0"
            twice = sum(bit for _, _, bit in lb.parts[name])
            bits = f"({bits} if (({self._mask(lb.unique)} & {twice}) == 0) else {text})"
        if name in lb.other:
            bits = f"({text} if {self._mask(lb.other[name])} else {bits})"
        return bits

    v_ListComp = v_GeneratorExp

    def v_Call(self, node: ast.Call, local: dict[str, str], depth: int) -> str:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise CodegenError("a call of an unknown function")
        row = FUNCTIONS[node.func.id]
        if row.args == CONDITION:  # any_reading: its own closure, over the hand's readings
            return self.delegate(node)
        if row.args == TILE_NAME:  # pragma: no cover - always folded at load
            raise CodegenError("tile() not folded")
        args = [self.visit(a, local, depth) for a in node.args]
        if row.args == NUMBERS and len(args) != 1:
            impl = row.impl
        else:
            impl = row.metered if self.metered and row.metered else row.impl
        if impl is None:
            raise CodegenError(f"{row.name}() has no implementation")
        if self.metered and row.per_item and not (row.args == NUMBERS and len(args) != 1):
            return f"{self.em.wrapped('per_item', impl, per_item)}({', '.join(args)})"
        text = f"{self.em.helper(impl)}({', '.join(args)})"
        if row.name in ("any", "all", "count") and len(node.args) == 1 and not self.metered:
            return self.bits_call(row.name, node.args[0], local, depth, text)
        return text


def _template(template: str, attributes: set[str]) -> str:
    """Check an inline template (one ``{}``, attribute reads, comparisons, constants) and
    add the attributes it reads to ``attributes``; return it."""
    if template.count("{}") != 1:
        raise CodegenError(f"an inline template needs exactly one {{}}: {template!r}")
    try:
        tree = ast.parse(template.replace("{}", "_t"), mode="eval")
    except SyntaxError as e:
        raise CodegenError(f"inline template {template!r}: {e.msg}") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                raise CodegenError(f"inline template {template!r} reads a private attribute")
            attributes.add(node.attr)
        elif not isinstance(node, (ast.Expression, ast.Name, ast.Constant, ast.Compare, ast.Tuple,
                                   ast.Subscript, ast.BoolOp, *_TOKENS)):
            raise CodegenError(f"inline template {template!r} holds {type(node).__name__}")
    return template


# -- the allowlist of generated source --------------------------------------------------
_STMTS = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Assign, ast.AugAssign,
          ast.If, ast.Return, ast.Expr, ast.Pass)
_EXPRS = (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
          ast.Constant, ast.Tuple, ast.List, ast.ListComp, ast.comprehension, ast.Subscript)
# (BitAnd: a mask test of a description the caller's names read; it never grows a number)
_TOKENS = (ast.Load, ast.Store, ast.And, ast.Or, ast.Add, ast.Sub, ast.BitAnd, ast.Not, ast.USub,
           ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is,
           ast.IsNot)
_ALLOWED = _STMTS + _EXPRS + _TOKENS
_CONSTANTS = (int, str, bool, type(None))


def check_source(tree: ast.AST, helpers: Iterable[str],
                 attributes: Iterable[str] = ()) -> None:
    """Check generated code node by node; raise CodegenError at the first node outside
    the allowlist (see the module docstring): ``helpers`` are the global names it may
    read and call, ``attributes`` the attribute names it may read (of the tile and group
    values the language's inline attributes read); return None.

    >>> check_source(ast.parse("def _f(env):\\n    return env['x'].real"), [])
    Traceback (most recent call last):
    scorer.lang.codegen.CodegenError: generated code may not hold Attribute .real (line 2)
    """
    known = set(helpers)
    readable = {a for a in attributes if not a.startswith("_")}
    fdef, params = _the_function(tree)
    stored: set[str] = set()
    loads: list[ast.Name] = []
    # one pass over every node below the function (the function itself was checked above)
    stack: list[ast.AST] = [*fdef.body]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            _check_name(node, known, params, stored, loads)
        elif _check_node(node, known, readable):
            stack.extend(ast.iter_child_nodes(node))
    for n in loads:
        if n.id not in params and n.id not in stored and n.id not in known:
            raise _refused(f"an unknown name {n.id!r}", n)


def _the_function(tree: ast.AST) -> tuple[ast.FunctionDef, set[str]]:
    """The one function of generated code and its parameters' names; raise CodegenError
    for anything else (decorators, defaults, *args, a name outside the generated ones)."""
    if not isinstance(tree, ast.Module) or len(tree.body) != 1 or not isinstance(
            tree.body[0], ast.FunctionDef):
        raise CodegenError("generated code must be exactly one function")
    fdef = tree.body[0]
    if fdef.decorator_list or fdef.returns or fdef.args.vararg or fdef.args.kwarg or (
            fdef.args.kwonlyargs or fdef.args.defaults or fdef.args.posonlyargs):
        raise CodegenError("generated function with more than plain parameters")
    params = {a.arg for a in fdef.args.args}
    for name in [fdef.name, *params]:
        if not _LOCAL.match(name) and name != "env":
            raise CodegenError(f"generated name {name!r}")
    return fdef, params


def _check_name(node: ast.Name, known: set[str], params: set[str], stored: set[str],
                loads: list[ast.Name]) -> None:
    """A name: never a dunder; stored only into a generated local (``stored``), read
    names gathered in ``loads`` (checked once every local is known)."""
    if node.id.startswith("__"):
        raise _refused("a dunder name", node)
    if isinstance(node.ctx, ast.Store):
        if not _LOCAL.match(node.id) or node.id in known or node.id in params:
            raise _refused(f"an assignment of {node.id!r}", node)
        stored.add(node.id)
    else:
        loads.append(node)


def _check_node(node: ast.AST, known: set[str], readable: set[str]) -> bool:
    """Any other node: of an allowed type, with the shape the emitter writes; returns
    whether its children are to be checked too (not a constant's)."""
    t = type(node)
    if isinstance(node, ast.Attribute):
        if node.attr not in readable or not isinstance(node.ctx, ast.Load):
            raise _refused(f"Attribute .{node.attr}", node)
    elif t not in _ALLOWED_TYPES:
        raise _refused(t.__name__, node)
    elif isinstance(node, ast.Constant):
        v = node.value
        if type(v) not in _CONSTANTS:
            raise _refused(f"a {type(v).__name__} constant", node)
        if isinstance(v, str) and v.startswith("__"):
            raise _refused("a dunder key", node)
        return False
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in known or node.keywords:
            raise _refused("a call of something not passed in", node)
    elif isinstance(node, ast.Subscript):
        sl = node.slice
        if not isinstance(node.value, ast.Name | ast.Attribute) or not (
                isinstance(sl, ast.Constant) and type(sl.value) in (int, str)):
            raise _refused("a subscript other than name[constant]", node)
    elif isinstance(node, ast.AugAssign):
        if not isinstance(node.op, ast.Add) or not isinstance(node.target, ast.Name):
            raise _refused("an augmented assignment other than name +=", node)
    elif isinstance(node, ast.comprehension) and (
            node.is_async or not isinstance(node.target, ast.Name)):
        raise _refused("a loop other than 'for name in'", node)
    return True


_ALLOWED_TYPES = frozenset(_ALLOWED)


def _refused(what: str, node: ast.AST) -> CodegenError:
    return CodegenError(f"generated code may not hold {what} (line {getattr(node, 'lineno', '?')})")
