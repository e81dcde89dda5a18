"""scorer.engine.scoring: which patterns a reading counts when a ``max`` tally's patterns
replace others, and the ``hidden`` tally kept out of the chain shown to people."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from scorer.engine.context import Context
from scorer.engine.scoring import score
from scorer.errors import RulesetError
from scorer.rules.load import compile_ruleset
from scorer.views.pieces import chain_lines

# A small table: a base pattern (max) times doublings (product). 'flat' is worth 10 but
# takes no doubling; 'big' is worth 4. A self-drawn hand doubles; a hand holding 5m doubles.
# 'flat' also marks the hidden tally that the payment reads (+100 when not flat).
RULES = """\
id: t
tallies:
  base: {combine: max}
  x: {combine: product}
  mark: {combine: max, default: 0, hidden: true}
score: base * x
patterns:
  - {id: plain, tally: base, when: "True", value: 1}
  - {id: big, tally: base, when: "len(suits) == 1", value: 4}
  - {id: flat, tally: base, when: "heavenly", value: 10, replaces: [zimo, five],
     also: {mark: 1}}
  - {id: zimo, tally: x, when: self_draw, value: 2}
  - {id: five, tally: x, when: "any(t.number == 5 for t in hand_tiles)", value: 2}
context:
  heavenly:
payment:
  amount: "score + (0 if mark else 100)"
"""


def _rules(tmp_path: Path, text: str = RULES) -> object:
    f = tmp_path / "t.yaml"
    f.write_text(textwrap.dedent(text), encoding="utf-8")
    return compile_ruleset(f.read_text(encoding="utf-8"), str(f))


def test_a_max_pattern_replaces_only_in_the_reading_that_counts_it(tmp_path: Path) -> None:
    rs = _rules(tmp_path)
    # one suit, 5m held, self-drawn, heavenly: 'big' 4 × zimo 2 × five 2 = 16, +100 = 116
    # a payer; 'flat' 10 with its doublings replaced = 10, +0 (marked) = 10: 'big' counts,
    # and 'flat' (not counted) takes nothing away from it
    r = score("123m456m789m123m55m", rs, Context(self_draw=True, heavenly=True))
    assert sorted(h.pattern.id for h in r.best.hits) == ["big", "five", "zimo"]
    assert r.best.score == 16 and r.payments["E"] == 3 * 116
    assert r.best.replaced == []


def test_the_chosen_max_pattern_lists_what_it_replaced(tmp_path: Path) -> None:
    rs = _rules(tmp_path)
    # two suits: 'plain' 1 × 2 × 2 = 4, +100 = 104 a payer, against 'flat' 10 (+0): 'plain'
    # wins on payment; without the +100 (the payment below) 'flat' 10 beats 4
    r = score("123m456m789m123p55m", rs, Context(self_draw=True, heavenly=True))
    assert r.best.hits[0].pattern.id == "plain" and r.payments["E"] == 3 * 104
    rs2 = _rules(tmp_path, RULES.replace('amount: "score + (0 if mark else 100)"',
                                         'amount: "score"'))
    r2 = score("123m456m789m123p55m", rs2, Context(self_draw=True, heavenly=True))
    assert [h.pattern.id for h in r2.best.hits] == ["flat"]
    assert r2.best.score == 10 and r2.best.tallies == {"base": 10, "x": 1, "mark": 1}
    assert sorted((h.pattern.id, h.replaced_by) for h in r2.best.replaced) == [
        ("five", "flat"), ("zimo", "flat")]


def test_a_fallback_is_no_alternative_beside_another_pattern_of_its_tally(tmp_path: Path
                                                                        ) -> None:
    rs = _rules(tmp_path, RULES.replace('value: 1}', 'value: 1, fallback: true}'))
    # as above, but 'plain' counts only where nothing else of its tally does: 'flat' alone
    r = score("123m456m789m123p55m", rs, Context(self_draw=True, heavenly=True))
    assert [h.pattern.id for h in r.best.hits] == ["flat"] and len(r.candidates) == 1


def test_a_hidden_tally_is_not_a_line_of_the_chain(tmp_path: Path) -> None:
    rs = _rules(tmp_path, RULES.replace('amount: "score + (0 if mark else 100)"',
                                        'amount: "score"'))
    r = score("123m456m789m123p55m", rs, Context(self_draw=True, heavenly=True))
    lines = chain_lines(rs, r.best, "en")  # type: ignore[arg-type]
    assert lines == ["flat = base 10"]


def test_hidden_must_be_true_or_false(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as e:
        _rules(tmp_path, RULES.replace("hidden: true", "hidden: maybe"))
    assert "tallies.mark.hidden: must be true or false" in str(e.value)
