"""``mjscore batch FILE``: many hands, one per line, through :func:`scorer.batch.run`."""

from __future__ import annotations

import typer

from .output import fail


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
) -> None:
    """Score many hands. Other flags (--rules, --option, ...) apply to every line; a line's
    own flags override them. Exit 1 if any line failed."""
    try:
        from ..batch import run

        raise SystemExit(run(file, list(ctx.args), fmt, jobs, progress, lang))
    except SystemExit:
        raise
    except Exception as e:
        fail(e)
