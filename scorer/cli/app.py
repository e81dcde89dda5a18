"""The ``mjscore`` command: thin typer commands over the library.

``score`` is here; ``rules`` and ``batch`` are in :mod:`.rulescmd` and :mod:`.batchcmd`,
writing and exit statuses in :mod:`.output`. The options of ``score`` are built from the
flag table (:data:`scorer.argv.OPTIONS`), the same rows the batch line parser reads, so
a flag added to the table appears here, in ``--help`` and in batch lines at once.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import signal
import sys
import threading
from typing import Any, NoReturn

import typer

from ..argv import HAND_HELP, OPTIONS, REQUIRED, ScoreArgs, score_args
from ..argv import context_from_params as context_from_params  # re-exported (older callers)
from ..argv import parse_score_args as parse_score_args
from ..rules.flags import Flag
from . import batchcmd, roundcmd, rulescmd, servecmd, waitscmd
from .output import EXIT_INTERNAL as EXIT_INTERNAL
from .output import EXIT_INTERRUPT, EXIT_PIPE, EXIT_TERM, dumps, fail, pipe_closed, usage_error

app = typer.Typer(
    name="mjscore",
    help="Score Chinese mahjong hands: Hangzhou, Jinhua, Xiamen and Chinese Official (MCR).",
    add_completion=True,  # typer imports its completion code anyway: +0.4 ms to build the command
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def score(**params: Any) -> None:
    """Score one hand and show why: reading, wildcards, patterns, chain, payments."""
    try:
        args = score_args(params)
        if args.vs is not None or args.vs_options:
            _dispute(args)
            return
        from ..engine.scoring import score as score_hand
        from ..errors import NotAWin
        from ..views.report import explain_json, human, refused, to_json

        try:
            result = score_hand(args.hand, args.rules, args.context)
        except NotAWin as e:
            # below a minimum the message names the fans found; a refusal on the wait, why
            text, err = refused(e, args.hand, args.rules, args.context, args.lang)
            if text and not args.as_json:
                print(text)
            raise err from None
        if not args.as_json:
            print(human(result, lang=args.lang, explain=args.explain, unicode=args.unicode,
                        top=args.explain_top))
            return
        out = to_json(result, args.lang)
        if args.explain:
            out["explain"] = explain_json(result, args.lang)
        print(dumps(out))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, bool(params.get("as_json")), str(params.get("lang", "zh")))


def waits(**params: Any) -> None:
    """What a hand one tile short waits on: every completing tile, scored (takes the score flags)."""
    try:
        waitscmd.run(score_args(params))
    except SystemExit:
        raise
    except Exception as e:
        fail(e, bool(params.get("as_json")), str(params.get("lang", "zh")))


def _parameter(f: Flag) -> inspect.Parameter:
    """The typer option of one row: a switch, a value, or a repeatable value."""
    annotation: Any = f.type
    if f.multiple:
        annotation = list[f.type] | None  # type: ignore[name-defined]
    elif f.default is None:
        annotation = f.type | None
    default: Any = ... if f.field in REQUIRED else (None if f.multiple else f.default)
    return inspect.Parameter(f.field, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                             default=typer.Option(default, *f.names, help=f.help))


def _signature() -> inspect.Signature:
    # variadic: a hand split over several arguments (unquoted) is joined (scorer.argv)
    hand = inspect.Parameter("hand", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                             annotation=list[str], default=typer.Argument(..., help=HAND_HELP))
    return inspect.Signature([hand, *map(_parameter, OPTIONS)], return_annotation=None)


# typer reads a command's parameters from its signature and annotations: give it the table's
_SIGNATURE = _signature()
for _command in (score, waits):  # waits takes exactly the score flags
    _command.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
    _command.__annotations__ = {p.name: p.annotation for p in _SIGNATURE.parameters.values()}
    app.command()(_command)
def _version(value: bool) -> None:
    if value:
        from .. import __version__, build

        # the first two words stay `mjscore VERSION` (docs/contract.md); then the build
        print(f"mjscore {__version__} ({build()})")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Score Chinese mahjong hands: Hangzhou, Jinhua, Xiamen and Chinese Official (MCR)."""


