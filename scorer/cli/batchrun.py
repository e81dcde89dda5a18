"""The run of ``mjscore batch``: a hand file scored in order and written, with what only a
command line does: the progress line, the summary, Ctrl-C and SIGTERM, the exit status.

The scoring itself is the library's (:func:`scorer.lines.pool.score_many`); this module
reads the file, writes the records in the chosen format, books the evening's totals when
asked, and turns a signal into a clean stop whose output holds every line scored before.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from ..lines.pool import check_defaults, score_many
from ..lines.reader import read_lines
from ..views.rows import CSV_FIELDS, FORMATS, csv_text, jsonl_text, table_text


def run(file: str, defaults: Sequence[str], fmt: str = "jsonl", jobs: int | None = None,
        progress: bool | None = None, lang: str = "zh", out: IO[str] | None = None,
        err: IO[str] | None = None, totals: bool | None = None,
        stake: str | None = None) -> int:
    """Score the lines of ``file`` (``-``: standard input) and write them in ``fmt``.

    Bad lines are reported on ``err`` with their number; a summary (lines, failed,
    hands/second) ends the run. With ``totals`` (default: for a table written to a
    terminal, or when a ``stake`` is given) the evening's totals and the transfers that
    settle it follow the hands, in ``fmt``: a ``"kind": "totals"`` JSON line, CSV rows
    of kind ``totals`` and ``transfer`` under their own header rows, or a table.
    Returns the exit status: 1 if any line failed, else 0.
    """
    from ..errors import ContextError, Terminated
    from ..rules.yamlsafe import printable

    out = out or sys.stdout
    err = err or sys.stderr
    if fmt not in FORMATS:
        raise ContextError(f"--format {fmt}: use jsonl, csv or table", "--format")
    if jobs is not None and not 1 <= jobs <= 256:
        raise ContextError(f"--jobs {jobs}: use 1 to 256", "--jobs")
    k = None
    if stake is not None:
        from ..table.ledger import parse_stake

        k = parse_stake(stake)
    if totals is None:
        totals = k is not None or (fmt == "table" and out.isatty())
    check_defaults(defaults)
    stream: Any
    if file == "-":
        stream, size = sys.stdin.buffer, None
    else:
        try:
            stream = open(file, "rb")  # noqa: SIM115 - closed below
        except OSError as e:
            raise ContextError(f"cannot read {file}: {e.strerror}") from None
        size = os.fstat(stream.fileno()).st_size
    if jobs is None:
        # a process pool costs ~0.1 s to start: only worth it for a large file; a pipe or a
        # terminal is read as it comes (each line answered at once), so one job unless asked
        jobs = (os.cpu_count() or 1) if size is not None and size > 64 * 1024 else 1
    show = progress if progress is not None else (err.isatty() and (size or 0) > 1 << 20)
    failed = total = 0
    start = last = time.perf_counter()
    table_rows_: list[list[Any]] = []
    if totals:  # (the ledger's modules are imported only for a run that settles)
        from ..table.ledger import Builder, LedgerError
        from ..views.ledger import totals_csv_rows, totals_record, totals_table

        ledger = Builder()
    if fmt == "csv":
        out.write(csv_text(CSV_FIELDS))
    records = score_many(read_lines(stream), defaults, jobs=jobs, lang=lang, fmt=fmt)
    stopped: tuple[str, int] | None = None
    # lines from a pipe or a terminal may come slowly: each answer is written at once
    live = size is None
    previous = _handlers()
    signalled = _catch_signals()
    try:
        for rec in records:
            signalled.raise_if_seen()  # its exception was swallowed (a __del__, a callback)
            # a signal while a record is written and counted waits until both are done:
            # the output stays line-whole and the summary's count is what was written
            signalled.defer = True
            if fmt != "table":
                out.write(rec.text)
            else:
                table_rows_ += rec.data.get("rows", ())
                if len(table_rows_) >= 1000:
                    print(table_text(table_rows_, lang), file=out)
                    table_rows_.clear()
            # counted once written, so that an interrupted run's count is what it wrote
            # (and before the flush: a signal may arrive as soon as the reader has it)
            total += 1
            if live and fmt != "table":
                out.flush()
            if not rec.ok:
                failed += 1
                # a message may echo a file's text: one line, control characters escaped
                print(f"line {rec.line}: {printable(rec.error or '', keep='')}", file=err)
            if totals:
                try:
                    ledger.add(rec, None)  # a failed line joins the totals' "failed"
                except LedgerError as e:  # e.g. names on some hands and not on others
                    failed += 1
                    print(f"line {rec.line}: not counted in the totals: "
                          f"{printable(e.detail, keep='')}", file=err)
                    ledger.add({"line": rec.line, "error": {"message": e.detail}}, None)
            signalled.defer = False
            signalled.raise_if_seen()
            if show and time.perf_counter() - last > 0.25:
                last = time.perf_counter()
                rate = total / max(last - start, 1e-9)
                print(f"\r{total:,} lines, {failed:,} failed, {rate:,.0f} hands/s",
                      end="", file=err, flush=True)
    except KeyboardInterrupt:
        stopped = ("interrupted", 130)
    except Terminated:
        stopped = ("terminated", 143)
    finally:
        if stopped is not None:
            _ignore_signals()  # a second Ctrl-C while the workers stop must not hang or trace
        records.close()  # stops the worker processes, if any (score_many)
        _restore(previous)  # a library caller keeps its own handlers
        if stream is not sys.stdin.buffer:
            stream.close()
    if table_rows_:
        print(table_text(table_rows_, lang), file=out)
    if totals:
        t = ledger.ledger().totals(k if k is not None else 1)
        if fmt == "jsonl":
            out.write(jsonl_text(totals_record(t)))
        elif fmt == "csv":
            out.write("".join(csv_text(row) for row in totals_csv_rows(t, header=True)))
        else:
            print(("\n" if total else "") + totals_table(t, lang=lang), file=out)
    out.flush()
    elapsed = max(time.perf_counter() - start, 1e-9)
    if show:
        print("\r" + " " * 60 + "\r", end="", file=err)
    what = f"{stopped[0]} after " if stopped else ""
    print(f"mjscore batch: {what}{total:,} lines, {failed:,} failed, {total / elapsed:,.0f} "
          f"hands/s ({jobs} job{'s' if jobs != 1 else ''})"
          + ("; the output holds every line scored before" if stopped else ""), file=err,
          flush=True)
    if stopped:
        return stopped[1]
    return 1 if failed else 0


def _handlers() -> dict[int, Any]:
    """The handlers of SIGINT and SIGTERM now (none outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}


