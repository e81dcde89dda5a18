"""A hand file read in blocks, each scored where it is read: line numbers and seating right
across the blocks.

An engine that cuts a file into blocks of whole lines (Dask's ``read_text(path,
blocksize=...)``, Spark's ``textFile``) gives each task the lines of its block, but not what
``mjscore batch`` knows of each line from the lines above it: its number, and the seating a
``# players:`` line above it set (the deal passes between blocks as anywhere else). Two
passes over the blocks make both right, each pass in the workers, with only one small
value per block in the driver:

1. :func:`summary` of each block: how many lines it has, and the seating its last valid
   ``# players:`` line sets (None when it has none);
2. :func:`starts`, in the driver, over those summaries in file order: each block's first
   line number and the seating in force at its first line (a prefix scan);
3. :func:`book` of each block with its start: its records booked into a partial
   :class:`~scorer.table.ledger.Ledger` (or :func:`records`, the records themselves), the
   ledgers then merged in any tree (:meth:`Ledger.merge` is associative).

The lines of a block are texts with or without their line end (as ``read_text`` gives them,
``\\n`` kept); the block that starts the file may begin with a UTF-8 byte order mark, which
is dropped as :func:`scorer.lines.reader.read_lines` drops it. The totals equal ``mjscore
batch FILE --totals``'s however the file is cut:

>>> text = ["# players: Ann,Bo,Cy,Di", "123m456m789p234s55s --self-draw --rules hangzhou",
...         "# players: Bo,Cy,Di,Ann", "123m5p8 --rules hangzhou",
...         "123m456m789p234s55s --self-draw --rules hangzhou"]
>>> cut = [text[:2], text[2:4], text[4:]]
>>> firsts = starts([summary(b) for b in cut])
>>> [(s.line, s.players) for s in firsts]
[(1, None), (3, 'Ann,Bo,Cy,Di'), (5, 'Bo,Cy,Di,Ann')]
>>> from scorer.table.ledger import combine
>>> t = combine(book(b, s) for b, s in zip(cut, firsts)).totals()
>>> t.failed, [(r.name, int(r.net)) for r in t.rows]
((4,), [('Ann', 4), ('Bo', 4), ('Cy', -4), ('Di', -4)])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from ..table.ledger import Builder, Ledger, LedgerError
from .records import score_record, seated, valid_header

__all__ = ["Start", "Summary", "book", "records", "starts", "summary"]


class Summary(NamedTuple):
    """What the blocks after a block need to know of it: its number of lines, and the
    seating its last valid ``# players:`` line sets (None: it sets none)."""

    lines: int
    players: str | None


class Start(NamedTuple):
    """Where a block starts: the number of its first line in the file, and the seating in
    force there (None: the batch's own ``--players``, if any, as at the top of the file)."""

    line: int
    players: str | None


def _texts(lines: Iterable[str], line: int) -> Iterator[tuple[int, str]]:
    """A block's lines numbered from ``line``, without their line ends; the file's first
    line without a byte order mark."""
    for n, text in enumerate(lines, line):
        text = text.rstrip("\r\n")
        yield n, (text[1:] if n == 1 and text.startswith("\ufeff") else text)


def summary(lines: Iterable[str]) -> Summary:
    """A block's :class:`Summary`: its line count and the seating it leaves in force.

    >>> summary(["11m --rules mcr\\n", "# players: Ann,Bo,Cy,Di\\n", "# players: Ann,Ann\\n"])
    Summary(lines=3, players='Ann,Bo,Cy,Di')
    """
    count, players = 0, None
    for _, text in _texts(lines, 2):  # (numbered from 2: no BOM is dropped, none matters)
        count += 1
        spec = valid_header(text)
        if spec is not None:
            players = spec
    return Summary(count, players)


def starts(summaries: Iterable[Sequence[Any]], players: str | None = None) -> list[Start]:
    """Each block's :class:`Start`, from the summaries of the blocks in file order;
    ``players`` is the seating in force at the top of the file (None: the lines' own, or
    the ``--players`` of the defaults).

    >>> for s in starts([Summary(2, None), Summary(3, "Ann,Bo"), Summary(0, None)]):
    ...     print(s)
    Start(line=1, players=None)
    Start(line=3, players=None)
    Start(line=6, players='Ann,Bo')
    """
    out, line = [], 1
    for count, spec in summaries:
        out.append(Start(line, players))
        line += count
        if spec is not None:
            players = spec
    return out


def records(lines: Iterable[str], start: Sequence[Any] = (1, None), defaults: Sequence[str] = (),
            lang: str = "zh") -> list[dict[str, Any]]:
    """The records of a block's lines, as ``mjscore batch`` writes them (the JSON of
    ``score --json`` with ``line``, ``kind`` and the ``players`` in force); blank and
    comment lines give none. A list, not an iterator: a cluster sends it between workers.

    >>> [r["line"] for r in records(["# a comment", "11m --rules mcr"], (7, None))]
    [8]
    """
    return list(_records(lines, start, defaults, lang))


def _records(lines: Iterable[str], start: Sequence[Any], defaults: Sequence[str], lang: str
             ) -> Iterator[dict[str, Any]]:
    line, players = start
    for n, text, seating in seated(_texts(lines, line), players):
        rec = score_record(text, defaults, n, lang, seating)
        if not rec.get("skip"):
            yield rec


def book(lines: Iterable[str], start: Sequence[Any] = (1, None), defaults: Sequence[str] = (),
         ) -> Ledger:
    """A block's records booked into a partial ledger, as ``mjscore batch --totals`` books
    them: a failed line joins ``failed``, and so does a line the ledger refuses (a hand
    without names among hands with names: batch says "not counted in the totals").

    >>> book(["123m5p8 --rules hangzhou"], (4, None)).failed
    (4,)
    """
    ledger = Builder()
    for rec in _records(lines, start, defaults, "zh"):
        try:
            ledger.add(rec, None)
        except LedgerError as e:
            ledger.add({"line": rec["line"], "error": {"message": e.detail}}, None)
    return ledger.ledger()
