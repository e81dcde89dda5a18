"""A live ``mjscore serve`` server for the tests: started on a thread, always stopped."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from scorer.serve.server import Server


@contextmanager
def running(srv: Server) -> Iterator[Server]:
    """Serve ``srv`` on a daemon thread for the ``with`` block; shut it down, close its
    socket and join the thread afterwards (bounded: a stuck thread cannot hang the suite).

    Example: ``with running(make_server("127.0.0.1", 0)) as srv: ...``.
    """
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)
