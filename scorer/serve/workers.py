"""A bounded pool of worker processes for the server's scoring, checking and compiling.

No request scores in the server's own process: a heavy request (a slow uploaded ruleset,
a large file to compile, waits over every tile) occupies one worker, never the table.

* **Bounded**: ``size`` processes (at least 2), each answering one job at a time.
* **Fair**: jobs queue per client (its address); a free worker takes the next client in
  turn, and one client never runs more than ``per_client`` jobs at once, so a client that
  sends heavy work in a loop holds one worker while the others keep answering the table.
  A client with more than ``queue_per_client`` jobs waiting is refused at once (429).
* **A CPU limit per job**: the worker sets its own ``RLIMIT_CPU`` before each job; at the
  limit the job stops with an error (``SIGXCPU``). A worker that does not answer within
  the wall-clock backstop (twice the limit and a bit) is killed and replaced.
* **Bounded memory**: a worker whose resident memory passed ``rss_limit`` after a job exits
  and is replaced (what an uploaded ruleset compiled into stays in no process for long);
  its cache of compiled uploads holds :data:`UPLOAD_CACHE` rulesets.

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
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

CPU_LIMIT = 8  # seconds of CPU one job may use (a heavy upload compiles in about 3)
RSS_LIMIT = 140 * 1024 * 1024  # a worker past this after a job is replaced
UPLOAD_CACHE = 2  # compiled uploaded rulesets a worker keeps
PER_CLIENT = 1  # jobs of one client running at once (with 2 workers: the other stays free)
QUEUE_PER_CLIENT = 8  # jobs of one client waiting; more are refused (429)


class Busy(Exception):
    """A client sent more work than it may have waiting; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 429) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Job:
    client: str
    job: tuple[Any, ...]
    future: asyncio.Future[tuple[int, Any]]


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    busy: _Job | None = None
    jobs: int = 0


@dataclass
class _Queues:
    waiting: dict[str, deque[_Job]] = field(default_factory=dict)
    turn: deque[str] = field(default_factory=deque)  # clients with waiting jobs, in turn
    running: dict[str, int] = field(default_factory=dict)


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


def worker_main(conn: Connection, extra: list[str], cpu_limit: float, rss_limit: int) -> None:
    """A worker's life: answer jobs from ``conn`` until it closes or memory runs high."""
    os.environ["MJSCORE_NO_CACHE"] = "1"  # no request leads to a write on this machine's disk
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGXCPU, _on_xcpu)
    from .api import Api

    api = Api.from_specs(extra, cache=UPLOAD_CACHE)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
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
    """``size`` worker processes and the fair queue in front of them (see the module)."""

    def __init__(self, size: int = 2, extra: Iterable[str] = (), cpu_limit: float = CPU_LIMIT,
                 rss_limit: int = RSS_LIMIT, per_client: int = PER_CLIENT,
                 queue_per_client: int = QUEUE_PER_CLIENT) -> None:
        self.size = max(2, size)
        self.extra = list(extra)
        self.cpu_limit, self.rss_limit = cpu_limit, rss_limit
        self.per_client, self.queue_per_client = per_client, queue_per_client
        self._ctx = multiprocessing.get_context("spawn")  # no copy of the server's loop
        self._threads = ThreadPoolExecutor(max_workers=self.size, thread_name_prefix="mjscore-job")
        self._q = _Queues()
        self._workers: list[_Worker | None] = [None] * self.size
        self._starting: set[int] = set()
        self.replaced = 0  # workers replaced (memory, CPU backstop, a crash): for the tests
        self._closed = False

    # -- workers -----------------------------------------------------------------------------
    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=worker_main, args=(child, self.extra, self.cpu_limit,
                                                           self.rss_limit), daemon=True)
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
        for jobs in self._q.waiting.values():
            for j in jobs:
                if not j.future.done():
                    j.future.set_exception(Busy("the server is stopping", 503))
        self._q.waiting.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)

    # -- the queue ---------------------------------------------------------------------------
    async def run(self, client: str, job: tuple[Any, ...]) -> tuple[int, Any]:
        """Run ``job`` for ``client`` in a worker, in the client's turn; returns
        ``(status, object)``. Raises :class:`Busy` when the client has too much waiting."""
        if self._closed:
            raise Busy("the server is stopping", 503)
        waiting = self._q.waiting.setdefault(client, deque())
        if len(waiting) >= self.queue_per_client:
            raise Busy("too many requests at once from this device; wait for the answers")
        loop = asyncio.get_running_loop()
        j = _Job(client, job, loop.create_future())
        if not waiting:
            self._q.turn.append(client)
        waiting.append(j)
        self._dispatch()
        try:
            return await j.future
        except asyncio.CancelledError:  # the client went away: drop the job if still waiting
            if j in waiting:
                waiting.remove(j)
                if not waiting:
                    self._forget(client)
            raise

    def _forget(self, client: str) -> None:
        self._q.waiting.pop(client, None)
        with contextlib.suppress(ValueError):
            self._q.turn.remove(client)

    def _next_job(self) -> _Job | None:
        """The first waiting job of the next client in turn that may run one more."""
        for _ in range(len(self._q.turn)):
            client = self._q.turn[0]
            self._q.turn.rotate(-1)
            if self._q.running.get(client, 0) >= self.per_client:
                continue
            jobs = self._q.waiting[client]
            j = jobs.popleft()
            if not jobs:
                self._forget(client)
            return j
        return None

    def _dispatch(self) -> None:
        for i in range(self.size):
            w = self._workers[i]
            if (w is not None and w.busy is not None) or i in self._starting:
                continue
            j = self._next_job()
            if j is None:
                return
            self._q.running[j.client] = self._q.running.get(j.client, 0) + 1
            asyncio.get_running_loop().create_task(self._serve(i, j))
            self._starting.add(i)

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
            if not j.future.done():
                j.future.set_result(answer)
        except Exception as e:
            if not j.future.done():
                j.future.set_exception(e)
        finally:
            self._starting.discard(i)
            self._q.running[j.client] -= 1
            if not self._q.running[j.client]:
                del self._q.running[j.client]
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
        backstop = self.cpu_limit * 2 + 5
        t0 = time.monotonic()

        def exchange() -> Any:
            w.conn.send(j.job)
            if not w.conn.poll(backstop):
                return None
            return w.conn.recv()

        try:
            answer = await loop.run_in_executor(self._threads, exchange)
        except (EOFError, OSError):
            answer = None
        if answer is None:
            i = self._workers.index(w)
            self._retire(i)
            overran = time.monotonic() - t0 >= backstop
            from .api import RequestError, error_body

            e = RequestError(f"the request ran for more than {backstop:g} s and was stopped"
                             if overran else "the request stopped its worker; try again", 503)
            return e.status, error_body(e)
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
