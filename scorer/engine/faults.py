"""A ruleset expression's failure while scoring, as the one :class:`EvaluationError` that
names where the expression is written.

>>> str(translate(ZeroDivisionError("division by zero"), "my.yaml patterns"))
'my.yaml patterns: ZeroDivisionError: division by zero'
"""

from __future__ import annotations

from typing import Any

from ..errors import EvaluationError
from ..lang import Compiled, EvalError

# The Python errors a pattern's compiled closure can raise on odd values (the fast path runs
# the closures without Compiled.__call__'s own translation).
PYTHON_ERRORS = (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, AttributeError,
                 OverflowError, RecursionError)


def translate(e: BaseException, where: str, c: Compiled | None = None) -> EvaluationError:
    """A ruleset expression's failure as one EvaluationError naming where it is written: the
    expression's own ``file:line key`` when it has one, else ``where``.

    >>> str(translate(ZeroDivisionError("division by zero"), "my.yaml patterns"))
    'my.yaml patterns: ZeroDivisionError: division by zero'
    """
    if isinstance(e, EvalError):
        code, params = e.code, dict(e.params)
    else:  # Python's own words for what failed
        code, params = "eval.python", {"error": f"{type(e).__name__}: {e}"}
    if not params.get("place"):
        params["place"] = c.where if c is not None and c.where else where
    return EvaluationError(code, **params)


class ruleset_errors:
    """``with ruleset_errors(where, c):`` — an expression error inside becomes the one
    :class:`EvaluationError` of :func:`translate` (``catch``: which errors; the expression
    language's own by default).

    >>> with ruleset_errors("my.yaml shapes"):
    ...     raise EvalError("eval.not_whole", src="x", value="none")
    Traceback (most recent call last):
    scorer.errors.EvaluationError: my.yaml shapes: 'x' gave none, not a whole number
    """

    __slots__ = ("c", "catch", "where")

    def __init__(self, where: str, c: Compiled | None = None,
                 catch: tuple[type[BaseException], ...] = (EvalError,)) -> None:
        self.where, self.c, self.catch = where, c, catch

    def __enter__(self) -> None:
        return None

    def __exit__(self, typ: type[BaseException] | None, e: BaseException | None,
                 tb: Any) -> None:
        if e is not None and isinstance(e, self.catch):
            raise translate(e, self.where, self.c) from None


def holds(c: Compiled, env: Any, where: str) -> Any:
    """The value of a condition (errors, not_a_win), its failure named (as ruleset_errors
    would: a try costs nothing, and every hand checks every error)."""
    try:
        return c(env)
    except EvalError as e:
        raise translate(e, where, c) from None


def whole(v: Any, c: Compiled | None) -> None:
    """An ``int?`` expression (an option that may be none) can give None: refuse it here."""
    if not isinstance(v, int):
        src = c.src if c is not None else "?"
        raise EvalError("eval.not_whole", src=src, value="none" if v is None else repr(v))

