"""The worker side of batch: a line split without shlex where shlex would split it the
same way, the waits of the why lines remembered across hands, the batch's own ruleset
loaded before the workers start. Oracles: shlex itself; wait_facts with its memo
emptied; the loader's cache."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import score
from scorer.engine.ready import wait_facts
from scorer.errors import MjscoreError
from scorer.lines import pool as batch
from scorer.rules.load import load_ruleset
from scorer.rules.plan import plan_of, with_plan
from scorer.rules.store import LOADED
from scorer.views.jsondata import to_json
from tests.helpers.handgen import GenHand, winning_hands

ASCII = st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=40)
LINE_CHARS = st.text(st.sampled_from(list("12m5pEP[],= \t-#'\"\\x")), max_size=30)


def by_shlex(text: str) -> list[str] | str | None:
    try:
        return shlex.split(text, comments=True) or None
    except ValueError:
        return "error"


@settings(max_examples=500)
@given(st.one_of(ASCII, LINE_CHARS))
def test_split_line_is_shlex(text: str) -> None:
    try:
        got: list[str] | str | None = batch.split_line(text)
    except ValueError:
        got = "error"
    assert got == by_shlex(text)


def test_split_line_keeps_quotes_and_comments_to_shlex() -> None:
    assert batch.split_line("'123m 456p'  --from S # 自摸") == ["123m 456p", "--from", "S"]
    assert batch.split_line("11m\x0b22m") == ["11m\x0b22m"]  # shlex does not split on \x0b
    assert batch.split_line("  \t ") is None


@settings(max_examples=60, deadline=None)
@given(winning_hands())
def test_remembered_waits_are_the_waits(g: GenHand) -> None:
    result = g.won()
    if result is None:
        return
    plan = plan_of(result.ruleset)
    try:
        first = wait_facts(result)  # computed, or from an earlier hand
        again = wait_facts(result)  # from the memo
        plan.waits.clear()
        fresh = wait_facts(result)
    except MjscoreError:
        return
    for f in (first, again):
        assert (f.tiles, f.any_tile) == (fresh.tiles, fresh.any_tile), g.line
        assert f.without.sources == fresh.without.sources  # this hand's, not another's
    plan.waits.clear()
    plain = json.dumps(to_json(result, "en"), ensure_ascii=False)
    assert json.dumps(to_json(result, "en"), ensure_ascii=False) == plain


def test_warm_loads_the_batch_ruleset_before_the_workers() -> None:
    LOADED._recent.clear()
    batch._warm(["--players", "A,B,C,D", "--rules=xiamen"])
    warmed = LOADED._recent.get("xiamen")
    assert warmed is not None
    batch._warm(["--rules", "no-such-ruleset"])  # left to the lines, which report it
    batch._warm(["--rules"])  # a flag without its value: the check of the flags says so
    assert load_ruleset("xiamen") is warmed[1]


def test_warm_generates_the_pattern_loop_the_workers_inherit(tmp_path: Path) -> None:
    # A new file: a ruleset no earlier test has scored with, so no loop exists yet. Before,
    # each forked worker scored 512 readings with the closures and generated its own.
    path = tmp_path / "house.yaml"
    path.write_text("extends: hangzhou\nid: house-warm\n", encoding="utf-8")
    rs = load_ruleset(str(path))
    g = plan_of(rs).generated
    if g.mode == "off":  # MJSCORE_CODEGEN=off: never generated, not even here
        batch._warm(["--rules", str(path)])
        assert g.loop is None and not g.tried
        return
    assert g.loop is None and not g.tried and g.readings == 0
    batch._warm(["--rules", str(path)])
    assert load_ruleset(str(path)) is rs and g.tried and g.loop is not None
    # and the loop gives what the closures give on a hand
    line = "123m456p789s234sP9m --self-draw"
    generated = to_json(score(line.split()[0], rs, _context(line)), "en")
    closures = to_json(score(line.split()[0], with_plan(rs, plan_of(rs).closures_only()),
                                   _context(line)), "en")
    assert generated == closures


def test_a_failure_generating_the_loop_in_warm_leaves_the_closures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.rules import plan

    def broken(*a: object) -> object:
        raise TypeError("a bug in the code generator")

    monkeypatch.setattr(plan, "generate_loop", broken)
    path = tmp_path / "house.yaml"
    path.write_text("extends: hangzhou\nid: house-broken\n", encoding="utf-8")
    batch._warm(["--rules", str(path)])  # does not raise: the batch goes on
    rs = load_ruleset(str(path))
    assert plan_of(rs).generated.loop is None
    line = "123m456p789s234sP9m --self-draw"
    rec = batch.score_record(line, ["--rules", str(path)])
    assert rec["payments"]["E"] == 12, rec  # README's worked hand, by the closures


def _context(line: str) -> object:
    from scorer.lines.grammar import parse

    hand, *flags = line.split()
    return parse([hand, "--rules", "hangzhou", *flags]).context


def testknown_widths_are_wcwidths() -> None:
    from wcwidth import wcswidth, wcwidth

    from scorer.text import width as i18n

    chars = [chr(o) for lo, hi in i18n._WIDE for o in range(lo, hi + 1)]
    chars += [chr(o) for lo, hi in i18n._NARROW_RANGES for o in range(lo, hi + 1)]
    chars += sorted(i18n._NARROW) + [chr(o) for o in range(0x20, 0x7F)]
    for ch in chars:
        assert i18n.known_width(ch) == wcwidth(ch), hex(ord(ch))
    for text in ("番种：", "E（庄）", "底分 1 × 庄闲分 2", "听任意牌 — ←"):
        assert i18n.display_width(text) == wcswidth(text)
    assert i18n.known_width("🀄🀀") == wcswidth("🀄🀀") == 3  # the tiles: known
    assert i18n.known_width("ß") is None  # left to wcwidth
    assert i18n.known_width("a\u0301") is None  # a combining accent: wcwidth counts 0


def test_one_chinese_score_loads_no_wcwidth_tabulate_or_code_generator(tmp_path: Path) -> None:
    # each is cold-start time a single `mjscore score` does not need (codegen runs once a
    # ruleset has scored 512 readings, and when a start writes the ruleset's built entry:
    # the second start, which reads that entry, must not load it)
    import os
    import subprocess
    import sys

    code = ("import sys\nfrom scorer.cli.entry import main\nsys.argv = ['mjscore', 'score', "
            "'123m456p789s234sP9m', '--rules', 'hangzhou', '--self-draw']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('wcwidth', 'tabulate', 'scorer.lang.codegen') "
            "if m in sys.modules))")
    env = {**os.environ, "MJSCORE_CACHE_DIR": str(tmp_path / "mjscore")}
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=env).stdout
    assert "wcwidth" not in first and "tabulate" not in first.splitlines()[-1], first
    assert list(tmp_path.glob("mjscore/*.built")), "the first start wrote no built entry"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.strip().splitlines()[-1] == "[]", out


def test_affinity_sends_a_text_met_again_to_the_same_worker() -> None:
    pick = batch.Affinity(3)
    texts = [f"hand {i}" for i in range(30)]
    first = [pick(t) for t in texts]
    assert [first.count(k) for k in range(3)] == [10, 10, 10]  # new texts: evenly spread
    assert [pick(t) for t in reversed(texts)] == first[::-1]  # met again: the same worker
    # what it holds is bounded: past HELD new texts it starts again, still balanced
    pick.known.limit = 8  # (its bound, Affinity.HELD, made small)
    for i in range(100):
        pick(f"other {i}")
    assert len(pick.known) <= 8 and max(pick.load) - min(pick.load) <= 1


def test_affinity_parts_deals_a_round_as_one_call_a_line_would() -> None:
    """A round dealt at once (Affinity.parts) goes where one call a line sends it, in
    line order within each worker, and leaves the same load."""
    texts = [f"hand {(i * 7) % 13}" for i in range(60)]
    items = [(n, t, None) for n, t in enumerate(texts, 1)]
    one, whole = batch.Affinity([2, 1]), batch.Affinity([2, 1])
    by_call: list[list[tuple[int, str, None]]] = [[], []]
    for rnd in (items[:25], items[25:]):
        for item in rnd:
            by_call[one(item[1])].append(item)
    by_parts = [x for rnd in (items[:25], items[25:]) for x in [whole.parts(rnd)]]
    assert [a + b for a, b in zip(*by_parts, strict=True)] == by_call
    assert whole.load == one.load == [len(by_call[0]), len(by_call[1])]


def test_a_parallel_batch_of_repeated_lines_keeps_order_and_records() -> None:
    """Lines sent to their workers by text come back merged in line order, each with the
    record a one-job run gives it (repeats, comments and a seating change among them)."""
    hands = ["123m456p789s234sP9m --self-draw", "123m456m789p234s55s --self-draw --base 2",
             "11m22m33m44p55p66s77s --self-draw", "123m456p789s2345s --self-draw",
             "# players: Ann,Bo,Cy,Di", "   ", "123m456m789p234s55s --from S"]
    lines = [hands[(i * 7 + i // 5) % len(hands)] for i in range(200)]

    def seen(jobs: int) -> list[tuple[int, str]]:
        return [(r.line, r.text) for r in batch.score_many(
            lines, ["--rules", "hangzhou"], jobs=jobs, chunk=8, fmt="jsonl", lang="en")]

    one = seen(1)
    assert one == seen(2) == seen(3)
    assert len(one) == sum(1 for x in lines if x.strip() and not x.startswith("#"))


def test_affinity_weighs_pools_by_their_workers() -> None:
    pick = batch.Affinity([2, 1, 1])  # (more jobs than MAX_POOLS: pools of several workers)
    got = [pick(f"hand {i}") for i in range(400)]
    assert [got.count(k) for k in range(3)] == [200, 100, 100]


def test_a_batch_with_more_jobs_than_pools_scores_every_line(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Past MAX_POOLS jobs the workers share pools (a pool per job would pass the limit of
    open files): the lines come back in order, as one job gives them."""
    monkeypatch.setattr(batch, "MAX_POOLS", 2)
    lines = [f"123m456m789p234s55s --self-draw --base {b % 7 + 1}" for b in range(120)]
    one = [(r.line, r.text) for r in batch.score_many(lines, ["--rules", "hangzhou"],
                                                      fmt="jsonl")]
    many = [(r.line, r.text) for r in batch.score_many(lines, ["--rules", "hangzhou"],
                                                       jobs=3, chunk=8, fmt="jsonl")]
    assert many == one and len(one) == 120


