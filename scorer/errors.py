"""One exception hierarchy for everything a user can get wrong: errors as data.

Every error carries a stable ``code`` (``notation.no_suit``: docs/contract.md lists them)
and the ``params`` its message needs (the position in the hand, a file/line/column/key in
a ruleset, the tile, the flag, numbers, the did-you-mean ``hint``) and nothing rendered.
:meth:`MjscoreError.render` words it in zh or en from the one catalogue
(:func:`scorer.text.render.render`); ``str(e)`` and ``e.message`` are the English words,
as they always were.

* :class:`NotationError` — the hand text cannot be read (exit status 2)
* :class:`HandError` — the hand reads but is impossible for the table: tile
  count, a fifth copy, a meld that is no set (exit status 2)
* :class:`ContextError` — a flag is missing, out of range or contradicts the
  hand, another flag or the ruleset (exit status 2)
* :class:`RulesetError` — a ruleset file is malformed (exit status 2)
* :class:`NotAWin` — the hand is well formed but is not a legal win (exit status 3)

>>> e = NotationError("notation.no_suit", position=7, digit="8")
>>> e.code, e.params, str(e)
('notation.no_suit', {'digit': '8', 'position': 7}, "position 7: '8' has no suit letter after it")
>>> e.render("zh")
"第 7 个字符：'8' 后面没有花色字母"
"""

from __future__ import annotations

import errno as _errno
from typing import Any

from .record import record
from .text.catalogue import CATALOGUE
from .text.render import body, render, where, word


