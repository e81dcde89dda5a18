"""A Sichuan round as one line of a batch file: ``round EVENT / EVENT / …``.

The events are a round file's lines (``mjscore round``), separated by a ``/`` word, so an
evening's ledger holds its rounds beside its hands, penalties and adjustments, and the
page's sheet exports a round as a line that ``batch --totals`` counts::

    round S win 123m456m789m55p66p6p --from E / E hand 123m456m789m5p55s / W hand … / N hand …

The ruleset is the round's own ``rules`` event if it starts with one, else the batch's
``--rules``, else ``sichuan``. The record books the round's totals as its payments and its
winners (each once) as ``winner`` (a list, as the ledger reads a round's record).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

# the first word of a line that books a whole round
ROUND = "round"
# the word between two events
SEPARATOR = "/"


def round_events(words: Sequence[str]) -> list[list[str]]:
    """The events of a ``round`` line's words after ``round``: the runs between ``/`` words
    (empty runs dropped).

    >>> round_events(["S", "win", "11m", "/", "/", "E", "hand", "22m"])
    [['S', 'win', '11m'], ['E', 'hand', '22m']]
    """
    events: list[list[str]] = [[]]
    for w in words:
        if w == SEPARATOR:
            events.append([])
        else:
            events[-1].append(w)
    return [e for e in events if e]


def round_line(text: str) -> str:
    """The batch line of a round file's text: its events in order, comments and blank lines
    left out (a ``# players:`` line included: the batch file says the seating itself).

    >>> round_line("# the third round\\nS win 123m --from E\\n\\nE hand 456p  # not ready\\n")
    'round S win 123m --from E / E hand 456p'
    """
    events = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            words = line.split()  # the round reports it when settled
        if words:
            events.append(_joined(words))
    return " ".join([ROUND, " / ".join(events)]).rstrip()


def _joined(words: Sequence[str]) -> str:
    """Words as one line that splits back into them, quoted only where a word needs it.

    >>> _joined(["E", "hand", "[9999s,3]111s", "a b"])
    "E hand [9999s,3]111s 'a b'"
    """
    return " ".join(w if w and not any(c in w for c in " \t\n'\"\\#") else shlex.quote(w)
                    for w in words)


def round_record(words: Sequence[str], rules: str | None, lang: str) -> dict[str, Any]:
    """The record of a ``round`` line (``words`` as split, ``round`` first): the round's
    JSON (``round --json``) under ``round``, its totals as ``payments``, the seats that won
    as ``winner``. Raises RoundError, an event's place said as ``event N``.

    >>> rec = round_record(shlex.split("round S win 123m456m789m55p66p6p --from E / "
    ...     "W win 111s222s333s99s45p6p --from E / E hand [777m,1]888m999m44s55s / "
    ...     "N hand 1135m112346899p"), None, "en")
    >>> rec["payments"], rec["winner"]
    ({'E': 0, 'S': 1, 'W': 1, 'N': -2}, ['S', 'W'])
    """
    from ..errors import MjscoreError
    from ..table.round import RoundError, settle_round
    from ..views.round import round_json

    text = "\n".join(_joined(e) for e in round_events(words[1:]))
    try:
        result = settle_round(text, rules or "sichuan")
    except MjscoreError as e:
        params = dict(e.params)
        at = params.pop("at_line", None)
        err = RoundError(e.code, **params, **({"event": at} if at else {}))
        err.exit_code, err.kind = e.exit_code, e.kind
        raise err from None
    data = round_json(result, lang)
    won = [s for s, st in result.status.items() if st == "won"]
    return {"kind": ROUND, "ruleset": data["ruleset"], "input": " ".join(words),
            "payments": dict(result.totals), "winner": won, "round": data}
