"""Reading a hand file: its lines decoded and numbered, memory bounded whatever it holds.

The reader of a batch's input (``mjscore batch``, :func:`scorer.cli.batchrun.run`): a line too
long to be a line of hands is given as a :class:`LongLine` of its first characters, which
:func:`scorer.lines.records.score_record` reports as that line's error; bytes that are not UTF-8
become lone surrogates, so that only their line fails.

Not compiled (setup.py): :class:`LongLine` extends ``str``, which a compiled class cannot.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["MAX_LINE", "MAX_LINE_BYTES", "LongLine", "read_lines"]

MAX_LINE = 4096  # characters of one line at most


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
