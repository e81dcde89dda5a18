"""Numbers as people type them: ASCII digits (or an input method's full-width ones) only; a
long text named by its length."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.model.numbers import LONGEST, NotANumber, is_whole, shown, whole


@pytest.mark.parametrize("text,value", [("0", 0), ("7", 7), ("007", 7), ("-1", -1),
                                        ("1000000000000", 10**12), ("9" * LONGEST, 10**20 - 1)])
def test_ascii_digits_are_read(text: str, value: int) -> None:
    assert whole(text) == value and is_whole(text)


@pytest.mark.parametrize("text,value", [("３", 3), ("１２８", 128), ("－１", -1), ("1２", 12)])
def test_full_width_digits_as_an_input_method_types_them_are_read(text: str, value: int) -> None:
    # a Chinese input method in full-width mode types ０-９ and －: the same number
    assert whole(text) == value and is_whole(text)


# each of these int() reads (or fails on with its own error): none is a number here
@pytest.mark.parametrize("text", ["٣", "²", "＋３", "١٢", "1_000", "+3", " 3", "3 ", "", "-",
                                  "--1", "1e3", "0x10", "3.0", "三", "\u0663\u0663"])
def test_what_int_would_read_is_refused(text: str) -> None:
    with pytest.raises(NotANumber) as info:
        whole(text)
    assert not is_whole(text)
    msg = str(info.value)
    assert "not a valid int" in msg and "\n" not in msg
    if any(c.isdigit() and not c.isascii() for c in text):
        assert "digits 0-9" in msg


def test_a_long_number_is_named_by_its_length_not_echoed() -> None:
    for text in ("9" * 21, "9" * 5000, "-" + "1" * 4400):
        with pytest.raises(NotANumber) as info:
            whole(text)
        digits = len(text.lstrip("-"))
        assert str(info.value) == (f"a number of {digits:,} digits is not a valid int "
                                   f"(at most {LONGEST} digits).")
        assert shown(text) == f"a number of {digits:,} digits"
    with pytest.raises(NotANumber) as info:
        whole("x" * 300)
    assert str(info.value) == "a text of 300 characters is not a valid int."


@given(st.text(max_size=40))
def test_whole_reads_exactly_the_ascii_integers(text: str) -> None:
    ascii_int = (text.isascii() and text.lstrip("-").isdigit() and text.count("-") <= 1
                 and not text.endswith("-") and len(text) <= LONGEST
                 and (not text.startswith("-") or len(text) > 1) and "-" not in text[1:])
    if ascii_int:
        assert whole(text) == int(text)
    else:
        with pytest.raises(NotANumber) as info:
            whole(text)
        assert len(str(info.value)) < 120  # never the whole text of a long one
