"""Nothing breaks a round file (issue 33): every line mistake is exit 2 naming its line.

``settle_round`` raises only the documented errors (a RoundError ``line N: ...``, exit 2,
or a win's own refusal, exit 3, on its line) for every text: odd digits in a kong's tile
or a base (``0m``, ``٥m``, ``²m``, ``--base ²``, ``--base ٣``, 4,400 digits) included, and
``mjscore round`` turns each into one line on stderr (and a JSON error with ``--json``).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import MjscoreError
from scorer.table.round import EXAMPLE, RoundError, settle_round
from tests.helpers.hostile import check_one_line_error, cli

# the reproductions, and their neighbours
BAD_LINES = [
    ("S kong 0m concealed", "kong '0m'"),
    ("S kong 0p concealed", "kong '0p'"),
    ("S kong ٥m concealed", "kong '٥m'"),
    ("S kong ²m concealed", "kong '²m'"),
    ("S kong ٣m concealed", "kong '٣m'"),  # read as 3m before
    ("S kong ٣٣٣٣m concealed", "kong '٣٣٣٣m'"),
    ("S kong ５p concealed", "kong '５p'"),
    ("S kong 0000m concealed", "kong '0000m'"),
    ("S kong 5z concealed", "kong '5z'"),
    ("rules sichuan --base ²", "--base ²"),
    ("rules sichuan --base ٣", "--base ٣"),  # read as 3 before
    ("rules sichuan --base 0", "--base 0"),
    ("rules sichuan --base -1", "--base -1"),
    ("rules sichuan --base +3", "--base +3"),
    ("rules sichuan --base 1_000", "--base 1_000"),
    ("rules sichuan --base " + "9" * 4400, "--base a number of 4,400 digits"),
    ("rules sichuan --base " + "9" * 30, "--base a number of 30 digits"),
    ("rules sichuan --option cap=٣", "--option cap=٣"),
]


@pytest.mark.parametrize("line,says", BAD_LINES, ids=[b[1][:30] for b in BAD_LINES])
def test_an_odd_number_is_a_line_error(line: str, says: str) -> None:
    with pytest.raises(RoundError) as info:
        settle_round(line + "\n")
    msg = info.value.message
    assert msg.startswith("line 1: ") and says in msg, msg
    assert "9" * 31 not in msg  # a long number is named by its length, not echoed
    for as_json in (False, True):
        r = cli("round", "-", *(["--json"] if as_json else []), stdin=line + "\n")
        got = check_one_line_error(r, 2, as_json=as_json)
        assert got.startswith("line 1: ") and says in got, got
        if as_json:
            assert json.loads(r.out)["error"]["kind"] == "round"


def test_a_base_within_its_range_still_counts() -> None:
    # the example round (a kong each for E and W, the end checks): every amount is in 底
    one = settle_round("rules sichuan --base 1\n" + EXAMPLE)
    three = settle_round("rules sichuan --base 0003\n" + EXAMPLE)
    assert one.totals == {"E": 22, "S": 12, "W": 14, "N": -48}
    assert three.base == 3 and three.totals == {"E": 66, "S": 36, "W": 42, "N": -144}


SEATS = ["E", "S", "W", "N", "e", "X", ""]
TILES = ["5p", "5555p", "0m", "0p", "٥m", "²m", "1z", "9s", "١١١١m", "５m", "5", "m", "55p",
         "E", "5P", "5w", "9" * 30 + "m"]
NUMBERS = ["0", "1", "16", "²", "٣", "-1", "+3", "3_0", "9" * 50, "9" * 4400, "1e3", "１"]
HANDS = ["123m456m789m123p5p5p", "[5555p,3]123m789m11m23m4m", "123m456m789m1155p",
         "11m33m66m1234579s", "[2222m,3]345m678m99m11p", "x", "[", "１２３m456m789m123p5p5p",
         "123m456m789m123p5p5p5p", "[5555p]123m456m789m11m"]
WIN_FLAGS = ["--from", "--self-draw", "--kong-draw", "--robbing-kong", "--after-kong",
             "--last-tile", "--heavenly", "--earthly", "--seat", "--out", "--base", "--bogus"]


@st.composite
def round_line(draw: st.DrawFn) -> str:
    """A line near the round grammar: right words, odd values."""
    kind = draw(st.sampled_from(["rules", "kong", "kong", "win", "win", "hand", "junk"]))
    seat = draw(st.sampled_from(SEATS))
    if kind == "rules":
        words = ["rules", draw(st.sampled_from(["sichuan", "sichuan-xueliu", "hangzhou",
                                                "nope", "/etc/passwd"]))]
        for _ in range(draw(st.integers(0, 3))):
            flag = draw(st.sampled_from(["--base", "--option", "--x"]))
            words.append(flag)
            if draw(st.booleans()):
                words.append(draw(st.sampled_from(NUMBERS)) if flag == "--base" else
                             "cap=" + draw(st.sampled_from([*NUMBERS, "16", "none"])))
        return " ".join(words)
    if kind == "kong":
        how = draw(st.sampled_from(["from", "added", "concealed", "x", ""]))
        words = [seat, "kong", draw(st.sampled_from(TILES)), how]
        if how == "from":
            words.append(draw(st.sampled_from(SEATS)))
        return " ".join(words)
    if kind == "win":
        words = [seat, "win", draw(st.sampled_from(HANDS))]
        for _ in range(draw(st.integers(0, 3))):
            flag = draw(st.sampled_from(WIN_FLAGS))
            words.append(flag)
            if flag in ("--from", "--seat", "--out"):
                words.append(draw(st.sampled_from(SEATS)))
            elif flag == "--base":
                words.append(draw(st.sampled_from(NUMBERS)))
        return " ".join(words)
    if kind == "hand":
        return f"{seat} hand {draw(st.sampled_from(HANDS))}"
    return draw(st.text(max_size=30))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(round_line(), min_size=1, max_size=8))
def test_settle_round_raises_only_documented_errors(lines: list[str]) -> None:
    text = "\n".join(lines)
    try:
        r = settle_round(text)
    except MjscoreError as e:
        # a line error (exit 2), or a win's own refusal on its line (exit 3)
        assert e.exit_code in (2, 3), (text, e)
        assert e.message.startswith("line "), (text, e.message)
        assert "\n" not in e.message and "9" * 31 not in e.message
    else:
        assert sum(r.totals.values()) == 0
