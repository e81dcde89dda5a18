"""One hand, one shape: ``score --json`` is a batch record of the same line without ``line``.

The batch record (scorer.lines.records.score_record) carried ``kind`` and ``unit`` before
``score --json`` did; the two are compared through the command line, key for key.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from scorer.cli.app import app

runner = CliRunner()

LINES = [
    ("123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw"),
    ("234567s234567p55m", "--rules", "mcr", "--from", "N", "--seat", "S", "--flowers", "2"),
    ("123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw", "--vs", "jinhua"),
]


def test_score_json_is_the_batch_record_of_the_line() -> None:
    for line in LINES:
        for lang in ("zh", "en"):
            one = runner.invoke(app, ["score", *line, "--json", "--lang", lang])
            assert one.exit_code == 0, one.output
            rec = runner.invoke(app, ["batch", "-", "-q", "--lang", lang],
                                input=" ".join(line) + "\n")
            assert rec.exit_code == 0, rec.output
            got, want = json.loads(one.stdout), json.loads(rec.stdout)
            assert want.pop("line") == 1
            if "--vs" not in line:
                assert got == want
                assert next(iter(got)) == "kind" and got["kind"] == "hand"
            else:  # a dispute: what score prints is the record's, which adds kind and units
                assert want["kind"] == "dispute" and {k: want[k] for k in got} == got


def test_the_unit_is_the_rulesets_word_for_its_score() -> None:
    # labels: score: of each built-in ruleset (rulesets/*.yaml), in each language
    want = {("hangzhou", "zh"): "番", ("hangzhou", "en"): "fan", ("mcr", "en"): "fan",
            ("jinhua", "zh"): "倍", ("jinhua", "en"): "multiplier", ("xiamen", "en"): "k"}
    hands = {"hangzhou": ["123m456p789s234sP9m", "--self-draw"],
             "mcr": ["234567s234567p55m", "--from", "N", "--seat", "S"],
             "jinhua": ["123m456p789s234s55m", "--wild", "9m", "--self-draw"],
             "xiamen": ["123m456m789p234s567s55p", "--wild", "9m", "--from", "S"]}
    for (rid, lang), unit in want.items():
        r = runner.invoke(app, ["score", *hands[rid], "--rules", rid, "--json", "--lang", lang])
        assert r.exit_code == 0, (rid, r.output)
        assert json.loads(r.stdout)["unit"] == unit, rid
