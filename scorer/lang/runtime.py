"""What generated code calls besides the language's operators and functions, and the
names by which a later process finds every helper again.

:mod:`scorer.lang.codegen` writes expressions as Python source calling *helpers*
(``_h3(...)``). Most are objects of the language itself: an operator of
:mod:`scorer.lang.ops`, a function of :mod:`scorer.lang.functions`, the budget's tick,
or one of the small functions below. :func:`portable_helpers` names each of them the
same way in every process, so that code generated in one run can be used in another
(the cache of built rulesets, :mod:`scorer.rules.store`) with its helpers looked up by
name, never pickled. This module is what such a run imports instead of the generator.

>>> portable_helpers()["budget.tick"] is budget.tick
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import budget
from .functions import FUNCTIONS
from .ops import BINOPS, METERED_BINOPS

__all__ = ["WRAPPERS", "checked_index", "optional_attr", "per_item", "portable_helpers", "ticked"]


def checked_index(seq: Any, i: Any) -> Any:
    """``seq[i]`` with the closures' range check (their message comes from a re-run).

    >>> checked_index((1, 2, 3), -1)
    3
    """
    if not -len(seq) <= i < len(seq):
        raise IndexError(i)
    return seq[i]


def ticked(items: Any, weight: int) -> Any:
    """Charge a loop's items to the budget in force before it runs; return the items."""
    b = budget.current()
    if b is not None:
        b.tick(len(items) * weight)
    return items


def per_item(impl: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A list function that charges one tick per item it reads (as the metered closure)."""
    def fn(items: Any) -> Any:
        budget.tick(len(items))
        return impl(items)
    return fn


def optional_attr(get: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """An attribute of an optional value: none stays none."""
    return lambda v: None if v is None else get(v)


# How the emitter's wrapped helpers are made, by kind: each made again from what it wraps.
WRAPPERS: dict[str, Callable[[Callable[[Any], Any]], Callable[[Any], Any]]] = {
    "maybe": optional_attr, "per_item": per_item}


def portable_helpers() -> dict[str, Any]:
    """Every object of the language the emitter may name as a helper, by a name that is
    the same in every process: the operators, the functions' implementations, the
    budget's tick and the helpers above. (Attribute accessors belong to whoever gives the
    scope; the closure of a single node, which ``any_reading`` is written as, has no
    such name.)

    >>> portable_helpers()["ops.Add"](2, 3)
    5
    """
    out: dict[str, Any] = {"budget.tick": budget.tick, "runtime.index": checked_index,
                           "runtime.ticked": ticked}
    for b in (tuple, len, int, isinstance):
        out[f"builtins.{b.__name__}"] = b
    for op, (_, f) in BINOPS.items():
        out[f"ops.{op}"] = f
    for op, f in METERED_BINOPS.items():
        out[f"ops.metered.{op}"] = f
    for row in FUNCTIONS.values():
        if row.impl is not None:
            out[f"functions.{row.name}"] = row.impl
        if row.metered is not None:
            out[f"functions.{row.name}.metered"] = row.metered
    return out
