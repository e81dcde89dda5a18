"""A bounded pool of worker processes for the server's scoring, checking and compiling.

No request scores in the server's own process: a heavy request (a slow uploaded ruleset,
a large file to compile, waits over every tile) occupies a worker, never the table.

* **Bounded**: ``size`` processes (at least 2), each answering one job at a time.
* **Light work first, whoever sends it.** Every job has a class by what it is expected to
  cost (:func:`job_class`): *light* — a hand scored, its waits or a dispute under a ruleset
  the server holds compiled (a built-in or one it was started with), a sheet's line, a
  round, a ruleset's description; *heavy* — anything that carries an uploaded ruleset's
  text (to compile, then to score or search with). Heavy jobs never hold every worker
  (at most ``size - 1``: the first worker is the light lane's alone), a free worker takes
  a light job before a heavy one, and each class has its own CPU limit. So the table's
  plain hands are answered at once even while one client — the same address or not —
  sends heavy work in a loop: that work waits for the heavy lane, and only that.
* **Fair within a class**: jobs queue per client (its device id where the page sends one,
  else its address); a free worker takes the next client in turn. One client runs at
  most one heavy job at a time. A client address with more than ``queue`` jobs of a class
  waiting is refused at once (429); the caps count per address, so a client cannot make
  room for itself by inventing device ids.
* **A CPU limit per job**: the worker sets its own ``RLIMIT_CPU`` before each job (the
  class's limit); at the limit the job stops with an error (``SIGXCPU``). A worker that
  does not answer within the wall-clock backstop (:func:`wall_backstop`: the CPU limit is what
  stops a busy job; the backstop is for one that hangs, and a loaded machine stretches a
  job's wall-clock time several times over its CPU time) is killed and replaced.
* **Bounded memory**: a worker whose resident memory passed ``rss_limit`` after a job exits
  and is replaced (what an uploaded ruleset compiled into stays in no process for long);
  its cache of compiled uploads holds :data:`UPLOAD_CACHE` small rulesets (a large one is
  compiled each time: scorer.serve.api.CACHE_TEXT).

A job is ``(kind, payload)``, answered by :func:`scorer.serve.api.Api.handle` in the
worker as ``(status, object)``.

>>> import asyncio
>>> async def demo():
...     pool = Pool(size=2)
...     try:
...         return await pool.run("10.0.0.5", ("get", "/api/flags"))
...     finally:
...         pool.close()
>>> status, flags = asyncio.run(demo())
>>> status, flags[0]["flag"]
(200, '--self-draw')
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

LIGHT, HEAVY = "light", "heavy"
CLASSES = (LIGHT, HEAVY)  # in the order a free worker looks at them
# seconds of CPU one job may use: a built-in ruleset's waits take well under a second; a
# heavy job is the one a hostile client sends, so it gets less (the largest upload
# compiles in about 1 s, and its expressions stop at 0.4 s per hand anyway)
CPU_LIMIT = {LIGHT: 8.0, HEAVY: 5.0}
# a worker past this after a job is replaced: one scoring the built-ins stays near 40 MiB;
# one that compiled a large upload keeps about 100 (freed, not given back to the system)
RSS_LIMIT = 96 * 1024 * 1024
UPLOAD_CACHE = 2  # compiled uploaded rulesets a worker keeps
QUEUE = {LIGHT: 32, HEAVY: 24}  # jobs of one address waiting, per class; more: 429


def job_class(job: tuple[Any, ...]) -> str:
    """The class of a job by what it is expected to cost: :data:`HEAVY` when it carries an
    uploaded ruleset's text (or checks one), else :data:`LIGHT`.

    >>> job_class(("post", "/api/score", {"hand": "11m", "flags": ["--rules", "mcr"]}))
    'light'
    >>> job_class(("post", "/api/waits", {"hand": "11m", "files": {"x.yaml": "extends: mcr"}}))
    'heavy'
    >>> job_class(("post", "/api/rules", {"name": "x.yaml", "text": "extends: mcr"}))
    'heavy'
    """
    kind = job[0] if job else None
    if kind == "post":
        body = job[2] if len(job) > 2 else None
        if job[1] == "/api/rules":
            return HEAVY
        return HEAVY if isinstance(body, Mapping) and body.get("files") else LIGHT
    if kind == "record" and len(job) > 2:
        return HEAVY if job[2] else LIGHT
    if kind == "round" and len(job) > 3:
        return HEAVY if job[3] else LIGHT
    return LIGHT


def address_of(client: str) -> str:
    """The address part of a client's key (``ADDRESS`` or ``ADDRESS#DEVICE``).

    >>> address_of("10.0.0.5#k3v9q2"), address_of("::1")
    ('10.0.0.5', '::1')
    """
    return client.partition("#")[0]


def wall_backstop(cpu_limit: float) -> float:
    """Seconds of wall-clock time a job with ``cpu_limit`` seconds of CPU may take before its
    worker is taken for hung: six times the limit, at least a minute.

    >>> wall_backstop(5), wall_backstop(20)
    (60.0, 120.0)
    """
    return max(60.0, cpu_limit * 6.0)


class Busy(Exception):
    """A client sent more work than it may have waiting; ``status`` is the HTTP status,
    ``code`` the error's code (scorer/text/codes.py)."""

    def __init__(self, code: str, status: int = 429) -> None:
        super().__init__(code)
        self.code = code
        self.status = status


