"""The one wait search (:func:`scorer.search.shapewaits.shape_waits`, what the report's why line,
batch records and ``waits`` ask) against the reference it replaced: each of the 34 tiles
added to the hand, read and searched (:func:`scorer.engine.waitfacts.shape_tiles_each`).

A differential test: every golden line of every ruleset (tests/golden/*.yaml) and every
hand of the recorded MCR oracle (tests/data/mcr_oracle.jsonl), each without its winning
tile; the golden lines the search answers (every line whose shapes do not hang on a fact
a tile added may change: every line of every golden file, Hangzhou's, Jinhua's and
Xiamen's wildcard hands included) also without each other tile they hold (other waits:
knitted, seven pairs, thirteen orphans, melds beside them, a wildcard or its stand-in as
the tile added, hands holding one, two or three wildcards or stand-ins).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.context import Context, Table, resolve
from scorer.engine.waitfacts import (
    drawable,
    shape_context,
    shape_tiles,
    shape_tiles_each,
    shapes_added,
    without_winning,
)
from scorer.errors import MjscoreError
from scorer.model.hand import Hand
from scorer.model.notation import parse_hand
from scorer.rules.load import load_ruleset
from scorer.search.readings import interpret

TESTS = Path(__file__).resolve().parents[1]
ALL = range(34)


def _golden() -> list[tuple[str, str]]:
    out = []
    for f in sorted((TESTS / "golden").glob("*.yaml")):
        for case in yaml.safe_load(f.read_text(encoding="utf-8")):
            out.append((f.stem, case["line"]))
    return out


def _oracle() -> list[tuple[str, str]]:
    rows = [json.loads(x) for x in (TESTS / "data" / "mcr_oracle.jsonl").read_text(
        encoding="utf-8").splitlines()[1:]]
    return [("mcr", f"{r['hand']} {r['context']}") for r in rows]


def _hand_and_context(rid: str, line: str) -> tuple[Hand, Context] | None:
    argv = shlex.split(line)
    if "--rules" not in argv:
        argv += ["--rules", rid]
    try:
        p = parse_score_args(argv)
        return parse_hand(str(p["hand"])), context_from_params(p)
    except MjscoreError:  # a golden line that is refused before any wait is asked
        return None


def _short(h: Hand, drop: int) -> Hand:
    """The hand one tile short: one copy of ``drop`` taken from its concealed tiles."""
    rest = list(h.concealed_with_win)
    rest.remove(drop)
    return Hand(h.melds, tuple(rest[:-1]), rest[-1])


def _table(rid: str, short: Hand, ctx: Context) -> Table:
    """The table the shape test is judged at; a context the hand without its winning tile
    contradicts (--fourth-tile, --robbing-kong) is left for a plain self-drawn one: the
    shapes do not hang on it."""
    rs = load_ruleset(rid)
    try:
        return resolve(rs, shape_context(ctx), short)
    except MjscoreError:
        return resolve(rs, Context(self_draw=True), short)


def _compare(rid: str, short: Hand, ctx: Context) -> str | None:
    """A line naming the difference between the search and the reference, or None."""
    rs = load_ruleset(rid)
    try:
        table = _table(rid, short, ctx)
    except MjscoreError:  # a golden line refused for its context, e.g. a wildcard flag
        return None
    want = shape_tiles_each(short, rs, table, ALL)
    got = shape_tiles(short, rs, table, ALL)
    faces = drawable(short, table)
    if got != want or shape_tiles(short, rs, table, faces) != [t for t in want if t in faces]:
        return f"{rid} {short.notation()}: search {got}, each tile {want}"
    return None


def _searched(rid: str, short: Hand, ctx: Context) -> bool:
    """Whether the one search answers for this hand (its shapes are known without the tile
    added)."""
    rs = load_ruleset(rid)
    table = _table(rid, short, ctx)
    return shapes_added(short, rs, table, interpret(short, table.wild)) is not None


def _wild(rid: str, short: Hand, ctx: Context) -> bool:
    """Whether the hand holds a wildcard or a stand-in, as its table reads it."""
    i = interpret(short, _table(rid, short, ctx).wild)
    return bool(i.jokers or i.stand_ins)


def _chunks(cases: list[tuple[str, str]], n: int) -> list[Any]:
    return [pytest.param(cases[k::n], id=f"{k + 1}of{n}") for k in range(n)]


@pytest.mark.parametrize("cases", _chunks(_golden(), 4))
def test_golden_lines(cases: list[tuple[str, str]]) -> None:
    problems = []
    searched = wild = 0
    by_ruleset: dict[str, int] = {}
    for rid, line in cases:
        got = _hand_and_context(rid, line)
        if got is None:
            continue
        h, ctx = got
        short = without_winning(h)
        problems.append(_compare(rid, short, ctx))
        try:
            if not _searched(rid, short, ctx):
                continue
        except MjscoreError:  # its melds cannot be read
            continue
        searched += 1
        by_ruleset[rid] = by_ruleset.get(rid, 0) + 1
        wild += _wild(rid, short, ctx)
        for drop in sorted(set(h.concealed_with_win)):  # other waits of the same tiles
            problems.append(_compare(rid, _short(h, drop), ctx))
    found = [p for p in problems if p]
    assert not found, "\n".join(found[:20])
    # every ruleset's lines, the wildcard hands of Hangzhou, Jinhua and Xiamen among them
    assert searched > 90 and wild > 15, (searched, wild)
    assert {"hangzhou", "jinhua", "xiamen", "mcr"} <= by_ruleset.keys(), by_ruleset


@pytest.mark.parametrize("cases", _chunks(_oracle(), 4))
def test_oracle_hands(cases: list[tuple[str, str]]) -> None:
    problems = []
    searched = 0
    for rid, line in cases:
        got = _hand_and_context(rid, line)
        assert got is not None, line
        h, ctx = got
        short = without_winning(h)
        searched += _searched(rid, short, ctx)
        problems.append(_compare(rid, short, ctx))
    found = [p for p in problems if p]
    assert not found, "\n".join(found[:20])
    assert searched == len(cases)


def test_knitted_and_orphan_waits() -> None:
    """Waits worked by hand, in the shapes the search takes a short cut for."""
    rs = load_ruleset("mcr")

    def waits(tiles: str) -> list[str]:
        h = parse_hand(tiles)
        table = resolve(rs, Context(self_draw=True), h)
        from scorer.model.tiles import name
        return [name(t) for t in shape_tiles(h, rs, table, ALL)]

    # 十三幺 waiting on the thirteenth kind; with every kind held, on any of the thirteen
    assert waits("19m19p19sESWNCFP") == ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W",
                                         "N", "C", "F", "P"]
    assert waits("19m19p19sESWNCFF") == ["P"]
    # 全不靠: 147m 258p 369s and four honors wait on the three other honors; 1m 4m beside
    # them on 7m, the knitted straight's last tile, or an honor not held
    assert waits("147m258p369sESWF") == ["N", "C", "P"]
    assert waits("14m258p369sESWNC") == ["7m", "F", "P"]
    # 组合龙 lacking 9s, beside 123s and the pair EE: only 9s
    assert waits("147m258p36s123sEE") == ["9s"]
