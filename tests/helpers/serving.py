"""A live ``mjscore serve`` for the tests: the app under uvicorn on a thread, always stopped."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from scorer.serve.app import create_app
from scorer.serve.guard import Guarded
from scorer.serve.store import Store
from scorer.serve.workers import Pool


@dataclass
class Live:
    """A running server: its address, worker pool and database."""

    server_address: tuple[str, int]
    pool: Pool
    store: Store
    server: uvicorn.Server

    @property
    def url(self) -> str:
        return f"http://{self.server_address[0]}:{self.server_address[1]}"


@contextmanager
def running(db: str | Path, extra: tuple[str, ...] = (), workers: int = 2,
            port: int = 0, **pool_args: float) -> Iterator[Live]:
    """Serve a fresh app (its tables in ``db``) on 127.0.0.1 for the ``with`` block, on a
    daemon thread; stop it and join the thread afterwards (bounded: a stuck server cannot
    hang the suite). ``pool_args`` go to :class:`Pool` (``cpu_limit``, ``rss_limit``).

    Example: ``with running(tmp_path / "t.sqlite3") as srv: srv.url``.
    """
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    pool = Pool(size=workers, extra=extra, **pool_args)  # type: ignore[arg-type]
    store = Store(str(db))
    config = uvicorn.Config(create_app(pool, store), http=Guarded, lifespan="on",
                            log_level="warning", access_log=False, timeout_keep_alive=5)
    server = uvicorn.Server(config)
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    deadline = time.monotonic() + 60
    while not server.started and t.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    host, bound = sock.getsockname()[:2]
    try:
        yield Live((str(host), int(bound)), pool, store, server)
    finally:
        server.should_exit = True
        t.join(15)
        sock.close()


def request(srv: Live, method: str, path: str, body: object = None,
            source: str | None = None, timeout: float = 60) -> tuple[int, object]:
    """One JSON request (from the loopback address ``source``: a device of its own);
    returns (status, decoded JSON, or the text of an answer that is not JSON)."""
    import http.client
    import json

    conn = http.client.HTTPConnection(*srv.server_address, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data,
                 headers={"Content-Type": "application/json"} if data is not None else {})
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    return res.status, json.loads(text) if "json" in (res.getheader("Content-Type") or "") else text
