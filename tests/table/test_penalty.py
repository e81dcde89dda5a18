"""scorer.table.penalty: a false win's penalty and zero-sum adjustments, as ledger records
and as batch lines; worked by hand from the ledger rulings (MCR: the offender pays 10 to
each of the three others; other rulesets: the amount the line gives, to each other player)."""

from __future__ import annotations

import pytest

from scorer.rules.load import load_ruleset
from scorer.table.ledger import LedgerError, book
from scorer.table.penalty import adjustment, false_win, ledger_line

SEATING = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}


def test_mcr_false_win_is_ten_to_each_other_player() -> None:
    rec = false_win("W", ruleset=load_ruleset("mcr"))
    assert rec["payments"] == {"E": 10, "S": 10, "W": -30, "N": 10}
    assert rec["kind"] == "penalty" and rec["winner"] == [] and rec["penalty"] == {
        "seat": "W", "amount": 10}
    # mcr-house extends mcr: the same rule
    assert false_win("E", ruleset=load_ruleset("mcr-house"))["payments"]["E"] == -30


def test_other_rulesets_take_the_amount_on_the_line() -> None:
    assert false_win("S", 24, load_ruleset("hangzhou"))["payments"] == {
        "E": 24, "S": -72, "W": 24, "N": 24}
    with pytest.raises(LedgerError, match="how much"):
        false_win("S", None, load_ruleset("sichuan"))
    with pytest.raises(LedgerError, match="no ruleset"):
        false_win("S")
    # an amount given in MCR is the house's (e.g. 24 to each, as some platforms charge)
    assert false_win("S", 24, load_ruleset("mcr"))["payments"]["S"] == -72


def test_a_three_player_table_pays_the_two_others() -> None:
    assert false_win("E", 5, seats=("E", "S", "W"))["payments"] == {"E": -10, "S": 5, "W": 5}


def test_adjustments_sum_to_zero() -> None:
    assert adjustment({"N": -7, "E": 3, "W": 4})["payments"] == {"E": 3, "W": 4, "N": -7}
    with pytest.raises(LedgerError, match=r"sums to -2, not 0"):
        adjustment({"E": 3, "S": -5})
    with pytest.raises(LedgerError, match="moves nothing"):
        adjustment({"E": 0, "S": 0})
    with pytest.raises(LedgerError, match="a seat is one of"):
        adjustment({"X": 1, "S": -1})


def test_lines_name_seats_or_players() -> None:
    assert ledger_line(["penalty", "Cy"], SEATING, "mcr")["penalty"]["seat"] == "W"
    assert ledger_line(["penalty", "w", "12"], SEATING)["payments"]["W"] == -36
    rec = ledger_line(["adjust", "Ann", "+10", "Bo", "-4", "N", "-6"], SEATING)
    assert rec["payments"] == {"E": 10, "S": -4, "N": -6}
    rec = ledger_line(["penalty", "S", "--rules", "mcr"])
    assert rec["ruleset"] == "mcr" and rec["payments"]["S"] == -30


@pytest.mark.parametrize("argv,words", [
    (["adjust", "E", "+5", "S", "-3"], "sums to +2, not 0"),
    (["adjust", "E", "+5"], "two or more players"),
    (["adjust", "E", "+5", "E", "-5"], "named twice"),
    (["adjust", "E", "+５", "S", "-5"], "whole numbers (0-9)"),
    (["adjust", "Ed", "+5", "S", "-5"], "not at this table"),
    (["penalty", "S", "-10"], "points are whole numbers"),
    (["penalty", "S", "0"], "player, 1 to"),
    (["penalty"], "write 'penalty WHO"),
    (["penalty", "S", "10", "--self-draw"], "only --rules ID"),
    (["penalty", "S", "--rules"], "--rules needs"),
    (["penalty", "Q", "10"], "seats are E S W N"),
])
def test_bad_lines_say_what(argv: list[str], words: str) -> None:
    seating = SEATING if argv[1:2] == ["Ed"] else None
    with pytest.raises(LedgerError) as e:
        ledger_line(argv, seating, "hangzhou")
    assert words in str(e.value)


def test_a_bad_amount_names_the_player_as_the_line_wrote_it() -> None:
    with pytest.raises(LedgerError) as e:
        ledger_line(["penalty", "Bo", "0"], SEATING, "hangzhou")
    assert str(e.value).startswith("penalty Bo 0: points to each other player")
    assert e.value.render("zh").startswith("penalty Bo 0：罚给每家的分")
    with pytest.raises(LedgerError) as e:
        ledger_line(["adjust", "Ann", "+9999999999", "Bo", "-9999999999"], SEATING)
    assert str(e.value).startswith("adjust Ann 9999999999: whole points")
    with pytest.raises(LedgerError) as e:
        ledger_line(["adjust", "Ann", "5", "Cy", "x"], SEATING)
    assert str(e.value).startswith("adjust Cy 'x': points are whole numbers")


def test_the_ledger_counts_them_in_points_not_in_hands() -> None:
    # a hand: E wins 6 (2 from each); Bo's false win in MCR: -30, +10 each; an adjustment
    # Di +5 Ann -5. Ann 6 + 10 - 5 = 11; Bo -2 - 30 = -32; Cy -2 + 10 = 8; Di -2 + 10 + 5 = 13.
    recs = [{"line": 1, "payments": {"E": 6, "S": -2, "W": -2, "N": -2}},
            {**false_win("S", ruleset=load_ruleset("mcr")), "line": 2},
            {**adjustment({"N": 5, "E": -5}), "line": 3}]
    t = book(recs, SEATING).totals()
    assert {r.name: int(r.net) for r in t.rows} == {"Ann": 11, "Bo": -32, "Cy": 8, "Di": 13}
    assert t.hands == 1 and t.penalties == (2,) and t.adjustments == (3,)
    assert {r.name: (r.hands_won, r.penalties) for r in t.rows} == {
        "Ann": (1, 0), "Bo": (0, 1), "Cy": (0, 0), "Di": (0, 0)}


def test_the_pages_penalty_record_books_as_a_penalty() -> None:
    # the phone page's records carry "penalty" without a kind: the same booking
    page = {"payments": {"E": 10, "S": -30, "W": 10, "N": 10}, "winner": [],
            "penalty": {"seat": "S", "amount": 10}, "line": 4}
    t = book([page], SEATING).totals()
    assert t.hands == 0 and t.penalties == (4,) and t.rows[1].penalties == 1


def test_merged_ledgers_keep_their_lines() -> None:
    a = book([{**false_win("E", 3), "line": 2}])
    b = book([{**adjustment({"E": 1, "S": -1}), "line": 5}])
    m = a.merge(b)
    assert (m.penalties, m.adjustments, m.hands) == ((2,), (5,), 0)
