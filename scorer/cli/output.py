"""Writing to the terminal, and errors turned into one line and an exit status.

Exit statuses (README, docs/contract.md):

* 0 — scored
* 1 — ``batch``: at least one line failed
* 2 — bad input: hand notation, impossible hand, bad flag, bad ruleset
* 3 — the hand is not a legal win (the message says why)
* 70 — an internal error (a bug: please report it with the hand)
* 74 — the output could not be written (a full disk, an I/O error)
* 130 — interrupted (Ctrl-C, SIGINT)
* 141 — the output pipe was closed by its reader (``mjscore ... | head``)
* 143 — terminated (SIGTERM)

A file that cannot be read (missing, a directory, no permission, a name too long or
holding a NUL byte) is bad input: exit 2, one line naming the file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import sys
from typing import Any, NoReturn

EXIT_INTERNAL = 70
EXIT_IOERR = 74  # sysexits.h EX_IOERR
EXIT_INTERRUPT = 130  # 128 + SIGINT, as a shell reports a process killed by Ctrl-C
EXIT_PIPE = 141  # 128 + SIGPIPE
EXIT_TERM = 143  # 128 + SIGTERM

COMMANDS = ("score", "waits", "rules", "batch", "round", "standings", "serve", "config")

# errors of writing, not of what was asked: the disk is full, the device failed
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EROFS})


def one_line(text: str) -> str:
    r"""Make a message one printable line: line breaks and control characters are escaped.

    Messages echo what the user typed (``--option cap=...``, a ruleset's ``message:``), so
    a newline or a terminal escape sequence in it must not break the one-line contract.

    >>> one_line("bad\nvalue\x1b[31m")
    'bad\\nvalue\\x1b[31m'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def dumps(obj: object) -> str:
    """JSON text for stdout: UTF-8 when stdout can take it, else \\uXXXX escapes (valid JSON).

    >>> dumps({"name": "自摸"}) in ('{"name": "自摸"}', '{"name": "\\\\u81ea\\\\u6478"}')
    True
    """
    try:
        "自摸×🀄".encode(sys.stdout.encoding or "utf-8")
        utf8 = True
    except (UnicodeEncodeError, LookupError):
        utf8 = False
    return json.dumps(obj, ensure_ascii=not utf8)


def asks_json(args: list[str]) -> bool:
    """Whether a command line asks for JSON (``--json`` among its options, before ``--``):
    then every error of it, a usage error included, is also a JSON object on stdout.

    >>> asks_json(["waits", "1m", "--json", "--bogus"]), asks_json(["score", "--", "--json"])
    (True, False)
    """
    words = args[:args.index("--")] if "--" in args else args
    return "--json" in words


# Whether the command line asked for JSON (--json): set by scorer.cli.entry.main, so that
# every error of every command is a JSON object on stdout too, whether or not the command
# passes it on (a command without --json of its own, an error before its options are read)
json_asked = False


def fail(e: Exception, as_json: bool = False, lang: str | None = None) -> NoReturn:
    """Print ``e`` as one line on stderr (and as JSON on stdout if asked) in ``lang`` (None:
    the run's language, :func:`scorer.text.lang.choose_lang`); exit with its status.

    Never returns: raises SystemExit 2 or 3 for a user's mistake, 70 for a bug, 141 for a
    closed pipe.
    """
    from ..errors import MjscoreError
    from ..text.lang import LANGS, choose_lang
    from ..views.jsondata import error_json

    as_json = as_json or json_asked
    lang = choose_lang(lang)
    if lang not in LANGS:  # the error may be about --lang itself
        lang = choose_lang(None)

    if isinstance(e, BrokenPipeError):
        pipe_closed()
    if isinstance(e, OSError) and e.errno in WRITE_ERRNOS:
        write_failed(e, lang)
    if isinstance(e, OSError) or (type(e) is ValueError and "null byte" in str(e)):
        # a file named by the user that cannot be opened: bad input, like a missing file
        from ..errors import ContextError, os_reason

        name = getattr(e, "filename", None)
        if isinstance(e, OSError):
            e = ContextError("file.cannot_open" if name else "file.cannot_open_any",
                             name=str(name), **os_reason(e))
        else:
            e = ContextError("file.name_nul", name=str(name))
    if isinstance(e, MjscoreError):
        if as_json:
            out = error_json(e, lang)
            out["error"]["message"] = one_line(out["error"]["message"])
            print(dumps(out))
        print(f"mjscore: {one_line(e.render(lang))}", file=sys.stderr)
        raise SystemExit(e.exit_code)
    if as_json:
        print(dumps({"error": {"kind": "internal", "message": one_line(repr(e))}}))
    print(f"mjscore: internal error: {type(e).__name__}: {one_line(str(e))} "
          "(please report this hand)", file=sys.stderr)
    raise SystemExit(EXIT_INTERNAL)


def usage_error(code: str, params: dict[str, Any], where: str, as_json: bool,
                lang: str = "zh") -> NoReturn:
    """A usage error of the command line (unknown flag, missing value), worded in ``lang``
    from the catalogue: one line, exit 2; with ``as_json``, also ``{"error": {"kind":
    "usage", "message", "code", "params"}}`` on stdout (docs/contract.md), whatever the
    command."""
    from ..text.render import render

    message = render(code, params, lang)
    if as_json:
        # a script that asked for JSON gets the error as JSON, like any other error
        print(dumps({"error": {"kind": "usage", "message": one_line(message), "code": code,
                               "params": params}}))
    print(f"mjscore: {one_line(message)}{where}", file=sys.stderr)
    raise SystemExit(2)


def lang_of(args: list[str]) -> str:
    """The language a command line's errors are worded in: its ``--lang`` when that is zh
    or en, else the run's (:func:`scorer.text.lang.choose_lang`).

    >>> lang_of(["score", "--lang", "en"]), lang_of(["score", "--lang=zh"])
    ('en', 'zh')
    """
    from ..text.lang import LANGS, choose_lang

    words = args[:args.index("--")] if "--" in args else args
    asked = None
    for i, w in enumerate(words):
        if w == "--lang" and i + 1 < len(words):
            asked = words[i + 1]
        elif w.startswith("--lang="):
            asked = w.partition("=")[2]
    return asked if asked in LANGS else choose_lang(None)


def say_notices(args: list[str]) -> None:
    """Say what the run noted that is not an error (an old spelling in a ruleset, a ruleset
    cache not used: scorer.rules.notices), one line each on stderr, after a run that
    succeeded; in the language of its ``--lang``."""
    from ..rules.notices import take

    found = take()
    if not found:
        return
    lang = lang_of(args)
    with contextlib.suppress(OSError, ValueError):
        for n in found:
            text = n.render(lang) if hasattr(n, "render") else str(n)
            print(f"mjscore: {one_line(text)}", file=sys.stderr)


def drop_notices() -> None:
    """Forget what the run noted: it failed, and its error is its one line."""
    from ..rules.notices import take

    take()


def write_failed(e: OSError, lang: str | None = None) -> NoReturn:
    """The output cannot be written (``> /dev/full``): one line on stderr in ``lang`` (None:
    the run's), exit 74.

    Whatever is still buffered for stdout is dropped (stdout goes to /dev/null), so the
    interpreter's last flush does not fail again with a second message.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"mjscore: {cannot_write(e, lang)}", file=sys.stderr, flush=True)
    raise SystemExit(EXIT_IOERR)


def cannot_write(e: OSError, lang: str | None = None) -> str:
    """"The output cannot be written" and why, in ``lang`` (None: the run's language).

    >>> import errno
    >>> cannot_write(OSError(errno.ENOSPC, "No space left on device"), "zh")
    '写不了输出：磁盘上没有空间了'
    """
    from ..errors import os_reason
    from ..text.lang import choose_lang
    from ..text.render import word

    return word("output.cannot_write", lang or choose_lang(None), **os_reason(e))


def pipe_closed() -> NoReturn:
    """The reader went away (`mjscore ... | head`): stop quietly, as Unix tools do."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # (no real stdout in tests)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise SystemExit(EXIT_PIPE)


def command_name(args: list[str]) -> str:
    """The command a run is of, for messages: ``mjscore batch`` (``mjscore`` if none).

    >>> command_name(["score", "11m", "--rules", "mcr"]), command_name(["--help"])
    ('mjscore score', 'mjscore')
    """
    first = next((a for a in args if not a.startswith("-")), "")
    return f"mjscore {first}" if first in ("score", "waits", "rules", "batch", "round") else \
        "mjscore"


def stopped_line(stop: str, args: list[str]) -> str:
    """Why a run stopped (``stop``: interrupted, terminated, aborted) and its command, in
    the language of the command line (:func:`lang_of`).

    >>> stopped_line("interrupted", ["score", "--lang", "zh"])
    '已中断（mjscore score）'
    >>> stopped_line("aborted", ["rules", "--lang", "en"])
    'aborted (mjscore rules)'
    """
    from ..text.render import word

    return word("output.stopped", lang_of(args), stop=stop, command=command_name(args))


def stopped(message: str, status: int) -> NoReturn:
    """Stopped by a signal: what was written stays (flushed whole), one line, ``status``."""
    # a second Ctrl-C while finishing must not leave a traceback instead of the status
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(Exception):
        print(f"mjscore: {message}", file=sys.stderr, flush=True)
    raise SystemExit(status)


def in_file(e: Any, path: str, line: int | None = None) -> Any:
    """The error ``e`` (a MjscoreError), said of ``path`` (and ``line``, else the line it
    names already): its message starts ``PATH:LINE:``; one that names a file (a ruleset's)
    is left as it is. Returns ``e``.

    >>> from scorer.errors import ContextError
    >>> str(in_file(ContextError("round.empty", at_line=3), "r.txt"))
    'r.txt:3: the round has no events (kong, win or hand lines)'
    """
    params = dict(e.params)
    at = params.pop("at_line", None)
    if params.get("file"):
        return e
    params["file"] = path
    if line or at:
        params["line"] = line or at
    e.params = params
    return e

