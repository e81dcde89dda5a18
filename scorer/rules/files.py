"""Ruleset files: finding built-in and user files, reading them with limits.

A ruleset is named by a built-in id (``hangzhou``) or a path (``my.yaml``, or in
``extends:`` a path relative to the file that extends it). Files are read as UTF-8
text of at most :data:`MAX_BYTES`; nothing else is ever opened.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ..errors import RulesetError, os_reason
from ..memo import Memo
from ..text import Known, closest
from .yamlsafe import printable

MAX_BYTES = 512 * 1024  # a ruleset file larger than this is refused unread


_MEMO_BUILTIN_DIR: Memo[Any, Path] = Memo(1, "rules.files.builtin_dir")


def builtin_dir() -> Path:
    """The folder of the built-in rulesets.

    Installed, they are the data package ``scorer/rulesets``; in a source checkout
    (editable install, tests) they are the top-level ``rulesets/`` folder. Found by
    path rather than importlib.resources, which costs 8 ms of start-up.
    """
    key = ()
    hit = _MEMO_BUILTIN_DIR.get(key)
    if hit is None:
        hit = _MEMO_BUILTIN_DIR.put(key, _compute_builtin_dir())
    return hit


def _compute_builtin_dir() -> Path:
    here = Path(__file__).resolve().parent.parent  # scorer/
    for candidate in (here / "rulesets", here.parent / "rulesets"):
        if (candidate / "hangzhou.yaml").is_file():
            return candidate
    from importlib import resources  # pragma: no cover

    return Path(str(resources.files("scorer.rulesets")))  # pragma: no cover


# The did-you-mean search is bounded per load: text.suggest costs O(log n) comparisons per
# word (6,000 unknown among 6,000 known: about 0.6 s), but a file may hold more unknown
# names than that, and difflib's ratio is quadratic in a word's length. So a word or name
# longer than MAX_HINT_LEN gets no hint and one load gives at most MAX_HINTS hints (see
# hint_budget): 20,000 misspelt ids in a file cost 30 searches.
MAX_HINT_LEN = 64
MAX_HINT_SCAN = 5000  # names of a plain list looked at (a Known is prepared once, whole)
MAX_HINTS = 30
_HINTS: ContextVar[list[int] | None] = ContextVar("mjscore_hints", default=None)


@contextmanager
def hint_budget(n: int = MAX_HINTS) -> Iterator[None]:
    """Within this block at most ``n`` did-you-mean hints are searched for (one load)."""
    token = _HINTS.set([n])
    try:
        yield
    finally:
        _HINTS.reset(token)


def nearest(word: object, known: Iterable[str] | Known) -> str | None:
    """:func:`scorer.text.closest` within the load's hint budget: the closest known name,
    or None (none close, the word too long, or the budget spent).

    >>> nearest("hangzou", ["hangzhou", "mcr"])
    'hangzhou'
    >>> with hint_budget(0):
    ...     nearest("hangzou", ["hangzhou"])
    """
    w = str(word)
    left = _HINTS.get()
    if len(w) > MAX_HINT_LEN or (left is not None and left[0] <= 0):
        return None
    if left is not None:
        left[0] -= 1
    if not isinstance(known, Known):  # a plain list is prepared afresh: its first names only
        known = Known(k for k in itertools.islice(known, MAX_HINT_SCAN) if len(k) <= MAX_HINT_LEN)
    return closest(w, known)


def builtin_path(rid: str) -> Path:
    """Path of a built-in ruleset file, e.g. ``.../rulesets/hangzhou.yaml``."""
    return builtin_dir() / f"{rid}.yaml"


def list_builtin() -> list[str]:
    """Ids of the built-in rulesets that are installed, sorted (``['hangzhou', ...]``)."""
    return sorted(p.name[:-5] for p in builtin_dir().iterdir() if p.name.endswith(".yaml"))


def stamp(path: str) -> Any:
    """What tells a file's content apart cheaply: (mtime, size), or None if it is gone."""
    try:
        st = Path(path).stat()
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size)


def is_path(spec: str) -> bool:
    """Does ``--rules``/``extends:`` name a file (rather than a built-in id)?

    >>> is_path("hangzhou"), is_path("my.yaml"), is_path("house/base")
    (False, True, True)
    """
    return "/" in spec or "\\" in spec or spec.endswith((".yaml", ".yml"))


