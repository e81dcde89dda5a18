"""The CPU budget: expressions of an untrusted ruleset stop after a limit of CPU per hand.

A :class:`Budget` holds a deadline in *this thread's* CPU time (``time.thread_time``),
so a busy machine or other threads scoring at the same time neither make a legitimate
hand fail nor give a hostile one more time. The budget in force lives in a
:class:`contextvars.ContextVar`: every thread (and every asyncio task) has its own,
and there is no module-level clock to share.

Work is counted in *ticks*, roughly one expression node evaluated (~50 ns): metered
closures (see :mod:`scorer.lang.compile`) tick once per evaluation of an expression
(weighted by its size), once per loop item, once per item a list function reads, and in
proportion to the size of big numbers (:mod:`scorer.lang.ops`). The clock itself is
looked at every ``LOOK_EVERY`` ticks, since reading it costs about ten times a tick.

Without a budget in force (the trusted, built-in rulesets; a direct call of a compiled
expression) every tick returns at once.

>>> with limited(0.4) as b:
...     tick(10)
...     b.ticks
10
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import EvalError

TIME_LIMIT: float | None = 0.4  # seconds of CPU per hand for an untrusted ruleset
LOOK_EVERY = 1024  # ticks between two looks at the clock (~50 µs of work)


class Budget:
    """A deadline in this thread's CPU time and the ticks counted so far.

    ``limit=None`` never runs out (but still counts).

    >>> b = Budget(0.0)
    >>> b.look()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.lang.errors.EvalError: the ruleset's expressions ran for more than 0.0 s of CPU ...
    """

    __slots__ = ("deadline", "limit", "next_look", "ticks")

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.deadline = math.inf if limit is None else time.thread_time() + limit
        self.ticks = 0
        self.next_look = LOOK_EVERY

    def tick(self, n: int = 1) -> None:
        """Count ``n`` ticks of work; look at the clock when ``LOOK_EVERY`` have gone by."""
        self.ticks += n
        if self.ticks >= self.next_look:
            self.look()

    def look(self) -> None:
        """Raise EvalError if this thread has used up the budget's CPU time; return None."""
        self.next_look = self.ticks + LOOK_EVERY
        if time.thread_time() > self.deadline:
            raise EvalError("eval.cpu", limit=self.limit)


_CURRENT: ContextVar[Budget | None] = ContextVar("mjscore_expression_budget", default=None)


@contextmanager
def limited(limit: float | None) -> Iterator[Budget | None]:
    """Run the ``with`` block under a fresh budget of ``limit`` s of CPU; yield it.

    ``limit=None`` (a trusted ruleset) runs the block with no budget at all, so its
    expressions pay nothing, even inside an untrusted one's block. The previous budget
    is back in force afterwards, also after an error.

    >>> with limited(None) as b:
    ...     b is None and current() is None
    True
    """
    b = None if limit is None else Budget(limit)
    token = _CURRENT.set(b)
    try:
        yield b
    finally:
        _CURRENT.reset(token)


def current() -> Budget | None:
    """Return the budget in force in this thread/context, or None.

    >>> current() is None
    True
    """
    return _CURRENT.get()


def tick(n: int = 1) -> None:
    """Count ``n`` ticks against the budget in force, if any; return None.

    >>> tick(5)  # no budget in force: nothing happens
    """
    b = _CURRENT.get()
    if b is not None:
        b.tick(n)


def charge_bits(bits: int) -> None:
    """Charge work on a number of ``bits`` bits: one tick per 64 bits; return None.

    >>> with limited(1.0) as b:
    ...     charge_bits(640)
    ...     b.ticks
    10
    """
    b = _CURRENT.get()
    if b is not None:
        b.tick(bits >> 6)


def check() -> None:
    """Look at the clock of the budget in force now (e.g. once per reading); return None.

    >>> check()  # no budget: returns at once
    """
    b = _CURRENT.get()
    if b is not None:
        b.look()
