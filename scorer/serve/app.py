"""The ASGI application of ``mjscore serve`` (Starlette): the page, the JSON API, the tables.

``mjscore serve`` runs it under uvicorn (:mod:`.guard` adds the per-client connection
limits); a club can run the same app for many tables under any ASGI server
(``create_app()`` reads its settings from the arguments, or from ``MJSCORE_DB``).
Nothing is scored in this process: every hand, waits, dispute, ruleset check and round
goes to the worker pool (:mod:`.workers`), in the client's turn; this process reads
requests, keeps the tables (:mod:`.store`) and answers.

What every request gets: a body at most :data:`MAX_BODY` bytes, ``application/json``,
nested at most :data:`MAX_DEPTH` deep; at most :data:`PER_CLIENT_REQUESTS` requests of one
client in the app at once (429 beyond); an error is the CLI's one-line
``{"error": {"kind", "message"}}`` with the status that fits, never a traceback and never
a 500 for a request, however malformed.
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

from .api import RequestError, error_body
from .store import Conflict, NotFound, Store, default_path
from .workers import Busy, Pool

MAX_BODY = 512 * 1024 + 64 * 1024  # a ruleset file (512 KiB) and the rest of the request
MAX_DEPTH = 8
PER_CLIENT_REQUESTS = 16
PER_CLIENT_STREAMS = 4  # live sheets one device follows at once
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


def json_depth(raw: bytes) -> int:
    """How deeply the JSON text nests arrays and objects (strings skipped), read in one pass.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b'[' * 100)
    (3, 100)
    """
    depth = deepest = 0
    in_str = esc = False
    for c in raw:
        if in_str:
            if esc:
                esc = False
            elif c == 0x5C:  # backslash
                esc = True
            elif c == 0x22:
                in_str = False
        elif c == 0x22:
            in_str = True
        elif c in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (0x5D, 0x7D):
            depth -= 1
    return deepest


def answer(status: int, obj: Any) -> Response:
    """A JSON answer with the page's security headers."""
    return Response(json.dumps(obj, ensure_ascii=False), status, HEADERS,
                    "application/json; charset=utf-8")


def failure(e: BaseException) -> Response:
    """The one-line error answer for ``e`` (a RequestError's status, else 400/422/500)."""
    from .api import status_of

    return answer(status_of(e), error_body(e))


async def read_json(request: Request) -> Any:
    """The request's JSON body within the limits; raises RequestError (400, 411, 413, 415).
    A body of ``null`` is the value None, answered by the endpoint like any other wrong shape."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise RequestError("send the request as Content-Type: application/json", 415)
    length = (request.headers.get("content-length") or "").strip()
    if not (length.isascii() and length.isdigit()):  # (not '²' or '٣': int() fails or reads)
        raise RequestError("the request needs a Content-Length", 411)
    if len(length) > 12 or int(length) > MAX_BODY:
        raise RequestError(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise RequestError(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    if json_depth(bytes(raw)) > MAX_DEPTH:
        raise RequestError(f"JSON nested deeper than {MAX_DEPTH} levels; refused")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise RequestError(f"the body is not JSON: {str(e)[:120]}") from None


class Server:
    """What the app holds: the worker pool, the tables' database, live-update waiters."""

    def __init__(self, pool: Pool, store: Store) -> None:
        self.pool, self.store = pool, store
        self.files = {name: (resources.files("scorer.serve") / "static" / name).read_bytes()
                      for name, _ in set(STATIC.values())}
        self.cached: dict[str, tuple[int, Any]] = {}  # GET answers of the rulesets (fixed)
        self.changed: dict[str, asyncio.Event] = {}
        self.requests: Counter[str] = Counter()
        self.streams: Counter[str] = Counter()

    async def work(self, request: Request, job: tuple[Any, ...]) -> tuple[int, Any]:
        """Run ``job`` in the pool in this client's turn."""
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
    """The client's address: caps and turns are per device."""
    return request.client.host if request.client else "?"


def guarded(fn: Callable[[Server, Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint with the per-client request cap and every error turned into its answer."""

    async def endpoint(request: Request) -> Response:
        srv: Server = request.app.state.server
        who = client_of(request)
        if srv.requests[who] >= PER_CLIENT_REQUESTS:
            return failure(RequestError("too many requests at once from this device", 429))
        srv.requests[who] += 1
        try:
            return await fn(srv, request)
        except Busy as e:
            return failure(RequestError(str(e), e.status))
        except Conflict as e:
            return failure(RequestError(str(e), 409))
        except NotFound as e:
            return failure(RequestError(str(e), 404))
        except Exception as e:  # RequestError and the library's errors: their status
            return failure(e)
        finally:
            srv.requests[who] -= 1
            if srv.requests[who] <= 0:
                del srv.requests[who]

    return endpoint


# -- the page and the scoring API ---------------------------------------------------------
async def static(request: Request) -> Response:
    srv: Server = request.app.state.server
    entry = STATIC.get(request.url.path)
    if entry is None:
        return failure(RequestError(f"no page {request.url.path[:80]}", 404))
    name, ctype = entry
    return Response(srv.files[name], 200, HEADERS, ctype)


@guarded
async def api_get(srv: Server, request: Request) -> Response:
    path = request.url.path
    hit = srv.cached.get(path)
    if hit is None:
        hit = await srv.work(request, ("get", path))
        if hit[0] == 200:
            srv.cached[path] = hit
    return answer(*hit)


@guarded
async def api_post(srv: Server, request: Request) -> Response:
    path = request.url.path
    if request.method != "POST":
        raise RequestError(f"no such endpoint: {request.method} {path[:80]}", 404)
    if path == "/api/flags" or path.startswith(("/api/rules/", "/api/tables/")):
        raise RequestError(f"no such endpoint: POST {path[:80]}", 405)
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
    status, obj = await srv.work(request, ("post", path, body))
    if path == "/api/rules" and status == 200 and isinstance(body, dict):
        # a checked upload is kept (as text) for the tables that will use it
        obj["upload"] = await srv.db(srv.store.put_upload, body.get("name", "house.yaml"),
                                     body["text"])
    return answer(status, obj)


async def table_settings(srv: Server, tid: Any) -> dict[str, Any]:
    if not isinstance(tid, str) or not TABLE_ID.fullmatch(tid):
        raise RequestError("table: a table's id, six letters and digits", 404)
    _, settings, _ = await srv.db(srv.store.table, tid)
    return dict(settings)


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return failure(RequestError(f"no such endpoint: {request.method} {request.url.path[:80]}",
                                    405))
    return failure(RequestError(f"no such endpoint: {request.method} {request.url.path[:80]}",
                                404 if status == 404 else int(status)))


async def server_error(request: Request, exc: Exception) -> Response:
    return failure(exc)


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
