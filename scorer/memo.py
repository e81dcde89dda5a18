"""``Memo``: a dict with a bound, the one policy of every cache the engine keeps.

At the bottom of the layers (it imports nothing of mjscore), so that the search for
readings, the rules' plans and the views' JSON fragments all keep their caches the same
way, and compiled (setup.py): the engine calls its methods a dozen times a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Memo"]

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A dict with a bound: when it is full it starts again empty (cheap, and a batch
    that needs more entries than the bound refills it with the ones it uses now).

    >>> m: Memo[str, int] = Memo(2)
    >>> m.get_or("a", lambda: 1), m.get_or("a", lambda: 9), len(m)
    (1, 1, 1)
    >>> m.put("b", 2), m.put("c", 3), len(m)  # full at "c": emptied, then "c" stored
    (2, 3, 1)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._data: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Forget every value (a benchmark's cold start)."""
        self._data.clear()

    def get(self, key: K) -> V | None:
        """The value stored for key, or None."""
        return self._data.get(key)

    def put(self, key: K, value: V) -> V:
        """Store a value (emptying the memo first if it is full); return the value."""
        if len(self._data) >= self.limit:
            self._data.clear()
        self._data[key] = value
        return value

    def get_or(self, key: K, make: Callable[[], V]) -> V:
        """The value stored for key, made and stored by ``make()`` if there is none."""
        hit = self._data.get(key)
        return hit if hit is not None else self.put(key, make())
