"""The registry of facts and the :class:`Env` that computes them on first use.

:mod:`scorer.rules.facts` is the vocabulary itself (every fact's name, type, level and
meaning, and how it is computed); this module is the machinery under it: :class:`Fact`,
the registry :data:`FACTS`, the decorators that fill it (:func:`fact`, :func:`given`) and
the lazy :class:`Env` an expression reads its names from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..lang import Type
from ..record import dataclass
from ..search.readings import Reading


@dataclass(frozen=True)
class Fact:
    """One name an expression may use: its type, level, description and how it is computed
    (``fn``; None for a value filled in directly); ``eager`` facts are computed for every
    hand by :func:`scorer.rules.facts.fill_hand`, the others on first use."""

    name: str
    type: Type
    level: str  # 'context' | 'hand' | 'reading'
    doc: str
    fn: Callable[[Env], Any] | None = None
    eager: bool = False


FACTS: dict[str, Fact] = {}


def fact(name: str, typ: Type, level: str, doc: str, eager: bool = False) -> Callable[
        [Callable[[Env], Any]], Callable[[Env], Any]]:
    """Register a computed fact; returns the decorator (which returns the function)."""
    def deco(fn: Callable[[Env], Any]) -> Callable[[Env], Any]:
        FACTS[name] = Fact(name, typ, level, doc, fn, eager)
        return fn
    return deco


def given(name: str, typ: Type, doc: str, level: str = "context") -> None:
    """Register a fact that is filled in directly (context values)."""
    FACTS[name] = Fact(name, typ, level, doc, None)


_ABSENT = object()  # no value (None is one)


class Env(dict[str, Any]):
    """Names visible to an expression; facts are computed on first use.

    ``parent`` holds the hand-level names (context, options, hand facts);
    a reading Env adds ``__reading__`` and computes reading facts.
    """

    __slots__ = ("parent",)

    def __init__(self, parent: Env | None = None, **values: Any) -> None:
        super().__init__(values)
        self.parent = parent

    def __missing__(self, key: str) -> Any:
        parent = self.parent
        if parent is not None:
            # a name the parent holds is its value (a reading's Env need not copy the
            # hand's names, and an option or hand fact shadows a reading fact)
            value = dict.get(parent, key, _ABSENT)
            if value is not _ABSENT:
                self[key] = value
                return value
        f = FACTS.get(key)
        if f is not None and f.fn is not None and (f.level == "reading") == (
            "__reading__" in self
        ):
            value = f.fn(self)
        elif parent is not None:
            value = parent[key]
        else:
            raise KeyError(key)
        self[key] = value
        return value


_new_env = dict.__new__


def child_env(parent: Env, r: Reading, win_natural: int | None) -> Env:
    """A reading's Env under the hand's ``parent``: ``Env(parent, __reading__=r)``, with
    ``__win_natural__`` when the hand's winning tile is natural, made without the keyword
    arguments of ``Env()`` (the engine makes one per reading).

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.search.readings import NO_WILD, interpret, readings
    >>> h = parse_hand("123m456p789s234s99m")
    >>> r = readings(interpret(h, NO_WILD), NO_WILD, ("standard",), 4, True)[0]
    >>> e = child_env(Env(x=1), r, 5)
    >>> sorted(e), e["x"], e["__reading__"] is r  # the parent's names read through
    (['__reading__', '__win_natural__'], 1, True)
    """
    env = _new_env(Env)  # (Env(parent) passes its keyword arguments through: twice the time)
    env.parent = parent
    env["__reading__"] = r
    if win_natural is not None:
        env["__win_natural__"] = win_natural
    return env
