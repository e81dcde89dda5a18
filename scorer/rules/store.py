"""The ruleset store: the rulesets this process loaded, and the per-user cache on disk.

:func:`scorer.rules.load.load_ruleset` asks it in this order, fastest first:

1. **This process** (:data:`LOADED`): every ruleset compiled here, by how it was named and
   by its file's text, while it and every file it extends keep their size and
   modification time (an edited parent is seen at once).
2. **A built entry** (``KEY-STAMP.built``): the :class:`~scorer.rules.model.Ruleset` as
   the schema built it, pickled, each expression as its text, its scope and the evaluator
   the code generator wrote from its checked tree: a start skips PyYAML, the merge, the
   schema and the expression compiler (docs/speed.md).
3. **A document entry** (``KEY.json``): the merged document of the file and its
   ``extends`` chain as JSON (data, never code), every key's position kept; the schema
   still validates and compiles it.

**Where**: ``MJSCORE_CACHE_DIR``, else the platform's per-user cache folder, as
platformdirs gives it (:func:`folder`, worked out by :mod:`scorer.folders`: importing
platformdirs is 6 ms of every start): ``$XDG_CACHE_HOME/mjscore`` or ``~/.cache/mjscore``,
``~/Library/Caches/mjscore`` on macOS, ``%LOCALAPPDATA%\\mjscore\\Cache`` on Windows.

**Trust**. A built entry is code to Python (a pickle), so it is trusted only as Python
trusts its own ``__pycache__``, and more: the folder is made ``0700``, and nothing in it
is read unless it is a real directory (no link, no Windows junction) and the entry a
regular file (a FIFO or device is never opened) of at most :data:`MAX_ENTRY_BYTES`;
where the system has owners and modes (POSIX), both must be this user's and nobody
else's to write. A built entry's header holds the BLAKE2b hash of its pickle, checked
before anything is unpickled, and the unpickler finds only *classes* of mjscore's own
modules and ``set``/``frozenset`` (:meth:`scorer.rules.pickled.Unpickler.find_class`): a tampered pickle
cannot name a function to call. Entries are keyed by mjscore's version and the top
file's path and text (a built one also by a stamp of every module of the package), and
hold the hash of every file of the ``extends`` chain, each checked before use.

An entry with anything wrong is ignored, the ruleset read from its files and the entry
written again. A folder that cannot be found (``HOME`` unset, no home), made, trusted or
written costs only the cache, and one line on stderr says why (once a process).
``MJSCORE_NO_CACHE=1`` turns the disk cache off; :func:`clear` (``mjscore rules
--clear-cache``) removes its entries.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

try:  # the C pickler alone: the pickle module's pure-Python half is 3 ms of a start
    import _pickle as pickle
except ImportError:  # pragma: no cover - an interpreter without it
    import pickle  # type: ignore[no-redef]

from .. import folders
from ..errors import os_reason
from ..lang import Scope
from ..memo import Memo
from . import pickled
from .files import builtin_path, ident, is_path, stamp
from .model import Ruleset
from .yamlsafe import YMap, from_plain, to_plain

__all__ = ["LOADED", "clear", "directory", "enabled", "read_built", "read_document",
           "write_built", "write_document"]

# -- 1. this process -------------------------------------------------------------------
Stamps = tuple[tuple[str, Any], ...]  # (path, stamp(path)) of each file a ruleset extends


class Loaded:
    """The rulesets compiled in this process, by how they were named and by file content,
    each while the files it extends keep their stamps; bounded (two :class:`Memo`).

    >>> Loaded().recent("hangzhou", ("?",)) is None
    True
    """

    def __init__(self, limit: int = 64) -> None:
        # spec -> (stamp of the file, ruleset, stamps of the files it extends)
        self._recent: Memo[str, tuple[tuple[object, ...], Ruleset, Stamps]] = Memo(limit)
        # (resolved path, text) -> (ruleset, stamps of the files it extends)
        self._by_text: Memo[tuple[str, str], tuple[Ruleset, Stamps]] = Memo(limit)

    @staticmethod
    def spec_stamp(spec: str) -> tuple[object, ...]:
        """The stamp of the file a spec names (the spec itself if it cannot be read)."""
        path = Path(spec) if is_path(spec) else builtin_path(spec)
        try:
            st = path.stat()
        except (OSError, ValueError):  # too long, a NUL byte: locate() says what is wrong
            return (spec,)
        return (str(path), st.st_mtime_ns, st.st_size)

    def recent(self, spec: str, spec_stamp: tuple[object, ...]) -> Ruleset | None:
        """The ruleset last loaded under this spec, if none of its files changed since."""
        hit = self._recent.get(spec)
        if hit is not None and hit[0] == spec_stamp and all(stamp(p) == s for p, s in hit[2]):
            return hit[1]
        return None

    def by_text(self, path: Path, text: str) -> tuple[Ruleset, Stamps] | None:
        """The ruleset compiled from this file's text, if the files it extends did not change."""
        hit = self._by_text.get((str(path.resolve()), text))
        if hit is not None and all(stamp(p) == s for p, s in hit[1]):
            return hit
        return None

    def put(self, spec: str, spec_stamp: tuple[object, ...], path: Path, text: str,
            rs: Ruleset, parents: Stamps) -> None:
        """Remember ``rs``, loaded under ``spec`` from ``path`` (whose text is ``text``)."""
        self._by_text.put((str(path.resolve()), text), (rs, parents))
        self._recent.put(spec, (spec_stamp, rs, parents))


