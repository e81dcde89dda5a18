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
    switch pair as ``--on/--off``), its type (``bool`` for a switch), its help and its
    short name, if any."""

    field: str
    name: str
    type: type
    help: str
    short: str = ""


# batch's own options: the one table both the parser below and the typer command (.app)
# are built from; defaults are BatchArgs'
OPTIONS = (
    Option("fmt", "--format", str, "jsonl, csv or table (default: $MJSCORE_FORMAT, else the "
           "config file's format, else jsonl)."),
    Option("jobs", "--jobs", int, "Processes (default: all cores for large files)."),
    Option("progress", "--progress/--no-progress", bool,
           "Progress on stderr (default: when it is a terminal and the file is large)."),
    Option("lang", "--lang", str, "Language: zh or en (default: $MJSCORE_LANG, else the "
           "locale's, else zh)."),
    Option("totals", "--totals/--no-totals", bool,
           "After the hands, the totals per player (per seat without --players) and the "
           "transfers that settle them (default: for a table on a terminal, or with "
           "--stake)."),
    Option("stake", "--stake", str, "Money per point in the totals, e.g. 2 or 0.5 (default: "
           "$MJSCORE_STAKE, else the config file's stake, else 1; only this flag turns the "
           "totals on)."),
    Option("subtotals", "--subtotals/--no-subtotals", bool,
           "With several files (a season, totalled together), each file's own totals after "
           "its lines."),
    Option("as_json", "--json", bool, "An error of the batch itself (a file that cannot be "
           "read, a bad option) also as a JSON object on stdout (each line's error is in its "
           "record)."),
    Option("totals_csv", "--totals-csv", str, "Write the totals, the transfers and --subtotals "
           "as one CSV table to this file (turns the totals on); the output then holds the "
           "hands alone: with --format csv, one table."),
    Option("quiet", "--quiet", bool, "No summary and no progress line on stderr (a failed "
           "line is still reported).", "-q"),
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


def line_flags_help() -> str:
    """The flags a batch line takes, one per line, from the flag table (the ``--help`` epilog).

    Returns click's text with ``\\b`` so the list is not rewrapped, e.g.
    ``'...\\n  --self-draw  The winning tile was self-drawn.\\n...'``.
    """
    from ..lines.grammar import OPTIONS

    rows = []
    for f in OPTIONS:
        if f.field in ("as_json", "explain", "no_unicode", "lang"):
            continue  # how `score` prints: batch has its own --format and --lang
        name = " / ".join(f.names) + ("" if f.switch else " " + (f.metavar or f.type.__name__
                                                                 .upper()))
        rows.append((name, f.help + (" (repeatable)" if f.multiple and "repeat" not in f.help
                                     else "")))
    rows.append(("--players SEATING", "Who sat where: E=Ann,S=Bo,W=Cy,N=Di or Ann,Bo,Cy,Di "
                 "(a '# players: ...' line sets it for the lines after it)."))
    width = max(len(n) for n, _ in rows)
    body = "\n".join(f"  {n.ljust(width)}  {h}" for n, h in rows)
    return ("Flags of each line (given to batch, they apply to every line; a line's own "
            "flags override them; --rules may be left to the lines):\n\n\b\n" + body)
