"""MCR match standings (比赛 scoring, as clubs and tournaments keep them): pure, no I/O.

A game (一局, normally 16 hands) gives each of its four players its 比赛分 (match points):
the sum of what the player won and paid in the game's hands, penalties and adjustments.
By 比赛分, places 1–4 get 标准分 (standard points) 4, 2, 1, 0; players tied on 比赛分 share
the 标准分 of the places they occupy equally, kept as an exact fraction (two tied for
first: (4 + 2) / 2 = 3 each; all four: 7/4 each). The standings over several games rank
by total 标准分, then total 比赛分; still tied, a shared place.

>>> g = game("1", {"Ann": 64, "Bo": 10, "Cy": 10, "Di": -84})
>>> [(r.name, r.place, r.tied, standard_text(r.standard)) for r in g.rows]
[('Ann', 1, False, '4'), ('Bo', 2, True, '1.5'), ('Cy', 2, True, '1.5'), ('Di', 4, False, '0')]
>>> [(s.name, s.place, standard_text(s.standard), s.match) for s in standings([g])][:2]
[('Ann', 1, '4', 64), ('Bo', 2, '1.5', 10)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from ..record import record
from .ledger import Ledger, LedgerError, decimal_text

STANDARD = (4, 2, 1, 0)  # 标准分 of places 1-4
PLAYERS = len(STANDARD)  # a game is four players


@record(frozen=True)
class GameRow:
    """One player in one game: 比赛分 (``match``), place (the first place its tie group
    occupies), whether it is shared, and 标准分 (exact)."""

    name: str
    match: int
    place: int
    tied: bool
    standard: Fraction


@record(frozen=True)
class Game:
    """A game's result: its rows in order of place (then name as given), and where it came
    from (``file``, ``line`` of its ``# game:`` marker, or 0)."""

    name: str
    rows: tuple[GameRow, ...]
    file: str = ""
    line: int = 0


@record(frozen=True)
class Standing:
    """A player over all games: place (shared when tied on both totals), total 标准分
    (exact), total 比赛分, games played."""

    name: str
    place: int
    tied: bool
    standard: Fraction
    match: int
    games: int


def game(name: str, match: Mapping[str, int], file: str = "", line: int = 0) -> Game:
    """The game of four players with these 比赛分; raises :class:`LedgerError` for another
    number of players.

    >>> [standard_text(r.standard) for r in game("g", {"A": 5, "B": 5, "C": 5, "D": -15}).rows]
    ['2.33', '2.33', '2.33', '0']
    """
    if len(match) != PLAYERS:
        raise LedgerError("standings.players", game=name, n=len(match), names=list(match),
                          need=PLAYERS)
    order = sorted(match, key=lambda n: -match[n])  # stable: equal 比赛分 keep their order
    rows = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and match[order[j]] == match[order[i]]:
            j += 1
        share = Fraction(sum(STANDARD[i:j]), j - i)  # the places i+1..j, shared equally
        rows += [GameRow(n, match[n], i + 1, j - i > 1, share) for n in order[i:j]]
        i = j
    return Game(name, tuple(rows), file, line)


def game_of(name: str, ledger: Ledger, players: Iterable[str], file: str = "",
            line: int = 0) -> Game:
    """The game whose hands, penalties and adjustments ``ledger`` booked (by player), for
    the four ``players`` seated in it (a player who neither won nor paid has 比赛分 0).

    >>> from scorer.table.ledger import book
    >>> led = book([{"payments": {"E": 24, "S": -8, "W": -8, "N": -8}}], "A,B,C,D")
    >>> [(r.name, r.match) for r in game_of("1", led, "ABCD").rows]
    [('A', 24), ('B', -8), ('C', -8), ('D', -8)]
    """
    names = list(dict.fromkeys(players))
    if ledger.by == "seat" or not (names or ledger.entries):
        raise LedgerError("standings.no_names", flag="--players", game=name)
    extra = [n for n in ledger.entries if n not in names]
    if extra:  # (a name booked that was never seated: cannot happen through a seating)
        names += extra
    match = {n: ledger.entries[n].won - ledger.entries[n].lost if n in ledger.entries else 0
             for n in names}
    return game(name, match, file, line)


def standings(games: Iterable[Game]) -> tuple[Standing, ...]:
    """Every player over ``games``: by total 标准分, then total 比赛分, best first; equal on
    both, a shared place (the first of those they occupy); then in order of first game.

    >>> a = game("1", {"A": 9, "B": 3, "C": -3, "D": -9})
    >>> b = game("2", {"A": -9, "B": -3, "C": 3, "D": 9})
    >>> [(s.name, s.place, s.tied, int(s.standard), s.match) for s in standings([a, b])]
    [('A', 1, True, 4, 0), ('D', 1, True, 4, 0), ('B', 3, True, 3, 0), ('C', 3, True, 3, 0)]
    """
    std: dict[str, Fraction] = {}
    match: dict[str, int] = {}
    played: dict[str, int] = {}
    for g in games:
        for r in g.rows:
            std[r.name] = std.get(r.name, Fraction(0)) + r.standard
            match[r.name] = match.get(r.name, 0) + r.match
            played[r.name] = played.get(r.name, 0) + 1
    order = sorted(std, key=lambda n: (-std[n], -match[n]))
    keys = [(std[n], match[n]) for n in order]
    first: dict[tuple[Fraction, int], int] = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i + 1)
    many = Counter(keys)
    return tuple(Standing(n, first[key], many[key] > 1, std[n], match[n], played[n])
                 for n, key in zip(order, keys, strict=True))


def standard_text(x: Fraction | int) -> str:
    """标准分 as a decimal: exact when it ends (``1.75``, ``3``), else to two places (7/3 is
    ``2.33``; the value itself stays exact).

    >>> standard_text(Fraction(7, 4)), standard_text(Fraction(7, 3)), standard_text(3)
    ('1.75', '2.33', '3')
    """
    x = Fraction(x)
    try:
        return decimal_text(x)
    except ValueError:  # thirds: no terminating expansion
        return f"{float(x):.2f}"


def standard_json(x: Fraction) -> Any:
    """标准分 for JSON: an int when whole, else the nearest float (``2.3333333333333335``
    for 7/3, which reads back as 7/3's nearest double).

    >>> standard_json(Fraction(3)), standard_json(Fraction(3, 2))
    (3, 1.5)
    """
    return int(x) if x.denominator == 1 else float(x)
