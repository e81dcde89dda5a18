"""``mjscore waits HAND [flags]``: what a hand one tile short was waiting on.

:func:`run` takes values already parsed by the command line (the ``score`` flags, so
the same ``--rules``, ``--wild``, ``--seat``, ``--option`` … work), calls
:func:`scorer.engine.ready.waits` and prints the report or the JSON. Exit status: 0
with an answer — a hand that is not ready is an answer too ("not ready", JSON
``"ready": false``); 2 for bad input (a hand that is not one tile short, a bad flag);
errors are one line on stderr, as for ``score``.
"""

from __future__ import annotations

from ..errors import ContextError
from ..lines.grammar import ScoreArgs


def run(args: ScoreArgs) -> None:
    """Print the waits of ``args.hand`` under ``args.rules``; raise MjscoreError on bad input.

    Score flags that mean nothing for waits (``--vs``, ``--vs-option``, ``--explain``) are
    refused rather than ignored.
    """
    from ..engine.ready import waits
    from ..views.waits import human, to_json
    from .output import dumps

    unused = [f for f, given in (("--vs", args.vs is not None), ("--vs-option", bool(args.vs_options)),
                                 ("--explain", args.explain)) if given]
    if unused:
        raise ContextError("waits.score_flag", unused[0])
    w = waits(args.hand, args.rules, args.context)
    print(dumps(to_json(w, args.lang)) if args.as_json else human(w, args.lang, unicode=args.unicode))
