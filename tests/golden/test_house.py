"""examples/house: real house-rule files, each with hands scored under the house file and
under the built-in it extends (tests/house/<file>.yaml, worked by hand in each `why`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer.errors import MjscoreError
from scorer.rules.load import list_builtin, load_ruleset
from tests.conftest import ROOT, run_line

EXAMPLES = ROOT / "examples" / "house"
CASES = Path(__file__).resolve().parents[1] / "house"


def _suites() -> list[dict[str, Any]]:
    return [yaml.safe_load(f.read_text(encoding="utf-8")) for f in sorted(CASES.glob("*.yaml"))]


def _params() -> list[Any]:
    out = []
    for suite in _suites():
        for i, case in enumerate(suite["cases"]):
            for side in ("base", "house"):
                rules = suite["base"] if side == "base" else str(ROOT / suite["file"])
                out.append(pytest.param(rules, case["line"], case[side], case.get("why"),
                                        id=f"{Path(suite['file']).stem}:{i + 1}:{side}"))
    return out


@pytest.mark.parametrize("rules,line,want,why", _params())
def test_house_hand(rules: str, line: str, want: dict[str, Any], why: str) -> None:
    if "exit" in want:
        with pytest.raises(MjscoreError) as info:
            run_line(line, rules)
        assert info.value.exit_code == want["exit"], str(info.value)
        assert want["message"] in str(info.value)
        return
    r = run_line(line, rules)
    got = {"score": r.best.score, "patterns": [h.pattern.id for h in r.best.hits],
           "payments": {k: v for k, v in r.payments.items() if v}}
    assert got == {**want, "payments": {k: v for k, v in want["payments"].items() if v}}, why


def test_every_house_file_loads_extends_a_builtin_and_has_a_differing_hand() -> None:
    files = sorted(p.name for p in EXAMPLES.glob("*.yaml"))
    suites = {Path(s["file"]).name: s for s in _suites()}
    assert len(files) >= 3, files
    for name in files:
        assert name in suites, f"examples/house/{name} has no hands in tests/house/"
        suite = suites[name]
        rs = load_ruleset(str(EXAMPLES / name))
        assert rs.chain[-1] == f"{suite['base']}.yaml" and suite["base"] in list_builtin()
        assert any(c["base"] != c["house"] for c in suite["cases"]), name


def test_platform_file_is_data_only() -> None:
    """The platform variant is expressed with the rule language, no engine special case."""
    rs = load_ruleset(str(EXAMPLES / "hangzhou-platform.yaml"))
    assert [t.combine for t in rs.tallies] == ["product"]
    assert rs.pattern("qidui").value.src == "2 ** (1 + physical_quads)"
    assert rs.flags["dealer_streak"].minimum == rs.flags["dealer_streak"].maximum == 3


def test_batch_takes_a_house_file_and_options(tmp_path: Path) -> None:
    import json

    from tests.cli.test_app import run

    f = tmp_path / "hands.txt"
    f.write_text("1111m2222m3333p55s\n1111m2222m3333p55s --option cap=64\n"
                 "1111m2222m3333p55s --option cap=65\n", encoding="utf-8")
    code, out, _ = run("batch", str(f), "--rules", str(EXAMPLES / "hangzhou-platform.yaml"),
                       "--lang", "en")
    assert code == 1  # the third line fails
    recs = [json.loads(line) for line in out.splitlines()]
    # why: platform 七对 2^(1+3) = 16 (three physical quads); dealer at 3 老庄: each idle
    # pays 8 × 16 = 128 (E +384); with 封顶 64 each pays 64 (E +192)
    assert [r.get("payments", {}).get("E") for r in recs[:2]] == [384, 192]
    assert recs[2]["error"]["message"] == "--option cap=65: valid values are none, 64, 128, 256"