# A batch line's own errors, in both languages: (line, code, the zh message, the en message),
# both written by hand; the line runs with --rules hangzhou given to batch.
LINE_ERRORS = [
    ("123m456m789p234s55s --self-draw --stake 2", "batch.run_only",
     "--stake 对整个 batch 有效，不能写在一行里",
     "--stake is for the whole batch, not for one line"),
    ("123m456m789p234s55s --self-draw --players Ann,X=Bo", "players.mixed",
     "--players 的第 5 个字符：都写 SEAT=NAME，或只写名字",
     "--players position 5: all SEAT=NAME, or names in order"),
    ("# players: Ann,Ann", "players.twice", "# players：Ann 同时坐在 E 和 S",
     "# players: Ann sits at both E and S"),
    ("1m --players E=Ann,S=Bo,W=Cy,N=Di,E=Ed", "players.too_many",
     "--players 的第 22 个字符：超过 4 个座位", "--players position 22: more than 4 seats"),
    ("1m --players E=Ann,S=,W=Cy", "players.no_name", "--players 的第 9 个字符：玩家要有名字",
     "--players position 9: a player needs a name"),
    ("1m --players E=Ann,E=Bo", "players.seat_twice", "--players 的第 7 个字符：座位 E 写了两次",
     "--players position 7: seat E is named twice"),
    ("1m --players E=Ann,Q=Bo", "players.not_seat",
     "--players 的第 7 个字符：'Q' 不是座位（E S W N）",
     "--players position 7: 'Q' is not a seat (E S W N)"),
    ('123m456m789p234s55s "--self-draw', "line.unsplittable",
     "读不了这一行：引号没有配对，或行尾是反斜杠",
     "cannot split the line: open quote or final backslash"),
    ("123m456m789p234s55s --option cap", "flag.pairs", "--option cap：写成 KEY=VALUE（例如 cap=128）",
     "--option cap: write KEY=VALUE (e.g. cap=128)"),
    ("123m456m789p234s55s --explain-top 0", "explain_top.range",
     "--explain-top 0：至少为 1 的整数", "--explain-top 0: must be a whole number of at least 1"),
    ("x" * 4097, "line.too_long", "第 4097 个字符：这一行有 4097 个字符；最多 4096 个",
     "position 4097: the line is 4097 characters long; at most 4096"),
]


