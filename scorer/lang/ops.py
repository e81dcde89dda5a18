"""Bounded arithmetic: exact integers that never grow past ``2**MAX_BITS``.

Every operator and function of the language that can make a number larger goes
through here, so a formula cannot exhaust memory (``2 ** 2 ** 64``) or the CPU
(multiplying ever larger numbers). Each checked operation returns its result or
raises :class:`~scorer.lang.errors.EvalError`.

The *metered* variants (``METERED_BINOPS``) also charge the work of a big result to
the current CPU budget (:mod:`scorer.lang.budget`): work on numbers is proportional to
their size, so a formula of big numbers with no loop at all is still stopped at the
limit. Numbers of a machine word or less are not charged.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any

from .budget import charge_bits
from .errors import EvalError

MAX_BITS = 8192

BinOp = Callable[[Any, Any], Any]


def check_bits(v: Any) -> Any:
    """Return ``v``, or raise EvalError if it is an integer above ``2**MAX_BITS``.

    >>> check_bits(2 ** 100) == 2 ** 100
    True
    """
    if isinstance(v, int) and v.bit_length() > MAX_BITS:
        raise EvalError("eval.too_big", limit=MAX_BITS)
    return v


def safe_pow(a: int, b: int) -> int:
    """Return ``a ** b`` for exact integers with a bound on the result size.

    >>> safe_pow(2, 10)
    1024
    >>> safe_pow(2, 2 ** 64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.lang.errors.EvalError: 2 ** 18446744073709551616 is larger than 2**8192 (refused ...)
    """
    if b < 0:
        raise EvalError("eval.negative_power", a=a, b=b)
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return 1 if b % 2 == 0 else -1
    # |a| >= 2**(bit_length - 1), so the result has at least (bit_length - 1) * b + 1 bits:
    # refuse before computing when that is too many; otherwise it has at most twice that
    # (plus b) and is cheap to compute and check exactly (2 ** 8000 is allowed)
    if b > MAX_BITS or (abs(a).bit_length() - 1) * b > MAX_BITS:
        raise EvalError("eval.power_big", a=a, b=b, limit=MAX_BITS)
    result: int = check_bits(a**b)
    return result


def safe_mul(a: int, b: int) -> int:
    """Return ``a * b``, refusing a result above ``2**MAX_BITS``.

    >>> safe_mul(6, 7)
    42
    """
    result: int = check_bits(a * b)
    return result


def safe_floordiv(a: int, b: int) -> int:
    """Return ``a // b``; a division by zero is an EvalError naming both sides.

    >>> safe_floordiv(7, 2)
    3
    """
    if b == 0:
        raise EvalError("eval.div_zero", a=a, op="//", b=b)
    return a // b


def safe_mod(a: int, b: int) -> int:
    """Return ``a % b``; a division by zero is an EvalError naming both sides.

    >>> safe_mod(7, 2)
    1
    """
    if b == 0:
        raise EvalError("eval.div_zero", a=a, op="%", b=b)
    return a % b


def checked_sum(items: Iterable[Any]) -> int:
    """Return the sum of ``items``, refusing a running total above ``2**MAX_BITS``.

    >>> checked_sum([1, 2, True])
    4
    """
    total = 0
    for v in items:
        total = check_bits(total + v)
    return total


# operator -> (symbol shown in an explanation, implementation)
BINOPS: dict[str, tuple[str, BinOp]] = {
    "Add": ("+", operator.add),
    "Sub": ("-", operator.sub),
    "Mult": ("×", safe_mul),
    "FloorDiv": ("//", safe_floordiv),
    "Mod": ("%", safe_mod),
    "Pow": ("^", safe_pow),
}

_WORD = 64  # results up to a machine word cost about nothing: not charged


def _metered(op: BinOp, weight: int) -> BinOp:
    """``op`` that charges ``weight`` ticks per 64 bits of a result larger than a word."""
    def fn(a: Any, b: Any) -> Any:
        r = op(a, b)
        if type(r) is int and (n := r.bit_length()) > _WORD:
            charge_bits(n * weight)
        return r
    fn.__name__ = f"metered_{getattr(op, '__name__', 'op')}"
    return fn


# Multiplying and powers cost more than linear in the size (a power is a dozen squarings):
# they are charged more per bit than adding.
METERED_BINOPS: dict[str, BinOp] = {
    "Add": _metered(operator.add, 1),
    "Sub": _metered(operator.sub, 1),
    "Mult": _metered(safe_mul, 4),
    "FloorDiv": _metered(safe_floordiv, 4),
    "Mod": _metered(safe_mod, 4),
    "Pow": _metered(safe_pow, 16),
}


def metered_sum(items: Iterable[Any]) -> int:
    """Like :func:`checked_sum`, charging big running totals to the CPU budget.

    >>> metered_sum([2, 3])
    5
    """
    total = 0
    for v in items:
        total = check_bits(total + v)
        if type(total) is int and (n := total.bit_length()) > _WORD:
            charge_bits(n)
    return total
