"""The evening's ledger (scorer.table.ledger): totals per player, stake, settlement, merging.

Expected values are worked by hand from docs/rulings.md#hangzhou-payment (the Hangzhou hands below) or come
from oracles written here independently of the code under test: plain sums per
person, seats found by counting passes of the deal, and the fewest transfers by
enumerating every partition of the players.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.errors import ContextError, MjscoreError
from scorer.lines.pool import score_many
from scorer.table.ledger import (
    EXACT_LIMIT,
    SEATS,
    Ledger,
    LedgerError,
    Transfer,
    book,
    combine,
    decimal_text,
    parse_players,
    parse_stake,
    rotate,
    settle,
)

ANN = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}


# ----------------------------------------------------------------------------- worked evening
# Four Hangzhou lines (底分 1, 1 老庄: 庄闲分 2 dealer–idle, 1 idle–idle), worked by hand:
#  1. W wins 双财飘 8 番 self-drawn: E pays 2×8 = 16, S and N 1×8 = 8; W +32.
#  2. the dealer E wins 自摸 1 番: each idle player pays 2×1 = 2; E +6.
#  3. --piao 9 is out of range: a failed line, not booked.
#  4. S wins 暴头 2 番 self-drawn: E pays 2×2 = 4, W and N 1×2 = 2; S +8.
EVENING = [
    "123m456p789s234sP9m --self-draw --piao 2 --seat W",
    "123m456m789p234s55s --self-draw",
    "123m456p789s234sP9m --self-draw --piao 9",
    "123m456p789s234sP9m --self-draw --seat S",
]
# Hand 1 is won by W, not the dealer, so the deal passes before hand 2: Bo deals.
SEATINGS = [ANN, rotate(ANN), rotate(ANN), rotate(ANN)]


def _records() -> list[Any]:
    return list(score_many(EVENING, ["--rules", "hangzhou"]))


def test_an_evening_of_batch_records_is_booked_to_players() -> None:
    t = book(_records(), SEATINGS).totals()
    assert t.by == "player" and t.hands == 3 and t.failed == (3,)
    got = {r.name: (r.won, r.lost, r.net, r.hands_won) for r in t.rows}
    # Ann: E −16, then N −2, N −2.  Bo: S −8, E +6, E −4.  Cy: W +32, S −2, S +8.
    # Di: N −8, W −2, W −2.
    assert got == {"Ann": (0, 20, -20, 0), "Bo": (6, 12, -6, 1), "Cy": (40, 2, 38, 2),
                   "Di": (0, 12, -12, 0)}
    # one creditor: each debtor pays Cy, the largest debt first
    assert t.transfers == (Transfer("Ann", "Cy", Fraction(20)), Transfer("Di", "Cy", Fraction(12)),
                           Transfer("Bo", "Cy", Fraction(6)))


def test_the_same_evening_from_plain_dicts_and_at_a_stake() -> None:
    dicts = [r.data for r in _records()]
    assert book(dicts, SEATINGS) == book(_records(), SEATINGS)
    t = book(dicts, SEATINGS).totals(stake="0.5")
    assert [(r.name, decimal_text(r.net)) for r in t.rows] == [
        ("Ann", "-10"), ("Bo", "-3"), ("Cy", "19"), ("Di", "-6")]
    assert [decimal_text(x.amount) for x in t.transfers] == ["10", "6", "3"]


def test_without_names_the_totals_are_per_seat_in_table_order() -> None:
    t = book(_records()).totals()
    assert t.by == "seat"
    # E: −16 +6 −4; S: −8 −2 +8; W: +32 −2 −2; N: −8 −2 −2
    assert [(r.name, r.net, r.hands_won) for r in t.rows] == [
        ("E", -14, 1), ("S", -2, 1), ("W", 28, 1), ("N", -12, 0)]


def test_names_can_come_with_the_record_and_a_dispute_books_side_a() -> None:
    rec = {"line": 5, "players": "E=Ann,S=Bo,W=Cy,N=Di",
           "a": {"payments": {"E": 6, "S": -2, "W": -2, "N": -2}, "winner": "E"},
           "b": {"payments": {"E": 12, "S": -4, "W": -4, "N": -4}, "winner": "E"}}
    t = Ledger().add({"payments": rec["a"]["payments"], "players": ANN}).add(rec).totals()
    assert t.disputed == (5,) and t.hands == 2
    assert [(r.name, r.net) for r in t.rows] == [("Ann", 12), ("Bo", -4), ("Cy", -4), ("Di", -4)]


def test_a_three_player_table_names_only_its_seats() -> None:
    three = {"E": "Ann", "S": "Bo", "W": "Cy"}
    assert rotate(three) == {"E": "Bo", "S": "Cy", "W": "Ann"}
    rec = next(iter(score_many(["123m456p789s234sP9m --self-draw --option players=3"],
                               ["--rules", "hangzhou"])))
    # 暴头 2 番 by the dealer at a 3-player table: S and W pay 2×2 = 4 each; N is absent
    t = book([rec], three).totals()
    assert [(r.name, r.net) for r in t.rows] == [("Ann", 8), ("Bo", -4), ("Cy", -4)]


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("record,fragment", [
    ({"line": 7, "payments": {"E": 3, "S": -2}}, "line 7: payments do not sum to zero (+1)"),
    ({"line": 2, "payments": {"X": 0}}, "line 2: payments: 'X' is not a seat"),
    ({"line": 2, "payments": {"E": 1.5, "S": -1.5}}, "payments E: 1.5 is not a whole number"),
    ({"line": 2, "payments": {"E": True, "S": -1}}, "payments E: True is not a whole number"),
    ({"line": 4}, "line 4: the record has no payments"),
    ({"payments": {"E": 2, "S": -2}, "winner": "Q"}, "winner: 'Q' is not a seat"),
    ("123m", "a record is a mapping with 'payments', not str"),
])
def test_a_record_it_cannot_read_is_one_clear_error(record: Any, fragment: str) -> None:
    with pytest.raises(LedgerError) as e:
        Ledger().add(record)
    assert fragment in str(e.value) and "\n" not in str(e.value)
    assert isinstance(e.value, MjscoreError) and e.value.exit_code == 2


@pytest.mark.parametrize("players,fragment", [
    ({"E": "Ann", "S": "Bo"}, "line 9: seat W paid 2 but has no player name"),
    ({"E": "Ann", "S": "Ann", "W": "Cy", "N": "Di"}, "line 9: players: Ann sits at both E and S"),
    ({"E": "Ann", "S": "", "W": "Cy", "N": "Di"}, "line 9: players S: a player needs a name"),
    ({"E": "Ann", "Z": "Bo"}, "line 9: players: 'Z' is not a seat"),
    ({"E": "A" * 65, "S": "B", "W": "C", "N": "D"}, "at most 64 printable characters"),
    ("E=Ann,S=Bo,W=Cy,X=Di", "line 9: --players position 17: 'X' is not a seat"),
    (["Ann"], "players: list is not a mapping of seat to name"),
])
def test_a_bad_seating_names_the_line(players: Any, fragment: str) -> None:
    rec = {"line": 9, "payments": {"E": 6, "S": -2, "W": -2, "N": -2}}
    with pytest.raises(LedgerError) as e:
        Ledger().add(rec, players)
    assert fragment in str(e.value)
    assert isinstance(e.value, ContextError) and e.value.flag == "--players"


def test_names_and_seats_do_not_mix() -> None:
    named = Ledger().add({"payments": {"E": 2, "S": -2}}, ANN)
    with pytest.raises(LedgerError, match="line 3: this hand names no players, earlier ones do"):
        named.add({"line": 3, "payments": {"E": 2, "S": -2}})
    with pytest.raises(LedgerError, match="cannot merge a ledger by player with a ledger by seat"):
        named.merge(Ledger().add({"payments": {"E": 2, "S": -2}}))
    with pytest.raises(LedgerError, match="fewer seatings than records"):
        book([{"payments": {"E": 2, "S": -2}}] * 2, [ANN])


@pytest.mark.parametrize("spec,fragment", [
    ("E=Ann,Bo", "position 7: all SEAT=NAME"),
    ("E=Ann,E=Bo", "position 7: seat E is named twice"),
    ("E=,S=Bo", "position 3: a player needs a name"),
    ("a,b,c,d,e", "position 9: more than 4 seats"),
    ("Ann,Ann", "Ann sits at both E and S"),
])
def test_parse_players_names_the_position(spec: str, fragment: str) -> None:
    with pytest.raises(LedgerError, match=fragment):
        parse_players(spec)


def test_parse_players_reads_both_forms() -> None:
    assert parse_players("Ann, Bo,Cy,Di") == ANN
    assert parse_players(" n=Di, e = Ann ") == {"N": "Di", "E": "Ann"}


@pytest.mark.parametrize("stake,fragment", [
    ("0", "must be more than 0"), (-2, "must be more than 0"), ("abc", "not a decimal number"),
    ("1/3", "not a decimal number"), (Fraction(1, 3), "not an exact decimal"),
    ("nan", "not a finite number"), ("inf", "not a finite number"), (True, "not a number"),
    ("1e999999999", "out of range"), ("1e-999999999", "out of range"), ("9" * 65, "at most 64"),
])
def test_a_bad_stake_is_refused_quickly(stake: Any, fragment: str) -> None:
    start = time.process_time()
    with pytest.raises(LedgerError, match=fragment) as e:
        parse_stake(stake)
    assert e.value.flag == "--stake" and time.process_time() - start < 0.5


@pytest.mark.parametrize("stake,exact", [
    (2, Fraction(2)), ("0.5", Fraction(1, 2)), (Decimal("0.25"), Fraction(1, 4)),
    (0.1, Fraction(1, 10)), (Fraction(3, 8), Fraction(3, 8)), (" 1.50 ", Fraction(3, 2)),
])
def test_a_stake_is_exact(stake: Any, exact: Fraction) -> None:
    assert parse_stake(stake) == exact


def test_decimal_text_is_exact() -> None:
    assert decimal_text(Fraction(-1, 40)) == "-0.025"
    assert decimal_text(Fraction(10**40 + 1, 10)) == "1" + "0" * 38 + "0.1"
    with pytest.raises(ValueError):
        decimal_text(Fraction(1, 3))


def test_settle_refuses_nets_that_do_not_sum_to_zero() -> None:
    with pytest.raises(LedgerError, match="do not sum to zero"):
        settle({"Ann": 3, "Bo": -2})


# ----------------------------------------------------------------------------- properties
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


@st.composite
def hands(draw: st.DrawFn) -> dict[str, Any]:
    """A hand's record: one winner, the others each pay 0..500 (a few pay nothing)."""
    winner = draw(st.sampled_from(SEATS))
    pay = {s: -draw(st.integers(0, 500)) for s in SEATS if s != winner}
    pay[winner] = -sum(pay.values())
    return {"payments": pay, "winner": winner}


