"""Score many hands: one hand per line, its flags exactly as on the command line.

The unit of work is a pure function of text, :func:`score_record`, so it runs
the same in this process, in a pool of processes (:func:`score_many` with
``jobs``), or under any distributed engine that can map a Python function
over strings::

    >>> rec = score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzhou"])
    >>> rec["best"]["score"], rec["payments"]["E"]
    (2, 12)

:func:`score_many` streams: it reads ahead a bounded number of chunks, so
memory stays flat on a file of any length, and yields records in input order.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import shlex
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from .views.rows import CSV_FIELDS, FORMATS, csv_row, csv_text, render, table_text

__all__ = ["CSV_FIELDS", "Record", "check_defaults", "read_lines", "run", "score_many",
           "score_record", "split_line"]

CHUNK = 128
MAX_LINE = 4096


@dataclass
class Record:
    """The outcome of one input line: ``data`` is the JSON of ``score --json`` plus ``line``;
    ``text`` is the line already rendered in the requested output format (if any)."""

    line: int
    data: dict[str, Any]
    text: str = ""

    @property
    def ok(self) -> bool:
        return "error" not in self.data

    @property
    def error(self) -> str | None:
        err = self.data.get("error")
        return None if err is None else str(err["message"])


def split_line(text: str) -> list[str] | None:
    """Split one line like a shell; None for a blank or comment line.

    >>> split_line("123m456p789s234sP9m --self-draw  # 暴头")
    ['123m456p789s234sP9m', '--self-draw']
    >>> split_line("   # only a comment") is None
    True
    """
    argv = shlex.split(text, comments=True)
    return argv or None


def score_record(text: str, defaults: Sequence[str] = (), line: int = 0,
                 lang: str = "zh") -> dict[str, Any]:
    """Score one line (hand + flags); return the JSON record, or ``{"error": ...}``.

    ``defaults`` are flags that apply to every line (given to ``batch`` itself);
    the line's own flags come after them and so override single-valued ones.
    Never raises for bad input: every failure becomes an error record.
    """
    from .argv import parse
    from .engine.scoring import score
    from .errors import MjscoreError, NotationError
    from .views.report import error_json, to_json

    rec: dict[str, Any]
    try:
        if isinstance(text, LongLine):  # cut short at reading (read_lines): never read whole
            raise NotationError(f"the line is {text.size:,} bytes long; at most {MAX_LINE} "
                                "characters", MAX_LINE + 1)
        if len(text) > MAX_LINE:
            raise NotationError(f"the line is {len(text)} characters long; at most {MAX_LINE}",
                                MAX_LINE + 1)  # where it becomes too long, like a long hand
        bad = next((i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff"), None)
        if bad is not None:
            raise NotationError("the line is not UTF-8 text (a byte that is not UTF-8)", bad + 1)
        try:
            argv = split_line(text)
        except ValueError as e:  # unbalanced quotes
            raise NotationError(f"cannot split the line: {e}") from None
        if argv is None:
            return {"line": line, "skip": True}
        args = parse([*defaults, *argv])
        if args.vs is not None or args.vs_options:
            from .errors import ContextError
            raise ContextError("--vs / --vs-option (dispute mode) work with 'mjscore score', "
                               "not in batch", "--vs")
        result = score(args.hand, args.rules, args.context)
        rec = to_json(result, lang)
    except MjscoreError as e:
        rec = error_json(e, lang)
        rec["error"]["exit"] = e.exit_code
        argument = getattr(e, "argument", 0)
        if argument:  # which argument of the line (after the batch's own flags) is wrong
            rec["error"]["argument"] = argument - len(defaults)
    except Exception as e:  # a bug must not stop the batch: report it on its line
        rec = {"error": {"kind": "internal", "message": f"internal error: {type(e).__name__}: "
                         f"{e}", "exit": 70}}
    rec["line"] = line
    return rec


def _score_chunk(chunk: list[tuple[int, str]], defaults: Sequence[str], lang: str,
                 fmt: str | None = None) -> list[Record]:
    """Score and (in the worker, where it runs in parallel) render a chunk of lines."""
    out = []
    for n, text in chunk:
        rec = score_record(text, defaults, n, lang)
        if rec.get("skip"):
            continue
        r = Record(n, rec)
        if fmt in ("jsonl", "csv"):
            r.text = render(rec, fmt)
        if fmt is not None:
            # keep only what the parent needs: the error, or the few fields of a table row
            r.data = {k: v for k, v in rec.items() if k in ("error", "line")} if fmt != "table" \
                else {"line": n, "row": csv_row(rec), **({"error": rec["error"]} if "error" in rec
                                                         else {})}
        out.append(r)
    return out


def _chunks(lines: Iterable[tuple[int, str]], size: int) -> Iterator[list[tuple[int, str]]]:
    chunk: list[tuple[int, str]] = []
    for item in lines:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def score_many(lines: Iterable[str | tuple[int, str]], defaults: Sequence[str] = (),
               jobs: int = 1, lang: str = "zh", chunk: int = CHUNK,
               fmt: str | None = None) -> Generator[Record, None, None]:
    """Score lines in order, in this process (jobs=1) or in ``jobs`` processes.

    ``lines`` are texts (numbered from 1) or ``(line number, text)`` pairs; blank
    and comment lines are skipped. At most ``4 × jobs`` chunks are in flight, so
    memory does not grow with the input. With ``fmt`` ('jsonl', 'csv', 'table')
    each record arrives rendered in ``Record.text`` (or ``data['row']``) and its
    ``data`` keeps only the error, so the parent process does no rendering.
    """
    numbered = ((i, x) if isinstance(x, str) else x for i, x in enumerate(lines, 1))
    chunks = _chunks(numbered, chunk)
    # Starting processes costs ~0.1 s: score a small input here, and only start the pool
    # once there is more than two chunks of work.
    head = [c for _, c in zip(range(2), chunks, strict=False)] if jobs > 1 else []
    if jobs <= 1 or len(head) < 2:
        # one chunk at a time, read as it is scored: memory does not grow with the input
        for c in itertools.chain(head, chunks):
            yield from _score_chunk(c, defaults, lang, fmt)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)
    try:
        pending: deque[Future[list[Record]]] = deque()
        for c in itertools.chain(head, chunks):
            pending.append(pool.submit(_score_chunk, c, list(defaults), lang, fmt))
            if len(pending) >= 4 * jobs:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except BaseException:  # Ctrl-C, SIGTERM, the caller closing the generator, an error
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _worker_init() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM
    ends the worker at once, and on Linux the worker goes when its parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now, in bounded time: cancel what waits, end every worker, wait a moment.

    ``shutdown(wait=True)`` after Ctrl-C can wait forever (the workers block on the call
    queue, the parent in waitpid); here a second Ctrl-C is ignored while the workers go.
    """
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(timeout=2)
            if p.is_alive():
                p.kill()
                p.join(timeout=1)


