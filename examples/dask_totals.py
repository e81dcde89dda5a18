"""An evening's totals under Dask, at any scale: the file streamed in blocks, scored and
totalled in the workers, the seating right across the blocks.

`dask.bag.read_text(path, blocksize=...)` cuts the file into blocks of whole lines, read by
the workers (never the whole file in this process). A block does not know its line numbers
nor the seating a `# players:` line above it set, so the blocks are read twice
(`scorer.lines.blocks`, README "Library"):

1. each block's summary: how many lines it holds and the seating its last `# players:` line
   sets (one small value per block comes back here);
2. the blocks' starts, worked out here from those summaries (a prefix scan);
3. each block scored and booked with its start into a partial `Ledger`, in the workers; the
   partial ledgers merged in a tree (`Ledger.merge` is associative), 8 at a time.

The functions the workers run are mjscore's own (`scorer.lines.blocks`), so any worker
with mjscore installed runs them: Dask's local schedulers, or a `dask.distributed` cluster.
Without `--scheduler`, the scheduler is Dask's default, which is the cluster of a
`dask.distributed.Client` made before (`ledger_of(...)` inside `with Client(...):`).

Run:  pip install "mjscore[dask]"
      python examples/dask_totals.py examples/evening.txt --players Ann,Bo,Cy,Di --format jsonl
      python examples/dask_totals.py hands.txt --rules mcr --scheduler local-cluster
(the flags of `mjscore batch FILE ... --totals`: it prints the totals that batch prints
after the hands, in the same format), and:
  --blocksize SIZE   the bytes of a block (default 4MiB; "64KiB", "1MB", or a number)
  --scheduler S      sync, threads or processes (Dask's local schedulers), local-cluster
                     (a dask.distributed LocalCluster on this machine), or the address of a
                     running scheduler (tcp://HOST:8786); default: Dask's default
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import dask
import dask.bag as db

from scorer.lines import blocks
from scorer.lines.pool import check_defaults
from scorer.table.ledger import Ledger, combine

BLOCKSIZE = "4MiB"
FAN_IN = 8  # partial ledgers merged per task, up the tree


def ledger_of(path: str, defaults: Sequence[str] = (), blocksize: str | int = BLOCKSIZE,
              scheduler: str | None = None) -> Ledger:
    """The ledger of a hand file, scored and totalled by Dask; returns a :class:`Ledger`
    equal to the one `mjscore batch FILE DEFAULTS --totals` books.

    ``scheduler`` is passed to ``dask.compute`` (None: Dask's default, a Client's cluster
    when one is made)."""
    check_defaults(defaults)  # the batch's own flags, checked once here as batch does
    # "\n" only (batch's reader splits there and nowhere else); bytes that are not UTF-8
    # fail their own line only, as in batch
    bag = db.read_text(path, blocksize=blocksize, linedelimiter="\n", encoding="utf-8",
                       errors="surrogateescape")
    parts = bag.to_delayed()
    summaries = dask.compute(*(dask.delayed(blocks.summary)(p) for p in parts),
                             scheduler=scheduler)
    starts = blocks.starts(summaries)
    ledgers = [dask.delayed(blocks.book)(p, s, list(defaults)) for p, s in zip(parts, starts, strict=True)]
    while len(ledgers) > 1:  # a tree of merges, FAN_IN at a time, in file order
        ledgers = [dask.delayed(combine)(ledgers[i:i + FAN_IN])
                   for i in range(0, len(ledgers), FAN_IN)]
    (total,) = dask.compute(ledgers[0], scheduler=scheduler)
    result: Ledger = total
    return result


@contextlib.contextmanager
def scheduler_for(name: str | None) -> Iterator[str | None]:
    """The ``scheduler`` to compute with for ``--scheduler NAME``: a local one by its name,
    or a ``dask.distributed`` Client (a LocalCluster made here for ``local-cluster``, else a
    connection to the address given) made the default for the duration."""
    if name is None or name in ("sync", "synchronous", "threads", "processes"):
        yield name
        return
    from dask.distributed import Client, LocalCluster

    if name == "local-cluster":
        with LocalCluster(processes=True, dashboard_address=None) as cluster, Client(cluster):
            yield None
    else:
        with Client(name):
            yield None


def main(argv: Sequence[str]) -> str:
    """The totals of ``FILE [flags]`` as `mjscore batch FILE [flags] --totals` prints them
    after the hands: a table (default), ``--format jsonl`` (the totals record) or ``csv``
    (its rows); ``--stake X``; ``--lang zh|en``, the table's language (zh, as batch);
    ``--blocksize`` and ``--scheduler`` (the module's doc). The batch's other run options
    (``--totals``, ``--jobs``, ``--progress``) are accepted and change nothing here.
    Returns the text."""
    from scorer.views.ledger import totals_csv_rows, totals_record, totals_table
    from scorer.views.rows import csv_text, jsonl_text

    args = list(argv)
    run: dict[str, Any] = {"--stake": "1", "--format": "table", "--jobs": "", "--lang": "",
                           "--blocksize": BLOCKSIZE, "--scheduler": None}
    for flag in run:
        while flag in args:
            i = args.index(flag)
            run[flag] = args[i + 1]
            del args[i:i + 2]
    args = [a for a in args if a not in ("--totals", "--progress", "--no-progress")]
    path, *defaults = args
    size = run["--blocksize"]
    with scheduler_for(run["--scheduler"]) as scheduler:
        t = ledger_of(path, defaults, int(size) if str(size).isdigit() else size,
                      scheduler).totals(stake=run["--stake"])
    if run["--format"] == "jsonl":
        return jsonl_text(totals_record(t)).rstrip("\n")
    if run["--format"] == "csv":
        return "".join(csv_text(row) for row in totals_csv_rows(t, header=True)).rstrip("\n")
    return totals_table(t, lang=run["--lang"] or "zh")


if __name__ == "__main__":
    print(main(sys.argv[1:]))