@dataclass
class _Job:
    client: str
    job: tuple[Any, ...]
    future: asyncio.Future[tuple[int, Any]]
    cls: str = LIGHT


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    busy: _Job | None = None
    jobs: int = 0


@dataclass
class _Queue:
    """The jobs of one class waiting, per client, and the clients in turn."""

    waiting: dict[str, deque[_Job]] = field(default_factory=dict)
    turn: deque[str] = field(default_factory=deque)  # clients with waiting jobs, in turn
    per_address: dict[str, int] = field(default_factory=dict)  # jobs waiting per address

    def add(self, j: _Job) -> None:
        waiting = self.waiting.setdefault(j.client, deque())
        if not waiting:
            self.turn.append(j.client)
        waiting.append(j)
        a = address_of(j.client)
        self.per_address[a] = self.per_address.get(a, 0) + 1

    def remove(self, j: _Job) -> bool:
        waiting = self.waiting.get(j.client)
        if waiting is None or j not in waiting:
            return False
        waiting.remove(j)
        self._taken(j, waiting)
        return True

    def _taken(self, j: _Job, waiting: deque[_Job]) -> None:
        a = address_of(j.client)
        self.per_address[a] -= 1
        if not self.per_address[a]:
            del self.per_address[a]
        if not waiting:
            del self.waiting[j.client]
            with contextlib.suppress(ValueError):
                self.turn.remove(j.client)

    def next(self, may_run: Any) -> _Job | None:
        """The first waiting job of the next client in turn for which ``may_run(client)``."""
        for _ in range(len(self.turn)):
            client = self.turn[0]
            self.turn.rotate(-1)
            if not may_run(client):
                continue
            waiting = self.waiting[client]
            j = waiting.popleft()
            self._taken(j, waiting)
            return j
        return None

    def jobs(self) -> list[_Job]:
        return [j for w in self.waiting.values() for j in w]


def _rss() -> int:
    """This process's resident memory in bytes (Linux /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class CpuLimit(Exception):
    """Raised inside a worker at its job's CPU limit (SIGXCPU)."""


def _on_xcpu(signum: int, frame: object) -> None:
    raise CpuLimit


def _limit_cpu(seconds: float | None) -> None:
    """Let this process use ``seconds`` more CPU (None: no limit) before SIGXCPU."""
    import resource

    soft_hard = resource.getrlimit(resource.RLIMIT_CPU)
    if seconds is None:
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, soft_hard[1]))
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    now = used.ru_utime + used.ru_stime
    want = int(now + seconds) + 1
    if soft_hard[1] != resource.RLIM_INFINITY:
        want = min(want, soft_hard[1])
    resource.setrlimit(resource.RLIMIT_CPU, (want, soft_hard[1]))


