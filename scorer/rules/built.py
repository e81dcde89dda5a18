"""The per-user cache of *built* rulesets: a ruleset as the schema built it, so that a
cold ``mjscore score`` skips decoding, validating and type-checking its file.

:mod:`scorer.rules.cache` keeps the merged document of a ruleset file (plain JSON): a
start with it still validates the document and compiles every expression, about 25 ms
for MCR's 106 expressions. An entry here keeps the built
:class:`~scorer.rules.model.Ruleset` itself, pickled, with each expression as its
source text and the scope it was compiled in; loading it compiles the expressions again
from their text, without the size and cost checks they already passed
(:func:`scorer.lang.compile.compile_expr`'s ``known_cost``). A hit is several times
faster than building (docs/speed.md).

**An entry is code to Python** (a pickle), so it is trusted only as Python trusts its
own ``__pycache__``, and more:

* it is read only from the cache directory that :func:`scorer.rules.cache.safe_dir`
  accepts (ours, a real directory, no access for group or others), and only when it is
  a regular file of ours that nobody else may write (:func:`scorer.rules.cache.read_private`);
* its header holds the BLAKE2b hash of the pickle, checked before anything is unpickled,
  so a damaged or truncated entry is never unpickled;
* the unpickler finds only *classes* of mjscore's own modules and a few builtin types
  (:meth:`_Unpickler.find_class`): a tampered pickle cannot name a function to call;
* it is keyed by mjscore's version, the top file's path and text and a stamp of every
  module of the package (path, size, modification time: an edited checkout misses),
  and holds the hash of every file of the ``extends`` chain, each checked before use.

Anything wrong, or any error while loading, and the entry is ignored: the ruleset is
built from its file and the entry written again. ``MJSCORE_NO_CACHE=1`` turns this off
with the rest of the cache, and ``mjscore rules --clear-cache`` removes the entries.
"""

from __future__ import annotations

import functools
import io
import json
import marshal
import os
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

try:  # the C pickler alone: the pickle module's pure-Python half is 3 ms of a start
    import _pickle as pickle
except ImportError:  # pragma: no cover - an interpreter without it
    import pickle  # type: ignore[no-redef]

from ..lang import Compiled, Prebuilt, Scope, compile_expr, prebuilt
from . import cache
from . import facts as F
from .model import Ruleset

__all__ = ["code_stamp", "get", "put"]

FORMAT = 1
SUFFIX = ".built"
MAX_BYTES = 8 * 1024 * 1024  # MCR's entry is about 100 KiB
_PROTOCOL = 5

# Objects an entry names instead of holding: the scopes' attribute tables (accessors are
# lambdas, which pickle cannot hold) and coercions. A new kind of object in a scope that
# pickle cannot hold makes put() write nothing (and tests/rules/test_built.py fail).
_NAMED: dict[str, Any] = {"facts.TILE_ATTRS": F.TILE_ATTRS, "facts.GROUP_ATTRS": F.GROUP_ATTRS,
                          "facts.coerce_tile": F.coerce_tile}
_NAME_OF: dict[int, str] = {id(v): k for k, v in _NAMED.items()}

# builtin types a ruleset holds besides mjscore's own classes (and the plain values
# pickle writes without naming a class)
_BUILTIN_TYPES = frozenset({"set", "frozenset"})


@functools.cache
def code_stamp() -> str:
    """A hash of the path, size and modification time of every module of the package:
    any change to the code that builds rulesets makes every built entry miss.

    >>> len(code_stamp())
    64
    """
    root = str(Path(__file__).resolve().parent.parent)
    parts: list[str] = []
    todo = [root]
    while todo:
        here = todo.pop()
        try:
            found = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue
        for e in found:
            if e.name.endswith((".py", ".so", ".pyd")):
                try:
                    st = e.stat()
                except OSError:
                    continue
                parts.append(f"{e.path[len(root):]}\0{st.st_size}\0{st.st_mtime_ns}")
            elif e.name != "__pycache__" and e.is_dir(follow_symlinks=False):
                todo.append(e.path)
    return cache.digest("\n".join(parts).encode("utf-8", "surrogatepass"))


