"""``Memo``: a dict with a bound, the one policy of every cache mjscore keeps.

Every cache is a :class:`Memo`: bounded (emptied when full), keyed by values (never by
``id()`` of an object, which Python reuses once the object is gone), and written down
where it is made with what it holds. There are two kinds:

* **named memos**, made at import by the module they serve, for what depends on values
  alone: the decompositions of tile counts, the readings of a hand, the parsed flags of a
  batch line, JSON fragments. Each registers itself under its name in :data:`NAMED`,
  so :func:`clear_all` empties every one of them (a benchmark's cold start, a test);
* **held memos**, kept by the one object whose results they remember (:func:`held`): a
  ruleset's JSON fragments and rendered formulas, a settlement's payment lines. They live
  and die with that object (no ``id()`` to outlive it, no ``weakref`` to check), and a
  copy made by ``dataclasses.replace`` starts without them. A ruleset's
  :class:`~scorer.rules.plan.Plan` holds the engine's memos the same way, as fields.

A named memo is shared by every ruleset a process scores (the decompositions of tile
counts are the same under any of them), so a process that scores several rulesets in turn
(``serve``, an evening's file across rulesets) needs room for each one's working set: a
named memo's bound is its ``limit`` times the number of rulesets met so far
(:func:`make_room`, called once a ruleset, when its plan is built), at most
:data:`ROOM_MAX`. A process that scores one ruleset keeps the bounds as written (its
memory as measured, tests/hostile/test_robust.py); one that scores six gives each the
room it has alone (benchmarks/mixed.py: within 1.2x of the rulesets' figures alone, where
one shared bound made them 1.5-2x slower).

At the bottom of the layers (it imports nothing of mjscore), and compiled (setup.py): the
engine calls its methods a dozen times a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["NAMED", "ROOM_MAX", "Memo", "clear_all", "forget", "held", "kept", "make_room"]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Memo(dict[K, V]):
    """A dict with a bound: when it is full it starts again empty (cheap, and a batch
    that needs more entries than the bound refills it with the ones it uses now). A value
    of None is never stored (it reads as "not there"). The bound counts entries, or what
    :meth:`put` is told an entry weighs (the readings of a hand: a memo of hands bounded
    by the readings they hold). ``name`` (a module's memo) registers it in :data:`NAMED`.

    A dict itself, so that a look-up is the dict's own ``get`` (no Python-level call on
    the path every hand takes); entries are added by :meth:`put` (or :meth:`get_or`), which
    keep the bound.

    >>> m: Memo[str, int] = Memo(2)
    >>> m.get_or("a", lambda: 1), m.get_or("a", lambda: 9), len(m)
    (1, 1, 1)
    >>> m.put("b", 2), m.put("c", 3), len(m)  # full at "c": emptied, then "c" stored
    (2, 3, 1)
    """

    def __init__(self, limit: int, name: str = "") -> None:
        super().__init__()
        self.limit = limit
        self.name = name
        self.size = 0  # what the entries weigh (their number, unless put was told more)
        if name:
            NAMED[name] = self

    def __repr__(self) -> str:
        return f"Memo({self.name or 'unnamed'}: {len(self)} of {self.limit})"

    def clear(self) -> None:
        """Forget every value (a benchmark's cold start)."""
        dict.clear(self)
        self.size = 0

    def put(self, key: K, value: V, size: int = 1) -> V:
        """Store a value weighing ``size`` (emptying the memo first if it would be over its
        bound); return the value.

        >>> m: Memo[str, tuple[int, ...]] = Memo(4)
        >>> _ = m.put("a", (1, 2, 3), size=3); _ = m.put("b", (4, 5), size=2); list(m), m.size
        (['b'], 2)
        """
        # a named memo's bound grows with the rulesets met (make_room)
        if self.size + size > (self.limit * _ROOM[0] if self.name else self.limit):
            self.clear()
        self[key] = value
        self.size += size
        return value

    def get_or(self, key: K, make: Callable[[], V]) -> V:
        """The value stored for key, made and stored by ``make()`` if there is none."""
        hit = self.get(key)
        return hit if hit is not None else self.put(key, make())


# Every named memo, by name (the modules' own caches; held memos are not listed).
NAMED: dict[str, Memo[Any, Any]] = {}

# How many rulesets' working sets a named memo makes room for: the six built-in rulesets
# an evening may mix (benchmarks/mixed.py). A process that meets more shares that room.
ROOM_MAX = 6
_MET: set[str] = set()  # the rulesets met, up to ROOM_MAX of them
_ROOM: list[int] = [1]  # len(_MET), at least 1: read by every Memo.put that may empty


def make_room(ruleset: str) -> int:
    """Count ``ruleset`` (its id) among the rulesets the named memos make room for; return
    how many times its ``limit`` a named memo now holds (1 to :data:`ROOM_MAX`).

    >>> room = make_room("doctest.a"); make_room("doctest.a") == room
    True
    """
    if ruleset not in _MET and len(_MET) < ROOM_MAX:
        _MET.add(ruleset)
        _ROOM[0] = len(_MET)
    return _ROOM[0]


def clear_all() -> None:
    """Empty every named memo (:data:`NAMED`): what a cold start finds.

    >>> m: Memo[int, int] = Memo(4, "doctest.clear_all"); _ = m.put(1, 1)
    >>> clear_all(); len(m)
    0
    >>> del NAMED["doctest.clear_all"]
    """
    for memo in NAMED.values():
        memo.clear()


def held(owner: Any, name: str, limit: int) -> Memo[Any, Any]:
    """The memo ``owner`` keeps under ``name``, made on first use: a cache of results that
    depend on that one object (a ruleset, a settlement) lives and dies with it. ``owner``
    is an object with an instance ``__dict__`` (a record; not a class mypyc compiles).

    >>> class Owner: pass
    >>> a, b = Owner(), Owner()
    >>> _ = held(a, "views.texts", 8).put("zh", "一")
    >>> held(a, "views.texts", 8).get("zh"), held(b, "views.texts", 8).get("zh")
    ('一', None)
    """
    store: dict[str, Any] = owner.__dict__  # (a frozen record's fields are not written)
    memo = store.get(name)
    if memo is None:
        # two threads may both make it: the first one kept is the one every caller uses
        memo = store.setdefault(name, Memo(limit))
    return memo  # type: ignore[no-any-return]


def kept(owner: Any, name: str, make: Callable[[Any], T]) -> T:
    """What ``owner`` keeps under ``name``: ``make(owner)`` on first use, an object that
    holds several memos of the same owner (one look-up for them all, e.g. the JSON
    fragments of a ruleset). The same rules as :func:`held`.

    >>> class Owner: pass
    >>> o = Owner(); kept(o, "views.n", lambda _: [1]) is kept(o, "views.n", lambda _: [2])
    True
    """
    store: dict[str, Any] = owner.__dict__
    got = store.get(name)
    if got is None:
        got = store.setdefault(name, make(owner))
    return got  # type: ignore[no-any-return]


def forget(owner: Any, prefix: str = "") -> None:
    """Drop what ``owner`` holds (:func:`held`, :func:`kept`) under names starting with
    ``prefix`` (every held name has a dot, never a field's); the next use makes it afresh.

    >>> class Owner: pass
    >>> o = Owner(); _ = held(o, "a.x", 4).put(1, 1); forget(o, "a."); len(held(o, "a.x", 4))
    0
    """
    store: dict[str, Any] = owner.__dict__
    for name in [n for n in store if "." in n and n.startswith(prefix)]:
        del store[name]
