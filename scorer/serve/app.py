"""The ASGI application of ``mjscore serve`` (Starlette): the page, the JSON API, the tables.

``mjscore serve`` runs it under uvicorn (:mod:`.guard` adds the per-client connection
limits); a club can run the same app for many tables under any ASGI server
(``create_app()`` reads its settings from the arguments, or from ``MJSCORE_DB``).
Nothing is scored in this process: every hand, waits, dispute, ruleset check and round
goes to the worker pool (:mod:`.workers`), in the client's turn; this process reads
requests, keeps the tables (:mod:`.store`) and answers. What every request goes through
first (the limits, the one JSON error, who the client is) is :mod:`.server`'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .api import RequestError
from .server import (
    HEADERS,
    STATIC,
    TABLE_ID,
    Server,
    answer,
    failure,
    guarded,
    lang_of,
    read_json,
)
from .store import Store, default_path
from .workers import Pool


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
