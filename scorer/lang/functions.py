"""The functions an expression may call: one row per function.

Each row says what the function takes (``args``, one of the argument kinds the
compiler checks: a list, a list of numbers, one number, numbers, a tile name, a
condition), what it gives (``result``; None for "the type of its list argument"), its
implementation, whether its work grows with the items of its list (``per_item``: counted
by the cost bound and the CPU budget) and its help line for ``mjscore rules --facts``.
Adding a function is adding a row; the compiler has no list of names of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..record import record
from .errors import EvalError
from .ops import checked_sum, metered_sum
from .types import BOOL, INT, TILE, Type

# argument kinds the compiler knows how to check
LIST = "list"  # one list of anything
NUMBER_LIST = "number list"  # one list of numbers
NUMBER = "number"  # one number
NUMBERS = "numbers"  # two or more numbers, or one list of them
TILE_NAME = "tile name"  # one tile name in quotes, read at load time
CONDITION = "condition"  # a condition compiled in the scope of one reading


@record(frozen=True)
class Function:
    """One callable function: see the module docstring for the fields.

    >>> FUNCTIONS["len"].help
    'len(list) -> int: number of items'
    """

    name: str
    args: str
    result: Type | None
    impl: Callable[..., Any] | None  # None: compiled specially (tile, any_reading)
    help: str
    per_item: bool = False
    compares: bool = False  # compares its items (so their type must support ==)
    metered: Callable[..., Any] | None = None  # the implementation under a CPU budget


def _min(*args: Any) -> Any:
    vals = list(args[0]) if len(args) == 1 else list(args)
    if not vals:
        raise EvalError("eval.empty", name="min")
    return min(vals)


def _max(*args: Any) -> Any:
    vals = list(args[0]) if len(args) == 1 else list(args)
    if not vals:
        raise EvalError("eval.empty", name="max")
    return max(vals)


def _count(items: Iterable[Any]) -> int:
    return sum(1 for v in items if v)


def _distinct(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(items))


def _sorted(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(sorted(items))


_ROWS = [
    Function("len", LIST, INT, len, "len(list) -> int: number of items"),
    Function("count", LIST, INT, _count, "count(items) -> int: number of truthy items, e.g. "
             "count(g for g in sets if g.pung)", per_item=True),
    Function("any", LIST, BOOL, any, "any(items) -> bool", per_item=True),
    Function("all", LIST, BOOL, all, "all(items) -> bool", per_item=True),
    Function("sum", NUMBER_LIST, INT, checked_sum, "sum(numbers) -> int", per_item=True,
             metered=metered_sum),
    Function("min", NUMBERS, INT, _min, "min(a, b, ...) or min(numbers) -> int", per_item=True),
    Function("max", NUMBERS, INT, _max, "max(a, b, ...) or max(numbers) -> int", per_item=True),
    Function("abs", NUMBER, INT, abs, "abs(n) -> int"),
    Function("distinct", LIST, None, _distinct,
             "distinct(items) -> list: the items without repeats, in order", per_item=True,
             compares=True),
    Function("sorted", LIST, None, _sorted, "sorted(items) -> list", per_item=True,
             compares=True),
    Function("tile", TILE_NAME, TILE, None, "tile('5p') -> tile: a tile constant"),
    Function("any_reading", CONDITION, BOOL, None, "any_reading(condition) -> bool: true if "
             "some reading of the hand meets it (hand-level checks only)"),
]

FUNCTIONS: dict[str, Function] = {f.name: f for f in _ROWS}