@pytest.mark.parametrize(("line", "code", "zh", "en"), LINE_ERRORS,
                         ids=[c[1] for c in LINE_ERRORS])
def test_a_line_error_is_a_code_worded_in_both_languages(tmp_path: Path, line: str, code: str,
                                                         zh: str, en: str) -> None:
    from tests.helpers.bilingual import batch_errors, twins

    f = tmp_path / "h.txt"
    f.write_text(line + "\n", encoding="utf-8")
    (z,), (e,) = (batch_errors(str(f), ["--rules", "hangzhou"], lang) for lang in ("zh", "en"))
    assert (z["code"], z["message"]) == (code, zh)
    assert (e["code"], e["message"]) == (code, en)
    twins(z, e)


def test_a_line_without_a_ruleset_says_where_to_give_one(tmp_path: Path) -> None:
    from tests.helpers.bilingual import batch_errors, twins

    f = tmp_path / "h.txt"
    f.write_text("123m456m789p234s55s --self-draw\n", encoding="utf-8")
    (z,), (e,) = (batch_errors(str(f), [], lang) for lang in ("zh", "en"))
    assert z["code"] == "batch.no_rules" and z["params"] == {"flag": "--rules"}
    assert z["message"] == "这一行没有规则：给这一行或 batch 加 --rules ID"
    assert e["message"] == "no ruleset for this line: add --rules ID to it or to batch"
    twins(z, e)