def _name(file: str, text: str) -> str:
    """The entry's file name: the document entry's key (so ``clear`` counts a ruleset's
    two entries as one), then a hash of this format and the code stamp."""
    tail = cache.digest(f"built {FORMAT} {code_stamp()}".encode())[:32]
    return f"{cache.entry_key(file, text)}-{tail}{SUFFIX}"


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


class _Pickler(pickle.Pickler):
    """Pickles a Ruleset, writing each expression as its text, its scope, what compiling
    it found and (where it can be generated) its evaluator's code."""

    def __init__(self, f: io.BytesIO, scopes: dict[int, Scope]) -> None:
        super().__init__(f, protocol=_PROTOCOL)
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


class _Unpickler(pickle.Unpickler):
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


def _closures_only() -> bool:
    """``MJSCORE_CODEGEN=off``: no generated code at all, the stored evaluators included."""
    from .plan import CODEGEN_ENV

    return os.environ.get(CODEGEN_ENV, "").strip().lower() == "off"


def _expression(src: Any, scope: Any, metered: Any, cost: Any, found: Any,
                code: Any) -> Compiled:
    """An expression of an entry: with its generated evaluator if it has one, else
    compiled from its text (without the checks it passed when it was written)."""
    if not (isinstance(src, str) and isinstance(scope, Scope) and type(cost) is int):
        raise pickle.UnpicklingError("a malformed expression")
    if code is None or _closures_only():
        return compile_expr(src, scope, metered=bool(metered), known_cost=cost)
    typ, names, const, attrs, compares, weight = found
    return prebuilt(src, scope, _function(*code), metered=bool(metered), cost=cost, typ=typ,
                    names=names, const=bool(const), attrs=attrs, compares=compares,
                    weight=int(weight))


def put(file: str, text: str, rs: Ruleset, notices: list[str],
        scopes: dict[int, Scope]) -> None:
    """Store ``rs``, built from ``file`` with this ``text``; return None, never raise.

    ``scopes`` maps ``id(c.fn)`` of each expression the schema compiled to its scope;
    ``notices`` are the notes printed at each load (old spellings). Nothing is written
    when the cache is off or unsafe, a file of the chain cannot be read, or the ruleset
    holds something the entry cannot (then every start builds it, as without a cache).
    """
    if not cache.enabled():
        return
    hashes = cache.file_hashes(list(rs.sources))
    if hashes is None:
        return
    # without the merged document (a third of the entry: rules.load.document reads it
    # again when `rules --yaml` asks) and without a plan (it holds functions; a copy
    # builds its own)
    rs = replace(rs, data=None)
    buf = io.BytesIO()
    try:
        _Pickler(buf, scopes).dump(rs)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    body = buf.getvalue()
    if len(body) > MAX_BYTES:
        return
    d = cache.safe_dir(create=True)
    if d is None:
        return
    header = {"format": FORMAT, "version": cache.version(), "code": code_stamp(),
              "chain": hashes, "notices": notices, "digest": cache.digest(body)}
    cache.write_private(d, _name(file, text),
                        json.dumps(header, ensure_ascii=False).encode() + b"\n" + body)


def get(file: str, text: str) -> tuple[Ruleset, list[str]] | None:
    """The ruleset built from ``file`` with this ``text`` by an earlier run, and the
    notices to print, or None (no entry, the cache off or unsafe, a file of the chain
    changed, or anything wrong with the entry)."""
    if not cache.enabled():
        return None
    d = cache.safe_dir(create=False)
    if d is None:
        return None
    raw = cache.read_private(d / _name(file, text), MAX_BYTES)
    if raw is None:
        return None
    head, sep, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
        if (not sep or not isinstance(header, dict) or header.get("format") != FORMAT
                or header.get("version") != cache.version()
                or header.get("code") != code_stamp()
                or header.get("digest") != cache.digest(body)):
            return None
        chain = header["chain"]
        if (not isinstance(chain, list) or not chain
                or cache.file_hashes([p for p, _ in chain]) != chain):
            return None  # a file of the chain changed (or is gone): build it again
        notices = [str(n) for n in header.get("notices", [])]
        rs = _Unpickler(io.BytesIO(body)).load()
    except Exception:
        return None
    if not isinstance(rs, Ruleset) or list(rs.sources) != [p for p, _ in chain]:
        return None
    return rs, notices
