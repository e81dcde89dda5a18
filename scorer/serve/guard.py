"""The connection limits of ``mjscore serve`` under uvicorn: per client and in all.

uvicorn serves every connection on one event loop, so a silent socket costs a file
descriptor, not a thread; still, one client must not hold them all. :class:`Guarded` is
uvicorn's own HTTP/1.1 protocol (h11) with what a table's wifi needs on top:

* at most :data:`PER_CLIENT` connections from one address (more are answered 503 and
  closed at once) and :data:`MAX_CONNECTIONS` in all;
* a connection that sends nothing for :data:`IDLE` seconds is closed, and a request not
  fully in within :data:`READ_DEADLINE` seconds is cut (slow, dribbling clients);
* an answer being computed or streamed (the sheet's live updates) is never cut.

The limits are read from :data:`LIMITS` when a connection opens (tests shorten them).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

PER_CLIENT = 12  # a phone's page keeps about 3 (the live sheet, a score, a waits)
MAX_CONNECTIONS = 256
IDLE = 5.0
READ_DEADLINE = 10.0
LIMITS: dict[str, float] = {"per_client": PER_CLIENT, "max": MAX_CONNECTIONS, "idle": IDLE,
                            "deadline": READ_DEADLINE}
OPEN: Counter[str] = Counter()  # connections open per client address (one event loop)
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
           b"Content-Length: 98\r\nConnection: close\r\nRetry-After: 2\r\n\r\n"
           b'{"error": {"kind": "request", "message": "too many connections from this device; '
           b'try again"}}   ')


class Guarded(H11Protocol):
    """uvicorn's h11 protocol with per-client connection caps and read deadlines."""

    _who: str | None = None
    _idle: asyncio.TimerHandle | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        who = self.client[0] if self.client else "?"
        if OPEN[who] >= LIMITS["per_client"] or sum(OPEN.values()) >= LIMITS["max"]:
            transport.write(REFUSED)
            transport.close()
            return
        self._who = who
        OPEN[who] += 1
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._who is not None:
            OPEN[self._who] -= 1
            if OPEN[self._who] <= 0:
                del OPEN[self._who]
            self._who = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._who is None:
            return  # refused: nothing more is read
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self.loop.call_later(LIMITS["idle"], self._check, "idle")
        if self._deadline is None:
            self._deadline = self.loop.call_later(LIMITS["deadline"], self._check, "deadline")
        super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # a new request (keep-alive) gets a new deadline
        self._idle = self.loop.call_later(LIMITS["idle"], self._check, "idle")

    def _arm(self) -> None:
        self._idle = self.loop.call_later(LIMITS["idle"], self._check, "idle")
        self._deadline = self.loop.call_later(LIMITS["deadline"], self._check, "deadline")

    def _disarm(self) -> None:
        for t in (self._idle, self._deadline):
            if t is not None:
                t.cancel()
        self._idle = self._deadline = None

    def _reading(self) -> bool:
        """Is a request still coming in (not yet whole), or none begun?"""
        cycle: Any = self.cycle
        if cycle is None or cycle.response_complete:
            return True
        return bool(cycle.more_body)

    def _check(self, which: str) -> None:
        if which == "idle":
            self._idle = None
        else:
            self._deadline = None
        if self.transport.is_closing() or not self._reading():
            return  # an answer is being made or streamed: that is the server's time, not theirs
        self.transport.close()
