"""A file of games: the lines of each game (一局) of MCR match standings, with the seating in
force on each line. A game is a whole file, or a block of lines that a ``# game: NAME``
comment line opens (the batch format skips comments, so such a file is a batch file too)::

    # game: round 1, table 2
    # players: E=Ann,S=Bo,W=Cy,N=Di
    123m456m789m123p55p --self-draw
    penalty Bo
    # game: round 2, table 2
    # players: E=Cy,S=Ann,W=Di,N=Bo
    …

Each game starts from the starting seating (``--players``, else none): its own ``# players:``
lines name who sat where (and may change as the deal passes).

>>> [(g.name, g.line, [n for n, _, _ in g.lines]) for g in games_of(
...     [(1, "# game: R1"), (2, "# players: A,B,C,D"), (3, "11m"), (4, "# game: R2"),
...      (5, "22m --players D,C,B,A")], None, "f.txt")]
[('R1', 1, [3]), ('R2', 4, [5])]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field

from ..model.tiles import narrow
from ..record import record
from .records import players_header, split_line

GAME_HEADER = "game:"


def game_header(text: str) -> str | None:
    """The name a ``# game: NAME`` comment line gives (``""`` for none), or None for any
    other line.

    >>> game_header("# game: round 1"), game_header("#game:"), game_header("# a game")
    ('round 1', '', None)
    >>> game_header("＃ game： 第一局")
    '第一局'
    """
    body = narrow(text).strip()
    if not body.startswith("#"):
        return None
    body = body[1:].strip()
    if not body.lower().startswith(GAME_HEADER):
        return None
    return body[len(GAME_HEADER):].strip()


@record
class GameLines:
    """One game's lines: its name, the line of its ``# game:`` marker (0 for a whole file),
    each line to score as (number, text, seating in force or None), and every seating
    named in the game (its ``# players:`` lines, or the starting one): who played it, even
    a game of draws that booked nothing."""

    name: str
    line: int
    lines: list[tuple[int, str, str | None]]
    seatings: list[str] = field(default_factory=list)


class GamesError(ValueError):
    """A file of games that cannot be split: a scored line (``line``) before the first
    ``# game:`` line (the command words it: code ``standings.loose_line``)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line}")
        self.line = line


def games_of(numbered: Iterable[tuple[int, str]], players: str | None, name: str
             ) -> list[GameLines]:
    """The games of one file's numbered lines: one named ``name`` when it has no
    ``# game:`` line, else one per such line (named by it, or ``name #k``). Returns the
    games in order; raises :class:`GamesError` for a scored line before the first marker
    of a file that has markers. Blank and other comment lines are left out.
    """
    games: list[GameLines] = []
    loose: list[tuple[int, str, str | None]] = []
    seen: list[str] = [players] if players is not None else []  # seatings before any game
    current: GameLines | None = None
    seating = players
    for n, text in numbered:
        plain = narrow(text)  # (＃ game： typed full width too; the line kept as typed)
        head = game_header(plain) if "#" in plain else None
        if head is not None:
            if loose:
                raise GamesError(loose[0][0])
            current = GameLines(head or f"{name} #{len(games) + 1}", n, [],
                                [players] if players is not None else [])
            games.append(current)
            seating = players
            continue
        spec = players_header(plain) if "#" in plain else None
        if spec is not None:
            from ..table.ledger import LedgerError, parse_players

            try:
                parse_players(spec)
                seating = spec
                if current is not None:
                    current.seatings.append(spec)
                else:
                    seen.append(spec)
                continue
            except LedgerError:  # scored, its record says what is wrong; the seating stays
                pass
        try:
            empty = split_line(plain) is None
        except ValueError:
            empty = False  # (its record says what is wrong with it)
        if empty:
            continue
        (current.lines if current is not None else loose).append((n, text, seating))
    if not games:
        return [GameLines(name, 0, loose, seen)]
    return games
