"""``mjscore batch FILE``: many hands, one per line, through :func:`scorer.cli.batchrun.run`.

It imports no typer: :func:`scorer.cli.entry.main` reads a well-formed ``batch`` line with
:func:`parse` and calls :func:`run` at once (a batch's start-up is serial: typer, click
and the other commands were a fifth of it), and the typer command (:mod:`.app`) calls
:func:`run` with what typer parsed. tests/cli/test_entry.py runs batch lines both ways.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .output import EXIT_INTERRUPT, EXIT_TERM, fail


class BatchArgs(NamedTuple):
    """A ``batch`` command line: its own options, and the flags left for every line."""

    file: str
    defaults: list[str]
    fmt: str | None = None  # None: MJSCORE_FORMAT, the config file's format, else jsonl
    jobs: int | None = None
    progress: bool | None = None
    lang: str | None = None  # None: the run's language (scorer.text.lang.choose_lang)
    totals: bool | None = None
    stake: str | None = None
    subtotals: bool = False
    files: tuple[str, ...] = ()  # the files after the first (a season), in order
    as_json: bool = False
    quiet: bool = False
    totals_csv: str | None = None


class Option(NamedTuple):
    """One of batch's own options: the field of :class:`BatchArgs` it sets, its name (a
    switch pair as ``--on/--off``), its type (``bool`` for a switch), its short name, if
    any, and what ``--help`` shows for its value. Its help is the catalogue's
    ``help.batch.FIELD`` (scorer.cli.helpfmt)."""

    field: str
    name: str
    type: type
    short: str = ""
    metavar: str = ""


# batch's own options: the one table both the parser below and the typer command (.app)
# are built from; defaults are BatchArgs'
OPTIONS = (
    Option("fmt", "--format", str, metavar="FORMAT"),
    Option("jobs", "--jobs", int, metavar="N"),
    Option("progress", "--progress/--no-progress", bool),
    Option("lang", "--lang", str, metavar="zh|en"),
    Option("totals", "--totals/--no-totals", bool),
    Option("stake", "--stake", str, metavar="AMOUNT"),
    Option("subtotals", "--subtotals/--no-subtotals", bool),
    Option("as_json", "--json", bool),
    Option("totals_csv", "--totals-csv", str, metavar="FILE"),
    Option("quiet", "--quiet", bool, "-q"),
)
_VALUED = {o.name: o for o in OPTIONS if o.type is not bool}
_SWITCHES = {name: (o.field, k == 0) for o in OPTIONS if o.type is bool
             for k, name in enumerate(o.name.split("/"))}
_SWITCHES.update({o.short: (o.field, True) for o in OPTIONS if o.short})
_DIGITS = re.compile(r"[0-9]{1,9}")


def parse(args: list[str]) -> BatchArgs | None:
    """The ``batch`` line ``args`` (the words after ``batch``) as typer would read it, or
    None when typer must read it: the file not first, ``--``, ``--help``, a value missing,
    a value starting with ``-``, a ``--jobs`` that is not plain digits, a switch given a
    value. Other words are left, in order, for the lines (as typer's extra arguments).

    >>> a = parse(["hands.txt", "--rules", "mcr", "--jobs=2", "--no-totals"])
    >>> a.file, a.defaults, a.jobs, a.totals, a.fmt
    ('hands.txt', ['--rules', 'mcr'], 2, False, None)
    >>> parse(["--rules", "mcr", "hands.txt"]) is None
    True
    """
    if not args or (args[0].startswith("-") and args[0] != "-"):
        return None
    got: dict[str, object] = {}
    extra: list[str] = []
    rest = iter(args[1:])
    for tok in rest:
        if tok == "--" or tok.startswith("--help") or tok == "-h":
            return None
        name, eq, value = tok.partition("=")
        if name in _VALUED:
            if not eq:
                value = next(rest, "-")
                if value.startswith("-"):
                    return None  # (missing, or an option: typer words it)
            opt = _VALUED[name]
            if opt.type is int:
                if not _DIGITS.fullmatch(value):
                    return None
                got[opt.field] = int(value)
            else:
                got[opt.field] = value
        elif name in _SWITCHES:
            if eq:
                return None  # "does not take a value"
            field, on = _SWITCHES[name]
            got[field] = on
        else:
            extra.append(tok)
    files, extra = split_files(extra)
    return BatchArgs(args[0], extra, **got, files=files)  # type: ignore[arg-type]


def split_files(words: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """The files named after the first (the leading words that are not flags: ``-`` is
    standard input), and the words left for the lines.

    >>> split_files(["b.txt", "c.txt", "--rules", "mcr"])
    (('b.txt', 'c.txt'), ['--rules', 'mcr'])
    """
    n = 0
    while n < len(words) and (words[n] == "-" or not words[n].startswith("-")):
        n += 1
    return tuple(words[:n]), words[n:]


def run(args: BatchArgs) -> None:
    """Score the file's lines and write them; raise SystemExit with the batch's status (0,
    1 if a line failed, 130/143 when stopped); any other error becomes one line and its
    exit status (:func:`scorer.cli.output.fail`)."""
    try:
        from ..lines.pool import pool_abandoned
        from ..text.lang import LANGS, choose_lang
        from .batchrun import run as run_batch

        lang = choose_lang(args.lang)
        if lang not in LANGS:
            from ..errors import ContextError

            raise ContextError("lang.bad", "--lang", value=lang)
        from .config import load

        settings = load()
        status = run_batch(args.file, line_defaults(args.defaults, settings),
                           args.fmt or settings.get("format") or "jsonl", args.jobs,
                           args.progress, lang, totals=args.totals, stake=args.stake,
                           files=args.files, subtotals=bool(args.subtotals),
                           default_stake=settings.given("stake"), quiet=bool(args.quiet),
                           totals_csv=args.totals_csv)
        if status in (EXIT_INTERRUPT, EXIT_TERM) and pool_abandoned():
            # stopped, and a worker pool's thread will not end: what was written is flushed
            # and the run ends now, not at an exit that would wait for that thread
            import os
            import sys

            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
        raise SystemExit(status)
    except SystemExit:
        raise
    except Exception as e:
        fail(e, args.as_json, args.lang)


def line_defaults(defaults: list[str], settings: Any) -> list[str]:
    """The flags for every line: ``defaults`` (given to batch), with the environment's or
    the config file's ruleset and seating (:mod:`scorer.cli.config`) where batch was given
    none (a line's own ``--rules`` and ``--players`` still win).

    >>> from scorer.cli.config import Config
    >>> line_defaults(["--self-draw"], Config.read({"MJSCORE_RULES": "mcr",
    ...                                             "HOME": "/nonexistent-home"}))
    ['--rules', 'mcr', '--self-draw']
    """
    from .config import has_flag

    end = defaults.index("--") if "--" in defaults else len(defaults)
    out = list(defaults)
    players = settings.given("players")
    if players is not None and not has_flag(out[:end], "--players"):
        out[end:end] = ["--players", players]
    rules = settings.given("rules")
    if rules is not None and not has_flag(out[:end], "--rules"):
        out[:0] = ["--rules", rules]
    return out
