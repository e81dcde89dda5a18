"""One exception hierarchy for everything a user can get wrong.

Every error carries where it happened as fields (a character position in the
hand, a file/line/column/key in a ruleset) so that the CLI can print one line
and a caller can react programmatically.

* :class:`NotationError` — the hand text cannot be read (exit status 2)
* :class:`HandError` — the hand reads but is impossible for the table: tile
  count, a fifth copy, a meld that is no set (exit status 2)
* :class:`ContextError` — a flag is missing, out of range or contradicts the
  hand, another flag or the ruleset (exit status 2)
* :class:`RulesetError` — a ruleset file is malformed (exit status 2)
* :class:`NotAWin` — the hand is well formed but is not a legal win (exit status 3)
"""

from __future__ import annotations

from .record import record


class MjscoreError(Exception):
    """Base class; ``kind`` names the error class in JSON, ``exit_code`` the CLI status."""

    kind = "error"
    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class NotationError(MjscoreError):
    """The hand text cannot be parsed; ``position`` is the 1-based character position.

    >>> str(NotationError("'8' has no suit letter after it", position=7, text="123m5p8"))
    "position 7: '8' has no suit letter after it"
    """

    kind = "notation"

    def __init__(self, message: str, position: int | None = None, text: str = "") -> None:
        self.position = position
        self.text = text
        self.detail = message
        full = f"position {position}: {message}" if position is not None else message
        super().__init__(full)


class HandError(MjscoreError):
    """The hand is readable but impossible under the table (tile count, copies, melds)."""

    kind = "hand"

    def __init__(self, message: str, position: int | None = None) -> None:
        self.position = position
        self.detail = message
        super().__init__(f"position {position}: {message}" if position is not None else message)


class ContextError(MjscoreError):
    """A context flag is missing, out of range, unused by the ruleset or contradictory."""

    kind = "context"

    def __init__(self, message: str, flag: str | None = None) -> None:
        self.flag = flag
        super().__init__(message)


@record(frozen=True)
class Problem:
    """One problem found in a ruleset file, with its place."""

    file: str
    line: int | None
    column: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if not where:  # a problem with no file (e.g. the ruleset was not found): no ": " prefix
            return f"{self.key}: {self.message}" if self.key else self.message
        return f"{where} {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class RulesetError(MjscoreError):
    """A ruleset cannot be loaded; ``problems`` lists every problem found.

    The message is the first problem (one line, for the CLI); ``mjscore rules check``
    prints them all.
    """

    kind = "ruleset"

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("", None, None, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = problems
        first = str(problems[0]) if problems else "invalid ruleset"
        more = f" (and {len(problems) - 1} more problem(s); run 'mjscore rules check')" if len(
            problems
        ) > 1 else ""
        super().__init__(first + more)


class EvaluationError(MjscoreError):
    """A ruleset expression failed while scoring (division by zero, a number too large)."""

    kind = "ruleset"


class NotAWin(MjscoreError):
    """The hand parses but is not a legal win; ``reason`` is a stable code.

    Reason codes: ``not_winning``, ``below_minimum``, ``illegal`` (a ruleset rule
    forbids this win; the message says which), ``claim`` (a claim about the win that
    the hand does not bear out).
    """

    kind = "not_a_win"
    exit_code = 3

    def __init__(self, message: str, reason: str = "not_winning", details: object = None) -> None:
        self.reason = reason
        self.details = details
        super().__init__(message)


class Terminated(BaseException):
    """SIGTERM arrived (see :func:`scorer.cli.entry.main`): unwind like Ctrl-C, exit 143.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` turns it into
    an error record; ``signal`` is the signal's number.
    """

    def __init__(self, signal: int = 15) -> None:
        super().__init__(f"terminated by signal {signal}")
        self.signal = signal
