"""Fuzzing the hand parser and the whole ``score`` path with hypothesis, bounded in time.

* the parser on arbitrary text and on text made of notation characters: a Hand that
  prints back to itself, or a NotationError with a position inside the text (or just
  after it) -- nothing else;
* ``mjscore score`` (in-process) on generated winning hands spoiled by random edits and on
  random flags, for every ruleset: exit 0, 2 or 3, one line on stderr for an error,
  nothing on stdout but the JSON error with --json; never a traceback.

The number of examples is small in CI (a few seconds); set MJSCORE_FUZZ=N to run N
examples per test, e.g. MJSCORE_FUZZ=20000 for a long run.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import HandError, NotationError
from scorer.model.notation import parse_hand
from tests.helpers.handgen import GenHand, ruleset_ids, winning_hands
from tests.helpers.hostile import check_one_line_error, cli

N = int(os.environ.get("MJSCORE_FUZZ", "0"))
FUZZ = settings(max_examples=N or 150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

NOTATION = "0123456789mpswbtzESWNCFP[]=, 东南西北中发白發春🀄🀀\t"
notation_text = st.text(alphabet=NOTATION, max_size=60)


def _check_parse(text: str) -> None:
    try:
        h = parse_hand(text)
    except NotationError as e:
        assert e.position is None or 1 <= e.position <= len(text) + 1, (text, e.position)
        assert "\n" not in str(e)
        return
    except HandError as e:  # a meld that is no set is found later; parse_hand only reads
        pytest.fail(f"parse_hand raised HandError for {text!r}: {e}")
    again = parse_hand(h.notation())
    assert again == h, (text, h.notation())


@FUZZ
@given(st.text(max_size=80))
def test_parser_on_any_text(text: str) -> None:
    _check_parse(text)


@FUZZ
@given(notation_text)
def test_parser_on_notation_characters(text: str) -> None:
    _check_parse(text)


@st.composite
def spoiled(draw: st.DrawFn, rules: str) -> list[str]:
    """A generated winning hand with a few random edits, and some random extra flags."""
    g: GenHand = draw(winning_hands(rules))
    text = list(g.text)
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        ch = draw(st.sampled_from(NOTATION))
        if op == "insert":
            text.insert(i, ch)
        elif text and op == "delete":
            del text[i]
        elif text and op == "replace":
            text[i] = ch
        elif len(text) > 1:
            j = draw(st.integers(0, len(text) - 1))
            text[i], text[j] = text[j], text[i]
    flags = list(g.setup.flags) + list(g.flags)
    extra = draw(st.lists(st.sampled_from(EXTRA_FLAGS), max_size=3))
    for f in extra:
        flags += list(f)
    return ["score", "".join(text), "--rules", rules, *flags]


EXTRA_FLAGS = [
    ("--self-draw",), ("--from", "S"), ("--from", "E"), ("--seat", "W"), ("--seat", "N"),
    ("--round", "S"), ("--wild", "5m"), ("--wild", "P"), ("--wild", "9z"), ("--dealer-streak", "3"),
    ("--dealer-streak", "0"), ("--kong-draw",), ("--kongs", "2"), ("--robbing-kong",),
    ("--last-tile",), ("--fourth-tile",), ("--piao", "1"), ("--piao", "5"), ("--you", "2"),
    ("--ready-at-deal",), ("--heavenly",), ("--earthly",), ("--human",), ("--flowers", "3"),
    ("--flowers", "15f"), ("--flowers", "春梅"), ("--chengbao", "E:S"), ("--chengbao", "S:E"),
    ("--base", "5"), ("--base", "0"), ("--option", "cap=64"), ("--option", "players=3"),
    ("--option", "discard_win=true"), ("--option", "nope=1"), ("--explain",), ("--lang", "en"),
    ("--no-unicode",),
]


@pytest.mark.parametrize("rules", ruleset_ids())
def test_score_path(rules: str) -> None:
    seen: dict[int, int] = {}

    @FUZZ
    @given(spoiled(rules), st.booleans())
    def check(argv: list[str], as_json: bool) -> None:
        r = cli(*argv, *(["--json"] if as_json else []))
        assert "Traceback" not in r.out + r.err
        assert r.code in (0, 2, 3), (argv, r.code, r.err)
        seen[r.code] = seen.get(r.code, 0) + 1
        if r.code:
            check_one_line_error(r, r.code, as_json=as_json)
        elif as_json:
            doc = json.loads(r.out)
            assert sum(doc["payments"].values()) == 0
        else:
            assert r.err == "" and r.out

    check()
    # the fuzz reached both scored hands and refused ones
    assert seen.get(0, 0) and seen.get(2, 0), seen
