"""``mjscore standings FILE…``: MCR match standings over games (scorer.table.standings).

Each file is a game, or holds games opened by ``# game: NAME`` lines (scorer.lines.games);
its lines are batch lines (hands, ``penalty``, ``adjust``, ``# players:``), scored here one
by one. Each game's 比赛分 are its ledger's nets by player; the views word the result.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from .complete import langs, rulesets, standings_formats

# A file of games is a tournament's or a club's season: refused past this size rather
# than read whole (16 hands a game, a few hundred games).
MAX_STANDINGS_BYTES = 8 << 20


def _lines(path: str) -> list[tuple[int, str]]:
    """The numbered lines of FILE (``-``: standard input), bounded in size; raises
    ContextError naming the file when it cannot be read."""
    from ..errors import ContextError, os_reason
    from ..lines.reader import read_lines

    try:
        stream: Any = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as e:
        raise ContextError("file.unreadable", path=path, **os_reason(e)) from None
    try:
        out: list[tuple[int, str]] = []
        size = 0
        for n, text in read_lines(stream):
            size += len(text) + 1
            if size > MAX_STANDINGS_BYTES:
                raise ContextError("standings.too_big", path=path, mib=MAX_STANDINGS_BYTES >> 20)
            out.append((n, text))
        return out
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def standings_cmd(
    files: list[str] = typer.Argument(..., metavar="FILE"),
    rules: str = typer.Option("mcr", "--rules", metavar="ID|FILE", autocompletion=rulesets),
    players: str | None = typer.Option(None, "--players", metavar="NAMES"),
    fmt: str = typer.Option("table", "--format", metavar="FORMAT",
                            autocompletion=standings_formats),
    as_json: bool = typer.Option(False, "--json"),
    lang: str | None = typer.Option(None, "--lang", metavar="zh|en", autocompletion=langs),
) -> None:
    """MCR match standings: each game's 比赛分 (its hands, penalties and adjustments), places
    and 标准分 4/2/1/0 (ties share), then the standings over all games by 标准分, then 比赛分.
    Exit 1 if a line could not be counted."""
    from .output import fail

    if as_json:
        fmt = "json"
    try:
        from ..text.lang import choose_lang
        from .config import load

        lang = choose_lang(lang)
        players = players if players is not None else load().given("players")
        status = run(files, rules, players, fmt, lang)
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, fmt == "json", lang)
    raise SystemExit(status)


def run(files: list[str], rules: str, players: str | None, fmt: str, lang: str) -> int:
    """Score the games of ``files`` and print the standings in ``fmt``; returns the exit
    status (1 when a line was not counted). Raises MjscoreError for input that cannot make
    standings (a game of other than four players, a file that cannot be read, …)."""
    from ..errors import ContextError
    from ..lines.games import GamesError, games_of
    from ..lines.records import score_record
    from ..rules.yamlsafe import printable
    from ..table.ledger import Builder, LedgerError, parse_players
    from ..table.standings import game_of, standings
    from ..views.rows import csv_text
    from ..views.standings import standings_csv_rows, standings_record, standings_table
    from .output import dumps, in_file

    if fmt not in ("table", "json", "csv"):
        raise ContextError("standings.format", "--format", value=fmt)
    if lang not in ("zh", "en"):
        raise ContextError("lang.bad", "--lang", value=lang)
    if files.count("-") > 1:
        raise ContextError("file.stdin_twice")
    if players is not None:
        parse_players(players)
    defaults = ["--rules", rules]
    games = []
    failed: list[str] = []
    for path in files:
        try:
            blocks = games_of(_lines(path), players, path)
        except GamesError as e:
            raise ContextError("standings.loose_line", file=path, line=e.line) from None
        for block in blocks:
            ledger = Builder()
            seated = [name for spec in block.seatings for name in parse_players(spec).values()]
            for n, text, seating in block.lines:
                rec = score_record(text, defaults, n, lang, seating)
                if rec.get("skip"):
                    continue
                seated += list((rec.get("players") or {}).values())
                if "error" in rec:
                    failed.append(f"{path}:{n}")
                    print(f"mjscore: {path}: line {n}: "
                          f"{printable(str(rec['error']['message']), keep='')}", file=sys.stderr)
                try:
                    ledger.add(rec, None)
                except LedgerError as e:
                    raise in_file(e, path, n) from None
            try:
                games.append(game_of(block.name, ledger.ledger(), seated, path, block.line))
            except LedgerError as e:
                raise in_file(e, path, block.line) from None
    table = standings(games)
    if fmt == "json":
        print(dumps(standings_record(games, table, {"failed": failed})))
    elif fmt == "csv":
        sys.stdout.write("".join(csv_text(r) for r in standings_csv_rows(games, table)))
    else:
        print(standings_table(games, table, lang))
    return 1 if failed else 0
