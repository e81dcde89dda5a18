"""scorer.table.standings: 标准分 4/2/1/0 by 比赛分, ties sharing the places they occupy
exactly, and the standings by 标准分 then 比赛分. Every expected share is worked by hand:
the 标准分 of the places a tie group occupies, summed, divided by its size."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scorer.table.ledger import LedgerError, book
from scorer.table.standings import game, game_of, standard_json, standard_text, standings


def _shares(match: dict[str, int]) -> dict[str, tuple[int, bool, F]]:
    return {r.name: (r.place, r.tied, r.standard) for r in game("g", match).rows}


@pytest.mark.parametrize("match,want", [
    # no tie: 4 2 1 0
    ({"A": 30, "B": 10, "C": -10, "D": -30},
     {"A": (1, False, F(4)), "B": (2, False, F(2)), "C": (3, False, F(1)), "D": (4, False, F(0))}),
    # two tied for first: (4 + 2) / 2 = 3
    ({"A": 20, "B": 20, "C": -10, "D": -30},
     {"A": (1, True, F(3)), "B": (1, True, F(3)), "C": (3, False, F(1)), "D": (4, False, F(0))}),
    # two tied across places 2-3: (2 + 1) / 2 = 3/2
    ({"A": 40, "B": -8, "C": -8, "D": -24},
     {"A": (1, False, F(4)), "B": (2, True, F(3, 2)), "C": (2, True, F(3, 2)),
      "D": (4, False, F(0))}),
    # two tied for last: (1 + 0) / 2 = 1/2
    ({"A": 40, "B": 0, "C": -20, "D": -20},
     {"A": (1, False, F(4)), "B": (2, False, F(2)), "C": (3, True, F(1, 2)),
      "D": (3, True, F(1, 2))}),
    # two pairs: 3 and 1/2
    ({"A": 5, "B": -5, "C": 5, "D": -5},
     {"A": (1, True, F(3)), "C": (1, True, F(3)), "B": (3, True, F(1, 2)),
      "D": (3, True, F(1, 2))}),
    # three tied for first: (4 + 2 + 1) / 3 = 7/3
    ({"A": 10, "B": 10, "C": 10, "D": -30},
     {"A": (1, True, F(7, 3)), "B": (1, True, F(7, 3)), "C": (1, True, F(7, 3)),
      "D": (4, False, F(0))}),
    # three tied for places 2-4: (2 + 1 + 0) / 3 = 1
    ({"A": 300, "B": -100, "C": -100, "D": -100},
     {"A": (1, False, F(4)), "B": (2, True, F(1)), "C": (2, True, F(1)), "D": (2, True, F(1))}),
    # all four tied: 7/4
    ({"A": 0, "B": 0, "C": 0, "D": 0},
     {n: (1, True, F(7, 4)) for n in "ABCD"}),
])
def test_every_tie_pattern(match: dict[str, int], want: dict[str, tuple[int, bool, F]]) -> None:
    assert _shares(match) == want
    assert sum(r.standard for r in game("g", match).rows) == 7  # 4 + 2 + 1 + 0, always


def test_rows_come_in_order_of_place() -> None:
    assert [r.name for r in game("g", {"D": -1, "C": 3, "B": 3, "A": 9}).rows] == [
        "A", "C", "B", "D"]


def test_shares_are_shown_as_decimals_and_kept_exact() -> None:
    assert [standard_text(x) for x in (F(7, 3), F(7, 4), F(3, 2), F(1, 2), F(3))] == [
        "2.33", "1.75", "1.5", "0.5", "3"]
    assert standard_json(F(7, 3)) == 7 / 3 and standard_json(F(4)) == 4
    # three 7/3 make exactly 7: nothing is rounded on the way
    g = game("g", {"A": 10, "B": 10, "C": 10, "D": -30})
    assert standings([g, g, g])[0].standard == 7


def test_standings_by_standard_then_match_then_shared() -> None:
    # A: 4 + 0 = 4, match 9 - 9 = 0; B: 2 + 1 = 3, match 3 - 1 = 2; C: 1 + 2 = 3, match
    # -3 + 1 = -2; D: 0 + 4 = 4, match -9 + 9 = 0. A and D tie on both: a shared 1st;
    # B before C on 比赛分.
    a = game("1", {"A": 9, "B": 3, "C": -3, "D": -9})
    b = game("2", {"A": -9, "B": -1, "C": 1, "D": 9})
    got = [(s.name, s.place, s.tied, s.standard, s.match, s.games) for s in standings([a, b])]
    assert got == [("A", 1, True, 4, 0, 2), ("D", 1, True, 4, 0, 2), ("B", 3, False, 3, 2, 2),
                   ("C", 4, False, 3, -2, 2)]


def test_a_player_of_fewer_games() -> None:
    # E replaces D in game 2: E has played one game
    a = game("1", {"A": 9, "B": 3, "C": -3, "D": -9})
    b = game("2", {"A": 9, "B": 3, "C": -3, "E": -9})
    got = {s.name: (s.standard, s.games) for s in standings([a, b])}
    assert got == {"A": (8, 2), "B": (4, 2), "C": (2, 2), "D": (0, 1), "E": (0, 1)}


def test_a_game_is_four_players() -> None:
    with pytest.raises(LedgerError, match="3 players"):
        game("g", {"A": 1, "B": 0, "C": -1})
    with pytest.raises(LedgerError, match="5 players"):
        game("g", {"A": 1, "B": 0, "C": -1, "D": 0, "E": 0})


def test_game_of_a_ledger_counts_every_seated_player() -> None:
    led = book([{"payments": {"E": 10, "S": -10}}], "Ann,Bo,Cy,Di")
    g = game_of("1", led, ["Ann", "Bo", "Cy", "Di"])
    assert {r.name: (r.match, r.standard) for r in g.rows} == {
        "Ann": (10, 4), "Cy": (0, F(3, 2)), "Di": (0, F(3, 2)), "Bo": (-10, 0)}
    with pytest.raises(LedgerError, match="no player names"):
        game_of("1", book([{"payments": {"E": 1, "S": -1}}]), [])
