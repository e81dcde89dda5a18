"""The two errors of the expression language: one at load time, one at run time."""

from __future__ import annotations

from typing import Any

from ..errors import EvaluationError
from ..text.render import render


class ExprError(Exception):
    """A load-time error in an expression: a ``code`` of the catalogue with its ``params``
    (the ruleset compiler reports it at the file's line and column); ``col`` is the 0-based
    character offset in the expression.

    >>> e = ExprError("expr.unknown_name", 4, name="x")
    >>> e.col, e.message
    (4, "unknown name 'x'")
    """

    def __init__(self, code: str, col: int = 0, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = {k: v for k, v in params.items() if v is not None}
        self.col = col

    @property
    def message(self) -> str:
        """The message in English."""
        return render(self.code, self.params, "en")

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.code, self.col, self.params))


def _restore(code: str, col: int, params: dict[str, Any]) -> ExprError:
    return ExprError(code, col, **params)


class EvalError(EvaluationError):
    """A run-time error in an expression (division by zero, a number too large, too slow).

    It is an :class:`~scorer.errors.EvaluationError`, so one that escapes is still a
    one-line error with exit status 2, never an internal error.
    """
