"""The JSON lines a batch writes from remembered, already-encoded fragments
(scorer.views.jsontext) are byte for byte the lines it wrote before: ``json.dumps`` of
the plain record (``to_json`` and ``error_json`` as ``score --json`` prints them).

The oracle is the standard encoder over the plain record, built without any of
jsontext's memos. Every line is checked twice over and among lines that share some of a
fragment's key but not all of it (the same hand respaced, under other flags, in the other
language, with other players), so a memo that forgot part of its key writes another
line's fragment and fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.lines import pool as batch
from scorer.views import jsontext
from scorer.views.jsontext import BODY, jsonl_line
from scorer.views.rows import jsonl_text
from tests.helpers.handgen import GenHand, ruleset_ids, winning_hands

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"hangzhou": "hangzhou.txt", "jinhua": "jinhua.txt", "xiamen": "xiamen.txt",
            "mcr": "mcr.txt", "sichuan": "sichuan.txt"}
PLAYERS = (None, "Ann,Bo,Cy,Di")


def same_line(text: str, defaults: list[str], n: int = 1, lang: str = "zh",
              players: str | None = None) -> None:
    """The encoded record of a line writes the plain record's JSON line, and gives the
    ledger the same fields."""
    plain = batch.score_record(text, defaults, n, lang, players)
    enc = batch.score_record(text, defaults, n, lang, players, encoded=True)
    assert jsonl_line(enc) == jsonl_text(plain), text
    assert batch.ledger_fields(enc) == batch.ledger_fields(plain), text


def lines_of(name: str) -> list[str]:
    return [x for x in (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


def respaced(line: str) -> str:
    """The line with its hand written with a space after every suit letter and meld: the
    same hand, its tiles at other positions (a wildcard's ``position`` moves)."""
    hand, _, rest = line.partition(" ")
    spaced = re.sub(r"([mpsz\]])(?=\S)", r"\1 ", hand)
    return f"'{spaced}' {rest}"


@pytest.mark.parametrize("rid", sorted(EXAMPLES))
def test_every_example_line(rid: str) -> None:
    lines = lines_of(EXAMPLES[rid])
    jsontext.clear()
    for _ in range(2):  # the second time over, every fragment is a remembered one
        for lang in ("zh", "en"):
            for players in PLAYERS:
                for n, line in enumerate(lines, 1):
                    same_line(line, ["--rules", rid], n, lang, players)
                    same_line(respaced(line), ["--rules", rid], n, lang, players)


def test_the_evening_with_its_seatings_disputes_and_errors() -> None:
    text = (ROOT / "examples" / "evening.txt").read_text(encoding="utf-8").splitlines()
    for lang in ("zh", "en"):
        for n, line, players in batch.seated(enumerate(text, 1), "E=Ann,S=Bo,W=Cy,N=Di"):
            same_line(line, [], n, lang, players)


def golden_lines() -> list[tuple[str, str]]:
    out = []
    for f in sorted((ROOT / "tests" / "golden").glob("*.yaml")):
        for case in yaml.safe_load(f.read_text(encoding="utf-8")):
            out.append((f.stem, case["line"]))
    return out


def test_every_golden_hand() -> None:
    cases = golden_lines()
    assert len(cases) > 100
    for _ in range(2):
        for lang in ("zh", "en"):
            for rid, line in cases:
                same_line(line, ["--rules", rid], 7, lang)
                same_line(respaced(line), ["--rules", rid], 7, lang)


def test_house_rule_files_errors_and_disputes() -> None:
    house = sorted((ROOT / "examples" / "house").glob("*.yaml"))
    assert house
    lines = [
        "123m456p789s234sP9m --self-draw",
        "123m456p789s234sP9m --from S --seat W",
        "123m5p8 --self-draw",  # notation error
        "123m456p789s234sP9m --self-draw --bogus",  # flag error
        "123m456p789s234sP9m --self-draw --vs jinhua --wild 3m",
        "123m456p789s234sP9m --self-draw --vs-option cap=64",
        "111m222m333p444s5s --from S --players Ann,Bo",
        "'unbalanced --self-draw",
        "# players: nobody",
        "# a comment",
        "",
    ]
    for rules in [*(str(p) for p in house), "hangzhou", "jinhua", "mcr"]:
        for lang in ("zh", "en"):
            for line in lines:
                same_line(line, ["--rules", rules], 3, lang)


@pytest.mark.parametrize("hand", ["[8p8p8p8p,3][4m5m6m,1]3s1s3p5s3p2s3p1s",
                                  "[2s2s2s,1][6p7p8p,1]7p6p2s5s1s3s5p6p"])
def test_one_hand_read_apart_under_other_flags(hand: str) -> None:
    """Jinhua reads these hands with the winning tile in another group self-drawn and on
    a discard: the reading's fragments are the reading's, not the hand's."""
    jsontext.clear()
    reads = set()
    for _ in range(2):
        for flags in ("--self-draw", "--from S", "--self-draw --seat S", "--from W --seat S"):
            line = f"{hand} --wild 5s {flags}"
            same_line(line, ["--rules", "jinhua"])
            reads.add(tuple(batch.score_record(line, ["--rules", "jinhua"])["best"]["reading"]))
    assert len(reads) == 2


def test_mcr_below_the_minimum_keeps_its_fans_and_drops_its_payments() -> None:
    """Most generated MCR lines are refused below 8 fan: their record holds
    the hand found, without payments (the encoded form writes it too)."""
    line = "[2s2s2s,1]1s1s4p5p2p6m6p6m2p2p6m --from S"
    enc = batch.score_record(line, ["--rules", "mcr"], 1, encoded=True)
    assert enc["error"]["reason"] == "below_minimum" and BODY in enc
    out = json.loads(jsonl_line(enc))
    assert "payments" not in out and "payment_chain" not in out["best"]
    assert out["best"]["patterns"]
    same_line(line, ["--rules", "mcr"])


def test_a_batch_writes_the_same_bytes() -> None:
    """score_many's jsonl text (encoded in the worker) is the plain records' JSON lines."""
    lines = [respaced(x) if k % 3 == 0 else x for k, x in enumerate(lines_of("hangzhou.txt"))]
    lines += lines_of("evening.txt")
    for lang in ("zh", "en"):
        got = [r.text for r in batch.score_many(lines * 2, ["--rules", "hangzhou"], lang=lang,
                                                fmt="jsonl")]
        want = [jsonl_text(r.data) for r in batch.score_many(lines * 2, ["--rules", "hangzhou"],
                                                             lang=lang)]
        assert got == want


FLAGS = st.sampled_from(["", " --seat S", " --seat W --round S", " --dealer-streak 2",
                         " --last-tile", " --base 3", " --kong-draw"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(g=winning_hands(), extra=FLAGS, lang=st.sampled_from(["zh", "en"]),
       players=st.sampled_from(PLAYERS))
def test_generated_lines(g: GenHand, extra: str, lang: str, players: str | None) -> None:
    """Hypothesis-made hands of every ruleset (wildcards, stand-ins, melds, kongs), under
    flags that change the payments, the why or nothing, respaced too."""
    for line in (g.line, g.line + extra, respaced(g.line)):
        for _ in range(2):
            same_line(line, ["--rules", g.rules], 5, lang, players)


def test_generated_hands_cover_every_ruleset() -> None:
    assert {"hangzhou", "jinhua", "xiamen", "mcr"} <= set(ruleset_ids())


def test_jsonl_line_is_the_encoder_on_plain_records() -> None:
    body = jsontext.Body('"x": [1, "二"], "y": {"z": null}')
    rec = {"kind": "hand", BODY: body, "unit": "番", "ok": True, "n": 2.5, "line": 9}
    assert jsonl_line(rec) == ('{"kind": "hand", "x": [1, "二"], "y": {"z": null}, '
                               '"unit": "番", "ok": true, "n": 2.5, "line": 9}\n')
    with pytest.raises(TypeError):  # a record still holding a body is never written plain
        json.dumps(rec)


_FLAT_VALUES = st.one_of(st.text(max_size=6), st.integers(-3, 3), st.booleans(), st.none())


@given(st.lists(st.dictionaries(st.sampled_from(["kind", "message", "exit", "1"]),
                                _FLAT_VALUES, max_size=5), min_size=1, max_size=4))
def test_a_flat_member_is_written_as_the_encoder_writes_it(members: list[dict]) -> None:
    # each member twice: encoded, then remembered (True and 1, equal keys, stay apart)
    for m in members + members + [{"exit": True}, {"exit": 1}, {"exit": 1.0}]:
        rec = {"kind": "hand", "error": m, "line": 1}
        assert jsonl_line(rec) == json.dumps(rec, ensure_ascii=False) + "\n"


ERROR_LINES = [
    "123m5p8 --rules mcr", "123m5p8 --rules mcr", "12m5p8 --rules mcr", "11m --rules mcr",
    "123m456p789s234sP9m --self-draw --bogus", "123m456p789s234sP9m --piao x --self-draw",
    "123m456p789s234sP9m --self-draw --players Ann,Bo --from", "[123m,2]456p789s55pEEE",
    "123m456p789s123p5m5m --from S", "123m456p789s123p5m5m --from S --lang en",
]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_error_members_remembered_write_what_the_encoder_writes(lang: str) -> None:
    """An error line's member is worded and encoded once for equal errors: each line twice
    over, in both languages, refusals, notation and flag errors (the argument added)."""
    jsontext.clear()
    for _ in range(2):
        for n, text in enumerate(ERROR_LINES, 1):
            for defaults in (["--rules", "hangzhou"], ["--rules", "mcr"]):
                same_line(text, defaults, n, lang)


def test_an_error_member_tells_true_from_one() -> None:
    from scorer.errors import HandError

    a = jsontext.error_member(HandError("count.wrong", 3, have=True, need=1), "en")
    b = jsontext.error_member(HandError("count.wrong", 3, have=1, need=1), "en")
    assert a.text == json.dumps(dict(a), ensure_ascii=False)
    assert b.text == json.dumps(dict(b), ensure_ascii=False)
    assert a.text != b.text