LOADED = Loaded(64)

# -- the folder on disk -----------------------------------------------------------------
MAX_ENTRY_BYTES = 8 * 1024 * 1024  # MCR's built entry is about 100 KiB, its document 100
MAX_ENTRIES = 256  # of each kind: each edit of a house file writes new ones, the oldest go
DOC_SUFFIX, BUILT_SUFFIX = ".json", ".built"
ENTRY_SUFFIXES = (DOC_SUFFIX, BUILT_SUFFIX)
NO_CACHE_ENV, DIR_ENV = "MJSCORE_NO_CACHE", "MJSCORE_CACHE_DIR"


def enabled() -> bool:
    """True unless ``MJSCORE_NO_CACHE`` is set to something other than ``0`` or empty.

    >>> enabled() in (True, False)
    True
    """
    return os.environ.get(NO_CACHE_ENV, "") in ("", "0")


def folder(platform: str | None = None, environ: Mapping[str, str] | None = None,
           path: Any = os.path) -> str | None:
    """The per-user cache folder by the platform's conventions (:func:`scorer.folders.folder`,
    the one home of mjscore's folders), or None when it cannot be known (no home folder);
    ``path`` is ``os.path`` (``ntpath``/``posixpath`` in tests).

    >>> import ntpath, posixpath
    >>> folder("win32", {"LOCALAPPDATA": "C:\\\\Users\\\\ann\\\\AppData\\\\Local"}, ntpath)
    'C:\\\\Users\\\\ann\\\\AppData\\\\Local\\\\mjscore\\\\Cache'
    >>> folder("darwin", {"HOME": "/Users/ann"}, posixpath)
    '/Users/ann/Library/Caches/mjscore'
    >>> folder("linux", {"HOME": "/home/ann", "XDG_CACHE_HOME": "rel"}, posixpath)
    '/home/ann/.cache/mjscore'
    """
    return folders.folder("cache", platform, environ, path)


def directory() -> Path | None:
    """The cache directory (not created here): ``MJSCORE_CACHE_DIR`` if it is absolute,
    else :func:`folder`; None when there is none.

    >>> directory() is None or directory().is_absolute()
    True
    """
    named = os.environ.get(DIR_ENV, "")
    found = named if named else folder()
    return Path(found) if found and os.path.isabs(found) else None


_said: list[str] = []  # the one line said in this process about the cache, if any


def _unused(code: str, **params: Any) -> None:
    """Say once per process that the disk cache is not used and why (a notice: said after
    a run that succeeds, scorer.rules.notices), as the catalogue's ``cache.unused`` with
    the why, ``code`` and ``params`` (cache.*), worded in the run's language."""
    if _said:
        return
    _said.append(code)
    mp = sys.modules.get("multiprocessing")
    if mp is not None and mp.parent_process() is not None:
        return  # a batch worker: its parent has said it
    from . import notices

    notices.note(notices.Notice("cache.unused", {"cause": {"code": code, "params": params}}))


def _owners() -> bool:
    """Whether this system has owners and POSIX modes to check (not Windows)."""
    return hasattr(os, "getuid")


def _trusted_dir(st: os.stat_result) -> str:
    """Why a directory with this ``lstat`` may not be trusted (a word of the catalogue,
    ``trust.WORD``), or "" if it may."""
    if not stat.S_ISDIR(st.st_mode) or getattr(st, "st_reparse_tag", False):
        return "not_dir"
    if _owners() and st.st_uid != os.getuid():
        return "other_user"
    if _owners() and st.st_mode & 0o077:
        return "shared"
    return ""


def safe_dir(create: bool) -> Path | None:
    """The cache directory if it may be trusted (made 0700 when ``create``), else None."""
    d = directory()
    if d is None:
        named = os.environ.get(DIR_ENV, "")
        if named:
            _unused("cache.not_absolute", var=DIR_ENV)
        else:
            _unused("cache.no_folder")
        return None
    try:
        if create and not os.path.lexists(d):
            d.parent.mkdir(parents=True, exist_ok=True)
            d.mkdir(mode=0o700)
        st = os.lstat(d)
    except FileNotFoundError:
        return None  # not made yet: the first write makes it
    except OSError as e:
        _unused("cache.cannot_make", path=str(d), **os_reason(e))
        return None
    why = _trusted_dir(st)
    if why:
        _unused("cache.untrusted", path=str(d), trust=why)
        return None
    return d


