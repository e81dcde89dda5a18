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

from ..lines.pool import JOBS_PER_CPU, check_defaults, cpus, max_jobs, score_many
from ..lines.reader import read_lines
from ..text.render import word
from ..views.rows import CSV_FIELDS, FORMATS, csv_text, jsonl_text, table_text
from .sink import Sink, WriteFailed


def run(file: str, defaults: Sequence[str], fmt: str = "jsonl", jobs: int | None = None,
        progress: bool | None = None, lang: str = "zh", out: IO[str] | None = None,
        err: IO[str] | None = None, totals: bool | None = None,
        stake: str | None = None, files: Sequence[str] = (), subtotals: bool = False,
        default_stake: str | None = None, quiet: bool = False,
        totals_csv: str | None = None) -> int:
    """Score the lines of ``file`` (``-``: standard input), then of each of ``files``, and
    write them in ``fmt``.

    Bad lines are reported on ``err`` with their number (and file, when there are several);
    a summary (lines, failed, hands/second) ends the run. With ``totals`` (default: for a
    table written to a terminal, with a ``stake``, or with several files: a season) the
    totals and the transfers that settle them follow the hands, in ``fmt``: a ``"kind":
    "totals"`` JSON line, CSV rows of kind ``totals`` and ``transfer`` under their own header
    rows, or a table. Several files are totalled together, a name being one person in all
    of them; before each file's lines comes a ``"kind": "file"`` record (a ``file`` CSV row,
    a ``== FILE`` line), and with ``subtotals`` each file's own totals follow its lines
    (``"kind": "subtotals"``). ``default_stake`` (the environment's or the config file's)
    is the stake when ``stake`` is None, without turning the totals on. With ``quiet``
    neither the summary nor the progress line is written (a failed line still is). With
    ``totals_csv`` (a path) the totals are on, and they, their transfers and the subtotals
    go to that file as one CSV table (:data:`scorer.views.ledger.TOTALS_FILE_HEADER`), not
    to ``out``: a CSV output is then the one table of the hands.
    Returns the exit status: 1 if any line failed, else 0.
    """
    from ..errors import ContextError

    out = out or sys.stdout
    err = err or sys.stderr
    paths = [file, *files]
    if fmt not in FORMATS:
        raise ContextError("batch.format", "--format", value=fmt)
    if jobs is not None and jobs < 1:
        raise ContextError("batch.jobs", "--jobs", value=jobs)
    if jobs is not None and jobs > max_jobs():
        # more workers than CPUs only share them: capped, and said after the run
        from ..rules.notices import Notice, note

        note(Notice("notice.jobs_capped", {"asked": jobs, "cap": max_jobs(), "cpus": cpus(),
                                           "times": JOBS_PER_CPU}))
        jobs = max_jobs()
    if paths.count("-") > 1:
        raise ContextError("file.stdin_twice")
    k = None
    if stake is not None:
        from ..table.ledger import parse_stake

        k = parse_stake(stake)
    if totals is None:
        totals = k is not None or subtotals or len(paths) > 1 or (
            fmt == "table" and out.isatty())
    if k is None and default_stake is not None:
        from ..table.ledger import parse_stake

        k = parse_stake(default_stake)
    check_defaults(defaults)
    side = _side_file(totals_csv) if totals_csv is not None else None
    totals = totals or side is not None
    # each record reaches the output whole or not at all (a full disk: scorer.cli.sink)
    run = _Run(Sink(out), err, fmt, lang, totals, False if quiet else progress, jobs,
               several=len(paths) > 1, quiet=quiet, side=side)
    previous = _handlers()
    signalled = _catch_signals(run.out)
    try:
        if fmt == "csv":
            run.out.record(csv_text(CSV_FIELDS), counted=False)
        for path in paths:
            run.file(path, defaults, signalled)
            if subtotals and totals and run.stopped is None:
                run.write_totals(run.parts[-1], k, path)
            if run.stopped is not None:
                break
        if totals:
            run.write_season(k, paths)
        run.out.flush()
    except WriteFailed as e:
        return run.write_failed(e)
    finally:
        _restore(previous)  # a library caller keeps its own handlers
        if side is not None:
            run.close_side(side)
    return run.summary()