FAILED_LINE = st.builds(lambda n: {"line": n, "error": {"kind": "notation", "message": "x"}},
                        st.integers(1, 999))


@st.composite
def evenings(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Hands (and a few failed lines) and who sat where for each: four of up to six people
    (substitutes come and go)."""
    recs = draw(st.lists(st.one_of(hands(), hands(), FAILED_LINE), max_size=12))
    seats = [dict(zip(SEATS, draw(st.permutations(NAMES))[:4], strict=True)) for _ in recs]
    return recs, seats


def _by_person(recs: list[dict[str, Any]], seats: list[dict[str, str]]) -> dict[str, list[int]]:
    """The oracle: [won, lost, hands won] per person, summed hand by hand."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for rec, seating in zip(recs, seats, strict=True):
        for seat, amount in rec.get("payments", {}).items():
            acc = out[seating[seat]]
            acc[0 if amount > 0 else 1] += abs(amount)
            acc[2] += seat == rec["winner"]
    return {k: v for k, v in out.items() if v != [0, 0, 0]}


def _apply(nets: dict[str, Fraction], transfers: tuple[Transfer, ...] | list[Transfer]
           ) -> dict[str, Fraction]:
    bal = dict(nets)
    for x in transfers:
        assert x.amount > 0 and x.payer != x.payee
        bal[x.payer] += x.amount
        bal[x.payee] -= x.amount
    return bal


@given(evenings())
def test_totals_are_the_sums_of_the_records(ev: tuple[list[Any], list[dict[str, str]]]) -> None:
    recs, seats = ev
    t = book(recs, seats).totals()
    got = {r.name: [r.won, r.lost, r.hands_won] for r in t.rows if (r.won, r.lost, r.hands_won)
           != (0, 0, 0)}
    assert got == _by_person(recs, seats)
    assert all(r.net == r.won - r.lost for r in t.rows)
    assert t.hands == sum("payments" in r for r in recs)
    assert t.failed == tuple(r["line"] for r in recs if "error" in r)


@given(evenings())
def test_nets_sum_to_zero_and_the_transfers_settle_them(
        ev: tuple[list[Any], list[dict[str, str]]]) -> None:
    t = book(*ev).totals()
    nets = {r.name: r.net for r in t.rows}
    assert sum(nets.values()) == 0
    assert all(v == 0 for v in _apply(nets, t.transfers).values())
    assert len(t.transfers) <= max(len(t.rows) - 1, 0)


@given(evenings(), st.sampled_from(["2", "0.5", "0.05", "1.25", "3"]))
def test_the_stake_scales_every_amount(ev: tuple[list[Any], list[dict[str, str]]],
                                       stake: str) -> None:
    one, k = book(*ev).totals(), Fraction(Decimal(stake))
    t = book(*ev).totals(stake=stake)
    assert [(r.name, r.won, r.lost, r.net) for r in t.rows] == [
        (r.name, r.won * k, r.lost * k, r.net * k) for r in one.rows]
    assert [(x.payer, x.payee, x.amount) for x in t.transfers] == [
        (x.payer, x.payee, x.amount * k) for x in one.transfers]


@given(st.lists(hands(), max_size=16), st.permutations(NAMES[:4]))
def test_rotating_names_book_each_hand_to_the_right_person(recs: list[dict[str, Any]],
                                                           order: list[str]) -> None:
    # The table passes the deal whenever the dealer does not win; rotate() gives each seating.
    seating, seats, passes, passes_at = dict(zip(SEATS, order, strict=True)), [], 0, []
    for rec in recs:
        seats.append(seating)
        passes_at.append(passes)
        if rec["winner"] != "E":
            seating, passes = rotate(seating), passes + 1
    # Oracle: after p passes, the person who started at seat i sits at seat i − p.
    expected: dict[str, int] = defaultdict(int)
    for rec, p in zip(recs, passes_at, strict=True):
        for i, person in enumerate(order):
            expected[person] += rec["payments"][SEATS[(i - p) % 4]]
    nets = {r.name: r.net for r in book(recs, seats).totals().rows}
    assert {k: v for k, v in nets.items() if v} == {k: v for k, v in expected.items() if v}


@given(st.lists(evenings(), min_size=3, max_size=3))
def test_merge_is_associative_and_equals_booking_everything(
        parts: list[tuple[list[Any], list[dict[str, str]]]]) -> None:
    a, b, c = (book(recs, seats) for recs, seats in parts)
    assert a.merge(b).merge(c) == a.merge(b.merge(c)) == combine([a, b, c])
    assert Ledger().merge(a) == a.merge(Ledger()) == a
    every = [x for recs, _ in parts for x in recs]
    seats = [s for _, ss in parts for s in ss]
    assert combine([a, b, c]).totals() == book(every, seats).totals()


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]
        yield [[first], *part]