# -- keys, hashes and stamps ------------------------------------------------------------
def version() -> str:
    """mjscore's version, as entries are keyed by it (``'unknown'`` before it is set).

    >>> version() != ""
    True
    """
    # read at call time: scorer/__init__.py sets it after its imports (and rules/ may not import it)
    return str(getattr(sys.modules.get("scorer"), "__version__", "unknown"))


try:  # the interpreter's own BLAKE2, without loading OpenSSL as hashlib does (~5 ms)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as _blake2b


def digest(data: bytes) -> str:
    """The BLAKE2b hash (32 bytes, as hex) of ``data``: how entries name and check things.

    >>> len(digest(b"mjscore"))
    64
    """
    h = _blake2b(digest_size=32)
    h.update(data)
    return str(h.hexdigest())


# The modules that turn files into the merged document: a change to any of them (a
# development checkout keeps its version number) makes every document entry miss.
_READERS = ("yamlsafe.py", "inherit.py", "files.py", "store.py")
DOC_FORMAT, BUILT_FORMAT = 2, 1


@functools.cache
def _readers_digest() -> str:
    h = _blake2b(digest_size=32)
    for name in _READERS:
        try:
            h.update((Path(__file__).with_name(name)).read_bytes())
        except OSError:  # an installation without sources: the version alone decides
            h.update(name.encode())
    return str(h.hexdigest())


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
    return digest("\n".join(parts).encode("utf-8", "surrogatepass"))


def entry_key(file: str, text: str) -> str:
    """A document entry's name: a hash of the version, the reading modules, the resolved
    top file and its text; a built entry's name begins with it too."""
    h = _blake2b(digest_size=32)
    for part in (f"mjscore {version()} format {DOC_FORMAT} {_readers_digest()}",
                 str(Path(file).resolve()), text):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return str(h.hexdigest())


def _built_name(file: str, text: str) -> str:  # the document entry's key, then the code's
    tail = digest(f"built {BUILT_FORMAT} {code_stamp()}".encode())[:32]
    return f"{entry_key(file, text)}-{tail}{BUILT_SUFFIX}"


def file_hashes(chain: list[str]) -> list[list[str]] | None:
    """``[[path, digest], ...]`` of the chain's files as they are now; None if one is unreadable."""
    out = []
    for p in chain:
        try:
            out.append([p, digest(Path(p).read_bytes())])
        except OSError:
            return None
    return out


# -- private files ------------------------------------------------------------------------
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_BINARY", 0))


def _private_file(st: os.stat_result, limit: int) -> bool:
    """Whether a file with this status is an entry that may be read."""
    return (stat.S_ISREG(st.st_mode) and st.st_size <= limit
            and (not _owners() or (st.st_uid == os.getuid() and not st.st_mode & 0o022)))