def _restore(handlers: dict[int, Any]) -> None:
    for sig, h in handlers.items():
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(sig, h)


class _Signals:
    """The SIGINT / SIGTERM seen during a batch run; ``defer``: note them, raise later."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.defer = False

    def raise_if_seen(self) -> None:
        """Raise KeyboardInterrupt (SIGINT) or Terminated (SIGTERM) if one was seen."""
        if self.seen:  # (asked twice a line: nothing imported unless one was)
            from ..errors import Terminated

            raise KeyboardInterrupt if self.seen[0] == signal.SIGINT else Terminated()


def _catch_signals() -> _Signals:
    """Ctrl-C and SIGTERM raise KeyboardInterrupt / Terminated as usual (unless deferred),
    and are also noted in the object returned, which the batch loop looks at after every
    line: an exception raised while Python runs a finaliser is printed and dropped, the
    note is not."""
    from ..errors import Terminated

    seen = _Signals()
    if threading.current_thread() is not threading.main_thread():
        return seen

    def on_signal(signum: int, frame: Any) -> None:
        seen.seen.append(signum)
        # deferred while a record is written; a second signal stops even that (a write
        # blocked on a full pipe must not keep the run from stopping)
        if not seen.defer or len(seen.seen) > 1:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, on_signal)
    return seen


def _ignore_signals() -> None:
    """Ignore Ctrl-C and SIGTERM from now on (the run is already stopping)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, signal.SIG_IGN)
