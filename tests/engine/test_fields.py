"""scorer.engine.fields: the decomposition, the wildcard readings and the payment chain of a
result, as data, against values worked by hand from the rules (docs/rules/,
docs/rulings.md), not by the code under test."""

from __future__ import annotations

import pytest

from scorer import Context, score
from scorer.engine.fields import ChengbaoMove, PayerShare, Step, TileSet, WildcardReading


def _steps(result):
    return [(x.tally, x.pattern, x.value, x.times, x.running) for x in result.payment_chain.steps]


def test_mcr_plain_hand():
    # README's worked MCR hand: S wins on N's discard with two flowers. Four concealed chows
    # and the pair 55m, the winning 5m completing the pair (单钓将). 平和 2, 门前清 2, 断幺 2,
    # 喜相逢 1 twice (234p/234s, 567p/567s), 连六 1, 单钓将 1 = 10 fan; flowers 1 each = 2;
    # 12 in all. The discarder N pays 8 + 12 = 20, E and W pay 8 each, S gets 36.
    r = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S", flowers="2"))
    sets = r.decomposition
    assert sorted((s.kind, s.tiles) for s in sets) == [
        ("chow", ("2p", "3p", "4p")), ("chow", ("2s", "3s", "4s")),
        ("chow", ("5p", "6p", "7p")), ("chow", ("5s", "6s", "7s")), ("pair", ("5m", "5m"))]
    assert all(s.concealed and not s.meld and not s.wild for s in sets)
    assert [s.tiles for s in sets if s.winning] == [("5m", "5m")]
    assert r.wildcards == ()

    chain = r.payment_chain
    fan = [x for x in chain.steps if x.tally == "fan"]
    assert sorted((x.pattern, x.value, x.times) for x in fan) == [
        ("all_chows", 2, 1), ("all_simples", 2, 1), ("concealed_hand", 2, 1),
        ("mixed_double_chow", 1, 2), ("short_straight", 1, 1), ("single_wait", 1, 1)]
    # a sum's running value adds value × count at each step and ends at the tally
    running = [x.running for x in fan]
    assert running[-1] == 10 and running == sorted(running)
    assert [(x.tally, x.pattern, x.value, x.times, x.running) for x in chain.steps
            if x.tally == "flowers"] == [("flowers", "flower_tiles", 1, 2, 2)]
    assert all(x.combine == "sum" for x in chain.steps)
    assert chain.tallies == (("fan", 10), ("flowers", 2)) and chain.score == 12
    assert [(x.payer, x.pays, x.amount) for x in chain.shares] == [
        ("E", True, 8), ("W", True, 8), ("N", True, 20)]
    assert dict(chain.shares[2].values)["payer_is_discarder"] is True
    assert dict(chain.shares[2].values)["score"] == 12
    assert chain.chengbao == ()
    assert dict(chain.payments) == {"E": -8, "S": 36, "W": -8, "N": -20}


def test_mcr_meld_is_not_concealed():
    # [EEE] a claimed pung: exposed, written as a meld; the concealed groups are not melds
    r = score("[EEE]123m456p789s1p1p", "mcr", Context(self_draw=True))
    pung = r.decomposition[0]
    assert (pung.kind, pung.tiles, pung.concealed, pung.meld, pung.text) == (
        "pung", ("E", "E", "E"), False, True, "[EEE]")
    assert all(s.concealed and not s.meld for s in r.decomposition[1:])


def test_hangzhou_wildcard_stands_for_a_tile():
    # 杭州: the 白板 P is the 财神. 1m P 3m 456p 789s 234s 9m + the winning 9m: the 财神
    # plays 2m (123m), the drawn 9m pairs the 9m; the hand without the 9m is no lone 财神
    # (not 暴头): a plain self-draw, 自摸 1 番. S (idle) wins: E (dealer, streak 1: 庄闲分 2)
    # pays 底分 1 × 2 × 1 = 2, W and N pay 1 × 1 × 1 = 1; S gets 4.
    r = score("1mP3m456p789s234s9m9m", "hangzhou", Context(self_draw=True, seat="S"))
    assert r.wildcards == (WildcardReading(nth=1, position=3, tile="P", reads="2m",
                                           set=r.wildcards[0].set),)
    w = r.wildcards[0]
    assert not w.as_self and not w.stand_in
    chow = r.decomposition[w.set]
    assert (chow.kind, chow.tiles, chow.wild, chow.text) == (
        "chow", ("1m", "2m", "3m"), ("2m",), "12*3m")
    assert [s.tiles for s in r.decomposition if s.winning] == [("9m", "9m")]
    chain = r.payment_chain
    assert _steps(r) == [("fan", "zimo", 1, 1, 1)]
    assert [(x.payer, x.amount, dict(x.values)["zx"]) for x in chain.shares] == [
        ("E", 2, 2), ("W", 1, 1), ("N", 1, 1)]
    assert dict(chain.payments) == {"E": -2, "S": 4, "W": -1, "N": -1}


def test_hangzhou_baotou_piao():
    # 123m 456p 789s 234s + a lone 财神, the drawn 9m pairs it: 暴头; after two wildcard
    # discards (--piao 2): 财飘 2^(2 + 1) = 8 番. W (idle) wins: E pays 1 × 2 × 8 = 16, S and
    # N pay 8 each. The P (13th tile, 17th character) plays 9m in the winning pair.
    r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True, piao=2, seat="W"))
    assert r.wildcards == (WildcardReading(12, 17, "P", "9m", 4),)
    assert r.decomposition[4] == TileSet("pair", ("9m", "9m"), ("9m",), True, False, True,
                                         "9*9m")
    assert _steps(r) == [("fan", "piao", 8, 1, 8)]
    assert dict(r.payment_chain.payments) == {"E": -16, "S": -8, "W": 32, "N": -8}


