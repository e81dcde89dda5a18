"""How a built ruleset is written as bytes and read back: the pickle of a built entry of the
ruleset store (:mod:`scorer.rules.store`, which keeps the entries, their keys and their
checks).

Each expression is held as its text, its scope, what compiling it found and the evaluator
the code generator wrote from its checked tree (marshalled code, each helper it calls found
again by a name that is the same in every process); the scopes' attribute tables and
coercions are named, not held. The unpickler finds only *classes* of mjscore's own modules
and ``set``/``frozenset`` (:meth:`Unpickler.find_class`): a tampered pickle cannot name a
function to call.

>>> loads(dumps((1, frozenset({"E"})), {}))
(1, frozenset({'E'}))
"""

from __future__ import annotations

import functools
import io
import marshal
import os
import types
from dataclasses import replace
from typing import Any

try:  # the C pickler alone: the pickle module's pure-Python half is 3 ms of a start
    import _pickle as pickle
except ImportError:  # pragma: no cover - an interpreter without it
    import pickle  # type: ignore[no-redef]

from ..lang import Compiled, Prebuilt, Scope, compile_expr, prebuilt
from . import facts as F

# Objects an entry names instead of holding: the scopes' attribute tables (their lambdas
# pickle cannot hold) and coercions. Another such object in a scope makes write_built()
# write nothing (and tests/rules/test_store_built.py fail).
_NAMED: dict[str, Any] = {"facts.TILE_ATTRS": F.TILE_ATTRS, "facts.GROUP_ATTRS": F.GROUP_ATTRS,
                          "facts.coerce_tile": F.coerce_tile}
_NAME_OF: dict[int, str] = {id(v): k for k, v in _NAMED.items()}
# builtin types a ruleset holds besides mjscore's own classes (and values pickle names not)
_BUILTIN_TYPES = frozenset({"set", "frozenset"})


@functools.cache
def _helpers() -> tuple[dict[int, str], dict[str, Any]]:
    """(id -> name, name -> object) of every helper generated code may call, by a name
    that is the same in every process (see :func:`_portable`)."""
    from ..lang.runtime import portable_helpers

    by_name = portable_helpers()
    for kind, table in (("tile", F.TILE_ATTRS), ("group", F.GROUP_ATTRS)):
        for key, attr in table.items():
            by_name[f"attr.{kind}.{key}"] = attr.fn
    return {id(v): k for k, v in by_name.items()}, by_name


def _plain(v: Any) -> bool:
    """Whether ``v`` is a value an entry may hold as it is (and the unpickler allows)."""
    if v is None or type(v) in (bool, int, str):
        return True
    return type(v) in (tuple, frozenset) and len(v) <= 4096 and all(_plain(x) for x in v)


def _portable(c: Compiled) -> tuple[bytes, tuple[tuple[str, Any], ...]] | None:
    """The generated evaluator of ``c`` as marshalled code, and how to find each helper
    it calls; None if it cannot be generated or calls something without a stable name
    (``any_reading``'s closure): that expression is then compiled from its text at load.
    """
    from ..lang.codegen import CodegenError, Emitter
    from .plan import INLINE_ATTRS

    em = Emitter(INLINE_ATTRS)
    try:
        fn = em.evaluator(c)  # written from the checked tree, held to the allowlist
    except (CodegenError, RecursionError, MemoryError):
        return None
    ids, _ = _helpers()
    recipes: list[tuple[str, Any]] = []
    for name, obj in em.helpers.items():
        made = em.made.get(name)
        if made is not None:
            inner = ids.get(id(made[1]))
            if inner is None:
                return None
            recipes.append((name, ("wrap", made[0], inner)))
        elif id(obj) in ids:
            recipes.append((name, ("helper", ids[id(obj)])))
        elif _plain(obj):
            recipes.append((name, ("value", obj)))
        else:
            return None
    return marshal.dumps(fn.__code__), tuple(recipes)


