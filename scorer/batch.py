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
import functools
import heapq
import io
import itertools
import os
import re
import shlex
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from .argv import ArgvError, parse
from .engine.scoring import score
from .errors import MjscoreError, NotationError
from .rules.files import is_path
from .rules.load import load_ruleset
from .rules.model import Ruleset
from .views.jsontext import BODY, error_record, json_body, jsonl_line
from .views.report import error_json, to_json
from .views.rows import CSV_FIELDS, FORMATS, csv_text, jsonl_text, render, table_rows, table_text

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["CSV_FIELDS", "Record", "check_defaults", "ledger_fields", "players_header",
           "read_lines", "run", "score_many", "score_record", "seated", "split_line",
           "typed_hand"]

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
    if _PLAIN_LINE.fullmatch(text):
        # no quote, escape or comment, only the whitespace shlex splits on: what shlex
        # would give, without its character-by-character reader
        return text.split() or None
    argv = shlex.split(text, comments=True)
    return argv or None


# A line shlex would split like str.split: printable ASCII without quotes, backslashes
# or '#', separated by spaces and tabs (str.split also splits on \x0b, \x0c, \x1c-\x1f and
# non-ASCII spaces, where shlex does not).
_PLAIN_LINE = re.compile(r"[ \t!$-&(-\[\]-~]*")


# Flags of a batch line that are not flags of `score`: who sat where (a per-line seating).
PLAYERS_FLAG = "--players"
# Flags of the whole batch run, refused on a line (they cannot change from line to line).
RUN_ONLY = ("--stake", "--totals", "--format", "--jobs", "--progress", "--no-progress")
# An argument that may be one of those (or --players): the others are kept as they are
_BATCH_FLAG = re.compile("|".join(re.escape(f) for f in (PLAYERS_FLAG, *RUN_ONLY)))
# A comment line that sets the seating for the lines after it: `# players: E=Ann,S=Bo,...`
PLAYERS_HEADER = "players:"


def players_header(text: str) -> str | None:
    """The seating a ``# players: SPEC`` comment line sets, or None for any other line.

    >>> players_header("# players: E=Ann,S=Bo,W=Cy,N=Di")
    'E=Ann,S=Bo,W=Cy,N=Di'
    >>> players_header("# a comment") is None
    True
    """
    body = text.strip()
    if not body.startswith("#"):
        return None
    body = body[1:].strip()
    if not body.lower().startswith(PLAYERS_HEADER):
        return None
    return body[len(PLAYERS_HEADER):].strip()


def _take_players(argv: list[str], offset: int = 0
                  ) -> tuple[list[str], str | None, Sequence[int]]:
    """``argv`` without its ``--players SPEC`` (the last one given counts), that SPEC, and
    the 1-based place in ``argv`` of each argument kept (to name a mistake's argument as the
    line has it). A mistake's argument is its place plus ``offset``.

    >>> _take_players(["11m", "--players", "Ann,Bo", "--self-draw"])
    (['11m', '--self-draw'], 'Ann,Bo', [1, 4])
    """
    if _BATCH_FLAG.search(" ".join(argv)) is None:
        # (most lines: no argument is --players or a flag of the run, so all are kept; one
        # search of the joined line finds every argument that starts with one, and at worst
        # more, which the loop below looks at one by one)
        return argv, None, range(1, len(argv) + 1)
    out: list[str] = []
    places: list[int] = []
    spec: str | None = None
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out += argv[i:]
            places += range(i + 1, len(argv) + 1)
            break
        name, eq, value = tok.partition("=")
        if name == PLAYERS_FLAG:
            if not eq:
                if i + 1 >= len(argv):
                    raise ArgvError(f"Option '{PLAYERS_FLAG}' requires an argument.",
                                    PLAYERS_FLAG, offset + i + 1)
                value = argv[i + 1]
                i += 1
            spec = value
        elif name in RUN_ONLY:
            raise ArgvError(f"{name} applies to the whole batch: give it to 'mjscore batch', "
                            "not on a line", name, offset + i + 1)
        else:
            out.append(tok)
            places.append(i + 1)
        i += 1
    return out, spec, places