def worker_main(conn: Connection, extra: list[str], rss_limit: int) -> None:
    """A worker's life: answer jobs ``(job, cpu_limit)`` from ``conn`` until it closes or
    memory runs high."""
    os.environ["MJSCORE_NO_CACHE"] = "1"  # no request leads to a write on this machine's disk
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGXCPU, _on_xcpu)
    from .api import Api

    api = Api.from_specs(extra, cache=UPLOAD_CACHE)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job, cpu_limit = conn.recv()
        except (EOFError, OSError):
            return
        try:
            _limit_cpu(cpu_limit)
            answer = api.handle(job)
        except CpuLimit:
            answer = api.cpu_exceeded(job, cpu_limit)
        finally:
            with contextlib.suppress(CpuLimit):
                _limit_cpu(None)
        leaving = bool(rss_limit) and _rss() > rss_limit  # then a fresh worker takes its place
        try:
            conn.send((*answer, leaving))
        except (OSError, ValueError):
            return
        if leaving:
            return


class Pool:
    """``size`` worker processes and the queues in front of them (see the module)."""

    def __init__(self, size: int = 2, extra: Iterable[str] = (),
                 cpu_limit: Mapping[str, float] | float | None = None,
                 rss_limit: int = RSS_LIMIT, queue: Mapping[str, int] | None = None) -> None:
        self.size = max(2, size)
        self.extra = list(extra)
        if isinstance(cpu_limit, (int, float)):
            cpu_limit = {c: float(cpu_limit) for c in CLASSES}
        self.cpu_limit = {**CPU_LIMIT, **(cpu_limit or {})}
        self.rss_limit = rss_limit
        self.queue = {**QUEUE, **(queue or {})}
        self.heavy_slots = self.size - 1  # the first worker is the light lane's alone
        self._ctx = multiprocessing.get_context("spawn")  # no copy of the server's loop
        self._threads = ThreadPoolExecutor(max_workers=self.size, thread_name_prefix="mjscore-job")
        self._q = {c: _Queue() for c in CLASSES}
        self._heavy_running: dict[str, int] = {}  # heavy jobs running per client
        self._workers: list[_Worker | None] = [None] * self.size
        self._starting: set[int] = set()
        self.replaced = 0  # workers replaced (memory, CPU backstop, a crash): for the tests
        self.ran = {c: 0 for c in CLASSES}  # jobs answered per class: for the tests
        self._closed = False

    # -- workers -----------------------------------------------------------------------------
    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=worker_main, args=(child, self.extra, self.rss_limit),
                                 daemon=True)
        proc.start()
        child.close()
        if not parent.poll(60) or parent.recv()[0] != "ready":
            proc.kill()
            raise RuntimeError("a worker process did not start")
        return _Worker(proc, parent)

    def start(self) -> None:
        """Start every worker now (blocking); otherwise each starts with its first job."""
        for i in range(self.size):
            if self._workers[i] is None:
                self._workers[i] = self._spawn()

    def running(self) -> dict[str, int]:
        """Jobs running now, per class.

        >>> Pool(size=2).running()
        {'light': 0, 'heavy': 0}
        """
        heavy = sum(self._heavy_running.values())
        busy = sum(1 for w in self._workers if w is not None and w.busy is not None)
        return {LIGHT: max(0, busy - heavy), HEAVY: heavy}

    def pids(self) -> list[int]:
        """The worker processes' ids (those started)."""
        return [w.proc.pid for w in self._workers if w is not None]

    def close(self) -> None:
        """Stop every worker and fail the jobs still waiting."""
        self._closed = True
        for w in self._workers:
            if w is not None:
                with contextlib.suppress(OSError):
                    w.conn.close()
                w.proc.join(2)
                if w.proc.is_alive():
                    w.proc.kill()
                    w.proc.join(2)
        self._workers = [None] * self.size
        for q in self._q.values():
            for j in q.jobs():
                if not j.future.done():
                    j.future.set_exception(Busy("serve.stopping", 503))
        self._q = {c: _Queue() for c in CLASSES}
        self._threads.shutdown(wait=False, cancel_futures=True)

    # -- the queues --------------------------------------------------------------------------
    async def run(self, client: str, job: tuple[Any, ...]) -> tuple[int, Any]:
        """Run ``job`` for ``client`` (``ADDRESS`` or ``ADDRESS#DEVICE``) in a worker, in the
        client's turn within the job's class; returns ``(status, object)``. Raises
        :class:`Busy` when the client's address has too many jobs of that class waiting."""
        if self._closed:
            raise Busy("serve.stopping", 503)
        cls = job_class(job)
        q = self._q[cls]
        if q.per_address.get(address_of(client), 0) >= self.queue[cls]:
            raise Busy("serve.queue_full")
        loop = asyncio.get_running_loop()
        j = _Job(client, job, loop.create_future(), cls)
        q.add(j)
        self._dispatch()
        try:
            return await j.future
        except asyncio.CancelledError:  # the client went away: drop the job if still waiting
            q.remove(j)
            raise

    def _may_run_heavy(self, client: str) -> bool:
        return not self._heavy_running.get(client)

    def _free(self) -> list[int]:
        """The workers with no job (or none started yet), the light lane's first."""
        out = []
        for i, w in enumerate(self._workers):
            if i not in self._starting and (w is None or w.busy is None):
                out.append(i)
        return out

    def _dispatch(self) -> None:
        """Give every free worker a job: light ones first, the first worker light ones only,
        and heavy ones to at most :attr:`heavy_slots` workers at once."""
        heavy_now = sum(self._heavy_running.values())
        for i in self._free():
            j = self._q[LIGHT].next(lambda c: True)
            if j is None and i > 0 and heavy_now < self.heavy_slots:
                j = self._q[HEAVY].next(self._may_run_heavy)
                if j is not None:
                    heavy_now += 1
            if j is None:
                continue
            if j.cls == HEAVY:
                self._heavy_running[j.client] = self._heavy_running.get(j.client, 0) + 1
            self._starting.add(i)
            asyncio.get_running_loop().create_task(self._serve(i, j))

    async def _serve(self, i: int, j: _Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            w = self._workers[i]
            if w is None or not w.proc.is_alive():
                w = await loop.run_in_executor(self._threads, self._spawn)
                self._workers[i] = w
            w.busy = j
            self._starting.discard(i)
            answer = await self._ask(w, j)
            self.ran[j.cls] += 1
            if not j.future.done():
                j.future.set_result(answer)
        except Exception as e:
            if not j.future.done():
                j.future.set_exception(e)
        finally:
            self._starting.discard(i)
            if j.cls == HEAVY:
                self._heavy_running[j.client] -= 1
                if not self._heavy_running[j.client]:
                    del self._heavy_running[j.client]
            w = self._workers[i]
            if w is not None:
                w.busy = None
                w.jobs += 1
            if not self._closed:
                self._dispatch()

    async def _ask(self, w: _Worker, j: _Job) -> tuple[int, Any]:
        """Send the job, wait for the answer within the backstop; a worker that dies or
        overruns is replaced and the job answered with an error."""
        loop = asyncio.get_running_loop()
        limit = self.cpu_limit[j.cls]
        backstop = wall_backstop(limit)

        def exchange() -> Any:
            w.conn.send((j.job, limit))
            if not w.conn.poll(backstop):
                return None
            return w.conn.recv()

        t0 = time.monotonic()
        try:
            answer = await loop.run_in_executor(self._threads, exchange)
        except (EOFError, OSError):
            answer = None
        if answer is None:
            i = self._workers.index(w)
            self._retire(i)
            from .api import RequestError, error_body, number

            if time.monotonic() - t0 >= backstop:
                e = RequestError("serve.overran", 503, seconds=number(backstop))
            else:
                e = RequestError("serve.worker_lost", 503)
            return e.status, error_body(e, _lang_of(j.job))
        status, obj, leaving = answer
        if leaving:
            self._retire(self._workers.index(w), replaced=True)
        return int(status), obj

    def _retire(self, i: int, replaced: bool = True) -> None:
        w = self._workers[i]
        self._workers[i] = None
        if w is None:
            return
        self.replaced += replaced
        with contextlib.suppress(OSError):
            w.conn.close()
        if w.proc.is_alive():
            w.proc.kill()
        w.proc.join(1)


def _lang_of(job: tuple[Any, ...]) -> str:
    """The language a job's answer is in (its ``lang``; zh when it names none)."""
    from .api import job_lang

    return job_lang(job)
