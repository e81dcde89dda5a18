"""The per-line shortcuts of a batch record give exactly what the plain computation gives:
the payment lines remembered by their settlement, the patterns that read the wait
remembered by pattern, tile names and groups written from tables, the ruleset of a line
loaded once, the batch's own flags split once, the JSON line written by one encoder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer import Context, load_ruleset, score
from scorer.lines import records
from scorer.lines.records import _defaults, _ruleset, score_record
from scorer.memo import forget
from scorer.model import tiles as T
from scorer.model.hand import format_tiles
from scorer.model.notation import parse_tiles
from scorer.rules.facts import WAIT_FACTS
from scorer.views import pieces as report
from scorer.views.rows import jsonl_text
from tests.helpers.handgen import GenHand, winning_hands


@given(winning_hands())
def test_payment_lines_remembered_are_the_lines_computed(g: GenHand) -> None:
    result = g.won()
    if result is None:
        return
    s = result.best
    disc = result.table.discarder if not result.table.self_draw else None
    for lang in ("zh", "en"):
        fresh = report._payment_lines(result.ruleset, s, lang, disc)
        assert report.payment_lines(result, s, lang) == fresh
        assert report.payment_lines(result, s, lang) == fresh  # the second from the memo


def test_payment_lines_name_each_hands_own_discarder() -> None:
    rs = load_ruleset("mcr")
    hand = "123m456p789s123p5m5m"
    a = score(hand, rs, Context(discarder="S"))
    b = score(hand, rs, Context(discarder="N"))
    la, lb = report.payment_lines(a, lang="en"), report.payment_lines(b, lang="en")
    assert any("S (discarder)" in x for x in la) and not any("N (discarder)" in x for x in la)
    assert any("N (discarder)" in x for x in lb) and not any("S (discarder)" in x for x in lb)


def test_the_payment_memo_is_used_and_gives_a_copy() -> None:
    r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
    forget(r.best.settlement)
    first = report.payment_lines(r)
    assert len(report.paid(r.best.settlement))  # held by the settlement
    first.append("changed by a caller")
    assert report.payment_lines(r) == first[:-1]


@given(winning_hands())
def test_wait_patterns_are_those_whose_expressions_read_the_wait(g: GenHand) -> None:
    result = g.won()
    if result is None:
        return
    s = result.best
    expected = [h for h in s.hits
                if (h.pattern.when.names | h.pattern.value.names) & WAIT_FACTS]
    assert report.wait_patterns(s) == expected
    assert report.wait_patterns(s) == expected


def test_baotou_reads_the_wait() -> None:
    # docs/rules/hangzhou.md: 暴头 is the wildcard pair completed by a lone wildcard
    r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
    assert [h.pattern.id for h in report.wait_patterns(r.best)] == ["baotou"]


def test_tile_names() -> None:
    names = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCFP")
    assert [T.name(t) for t in range(34)] == names


@pytest.mark.parametrize(("tiles", "text"), [
    ((0, 1, 2, 13, 27, 27, 31), "123m5pEEC"), ((), ""), ((9, 0, 0, 30, 5), "1p11mN6m"),
    ((26, 18, 33), "91sP"), ((4, 4, 4, 4), "5555m")])
def test_format_tiles(tiles: tuple[int, ...], text: str) -> None:
    assert format_tiles(tiles) == text


@given(st.lists(st.integers(0, 33), max_size=20))
def test_format_tiles_reads_back_in_order(tiles: list[int]) -> None:
    assert [t for t, _ in parse_tiles(format_tiles(tiles))] == tiles


def test_a_builtin_ruleset_is_loaded_once_a_path_each_line(tmp_path: Path) -> None:
    # an earlier test on this worker may have emptied load_ruleset's cache (a new object
    # for "mcr" since): start from an empty per-line table too
    records._BUILTIN.clear()
    assert _ruleset("mcr") is _ruleset("mcr") is load_ruleset("mcr")
    mine = tmp_path / "mine.yaml"
    assert _ruleset(str(mine)) == str(mine)  # left to load_ruleset, which sees edits
    mine.write_text("extends: hangzhou\nid: mine\n", encoding="utf-8")
    line = "123m456p789s234sP9m --self-draw"
    assert score_record(line, ["--rules", str(mine)])["ruleset"] == "mine"
    mine.write_text("extends: hangzhou\nid: yours\n", encoding="utf-8")
    assert score_record(line, ["--rules", str(mine)])["ruleset"] == "yours"


def test_an_unknown_id_is_still_an_error_record() -> None:
    rec = score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzou"])
    assert rec["error"]["kind"] == "ruleset" and "hangzhou" in rec["error"]["message"]


def test_the_batch_flags_are_split_once() -> None:
    assert _defaults(("--rules", "mcr", "--players", "Ann,Bo,Cy,Di")) == (
        ("--rules", "mcr"), "Ann,Bo,Cy,Di")
    rec = score_record("123m456p789s123p5m5m --from S", ["--rules", "mcr", "--players",
                                                          "Ann,Bo,Cy,Di"])
    assert rec["players"] == {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda c: st.lists(c) | st.dictionaries(st.text(), c), max_leaves=20))
def test_a_json_line_is_what_json_dumps_writes(value: object) -> None:
    assert jsonl_text({"v": value}) == json.dumps({"v": value}, ensure_ascii=False) + "\n"


def test_remembered_payment_lines_keep_no_hand_alive() -> None:
    # each line's own settlement (a --base of its own: never the engine's cached one)
    # reaches that hand's readings through its shares; the payment-lines memo held 1,024
    # of them strongly: 500 MB for 1,000 lines of a four-wildcard hand
    import gc

    from scorer.lines.pool import score_record
    from scorer.rules.facts import Env

    for i in range(40):
        rec = score_record(f"PPPP111222333m4m --self-draw --base {1 + i} --piao {i % 4}",
                           ["--rules", "hangzhou"])
        assert rec["best"]["payment_chain"], rec  # the lines were rendered (and remembered)
    del rec
    gc.collect()
    assert not [o for o in gc.get_objects() if type(o) is Env and "__reading__" in o]
