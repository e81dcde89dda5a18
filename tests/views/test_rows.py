"""The batch's rows: the table people read and the CSV programs read (scorer/views/rows.py)."""

from scorer.views.rows import CSV_FIELDS, table_text


def test_the_batch_table_speaks_the_runs_language() -> None:
    # a table is read by people: its column names in the run's language; the CSV's header
    # (read by programs) stays as docs/contract.md lists it
    row = [[1, "11m", "mcr", 8, "番", "和绝张", 9, -3, -3, -3, "", "Ann Bo Cy Di"]]
    zh_head = table_text(row, "zh").splitlines()[0].split()
    en_head = table_text(row, "en").splitlines()[0].split()
    # the score shows its unit (8 番), a column empty in every row (error) is left out, and
    # the seating's header is short, so that the table fits 80 columns (tests/cli/test_fit.py)
    assert zh_head == ["行", "手牌", "规则", "分", "番种", "E", "S", "W", "N", "座次"]
    assert en_head == ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W", "N",
                       "seating"]
    assert "8 番" in table_text(row, "zh")
    assert CSV_FIELDS[:10] == ["line", "hand", "ruleset", "score", "patterns", "E", "S", "W",
                               "N", "error"]
