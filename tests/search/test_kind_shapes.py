"""The shapes judged by kind of tile (gapped_honors, all_honors) and the machinery around them.

Expected values come from independent brute-force oracles written here (every
subset of tiles checked by a direct reading of the rule), from counting by hand,
or from scoring the same hand with wildcard fills left uncut (detail 2).
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.context import Context, resolve
from scorer.engine.scoring import score
from scorer.errors import RulesetError
from scorer.lang import Scope, compile_expr
from scorer.model.notation import parse_hand
from scorer.rules import analysis
from scorer.rules import facts as F
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.rules.plan import plan_of, with_plan
from scorer.search import decompose as D
from scorer.search import kind_shapes as K
from scorer.search.readings import WildSpec, interpret, readings, tile_codes
from scorer.search.shapes import SHAPES
from scorer.views.pieces import payment_lines, stand_in_text
from tests.conftest import run_line

HONORS = list(range(27, 34))


def counts_of(tiles: list[int]) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return tuple(c)


def oracle_gapped(tiles: list[int]) -> bool:
    """十三不靠 read straight from docs/rules/jinhua.md: 14 distinct tiles, each suit's numbers 3+ apart."""
    if len(tiles) != 14 or len(set(tiles)) != 14:
        return False
    for s in range(3):
        nums = sorted(t % 9 for t in tiles if t // 9 == s and t < 27)
        if any(nums[i + 1] - nums[i] < 3 for i in range(len(nums) - 1)):
            return False
    return sum(1 for t in tiles if t >= 27) >= 5


def oracle_fills(naturals: list[int], jokers: int) -> set[tuple[int, ...]]:
    """Every set of tiles the jokers can play, by trying all of them."""
    rest = [t for t in range(34) if t not in naturals]
    return {c for c in combinations(rest, jokers) if oracle_gapped(naturals + list(c))}


def engine_fills(naturals: list[int], jokers: int,
                 codes: tuple[int, ...] | None = None) -> set[tuple[int, ...]]:
    out = set()
    for d in K.gapped_honors(counts_of(naturals), jokers, codes):
        assert all(g.kind == "single" for g in d) and len(d) == 14
        out.add(tuple(sorted(t for g in d for t in g.wild)))
    return out


# --- gapped_honors -----------------------------------------------------------------------
def test_gapped_basic_and_knitting_not_required() -> None:
    h = parse_hand("147m147p147sESWNC")
    assert len(K.gapped_honors(counts_of([*h.concealed, h.winning]), 0)) == 1
    h = parse_hand("147m258p368sESWNC")  # 6s 8s only 2 apart
    assert K.gapped_honors(counts_of([*h.concealed, h.winning]), 0) == ()
    h = parse_hand("147m258p36sESWNCC")  # a pair is not allowed
    assert K.gapped_honors(counts_of([*h.concealed, h.winning]), 0) == ()


def test_gapped_fills_match_oracle_examples() -> None:
    # 147m 258p 369s E S W N + one joker: only C, F or P is left
    nat = [0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30]
    assert engine_fills(nat, 1) == oracle_fills(nat, 1) == {(31,), (32,), (33,)}
    # all honors + 1m 1p 1s 9s + three jokers. By hand: m (and p) can add one of 4m-9m
    # (6 ways) or two of them (47 48 49 58 59 69: 6 ways), s one of 4s 5s 6s (3 ways):
    # m2p1 36 + m1p2 36 + m2s1 18 + p2s1 18 + m1p1s1 108 = 216 fills
    nat = [*HONORS, 0, 9, 18, 26]
    assert engine_fills(nat, 3) == oracle_fills(nat, 3)
    assert len(oracle_fills(nat, 3)) == 216


SIZES = [(a, b, c) for a in range(4) for b in range(4) for c in range(4) if 7 <= a + b + c <= 9]


@st.composite
def gapped_hand(draw: st.DrawFn) -> list[int]:
    """A valid 十三不靠 set of 14 tiles: gapped suits of 7-9 tiles, then honors to make 14."""
    sizes = draw(st.sampled_from(SIZES))
    suited: list[int] = []
    for s, k in enumerate(sizes):
        fill = draw(st.sampled_from([f for f in K._suit_fills(()) if len(f) == k]))
        suited += [s * 9 + n for n in fill]
    honors = list(draw(st.permutations(HONORS)))[:14 - len(suited)]
    return sorted(suited + honors)


@settings(max_examples=60, deadline=None)
@given(gapped_hand(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_gapped_fills_match_oracle(tiles: list[int], jokers: int, rnd) -> None:
    """Take a valid gapped hand, hide some tiles behind jokers: the oracle's fills."""
    naturals = sorted(rnd.sample(tiles, 14 - jokers))
    fills = engine_fills(naturals, jokers)
    assert fills == oracle_fills(naturals, jokers)
    assert tuple(sorted(set(tiles) - set(naturals))) in fills
    # one tile too many or too few: no reading
    assert engine_fills(naturals, jokers + 1) == set()


@settings(max_examples=40, deadline=None)
@given(gapped_hand(), st.integers(1, 3), st.randoms(use_true_random=False),
       st.sets(st.sampled_from(["suit", "honor", "wind", "terminal"])))
def test_coded_fills_keep_every_kind(tiles: list[int], jokers: int, rnd, feats) -> None:
    """With tile codes, one fill of each kind is kept and no kind is lost."""
    naturals = sorted(rnd.sample(tiles, 14 - jokers))
    spec = WildSpec(face=rnd.choice(range(34)), detail=1, features=frozenset(feats))
    codes = tile_codes(spec, counts_of(naturals))
    assert codes is not None
    full = engine_fills(naturals, jokers)
    cut = engine_fills(naturals, jokers, codes)
    assert cut <= full
    assert {K.fill_key(f, codes) for f in full} == {K.fill_key(f, codes) for f in cut}
    assert len(cut) == len({K.fill_key(f, codes) for f in full})


# --- all_honors -------------------------------------------------------------------------
def test_all_honors_counts() -> None:
    c = counts_of([27, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31])
    # 3 jokers among 7 honors with repetition: C(9, 3) = 84 multisets
    assert len(K.all_honors(c, 3)) == 84
    assert len(K.all_honors(counts_of([0, *HONORS]), 0)) == 0
    (only,) = K.all_honors(counts_of(HONORS * 2), 0)
    assert [g.tiles for g in only] == [(t,) for t in sorted(HONORS * 2)]


def test_all_honors_with_melds_only_of_honors() -> None:
    spec = WildSpec(face=8, in_play=3, stand_in=33)
    ok = parse_hand("[EEE,1][SSS,2]WWNNCCFN")
    bad = parse_hand("[123m,1]EEESSWWNNCCF")
    shapes = ("all_honors",)
    assert {r.shape for r in readings(interpret(ok, spec), spec, shapes, 4, True)} == {
        "all_honors"}
    assert readings(interpret(bad, spec), spec, shapes, 4, True) == []
    melds = SHAPES["all_honors"].melds
    assert melds is not None and melds(D.Group("pung", (27, 27, 27)))
    assert not melds(D.Group("chow", (0, 1, 2)))


# --- stand-in counted as itself -------------------------------------------------------------
def _readings(line: str) -> list:
    rs = load_ruleset("jinhua")
    hand_text, wild = line.split(" --wild ")
    h = parse_hand(hand_text)
    table = resolve(rs, Context(wild=wild, self_draw=True), h)
    return readings(interpret(h, table.wild), table.wild, rs.shapes, 4, True)


def test_one_stand_in_counts_as_itself_only_in_kind_shapes() -> None:
    rds = _readings("EESSWWNNCCFFPP --wild 9m")
    assert {r.shape for r in rds} == {"seven_pairs"}  # both P as 白 would be needed
    for r in rds:  # in seven pairs the 白板 are 9m
        assert Counter(t for g in r.groups for t in g.tiles)[8] == 2
    rds = _readings("EEESSSWWNNCCFP --wild 9m")
    assert {r.shape for r in rds} == {"all_honors"}
    rds = _readings("147m258p3sSWNCFPP --wild E")
    gapped = [r for r in rds if r.shape == "gapped_honors"]
    assert gapped and all(sorted(t for g in r.groups for t in g.tiles)[-7:] == HONORS
                          for r in gapped)


def test_win_tile_of_a_stand_in_counted_as_itself() -> None:
    # the winning 白板 must be 白 here (as 5s it would sit 2 from the 3s)
    result = run_line("147m258p3sESWNCFP --wild 5s --self-draw", "jinhua")
    r = result.best.reading
    assert r.shape == "gapped_honors" and r.win_natural == 33
    assert result.best.env["win_tile"] == 33
    assert stand_in_text(result) == "P ×1 → P (itself)"


# --- tile codes and class features -------------------------------------------------------
def test_tile_codes() -> None:
    spec = WildSpec(face=4, detail=1, features=frozenset({"suit"}))
    c = tile_codes(spec, counts_of([0, 27, 27, 28, 28]), win_tile=28)
    assert c is not None
    assert c[27] != c[28]  # E held twice; S held twice but it is the winning tile
    assert c[29] == c[30] != c[27]  # W, N: fresh honors
    assert c[1] == c[8] != c[0]  # 2m ~ 9m (fresh); 1m is held
    assert c[4] not in c[:4] + c[5:]  # the face keeps its own code
    kept = tile_codes(spec, (0,) * 34, keep=frozenset({29}))  # W in a fixed meld
    assert kept is not None and kept[29] not in kept[27:29] + kept[30:]
    assert tile_codes(WildSpec(detail=2), (0,) * 34) is None
    c0 = tile_codes(WildSpec(face=None, detail=0), (0,) * 34)
    assert c0 is not None and len(set(c0)) == 1


@pytest.mark.parametrize("src,names,want", [
    ("len(suits) == 1 and honor_tiles == 0", {"suits": "list[str]", "honor_tiles": "int"},
     {"suit", "honor"}),
    ("any(g.terminal for g in groups)", {"groups": "list[group]"}, {"terminal"}),
    ("any(g.dragon for g in groups)", {"groups": "list[group]"}, {"wind", "honor"}),
    ("luxury + 1", {"luxury": "int"}, set()),
])
def test_class_features(src: str, names: dict, want: set) -> None:
    c = compile_expr(src, Scope(names, F.ATTRS))
    assert analysis.class_features([c]) == frozenset(want)


def test_ruleset_features() -> None:
    assert plan_of(load_ruleset("jinhua")).detail == 1
    assert plan_of(load_ruleset("jinhua")).features == {"suit", "honor"}


# --- cutting fills changes no result --------------------------------------------------------
THREE_WILD_HANDS = [
    "ESWNCFP1m1p19s5s5s5s --wild 5s --self-draw",
    "147m258pSWNCF5s5s5s --wild 5s --self-draw",
    "EEESSSWWNNC5s5s5s --wild 5s --self-draw",
    "5s5s5sEEESSSWWWCC --wild 5s --self-draw",
    "EESSWWNNCCF5s5s5s --wild 5s --from W",
    "147m258p3sSWNCPEE --wild E --self-draw",
    "147m2p3sESWNCFPPP --wild P --self-draw",
    "[EEE,1]SSWWNNCF5s5s5s --wild 5s --from W",
]


@pytest.mark.parametrize("line", THREE_WILD_HANDS)
def test_cut_fills_score_like_all_fills(line: str) -> None:
    """Scored with every fill (detail 2: no cutting) the result is the same."""
    p = parse_score_args([*shlex.split(line), "--rules", "jinhua"])
    rs = load_ruleset("jinhua")
    full = with_plan(rs, replace(plan_of(rs), detail=2))
    try:
        a = score(str(p["hand"]), rs, context_from_params(p))
    except Exception as e:  # the hand may be illegal: then it must be under both
        with pytest.raises(type(e)):
            score(str(p["hand"]), full, context_from_params(p))
        return
    b = score(str(p["hand"]), full, context_from_params(p))
    assert (a.best.score, a.payments) == (b.best.score, b.payments)
    assert len(a.candidates) <= len(b.candidates)
    assert len(a.candidates) < 100  # a few ms


# --- the fallback pattern key ------------------------------------------------------------
def test_fallback_must_be_bool(tmp_path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("extends: jinhua\npatterns:\n  - id: pinghu\n    fallback: maybe\n",
                 encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        compile_ruleset(f.read_text(encoding="utf-8"), str(f))
    assert "fallback" in str(info.value) and "true or false" in str(info.value)


def test_fallback_counts_only_alone() -> None:
    alone = run_line("123m456p789s234s55s --wild 9m --self-draw", "jinhua")
    assert [h.pattern.id for h in alone.best.hits] == ["pinghu"]
    more = run_line("123m456p789s234s55s --wild 9m --self-draw --last-tile", "jinhua")
    assert [h.pattern.id for h in more.best.hits] == ["haidi"]
    assert not more.best.replaced  # a fallback is not 'replaced', it just does not count


# --- report ---------------------------------------------------------------------------
def test_payment_lines_name_the_discarder_first() -> None:
    r = run_line("[111m,1][333m,2][555m,3][777m,1]9m9m --wild 9p --from W", "jinhua")
    lines = payment_lines(r)
    assert lines[0] == "底注 1 × 份数 2 × 倍 16 = 32，W（放铳） 付"
    assert lines[1] == "底注 1 × 份数 1 × 倍 16 = 16，S, N 各付"
    assert payment_lines(r, lang="en")[0] == "base 1 × shares 2 × multiplier 16 = 32 from W (discarder)"
