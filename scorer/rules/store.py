"""The per-user cache of read rulesets: the merged document of a file and its ``extends``
chain, stored as plain JSON, so a start that has no built entry for it
(:mod:`scorer.rules.built`, the other kind of entry, written beside it) skips importing
PyYAML, parsing and merging (the schema still validates and compiles what it reads).
This module also holds what both kinds share: the directory and its checks, keys,
hashes, and reading and writing private files.

Where: ``$XDG_CACHE_HOME/mjscore`` or ``~/.cache/mjscore``, created ``0700``. Before any
entry is read, the directory must be a real directory (not a symbolic link) owned by
this user with no access for group or others, and the entry a regular file owned by
this user that nobody else may write; otherwise the cache is not used at all (nothing
read, nothing written) and rulesets are read from their files as without it.

An entry of this kind is data, never code: JSON of strings, numbers, booleans, lists and the
positions of each key (for messages and ``rules --yaml``). It is looked up by a hash of
mjscore's version and the top file's path and bytes, and holds the path and BLAKE2b hash of
every file in the chain; it is used only if every one still has those bytes. A
corrupted, truncated, oversized or otherwise unreadable entry is ignored and rewritten.
``MJSCORE_NO_CACHE=1`` turns the cache off; :func:`clear` (``mjscore rules
--clear-cache``) removes its entries. A directory that cannot be written costs nothing
but the cache.

>>> decode(encode(_sample())) == _sample()
True
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from .files import ident
from .yamlsafe import Mark, YList, YMap

FORMAT = 2
MAX_ENTRY_BYTES = 4 * 1024 * 1024  # a built-in ruleset's entry is ~100 KiB
MAX_ENTRIES = 256  # each edit of a house file writes a new entry: the oldest go
_SUFFIX = ".json"


def enabled() -> bool:
    """True unless ``MJSCORE_NO_CACHE`` is set to something other than ``0`` or empty.

    >>> enabled() in (True, False)
    True
    """
    return os.environ.get("MJSCORE_NO_CACHE", "") in ("", "0")


def directory() -> Path:
    """The cache directory for this user (not created here).

    >>> directory().name
    'mjscore'
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "mjscore"


def safe_dir(create: bool) -> Path | None:
    """The cache directory if it is ours and private (made 0700 when ``create``), else None."""
    d = directory()
    try:
        if create and not os.path.lexists(d):
            d.parent.mkdir(parents=True, exist_ok=True)
            d.mkdir(mode=0o700)
        st = os.lstat(d)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None  # a link, someone else's, or open to others: never read from it
    return d


def version() -> str:
    """mjscore's version, as entries are keyed by it (``'unknown'`` before it is set).

    >>> version() != ""
    True
    """
    # The package's version, read at call time: scorer/__init__.py sets it after its
    # imports, and the rules layer may not import the package top (tests/test_layers.py).
    return str(getattr(sys.modules.get("scorer"), "__version__", "unknown"))


try:  # the interpreter's own BLAKE2, without loading OpenSSL as hashlib does (~5 ms)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as _blake2b


def _hasher() -> Any:
    return _blake2b(digest_size=32)


def digest(data: bytes) -> str:
    """The BLAKE2b hash (32 bytes, as hex) of ``data``: how entries name and check things.

    >>> len(digest(b"mjscore"))
    64
    """
    h = _hasher()
    h.update(data)
    return str(h.hexdigest())


# The modules that turn files into the merged document: a change to any of them (a
# development checkout keeps its version number) makes every entry miss.
_READERS = ("yamlsafe.py", "inherit.py", "files.py", "cache.py")


@functools.cache
def _readers_digest() -> str:
    h = _hasher()
    for name in _READERS:
        try:
            h.update((Path(__file__).with_name(name)).read_bytes())
        except OSError:  # an installation without sources: the version alone decides
            h.update(name.encode())
    return str(h.hexdigest())


def entry_key(file: str, text: str) -> str:
    """The entry's name: a hash of the version, the reading modules, the resolved top file
    and its text."""
    h = _hasher()
    for part in (f"mjscore {version()} format {FORMAT} {_readers_digest()}",
                 str(Path(file).resolve()), text):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return str(h.hexdigest())


