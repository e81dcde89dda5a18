"""The connection limits of ``mjscore serve`` under uvicorn: cheap silent sockets, no stall.

uvicorn serves every connection on one event loop, so a silent socket costs a file
descriptor and a few timers, not a thread: the limits here are wide, and what keeps one
client from taking the table's place is that an idle socket gives way. :class:`Guarded`
is uvicorn's own HTTP/1.1 protocol (h11) with what a table's wifi needs on top:

* at most :data:`PER_ADDRESS` connections from one address and :data:`MAX_CONNECTIONS` in
  all; at either cap a new connection does not wait or get refused while some connection
  (of that address first, else of the address holding most) sits **idle** — open, no
  request on it: the one idle longest is closed and the newcomer served. Only when every
  connection is busy with a request is the newcomer answered 503 and closed;
* a connection that sends nothing for :data:`IDLE` seconds is closed, and a request not
  fully in within :data:`READ_DEADLINE` seconds is cut (slow, dribbling clients);
* an answer being computed or streamed (the sheet's live updates) is never cut.

So 40 silent connections from the address a phone also uses cost nothing and refuse
nothing: they are closed after :data:`IDLE` seconds, or as soon as a connection that
does send a request needs their place. The limits are read from :data:`LIMITS` when a
connection opens (tests shorten them).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

PER_ADDRESS = 128  # a phone's page keeps about 3 (the live sheet, a score, a waits)
MAX_CONNECTIONS = 1024
IDLE = 5.0
READ_DEADLINE = 10.0
LIMITS: dict[str, float] = {"per_address": PER_ADDRESS, "max": MAX_CONNECTIONS, "idle": IDLE,
                            "deadline": READ_DEADLINE}
# connections open per client address (one event loop), in the order they opened
OPEN: dict[str, dict[Guarded, None]] = {}
_BODY = (b'{"error": {"kind": "request", "code": "serve.connections", "params": {}, '
         b'"message": "too many connections at once; try again"}}')
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
           b"Content-Length: " + str(len(_BODY)).encode() + b"\r\nConnection: close\r\n"
           b"Retry-After: 2\r\n\r\n" + _BODY)


def open_count(address: str | None = None) -> int:
    """Connections open from ``address`` (None: from every address).

    >>> open_count("192.0.2.1")
    0
    """
    if address is not None:
        return len(OPEN.get(address, ()))
    return sum(len(c) for c in OPEN.values())


def _make_room(address: str) -> bool:
    """Close the connection idle longest where a cap is reached; False when none is idle
    (then the newcomer is refused). True when no cap is reached."""
    full_here = open_count(address) >= LIMITS["per_address"]
    full = open_count() >= LIMITS["max"]
    if not full_here and not full:
        return True
    # at the address's cap, its own connections give way; the server full: the address
    # holding most
    pool = list(OPEN.get(address if full_here else max(OPEN, key=open_count), ()))
    idle = [c for c in pool if c.idle()]
    if not idle:
        return False
    min(idle, key=lambda c: c.since).drop()
    return True


class Guarded(H11Protocol):
    """uvicorn's h11 protocol with wide connection caps where idle connections give way,
    and read deadlines."""

    _who: str | None = None
    _idle: asyncio.TimerHandle | None = None
    _deadline: asyncio.TimerHandle | None = None
    _pending = False  # bytes of a request came in that has not been answered yet
    since = 0.0  # when this connection last did something (opened, sent, was answered)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        who = self.client[0] if self.client else "?"
        if not _make_room(who):
            transport.write(REFUSED)
            transport.close()
            return
        self._who = who
        self.since = time.monotonic()
        OPEN.setdefault(who, {})[self] = None
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._forget()
        super().connection_lost(exc)

    def _forget(self) -> None:
        if self._who is not None:
            mine = OPEN.get(self._who)
            if mine is not None:
                mine.pop(self, None)
                if not mine:
                    del OPEN[self._who]
            self._who = None

    def idle(self) -> bool:
        """Open with no request on it: none begun, or the last one answered (keep-alive)."""
        cycle: Any = self.cycle
        return not self._pending and (cycle is None or cycle.response_complete)

    def drop(self) -> None:
        """Close this (idle) connection to make room for another."""
        self._disarm()
        self._forget()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._who is None:
            return  # refused or dropped: nothing more is read
        self._pending = True
        self.since = time.monotonic()
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self.loop.call_later(LIMITS["idle"], self._check, "idle")
        if self._deadline is None:
            self._deadline = self.loop.call_later(LIMITS["deadline"], self._check, "deadline")
        super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._pending = False
        self.since = time.monotonic()
        self._disarm()  # a new request (keep-alive) gets a new deadline
        if self._who is not None:
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
