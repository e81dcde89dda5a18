"""The HTTP server of ``mjscore serve``: the standard library's ThreadingHTTPServer.

It serves the page (four files from a fixed in-package map, read once at start) and the
JSON API (:class:`scorer.serve.api.Api`). What keeps it answering on a table's wifi:

* request bodies are capped (:data:`MAX_BODY`, 413) and must be ``application/json``
  (which a page on another site cannot send without a CORS preflight, never granted);
* JSON nested deeper than :data:`MAX_DEPTH` is refused before it is decoded (400);
* a socket that sends nothing for :data:`IDLE` seconds is dropped, and a request not
  fully read after :data:`READ_DEADLINE` seconds is cut (slowloris-style dribbling);
* at most :data:`MAX_CONNECTIONS` connections are served at once; more get 503;
* one request scores at a time, a user ruleset under its CPU budget (see the API);
* no request names a file: the static map has fixed keys, rulesets are ids or text;
* every answer carries a Content-Security-Policy without inline script, and an error
  is the CLI's one-line ``{"error": …}``, never a traceback.

>>> srv = make_server("127.0.0.1", 0)
>>> srv.server_address[0]
'127.0.0.1'
>>> srv.server_close()
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from .api import Api, RequestError, error_body

MAX_BODY = 512 * 1024 + 64 * 1024  # a ruleset file (512 KiB) and the rest of the request
MAX_DEPTH = 8  # {"files": {"x.yaml": "..."}, "flags": [...]} is 2 deep
MAX_CONNECTIONS = 32
IDLE = 5.0  # seconds a socket may stay silent
READ_DEADLINE = 10.0  # seconds to send a whole request

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# path -> (file in scorer/serve/static, content type); nothing else is ever read
STATIC: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
    "/favicon.ico": ("icon.svg", "image/svg+xml"),
}


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


def _static_files() -> dict[str, bytes]:
    root = resources.files("scorer.serve") / "static"
    return {name: (root / name).read_bytes() for name, _ in set(STATIC.values())}


class Server(ThreadingHTTPServer):
    """A ThreadingHTTPServer with the API, the page in memory and a connection cap."""

    daemon_threads = True  # Ctrl-C does not wait for a client that keeps a socket open
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], api: Api) -> None:
        self.api = api
        self.files = _static_files()
        # the limits, per server (tests shorten them)
        self.idle, self.read_deadline, self.max_body = IDLE, READ_DEADLINE, MAX_BODY
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6  # --host :: or an IPv6 address
        super().__init__(address, Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve in a thread while a slot is free; else answer 503 at once and close."""
        if not self.slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Connection: close\r\nRetry-After: 1\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that broke (a client gone, a socket cut) is no news: one line."""
        e = sys.exc_info()[1]
        if not isinstance(e, OSError):
            print(f"mjscore serve: {type(e).__name__} from {client_address[0]}", file=sys.stderr)


class Handler(BaseHTTPRequestHandler):
    """One connection (HTTP/1.0: one request, then closed)."""

    server: Server
    server_version = "mjscore"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle)  # a silent socket is dropped
        # a request must be in within the deadline however slowly it trickles in
        self._cutoff = threading.Timer(self.server.read_deadline, self._cut)
        self._cutoff.daemon = True
        self._cutoff.start()

    def finish(self) -> None:
        self._cutoff.cancel()
        with contextlib.suppress(OSError):
            super().finish()

    def _cut(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a table's server prints its URL, not every request."""

    # -- answers ---------------------------------------------------------------------------
    def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
        self._cutoff.cancel()  # the request is read: answering may take longer
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False).encode(),
                   "application/json; charset=utf-8")

    def _error(self, e: RequestError) -> None:
        self._json(e.status, error_body(e))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's own errors (a bad request line, headers too long) as JSON too."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self._json(code, {"error": {"kind": "request", "message": message or "bad request"}})

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        try:
            path = self.path.split("?", 1)[0]
            if path.startswith("/api/"):
                status, obj = self.server.api.get(path)
                self._json(status, obj)
                return
            entry = STATIC.get(path)
            if entry is None:
                self._error(RequestError(f"no page {path[:80]}", 404))
                return
            name, ctype = entry
            self._send(200, self.server.files[name], ctype)
        except OSError:
            raise
        except Exception as e:  # never a traceback to the client
            self._json(500, error_body(e))

    def do_POST(self) -> None:
        try:
            path = self.path.split("?", 1)[0]
            body = self._body()
            if body is None:
                return
            status, obj = self.server.api.post(path, body)
            self._json(status, obj)
        except OSError:
            raise
        except Exception as e:
            self._json(500, error_body(e))

    def _body(self) -> Any:
        """The request's JSON, or None after answering why it cannot be read."""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            self._error(RequestError("send the request as Content-Type: application/json", 415))
            return None
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            self._error(RequestError("the request needs a Content-Length", 411))
            return None
        n = int(length)
        if n > self.server.max_body:
            self.close_connection = True
            self._error(RequestError(f"the request is larger than {self.server.max_body // 1024} "
                                     "KiB", 413))
            return None
        raw = self.rfile.read(n)
        if len(raw) < n:
            self.close_connection = True
            return None  # the client went away (or was cut off) mid-body: nobody to answer
        self._cutoff.cancel()
        if json_depth(raw) > MAX_DEPTH:
            self._error(RequestError(f"JSON nested deeper than {MAX_DEPTH} levels; refused"))
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            self._error(RequestError(f"the body is not JSON: {str(e)[:120]}"))
            return None


def make_server(host: str, port: int, api: Api | None = None) -> Server:
    """A server bound to (host, port) (port 0: any free one), not yet serving.

    Call ``serve_forever()`` on it (in a thread, for tests) and ``shutdown()`` to stop it.
    """
    return Server((host, port), api or Api())
