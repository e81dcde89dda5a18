"""``mjscore waits HAND [flags]``: what a hand one tile short was waiting on.

:func:`run` takes values already parsed by the command line (the ``score`` flags, so
the same ``--rules``, ``--wild``, ``--seat``, ``--option`` … work), calls
:func:`scorer.engine.waits.waits` and prints the report or the JSON. Exit status: 0
with an answer — a hand that is not ready is an answer too ("not ready", JSON
``"ready": false``); 2 for bad input (a hand that is not one tile short, a bad flag);
errors are one line on stderr, as for ``score``.
"""

from __future__ import annotations

from ..engine.context import Context
from ..errors import ContextError


def run(hand: str, rules: str, ctx: Context, *, as_json: bool = False, lang: str = "zh",
        unicode: bool = True, unused: tuple[str, ...] = ()) -> None:
    """Print the waits of ``hand`` under ``rules`` and ``ctx``; raise MjscoreError on bad input.

    ``unused`` names score flags that were given but mean nothing for waits (``--vs``,
    ``--explain``): they are refused rather than ignored.
    """
    from ..engine.waits import waits
    from ..views.waits import human, to_json
    from .app import dumps

    if lang not in ("zh", "en"):
        raise ContextError(f"--lang {lang}: use zh or en", "--lang")
    if unused:
        raise ContextError(f"{unused[0]} has no meaning for waits (it belongs to score)",
                           unused[0])
    w = waits(hand, rules, ctx)
    print(dumps(to_json(w, lang)) if as_json else human(w, lang, unicode=unicode))