class LongLine(str):
    """A line longer than :data:`MAX_LINE` characters, as :func:`read_lines` gives it: its
    first characters only (the rest was skipped unread into memory); ``size`` is its length
    in bytes. :func:`score_record` reports it as an error of that line."""

    size: int = 0


# bytes read of one line at most: MAX_LINE characters of UTF-8 (4 bytes each at most), a
# BOM and a CRLF; a longer line is skipped in blocks of this size
MAX_LINE_BYTES = 4 * MAX_LINE + 8


def _reader(lines: Iterable[bytes]) -> Callable[[int], bytes]:
    """``readline(limit)`` over an iterable of byte lines (each already a whole line)."""
    it = iter(lines)
    return lambda _limit: next(it, b"")


def read_lines(stream: io.BufferedIOBase | Any) -> Iterator[tuple[int, str]]:
    r"""Decode a byte stream line by line, numbering the lines from 1.

    Memory stays bounded whatever the stream holds: a line is read :data:`MAX_LINE_BYTES`
    at a time, and one longer than that (a 200 MB line without a newline) is skipped to its
    end and given as a :class:`LongLine`. A UTF-8 byte order mark on line 1 and a CRLF
    line end are dropped.

    >>> list(read_lines(io.BytesIO(b"\xef\xbb\xbf11m\r\n\n22p")))
    [(1, '11m'), (2, ''), (3, '22p')]
    >>> [(n, type(t).__name__, len(t)) for n, t in read_lines(io.BytesIO(b"1" * 20000 + b"\nx"))]
    [(1, 'LongLine', 4097), (2, 'str', 1)]
    """
    readline: Callable[[int], bytes] = getattr(stream, "readline", None) or _reader(stream)
    n = 0
    while True:
        raw = readline(MAX_LINE_BYTES)
        if not raw:
            return
        n += 1
        if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        size = len(raw)
        if not raw.endswith(b"\n") and size >= MAX_LINE_BYTES:
            more = b""
            while True:  # skip the rest of the line, a block at a time
                more = readline(MAX_LINE_BYTES)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            long = LongLine(raw[:MAX_LINE + 1].decode("utf-8", errors="replace"))
            long.size = size - more.endswith(b"\n")  # the newline is not the line's
            yield n, long
            continue
        # Undecodable bytes become lone surrogates, so that line (and only it) fails with
        # its number and position while the rest of the file is scored.
        text = raw.decode("utf-8", errors="surrogateescape")
        yield n, text.rstrip("\r\n")