def _side_file(path: str) -> IO[str]:
    """The ``--totals-csv`` file, opened for writing before any line is scored (a path
    that cannot be written is refused at once, exit 2); :meth:`_Run.close_side` writes and
    closes it."""
    from ..errors import ContextError, os_reason

    try:
        return open(path, "w", encoding="utf-8", newline="")  # closed by close_side
    except (OSError, ValueError) as e:
        raise ContextError("file.cannot_open", "--totals-csv", name=path,
                           **os_reason(e)) from None


class _Run:
    """One batch run over one or more files: what was written and counted, the ledgers."""

    def __init__(self, out: Sink, err: IO[str], fmt: str, lang: str, totals: bool,
                 progress: bool | None, jobs: int | None, several: bool,
                 quiet: bool = False, side: IO[str] | None = None) -> None:
        self.out, self.err, self.fmt, self.lang, self.quiet = out, err, fmt, lang, quiet
        # --totals-csv: the totals' rows, kept for that file (TOTALS_FILE_HEADER)
        self.side: list[list[Any]] | None = [] if side is not None else None
        self.totals, self.progress, self.jobs, self.several = totals, progress, jobs, several
        self.failed = self.total = 0
        self.start = self.last = time.perf_counter()
        self.stopped: tuple[str, int] | None = None
        self.parts: list[Any] = []  # each file's ledger (scorer.table.ledger.Ledger)
        self.jobs_used = jobs or 1
        self.show = False

    def file(self, path: str, defaults: Sequence[str], signalled: _Signals) -> None:
        """Score one file's lines and write them; its ledger joins ``parts``."""
        from ..errors import Terminated
        from ..rules.yamlsafe import printable

        out, err, fmt, lang = self.out, self.err, self.fmt, self.lang
        stream, size = _opened(path)
        jobs = self.jobs if self.jobs is not None else _jobs_for(size)
        self.jobs_used = max(self.jobs_used, jobs)
        self.show = self.progress if self.progress is not None else _shows_progress(err, size)
        where = f"{path}: " if self.several else ""
        if self.several:
            self.marker(path)
        table_rows_: list[list[Any]] = []
        if self.totals:  # (the ledger's modules are imported only for a run that settles)
            from ..table.ledger import Builder

            ledger = Builder()
        records = score_many(read_lines(stream), defaults, jobs=jobs, lang=lang, fmt=fmt)
        # lines from a pipe or a terminal may come slowly: each answer is written at once
        out.live = size is None and fmt != "table"
        try:
            for rec in records:
                signalled.raise_if_seen()  # its exception was swallowed (a __del__, a callback)
                # a signal while a record is written and counted waits until both are done:
                # the output stays line-whole and the summary's count is what was written
                signalled.defer = True
                # counted once written, so that an interrupted run's count is what it wrote
                # (and before a live record reaches its reader: a signal may come as soon
                # as the reader has it)
                self.total += 1
                if fmt != "table":
                    out.record(rec.text)
                else:
                    table_rows_ += rec.data.get("rows", ())
                    if len(table_rows_) >= 1000:
                        out.record(table_text(table_rows_, lang) + "\n")
                        table_rows_.clear()
                if not rec.ok:
                    self.failed += 1
                    # a message may echo a file's text: one line, control characters escaped
                    print(f"{where}{word('where.line', lang, n=rec.line)}"
                          f"{printable(rec.error or '', keep='')}", file=err)
                if self.totals:
                    self.book(ledger, rec, where)
                signalled.defer = False
                signalled.raise_if_seen()
                if self.show and time.perf_counter() - self.last > 0.25:
                    self.progress_line()
        except KeyboardInterrupt:
            self.stopped = ("interrupted", 130)
        except Terminated:
            self.stopped = ("terminated", 143)
        finally:
            self.close(records, stream)
        if table_rows_:
            out.record(table_text(table_rows_, lang) + "\n")
        if self.totals:
            self.parts.append(ledger.ledger())

    def close(self, records: Any, stream: Any) -> None:
        """Stop the file's worker processes, if any (``score_many``), and close the file; a
        second Ctrl-C while the workers stop must not hang."""
        if self.stopped is not None:
            _ignore_signals()
        records.close()
        if stream is not sys.stdin.buffer:
            stream.close()

    def book(self, ledger: Any, rec: Any, where: str) -> None:
        """Add a record to the file's ledger; a failed line joins the totals' "failed", and
        one the ledger refuses (names on some hands and not on others) is said and counted
        failed."""
        from ..rules.yamlsafe import printable
        from ..table.ledger import LedgerError

        try:
            ledger.add(rec, None)
        except LedgerError as e:
            self.failed += 1
            print(f"{where}{word('where.line', self.lang, n=rec.line)}"
                  f"{word('not_in_totals', self.lang)}"
                  f"{printable(e.detail_in(self.lang), keep='')}", file=self.err)
            ledger.add({"line": rec.line, "error": {"message": e.detail}}, None)

    def progress_line(self) -> None:
        """The progress line (on stderr, overwritten in place)."""
        from ..text.render import word

        self.last = time.perf_counter()
        print("\r" + word("batch_progress", self.lang, **self._counts()), end="",
              file=self.err, flush=True)

    def _counts(self) -> dict[str, str]:
        """The summary's and the progress line's numbers, worded (a count with its
        singular: 1 line, 2 lines)."""
        from ..text.render import word

        rate = self.total / max(time.perf_counter() - self.start, 1e-9)
        jobs = self.jobs_used
        return {"lines": word("n_lines", self.lang, n=self.total, count=f"{self.total:,}"),
                "failed": f"{self.failed:,}", "rate": f"{rate:,.0f}",
                "jobs": word("n_jobs", self.lang, n=jobs, count=f"{jobs:,}")}

    def marker(self, path: str) -> None:
        """Where a file's lines begin, in the run's format."""
        if self.fmt == "jsonl":
            self.out.record(jsonl_text({"kind": "file", "file": path}), counted=False)
        elif self.fmt == "csv":
            self.out.record(csv_text(["file", path]), counted=False)
        else:
            self.out.record(f"{'' if self.total == 0 else chr(10)}== {path}\n", counted=False)

    def write_totals(self, ledger: Any, k: Any, path: str | None = None) -> None:
        """One file's subtotals (``path``), in the run's format."""
        from ..views.ledger import subtotals_csv_rows, totals_record, totals_table

        t = ledger.totals(k if k is not None else 1)
        if self.side is not None:
            from ..views.ledger import totals_file_rows

            self.side += totals_file_rows(t, path or "", "subtotals")
        elif self.fmt == "jsonl":
            self.out.record(jsonl_text({**totals_record(t), "kind": "subtotals", "file": path}),
                            counted=False)
        elif self.fmt == "csv":
            self.out.record("".join(csv_text(row) for row in subtotals_csv_rows(t, path or "")),
                            counted=False)
        else:
            from ..views.i18n import t as word

            self.out.record("\n" + word("subtotals_of", self.lang, file=path) + "\n"
                            + totals_table(t, lang=self.lang) + "\n", counted=False)

    def write_season(self, k: Any, paths: Sequence[str]) -> None:
        """The totals of every file read, as one ledger (a name is one person throughout)."""
        from ..errors import ContextError
        from ..table.ledger import Ledger, LedgerError
        from ..views.ledger import (
            season_places,
            season_record,
            totals_csv_rows,
            totals_record,
            totals_table,
        )

        season = Ledger()
        for path, part in zip(paths, self.parts, strict=False):
            try:
                season = season.merge(part)
            except LedgerError:
                named = part.by == "player"
                raise ContextError("batch.season_named" if named else "batch.season_unnamed",
                                   "--players", path=path) from None
        t = season.totals(k if k is not None else 1)
        several = len(self.parts) > 1
        if self.side is not None:
            from ..views.ledger import totals_file_rows

            self.side += totals_file_rows(t)
        elif self.fmt == "jsonl":
            self.out.record(jsonl_text(season_record(t, list(zip(paths, self.parts,
                                                                 strict=False)))
                                       if several else totals_record(t)), counted=False)
        elif self.fmt == "csv":
            self.out.record("".join(csv_text(row) for row in totals_csv_rows(t, header=True)),
                            counted=False)
        else:
            from ..views.i18n import t as word

            head = word("season_of", self.lang, n=len(self.parts)) + "\n" if several else ""
            places = season_places(list(zip(paths, self.parts, strict=False))) if several \
                else None
            self.out.record(("\n" if self.total else "") + head
                            + totals_table(t, lang=self.lang, places=places) + "\n",
                            counted=False)

    def close_side(self, side: IO[str]) -> None:
        """Write the ``--totals-csv`` file (its header, then the rows kept) and close it; a
        file that cannot be written is said as stdout's would be (exit 74)."""
        from ..views.ledger import TOTALS_FILE_HEADER

        try:
            with side:
                side.write("".join(csv_text(row) for row in [TOTALS_FILE_HEADER, *(self.side or ())]))
        except OSError as e:
            from .output import write_failed

            write_failed(e, self.lang)

    def write_failed(self, e: WriteFailed) -> int:
        """The output could not be written: the error in one line, then the summary, which
        says how many lines the output holds (each whole); returns the exit status, 74."""
        from ..text.render import word
        from .output import EXIT_IOERR, cannot_write

        if self.show:
            print("\r" + " " * 60 + "\r", end="", file=self.err)
        print(f"mjscore: {cannot_write(e.error, self.lang)}", file=self.err)
        held = word("output.held_whole" if e.whole else "output.held_cut", self.lang,
                    count=f"{e.records:,}")
        counts = self._counts()
        print(word("output.batch_stopped", self.lang, written=f"{e.records:,}", held=held,
                   failed=counts["failed"], rate=counts["rate"], jobs=counts["jobs"],
                   scored=f"{self.total:,}"), file=self.err, flush=True)
        return EXIT_IOERR

    def summary(self) -> int:
        """The summary line on stderr (none when quiet); returns the exit status."""
        from ..text.render import word

        if self.show:
            print("\r" + " " * 60 + "\r", end="", file=self.err)
        if not self.quiet or self.stopped:  # (a run stopped says where it stopped)
            text = word("batch_stopped", self.lang, stop=self.stopped[0], **self._counts()) \
                if self.stopped else word("batch_summary", self.lang, **self._counts())
            print(text, file=self.err, flush=True)
        if self.stopped:
            return self.stopped[1]
        return 1 if self.failed else 0


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


