"""scorer.text.near: the one did-you-mean; scorer.text.values: the one way a value is shown."""

from __future__ import annotations

import time

from scorer.text import Known, close_matches, closest, show, word


def test_closest_names_the_closest_known_word() -> None:
    assert closest("valeu", ["id", "value", "when"]) == "value"
    assert closest("zimoo", ["zimo", "baotou"]) == "zimo"
    assert closest("qqqq", ["zimo", "baotou"]) is None
    assert closest("capp", {"cap": 1, "players": 2}) == "cap"  # any iterable of names
    assert closest("anything", []) is None


def test_close_matches_keeps_several_best_first() -> None:
    # difflib's ratio 2M/T: valeu/value 8/10, valeu/values 8/11, valeu/when 2/9 (too far)
    assert close_matches("valeu", ["when", "values", "value"], n=3) == ["value", "values"]


def test_a_long_list_still_finds_typos_at_either_end() -> None:
    known = [f"pattern_{k:05d}" for k in range(6000)] + ["qingqidui", "baotou"]
    assert closest("pattern_01234x", known) == "pattern_01234"  # shares the beginning
    assert closest("xattern_01234", known) == "pattern_01234"   # shares the end
    assert closest("qingqiduí", known) == "qingqidui"
    assert closest("zzzzzz", known) is None


def test_six_thousand_unknown_among_six_thousand_known_in_under_a_second() -> None:
    # a hostile ruleset: 6,000 patterns each replacing an id that does not exist
    ids = [f"pattern_{k:04d}" for k in range(6000)]
    unknown = [f"pattern_{k:04d}x" for k in range(6000)]
    t = time.process_time()
    known = Known(ids)
    hints = [closest(w, known) for w in unknown]
    assert time.process_time() - t < 1.0
    assert hints[17] == "pattern_0017"
    # the hint is worded by the catalogue, in either language
    assert word("hint", "en", hint=hints[17]) == "; did you mean 'pattern_0017'?"
    assert word("hint", "zh", hint=hints[17]) == "；是不是 'pattern_0017'？"


def test_show_writes_values_as_a_ruleset_file_does() -> None:
    assert [show(v) for v in (None, True, False, 0, 128, "flip")] == [
        "none", "true", "false", "0", "128", "flip"]
