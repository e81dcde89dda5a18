"""What a run has to tell its user that is not an error: kept here, said by the command line.

A ruleset may use a spelling that still works (``combine:`` for ``count_once:``, ``ties:``
at the top level) and the ruleset cache may be unusable (no home folder, a folder others
may write): each is worth one line, but not before an error, which is always one line.
So the library only notes them (:func:`note`); the command line says them after a run
that succeeded (``scorer.cli.output.say_notices``), and ``mjscore rules check`` lists a
file's among its lines. A library caller may read them with :func:`take`.

>>> _ = take()  # (what this process noted before: the example starts with none kept)
>>> note("old spelling", "my.yaml"); note("old spelling", "my.yaml"); note("no cache")
>>> take("my.yaml"), take()
(['old spelling'], ['no cache'])
>>> take()
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..record import record
from ..text.render import render

# A run notes a few things at most; a program that loads thousands of files keeps the first
MAX_NOTES = 100
_notes: list[tuple[str | None, Any]] = []


@record(frozen=True)
class Notice:
    """A notice as data: a ``code`` of the catalogue and its ``params``, worded when said.

    >>> str(Notice("notice.jobs_capped", {"asked": 256, "cap": 8, "cpus": 2, "times": 4}))
    '--jobs 256: capped at 8 processes (4 per CPU, 2 CPUs)'
    """

    code: str
    params: Mapping[str, Any]

    def render(self, lang: str = "en") -> str:
        """The notice in ``lang`` (zh or en)."""
        return render(self.code, dict(self.params), lang)

    def __str__(self) -> str:
        return self.render("en")  # (the ruleset file it is about, the notice)


def note(notice: Any, about: str | None = None) -> None:
    """Keep ``notice`` (a text, or a :class:`~scorer.errors.Problem` worded when said) to be
    said once, ``about`` the ruleset file it was found in (None: about the run, e.g. the
    cache); a notice already kept is not kept twice."""
    if len(_notes) < MAX_NOTES and str(notice) not in (str(n) for _, n in _notes):
        _notes.append((about, notice))


def take(about: str | None = None) -> list[Any]:
    """The notices kept so far (only those about the file ``about``, when given), in order;
    they are then forgotten."""
    out = [n for a, n in _notes if about is None or a == about]
    _notes[:] = [(a, n) for a, n in _notes if about is not None and a != about]
    return out
