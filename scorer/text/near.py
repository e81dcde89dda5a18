"""The one did-you-mean: the known names closest to an unknown one.

:func:`closest` gives the bare name (an error carries it as its ``hint`` parameter, and
:func:`scorer.text.render.render` words it in the language asked: ``; did you mean 'x'?``
or ``；是不是 'x'？``), :func:`close_matches` several; :class:`Known` prepares a long list
once for many words. Pure, and knows nothing of mahjong, so any layer may use it.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections.abc import Iterable

# Up to this many known names are all compared (difflib's own ranking, unchanged); a longer
# list is narrowed first to the names that sort next to the word, forwards and backwards
# (those sharing its beginning or its end), so a hint costs O(log n) comparisons instead of
# O(n): a hostile file with thousands of unknown ids among thousands of known ones gets
# every message in well under a second. A caller that asks about many words prepares the
# names once with :class:`Known`.
FULL_SCAN = 100
NEIGHBOURS = 1  # names taken on each side of the word in each order: the longest shared
# beginning (ending) is always with a name next to the word in that order


class Known:
    """Known names prepared for many look-ups (sorted forwards and by their endings).

    >>> Known(["cap", "players"]).near("capp")
    ('cap', 'players')
    """

    __slots__ = ("backward", "forward", "names")

    def __init__(self, names: Iterable[str]) -> None:
        self.names = tuple(dict.fromkeys(names))
        big = len(self.names) > FULL_SCAN
        self.forward = sorted(self.names) if big else []
        self.backward = sorted(n[::-1] for n in self.names) if big else []

    def near(self, word: str) -> tuple[str, ...]:
        """The names worth comparing with ``word``: all of a short list, else its neighbours."""
        if not self.forward:
            return self.names
        near = _around(self.forward, word) + [r[::-1] for r in _around(self.backward, word[::-1])]
        return tuple(dict.fromkeys(near))


def _around(ordered: list[str], word: str) -> list[str]:
    at = bisect_left(ordered, word)
    return ordered[max(0, at - NEIGHBOURS):at + NEIGHBOURS]


def close_matches(word: object, known: Iterable[str] | Known, n: int = 1,
                  cutoff: float = 0.6) -> list[str]:
    """The ``n`` known names closest to ``word`` (difflib's ratio ≥ ``cutoff``), best first.

    >>> close_matches("--kongz", ["--kongs", "--you", "--out", "--base"], n=3)
    ['--kongs']
    """
    k = known if isinstance(known, Known) else Known(known)
    w = str(word)
    return difflib.get_close_matches(w, k.near(w), n=n, cutoff=cutoff)


def closest(word: object, known: Iterable[str] | Known) -> str | None:
    """The known name closest to ``word``, or None when none is close.

    >>> closest("capp", ["cap", "players"]), closest("zzz", ["cap"])
    ('cap', None)
    """
    found = close_matches(word, known)
    return found[0] if found else None
