"""The totals' renderers (scorer.views.ledger): table, CSV rows, the jsonl record.

The evening is worked by hand: three Hangzhou-sized hands between Ann, Bo, Cy and Di.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from scorer.table.ledger import Ledger, Totals, book, rotate
from scorer.views.ledger import (
    TOTALS_CSV_HEADER,
    TRANSFER_CSV_HEADER,
    totals_csv_rows,
    totals_record,
    totals_table,
)

ANN = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}
HANDS: list[dict[str, Any]] = [
    {"line": 1, "winner": "W", "payments": {"E": -16, "S": -8, "W": 32, "N": -8}},
    {"line": 2, "error": {"kind": "context", "message": "--piao 9: must be between 0 and 3"}},
    {"line": 3, "winner": "E", "payments": {"E": 6, "S": -2, "W": -2, "N": -2}},
]
# Hand 3 after the deal passed: Bo E +6, Cy S −2, Di W −2, Ann N −2.
# Ann −16 −2 = −18; Bo −8 +6 = −2 (won 6, lost 8); Cy +32 −2 = +30; Di −8 −2 = −10.


def _totals(stake: Any = 1) -> Totals:
    return book(HANDS, [ANN, ANN, rotate(ANN)]).totals(stake=stake)


def test_the_table_shows_each_player_and_the_transfers() -> None:
    text = totals_table(_totals(), lang="en")
    lines = text.split("\n")
    assert lines[0] == "Totals of 2 hands, per player"
    assert lines[1] == "Not counted: 1 failed line (2)"
    rows = {ln.split()[0]: ln.split()[1:] for ln in lines if ln[:3] in ("Ann", "Bo ", "Cy ", "Di ")}
    assert rows == {"Ann": ["0", "18", "-18", "0"], "Bo": ["6", "8", "-2", "1"],
                    "Cy": ["32", "2", "+30", "1"], "Di": ["0", "10", "-10", "0"]}
    # Cy is the only creditor: the three others pay Cy, largest debt first
    assert lines[-4:] == ["To settle (3 transfers):", "  Ann pays Cy 18", "  Di pays Cy 10",
                          "  Bo pays Cy 2"]


def test_the_table_at_a_stake_and_per_seat_says_so() -> None:
    text = totals_table(_totals("0.25"), lang="en")
    assert text.startswith("Totals of 2 hands, per player, at 0.25 a point\n")
    assert "  Ann pays Cy 4.5" in text and "  Bo pays Cy 0.5" in text
    seat = totals_table(book(HANDS).totals(), lang="en")
    # the note folds at the terminal's 80 columns (tests/conftest.py), its rest indented
    assert seat.split("\n")[:3] == [
        "Totals of 2 hands, per seat",
        "(no player names were given; seats rotate as the deal passes, so a seat is not",
        "  one person)"]
    assert "\nseat " in seat


def test_an_empty_evening_owes_nothing() -> None:
    text = totals_table(Ledger().totals(), lang="en")
    assert text.startswith("Totals of 0 hands, per seat") and text.endswith(
        "To settle: nobody owes anything.")


def test_the_table_in_chinese_has_no_english_left() -> None:
    # --lang zh (the default) is the table's language too: the same figures, every word
    # of the heading, the columns and the transfers in Chinese
    text = totals_table(_totals("0.25"))
    lines = text.split("\n")
    assert lines[0] == "共 2 盘的合计，按玩家，每分 0.25"
    assert lines[1] == "不计：1 行出错（2）"
    assert next(ln for ln in lines if ln.startswith("玩家")).split() == [
        "玩家", "赢", "输", "净", "胡牌盘数"]
    assert lines[-4:] == ["结算（3 笔）：", "  Ann 付给 Cy 4.5", "  Di 付给 Cy 2.5",
                          "  Bo 付给 Cy 0.5"]
    seat = totals_table(book(HANDS).totals(), noun="round").split("\n")
    assert seat[:2] == ["共 2 局的合计，按座位",
                        "（没有给玩家名字：座位随坐庄轮转，一个座位不是一个人）"]
    assert next(ln for ln in seat if ln.startswith("座位")).split() == [
        "座位", "赢", "输", "净", "胡牌次数"]
    assert totals_table(Ledger().totals()).endswith("结算：谁也不欠谁。")
    names = {"Ann", "Bo", "Cy", "Di", "E", "S", "W", "N"}
    for t in (text, "\n".join(seat)):
        assert not [w for w in re.findall(r"[A-Za-z]+", t) if w not in names], t


def test_the_jsonl_record_is_of_its_own_kind_and_exact() -> None:
    rec = json.loads(json.dumps(totals_record(_totals()), ensure_ascii=False))
    assert rec["kind"] == "totals" and rec["by"] == "player" and rec["stake"] == 1
    assert rec["hands"] == 2 and rec["failed"] == [2] and rec["disputed"] == []
    assert rec["players"][1] == {"name": "Bo", "won": 6, "lost": 8, "net": -2, "hands_won": 1,
                                 "penalties": 0}
    assert rec["transfers"] == [{"from": "Ann", "to": "Cy", "amount": 18},
                                {"from": "Di", "to": "Cy", "amount": 10},
                                {"from": "Bo", "to": "Cy", "amount": 2}]
    half = totals_record(_totals("0.5"))
    # a stake that is not whole: every money field is a string with the exact decimal
    assert half["stake"] == "0.5" and half["players"][1]["lost"] == "4"
    assert half["transfers"][2]["amount"] == "1"
    assert totals_record(_totals("0.05"))["transfers"][0]["amount"] == "0.9"


def test_csv_rows_read_back_with_the_csv_module() -> None:
    buf = io.StringIO()
    csv.writer(buf).writerows(totals_csv_rows(_totals("0.5"), header=True))
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert rows[0] == TOTALS_CSV_HEADER
    assert rows[1:5] == [["totals", "Ann", "0", "9", "-9", "0", "0"],
                         ["totals", "Bo", "3", "4", "-1", "1", "0"],
                         ["totals", "Cy", "16", "1", "15", "1", "0"],
                         ["totals", "Di", "0", "5", "-5", "0", "0"]]
    assert rows[5] == TRANSFER_CSV_HEADER
    assert rows[6:] == [["transfer", "Ann", "Cy", "9"], ["transfer", "Di", "Cy", "5"],
                        ["transfer", "Bo", "Cy", "1"]]
