"""Golden hands per ruleset: hand + flags -> expected score, patterns and payments.

The expected values in tests/golden/*.yaml are worked by hand from docs/rulings.md (each
case says how in its `why`). A mismatch prints the whole breakdown of what the
scorer found, so the failing rule is visible at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from scorer.errors import MjscoreError
from scorer.views.pieces import patterns_chain, payment_lines
from tests.conftest import run_line

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _cases() -> list[tuple[str, int, dict]]:
    out = []
    for f in sorted(GOLDEN.glob("*.yaml")):
        for i, case in enumerate(yaml.safe_load(f.read_text(encoding="utf-8"))):
            out.append(pytest.param(f.stem, i, case, id=f"{f.stem}:{i + 1}:{case['line'][:40]}"))
    return out


def _breakdown(result) -> str:
    s = result.best
    lines = [f"reading: {' '.join(s.reading.describe())} ({s.reading.shape})",
             f"patterns: {patterns_chain(result.ruleset, s)}",
             *[f"payment: {p}" for p in payment_lines(result, s)],
             f"payments: {s.payments}",
             "other readings:"]
    for c in result.candidates[1:6]:
        lines.append(f"  {' '.join(c.reading.describe())}: "
                     f"{[h.pattern.id for h in c.hits]} score {c.score} {c.payments}")
    return "\n".join(lines)


@pytest.mark.parametrize("ruleset,index,case", _cases())
def test_golden(ruleset: str, index: int, case: dict) -> None:
    line = case["line"]
    if "exit" in case:
        with pytest.raises(MjscoreError) as info:
            result = run_line(line, ruleset)
            pytest.fail(f"expected exit {case['exit']}, got a result:\n{_breakdown(result)}")
        assert info.value.exit_code == case["exit"], str(info.value)
        if "message" in case:
            assert case["message"] in str(info.value), str(info.value)
        return
    result = run_line(line, ruleset)
    got = {"score": result.best.score,
           "patterns": sorted(h.pattern.id for h in result.best.hits),
           "payments": {k: v for k, v in result.payments.items()}}
    want_pay = {k: case["payments"].get(k, 0) for k in "ESWN"}
    problems = []
    if "score" in case and got["score"] != case["score"]:
        problems.append(f"score {got['score']} != {case['score']}")
    if "patterns" in case and got["patterns"] != sorted(case["patterns"]):
        problems.append(f"patterns {got['patterns']} != {sorted(case['patterns'])}")
    if got["payments"] != want_pay:
        problems.append(f"payments {got['payments']} != {want_pay}")
    assert not problems, (f"{line}\n  " + "\n  ".join(problems) + f"\n  why: {case.get('why')}\n"
                          + _breakdown(result))
