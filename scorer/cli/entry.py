"""The ``mjscore`` console entry point: what every run does before and after its command.

:func:`main` sets up the streams, the garbage collector and SIGTERM, runs the command and
turns every way a run can end into one line and an exit status. A well-formed
``mjscore score`` line — the command a shell script starts once per hand — or ``waits``
line is read by :func:`scorer.lines.grammar.parse` (the grammar typer's options are built from)
and scored at once, and a well-formed ``batch`` line is read by
:func:`scorer.cli.batchcmd.parse` and run, without importing typer, the vendored click or
the other commands: most of a cold start (docs/speed.md). Every other command line,
``--help`` and every line that these parsers refuse go to the typer app (:mod:`.app`),
which words the usage errors; tests/cli/test_entry.py runs both paths on the same lines and compares them.
"""

from __future__ import annotations

import gc
import signal
import sys
import threading
from typing import Any

from . import output
from .output import (
    EXIT_INTERRUPT,
    EXIT_PIPE,
    EXIT_TERM,
    asks_json,
    drop_notices,
    fail,
    pipe_closed,
    say_notices,
    stopped,
    stopped_line,
)


def main(argv: list[str] | None = None, fast: bool = True) -> None:
    """Console entry point: run the app; every way a run can end is one line and an exit status.

    Usage errors exit 2, Ctrl-C 130, SIGTERM 143, a closed stdout 141, a full disk 74
    (``scorer.cli.output``). With ``fast`` (the default) a well-formed ``score`` line skips
    typer; ``fast=False`` sends every line through typer (the tests compare the two).
    Returns nothing: raises SystemExit.
    """
    from ..errors import Terminated

    args = _typed(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with stdout closed (>&-): nothing can be shown
        raise SystemExit(EXIT_PIPE)
    for stream in (sys.stdout, sys.stderr):
        # a terminal or pipe that cannot show Chinese (LANG=C, PYTHONIOENCODING=ascii) gets
        # \uXXXX escapes instead of a UnicodeEncodeError
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    # Never rescan what was loaded at start-up (the compiled rulesets, the modules), and
    # collect the young generation less often than Python's 700 — but not much less: each
    # hand leaves cycles behind (Envs and their readings), and 50,000 objects of them held
    # a long batch 10 MB above a short one (36.7 against 25.9 MB; 10,000 keeps it at 27.9,
    # as fast: tests/hostile/test_robust.py holds a long batch within 1.2x of a short one)
    gc.freeze()
    gc.set_threshold(10_000, 5, 5)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)
    output.json_asked = asks_json(args)  # every error of the run, as JSON too (output.fail)
    drop_notices()  # (a run in a process that ran others says only its own)
    try:
        from .config import apply, flag_value

        # the defaults of the environment and the config file (MJSCORE_RULES, ...): the
        # ruleset of score and waits given here, before either parser reads the line
        try:
            args = apply(args)
        except Exception as e:  # a config file or variable that is wrong: one line, exit 2
            words = args[:args.index("--")] if "--" in args else args
            fail(e, "--json" in words, flag_value(words, "--lang"))
        parsed = _fast(args) if fast else None
        if parsed is not None:
            _run(args[0], parsed)
            rv = 0
        else:
            from .app import run

            rv = run(args)
        sys.stdout.flush()  # so a closed pipe is noticed here, not at interpreter exit
        if rv:
            raise SystemExit(rv)
        say_notices(args)
    except BrokenPipeError:
        pipe_closed()
    except KeyboardInterrupt:
        stopped(stopped_line("interrupted", args), EXIT_INTERRUPT)
    except Terminated:
        stopped(stopped_line("terminated", args), EXIT_TERM)
    except OSError as e:
        fail(e)
    except SystemExit as e:
        # a deprecation or cache notice follows a run that succeeded (a batch whose lines
        # failed ran too), never an error: an error is one line (scorer.rules.notices)
        if e.code in (0, None) or (e.code == 1 and args[:1] == ["batch"]):
            say_notices(args)
        else:
            drop_notices()
        raise
    except Exception as e:  # pragma: no cover - last line of defence
        fail(e)


def _typed(args: list[str]) -> list[str]:
    """``args`` with flag names as an input method types them (``－－from``) read as ASCII,
    once, before either parser reads them (:func:`scorer.cli.argv.typed`)."""
    if all(map(str.isascii, args)):
        return args
    from .argv import typed

    return typed(args)


def _fast(args: list[str]) -> Any:
    """The parsed ``score`` or ``waits`` line (the two take the same flags) or ``batch``
    line, or None when typer must read it (another command, --help, any mistake: typer
    words it)."""
    if args and args[0] == "batch":
        from .batchcmd import parse as parse_batch

        return parse_batch(args[1:])
    if not args or args[0] not in ("score", "waits"):
        return None
    from ..lines.grammar import parse

    try:
        return parse(args[1:])
    except Exception:  # a usage error or a bad value: typer reports it, as it always has
        return None


def _run(command: str, args: Any) -> None:
    """Run a parsed ``score``, ``waits`` or ``batch``; its errors become one line and their
    exit status."""
    if command == "batch":
        from .batchcmd import run as run_batch

        run_batch(args)  # (which words its own errors)
        return
    if command == "score":
        from .scorecmd import run
    else:
        from .waitscmd import run
    try:
        run(args)
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, args.as_json, args.lang)


def _on_term(signum: int, frame: Any) -> None:
    """SIGTERM: unwind like Ctrl-C (a batch stops its workers and says what it did), exit 143."""
    from ..errors import Terminated

    raise Terminated(signum)