app.command()(rulescmd.rules)
app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
            epilog=batchcmd.line_flags_help())(batchcmd.batch)
app.command("round")(roundcmd.round_cmd)
app.command("serve")(servecmd.serve)
_COMMANDS = ("score", "waits", "rules", "batch", "round", "serve")


def _dispute(args: ScoreArgs) -> None:
    """Score under both sides and print the comparison (exit 0 if at least one side scored)."""
    from ..dispute import dispute_json, dispute_of, dispute_text

    d, lang = dispute_of(args), args.lang
    if args.as_json:
        import json

        print(json.dumps(dispute_json(d, lang), ensure_ascii=False))
    else:
        print(dispute_text(d, lang))


def _on_term(signum: int, frame: Any) -> None:
    """SIGTERM: unwind like Ctrl-C (a batch stops its workers and says what it did), exit 143."""
    from ..errors import Terminated

    raise Terminated(signum)


def _command_name(args: list[str]) -> str:
    """The command a run is of, for messages: ``mjscore batch`` (``mjscore`` if none).

    >>> _command_name(["score", "11m", "--rules", "mcr"]), _command_name(["--help"])
    ('mjscore score', 'mjscore')
    """
    first = next((a for a in args if not a.startswith("-")), "")
    return f"mjscore {first}" if first in ("score", "waits", "rules", "batch", "round") else \
        "mjscore"


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app; every way a run can end is one line and an exit status.

    Usage errors exit 2, Ctrl-C 130, SIGTERM 143, a closed stdout 141, a full disk 74
    (``scorer.cli.output``). Returns nothing: raises SystemExit.
    """
    from ..errors import Terminated

    args = sys.argv[1:] if argv is None else argv
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
    # as fast: tests/test_robust.py holds a long batch within 1.2x of a short one)
    gc.freeze()
    gc.set_threshold(10_000, 5, 5)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)
    command = _command_name(args)
    try:
        rv = app(args=args, prog_name="mjscore", standalone_mode=False)
        if rv == EXIT_INTERRUPT:
            # typer turns Ctrl-C into a returned 130 (standalone_mode=False)
            raise KeyboardInterrupt
        sys.stdout.flush()  # so a closed pipe is noticed here, not at interpreter exit
        if isinstance(rv, int) and rv:
            raise SystemExit(rv)
    except BrokenPipeError:
        pipe_closed()
    except KeyboardInterrupt:
        _stopped(f"interrupted ({command})", EXIT_INTERRUPT)
    except Terminated:
        _stopped(f"terminated ({command})", EXIT_TERM)
    except OSError as e:
        fail(e)
    except typer.Exit as e:
        raise SystemExit(e.exit_code) from None
    except typer.Abort:
        _stopped(f"aborted ({command})", EXIT_INTERRUPT)
    except typer.TyperException as e:  # usage errors of the vendored click
        if type(e).__name__ == "NoArgsIsHelpError":
            ctx = getattr(e, "ctx", None)
            print(ctx.get_help() if ctx is not None else "mjscore --help")
            raise SystemExit(0) from None
        fmt = getattr(e, "format_message", None)
        msg = (fmt() if callable(fmt) else str(e)).replace("\n", " ")
        ctx = getattr(e, "ctx", None)
        command = ctx.info_name if ctx is not None and ctx.info_name else "mjscore"
        if command == "mjscore" and args and args[0] in _COMMANDS:
            command = args[0]  # (click reports a missing value on the group's context)
        where = f" (mjscore {command} --help)" if command != "mjscore" else " (mjscore --help)"
        usage_error(msg, where, bool(args) and args[0] == "score" and "--json" in args)
    except SystemExit:
        raise
    except Exception as e:  # pragma: no cover - last line of defence
        fail(e)


def _stopped(message: str, status: int) -> NoReturn:
    """Stopped by a signal: what was written stays (flushed whole), one line, ``status``."""
    # a second Ctrl-C while finishing must not leave a traceback instead of the status
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(Exception):
        print(f"mjscore: {message}", file=sys.stderr, flush=True)
    raise SystemExit(status)
