"""``mjscore round FILE|-``: settle one Sichuan 血战到底 round (scorer.round)."""

from __future__ import annotations

import sys

import typer

# A round is a few dozen lines; a larger file is refused rather than read whole.
MAX_ROUND_BYTES = 1 << 20


def _read(path: str) -> str:
    """The text of FILE (or standard input for '-'), at most 1 MiB, as UTF-8.

    Returns the text; raises RoundError naming the file when it cannot be read.
    Example: ``_read("examples/sichuan-round.txt")``.
    """
    from ..round import RoundError

    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_ROUND_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_ROUND_BYTES + 1)
    except OSError as e:
        raise RoundError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_ROUND_BYTES:
        raise RoundError(f"{path}: larger than 1 MiB; a round file is one event a line")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise RoundError(f"{path}: line {line}: not UTF-8 text") from None


def round_cmd(
    file: str = typer.Argument(..., help="The round file (one event a line), or - for stdin."),
    rules: str = typer.Option("sichuan", "--rules", help="Ruleset (a 'rules' line in the "
                              "file overrides it)."),
    as_json: bool = typer.Option(False, "--json", help="Print the settlement as JSON."),
    lang: str = typer.Option("zh", "--lang", help="Reasons and names: zh or en."),
) -> None:
    """Settle a 血战到底 round: kongs, wins, 查花猪, 查大叫, 退税; who paid whom and why."""
    from .output import dumps, fail

    try:
        from ..errors import ContextError
        from ..round import render, settle_round

        if lang not in ("zh", "en"):
            raise ContextError(f"--lang {lang}: use zh or en", "--lang")
        result = settle_round(_read(file), rules)
        print(dumps(result.to_json(lang)) if as_json else render(result, lang))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, as_json, lang)
