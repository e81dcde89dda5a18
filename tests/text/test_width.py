"""scorer.text.width: display columns (CJK = 2) and text folded to them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from wcwidth import wcswidth

from scorer.text.width import columns, display_width, wrap, wrap_text


def test_columns_honours_columns_and_is_80_off_a_terminal() -> None:
    assert columns({"COLUMNS": "100"}) == 100
    assert columns({}, stream=None) == 80
    assert columns({"COLUMNS": "5"}) == 20  # narrower than a word: a floor


@given(st.text(alphabet="ab 番种：，1m东南、" , max_size=200), st.integers(20, 120))
def test_no_folded_line_is_wider_than_asked(text: str, width: int) -> None:
    for line in wrap(text, width, "  "):
        assert wcswidth(line) <= width
    # nothing is lost but the spaces at the folds
    assert "".join(wrap(text, width, "")).replace(" ", "") == text.replace(" ", "")


def test_chinese_breaks_between_characters_and_english_at_spaces() -> None:
    assert wrap("waiting on 1m 4m 7m", 12) == ["waiting on", "1m 4m 7m"]
    # 16 columns: 8 wide characters, or 7 and a digit
    assert wrap("不是胡牌：这手牌凑不成一对将加4副面子", 16) == [
        "不是胡牌：这手牌", "凑不成一对将加4", "副面子"]
    assert wrap_text("Hand: 123m 456p", 80) == "Hand: 123m 456p"
    assert display_width("十三不靠") == 8
