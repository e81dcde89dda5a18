"""The tables' endpoints: create a table, book, edit and undo its lines, follow it live,
export it. Every change names the version it was made against (``"version": N``); if
another phone changed the table first the answer is 409 with the new sheet
(``"sheet"``) and the change that was refused (``"yours"``), to be looked at and sent again.

====================================  =====================================================
``POST /api/tables``                  ``{"rules", "upload"?, "seating", "stake"?, "rotate"?,
                                      "flags"?, "title"?}`` → the sheet (201)
``GET /api/tables/ID``                the sheet: settings, lines, totals and transfers
``GET /api/tables/ID/events``         server-sent events: ``version`` when it changes
``POST /api/tables/ID/hands``         ``{"version", "hand", "flags", "lang"?}``: book a hand
``PUT /api/tables/ID/hands/N``        ``{"version", "hand", "flags"}``: correct line N
``POST /api/tables/ID/undo/N``        ``{"version", "undone": true|false}``: undo or redo N
``POST /api/tables/ID/penalties``     ``{"version", "seat", "amount"?}``: a false win (诈胡)
``POST /api/tables/ID/adjustments``   ``{"version", "amounts": {"Ann": 5, "Bo": -5}}``:
                                      points moved between players (summing to zero)
``POST /api/tables/ID/rounds``        ``{"version", "text"}``: a whole Sichuan round
``POST /api/tables/ID/settings``      ``{"version", "seating"?, "stake"?, "rotate"?}``
``GET /api/tables/ID/export.txt``     the batch file (``.json``, ``.csv`` likewise)
``GET /api/tables/ID/qr.svg``         a QR code of the table's link
====================================  =====================================================
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..model.tiles import SEATS
from ..table.ledger import LedgerError, parse_players, parse_stake
from .api import RequestError, error_body
from .server import (
    HEADERS,
    HOST,
    PER_ADDRESS_STREAMS,
    TABLE_ID,
    Server,
    answer,
    client_of,
    read_json,
)
from .sheet import (
    ROTATE,
    adjust_line,
    adjust_record,
    check_flags,
    export_batch,
    export_csv,
    line_of,
    penalty_record,
    seating_after,
    sheet_json,
    summary_of,
)
from .store import Conflict

Endpoint = Callable[[Server, Request], Awaitable[Response]]


def _tid(request: Request) -> str:
    tid = str(request.path_params.get("tid", ""))
    if not TABLE_ID.fullmatch(tid):
        raise RequestError("serve.no_table", 404)
    return tid


def _obj(body: Any, keys: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise RequestError("serve.body_object", keys=keys)
    return body


def _version(body: dict[str, Any]) -> int:
    v = body.get("version")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise RequestError("serve.version")
    return v


def _seating(value: Any) -> dict[str, str]:
    try:
        if isinstance(value, str):
            seating = parse_players(value)
        elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
            seating = parse_players(",".join(f"{k}={v}" for k, v in value.items()
                                             if isinstance(v, str)))
            if len(seating) != len(value):
                raise RequestError("serve.seating_name")
        else:
            raise RequestError("serve.seating_shape")
    except LedgerError as e:
        raise RequestError("serve.seating", error=_nested(e)) from None
    if len(seating) < 2:
        raise RequestError("serve.seating_two")
    return {s: seating[s] for s in SEATS if s in seating}


def _stake(value: Any) -> str:
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise RequestError("serve.stake_shape")
    try:
        parse_stake(value)
    except LedgerError as e:
        raise RequestError("serve.stake", error=_nested(e)) from None
    return str(value)


def _nested(e: LedgerError) -> dict[str, Any]:
    """An error as the parameter of another (``{error:error}`` words it in the same language)."""
    return {"code": e.code, "params": e.params}


async def _sheet(srv: Server, tid: str) -> dict[str, Any]:
    version, settings, entries = await srv.db(srv.store.table, tid)
    return sheet_json(version, settings, entries, tid)


async def _conflict(srv: Server, request: Request, tid: str, body: Any, e: Conflict
                    ) -> Response:
    err = error_body(RequestError("serve.conflict", 409, version=e.version), request.state.lang)
    err["error"]["kind"] = "conflict"
    return answer(409, {**err, "sheet": await _sheet(srv, tid), "yours": body})


async def _write(srv: Server, request: Request, tid: str, body: Any,
                 change: Callable[..., Any], *args: Any) -> Response:
    """Make ``change(*args)`` to table ``tid`` (a version-checked write of the store), tell
    every phone that follows the table, and answer with its sheet; a write another phone
    got in first answers 409 with the new sheet and the body sent (:func:`_conflict`)."""
    try:
        await srv.db(change, *args)
    except Conflict as e:
        return await _conflict(srv, request, tid, body, e)
    srv.notify(tid)
    return answer(200, await _sheet(srv, tid))


async def _files(srv: Server, settings: dict[str, Any]) -> dict[str, str]:
    if not settings.get("upload"):
        return {}
    name, text = await srv.db(srv.store.upload, settings["upload"])
    return {name: text}


async def create(srv: Server, request: Request) -> Response:
    body = _obj(await read_json(request), '"rules", "seating", "stake", ...')
    rules, upload = body.get("rules"), body.get("upload")
    settings: dict[str, Any] = {"seating": _seating(body.get("seating")),
                                "stake": _stake(body.get("stake", "1")),
                                "rotate": body.get("rotate", "dealer"),
                                "flags": check_flags(body.get("flags", [])),
                                "title": body.get("title", "")}
    if settings["rotate"] not in ROTATE:
        raise RequestError("serve.rotate", values=list(ROTATE))
    if not isinstance(settings["title"], str) or len(settings["title"]) > 80:
        raise RequestError("serve.title", limit=80)
    if upload is not None:
        if not isinstance(upload, str) or len(upload) > 64:
            raise RequestError("serve.upload_key")
        name, _ = await srv.db(srv.store.upload, upload)
        settings.update(rules=name, upload=upload)
    elif not isinstance(rules, str) or not rules:
        raise RequestError("serve.rules_id")
    else:
        status, info = await srv.work(request, ("get", f"/api/rules/{rules}", request.state.lang))
        if status != 200:
            return answer(400 if status == 404 else status, info)  # a wrong value in the body
        settings.update(rules=rules, upload=None)
    settings["seating_n"] = 0  # the seating was set before line 1
    tid = await srv.db(srv.store.create_table, settings)
    return answer(201, await _sheet(srv, tid))


async def show(srv: Server, request: Request) -> Response:
    return answer(200, await _sheet(srv, _tid(request)))


async def events(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    await srv.db(srv.store.version, tid)  # 404 for no such table
    from .workers import address_of

    address = address_of(client_of(request))
    if srv.streams[address] >= PER_ADDRESS_STREAMS:
        raise RequestError("serve.streams", 429)
    return stream(srv, tid, address)


async def _scored(srv: Server, request: Request, settings: dict[str, Any],
                  body: dict[str, Any], seating: dict[str, str]) -> dict[str, Any] | Response:
    """The line of the hand in ``body`` scored as batch scores it; an answer if it fails."""
    flags = check_flags(body.get("flags", []))
    line = line_of(body.get("hand"), flags, settings)
    lang = request.state.lang  # the body's "lang" (scorer.serve.server.lang_of)
    spec = ",".join(f"{s}={n}" for s, n in seating.items())
    status, rec = await srv.work(request, ("record", f"{line} --players {_quote(spec)}",
                                           await _files(srv, settings), lang))
    if status != 200:
        return answer(status, rec)
    record = {k: rec[k] for k in ("payments", "winner") if k in rec}
    return {"kind": "hand", "line": line, "seating": seating, "record": record,
            "summary": summary_of(rec, seating),
            "input": {"hand": body.get("hand"), "flags": flags}}


def _quote(spec: str) -> str:
    import shlex

    return shlex.quote(spec)


async def book(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    body = _obj(await read_json(request), '"version", "hand", "flags"')
    version = _version(body)
    _, settings, _ = await srv.db(srv.store.table, tid)
    entry = await _scored(srv, request, settings, body, dict(settings["seating"]))
    if isinstance(entry, Response):
        return entry
    return await _append(srv, request, tid, version, body, settings, entry)


async def _append(srv: Server, request: Request, tid: str, version: int, body: Any, settings: dict[str, Any],
                  entry: dict[str, Any]) -> Response:
    new = dict(settings, seating=seating_after(settings, entry["record"]))
    return await _write(srv, request, tid, body, srv.store.append, tid, version, entry, new)


async def edit(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    n = _line_number(request)
    body = _obj(await read_json(request), '"version", "hand", "flags"')
    version = _version(body)
    _, settings, entries = await srv.db(srv.store.table, tid)
    old = next((e for e in entries if e["n"] == n), None)
    if old is None or old["kind"] != "hand":
        raise RequestError("serve.no_hand_line", 404, n=n)
    entry = await _scored(srv, request, settings, body, old["seating"])
    if isinstance(entry, Response):
        return entry
    return await _write(srv, request, tid, body, srv.store.change, tid, version, n, entry)


def _line_number(request: Request) -> int:
    text = str(request.path_params.get("n", ""))
    if not (text.isascii() and text.isdigit()) or len(text) > 6:  # (not '²' or '٣')
        raise RequestError("serve.no_line", 404, n=text[:8])
    return int(text)


async def undo(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    n = _line_number(request)
    body = _obj(await read_json(request), '"version", "undone"')
    version = _version(body)
    undone = body.get("undone", True)
    if not isinstance(undone, bool):
        raise RequestError("serve.undone")
    _, settings, entries = await srv.db(srv.store.table, tid)
    live = [e for e in entries if not e["deleted"]]
    new = None
    if undone and live and live[-1]["n"] == n and settings.get("seating_n", 0) < n:
        # the last line undone: its players sit again as they sat for it
        new = dict(settings, seating=live[-1]["seating"])
    return await _write(srv, request, tid, body, srv.store.change, tid, version, n, None, undone, new)


async def penalty(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    body = _obj(await read_json(request), '"version", "seat", "amount"')
    version = _version(body)
    _, settings, _ = await srv.db(srv.store.table, tid)
    record = penalty_record(settings, body.get("seat"), body.get("amount"))
    seat, amount = record["penalty"]["seat"], record["penalty"]["amount"]
    entry = {"kind": "penalty", "line": f"{seat} false win: pays {amount} to each other player",
             "seating": dict(settings["seating"]),
             "record": record,
             "summary": {"seat": seat, "amount": amount, "payments": record["payments"]}}
    return await _write(srv, request, tid, body, srv.store.append, tid, version, entry, None)


async def adjust(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    body = _obj(await read_json(request), '"version", "amounts"')
    version = _version(body)
    _, settings, _ = await srv.db(srv.store.table, tid)
    record = adjust_record(settings, body.get("amounts"))
    entry = {"kind": "adjust", "line": adjust_line(record), "seating": dict(settings["seating"]),
             "record": record, "summary": {"payments": record["payments"]}}
    return await _write(srv, request, tid, body, srv.store.append, tid, version, entry, None)


async def round_(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    body = _obj(await read_json(request), '"version", "text"')
    version = _version(body)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RequestError("serve.round_text")
    _, settings, _ = await srv.db(srv.store.table, tid)
    lang = request.state.lang
    status, out = await srv.work(request, ("round", text, settings["rules"],
                                           await _files(srv, settings), lang))
    if status != 200:
        return answer(status, out)
    entry = {"kind": "round", "line": text.strip(), "seating": dict(settings["seating"]),
             "record": out["ledger"],
             "summary": {"winners": out["ledger"]["winner"], "payments": out["ledger"]["payments"],
                         "transfers": out.get("transfers", [])[:64]}}
    return await _append(srv, request, tid, version, body, settings, entry)


async def set_settings(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    body = _obj(await read_json(request), '"version", "seating", "stake", "rotate"')
    version = _version(body)
    _, settings, entries = await srv.db(srv.store.table, tid)
    new = dict(settings)
    if "seating" in body:
        new["seating"] = _seating(body["seating"])
        new["seating_n"] = max((e["n"] for e in entries), default=0)
    if "stake" in body:
        new["stake"] = _stake(body["stake"])
    if "rotate" in body:
        if body["rotate"] not in ROTATE:
            raise RequestError("serve.rotate", values=list(ROTATE))
        new["rotate"] = body["rotate"]
    return await _write(srv, request, tid, body, srv.store.set_settings, tid, version, new)


async def export(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    fmt = str(request.path_params.get("fmt", ""))
    version, settings, entries = await srv.db(srv.store.table, tid)
    name = f"mjscore-{tid}"
    if fmt == "txt":
        body, ctype = export_batch(settings, entries, tid), "text/plain; charset=utf-8"
    elif fmt == "csv":
        body, ctype = export_csv(settings, entries), "text/csv; charset=utf-8"
    elif fmt == "json":
        sheet = sheet_json(version, settings, entries, tid)
        sheet["batch"] = export_batch(settings, entries, tid)
        body, ctype = json.dumps(sheet, ensure_ascii=False, indent=1), \
            "application/json; charset=utf-8"
    elif fmt == "yaml" and settings.get("upload"):
        _, body = await srv.db(srv.store.upload, settings["upload"])
        ctype, name = "text/plain; charset=utf-8", settings["rules"].rsplit(".", 1)[0]
    else:
        raise RequestError("serve.export_format", 404)
    disposition = f'attachment; filename="{name}.{fmt}"'
    return Response(body, 200, {**HEADERS, "Content-Disposition": disposition}, ctype)


async def qr(srv: Server, request: Request) -> Response:
    tid = _tid(request)
    await srv.db(srv.store.version, tid)
    host = request.headers.get("host", "")
    if not HOST.fullmatch(host):
        raise RequestError("serve.host")
    import io

    import segno

    buf = io.BytesIO()
    segno.make(f"http://{host}/?t={tid}", error="m").save(buf, kind="svg", scale=6, border=2)
    return Response(buf.getvalue(), 200, HEADERS, "image/svg+xml")


def routes(wrap: Callable[[Endpoint], Callable[[Request], Awaitable[Response]]]) -> list[Route]:
    """The tables' routes, each endpoint wrapped by ``wrap`` (the app's caps and errors)."""
    base = "/api/tables/{tid}"
    return [
        Route("/api/tables", wrap(create), methods=["POST"]),
        Route(base, wrap(show), methods=["GET"]),
        Route(base + "/events", wrap(events), methods=["GET"]),
        Route(base + "/hands", wrap(book), methods=["POST"]),
        Route(base + "/hands/{n}", wrap(edit), methods=["PUT"]),
        Route(base + "/undo/{n}", wrap(undo), methods=["POST"]),
        Route(base + "/penalties", wrap(penalty), methods=["POST"]),
        Route(base + "/adjustments", wrap(adjust), methods=["POST"]),
        Route(base + "/rounds", wrap(round_), methods=["POST"]),
        Route(base + "/settings", wrap(set_settings), methods=["POST"]),
        Route(base + "/export.{fmt}", wrap(export), methods=["GET"]),
        Route(base + "/qr.svg", wrap(qr), methods=["GET"]),
    ]


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