def typed_hand(argv: Sequence[str]) -> str:
    """The hand as the line typed it: its first argument that is not a flag or a flag's value
    (``""`` if there is none). Used for failed lines, whose hand could not be normalised.

    >>> typed_hand(["--rules", "mcr", "123m5p8", "--self-draw"])
    '123m5p8'
    """
    takes_value = _takes_value()
    skip = False
    for tok in argv:
        if skip:
            skip = False
        elif tok.startswith("--"):
            skip = tok in takes_value
        elif not tok.startswith("-") or len(tok) == 1:
            return tok
    return ""


@functools.cache
def _takes_value() -> frozenset[str]:
    """The flags of a line that take a value (worked out once: every failed line asks)."""
    from .argv import OPTIONS

    return frozenset({n for f in OPTIONS if not f.switch for n in f.names} | {PLAYERS_FLAG})


def score_record(text: str, defaults: Sequence[str] = (), line: int = 0,
                 lang: str = "zh", players: str | None = None, encoded: bool = False
                 ) -> dict[Any, Any]:
    """Score one line (hand + flags); return the JSON record, or ``{"error": ...}``.

    ``defaults`` are flags that apply to every line (given to ``batch`` itself);
    the line's own flags come after them and so override single-valued ones.
    ``players`` is the seating in force for this line (from a ``# players:`` line above
    it); a ``--players`` of the line overrides it, and it overrides one in ``defaults``.
    A record of a hand has ``"kind": "hand"``, one with ``--vs`` is a dispute
    (``"kind": "dispute"``, :func:`scorer.dispute.dispute_json` plus the payment
    differences); with a seating, ``"players": {"E": "Ann", ...}``. A blank or comment
    line gives ``{"skip": True}``. Never raises for bad input: every failure becomes an
    error record, which keeps the line as typed (``"input"``, ``"input_hand"``).

    With ``encoded`` (a batch writing JSON lines), the members of a scored hand's result
    (and of a refused win's found hand) come already encoded, as one
    :class:`~scorer.views.jsontext.Body` under the key :data:`~scorer.views.jsontext.BODY`:
    :func:`~scorer.views.jsontext.jsonl_line` writes the record, byte for byte the JSON
    line of the plain one, and :func:`ledger_fields` reads it.

    >>> rec = score_record("123m456p789s234sP9m --self-draw --players Ann,Bo,Cy,Di",
    ...                    ["--rules", "hangzhou"])
    >>> rec["kind"], rec["unit"], rec["players"]["S"], rec["payments"]["S"]
    ('hand', '番', 'Bo', -4)
    """
    rec: dict[Any, Any]
    argv: list[str] | None = None
    base: Sequence[str] = defaults
    places: Sequence[int] = ()
    seating: dict[str, str] | None = None
    try:
        if isinstance(text, LongLine):  # cut short at reading (read_lines): never read whole
            raise NotationError(f"the line is {text.size:,} bytes long; at most {MAX_LINE} "
                                "characters", MAX_LINE + 1)
        if len(text) > MAX_LINE:
            raise NotationError(f"the line is {len(text)} characters long; at most {MAX_LINE}",
                                MAX_LINE + 1)  # where it becomes too long, like a long hand
        bad = None if text.isascii() else next(  # (an ASCII line holds no lone surrogate)
            (i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff"), None)
        if bad is not None:
            raise NotationError("the line is not UTF-8 text (a byte that is not UTF-8)", bad + 1)
        header = players_header(text) if "#" in text else None
        if header is not None:
            from .ledger import LedgerError, parse_players

            try:
                parse_players(header)
            except LedgerError as e:
                raise LedgerError(f"# players: {e.message.removeprefix('--players ')}",
                                  flag=PLAYERS_FLAG) from None
            return {"line": line, "skip": True, "players_header": header}
        try:
            argv = split_line(text)
        except ValueError as e:  # unbalanced quotes
            raise NotationError(f"cannot split the line: {e}") from None
        if argv is None:
            return {"line": line, "skip": True}
        base, spec_default = _defaults(tuple(defaults))
        own, spec_line, places = _take_players(argv, len(base))
        spec = spec_line if spec_line is not None else (
            players if players is not None else spec_default)
        seating = dict(_seating(spec)) if spec is not None else None
        try:
            args = parse([*base, *own])
        except ArgvError as e:
            if e.flag == "--rules" and e.message.startswith("Missing"):
                raise ArgvError("no ruleset for this line: give it --rules ID, or give --rules "
                                "to 'mjscore batch' for every line", "--rules") from None
            raise
        if args.vs is not None or args.vs_options:
            rec = _dispute_record(args, lang)
        else:
            result = score(args.hand, _ruleset(args.rules), args.context)
            unit = result.ruleset.label("score", lang)
            if encoded:
                rec = {"kind": "hand", BODY: json_body(result, lang), "unit": unit}
            else:
                rec = {"kind": "hand", **to_json(result, lang), "unit": unit}
        if seating is not None:
            rec["players"] = seating
    except MjscoreError as e:
        rec = error_record(e, lang) if encoded else error_json(e, lang)
        rec["error"]["exit"] = e.exit_code
        argument = getattr(e, "argument", 0) - len(base)
        if argument > 0 and argv is not None:
            # which argument of the line (after the batch's own flags) is wrong, counted
            # as the line has it (with its --players)
            rec["error"]["argument"] = places[argument - 1] if argument <= len(places) \
                else argument
        rec["kind"] = "dispute" if argv and any(
            a.partition("=")[0] in ("--vs", "--vs-option") for a in argv) else "hand"
        _keep_input(rec, text, argv)
        if seating is not None:  # who sat at the hand that could not be scored
            rec["players"] = seating
    except Exception as e:  # a bug must not stop the batch: report it on its line
        rec = {"kind": "hand", "error": {"kind": "internal", "message": "internal error: "
                                         f"{type(e).__name__}: {e}", "exit": 70}}
        _keep_input(rec, text, argv)
    rec["line"] = line
    return rec


@functools.lru_cache(maxsize=64)
def _defaults(defaults: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """The batch's own flags without their ``--players``, and that seating: the same for
    every line of a run, so split once.

    >>> _defaults(("--rules", "mcr", "--players", "Ann,Bo"))
    (('--rules', 'mcr'), 'Ann,Bo')
    """
    flags, spec, _ = _take_players(list(defaults))
    return tuple(flags), spec


_BUILTIN: dict[str, Ruleset] = {}


def _ruleset(spec: str) -> Ruleset | str:
    """The ruleset a line names: a built-in id is loaded once per process (its file is
    part of the installed program, and looking at it again cost 11 µs a line); a path is
    left to :func:`~scorer.rules.load.load_ruleset`, which sees an edited file at once.

    >>> _ruleset("mcr").id, _ruleset("my.yaml")
    ('mcr', 'my.yaml')
    """
    hit = _BUILTIN.get(spec)
    if hit is not None:
        return hit
    if is_path(spec):
        return spec
    rs = load_ruleset(spec)  # an unknown id raises here, as score() would
    if rs.trusted and len(_BUILTIN) < 64:
        _BUILTIN[spec] = rs
    return rs


@functools.lru_cache(maxsize=256)
def _seating(spec: str) -> tuple[tuple[str, str], ...]:
    """A seating read once per text (a file repeats the same few): its (seat, name) pairs."""
    from .ledger import parse_players

    return tuple(parse_players(spec).items())


def _keep_input(rec: dict[Any, Any], text: str, argv: Sequence[str] | None) -> None:
    """A failed line keeps what was typed: the line, and its hand as typed."""
    # a byte that was not UTF-8 (a lone surrogate here) is shown as U+FFFD, so the record
    # stays writable as UTF-8
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    rec["input"] = text[:MAX_LINE]
    if argv is None:
        try:
            argv = split_line(text[:MAX_LINE]) or []
        except ValueError:
            argv = text[:MAX_LINE].split()
    rec["input_hand"] = typed_hand(argv)


def _dispute_record(args: Any, lang: str) -> dict[str, Any]:
    """A ``--vs`` line: both sides (as ``score --vs --json``), the rows that differ and each
    seat's payment difference B − A; raises the error when neither side scores."""
    from .dispute import dispute_json, dispute_of

    d = dispute_of(args)
    rec: dict[str, Any] = {"kind": "dispute", **dispute_json(d, lang)}
    # each side's unit beside the sides, which stay exactly what `score --vs --json` prints
    rec["units"] = {k: side.ruleset.label("score", lang) for k, side in (("a", d.a), ("b", d.b))
                    if side.ruleset is not None}
    pa, pb = rec["a"].get("payments"), rec["b"].get("payments")
    if "error" not in rec["a"] and "error" not in rec["b"] and pa and pb:
        rec["payment_differences"] = {s: pb.get(s, 0) - pa.get(s, 0)
                                      for s in ("E", "S", "W", "N") if s in pa or s in pb}
    rec["ruleset"] = rec["a"].get("ruleset", d.a.spec)
    rec["hand"] = rec["a"].get("hand", rec["b"].get("hand", args.hand))
    return rec


def seated(lines: Iterable[tuple[int, str]], players: str | None = None
           ) -> Iterator[tuple[int, str, str | None]]:
    """Each numbered line with the seating a ``# players:`` line above it set (or
    ``players``, the starting one): ``(number, text, seating)``. Reads nothing but the
    comment lines, so it is cheap to run in the process that reads the file.

    >>> list(seated([(1, "# players: Ann,Bo,Cy,Di"), (2, "11m --rules mcr")]))
    [(1, '# players: Ann,Bo,Cy,Di', None), (2, '11m --rules mcr', 'Ann,Bo,Cy,Di')]
    """
    current = players
    for n, text in lines:
        spec = players_header(text) if "#" in text else None
        yield n, text, current
        if spec is not None:
            from .ledger import LedgerError, parse_players

            try:
                parse_players(spec)
                current = spec
            except LedgerError:
                pass  # that line's own record reports the mistake; the seating stays


def ledger_fields(rec: Mapping[Any, Any]) -> dict[str, Any]:
    """What the ledger reads of a record (payments, winner, players; for a dispute the same
    of each side), so a worker process can send back little more than its rendered text.
    An encoded record's (``score_record(..., encoded=True)``) are its Body's ``fields``.

    >>> ledger_fields({"line": 2, "payments": {"E": 2, "S": -2}, "best": {}, "winner": "E"})
    {'line': 2, 'payments': {'E': 2, 'S': -2}, 'winner': 'E'}
    """
    body = rec.get(BODY)
    if body is not None:
        rec = {**rec, **body.fields}
    keep = ("line", "error", "payments", "winner", "players", "skip", "kind")
    out = {k: rec[k] for k in keep if k in rec}
    for side in ("a", "b"):
        if isinstance(rec.get(side), Mapping):
            out[side] = {k: rec[side][k] for k in ("error", "payments", "winner", "players")
                         if k in rec[side]}
    return out


def _score_chunk(chunk: list[tuple[int, str, str | None]], defaults: Sequence[str], lang: str,
                 fmt: str | None = None) -> list[Record]:
    """Score and (in the worker, where it runs in parallel) render a chunk of lines."""
    out = []
    encoded = fmt == "jsonl"  # written here: no record of it is needed but the text
    for n, text, players in chunk:
        rec = score_record(text, defaults, n, lang, players, encoded)
        if rec.get("skip"):
            continue
        r = Record(n, rec)
        if encoded:
            r.text = jsonl_line(rec)
        elif fmt == "csv":
            r.text = render(rec, fmt, lang)
        if fmt is not None:
            # keep only what the parent needs: what the ledger reads, and a table's rows
            r.data = ledger_fields(rec)
            if fmt == "table":
                r.data["rows"] = table_rows(rec, lang)
        out.append(r)
    return out


# A chunk's records as a worker sends them: the line numbers, data and texts as three lists
# (a list of Record objects pickles each one's class and field dict: a third more time)
Packed = tuple[list[int], list[dict[str, Any]], list[str]]


def _score_packed(chunk: list[tuple[int, str, str | None]], defaults: Sequence[str], lang: str,
                  fmt: str | None = None) -> Packed:
    """:func:`_score_chunk`'s records, packed to be sent to the parent (:func:`_unpacked`)."""
    recs = _score_chunk(chunk, defaults, lang, fmt)
    return [r.line for r in recs], [r.data for r in recs], [r.text for r in recs]


def _unpacked(packed: Packed) -> Iterator[Record]:
    """The records of a packed chunk, in order.

    >>> [(r.line, r.ok) for r in _unpacked(_score_packed([(1, "# a comment", None),
    ...                                                    (2, "11m --rules mcr", None)], [],
    ...                                                   "en", "jsonl"))]
    [(2, False)]
    """
    for line, data, text in zip(*packed, strict=True):
        yield Record(line, data, text)


def _warm(defaults: Sequence[str]) -> None:
    """Import the scorer and load the batch's own ``--rules`` here, before the workers
    start: forked workers inherit both instead of each importing and loading them again
    (elsewhere, where workers are spawned, this costs the parent a few milliseconds), the
    ruleset with its pattern loop generated (:meth:`~scorer.rules.plan.Generated.warm`). A
    ruleset that does not load is left to the lines, which report it; returns None."""
    from .engine import scoring  # noqa: F401
    from .errors import MjscoreError
    from .rules.load import load_ruleset
    from .rules.plan import plan_of
    from .views import report  # noqa: F401

    flags, _, _ = _take_players(list(defaults))
    for k, tok in enumerate(flags):
        name, eq, value = tok.partition("=")
        if name == "--rules" and (eq or k + 1 < len(flags)):
            with contextlib.suppress(MjscoreError):
                rs = load_ruleset(value if eq else flags[k + 1])
                # and its pattern loop, generated once here; whatever goes wrong in that
                # leaves the closures to score (a bug there must not stop the batch)
                with contextlib.suppress(Exception):
                    plan_of(rs).generated.warm(rs)


def _chunks(lines: Iterable[tuple[int, str, str | None]], size: int
            ) -> Iterator[list[tuple[int, str, str | None]]]:
    chunk: list[tuple[int, str, str | None]] = []
    for item in lines:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def score_many(lines: Iterable[str | tuple[int, str]], defaults: Sequence[str] = (),
               jobs: int = 1, lang: str = "zh", chunk: int = CHUNK,
               fmt: str | None = None, players: str | None = None
               ) -> Generator[Record, None, None]:
    """Score lines in order, in this process (jobs=1) or in ``jobs`` processes.

    ``lines`` are texts (numbered from 1) or ``(line number, text)`` pairs; blank
    and comment lines are skipped. At most ``4 × jobs`` chunks are in flight, so
    memory does not grow with the input; a line's worker is picked by its text
    (:class:`Affinity`), so that repeated hands meet the caches of one worker. With
    ``fmt`` ('jsonl', 'csv', 'table') each record arrives rendered in ``Record.text`` (or
    ``data['rows']``) and its ``data`` keeps only what the ledger reads
    (:func:`ledger_fields`), so the parent process does no rendering. ``players`` is the
    starting seating; a ``# players:`` line changes it for the lines after it
    (:func:`seated`).
    """
    numbered = ((i, x) if isinstance(x, str) else x for i, x in enumerate(lines, 1))
    if jobs <= 1:  # each line scored as soon as it is read (a pipe may pause)
        for item in seated(numbered, players):
            yield from _score_chunk([item], defaults, lang, fmt)
        return
    chunks = _chunks(seated(numbered, players), chunk)
    # Starting processes costs ~0.1 s: score a small input here, and only start the pool
    # once there is more than two chunks of work.
    head = [c for _, c in zip(range(2), chunks, strict=False)]
    if len(head) < 2:
        # one chunk at a time, read as it is scored: memory does not grow with the input
        for c in itertools.chain(head, chunks):
            yield from _score_chunk(c, defaults, lang, fmt)
        return
    from concurrent.futures import ProcessPoolExecutor  # (a one-job run never needs it)

    _warm(defaults)
    # A single-process pool per job, and each line sent to the pool its text picks
    # (Affinity): the same hand, met again, meets the caches (decompositions, readings,
    # remembered outcomes) of the worker that scored it, instead of every worker filling
    # its own. A shared pool gave a 10,000-line file of 300 hands repeated 28 % more CPU on
    # 2 jobs than on 1. Past MAX_POOLS jobs the workers share MAX_POOLS pools (a pool holds
    # eight descriptors here: 256 pools would pass the usual limit of 1,024).
    sizes = [jobs // MAX_POOLS + (k < jobs % MAX_POOLS) for k in range(MAX_POOLS)] \
        if jobs > MAX_POOLS else [1] * jobs
    pools = [ProcessPoolExecutor(max_workers=n, initializer=_worker_init) for n in sizes]
    try:
        # a round: `chunk` lines per worker, about; at most 4 rounds in flight
        pending: deque[list[Future[Packed]]] = deque()
        pool_of = Affinity(sizes)
        # (the chunks read so far, and the rest, in rounds)
        rounds = _chunks(itertools.chain.from_iterable(itertools.chain(head, chunks)),
                         chunk * jobs)
        for items in rounds:
            parts: list[list[tuple[int, str, str | None]]] = [[] for _ in pools]
            for item in items:
                parts[pool_of(item[1])].append(item)
            futures = []
            for pool, n, part in zip(pools, sizes, parts, strict=True):
                step = max(1, -(-len(part) // n))  # a pool's part in one piece per worker
                futures += [pool.submit(_score_packed, part[k:k + step], list(defaults),
                                        lang, fmt) for k in range(0, len(part), step)]
            pending.append(futures)
            if len(pending) >= 4:
                yield from _merged(pending.popleft())
        while pending:
            yield from _merged(pending.popleft())
    except BaseException:  # Ctrl-C, SIGTERM, the caller closing the generator, an error
        stop_pool(*pools)
        raise
    for pool in pools:
        pool.shutdown(wait=True)


MAX_POOLS = 32


class Affinity:
    """Which of several workers (or pools of workers, ``sizes`` of them each) scores a
    line: a text met before goes where it went, a new one where fewest lines per worker
    went so far. What it remembers is the hashes of the last :attr:`HELD` new texts (about
    2 MB), not the texts; a hash shared by two texts only sends both to one place.

    >>> pick = Affinity(2)
    >>> [pick(t) for t in ["11m", "22m", "11m", "11m", "33m", "22m"]]
    [0, 1, 0, 0, 1, 1]
    """

    HELD = 1 << 15

    def __init__(self, sizes: int | Sequence[int]) -> None:
        self.sizes = [1] * sizes if isinstance(sizes, int) else list(sizes)
        self.load = [0] * len(self.sizes)
        self.known: dict[int, int] = {}

    def __call__(self, text: str) -> int:
        key = hash(text)
        k = self.known.get(key)
        if k is None:
            load, sizes = self.load, self.sizes
            k = min(range(len(load)), key=lambda i: load[i] / sizes[i])
            if len(self.known) >= self.HELD:
                self.known.clear()
            self.known[key] = k
        self.load[k] += 1
        return k


def _merged(futures: list[Future[Packed]]) -> Iterator[Record]:
    """The records of one round's chunks (each in line order), in line order."""
    if len(futures) == 1:
        return _unpacked(futures[0].result())
    return heapq.merge(*(_unpacked(f.result()) for f in futures), key=_line_of)


def _line_of(r: Record) -> int:
    return r.line


def _worker_init() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM
    ends the worker at once, and on Linux the worker goes when its parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def stop_pool(*pools: ProcessPoolExecutor) -> None:
    """Stop pools now, in bounded time: cancel what waits, end every worker, wait a moment.

    ``shutdown(wait=True)`` after Ctrl-C can wait forever (the workers block on the call
    queue, the parent in waitpid); here a second Ctrl-C is ignored while the workers go.
    Every pool's workers are ended first, so each pool's waits below are short.
    """
    global _ABANDONED
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    procs = [p for pool in pools for p in (getattr(pool, "_processes", None) or {}).values()]
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()
    ends = []
    for pool in pools:
        # The chunks not yet taken sit in the pipe to the workers, written by the queue's
        # feeder thread; with the workers gone a full pipe is never read, and exiting would
        # wait for that thread forever (the pool's shutdown joins it): it is not waited for.
        call_queue = getattr(pool, "_call_queue", None)
        # (taken now: shutdown() drops the pool's references to its queues and its thread)
        ends.append((getattr(getattr(pool, "_result_queue", None), "_writer", None),
                     getattr(pool, "_executor_manager_thread", None)))
        if call_queue is not None:
            with contextlib.suppress(Exception):
                call_queue.cancel_join_thread()
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(timeout=2)
            if p.is_alive():
                p.kill()
                p.join(timeout=1)
    # A worker ended while it was sending a chunk's records leaves part of a message in
    # the result pipe, and the pool's manager thread, reading it, waits for the rest for
    # ever: this process holds the pipe's writing end too. Closed here (the workers are
    # gone), the read ends in EOF and the manager stops; else the run would hang after its
    # summary, at exit, where Python joins that thread with no timeout.
    for writer, _ in ends:
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()
    for _, manager in ends:
        if manager is not None:
            with contextlib.suppress(Exception):
                manager.join(timeout=2)
                if manager.is_alive():
                    _ABANDONED = True


_ABANDONED = False  # a stopped pool's manager thread did not end (see stop_pool)


def pool_abandoned() -> bool:
    """Whether a stopped pool left a thread that will not end: the command line then
    leaves at once (``os._exit``) instead of waiting for it at exit.

    >>> pool_abandoned()
    False
    """
    return _ABANDONED


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
    """The flags given to ``batch`` itself must parse as score flags (checked once, up front);
    ``--rules`` may be left to the lines, and ``--players`` must be a seating.

    >>> check_defaults(["--option", "cap=128"])  # no --rules: each line gives its own
    >>> check_defaults(["--rules", "mcr", "--bogus"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scorer.argv.ArgvError: No such option: --bogus (Possible options: ...)
    """
    from .argv import parse_params
    from .errors import ContextError

    flags, spec, _ = _take_players(list(defaults))
    if spec is not None:
        from .ledger import LedgerError, parse_players

        try:
            parse_players(spec)
        except LedgerError as e:
            if e.message.startswith("--players"):
                raise
            raise LedgerError(f"--players {spec}: {e.message.removeprefix('players: ')}",
                              flag="--players") from None
    # a stand-in ruleset first: the batch's own --rules, if given, comes later and wins;
    # --rules may be left to the lines (each line that lacks one says so)
    probe = parse_params(["1m", "--rules", "-", *flags])
    if any(not a.startswith("-") for a in flags) and probe.get("hand") != "1m":
        raise ContextError("batch takes the hands from the file; other arguments must be flags")


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
    from .errors import ContextError, Terminated
    from .rules.yamlsafe import printable

    out = out or sys.stdout
    err = err or sys.stderr
    if fmt not in FORMATS:
        raise ContextError(f"--format {fmt}: use jsonl, csv or table", "--format")
    if jobs is not None and not 1 <= jobs <= 256:
        raise ContextError(f"--jobs {jobs}: use 1 to 256", "--jobs")
    k = None
    if stake is not None:
        from .ledger import parse_stake

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
        from .ledger import Builder, LedgerError
        from .views.ledger import totals_csv_rows, totals_record, totals_table

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
            from .errors import Terminated

            raise KeyboardInterrupt if self.seen[0] == signal.SIGINT else Terminated()


def _catch_signals() -> _Signals:
    """Ctrl-C and SIGTERM raise KeyboardInterrupt / Terminated as usual (unless deferred),
    and are also noted in the object returned, which the batch loop looks at after every
    line: an exception raised while Python runs a finaliser is printed and dropped, the
    note is not."""
    from .errors import Terminated

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
