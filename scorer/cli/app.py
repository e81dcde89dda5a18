"""The ``mjscore`` command: thin typer commands over the library.

Each command's body is in its own module (:mod:`.scorecmd`, :mod:`.rulescmd`,
:mod:`.batchcmd`, …), writing and exit statuses in :mod:`.output`; the console entry point
is :func:`scorer.cli.entry.main`, which runs a well-formed ``score`` line without this
module. The options of ``score`` are built from the
flag table (:data:`scorer.lines.grammar.OPTIONS`), the same rows the batch line parser reads, so
a flag added to the table appears here, in ``--help`` and in batch lines at once.
"""

from __future__ import annotations

import inspect
from typing import Any

import typer

from ..lines.grammar import OPTIONS, REQUIRED, score_args
from ..lines.grammar import context_from_params as context_from_params  # re-exported (older callers)
from ..lines.grammar import parse_score_args as parse_score_args
from ..rules.flags import Flag
from . import batchcmd, configcmd, roundcmd, rulescmd, scorecmd, servecmd, standingscmd, waitscmd
from .complete import BY_FIELD, batch_formats, langs
from .helpfmt import HelpCommand, HelpGroup, Rows, param_text, text
from .output import (
    COMMANDS,
    EXIT_INTERRUPT,
    asks_json,
    fail,
    lang_of,
    stopped,
    stopped_line,
    usage_error,
)
from .output import EXIT_INTERNAL as EXIT_INTERNAL
from .params import integer
from .usage import UsageCommand, UsageGroup
from .usage import usage_code as usage_code  # re-exported (tests, older callers)


class AppGroup(UsageGroup, HelpGroup):
    """The root group: every help text from the catalogue in the run's language (.helpfmt),
    an unknown command said so too (.usage)."""


class AppCommand(UsageCommand, HelpCommand):
    """A command: its help in the run's language, arguments it does not take said so."""


app = typer.Typer(
    name="mjscore",
    cls=AppGroup,
    add_completion=True,  # typer imports its completion code anyway: +0.4 ms to build the command
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # (the sub-commands inherit it)
)


def score(**params: Any) -> None:
    """Score one hand and show why: reading, wildcards, patterns, chain, payments."""
    try:
        scorecmd.run(score_args(params))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, bool(params.get("as_json")), params.get("lang"))


def waits(**params: Any) -> None:
    """What a hand one tile short waits on: every completing tile, scored (takes the score flags)."""
    try:
        waitscmd.run(score_args(params))
    except SystemExit:
        raise
    except Exception as e:
        fail(e, bool(params.get("as_json")), params.get("lang"))


def _parameter(f: Flag) -> inspect.Parameter:
    """The typer option of one row: a switch, a value, or a repeatable value."""
    annotation: Any = f.type
    if f.multiple:
        annotation = list[f.type] | None  # type: ignore[name-defined]
    elif f.default is None:
        annotation = f.type | None
    default: Any = ... if f.field in REQUIRED else (None if f.multiple else f.default)
    # a number is read as every number is (ASCII digits: scorer.cli.params.integer)
    number: Any = {"parser": integer} if f.type is int else {}
    if f.value_name:  # the flag table's (SEAT, TILE, N, …), not typer's <str>
        number["metavar"] = f.value_name
    complete = BY_FIELD.get(f.field)  # the values the shell completes (scorer.cli.complete)
    extra: Any = {"autocompletion": complete} if complete is not None else {}
    return inspect.Parameter(f.field, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                             # the row's English: only where the catalogue has no entry
                             # (a row just added: tests/cli/test_help.py asks for one)
                             default=typer.Option(default, *f.names, help=f.help, **number,
                                                  **extra))


def _signature() -> inspect.Signature:
    # variadic: a hand split over several arguments (unquoted) is joined (scorer.lines.grammar)
    hand = inspect.Parameter("hand", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                             annotation=list[str], default=typer.Argument(..., metavar="HAND"))
    return inspect.Signature([hand, *map(_parameter, OPTIONS)], return_annotation=None)


# typer reads a command's parameters from its signature and annotations: give it the table's
_SIGNATURE = _signature()
for _command in (score, waits):  # waits takes exactly the score flags
    _command.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
    _command.__annotations__ = {p.name: p.annotation for p in _SIGNATURE.parameters.values()}
    app.command(cls=AppCommand)(_command)
def _version(value: bool) -> None:
    if value:
        from .. import __version__, build

        # the first two words stay `mjscore VERSION` (docs/contract.md); then the build
        print(f"mjscore {__version__} ({build()})")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version,
                                       is_eager=True)) -> None:
    """The app's options (its help: the catalogue's ``help.mjscore``, scorer.cli.helpfmt)."""