# ----------------------------------------------------------------------------- a whole run
def check_defaults(defaults: Sequence[str]) -> None:
    """The flags given to ``batch`` itself must parse as score flags (checked once, up front).

    >>> check_defaults(["--rules", "mcr", "--bogus"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scorer.argv.ArgvError: No such option: --bogus (Possible options: ...)
    """
    from .argv import parse_params
    from .errors import ContextError

    # --rules may be left to the lines (each line that lacks one says so): probe with one
    # in front, which the batch's own --rules, if given, overrides
    probe = parse_params(["1m", "--rules", "hangzhou", *defaults])
    if any(not a.startswith("-") for a in defaults) and probe.get("hand") != "1m":
        raise ContextError("batch takes the hands from the file; other arguments must be flags")


def run(file: str, defaults: Sequence[str], fmt: str = "jsonl", jobs: int | None = None,
        progress: bool | None = None, lang: str = "zh", out: IO[str] | None = None,
        err: IO[str] | None = None) -> int:
    """Score the lines of ``file`` (``-``: standard input) and write them in ``fmt``.

    Bad lines are reported on ``err`` with their number; a summary (lines, failed,
    hands/second) ends the run. Returns the exit status: 1 if any line failed, else 0.
    """
    from .errors import ContextError, Terminated
    from .rules.yamlsafe import printable

    out = out or sys.stdout
    err = err or sys.stderr
    if fmt not in FORMATS:
        raise ContextError(f"--format {fmt}: use jsonl, csv or table", "--format")
    if jobs is not None and not 1 <= jobs <= 256:
        raise ContextError(f"--jobs {jobs}: use 1 to 256", "--jobs")
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
        # a process pool costs ~0.1 s to start: only worth it for a large file
        jobs = (os.cpu_count() or 1) if size is None or size > 64 * 1024 else 1
    show = progress if progress is not None else (err.isatty() and (size or 0) > 1 << 20)
    failed = total = 0
    start = last = time.perf_counter()
    table_rows: list[list[Any]] = []
    if fmt == "csv":
        out.write(csv_text(CSV_FIELDS))
    records = score_many(read_lines(stream), defaults, jobs=jobs, lang=lang, fmt=fmt)
    stopped: tuple[str, int] | None = None
    previous = _handlers()
    signalled = _catch_signals()
    try:
        for rec in records:
            if signalled:  # the signal's exception was swallowed (a __del__, a callback)
                raise KeyboardInterrupt if signalled[0] == signal.SIGINT else Terminated()
            if fmt != "table":
                out.write(rec.text)
            else:
                table_rows.append(csv_row(rec.data))
                if len(table_rows) >= 1000:
                    print(table_text(table_rows), file=out)
                    table_rows.clear()
            # counted once written, so that an interrupted run's count is what it wrote
            total += 1
            if not rec.ok:
                failed += 1
                # a message may echo a file's text: one line, control characters escaped
                print(f"line {rec.line}: {printable(rec.error or '', keep='')}", file=err)
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
    if table_rows:
        print(table_text(table_rows), file=out)
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


def _catch_signals() -> list[int]:
    """Ctrl-C and SIGTERM raise KeyboardInterrupt / Terminated as usual, and are also noted
    in the list returned, which the batch loop looks at after every line: an exception
    raised while Python runs a finaliser is printed and dropped, the note is not."""
    from .errors import Terminated

    seen: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        return seen

    def on_signal(signum: int, frame: Any) -> None:
        seen.append(signum)
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
