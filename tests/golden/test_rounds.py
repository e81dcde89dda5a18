"""Whole Sichuan rounds worked by hand (tests/golden/rounds/sichuan.yaml): 血战到底 and
血流成河, the shared winning tile of 一炮多响, 退税 after 呼叫转移, the end checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer.errors import MjscoreError
from scorer.table.round import settle_round

CASES = yaml.safe_load((Path(__file__).parent / "rounds" / "sichuan.yaml").read_text(
    encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_round(case: dict[str, Any]) -> None:
    rules = case.get("rules", "sichuan")
    if "exit" in case:
        with pytest.raises(MjscoreError) as info:
            settle_round(case["text"], rules)
        assert info.value.exit_code == case["exit"]
        assert str(info.value).startswith(f"line {case['line']}:"), str(info.value)
        assert case["message"] in str(info.value), str(info.value)
        return
    r = settle_round(case["text"], rules)
    assert r.totals == case["totals"], case["why"]
    if "status" in case:
        assert r.status == case["status"]
    if "wins" in case:
        assert r.wins == case["wins"]
    assert sum(r.totals.values()) == 0


def test_every_case_shows_its_arithmetic() -> None:
    for c in CASES:
        assert "exit" in c or c.get("why", "").strip(), c["name"]
