"""The machinery of lines: a hand and its flags as text, read, scored and written in bulk.

* :mod:`.grammar` — ``HAND --flag VALUE …`` parsed into the hand, the ruleset and the
  :class:`~scorer.engine.context.Context` (no typer);
* :mod:`.reader` — a hand file read line by line, memory bounded whatever it holds;
* :mod:`.records` — one line scored into its JSON record, never raising for bad input
  (:func:`score_record`, the unit of work of any engine that maps a function over lines);
* :mod:`.pool` — many lines scored in order, in this process or in worker processes
  (:func:`score_many`).

>>> score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzhou"])["best"]["score"]
2
"""

from .records import Record, score_record

__all__ = ["Record", "score_many", "score_record"]


def __getattr__(name: str) -> object:
    # score_many brings the process pools: imported on first use, so that a worker that maps
    # score_record over lines (Dask, Spark) never imports them
    if name == "score_many":
        from .pool import score_many

        return score_many
    raise AttributeError(f"module 'scorer.lines' has no attribute {name!r}")
