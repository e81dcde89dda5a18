"""``mjscore serve [--host H] [--port P] [--rules ID|PATH …]``: the table's page.

Starts :mod:`scorer.serve` (a standard-library HTTP server), prints the URL to open and
runs until Ctrl-C. Bound to 127.0.0.1 unless ``--host`` says otherwise; with
``--host 0.0.0.0`` it also prints this machine's LAN address, the one the phones at the
table type. ``--rules PATH`` offers a house file by its id beside the built-ins
(loaded once, untrusted like any ``--rules PATH``). Exit status: 0 after Ctrl-C (or
SIGTERM), 2 for a bad option, a ruleset that does not load or a port in use.
"""

from __future__ import annotations

import os
import signal
import socket
import sys

import typer

from .output import fail


def lan_address() -> str | None:
    """This machine's address on the local network (the one a phone can reach), or None.

    Found by asking the system which interface would route to a public address; no packet
    is sent (a UDP socket only connects).
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, nothing is sent
        addr = str(s.getsockname()[0])
    except OSError:
        return None
    finally:
        s.close()
    return None if addr.startswith("0.") else addr


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 lets "
                             "the phones at the table connect."),
    port: int = typer.Option(8000, "--port", help="Port (0: any free one)."),
    rules: list[str] | None = typer.Option(None, "--rules", help="Also offer this ruleset "
                                           "(a built-in id or a house file; repeatable)."),
) -> None:
    """Serve the scoring page and its JSON API to the table (until Ctrl-C)."""
    # The per-user ruleset cache (scorer.rules.cache) writes an entry per file compiled:
    # a server compiles each ruleset once per process anyway, and no request may lead to a
    # write (or a read) on this machine's disk, so the server runs without it. Restored on
    # the way out, as is SIGTERM's handler: run in-process (tests, an embedding program)
    # the command leaves its caller as it found it.
    saved = os.environ.get("MJSCORE_NO_CACHE")
    os.environ["MJSCORE_NO_CACHE"] = "1"
    try:
        _serve(host, port, rules or [])
    finally:
        if saved is None:
            os.environ.pop("MJSCORE_NO_CACHE", None)
        else:
            os.environ["MJSCORE_NO_CACHE"] = saved


def _serve(host: str, port: int, rules: list[str]) -> None:
    """Start the server, print its URL, serve until Ctrl-C or SIGTERM; exit 0 (2: bad option)."""
    try:
        from ..errors import ContextError
        from ..rules.load import load_ruleset
        from ..serve.api import Api
        from ..serve.server import make_server

        if not 0 <= port <= 65535:
            raise ContextError(f"--port {port}: use 0..65535", "--port")
        extra = [(spec, load_ruleset(spec)) for spec in rules]
        try:
            srv = make_server(host, port, Api(extra))
        except OSError as e:
            raise ContextError(f"cannot listen on {host}:{port}: {e.strerror or e}",
                               "--port") from None
    except SystemExit:
        raise
    except Exception as e:
        fail(e)
    bound_host, bound_port = str(srv.server_address[0]), int(srv.server_address[1])
    shown = f"[{bound_host}]" if ":" in str(bound_host) else bound_host
    if bound_host in ("0.0.0.0", "::"):
        lan = lan_address()
        print(f"mjscore serve: http://127.0.0.1:{bound_port}/ on this machine", flush=True)
        if lan is not None:
            print(f"at the table, open http://{lan}:{bound_port}/", flush=True)
    else:
        print(f"mjscore serve: http://{shown}:{bound_port}/", flush=True)
    print("Ctrl-C stops it.", file=sys.stderr, flush=True)

    def _stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # SIGINT too: a process started in the background by a shell inherits SIGINT ignored,
    # and `kill -INT` (or a test's Ctrl-C) must still stop the server
    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        srv.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        print("mjscore serve: stopped", file=sys.stderr)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        srv.server_close()
    raise SystemExit(0)