def _function(code: bytes, recipes: Any) -> Any:
    """The evaluator that :func:`_portable` stored, with its helpers found again."""
    from ..lang.runtime import WRAPPERS

    _, by_name = _helpers()
    glob: dict[str, Any] = {"__builtins__": {}}
    for name, recipe in recipes:
        if not (isinstance(name, str) and name.startswith("_h")):
            raise pickle.UnpicklingError("a malformed helper")
        kind = recipe[0]
        if kind == "helper":
            glob[name] = by_name[recipe[1]]
        elif kind == "wrap":
            glob[name] = WRAPPERS[recipe[1]](by_name[recipe[2]])
        elif kind == "value" and _plain(recipe[1]):
            glob[name] = recipe[1]
        else:
            raise pickle.UnpicklingError("a malformed helper")
    code_obj = marshal.loads(code)
    if not isinstance(code_obj, types.CodeType) or code_obj.co_freevars:
        raise pickle.UnpicklingError("not an evaluator")
    return types.FunctionType(code_obj, glob)


class Pickler(pickle.Pickler):
    """Pickles a Ruleset, writing each expression as its text, its scope, what compiling
    it found and (where it can be generated) its evaluator's code."""

    def __init__(self, f: io.BytesIO, scopes: dict[int, Scope]) -> None:
        super().__init__(f, protocol=5)
        self.scopes = scopes  # id(the closure of a compiled expression) -> its scope
        self.done: dict[int, tuple[Any, ...]] = {}  # id(closure) -> the shared part

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Compiled):
            part = self.done.get(id(obj.fn))
            if part is None:
                scope = self.scopes.get(id(obj.fn))
                if scope is None:  # not compiled by the schema: nothing to compile it with
                    raise pickle.PicklingError(f"no scope known for {obj.src!r}")
                part = self.done[id(obj.fn)] = (
                    obj.src, scope, obj.metered, obj.cost,
                    (obj.type, obj.names, obj.const, obj.attrs, obj.compares, obj.weight),
                    _portable(obj))
            return ("expr", part, obj.where)
        name = _NAME_OF.get(id(obj))
        return None if name is None else ("named", name)


class Unpickler(pickle.Unpickler):
    """Reads an entry: mjscore's classes only, and each expression made once."""

    def __init__(self, f: io.BytesIO) -> None:
        super().__init__(f)
        self.made: dict[int, Compiled] = {}  # id(the shared part) -> the expression

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTIN_TYPES:
            return super().find_class(module, name)
        if module.startswith("scorer.") and "." not in name and not name.startswith("_"):
            obj = super().find_class(module, name)
            if isinstance(obj, type) and obj.__module__ == module:
                return obj
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a built entry")

    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "named":
            return _NAMED[pid[1]]
        _, part, where = pid
        c = self.made.get(id(part))
        if c is None:
            c = self.made[id(part)] = _expression(*part)
        if isinstance(c, Prebuilt):
            return c.copy(str(where))
        out = replace(c)  # one copy per use, as the schema makes (each has its own where)
        out.where = str(where)
        return out


def _expression(src: Any, scope: Any, metered: Any, cost: Any, found: Any,
                code: Any) -> Compiled:
    """An expression of an entry: with its generated evaluator if it has one (unless
    ``MJSCORE_CODEGEN=off``: closures only), else compiled from its text (without the
    checks it passed when it was written)."""
    from .plan import CODEGEN_ENV

    if not (isinstance(src, str) and isinstance(scope, Scope) and type(cost) is int):
        raise pickle.UnpicklingError("a malformed expression")
    if code is None or os.environ.get(CODEGEN_ENV, "").strip().lower() == "off":
        return compile_expr(src, scope, metered=bool(metered), known_cost=cost)
    typ, names, const, attrs, compares, weight = found
    return prebuilt(src, scope, _function(*code), metered=bool(metered), cost=cost, typ=typ,
                    names=names, const=bool(const), attrs=attrs, compares=compares,
                    weight=int(weight))


def dumps(rs: Any, scopes: dict[int, Scope]) -> bytes:
    """The pickle of ``rs`` (``scopes``: ``id(c.fn)`` of each expression compiled -> its
    scope); raises what pickle raises on what it cannot hold."""
    buf = io.BytesIO()
    Pickler(buf, scopes).dump(rs)
    return buf.getvalue()


def loads(body: bytes) -> Any:
    """What :func:`dumps` wrote; raises on anything wrong with it."""
    return Unpickler(io.BytesIO(body)).load()
