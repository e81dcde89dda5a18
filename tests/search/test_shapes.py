"""scorer.search.shapes: one registry row per winning shape, and what the rest reads from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.errors import NotAWin, RulesetError
from scorer.rules.load import load_ruleset
from scorer.rules.schema import TOP_KEYS
from scorer.search.shapes import SHAPES, shape_words
from scorer.text.catalogue import CATALOGUE
from tests.conftest import run_line

ALL = ["standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight",
       "gapped_honors", "all_honors", "as_held"]


def test_every_shape_has_one_row_with_words_in_both_languages() -> None:
    assert list(SHAPES) == ALL
    for name, shape in SHAPES.items():
        assert shape.name == name and shape.words("zh") and shape.words("en")
        assert shape.words("zh") != shape.words("en")
    assert SHAPES["standard"].words("zh", sets=5) == "一对将加5副面子"
    assert shape_words(("standard", "seven_pairs"), 5) == "a pair and 5 sets or seven pairs"


def test_the_shape_words_live_in_the_catalogue_alone() -> None:
    # one home: each shape's short (a reading's label) and long (a message's) words
    for name in ALL:
        assert f"shape.{name}" in CATALOGUE and f"shape.{name}.long" in CATALOGUE


def test_the_schema_lists_the_registry(tmp_path: Path) -> None:
    assert ", ".join(ALL) in TOP_KEYS["shapes"]
    f = tmp_path / "s.yaml"
    f.write_text("extends: xiamen\nid: x17\nshapes: [standard, seven_pairs]\n", encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(f))
    assert "seven_pairs is a 14-tile shape; this ruleset's hand_size is 17" in str(e.value)


def test_the_not_winning_message_uses_the_registry_words() -> None:
    # Hangzhou (docs/rulings.md#hangzhou): 4 sets + pair, or seven pairs; 123m456m789m123p + 2m 9p is neither
    with pytest.raises(NotAWin) as e:
        run_line("123m456m789m123p2m9p --self-draw", "hangzhou")
    assert e.value.message == "not a winning hand: not a pair and 4 sets or seven pairs"
    assert load_ruleset("xiamen").shapes == ("standard", "as_held")
