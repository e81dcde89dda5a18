"""MCR match standings in words and for scripts: each game's places and 标准分, then the
standings (:mod:`scorer.table.standings`), as a table in zh or en, JSON and CSV rows.
标准分 stays exact in the values; a table shows it as a decimal (``2.33`` for 7/3), JSON as
a number with its exact fraction beside it (``"standard_exact": "7/3"``).

>>> from scorer.table.standings import game, standings
>>> g = game("R1", {"Ann": 30, "Bo": 30, "Cy": -20, "Di": -40}, "day1.txt", 3)
>>> standings_record([g], standings([g]))["games"][0]["players"][0]
{'name': 'Ann', 'match': 30, 'place': 1, 'tied': True, 'standard': 3, 'standard_exact': '3'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..table.standings import Game, Standing, standard_json, standard_text
from .i18n import DEFAULT_LANG
from .i18n import t as _t
from .texttable import fold_lines

GAME_CSV_HEADER = ["kind", "game", "name", "player", "match", "place", "tied", "standard",
                   "standard_exact"]
STANDING_CSV_HEADER = ["kind", "place", "tied", "player", "standard", "standard_exact", "match",
                       "games"]


def _place(place: int, tied: bool) -> str:
    return f"{place}=" if tied else str(place)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def standings_record(games: Sequence[Game], table: Sequence[Standing],
                     extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON record: ``{"kind": "standings", "games": [...], "standings": [...]}``, each
    game with its players in order of place, each 标准分 a number and an exact fraction;
    ``extra`` adds fields (the lines not counted, …)."""
    return {
        "kind": "standings",
        "games": [{"game": k, "name": g.name, "file": g.file, "line": g.line or None,
                   "players": [{"name": r.name, "match": r.match, "place": r.place,
                                "tied": r.tied, "standard": standard_json(r.standard),
                                "standard_exact": str(r.standard)} for r in g.rows]}
                  for k, g in enumerate(games, 1)],
        "standings": [{"place": s.place, "tied": s.tied, "name": s.name,
                       "standard": standard_json(s.standard), "standard_exact": str(s.standard),
                       "match": s.match, "games": s.games} for s in table],
        **(extra or {}),
    }


def standings_csv_rows(games: Sequence[Game], table: Sequence[Standing]) -> list[list[Any]]:
    """CSV rows: a header and a ``game`` row per player of each game, then a header and a
    ``standing`` row per player.

    >>> from scorer.table.standings import game, standings
    >>> g = game("R1", {"A": 5, "B": 5, "C": 5, "D": -15})
    >>> standings_csv_rows([g], standings([g]))[1]
    ['game', 1, 'R1', 'A', 5, 1, 1, '2.33', '7/3']
    """
    rows: list[list[Any]] = [GAME_CSV_HEADER]
    for k, g in enumerate(games, 1):
        rows += [["game", k, g.name, r.name, r.match, r.place, int(r.tied),
                  standard_text(r.standard), str(r.standard)] for r in g.rows]
    rows.append(STANDING_CSV_HEADER)
    rows += [["standing", s.place, int(s.tied), s.name, standard_text(s.standard),
              str(s.standard), s.match, s.games] for s in table]
    return rows


def standings_table(games: Sequence[Game], table: Sequence[Standing],
                    lang: str = DEFAULT_LANG) -> str:
    """Each game's places and 标准分, then the standings, for people, in ``lang``.

    >>> from scorer.table.standings import game, standings
    >>> g = game("R1", {"Ann": 30, "Bo": 30, "Cy": -20, "Di": -40})
    >>> print(standings_table([g], standings([g]), "en"))
    Game 1: R1
    <BLANKLINE>
    player      match points  place      standard points
    --------  --------------  -------  -----------------
    Ann                  +30  1=                       3
    Bo                   +30  1=                       3
    Cy                   -20  3                        1
    Di                   -40  4                        0
    <BLANKLINE>
    Standings after 1 game (by standard points, then match points)
    <BLANKLINE>
    place    player      standard points    match points    games
    -------  --------  -----------------  --------------  -------
    1=       Ann                       3             +30        1
    1=       Bo                        3             +30        1
    3        Cy                        1             -20        1
    4        Di                        0             -40        1
    """
    from tabulate import tabulate  # imported here, as in the report: keeps start-up fast

    out: list[str] = []
    rows: list[list[Any]]
    for k, g in enumerate(games, 1):
        head = _t("game_head", lang, n=k, name=g.name)
        if g.file and g.line:
            head += _t("game_where", lang, file=g.file, line=g.line)
        elif g.file and g.file != g.name:
            head += _t("game_file", lang, file=g.file)
        rows = [[r.name, _signed(r.match), _place(r.place, r.tied), standard_text(r.standard)]
                for r in g.rows]
        out += [head, "", tabulate(rows, headers=[_t("col_player", lang), _t("col_match", lang),
                                                  _t("col_place", lang),
                                                  _t("col_standard", lang)],
                                   tablefmt="simple", colalign=("left", "right", "left", "right"),
                                   disable_numparse=True), ""]
    n = len(games)
    out.append(_t("standings_head_1", lang) if n == 1 else _t("standings_head", lang, n=n))
    rows = [[_place(s.place, s.tied), s.name, standard_text(s.standard), _signed(s.match),
             s.games] for s in table]
    out += ["", tabulate(rows, headers=[_t("col_place", lang), _t("col_player", lang),
                                        _t("col_standard", lang), _t("col_match", lang),
                                        _t("col_games", lang)],
                         tablefmt="simple", colalign=("left", "left", "right", "right", "right"),
                         disable_numparse=True)]
    return fold_lines("\n".join(out))
