"""``mjscore serve [--host H] [--port P] [--rules ID|PATH …] [--db FILE]``: the table's page.

Runs :mod:`scorer.serve` (a Starlette app under uvicorn, the ``[serve]`` extra), prints the
URL to open and runs until Ctrl-C. Bound to 127.0.0.1 unless ``--host`` says otherwise; with
``--host 0.0.0.0`` it also prints this machine's LAN address, the one the phones at the
table type. ``--rules PATH`` offers a house file by its id beside the built-ins (loaded by
each worker, untrusted like any ``--rules PATH``). The tables are kept in ``--db FILE``
(default: ``tables.sqlite3`` in the user's data folder). Exit status: 0 after Ctrl-C (or
SIGTERM), 2 for a bad option, a ruleset that does not load, a port in use, or the
``[serve]`` extra not installed (one line saying how to install it).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from typing import Any

import typer

from ..text.lang import choose_lang
from ..text.render import word
from .complete import rulesets
from .output import fail, say_notices


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
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST"),
    port: int = typer.Option(8000, "--port", metavar="N"),
    rules: list[str] | None = typer.Option(None, "--rules", metavar="ID|FILE", autocompletion=rulesets),
    db: str | None = typer.Option(None, "--db", metavar="FILE"),
    workers: int = typer.Option(0, "--workers", metavar="N", show_default=False),  # (0: the cores)
) -> None:
    """Serve the scoring page, the table's shared score sheet and the JSON API (until Ctrl-C)."""
    # The per-user ruleset cache (scorer.rules.store) writes an entry per file compiled:
    # no request may lead to a write (or a read) on this machine's disk outside the tables'
    # database, so the server (and its workers) run without it. Restored on the way out:
    # run in-process (tests, an embedding program) the command leaves its caller as it
    # found it.
    saved = os.environ.get("MJSCORE_NO_CACHE")
    os.environ["MJSCORE_NO_CACHE"] = "1"
    try:
        _serve(host, port, rules or [], db, workers)
    finally:
        if saved is None:
            os.environ.pop("MJSCORE_NO_CACHE", None)
        else:
            os.environ["MJSCORE_NO_CACHE"] = saved


INSTALL_HINT = ("mjscore: serve needs the [serve] extra (Starlette and uvicorn): "
                "pip install 'mjscore[serve]'")


def _serve(host: str, port: int, rules: list[str], db: str | None, workers: int) -> None:
    """Start the server, print its URL, serve until Ctrl-C or SIGTERM; exit 0 (2: bad option)."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        raise SystemExit(2) from None
    try:
        from ..errors import ContextError
        from ..rules.load import load_ruleset
        from ..serve.app import create_app
        from ..serve.guard import Guarded
        from ..serve.store import Store, default_path
        from ..serve.workers import Pool

        if not 0 <= port <= 65535:
            raise ContextError("serve.port", "--port", value=port)
        if not 0 <= workers <= 64:
            raise ContextError("serve.workers", "--workers", value=workers)
        for spec in rules:
            load_ruleset(spec)  # a bad one is refused here, before anything listens
        say_notices([])  # (an old spelling in one: said now, the server runs until stopped)
        path = db or os.environ.get("MJSCORE_DB") or default_path()
        try:
            store = Store(path)
        except Exception as e:  # the file, or SQLite, refused it: said from codes
            raise ContextError(*db_refused(e), "--db", path=path, **db_reason(e)) from None
        sock = _listen(host, port)
        pool = Pool(size=workers or max(2, os.cpu_count() or 2), extra=rules)
        app = create_app(pool, store)
    except SystemExit:
        raise
    except Exception as e:
        fail(e)
    bound_host, bound_port = str(sock.getsockname()[0]), int(sock.getsockname()[1])
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    # the host reads these in the language it speaks (--lang does not apply: the page picks
    # its own per phone); each URL line starts "mjscore serve: http://…/" in any language,
    # for the scripts that read it
    lang = choose_lang(None)
    if bound_host in ("0.0.0.0", "::"):
        lan = lan_address()
        print(word("serve_here", lang, url=f"http://127.0.0.1:{bound_port}/"), flush=True)
        if lan is not None:
            print(word("serve_lan", lang, url=f"http://{lan}:{bound_port}/"), flush=True)
    else:
        print(f"mjscore serve: http://{shown}:{bound_port}/", flush=True)
    print(word("serve_kept", lang, path=store.path), file=sys.stderr, flush=True)
    config = uvicorn.Config(app, http=Guarded, lifespan="on", log_level="warning",
                            access_log=False, timeout_keep_alive=5, server_header=False)
    server = uvicorn.Server(config)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
        store.close()
    print(word("serve_stopped", lang), file=sys.stderr)
    raise SystemExit(0)


# SQLite's refusals that are the file's, not its content's: the reason words (reason.*)
_SQLITE_REASONS = {"SQLITE_PERM": "permission", "SQLITE_READONLY": "read_only",
                   "SQLITE_IOERR": "io", "SQLITE_FULL": "no_space", "SQLITE_CANTOPEN": "other"}


def db_refused(e: BaseException) -> tuple[str]:
    """The code of the error ``--db`` is refused with: the file cannot be opened
    (``serve.db_open``), is a newer mjscore's (``serve.db_newer``) or no database of the
    tables (``serve.db_bad``).

    >>> db_refused(PermissionError(13, "Permission denied")), db_refused(ValueError())
    (('serve.db_open',), ('serve.db_bad',))
    """
    from ..serve.store import NewerSchema

    if isinstance(e, NewerSchema):
        return ("serve.db_newer",)
    if isinstance(e, OSError) or getattr(e, "sqlite_errorname", "") in _SQLITE_REASONS:
        return ("serve.db_open",)
    return ("serve.db_bad",)


def db_reason(e: BaseException) -> dict[str, Any]:
    """The parameters saying why, from the error's number or name, never its English.

    >>> db_reason(PermissionError(13, "Permission denied"))
    {'reason': 'permission', 'errno': 'EACCES'}
    """
    from ..errors import os_reason
    from ..serve.store import NewerSchema

    if isinstance(e, NewerSchema):
        return {"have": e.have, "known": e.known}
    if isinstance(e, OSError):
        return dict(os_reason(e))
    name = str(getattr(e, "sqlite_errorname", "") or type(e).__name__)  # (3.11+: SQLITE_…)
    return {"reason": _SQLITE_REASONS.get(name, "other"), "errno": name}


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); raises ContextError when it cannot be had."""
    from ..errors import ContextError, os_reason

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise ContextError("serve.listen", "--port", host=host, port=port,
                           **os_reason(e)) from None
    sock.set_inheritable(True)
    return sock
