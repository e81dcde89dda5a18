"""The ASGI application of ``mjscore serve`` (Starlette): the page, the JSON API, the tables.

``mjscore serve`` runs it under uvicorn (:mod:`.guard` adds the per-client connection
limits); a club can run the same app for many tables under any ASGI server
(``create_app()`` reads its settings from the arguments, or from ``MJSCORE_DB``).
Nothing is scored in this process: every hand, waits, dispute, ruleset check and round
goes to the worker pool (:mod:`.workers`), in the client's turn; this process reads
requests, keeps the tables (:mod:`.store`) and answers.

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
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..text.lang import LANGS
from .api import RequestError, error_body
from .store import Conflict, Full, NotFound, Store, default_path
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


# -- the page and the scoring API ---------------------------------------------------------
async def static(request: Request) -> Response:
    srv: Server = request.app.state.server
    entry = STATIC.get(request.url.path)
    if entry is None:
        return failure(RequestError("serve.no_page", 404, path=request.url.path[:80]),
                       lang_of(request))
    name, ctype = entry
    return Response(srv.files[name], 200, HEADERS, ctype)


@guarded
async def api_get(srv: Server, request: Request) -> Response:
    path = request.url.path
    hit = srv.cached.get(path)
    if hit is None:
        hit = await srv.work(request, ("get", path, request.state.lang))
        if hit[0] == 200:
            srv.cached[path] = hit  # (a ruleset's description is in both languages)
    return answer(*hit)


@guarded
async def api_post(srv: Server, request: Request) -> Response:
    path = request.url.path
    if request.method != "POST":
        raise RequestError("serve.no_endpoint", 404, method=request.method, path=path[:80])
    if path == "/api/flags" or path.startswith(("/api/rules/", "/api/tables/")):
        raise RequestError("serve.no_endpoint", 405, method="POST", path=path[:80])
    body = await read_json(request)
    if isinstance(body, dict) and "table" in body:
        body = dict(body)
        tid = body.pop("table")
        settings = await table_settings(srv, tid)
        files = dict(body.get("files") or {}) if isinstance(body.get("files"), dict) else {}
        if settings.get("upload"):
            name, text = await srv.db(srv.store.upload, settings["upload"])
            files[name] = text
            body["files"] = files
    status, obj = await srv.work(request, ("post", path, body, request.state.lang))
    if path == "/api/rules" and status == 200 and isinstance(body, dict):
        # a checked upload is kept (as text) for the tables that will use it
        obj["upload"] = await srv.db(srv.store.put_upload, body.get("name", "house.yaml"),
                                     body["text"])
    return answer(status, obj)


async def table_settings(srv: Server, tid: Any) -> dict[str, Any]:
    if not isinstance(tid, str) or not TABLE_ID.fullmatch(tid):
        raise RequestError("serve.table_id", 404)
    _, settings, _ = await srv.db(srv.store.table, tid)
    return dict(settings)


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    return failure(RequestError("serve.no_endpoint", 405 if status == 405 else
                                404 if status == 404 else int(status), method=request.method,
                                path=request.url.path[:80]), lang_of(request))


async def server_error(request: Request, exc: Exception) -> Response:
    return failure(exc, lang_of(request))


def create_app(pool: Pool | None = None, store: Store | None = None,
               db_path: str | None = None, extra: list[str] | None = None) -> Starlette:
    """The app with its pool (started with the app) and its database (``db_path``, else
    the ``MJSCORE_DB`` environment variable, else the user's data folder)."""
    import contextlib
    import os

    from .tables import routes as table_routes

    pool = pool or Pool(size=max(2, os.cpu_count() or 2), extra=extra or [])
    store = store or Store(db_path or os.environ.get("MJSCORE_DB") or default_path())
    srv = Server(pool, store)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(pool.start)
        try:
            yield
        finally:
            pool.close()

    routes = [
        *[Route(p, static, methods=["GET", "HEAD"]) for p in STATIC],
        Route("/api/flags", api_get, methods=["GET"]),
        Route("/api/rules", api_get, methods=["GET"]),
        Route("/api/rules/{rid:path}", api_get, methods=["GET"]),
        *table_routes(guarded),
        Route("/api/{name:path}", api_post, methods=["GET", "POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_found, 500: server_error})
    app.state.server = srv
    return app


def stream(srv: Server, tid: str, who: str) -> StreamingResponse:
    """Server-sent events: ``event: version`` with the table's version whenever it changes
    (and a comment every 5 s without one, so a phone's connection stays open)."""

    async def events() -> AsyncIterator[bytes]:
        srv.streams[who] += 1
        try:
            last = -1
            while True:
                version = await srv.db(srv.store.version, tid)
                if version != last:
                    last = version
                    yield f"event: version\ndata: {version}\n\n".encode()
                ev = srv.changed.setdefault(tid, asyncio.Event())
                try:
                    # another process serving the same file changes it too: look again soon
                    await asyncio.wait_for(ev.wait(), 5)
                except asyncio.TimeoutError:
                    yield b": ping\n\n"
        finally:
            srv.streams[who] -= 1
            if srv.streams[who] <= 0:
                del srv.streams[who]

    return StreamingResponse(events(), 200, {**HEADERS, "X-Accel-Buffering": "no"},
                             "text/event-stream")