def _coded(code: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``(code, params)``, or for a message not converted yet (prose, not a code of the
    catalogue) ``("prose", {"text": ..., **params})``: tests/text/test_codes.py fails
    while any raise site still passes prose."""
    # (most errors name none of them: a refused MCR hand, a third of a batch, is one)
    if not _OPTIONAL_SET.isdisjoint(params) and any(params.get(k, 0) is None
                                                    for k in _OPTIONAL):
        params = {k: v for k, v in params.items() if v is not None or k not in _OPTIONAL}
    if code in CATALOGUE:
        return code, params
    return "prose", {"text": code, **params}


# parameters that are left out when None: where it happened, the hint, the extends chain
_OPTIONAL = ("position", "file", "line", "column", "key", "at_line", "event", "hint", "chain",
             "by_id", "flag", "place")
_OPTIONAL_SET = frozenset(_OPTIONAL)


class MjscoreError(Exception):
    """Base class; ``kind`` names the error class in JSON, ``exit_code`` the CLI status;
    ``code`` and ``params`` say what went wrong and where (see the module docstring)."""

    kind = "error"
    exit_code = 2

    def __init__(self, code: str, /, **params: Any) -> None:
        code, params = _coded(code, params)
        super().__init__(code)
        self.code = code
        self.params = params

    def render(self, lang: str = "en") -> str:
        """The whole message in ``lang`` (zh or en): where, what, the hint."""
        return render(self.code, self.params, lang)

    @property
    def message(self) -> str:
        """The message in English (as ``str(e)``)."""
        return self.render("en")

    def detail_in(self, lang: str = "en") -> str:
        """The message without its where-prefix, in ``lang``."""
        return body(self.code, self.params, lang)

    @property
    def detail(self) -> str:
        """The English message without its where-prefix (position, file:line)."""
        return self.detail_in("en")

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword parameters do not survive Exception's own pickling (a batch's workers
        # send errors to the parent): rebuild from the class, the code and the state
        return (_restore, (type(self), self.code, self.__dict__))


def _restore(cls: type[MjscoreError], code: str, state: dict[str, Any]) -> MjscoreError:
    e = cls.__new__(cls)
    Exception.__init__(e, code)
    e.__dict__.update(state)
    return e


class NotationError(MjscoreError):
    """The hand text cannot be parsed; ``position`` is the 1-based character position.

    >>> str(NotationError("notation.no_suit", position=7, text="123m5p8", digit="8"))
    "position 7: '8' has no suit letter after it"
    """

    kind = "notation"

    def __init__(self, code: str, position: int | None = None, text: str = "",
                 **params: Any) -> None:
        super().__init__(code, **params, **({} if position is None else {"position": position}))
        self.position = position
        self.text = text  # the hand as typed


class HandError(MjscoreError):
    """The hand is readable but impossible under the table (tile count, copies, melds)."""

    kind = "hand"

    def __init__(self, code: str, position: int | None = None, **params: Any) -> None:
        super().__init__(code, **params, **({} if position is None else {"position": position}))
        self.position = position


class ContextError(MjscoreError):
    """A context flag is missing, out of range, unused by the ruleset or contradictory;
    ``flag`` names it (``--from``) when one flag is at fault."""

    kind = "context"

    def __init__(self, code: str, flag: str | None = None, **params: Any) -> None:
        super().__init__(code, **params, **({} if flag is None else {"flag": flag}))
        self.flag = flag


@record(frozen=True)
class Problem:
    """One problem found in a ruleset file, with its place: ``code`` and ``params`` as for
    an error (a message not converted yet stands in ``code`` as prose)."""

    file: str
    line: int | None
    column: int | None
    key: str
    code: str
    params: Any = None  # a dict of the message's parameters, or None

    def where_params(self) -> dict[str, Any]:
        """The problem's place as where-parameters (file, line, column, key)."""
        return {"file": self.file, "line": self.line, "column": self.column, "key": self.key}

    def coded(self) -> tuple[str, dict[str, Any]]:
        """``(code, params)`` of the message, the place not included."""
        return _coded(self.code, dict(self.params or {}))

    def render(self, lang: str = "en") -> str:
        """The problem in ``lang``: ``file:line:column key: message``."""
        code, params = self.coded()
        return where(self.where_params(), lang) + body(code, params, lang)

    @property
    def message(self) -> str:
        """The message in English, without the place."""
        code, params = self.coded()
        return body(code, params, "en")

    def __str__(self) -> str:
        return self.render("en")


class RulesetError(MjscoreError):
    """A ruleset cannot be loaded; ``problems`` lists every problem found.

    The message is the first problem (one line, for the CLI); ``mjscore rules check``
    prints them all. ``code`` and ``params`` are the first problem's (its place included).

    >>> e = RulesetError(Problem("my.yaml", 3, 1, "x", "ruleset.is_folder", {"name": "y"}))
    >>> e.code, str(e)
    ('ruleset.is_folder', "my.yaml:3:1 x: cannot read ruleset 'y': it is a folder, not a file")
    """

    kind = "ruleset"

    def __init__(self, problems: list[Problem] | Problem | str, **params: Any) -> None:
        if isinstance(problems, str):
            problems = [Problem("", None, None, "", problems, params or None)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = problems
        if problems:
            code, first = problems[0].coded()
            first = {**first, **{k: v for k, v in problems[0].where_params().items() if v}}
        else:
            code, first = "ruleset.invalid", {}
        super().__init__(code, **first)

    def render(self, lang: str = "en") -> str:
        """The first problem in ``lang``, and how many more there are."""
        first = self.problems[0].render(lang) if self.problems else word("ruleset.invalid", lang)
        more = len(self.problems) - 1
        return first + (word("ruleset.more", lang, n=more) if more > 0 else "")


class EvaluationError(MjscoreError):
    """A ruleset expression failed while scoring (division by zero, a number too large)."""

    kind = "ruleset"


class NotAWin(MjscoreError):
    """The hand parses but is not a legal win; ``reason`` is a stable code.

    Reason codes: ``not_winning``, ``below_minimum``, ``illegal`` (a ruleset rule
    forbids this win; the message says which), ``claim`` (a claim about the win that
    the hand does not bear out). ``details`` is the scored result of a win refused after
    scoring (MCR's minimum), for the views to show what was found.
    """

    kind = "not_a_win"
    exit_code = 3

    def __init__(self, code: str, reason: str = "not_winning", details: object = None,
                 **params: Any) -> None:
        super().__init__(code, **params)
        self.reason = reason
        self.details = details


# why the system refused a file, by errno: the word of the catalogue (reason.WORD) a
# message says it with (EDQUOT is not on every system)
_REASONS: dict[int, str] = {
    _errno.ENOENT: "not_found", _errno.EACCES: "permission", _errno.EPERM: "permission",
    _errno.EISDIR: "is_dir", _errno.ENOTDIR: "not_dir", _errno.ENOSPC: "no_space",
    _errno.EFBIG: "too_big", _errno.ENAMETOOLONG: "name_too_long", _errno.EROFS: "read_only",
    _errno.EIO: "io", _errno.ELOOP: "loop", _errno.EEXIST: "exists", _errno.EBUSY: "busy",
    _errno.EADDRINUSE: "in_use", _errno.EADDRNOTAVAIL: "no_address",
    **({_errno.EDQUOT: "quota"} if hasattr(_errno, "EDQUOT") else {}),
}


def os_reason(e: BaseException) -> dict[str, str]:
    """Why the system refused a file, as a message's parameters: ``reason`` (the catalogue
    says it as ``reason.WORD``: ``{reason:word}``) and ``errno``, the error's symbolic
    name; never the system's own words (``strerror`` is English whatever the language).
    A text that is not UTF-8 is ``not_utf8``, a name with a NUL byte (Python's ValueError
    from ``open``) ``bad_name``.

    >>> os_reason(FileNotFoundError(2, "No such file or directory"))
    {'reason': 'not_found', 'errno': 'ENOENT'}
    >>> os_reason(OSError(6, "No such device or address"))
    {'reason': 'other', 'errno': 'ENXIO'}
    """
    if isinstance(e, UnicodeError):
        return {"reason": "not_utf8"}
    number = getattr(e, "errno", None)
    if not isinstance(number, int):
        return {"reason": "bad_name"} if isinstance(e, ValueError) else \
            {"reason": "other", "errno": type(e).__name__}
    return {"reason": _REASONS.get(number, "other"),
            "errno": _errno.errorcode.get(number, str(number))}


class Terminated(BaseException):
    """SIGTERM arrived (see :func:`scorer.cli.entry.main`): unwind like Ctrl-C, exit 143.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` turns it into
    an error record; ``signal`` is the signal's number.
    """

    def __init__(self, signal: int = 15) -> None:
        super().__init__(f"terminated by signal {signal}")
        self.signal = signal