def file_hashes(chain: list[str]) -> list[list[str]] | None:
    """``[[path, digest], ...]`` of the chain's files as they are now; None if one is unreadable."""
    out = []
    for p in chain:
        try:
            out.append([p, digest(Path(p).read_bytes())])
        except OSError:
            return None
    return out


def get(file: str, text: str) -> tuple[YMap, list[str]] | None:
    """The merged document and chain cached for ``file`` with this ``text``, or None.

    None when the cache is off or unsafe, there is no entry, the entry is unreadable or
    not in the expected form, or any file of the chain changed since it was written.
    """
    if not enabled():
        return None
    d = safe_dir(create=False)
    if d is None:
        return None
    raw = read_private(d / (entry_key(file, text) + _SUFFIX))
    if raw is None:
        return None
    try:
        entry = json.loads(raw)
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT
                or entry.get("version") != version()
                or entry.get("digest") != digest(json.dumps(entry.get("data")).encode())):
            return None
        chain = entry["chain"]
        if not isinstance(chain, list) or not chain or chain[0][0] != ident(file):
            return None
        if file_hashes([p for p, _ in chain]) != chain:
            return None  # a file of the chain changed (or is gone): read it again
        data = decode(entry["data"])
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None  # corrupted or tampered with: ignored, and rewritten after the read
    if not isinstance(data, YMap):
        return None
    return data, [p for p, _ in chain]


def put(file: str, text: str, data: YMap, chain: list[str]) -> None:
    """Store the merged document of a ruleset that compiled; return None, never raise.

    Nothing is written when the cache is off or unsafe, a file of the chain cannot be
    read, or the document holds something JSON cannot carry exactly.
    """
    if not enabled() or not chain or chain[0] != ident(file):
        return
    hashes = file_hashes(chain)
    try:
        payload = encode(data)
    except (TypeError, ValueError):
        return
    d = safe_dir(create=True)
    if d is None or hashes is None:
        return
    entry = {"format": FORMAT, "version": version(), "chain": hashes, "data": payload,
             "digest": digest(json.dumps(payload).encode())}
    write_private(d, entry_key(file, text) + _SUFFIX,
                  json.dumps(entry, ensure_ascii=False).encode("utf-8"))


