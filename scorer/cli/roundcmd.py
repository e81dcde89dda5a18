"""``mjscore round FILE|-``: settle Sichuan rounds, 血战到底 or 血流成河 (scorer.table.round),
worded by scorer.views.round."""

from __future__ import annotations

import sys

import typer

from .complete import langs, rulesets

# A round is a few dozen lines; a larger file is refused rather than read whole.
MAX_ROUND_BYTES = 1 << 20


def _read(path: str) -> str:
    """The text of FILE (or standard input for '-'), at most 1 MiB, as UTF-8.

    Returns the text; raises RoundError naming the file when it cannot be read.
    Example: ``_read("examples/sichuan-round.txt")``.
    """
    from ..errors import os_reason
    from ..table.round import RoundError

    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_ROUND_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_ROUND_BYTES + 1)
    except OSError as e:
        raise RoundError("file.unreadable", path=path, **os_reason(e)) from None
    if len(data) > MAX_ROUND_BYTES:
        raise RoundError("round.too_big", path=path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise RoundError("file.not_utf8", file=path, line=line) from None


def seating_of(text: str) -> str | None:
    """The seating a round file names in a ``# players: SPEC`` comment line (the round
    format skips comments, so the line is only read here), or None.

    Returns the SPEC text (``--players`` form); raises RoundError for a second, different
    one. Example: ``seating_of("# players: Ann,Bo,Cy,Di\\nE kong 5p concealed")`` is
    ``'Ann,Bo,Cy,Di'``.
    """
    from ..lines.pool import players_header
    from ..table.ledger import LedgerError, parse_players
    from ..table.round import RoundError

    found: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        spec = players_header(line)
        if spec is None:
            continue
        try:
            parse_players(spec, "# players")
        except LedgerError as e:
            raise RoundError(e.code, **{**e.params, "at_line": n}) from None
        if found is not None and spec != found:
            raise RoundError("round.two_seatings", at_line=n, found=found)
        found = spec
    return found


def round_cmd(
    files: list[str] = typer.Argument(..., metavar="FILE"),
    rules: str = typer.Option("sichuan", "--rules", metavar="ID|FILE", autocompletion=rulesets),
    as_json: bool = typer.Option(False, "--json"),
    lang: str | None = typer.Option(None, "--lang", metavar="zh|en", autocompletion=langs),
    totals: bool = typer.Option(False, "--totals"),
    stake: str | None = typer.Option(None, "--stake", metavar="AMOUNT"),
    players: str | None = typer.Option(None, "--players", metavar="NAMES"),
) -> None:
    """Settle Sichuan rounds, 血战到底 or 血流成河 (--rules sichuan-xueliu): kongs, wins,
    查花猪, 查大叫, 退税; who paid whom and why; with several files or --totals, what each
    player won and lost over the session."""
    from .output import dumps, fail, in_file

    try:
        from ..errors import ContextError
        from ..table.ledger import Builder, parse_players, parse_stake
        from ..table.round import RoundError, settle_round
        from ..text.lang import LANGS, choose_lang
        from ..views.ledger import totals_record, totals_table
        from ..views.round import round_json, round_text
        from .config import load

        lang = choose_lang(lang)
        if lang not in LANGS:
            raise ContextError("lang.bad", "--lang", value=lang)
        settings = load()  # MJSCORE_PLAYERS, MJSCORE_STAKE and the config file's (cli.config)
        k = parse_stake(stake) if stake is not None else None
        players = players if players is not None else settings.given("players")
        if players is not None:
            parse_players(players)
        if files.count("-") > 1:
            raise ContextError("file.stdin_twice")
        session = totals or k is not None or len(files) > 1
        if not session:
            result = settle_round(_read(files[0]), rules)
            print(dumps(round_json(result, lang)) if as_json else round_text(result, lang))
            return
        ledger, rounds, texts = Builder(), [], []
        for i, path in enumerate(files, 1):
            try:
                text = _read(path)
                seating = seating_of(text) or players
                result = settle_round(text, rules)
            except RoundError as e:
                raise in_file(e, path) from None
            won = [s for s, st in result.status.items() if st == "won"]
            record = {"line": i, "payments": dict(result.totals), "winner": won}
            ledger.add(record, seating)
            rounds.append({"file": path, "seating": parse_players(seating) if seating else None,
                           **round_json(result, lang)})
            texts.append(f"== {path}" + (f" ({seating})" if seating else "") + "\n" +
                         round_text(result, lang))
        # a default stake (not the flag's) is the stake of totals that are printed anyway
        t = ledger.ledger().totals(k if k is not None else settings.given("stake") or 1)
        if as_json:
            print(dumps({"rounds": rounds, "totals": totals_record(t)}))
        else:
            print("\n\n".join(texts) + "\n\n" + totals_table(t, noun="round", lang=lang))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, as_json, lang)
