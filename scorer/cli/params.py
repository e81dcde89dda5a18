"""What typer's options read their values with, where its own types would read too much.

Typer (click) converts an ``int`` option with Python's ``int()``, which also takes ``٣``,
``３``, ``1_000`` and `` +7 ``, and echoes a 5,000-digit value whole in its message.
:func:`integer` reads the way every number of mjscore is read
(:func:`scorer.model.numbers.whole`), and its error is typer's usage error, worded as the
flag parser words it (``Invalid value for '--jobs': 'x' is not a valid int.``).
"""

from __future__ import annotations

import typer

from ..model.numbers import NotANumber, whole


def integer(text: str | int) -> int:
    """An ``int`` option's value (typer's ``parser``); the function's name is the metavar
    ``--help`` shows (INTEGER).

    >>> integer("12")
    12
    """
    if isinstance(text, int):  # a default, already a number
        return text
    try:
        return whole(text)
    except NotANumber as e:
        refused = typer.BadParameter(str(e))
        refused.number = e  # type: ignore[attr-defined]  # (its code: cli.usage.usage_code)
        raise refused from None