def read_private(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of the entry ``path`` if it is a regular file of this user's that nobody
    else may write and at most ``limit`` bytes long (:data:`MAX_ENTRY_BYTES` if not
    given); None otherwise or if unreadable.

    Symbolic links are not followed (``O_NOFOLLOW``), and the checks are made on the
    file opened, not on its name, so it cannot be swapped in between.
    """
    if limit is None:
        limit = MAX_ENTRY_BYTES
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid()
                or st.st_mode & 0o022 or st.st_size > limit):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return raw if len(raw) <= limit else None


def write_private(d: Path, name: str, data: bytes) -> None:
    """Write the entry ``d / name`` atomically (readers see all of it or none), then prune
    the oldest entries; return None, never raise (a full disk costs only the cache)."""
    import tempfile  # only when writing: not at start-up

    tmp = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=d, suffix=".tmp", delete=False) as f:
            tmp = f.name
            f.write(data)
        os.replace(tmp, d / name)
        tmp = None
        _prune(d)
    except OSError:
        pass  # a full disk or a read-only directory: scoring goes on without the cache
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


# every kind of entry: merged documents here, built rulesets (scorer.rules.built)
ENTRY_SUFFIXES = (_SUFFIX, ".built")


def _prune(d: Path) -> None:
    """Remove the least recently written entries beyond :data:`MAX_ENTRIES` of each kind;
    return None."""
    for suffix in ENTRY_SUFFIXES:
        try:
            found = [(e.stat().st_mtime_ns, e) for e in d.glob("*" + suffix)]
        except OSError:
            return
        if len(found) > MAX_ENTRIES:
            for _, e in sorted(found)[: len(found) - MAX_ENTRIES]:
                with contextlib.suppress(OSError):
                    e.unlink()


def clear() -> int:
    """Remove every entry of the cache; return how many rulesets they were for (a
    ruleset's merged document and its built form count as one).

    Only entries (``*.json``, ``*.built``, ``*.tmp``) of a directory that passes the
    ownership check are removed; the directory itself stays.
    """
    d = safe_dir(create=False)
    if d is None:
        return 0
    keys = set()
    for p in d.iterdir():
        if p.suffix in (*ENTRY_SUFFIXES, ".tmp") and not p.is_symlink():
            with contextlib.suppress(OSError):
                p.unlink()
                if p.suffix != ".tmp":
                    keys.add(p.name[:64])  # the key both entries of a ruleset begin with
    return len(keys)


# -- plain-data form of YMap / YList with their marks -------------------------------------
def _mark_out(m: Mark | None) -> list[Any] | None:
    return None if m is None else [m.file, m.line, m.column, m.quoted]


def _mark_in(m: Any) -> Mark | None:
    if m is None:
        return None
    file, line, column, quoted = m
    if not (isinstance(file, str) and type(line) is int and type(column) is int
            and type(quoted) is bool):
        raise ValueError("bad mark")
    return Mark(file, line, column, quoted)


def encode(value: Any) -> Any:
    """The JSON form of a merged document: ``{"M": mark, "k": [[key, key mark, value mark,
    value], ...]}`` for a map, ``{"L": mark, "i": [[mark, item], ...]}`` for a list,
    scalars as they are. Raise TypeError for anything else (such a document is not cached).

    >>> encode(_sample())["k"][0][0]
    'id'
    """
    if isinstance(value, YMap):
        return {"M": _mark_out(value.mark),
                "k": [[k, _mark_out(value.marks.get(k)), _mark_out(value.vmarks.get(k)),
                       encode(v)] for k, v in value.items()]}
    if isinstance(value, YList):
        origins = getattr(value, "origins", None)  # set by the merge (scorer.rules.inherit)
        return {"L": _mark_out(value.mark), "i": [encode(v) for v in value],
                "m": [_mark_out(m) for m in value.marks],
                "o": None if origins is None else [_whole(i) for i in origins]}
    if value is None or type(value) in (str, int, bool):
        return value
    if type(value) is float and value == value and abs(value) != float("inf"):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _whole(i: Any) -> int:
    if type(i) is not int:
        raise ValueError("bad index")
    return i


def decode(value: Any) -> Any:
    """The merged document back from :func:`encode`'s form; ValueError if it is not one."""
    if isinstance(value, dict):
        if "M" in value:
            out = YMap(_mark_in(value["M"]))
            for k, km, vm, v in value["k"]:
                if not isinstance(k, str):
                    raise ValueError("bad key")
                out[k] = decode(v)
                m = _mark_in(km)
                if m is not None:
                    out.marks[k] = m
                vmk = _mark_in(vm)
                if vmk is not None:
                    out.vmarks[k] = vmk
            return out
        if "L" in value:
            lst = YList(_mark_in(value["L"]))
            lst.extend(decode(v) for v in value["i"])
            for m in value["m"]:
                mk = _mark_in(m)
                if mk is None:
                    raise ValueError("bad list mark")
                lst.marks.append(mk)
            if value["o"] is not None:
                lst.origins = [_whole(i) for i in value["o"]]  # type: ignore[attr-defined]
            return lst
        raise ValueError("bad node")
    if value is None or type(value) in (str, int, bool, float):
        return value
    raise ValueError("bad value")


def _sample() -> YMap:
    """A small document with marks, for the examples above."""
    m = YMap(Mark("t.yaml", 1, 1))
    m["id"] = "t"
    m.marks["id"] = Mark("t.yaml", 1, 1)
    m.vmarks["id"] = Mark("t.yaml", 1, 5, True)
    lst = YList(Mark("t.yaml", 2, 3))
    lst.append(3)
    lst.marks.append(Mark("t.yaml", 2, 5))
    m["xs"] = lst
    return m
