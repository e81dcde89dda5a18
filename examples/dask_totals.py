"""An evening's totals under Dask: score a hand file with a Dask bag, total it with a reduction.

The same pure function as `mjscore batch`, `scorer.score_record(line, defaults, n)`, is
mapped over the file's lines; each partition books its records into a partial
`scorer.table.ledger.Ledger`, and the partial ledgers are merged in a tree (`Ledger.merge` is
associative, so the shape of the tree does not change the result). Here the bag runs on
Dask's local scheduler; on a cluster the same code runs on the workers (mjscore installed
there), with `dask.bag.read_text("s3://…/hands-*.txt")` in place of `from_sequence`.

Run:  pip install "mjscore[dask]"
      python examples/dask_totals.py examples/hangzhou.txt --rules hangzhou [--stake 0.5]
      python examples/dask_totals.py examples/evening.txt --players Ann,Bo,Cy,Di --format jsonl
(the flags of `mjscore batch FILE ... --totals`: it prints the totals that batch prints
after the hands, in the same format)

Lines carry their flags exactly as on the command line; flags given here apply to every
line. Who sat where is named as in `mjscore batch`: `--players E=Ann,S=Bo,W=Cy,N=Di` here
or on a line, or a `# players: …` line for the lines after it (read in order, before the
bag is made: `scorer.lines.pool.seated`). A record that names its players is booked to them;
otherwise the totals are per seat. The totals equal `mjscore batch FILE --totals`'s.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import dask.bag as db

from scorer import score_record
from scorer.lines.pool import seated
from scorer.table.ledger import Ledger, book, combine
from scorer.views.ledger import totals_table


def _score(numbered: tuple[int, str, str | None], defaults: Sequence[str]) -> dict[str, Any]:
    n, text, players = numbered  # players: the seating a '# players:' line above set
    return score_record(text, defaults, n, players=players)


def _partial(records: Iterable[dict[str, Any]]) -> Ledger:
    return book(records)  # blank and comment lines come back as {"skip": True}: not booked


def ledger_of(path: str, defaults: Sequence[str] = (), npartitions: int = 4,
              scheduler: str = "sync") -> Ledger:
    """The ledger of a hand file, scored and totalled by Dask; returns a :class:`Ledger`."""
    with open(path, encoding="utf-8") as f:
        # line numbers for failed lines, and the seating in force at each line
        numbered = list(seated(enumerate(f.read().splitlines(), 1)))
    bag = db.from_sequence(numbered, npartitions=npartitions)
    records = bag.map(_score, defaults=list(defaults))
    # perpartition books a chunk; aggregate merges partial ledgers, two at a time up the tree
    total = records.reduction(_partial, combine, split_every=2)
    result: Ledger = total.compute(scheduler=scheduler)
    return result


def main(argv: Sequence[str]) -> str:
    """The totals of ``FILE [flags]`` as `mjscore batch FILE [flags] --totals` prints them
    after the hands: a table (default), ``--format jsonl`` (the totals record) or ``csv``
    (its rows); ``--stake X``; ``--lang zh|en``, the table's language (zh, as batch). The
    batch's other run options (``--totals``, ``--jobs``, ``--progress``) are accepted and
    change nothing here. Returns the text."""
    from scorer.views.ledger import totals_csv_rows, totals_record
    from scorer.views.rows import csv_text, jsonl_text

    args = list(argv)
    run = {"--stake": "1", "--format": "table", "--jobs": "", "--lang": ""}
    for flag in run:
        while flag in args:
            i = args.index(flag)
            run[flag] = args[i + 1]
            del args[i:i + 2]
    args = [a for a in args if a not in ("--totals", "--progress", "--no-progress")]
    path, *defaults = args
    t = ledger_of(path, defaults, scheduler="threads").totals(stake=run["--stake"])
    if run["--format"] == "jsonl":
        return jsonl_text(totals_record(t)).rstrip("\n")
    if run["--format"] == "csv":
        return "".join(csv_text(row) for row in totals_csv_rows(t, header=True)).rstrip("\n")
    return totals_table(t, lang=run["--lang"] or "zh")


if __name__ == "__main__":
    print(main(sys.argv[1:]))