def batch(ctx: typer.Context, file: str, **params: Any) -> None:
    """Score many hands, and settle the evening (or, with several files, the season). Other
    flags (--rules, --option, --players, ...) apply to every line; a line's own flags
    override them. Exit 1 if any line failed."""
    files, extra = batchcmd.split_files(list(ctx.args))
    batchcmd.run(batchcmd.BatchArgs(file, extra, **params, files=files))


def _batch_signature() -> inspect.Signature:
    """batch's parameters for typer, from batchcmd's table of options (the fast parser's)."""
    defaults = batchcmd.BatchArgs._field_defaults
    params = [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=typer.Context),
        inspect.Parameter("file", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str,
                          default=typer.Argument(..., metavar="FILE")),
    ]
    for o in batchcmd.OPTIONS:
        default = defaults[o.field]
        annotation: Any = o.type if default is not None else o.type | None
        number: Any = {"parser": integer} if o.type is int else {}
        if o.metavar:
            number["metavar"] = o.metavar
        complete = {"fmt": batch_formats, "lang": langs}.get(o.field)
        if complete is not None:
            number["autocompletion"] = complete
        params.append(inspect.Parameter(o.field, inspect.Parameter.KEYWORD_ONLY,
                                        annotation=annotation,
                                        default=typer.Option(default, o.name,
                                                             *([o.short] if o.short else []),
                                                             **number)))
    return inspect.Signature(params, return_annotation=None)


_BATCH = _batch_signature()
batch.__signature__ = _BATCH  # type: ignore[attr-defined]
batch.__annotations__ = {p.name: p.annotation for p in _BATCH.parameters.values()}


class BatchCommand(HelpCommand):
    """``batch``: its help ends with the flags a line takes (the flag table's)."""

    def more(self, lang: str) -> list[tuple[str, Rows]]:
        """The flags of a line and what each means, after the paragraph that says so."""
        return [(text("help.batch.lines", lang), line_flag_rows(lang))]


def line_flag_rows(lang: str) -> Rows:
    """The flags a batch line takes, each with its help in ``lang``, from the flag table
    (the options of ``score`` but how it prints: batch has its own --format and --lang),
    then ``--players``.

    >>> line_flag_rows("en")[1]
    ('--self-draw', 'The winning tile was self-drawn.')
    """
    out = []
    for f in OPTIONS:
        if f.field in ("as_json", "explain", "no_unicode", "lang"):
            continue
        value = f" {f.value_name}" if f.value_name else ""
        out.append((" / ".join(f.names) + value, param_text(("score",), f.field, lang)))
    out.append(("--players SEATING", text("help.batch.players", lang)))
    return out


app.add_typer(rulescmd.app, name="rules")
app.command(cls=BatchCommand,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(batch)
app.command("round", cls=AppCommand)(roundcmd.round_cmd)
app.command("standings", cls=AppCommand)(standingscmd.standings_cmd)
app.command("serve", cls=AppCommand)(servecmd.serve)
app.command("config", cls=AppCommand)(configcmd.config_cmd)


def run(args: list[str]) -> int:
    """Run a command line through the typer app; return its exit status (0 when it ran).

    Typer's own ways of ending — a usage error, ``--help`` on no arguments, Abort, Exit —
    become one line and an exit status here; the rest (signals, a closed pipe, errors)
    is :func:`scorer.cli.entry.main`'s.
    """
    try:
        rv = app(args=args, prog_name="mjscore", standalone_mode=False)
        if rv == EXIT_INTERRUPT:
            # typer turns Ctrl-C into a returned 130 (standalone_mode=False)
            raise KeyboardInterrupt
        return rv if isinstance(rv, int) else 0
    except typer.Exit as e:
        raise SystemExit(e.exit_code) from None
    except typer.Abort:
        stopped(stopped_line("aborted", args), EXIT_INTERRUPT)
    except typer.TyperException as e:  # usage errors of the vendored click
        if type(e).__name__ == "NoArgsIsHelpError":
            ctx = getattr(e, "ctx", None)
            print(ctx.get_help() if ctx is not None else "mjscore --help")
            raise SystemExit(0) from None
        ctx = getattr(e, "ctx", None)
        # the command's whole path (mjscore rules show), for where its --help is
        command = str(getattr(ctx, "command_path", "") or "mjscore")
        if command == "mjscore" and args and args[0] in COMMANDS:
            command = f"mjscore {args[0]}"  # (click reports a missing value on the group's)
        code, params = usage_code(e, args)  # (from its class, never click's English)
        # where the flags are listed; not after the close ones (the line names them: one
        # line of a terminal, docs/contract.md#errors)
        where = "" if code == "usage.no_such_option_near" else f" ({command} --help)"
        usage_error(code, params, where, asks_json(args), lang_of(args))