def locate(spec: str, base_dir: Path | None, chain: list[str]) -> tuple[Path, str]:
    """Find a ruleset by id or path and read its text; return (path, text).

    A file larger than :data:`MAX_BYTES` or not UTF-8 is refused (RulesetError).

    ``base_dir`` is the folder of the file that names ``spec`` in its ``extends:``
    (relative paths are relative to that file); ``chain`` the files read so far, shown
    in the message when the ruleset is missing.
    """
    via = [*chain, spec] if chain else None
    bad = _bad_name(spec)
    if bad:
        raise RulesetError(bad[0], name=short_name(spec, quote=False), chain=via, **bad[1])
    try:
        return _locate(spec, base_dir, via)
    except (OSError, ValueError) as e:  # a name the system refuses, a device, a race
        raise RulesetError("ruleset.os_error", name=short_name(spec, quote=False), chain=via,
                           **os_reason(e)) from None


MAX_NAME = 255  # bytes of one file name (NAME_MAX on Linux and macOS)
MAX_PATH = 4096  # bytes of a path (PATH_MAX on Linux)


def _bad_name(spec: str) -> tuple[str, dict[str, int]] | None:
    """Why the system could not open a file of this name (a code and its numbers), or None
    (checked before it tries).

    >>> _bad_name("a" * 300 + ".yaml"), _bad_name("x\\0.yaml"), _bad_name("ok.yaml")
    (('ruleset.name_long', {'limit': 255, 'n': 305}), ('ruleset.name_nul', {}), None)
    """
    if "\0" in spec:
        return "ruleset.name_nul", {}
    raw = spec.encode("utf-8", errors="surrogateescape")
    if len(raw) > MAX_PATH:
        return "ruleset.path_long", {"limit": MAX_PATH, "n": len(raw)}
    longest = max((len(part) for part in re.split(rb"[/\\]", raw)), default=0)
    if longest > MAX_NAME:
        return "ruleset.name_long", {"limit": MAX_NAME, "n": longest}
    return None


def short_name(spec: str, limit: int = 80, quote: bool = True) -> str:
    r"""A file name as it can be shown in a one-line message: cut to ``limit`` characters
    (a 300-byte name says nothing more than its start), control characters escaped
    (:func:`~scorer.rules.yamlsafe.printable`).

    >>> short_name("a\x1b[31mb"), short_name("x" * 100)[-5:], short_name("my.yaml", quote=False)
    ("'a\\x1b[31mb'", "x...'", 'my.yaml')
    """
    cut = printable(spec if len(spec) <= limit else spec[:limit] + "...", keep="")
    return f"'{cut}'" if quote else cut


def _locate(spec: str, base_dir: Path | None, via: list[str] | None) -> tuple[Path, str]:
    if not is_path(spec):
        path = builtin_path(spec)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", spec) or not path.is_file():
            known = list_builtin()
            raise RulesetError("ruleset.no_builtin", name=short_name(spec, quote=False),
                               known=", ".join(known), chain=via, hint=nearest(spec, known))
    else:
        path = Path(spec)
        if base_dir is not None and not path.is_absolute():
            path = base_dir / path
        if path.is_dir():
            raise RulesetError("ruleset.is_folder", name=short_name(spec, quote=False), chain=via)
        if not path.is_file():
            stem = Path(spec).stem
            by_id = stem if stem in list_builtin() and Path(spec).name == f"{stem}.yaml" \
                else None
            raise RulesetError("ruleset.not_found_relative" if str(path) != spec
                               else "ruleset.not_found", name=short_name(spec, quote=False),
                               path=str(path), by_id=by_id, chain=via)
    try:
        # read at most one byte more than allowed: a huge file is refused without loading it
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise RulesetError("ruleset.os_error", name=short_name(str(path), quote=False),
                           **os_reason(e)) from None
    if len(raw) > MAX_BYTES:
        raise RulesetError("ruleset.too_big", path=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesetError("ruleset.not_utf8", path=str(path), byte=e.start + 1) from None
    return path, text


def display(path: str) -> str:
    """A file's name in messages: built-in files as ``rulesets/<id>.yaml``, others as given."""
    p = Path(path)
    try:
        if p.resolve().parent == builtin_dir():
            return f"rulesets/{p.name}"
    except OSError:  # pragma: no cover
        pass
    return path


def is_builtin(path: str) -> bool:
    """Is this file one of the built-in rulesets (trusted: read fast, run without the clock)?"""
    try:
        return Path(path).resolve().parent == builtin_dir()
    except OSError:  # pragma: no cover
        return False


def ident(path: str) -> str:
    """What tells two names of one file apart: its resolved path if it exists, else the name."""
    p = Path(path)
    try:
        return str(p.resolve()) if p.exists() else path
    except (OSError, ValueError):
        return path