def _catch_signals(out: Sink | None = None) -> _Signals:
    """Ctrl-C and SIGTERM raise KeyboardInterrupt / Terminated as usual (unless deferred),
    and are also noted in the object returned, which the batch loop looks at after every
    line: an exception raised while Python runs a finaliser is printed and dropped, the
    note is not. Never while ``out`` writes and counts a block (:meth:`Sink._write_some`:
    its waiting for a slow reader is done before, where a signal stops it)."""
    from ..errors import Terminated

    seen = _Signals()
    if threading.current_thread() is not threading.main_thread():
        return seen

    def on_signal(signum: int, frame: Any) -> None:
        seen.seen.append(signum)
        # deferred while a record is written; a second signal stops even that (a write
        # blocked on a full pipe must not keep the run from stopping)
        if (not seen.defer or len(seen.seen) > 1) and not (out is not None and out.writing):
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


def _opened(path: str) -> tuple[Any, int | None]:
    """The binary stream of a batch file (``-``: standard input) and its size (None for
    standard input); ContextError if it cannot be read."""
    from ..errors import ContextError, os_reason

    if path == "-":
        return sys.stdin.buffer, None
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as e:
        raise ContextError("file.unreadable", path=path, **os_reason(e)) from None
    return stream, os.fstat(stream.fileno()).st_size


def _jobs_for(size: int | None) -> int:
    """The jobs for a file of ``size`` bytes when --jobs is not given: a process pool costs
    ~0.1 s to start, only worth it for a large file; a pipe or a terminal (no size) is
    read as it comes, each line answered at once, so one job."""
    return cpus() if size is not None and size > 64 * 1024 else 1


def _shows_progress(err: Any, size: int | None) -> bool:
    """Whether a progress line is drawn when --progress is not given: on a terminal, for a
    file over a megabyte."""
    return bool(err.isatty()) and (size or 0) > 1 << 20
