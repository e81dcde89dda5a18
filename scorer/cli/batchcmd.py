"""``mjscore batch FILE``: many hands, one per line, through :func:`scorer.batch.run`."""

from __future__ import annotations

import typer

from .output import EXIT_INTERRUPT, EXIT_TERM, fail


def line_flags_help() -> str:
    """The flags a batch line takes, one per line, from the flag table (the ``--help`` epilog).

    Returns click's text with ``\\b`` so the list is not rewrapped, e.g.
    ``'...\\n  --self-draw  The winning tile was self-drawn.\\n...'``.
    """
    from ..argv import OPTIONS

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


def batch(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A file with one hand and its flags per line, or - "
                               "for standard input."),
    fmt: str = typer.Option("jsonl", "--format", help="jsonl, csv or table."),
    jobs: int | None = typer.Option(None, "--jobs", help="Processes (default: all cores for "
                                    "large files)."),
    progress: bool | None = typer.Option(None, "--progress/--no-progress",
                                         help="Progress on stderr (default: when it is a "
                                         "terminal and the file is large)."),
    lang: str = typer.Option("zh", "--lang", help="Pattern names: zh or en."),
    totals: bool | None = typer.Option(None, "--totals/--no-totals",
                                       help="After the hands, the totals per player (per seat "
                                       "without --players) and the transfers that settle "
                                       "them (default: for a table on a terminal, or with "
                                       "--stake)."),
    stake: str | None = typer.Option(None, "--stake", help="Money per point in the totals, "
                                     "e.g. 2 or 0.5 (default 1)."),
) -> None:
    """Score many hands, and settle the evening. Other flags (--rules, --option, --players,
    ...) apply to every line; a line's own flags override them. Exit 1 if any line failed."""
    try:
        from ..batch import run

        if lang not in ("zh", "en"):
            from ..errors import ContextError

            raise ContextError(f"--lang {lang}: use zh or en", "--lang")
        status = run(file, list(ctx.args), fmt, jobs, progress, lang, totals=totals,
                     stake=stake)
        from ..batch import pool_abandoned

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
        fail(e)
