"""``waits``: every tile that completes a hand one tile short, scored.

Checked two ways: against a brute force written here (append each of the 34 tiles to
the hand as typed, score it with ``scorer.score`` self-drawn and on each other seat's
discard, keep what wins), on hands drawn from every ruleset, wildcards included; and on
hands worked by hand from docs/rulings.md / the README's worked examples.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from scorer import Context, score
from scorer.cli.app import app, context_from_params, parse_score_args
from scorer.engine.ready import best_wait, tiles_waited, wait_facts, waits
from scorer.errors import HandError, MjscoreError
from scorer.model import tiles as T
from tests.helpers.handgen import render, ruleset_ids, winning_hands

NAMES = [T.name(t) for t in range(34)]


def brute(short: str, flags: list[str], seats: tuple[str, ...], seat: str) -> dict:
    """{(tile, discarder or None): (winner's amount, headline, pattern ids)} for every win."""
    out = {}
    for name in NAMES:
        for how in [["--self-draw"]] + [["--from", s] for s in seats if s != seat]:
            p = parse_score_args([short + name, *flags, "--seat", seat, *how])
            try:
                r = score(str(p["hand"]), str(p["rules"]), context_from_params(p))
            except MjscoreError:
                continue
            out[(name, how[1] if len(how) > 1 else None)] = (
                r.payments[seat], r.best.score, tuple(h.pattern.id for h in r.best.hits))
    return out


def from_waits(short: str, flags: list[str], seat: str) -> dict:
    p = parse_score_args([short, *flags, "--seat", seat])
    w = waits(str(p["hand"]), str(p["rules"]), context_from_params(p))
    out = {}
    for tw in w.tiles:
        for o in tw.outcomes:
            if o.won:
                assert o.result is not None
                out[(T.name(tw.tile), o.discarder)] = (
                    o.amount, o.result.best.score, tuple(h.pattern.id for h in o.result.best.hits))
    return out


@pytest.mark.parametrize("rules", ruleset_ids())
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_waits_match_brute_force(rules: str, data: st.DataObject) -> None:
    g = data.draw(winning_hands(rules))
    conc = (*g.concealed, g.winning)
    # drop one concealed tile: what is left is one tile short (and usually ready)
    k = data.draw(st.integers(0, len(conc) - 1))
    rest = conc[:k] + conc[k + 1:]
    short = render(g.melds, rest[:-1], rest[-1])
    seat = g.flags[g.flags.index("--seat") + 1]
    flags = ["--rules", rules, *g.setup.flags]
    assert from_waits(short, flags, seat) == brute(short, flags, g.setup.seats, seat)


@pytest.mark.parametrize("short,flags", [
    ("123m456p789s2355p", ["--rules", "mcr"]),
    ("1112345678999m", ["--rules", "mcr"]),
    ("19m19p19sESWNCFP", ["--rules", "mcr"]),            # 十三幺: thirteen-sided
    ("123m456p789s1sPPP", ["--rules", "hangzhou"]),       # three 财神
    ("123m456p789sPPPP", ["--rules", "hangzhou"]),        # four 财神
    ("123m456p789s1sPPP", ["--rules", "hangzhou", "--option", "discard_win=true",
                           "--dealer-streak", "3"]),
    ("112233m4455p66sP", ["--rules", "hangzhou"]),        # 七客 / 七对子 shapes
    ("123p456p78s3m3m3m1sE", ["--rules", "jinhua", "--wild", "3m"]),
    ("147m258p36sSWNCF", ["--rules", "jinhua", "--wild", "E"]),   # 十三不靠 / 七风
    ("123m456p78s123s5pE9s9s9s", ["--rules", "xiamen", "--wild", "9s"]),  # three golds
    ("[CCC,1][EEEE,2]123m456pNNN9s", ["--rules", "xiamen", "--wild", "9s"]),
    ("123m456p789s123s45pEE", ["--rules", "xiamen", "--wild", "9s"]),
])
def test_chosen_hands_match_brute_force(short: str, flags: list[str]) -> None:
    for seat in ("E", "S"):
        assert from_waits(short, flags, seat) == brute(short, flags, ("E", "S", "W", "N"), seat)


def test_hangzhou_baotou_waits_on_every_tile() -> None:
    # docs/rulings.md#hangzhou-win-types: minus the winning tile = sets + one lone wildcard → 暴头 2 番,
    # any tile wins, never on a discard. E (dealer) self-draws: each idle player pays
    # 底分 1 × 庄闲分 2 × 番 2 = 4; W (idle): E pays 4, S and N pay 1 × 1 × 2 = 2.
    w = waits("123m456p789s234sP", "hangzhou", Context())
    assert w.any_tile and len(w.tiles) == 34
    [entry] = w.entries()
    assert entry.any_tile and len(entry.tiles) == 34
    sd = entry.wait.self_draw
    assert sd is not None and sd.result is not None
    assert [h.pattern.id for h in sd.result.best.hits] == ["baotou"]
    assert sd.result.payments == {"E": 12, "S": -4, "W": -4, "N": -4}
    assert all(not o.won for o in entry.wait.discards)
    w = waits("123m456p789s234sP", "hangzhou", Context(seat="W", self_draw=True))
    sd = w.entries()[0].wait.self_draw
    assert sd is not None and sd.result is not None
    assert sd.result.payments == {"E": -4, "S": -2, "W": 8, "N": -2}
    assert len(w.tiles[0].outcomes) == 1  # --self-draw: only that way


def test_hangzhou_baotou_refused_on_discard_even_with_fangchong() -> None:
    # docs/rulings.md#hangzhou-baotou-discard: 暴头 is never won on a discard, whatever other reading.
    w = waits("123m456p789s234sP", "hangzhou",
              Context(dealer_streak=3, options=(("discard_win", "true"),)))
    for tw in w.tiles:
        assert [o.won for o in tw.outcomes] == [True, False, False, False]
        assert all("暴头" in o.reason for o in tw.discards)


def test_xiamen_youjin_readme_hand() -> None:
    # README (Xiamen): without the winning 5s the hand is complete sets plus a lone gold:
    # 游金 k 4 + 50; 底 16 (dealer) + 水 7 → (16 + 7) × 4 + 50 = 142 from each of S W N.
    w = waits("[CCC,1][EEEE,2]123m456pNNN9s", "xiamen", Context(wild="9s"))
    assert w.any_tile
    [tw] = [t for t in w.tiles if T.name(t.tile) == "5s"]
    sd = tw.self_draw
    assert sd is not None and sd.result is not None
    assert sd.result.payments == {"E": 426, "S": -142, "W": -142, "N": -142}
    # 有金不能捉炮: a hand holding a gold never wins on a discard
    assert all(not o.won and "金" in o.reason for t in w.tiles for o in t.discards)


def test_mcr_only_wait_and_minimum() -> None:
    # README (MCR): 234567s234567p + 5m waits on 5m only (单钓将). On N's discard, S wins
    # 门前清 2 + 平和 2 + 断幺 2 + 喜相逢 1×2 + 连六 1 + 单钓将 1 = 10 fan: N pays 8 + 10,
    # E and W 8 each. Self-drawn, 不求人 4 takes the place of 门前清 2: 12 fan, 20 each.
    ctx = Context(seat="S")
    assert tiles_waited("234567s234567p5m", "mcr", ctx) == frozenset({T.tile(5, "m")})
    [tw] = waits("234567s234567p5m", "mcr", ctx).tiles
    by = {o.discarder: o for o in tw.outcomes}
    assert by["N"].result is not None and by["N"].result.best.score == 10
    assert by["N"].result.payments == {"E": -8, "S": 34, "W": -8, "N": -18}
    assert by[None].result is not None and by[None].amount == 60
    # at an 11-fan minimum the only wait is below it on a discard: no win, and says so
    hi = Context(seat="S", options=(("min_fan", "11"),))
    [tw] = waits("234567s234567p5m", "mcr", hi).tiles
    assert [o.won for o in tw.outcomes] == [True, False, False, False]
    assert all(o.code == "below_minimum" for o in tw.discards)
    best = best_wait("234567s234567p5m", "mcr", Context(seat="S", discarder="N",
                                                        options=(("min_fan", "11"),)))
    assert best is None  # 查大叫-style question: on N's discard it could win nothing


def test_best_wait_is_the_highest_paying_tile() -> None:
    # 1112345678999m (九莲宝灯 shape) waits on all nine; best_wait picks the most paid.
    w = waits("1112345678999m", "mcr", Context(discarder="N"))
    assert len(w.tiles) == 9
    b = best_wait("1112345678999m", "mcr", Context(discarder="N"))
    assert b is not None
    assert b.amount == max(o.amount for tw in w.tiles for o in tw.outcomes)


def test_not_ready_is_an_answer() -> None:
    w = waits("123m456p789s2468p", "mcr")
    assert not w.ready and w.tiles == () and w.reason.startswith("not ready")
    assert tiles_waited("123m456p789s2468p", "mcr") == frozenset()


def test_held_out_tile_is_no_wait() -> None:
    # 1111m + three sets: only a fifth 1m would complete it (111m + 1m1m): not ready
    w = waits("1111m234p567p789s", "mcr")
    assert not w.ready and w.held_out == (T.tile(1, "m"),)
    assert "every copy" in w.reason
    assert tiles_waited("1111m234p567p789s", "mcr") == frozenset()


@pytest.mark.parametrize("hand,rules,count", [
    ("123m456p789s234sPP", "hangzhou", "14"), ("123m456p789s23sP", "hangzhou", "12"),
    ("123m456p789s123s1m9sEEE", "xiamen", "17"),
])
def test_wrong_count_is_an_input_error(hand: str, rules: str, count: str) -> None:
    with pytest.raises(HandError, match=f"{count} tiles; waits take"):
        waits(hand, rules, Context(wild="9s") if rules == "xiamen" else None)


def test_wait_facts_for_the_why_line() -> None:
    r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
    f = wait_facts(r)
    assert f.any_tile and len(f.tiles) == 34
    r = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S"))
    f = wait_facts(r)
    assert f.tiles == frozenset({T.tile(5, "m")}) and not f.any_tile


runner = CliRunner()


def test_cli_text_both_languages() -> None:
    en = runner.invoke(app, ["waits", "123m456p789s234sP", "--rules", "hangzhou", "--lang", "en"])
    assert en.exit_code == 0, en.output
    assert "any tile (34 faces)" in en.output and "+12" in en.output
    zh = runner.invoke(app, ["waits", "123m456p789s234sP", "--rules", "hangzhou"])
    assert zh.exit_code == 0 and "任意牌" in zh.output and "自摸" in zh.output
    labels = zh.output.split("说明：")[0]  # the notes quote the ruleset's own messages
    for word in ("any tile", "self-drawn", "discard", "Notes", "Waits", "tile", "how"):
        assert word not in labels


def test_cli_json() -> None:
    res = runner.invoke(app, ["waits", "234567s234567p5m", "--rules", "mcr", "--seat", "S",
                              "--from", "N", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["ready"] and out["tiles"] == ["5m"] and out["winning_tiles"] == ["5m"]
    [e] = out["entries"]
    [o] = e["outcomes"]
    assert o["how"] == "discard" and o["from"] == "N" and o["score"] == 10
    assert o["payments"] == {"E": -8, "S": 34, "W": -8, "N": -18}


def test_cli_not_ready_and_errors() -> None:
    res = runner.invoke(app, ["waits", "123m456p789s2468p", "--rules", "mcr", "--lang", "en"])
    assert res.exit_code == 0 and "not ready" in res.output
    res = runner.invoke(app, ["waits", "123m456p789s234sPP", "--rules", "hangzhou", "--lang",
                              "en"])
    assert res.exit_code == 2 and "14 tiles" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["waits", "123m456p789s234sPP", "--rules", "hangzhou"])
    assert res.exit_code == 2 and "14 张；听牌要 13 张" in res.output
    assert "去掉胡的那张" in res.output
    res = runner.invoke(app, ["waits", "123m456p789s2355p", "--rules", "mcr", "--piao", "1",
                              "--json"])
    assert res.exit_code == 2
    assert json.loads(res.output.splitlines()[0])["error"]["kind"] == "context"
    res = runner.invoke(app, ["waits", "123m456p789s2355p", "--rules", "mcr", "--vs", "mcr"])
    assert res.exit_code == 2 and "--vs" in res.output


def test_user_ruleset_is_bounded_over_the_whole_question(tmp_path, monkeypatch) -> None:
    import scorer.engine.ready as W
    from scorer.errors import EvaluationError

    house = tmp_path / "house.yaml"
    house.write_text("extends: hangzhou\n", encoding="utf-8")
    assert waits("123m456p789s234sP", str(house)).any_tile  # within the budget: answered
    monkeypatch.setattr(W, "WAITS_BUDGET", -1.0)
    with pytest.raises(EvaluationError, match="on these waits"):
        waits("123m456p789s234sP", str(house))
    assert waits("123m456p789s234sP", "hangzhou").any_tile  # built-in rulesets are trusted


def test_one_report_that_names_its_wait_loads_only_the_shape_half() -> None:
    # an MCR report says what the hand waited on (scorer.engine.waitfacts); the rest of the
    # waits module (every tile scored) is cold-start time a single score does not need
    import subprocess
    import sys

    code = ("import sys\nfrom scorer.cli.entry import main\n"
            "try:\n    main(['score', '1m2m3m4m5m6m7m8m9m1p2p3pEE', '--rules', 'mcr', "
            "'--self-draw'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('scorer.engine.ready', 'scorer.engine.waitfacts') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "为何： 单钓将：去掉胡的 E，剩 123m 456m 789m 123p + 单独一张E — 只听 E" in out, out
    assert out.strip().splitlines()[-1] == "['scorer.engine.waitfacts']", out