def _fewest(nets: list[int]) -> int:
    """The oracle: n minus the most blocks, over every partition, whose nets each sum to 0."""
    live = [v for v in nets if v]
    best = max(len(p) for p in _partitions(live) if all(sum(b) == 0 for b in p))
    return len(live) - best


@st.composite
def zero_sum(draw: st.DrawFn, max_players: int) -> dict[str, int]:
    """Nets that sum to zero; small values, so that zero-sum groups are common."""
    vals = draw(st.lists(st.integers(-6, 6), min_size=1, max_size=max_players - 1))
    return {f"p{i}": v for i, v in enumerate([*vals, -sum(vals)])}


@given(zero_sum(8))
def test_settle_uses_the_fewest_transfers(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert all(v == 0 for v in _apply({k: Fraction(v) for k, v in nets.items()},
                                      transfers).values())
    assert len(transfers) == _fewest(list(nets.values()))


@given(zero_sum(30))
def test_settle_beyond_the_exact_limit_keeps_the_bound(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    live = sum(1 for v in nets.values() if v)
    assert all(v == 0 for v in _apply({k: Fraction(v) for k, v in nets.items()},
                                      transfers).values())
    assert len(transfers) <= max(live - 1, 0)


def test_settle_past_the_limit_still_pairs_equal_debts() -> None:
    # 14 people in seven pairs of equal and opposite nets: seven transfers, one per pair
    pairs = {f"d{i}": -(i + 1) for i in range(EXACT_LIMIT // 2 + 1)}
    pairs |= {f"c{i}": i + 1 for i in range(EXACT_LIMIT // 2 + 1)}
    assert len([v for v in pairs.values() if v]) > EXACT_LIMIT
    got = {(x.payer, x.payee, int(x.amount)) for x in settle(pairs)}
    assert got == {(f"d{i}", f"c{i}", i + 1) for i in range(EXACT_LIMIT // 2 + 1)}


def test_many_players_settle_in_bounded_time() -> None:
    # a file may name any number of players: 20,000 settle in about a second (the
    # quadratic search for the largest debtor would take minutes)
    nets = {f"p{i}": (i % 7 + 1) * (-1) ** i for i in range(19_999)}
    nets["last"] = -sum(nets.values())
    start = time.process_time()
    transfers = settle(nets)
    assert time.process_time() - start < 10
    assert len(transfers) <= len(nets) - 1
    assert all(v == 0 for v in _apply({k: Fraction(v) for k, v in nets.items()},
                                      transfers).values())


# The ledger's errors in both languages, written by hand: (record, seating, code, zh, en)
LEDGER_TWINS = [
    ({"line": 7, "payments": {"E": 3, "S": -2}}, None, "ledger.pay_sum",
     "第 7 行：payments 合计不为零（+1）", "line 7: payments do not sum to zero (+1)"),
    ({"line": 2, "payments": {"X": 0}}, None, "ledger.pay_seat",
     "第 2 行：payments：'X' 不是座位（E S W N）", "line 2: payments: 'X' is not a seat (E S W N)"),
    ({"line": 2, "payments": {"E": 1.5, "S": -1.5}}, None, "ledger.pay_amount",
     "第 2 行：payments E：1.5 不是整数分", "line 2: payments E: 1.5 is not a whole number of points"),
    ({"line": 9, "payments": {"E": 6, "S": -2, "W": -2, "N": -2}}, {"E": "Ann", "S": "Bo"},
     "ledger.payer_unnamed", "第 9 行：座位 W 付了 2，却没有玩家名字",
     "line 9: seat W paid 2 but has no player name"),
    ({"line": 9, "payments": {"E": 2, "S": -2}}, {"E": "Ann", "S": ""}, "players.map_no_name",
     "第 9 行：players S：玩家要有名字", "line 9: players S: a player needs a name"),
    ({"line": 9, "payments": {"E": 2, "S": -2}}, "E=Ann,S=Bo,W=Cy,X=Di", "players.not_seat",
     "第 9 行：--players 的第 17 个字符：'X' 不是座位（E S W N）",
     "line 9: --players position 17: 'X' is not a seat (E S W N)"),
    ({"line": 9, "payments": {"E": 2, "S": -2}}, {"E": "Ann", "S": "Ann"}, "players.twice",
     "第 9 行：players：Ann 同时坐在 E 和 S", "line 9: players: Ann sits at both E and S"),
]


@pytest.mark.parametrize(("record", "seating", "code", "zh", "en"), LEDGER_TWINS,
                         ids=[c[2] for c in LEDGER_TWINS])
def test_a_ledger_error_is_a_code_worded_in_both_languages(record: Any, seating: Any, code: str,
                                                           zh: str, en: str) -> None:
    from tests.helpers.bilingual import same_things

    with pytest.raises(LedgerError) as e:
        Ledger().add(record, seating)
    assert e.value.code == code
    assert (e.value.render("zh"), e.value.render("en")) == (zh, en)
    same_things(zh, en)


@pytest.mark.parametrize(("stake", "zh"), [
    ("0", "--stake '0'：必须大于 0"), ("1/3", "--stake '1/3'：不是十进制数（写成 2 或 0.5 这样）"),
    ("inf", "--stake 'inf'：不是有限的数"), ("1e99", "--stake '1e99'：超出范围（1e-30 到 1e30）"),
    (Fraction(1, 3), "--stake Fraction(1, 3)：不是精确的十进制数（写成 0.33 这样）"),
])
def test_a_bad_stake_is_said_in_chinese(stake: Any, zh: str) -> None:
    with pytest.raises(LedgerError) as e:
        parse_stake(stake)
    assert e.value.render("zh") == zh and e.value.code.startswith("stake.")
