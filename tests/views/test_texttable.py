"""scorer.views.texttable.simple writes what tabulate writes (tabulate is the oracle), so the
``score`` report can leave tabulate unimported."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tabulate import tabulate

from scorer.views.texttable import simple

ALIGNS = ("left", "left", "right")
HEADERS = ["seat", "role", "points"]
cell = st.text(alphabet=st.sampled_from("ESWN ()abcdefghijklmnopqrstuvwxyz+-0123456789—"),
               max_size=14)


def oracle(rows: list[list[str]], headers: list[str], aligns: tuple[str, ...]) -> str:
    return str(tabulate(rows, headers=headers, tablefmt="simple", colalign=aligns))


def test_the_report_table() -> None:
    rows = [["E (dealer)", "pays", "-16"], ["S", "—", "+0"], ["W", "winner", "+32"],
            ["N", "pays", "-16"]]
    assert simple(rows, HEADERS, ALIGNS) == oracle(rows, HEADERS, ALIGNS) == (
        "seat        role      points\n"
        "----------  ------  --------\n"
        "E (dealer)  pays         -16\n"
        "S           —             +0\n"
        "W           winner       +32\n"
        "N           pays         -16")


@given(st.lists(st.tuples(st.sampled_from(["E (dealer)", "S", "W", "N"]),
                          st.sampled_from(["winner", "pays", "—"]),
                          st.integers(-10**9, 10**9).map(lambda n: f"{n:+d}")),
                min_size=1, max_size=4))
def test_seat_tables_agree_with_tabulate(rows: list[tuple[str, str, str]]) -> None:
    table = [list(r) for r in rows]
    assert simple(table, HEADERS, ALIGNS) == oracle(table, HEADERS, ALIGNS)


@given(st.lists(st.tuples(cell, cell, cell), min_size=1, max_size=5),
       st.tuples(st.sampled_from(["left", "right"]), st.sampled_from(["left", "right"]),
                 st.sampled_from(["left", "right"])))
def test_any_text_agrees_with_tabulate(rows: list[tuple[str, str, str]],
                                       aligns: tuple[str, str, str]) -> None:
    # text tabulate would read as numbers, or cells with spaces at either end, go to
    # tabulate itself; either way the output is tabulate's
    table = [list(r) for r in rows]
    assert simple(table, ["a", "bb", "ccc"], aligns) == oracle(table, ["a", "bb", "ccc"], aligns)


zh_cell = st.text(alphabet=st.sampled_from("ESWN ()庄胡家付（）—·×—←"), max_size=8)


def test_the_chinese_report_table() -> None:
    rows = [["E（庄）", "胡家", "+12"], ["S", "付", "-4"], ["W", "—", "+0"]]
    headers = ["座位", "角色", "分数"]
    assert simple(rows, headers, ALIGNS) == oracle(rows, headers, ALIGNS)
    assert simple(rows, headers, ALIGNS).splitlines()[1] == "-------  ------  ------"


@given(st.lists(st.tuples(zh_cell, zh_cell, st.integers(-999, 999).map(lambda n: f"{n:+d}")),
                min_size=1, max_size=5))
def test_chinese_text_agrees_with_tabulate(rows: list[tuple[str, str, str]]) -> None:
    table = [list(r) for r in rows]
    headers = ["座位", "角色", "分数"]
    assert simple(table, headers, ALIGNS) == oracle(table, headers, ALIGNS)
