"""The two errors of the expression language: one at load time, one at run time."""

from __future__ import annotations

from ..errors import EvaluationError


class ExprError(Exception):
    """A load-time error in an expression; ``col`` is the 0-based character offset.

    >>> ExprError("unknown name 'x'", 4).col
    4
    """

    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


class EvalError(EvaluationError):
    """A run-time error in an expression (division by zero, a number too large, too slow).

    It is an :class:`~scorer.errors.EvaluationError`, so one that escapes is still a
    one-line error with exit status 2, never an internal error.
    """
