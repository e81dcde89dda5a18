"""Where a batch writes its records: each record on the output whole, or not at all.

A batch that fills its disk used to stop with the text layer's buffer half written: the
output ended in a cut fragment of a record, so a JSONL reader failed on its last line, and
nothing said how many lines had made it. :class:`Sink` writes records (a JSON line, a CSV
row, a table's block) to the file descriptor itself, in blocks of whole records, and
counts what reached the output; when a write fails (a full disk, an I/O error, a quota)
the bytes of the record it cut are taken back — the file is truncated to the end of the
last whole record, where the output is a regular file — and :class:`WriteFailed` says how
many records the output holds. A pipe or a device is written in pieces the kernel takes
whole or not at all (PIPE_BUF bytes, after waiting until the reader can take them), so only
a record longer than a piece can be cut there, and the summary then says so.

A stream without a file descriptor (a ``StringIO``: a library caller, a test) is written
record by record through its own ``write``.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import stat
from typing import IO, Any, NoReturn

from .output import WRITE_ERRNOS

# A block of whole records is written at once when it reaches this size (or at a flush):
# the text layer's own buffer is 8 KiB, and one system call per 64 KiB costs nothing
BLOCK = 64 * 1024
# What a pipe takes in one write, whole or not at all, once poll() says it can take some
PIPE_BUF = getattr(select, "PIPE_BUF", 512)


class WriteFailed(Exception):
    """The output could not be written: ``records`` counted records are on it, each whole
    (``whole`` is False when a cut one could not be taken back); ``error`` is the OSError."""

    def __init__(self, error: OSError, records: int, whole: bool) -> None:
        super().__init__(error.strerror or str(error))
        self.error, self.records, self.whole = error, records, whole


class Sink:
    """The records of a run, written whole to ``stream`` (see the module docstring).

    ``live``: write each record at once (a pipe read as it comes); else in blocks.
    ``records`` is the number of counted records (hand lines) on the output so far.

    >>> s = Sink(io.StringIO()); s.record("a\\n"); s.record("h\\n", counted=False); s.flush()
    >>> s.records, s.stream.getvalue()
    (1, 'a\\nh\\n')
    """

    def __init__(self, stream: IO[str], live: bool = False) -> None:
        self.stream, self.live = stream, live
        self.records = 0
        self.failed: WriteFailed | None = None
        self.fd = _descriptor(stream)
        self.pending = bytearray()
        self.ends: list[tuple[int, bool]] = []  # (end of a record in pending, counted?)
        self.sent = 0  # bytes of pending already written (the start of a record cut short)
        self.writing = False  # a write and its count are under way (see _write_some)
        self.regular = self.fd is not None and _is_file(self.fd)
        # how a pipe is waited for (poll: POSIX; elsewhere a write may wait itself)
        self.poll: Any = None
        if self.fd is not None and not self.regular and hasattr(select, "poll"):
            self.poll = select.poll()
            self.poll.register(self.fd, select.POLLOUT)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self.errors = getattr(stream, "errors", None) or "strict"

    def isatty(self) -> bool:
        """Whether the output is a terminal."""
        return self.stream.isatty()

    def record(self, text: str, counted: bool = True) -> None:
        """Add one record (its text, line end included); ``counted``: a hand's line, which
        :attr:`records` counts (a header, a marker or the totals are not). Raises
        :class:`WriteFailed` when the output cannot take it."""
        if self.failed is not None:
            raise self.failed
        if self.fd is None:
            self.stream.write(text)
            self.records += counted
            if self.live:
                self.stream.flush()
            return
        data = text.encode(self.encoding, self.errors)
        if self.live and not self.pending and len(data) <= PIPE_BUF:
            # (a record read from a pipe, written at once: one wait, one write, counted)
            self._wait()
            self.writing = True
            try:
                sent = os.write(self.fd, data)
            except OSError as e:
                self._fail(e)
            finally:
                self.writing = False
            if sent == len(data):
                self.records += counted
                return
            self.pending += data
            self.ends.append((len(data), counted))
            self.sent = sent
        else:
            self.pending += data
            self.ends.append((len(self.pending), counted))
        if self.live or len(self.pending) >= BLOCK:
            self.flush()

    def flush(self) -> None:
        """Write every whole record added; raise :class:`WriteFailed` if the output cannot
        take them (the records it holds are then whole)."""
        if self.failed is not None:
            raise self.failed
        if self.fd is None:
            self.stream.flush()
            return
        while self.pending:
            try:
                self._write_some()
            except OSError as e:
                self._fail(e)

    def _fail(self, e: OSError) -> NoReturn:
        """A write failed: take back a record it cut and raise :class:`WriteFailed` (or
        ``e`` itself when it is not about the output being full or broken)."""
        if e.errno not in WRITE_ERRNOS:
            raise e  # a closed pipe (EPIPE), a bad descriptor: not this module's to word
        self.failed = WriteFailed(e, self.records, self._take_back())
        raise self.failed from None

    def _write_some(self) -> None:
        """One write of what is pending, counted at once. While it is written and counted
        :attr:`writing` is set, and a signal handler must then not raise (the batch's does
        not: scorer.cli.batchrun): one that raised between the write and its count would
        leave bytes written and not known, written again at the next flush. On a pipe or a
        terminal, where a write can wait for its reader, the waiting is done first, where
        a signal may stop it (nothing is written yet), and what is then written fits in
        the pipe (PIPE_BUF bytes), so the write itself never waits."""
        fd = self.fd
        assert fd is not None
        end = len(self.pending)
        if not self.regular:
            self._wait()
            end = min(end, self.sent + PIPE_BUF)
        self.writing = True
        try:
            with memoryview(self.pending)[self.sent:end] as view:  # (released: pending shrinks)
                self.sent += os.write(fd, view)
            # the records now wholly written are counted and dropped from pending
            whole = 0
            for at, counted in self.ends:
                if at > self.sent:
                    break
                self.records += counted
                whole += 1
            if whole:
                cut = self.ends[whole - 1][0]
                self.ends = [(at - cut, counted) for at, counted in self.ends[whole:]]
                del self.pending[:cut]
                self.sent -= cut
        finally:
            self.writing = False

    def _wait(self) -> None:
        """Wait until a pipe or terminal can take a write (PIPE_BUF bytes) without waiting;
        a signal may stop the wait (nothing is written yet). A regular file never waits."""
        if self.poll is not None:
            self.poll.poll()

    def _take_back(self) -> bool:
        """Truncate away the bytes written of a record cut short (``sent``); return whether
        the output now ends on a whole record."""
        cut = self.sent
        if cut == 0:
            return True
        assert self.fd is not None
        if not self.regular:
            return False  # (a pipe or device took part of a record: nothing to take back)
        try:
            # the cut record's bytes end where the file's offset is now (also with O_APPEND)
            at = os.lseek(self.fd, 0, os.SEEK_CUR) - cut
            os.ftruncate(self.fd, at)
            os.lseek(self.fd, at, os.SEEK_SET)
        except OSError:
            return False
        self.sent = 0
        return True


def _is_file(fd: int) -> bool:
    """Whether ``fd`` is a regular file (not a pipe, a terminal or a device)."""
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def _descriptor(stream: IO[str]) -> int | None:
    """The file descriptor under a text stream, its buffered text flushed first; None for
    a stream without one (a StringIO)."""
    if isinstance(stream, io.StringIO):
        return None
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    with contextlib.suppress(OSError, ValueError):
        stream.flush()  # (anything written before goes first)
    return fd
