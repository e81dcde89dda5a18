"""Score many hands: one hand per line, its flags exactly as on the command line.

The unit of work is a pure function of text, :func:`~scorer.lines.records.score_record` (in
:mod:`scorer.lines.records`, with the rest of what is done per line; the file is read by
:mod:`scorer.lines.reader`), so it runs the same in this process, in a pool of processes
(:func:`score_many` with ``jobs``), or under any distributed engine that can map a
Python function over strings::

    >>> rec = score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzhou"])
    >>> rec["best"]["score"], rec["payments"]["E"]
    (2, 12)

:func:`score_many` streams: it reads ahead a bounded number of chunks, so
memory stays flat on a file of any length, and yields records in input order.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..memo import Memo
from ..views.rows import CSV_FIELDS
from .reader import read_lines
from .records import (
    Packed,
    Record,
    _score_chunk,
    _score_packed,
    _take_players,
    _unpacked,
    ledger_fields,
    players_header,
    score_record,
    seated,
    split_line,
    typed_hand,
)

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["CSV_FIELDS", "Record", "check_defaults", "ledger_fields", "players_header",
           "read_lines", "score_many", "score_record", "seated", "split_line",
           "typed_hand"]

CHUNK = 128
# The most worker processes a run starts, per CPU it may use: past the CPUs more workers only
# share them, each holding its own interpreter and caches (about 30 MB), so --jobs 256 on
# two cores started 242 processes and took 5.5 GB for a 2,000-line file
JOBS_PER_CPU = 4


def _warm(defaults: Sequence[str]) -> None:
    """Import the scorer and load the batch's own ``--rules`` here, before the workers
    start: forked workers inherit both instead of each importing and loading them again
    (elsewhere, where workers are spawned, this costs the parent a few milliseconds), the
    ruleset with its pattern loop generated (:meth:`~scorer.rules.plan.Generated.warm`). A
    ruleset that does not load is left to the lines, which report it; returns None."""
    from ..engine import scoring  # noqa: F401
    from ..errors import MjscoreError
    from ..rules.load import load_ruleset
    from ..rules.plan import plan_of
    from ..views import jsontext  # noqa: F401

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


def cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else all).

    >>> cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # (not Linux)
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most jobs a run uses: :data:`JOBS_PER_CPU` times :func:`cpus`.

    >>> max_jobs() == JOBS_PER_CPU * cpus()
    True
    """
    return JOBS_PER_CPU * cpus()


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
    (:func:`seated`). ``jobs`` above :func:`max_jobs` is that many.
    """
    jobs = min(jobs, max_jobs())
    numbered = ((i, x) if isinstance(x, str) else x for i, x in enumerate(lines, 1))
    if jobs <= 1:  # each line scored as soon as it is read (a pipe may pause)
        for item in seated(numbered, players):
            yield from _score_chunk([item], defaults, lang, fmt)
        return
    items = seated(numbered, players)
    # Starting processes costs ~0.1 s: score a small input here, and only start the pool
    # once there is more than two chunks of work.
    head = list(itertools.islice(items, 2 * chunk))
    if len(head) <= chunk:
        yield from _score_chunk(head, defaults, lang, fmt)
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
        # (the lines read so far, and the rest, in rounds)
        for lines_ in _chunks(itertools.chain(head, items), chunk * jobs):
            parts = pool_of.parts(lines_)
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
        self.known: Memo[int, int] = Memo(self.HELD)

    def __call__(self, text: str) -> int:
        key = hash(text)
        k = self.known.get(key)
        if k is None:
            load, sizes = self.load, self.sizes
            k = self.known.put(key, min(range(len(load)), key=lambda i: load[i] / sizes[i]))
        self.load[k] += 1
        return k

    def parts(self, items: Iterable[tuple[int, str, str | None]]
              ) -> list[list[tuple[int, str, str | None]]]:
        """``items`` (numbered lines) dealt to the workers as :meth:`__call__` deals their
        texts, in order: one list per worker (one call a round, not one a line).

        >>> Affinity(2).parts([(1, "11m", None), (2, "22m", None), (3, "11m", None)])
        [[(1, '11m', None), (3, '11m', None)], [(2, '22m', None)]]
        """
        out: list[list[tuple[int, str, str | None]]] = [[] for _ in self.sizes]
        known, load = self.known, self.load
        for item in items:
            k = known.get(hash(item[1]))
            if k is None:
                k = self(item[1])
            else:
                load[k] += 1
            out[k].append(item)
        return out


def _merged(futures: list[Future[Packed]]) -> Iterator[Record]:
    """The records of one round's chunks (each in line order), in line order: the round's
    line numbers sorted once (heapq.merge's Python-level generator cost the parent 3 µs a
    record, which on two cores it takes from the workers)."""
    if len(futures) == 1:
        return _unpacked(futures[0].result())
    lines: list[int] = []
    data: list[dict[str, Any]] = []
    texts: list[str] = []
    for f in futures:
        a, b, c = f.result()
        lines += a
        data += b
        texts += c
    order = sorted(range(len(lines)), key=lines.__getitem__)
    return map(Record, [lines[i] for i in order], [data[i] for i in order],
               [texts[i] for i in order])


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



# ----------------------------------------------------------------------------- a whole run
def check_defaults(defaults: Sequence[str]) -> None:
    """The flags given to ``batch`` itself must parse as score flags (checked once, up front);
    ``--rules`` may be left to the lines, and ``--players`` must be a seating.

    >>> check_defaults(["--option", "cap=128"])  # no --rules: each line gives its own
    >>> check_defaults(["--rules", "mcr", "--bogus"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scorer.lines.grammar.ArgvError: No such option: --bogus (Possible options: ...)
    """
    from ..errors import ContextError
    from .grammar import parse_params

    flags, spec, _ = _take_players(list(defaults))
    if spec is not None:
        from ..table.ledger import parse_players

        parse_players(spec)  # a LedgerError names --players and the position in it
    # a stand-in ruleset first: the batch's own --rules, if given, comes later and wins;
    # --rules may be left to the lines (each line that lacks one says so)
    probe = parse_params(["1m", "--rules", "-", *flags])
    if any(not a.startswith("-") for a in flags) and probe.get("hand") != "1m":
        raise ContextError("batch.argument")
