"""What every request of ``mjscore serve`` goes through before its route: the limits, the
one JSON error, who the client is, and the :class:`Server` the routes share.

What every request gets: a body at most :data:`MAX_BODY` bytes, ``application/json``,
nested at most :data:`MAX_DEPTH` deep; at most :data:`PER_ADDRESS_REQUESTS` requests of
one address in the app at once, :data:`PER_ADDRESS_LARGE` of them with a large body (429
beyond; wide, since a table's phones may share an address and a phone's light work never
waits behind heavy work: :mod:`.workers`); an error is the CLI's one-line
``{"error": {"kind", "message", "code", "params"}}`` in the request's language
(:func:`lang_of`) with the status that fits, never a traceback and never a 500 for a
request, however malformed.

Who a client is: :func:`client_of` — the device id the page sends (``X-Mjscore-Device``,
kept in the phone's local storage) after its address, or the address alone. Turns are per
client; caps count per address (a made-up device id buys no room).

The page's routes (:mod:`.app`) and the tables' (:mod:`.tables`) both stand on it, so
neither imports the other's module for it.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..text.lang import LANGS
from .api import RequestError, error_body
from .store import Conflict, Full, NotFound, Store
from .workers import Busy, Pool, address_of

MAX_BODY = 512 * 1024 + 64 * 1024  # a ruleset file (512 KiB) and the rest of the request
MAX_DEPTH = 8
PER_ADDRESS_REQUESTS = 96  # requests of one address in the app at once
LARGE_BODY = 64 * 1024  # a body past this (an uploaded ruleset's text) counts as large
PER_ADDRESS_LARGE = 24  # large bodies of one address in the app at once (memory: 24 x 576 KiB)
PER_ADDRESS_STREAMS = 16  # live sheets followed from one address at once
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,64}")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/sheet.js": ("sheet.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
    "/favicon.ico": ("icon.svg", "image/svg+xml"),
}
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
TABLE_ID = re.compile(r"[a-z0-9]{6}")
HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,100}")


_MARK = re.compile(rb'[\[\]{}"]')  # what changes the depth, or opens a string


def json_depth(raw: bytes | bytearray) -> int:
    """How deeply the JSON text nests arrays and objects (strings skipped), read in one pass
    from mark to mark: a 500 KiB ruleset text inside one string is skipped by ``find``,
    without a copy of it or a regular expression's stack over its length.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b'[' * 100)
    (3, 100)
    >>> json_depth(rb'["a\\\\", ["b\\"["]]')  # an escaped backslash, then an escaped quote
    2
    """
    depth = deepest = 0
    at = 0
    while (m := _MARK.search(raw, at)) is not None:
        c = raw[m.start()]
        at = m.end()
        if c == 0x22:  # a string: on to the quote that closes it (one not escaped)
            while True:
                end = raw.find(b'"', at)
                if end < 0:
                    return deepest
                slashes = end - 1
                while raw[slashes] == 0x5C:  # (a backslash)
                    slashes -= 1
                at = end + 1
                if (end - 1 - slashes) % 2 == 0:
                    break
        elif c in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def answer(status: int, obj: Any) -> Response:
    """A JSON answer with the page's security headers."""
    return Response(json.dumps(obj, ensure_ascii=False), status, HEADERS,
                    "application/json; charset=utf-8")


def failure(e: BaseException, lang: str = "zh") -> Response:
    """The one-line error answer for ``e`` in ``lang`` (a RequestError's status, else
    400/422/500)."""
    from .api import status_of

    return answer(status_of(e), error_body(e, lang))


def lang_of(request: Request, body: Any = None) -> str:
    """The language of a request's answers: the body's ``"lang"``, else ``?lang=``, else the
    first of zh/en its ``Accept-Language`` names (the page sends its own), else zh.

    A score's own ``--lang`` flag still decides that score's words (scorer.serve.api).
    """
    if isinstance(body, dict) and body.get("lang") in LANGS:
        return str(body["lang"])
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return str(asked)
    for part in request.headers.get("accept-language", "")[:200].split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("zh"):
            return "zh"
        if tag.startswith("en"):
            return "en"
    return "zh"


async def read_json(request: Request) -> Any:
    """The request's JSON body within the limits; raises RequestError (400, 411, 413, 415).
    A body of ``null`` is the value None, answered by the endpoint like any other wrong shape."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise RequestError("serve.content_type", 415)
    length = (request.headers.get("content-length") or "").strip()
    if not (length.isascii() and length.isdigit()):  # (not '²' or '٣': int() fails or reads)
        raise RequestError("serve.length_needed", 411)
    if len(length) > 12 or int(length) > MAX_BODY:
        raise RequestError("serve.body_too_big", 413, limit_kib=MAX_BODY // 1024)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise RequestError("serve.body_too_big", 413, limit_kib=MAX_BODY // 1024)
    if json_depth(raw) > MAX_DEPTH:
        raise RequestError("serve.json_deep", limit=MAX_DEPTH)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RequestError("serve.not_utf8", byte=e.start + 1) from None
    try:
        body = json.loads(text)
    except json.JSONDecodeError as e:
        raise RequestError("serve.not_json", at=e.pos + 1) from None
    except (ValueError, RecursionError):
        raise RequestError("serve.not_json", at=1) from None
    request.state.lang = lang_of(request, body)
    return body


class Server:
    """What the app holds: the worker pool, the tables' database, live-update waiters."""

    def __init__(self, pool: Pool, store: Store) -> None:
        self.pool, self.store = pool, store
        self.files = {name: (resources.files("scorer.serve") / "static" / name).read_bytes()
                      for name, _ in set(STATIC.values())}
        self.cached: dict[str, tuple[int, Any]] = {}  # GET answers of the rulesets (fixed)
        self.changed: dict[str, asyncio.Event] = {}
        self.requests: Counter[str] = Counter()  # requests in the app per address
        self.large: Counter[str] = Counter()  # of them, with a large body
        self.streams: Counter[str] = Counter()

    async def work(self, request: Request, job: tuple[Any, ...]) -> tuple[int, Any]:
        """Run ``job`` in the pool in this client's turn (its class's: scorer.serve.workers)."""
        return await self.pool.run(client_of(request), job)

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call a :class:`Store` method in a thread (SQLite may wait for another writer)."""
        return await asyncio.to_thread(fn, *args)

    def notify(self, tid: str) -> None:
        """Wake every live sheet of table ``tid``."""
        ev = self.changed.pop(tid, None)
        if ev is not None:
            ev.set()


def client_of(request: Request) -> str:
    """Who sent the request: ``ADDRESS#DEVICE`` when the page names its device (a random
    id it keeps), else the address. Turns are per client, caps per address."""
    address = request.client.host if request.client else "?"
    device = request.headers.get("x-mjscore-device", "")
    return f"{address}#{device}" if DEVICE.fullmatch(device) else address


def _large(request: Request) -> bool:
    length = (request.headers.get("content-length") or "").strip()
    return length.isascii() and length.isdigit() and (len(length) > 12 or
                                                      int(length) > LARGE_BODY)


def guarded(fn: Callable[[Server, Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint with the per-address request caps and every error turned into its answer
    in the request's language."""

    async def endpoint(request: Request) -> Response:
        srv: Server = request.app.state.server
        request.state.lang = lang_of(request)
        address = address_of(client_of(request))
        large = _large(request)
        if srv.requests[address] >= PER_ADDRESS_REQUESTS or (
                large and srv.large[address] >= PER_ADDRESS_LARGE):
            return failure(RequestError("serve.too_many_requests", 429), request.state.lang)
        srv.requests[address] += 1
        srv.large[address] += large
        try:
            return await fn(srv, request)
        except Exception as e:  # RequestError and the library's errors: their status
            return failure(_as_request_error(e), request.state.lang)
        finally:
            for count, n in ((srv.requests, 1), (srv.large, int(large))):
                count[address] -= n
                if count[address] <= 0:
                    del count[address]

    return endpoint


def _as_request_error(e: Exception) -> Exception:
    """The server's own exceptions (a busy pool, a table changed or not found) as the
    RequestError they answer with; any other error as it is."""
    if isinstance(e, Busy):
        return RequestError(e.code, e.status)
    if isinstance(e, Conflict):
        return RequestError("serve.conflict", 409, version=e.version)
    if isinstance(e, Full):
        return RequestError(e.code, 409, **e.params)
    if isinstance(e, NotFound):
        return RequestError(e.code, 404, **e.params)
    return e