def test_hangzhou_chengbao_transfer():
    # 3 老庄 (庄闲分 8 between the dealer and an idle player). W (idle) self-draws 暴头, 2 番:
    # shares E 1 × 8 × 2 = 16, S 2, N 2. W made three 摊 off E (W:E) and wins: E alone pays
    # the three shares, 20; S and N pay nothing.
    r = score("123m456p789s234sP9m", "hangzhou",
              Context(self_draw=True, seat="W", dealer_streak=3, chengbao=("W:E",)))
    chain = r.payment_chain
    assert [(x.payer, x.amount) for x in chain.shares] == [("E", 16), ("S", 2), ("N", 2)]
    assert chain.chengbao == (ChengbaoMove("W", "E", "E", 20),)
    assert dict(chain.payments) == {"E": -20, "S": 0, "W": 20, "N": 0}


def test_jinhua_stand_in():
    # 金华 with 3m wild: the 白板 P stands in for the wildcard's face, 3m, in 23~4m
    r = score("2mP4m456p789s234s55s", "jinhua", Context(self_draw=True, wild="3m"))
    assert [(w.tile, w.reads, w.stand_in, w.position) for w in r.wildcards] == [
        ("P", "3m", True, 3)]
    assert r.decomposition[r.wildcards[0].set].tiles == ("2m", "3m", "4m")


def test_sichuan_payment_with_a_player_out():
    # 四川: 111m 234m 567m 789m 55m, one suit: 清一色 4 倍 (no 根: no four alike), self-drawn
    # ×2 = 8 倍. S wins with W already out (--out W): E and N pay 底 1 × 8 = 8 each, W pays
    # nothing; S gets 16.
    r = score("111m234m567m789m5m5m", "sichuan", Context(self_draw=True, seat="S", out=("W",)))
    chain = r.payment_chain
    assert _steps(r) == [("bei", "qingyise", 4, 1, 4), ("x", "zimo", 2, 1, 2)]
    assert [x.combine for x in chain.steps] == ["max", "product"]
    assert chain.score == 8
    assert [(x.payer, x.pays, x.amount) for x in chain.shares] == [
        ("E", True, 8), ("W", False, 0), ("N", True, 8)]
    assert dict(chain.payments) == {"E": -8, "S": 16, "W": 0, "N": -8}


def test_sichuan_add_base():
    # zimo=add_base: no ×2 for the self-draw, +1 底 per payer instead (加底, the payment's
    # let jiadi): 清一色 4 + 1 = 5 from each of the three others; S gets 15.
    r = score("111m234m567m789m5m5m", "sichuan",
              Context(self_draw=True, seat="S", options={"zimo": "add_base"}))
    chain = r.payment_chain
    assert _steps(r) == [("bei", "qingyise", 4, 1, 4)]
    assert [(x.payer, x.amount, dict(x.values)["jiadi"]) for x in chain.shares] == [
        ("E", 5, 1), ("W", 5, 1), ("N", 5, 1)]
    assert dict(chain.payments) == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_fields_are_frozen_and_hashable():
    r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
    chain = r.payment_chain
    for x in (r.decomposition[0], r.wildcards[0], chain.steps[0], chain.shares[0], chain):
        hash(x)
        with pytest.raises(AttributeError):
            x.kind = "x"  # type: ignore[misc,union-attr]
    # worked out afresh on each read, equal each time
    assert r.payment_chain == chain and r.decomposition == r.decomposition
    assert isinstance(chain.steps[0], Step) and isinstance(chain.shares[0], PayerShare)


# A small table (tests/engine/test_scoring.py's): a base pattern (max) times doublings
# (product); 'flat' 10 takes no doubling and adds 1 to the hidden tally 'mark' (also:).
RULES = """\
id: t
tallies:
  base: {combine: max}
  x: {combine: product}
  mark: {combine: max, default: 0, hidden: true}
score: base * x
patterns:
  - {id: plain, tally: base, when: "True", value: 1}
  - {id: flat, tally: base, when: "heavenly", value: 10, replaces: [zimo, five],
     also: {mark: 1}}
  - {id: zimo, tally: x, when: self_draw, value: 2}
  - {id: five, tally: x, when: "any(t.number == 5 for t in hand_tiles)", value: 2}
context:
  heavenly:
payment:
  amount: "score"
"""


def test_a_value_added_through_also_is_a_step_of_its_tally():
    from scorer.rules.load import compile_ruleset

    rs = compile_ruleset(RULES, "t.yaml")
    # two suits, heavenly: 'plain' 1 × zimo 2 × five 2 = 4 against 'flat' 10 (its doublings
    # replaced): flat; it adds 1 to mark. x has no pattern left: its default, no step.
    r = score("123m456m789m123p55m", rs, Context(self_draw=True, heavenly=True))
    assert [(x.tally, x.pattern, x.value, x.running, x.via) for x in r.payment_chain.steps] == [
        ("base", "flat", 10, 10, ""), ("mark", "flat", 1, 1, "flat")]
    assert r.payment_chain.tallies == (("base", 10), ("x", 1), ("mark", 1))
    assert [x.amount for x in r.payment_chain.shares] == [10, 10, 10]