def read_private(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of the entry ``path`` if it is a regular file of this user's that nobody
    else may write, at most ``limit`` bytes long; None otherwise or if unreadable.

    The file's type is checked before it is opened, so a FIFO or a device is never opened
    (and ``O_NONBLOCK`` keeps one swapped in meanwhile from blocking); symbolic links are
    not followed (``O_NOFOLLOW``), and the checks are made again on the file opened.
    """
    limit = MAX_ENTRY_BYTES if limit is None else limit
    try:
        if not _private_file(os.lstat(path), limit):
            return None
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        if not _private_file(os.fstat(fd), limit):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return raw if len(raw) <= limit else None


def _replace(src: str, dst: Path) -> None:
    """``os.replace``, tried again briefly where Windows refuses (PermissionError) to replace
    a file another process has open: a start reading that entry."""
    import time

    for wait in (0.01, 0.03, 0.1, None):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if wait is None or _owners():  # on POSIX the directory is read-only: final
                raise
            time.sleep(wait)


def write_private(d: Path, name: str, data: bytes) -> None:
    """Write the entry ``d / name`` atomically (readers see all of it or none), then prune
    the oldest entries; return None, never raise (a full disk costs only the cache)."""
    import tempfile  # only when writing: not at start-up

    tmp = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=d, suffix=".tmp", delete=False) as f:
            tmp = f.name
            f.write(data)
        _replace(tmp, d / name)
        tmp = None
        _prune(d)
    except OSError as e:  # a full disk, a read-only folder: scoring goes on without it
        _unused("cache.cannot_write", path=str(d), **os_reason(e))
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _prune(d: Path) -> None:
    """Remove the least recently written entries beyond :data:`MAX_ENTRIES` of each kind."""
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
    ruleset's document and built entries count as one).

    Only entries (``*.json``, ``*.built``, ``*.tmp``) of a directory that passes the
    checks are removed; the directory itself stays.
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


# -- 3. document entries: the merged document as JSON --------------------------------------
def read_document(file: str, text: str) -> tuple[YMap, list[str]] | None:
    """The merged document and chain cached for ``file`` with this ``text``, or None (the
    cache off or unusable, no entry, an entry not in the expected form, or a file of the
    chain changed since it was written)."""
    d = safe_dir(create=False) if enabled() else None
    raw = None if d is None else read_private(d / (entry_key(file, text) + DOC_SUFFIX))
    if raw is None:
        return None
    try:
        entry = json.loads(raw)
        if (not isinstance(entry, dict) or entry.get("format") != DOC_FORMAT
                or entry.get("version") != version()
                or entry.get("digest") != digest(json.dumps(entry.get("data")).encode())):
            return None
        chain = entry["chain"]
        if not isinstance(chain, list) or not chain or chain[0][0] != ident(file):
            return None
        if file_hashes([p for p, _ in chain]) != chain:
            return None  # a file of the chain changed (or is gone): read it again
        data = from_plain(entry["data"])
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None  # corrupted or tampered with: ignored, and rewritten after the read
    return (data, [p for p, _ in chain]) if isinstance(data, YMap) else None


def write_document(file: str, text: str, data: YMap, chain: list[str]) -> None:
    """Store the merged document of a ruleset that compiled; return None, never raise.
    Nothing is written when the cache is off or unusable, a file of the chain cannot be
    read, or the document holds something JSON cannot carry exactly."""
    if not enabled() or not chain or chain[0] != ident(file):
        return
    hashes = file_hashes(chain)
    try:
        payload = to_plain(data)
    except (TypeError, ValueError):
        return
    d = safe_dir(create=True) if hashes is not None else None
    if d is None:
        return
    entry = {"format": DOC_FORMAT, "version": version(), "chain": hashes, "data": payload,
             "digest": digest(json.dumps(payload).encode())}
    write_private(d, entry_key(file, text) + DOC_SUFFIX,
                  json.dumps(entry, ensure_ascii=False).encode("utf-8"))


# -- 2. built entries: the Ruleset pickled (scorer.rules.pickled) --------------------------

def write_built(file: str, text: str, rs: Ruleset, notices: list[str],
                scopes: dict[int, Scope]) -> None:
    """Store ``rs``, built from ``file`` with this ``text``, with the ``notices`` printed
    at each load (old spellings) and ``scopes`` (``id(c.fn)`` of each expression compiled
    -> its scope); return None, never raise. Nothing is written when the cache is off or
    unusable, a file of the chain cannot be read, or ``rs`` holds what pickle cannot."""
    hashes = file_hashes(list(rs.sources)) if enabled() else None
    if hashes is None:
        return
    # without the merged document (a third of the entry: rules.load.document reads it
    # again when `rules --yaml` asks) and without a plan (it holds functions)
    try:
        body = pickled.dumps(replace(rs, data=None), scopes)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    d = safe_dir(create=True) if len(body) <= MAX_ENTRY_BYTES else None
    if d is None:
        return
    header = {"format": BUILT_FORMAT, "version": version(), "code": code_stamp(),
              "chain": hashes, "notices": notices, "digest": digest(body)}
    write_private(d, _built_name(file, text),
                  json.dumps(header, ensure_ascii=False).encode() + b"\n" + body)


def read_built(file: str, text: str) -> tuple[Ruleset, list[str]] | None:
    """The ruleset built from ``file`` with this ``text`` by an earlier run, and the
    notices to print, or None (no entry, the cache off or unusable, a file of the chain
    changed, or anything wrong with the entry)."""
    d = safe_dir(create=False) if enabled() else None
    raw = None if d is None else read_private(d / _built_name(file, text))
    if raw is None:
        return None
    head, sep, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
        if (not sep or not isinstance(header, dict) or header.get("format") != BUILT_FORMAT
                or header.get("version") != version() or header.get("code") != code_stamp()
                or header.get("digest") != digest(body)):
            return None
        chain = header["chain"]
        if (not isinstance(chain, list) or not chain
                or file_hashes([p for p, _ in chain]) != chain):
            return None  # a file of the chain changed (or is gone): build it again
        notices = [str(n) for n in header.get("notices", [])]
        rs = pickled.loads(body)
    except Exception:  # anything at all wrong with an entry: build from the file
        return None
    if not isinstance(rs, Ruleset) or list(rs.sources) != [p for p, _ in chain]:
        return None
    return rs, notices
