"""Every built-in ruleset, mutated at random: loading it gives a ruleset or RulesetError.

A value anywhere in the file is replaced by a value of another type (a number, a text,
an expression, a list, a mapping, none), or a key is added where it does not belong.
Loading must then either succeed or raise RulesetError whose every problem names the
file, a line and (except for whole-file problems) a key -- never another exception.
This found the unhashable ids and replaces entries, option bounds that were not numbers,
and problems without a line (see test_regressions.py).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import RulesetError
from scorer.rules.load import compile_ruleset
from tests.helpers.handgen import ROOT, ruleset_ids

VALUES: list[Any] = [
    None, True, False, 0, -1, 7, 10**20, "", "x", "1 // 0", "cap", "tiles", "[1, 2]",
    "2 ** 2 ** 64", [], [1], ["x"], [[1]], [None], {}, {"a": 1}, {"id": [1]},
    [{"id": "x"}], [{"a": 1}], {"values": [1]}, {"default": 1, "min": "x"},
    {"values": [[1]], "default": [1]}, {"zh": [1]}, "standard", ["standard", {"x": 1}],
]
KEYS = ["id", "when", "value", "count", "each", "replaces", "also", "tally", "min", "max",
        "values", "default", "remove", "extends", "combine", "on", "reason", "let",
        "stand_in", "stand_in_scope", "stand_in_self_shapes", "in_melds", "in_play", "face",
        "label", "zh", "en", "fallback", "notes", "bogus"]


def _paths(x: Any, p: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [p]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*p, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, (*p, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, rid: str) -> str:
    data = copy.deepcopy(BASE[rid])
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        p = draw(st.sampled_from(paths[1:]))
        parent = data
        for k in p[:-1]:
            parent = parent[k]
        target = parent[p[-1]]
        if isinstance(target, dict) and draw(st.booleans()):
            target[draw(st.sampled_from(KEYS))] = draw(st.sampled_from(VALUES))
        else:
            parent[p[-1]] = copy.deepcopy(draw(st.sampled_from(VALUES)))
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


BASE = {rid: yaml.safe_load((ROOT / "rulesets" / f"{rid}.yaml").read_text(encoding="utf-8"))
        for rid in ruleset_ids()}


@pytest.mark.parametrize("rid", ruleset_ids())
def test_mutated_ruleset_loads_or_names_every_problem(rid: str, tmp_path) -> None:
    f = str(tmp_path / f"{rid}-mutated.yaml")
    outcomes = {"ok": 0, "refused": 0}

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutated(rid))
    def check(text: str) -> None:
        try:
            compile_ruleset(text, f)
            outcomes["ok"] += 1
        except RulesetError as e:
            outcomes["refused"] += 1
            assert e.problems
            for p in e.problems:
                whole_file = "extends" in p.key or p.message.startswith(("a ruleset file",
                                                                        "more than"))
                assert p.file and (p.line is not None or whole_file), str(p)
                assert "\n" not in str(p)

    check()
    assert outcomes["refused"] >= 20, outcomes
