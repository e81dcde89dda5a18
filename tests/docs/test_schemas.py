"""Every command's JSON, validated against the JSON Schemas published in docs/schemas/.

Each schema is a JSON Schema (draft 2020-12) with an ``urn:mjscore:NAME`` id; they refer to
one another by it. The commands are run as a user runs them, on every example file (each
line of each, for ``score``), and the page's API is asked through the object the server
runs (scorer.serve.api.Api); every answer must validate against its schema.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import jsonschema
import referencing
from referencing.jsonschema import DRAFT202012
from typer.testing import CliRunner

from scorer.cli.app import app
from scorer.rules.load import list_builtin

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
EXAMPLES = {"mcr.txt": "mcr", "hangzhou.txt": "hangzhou", "jinhua.txt": "jinhua",
            "xiamen.txt": "xiamen", "sichuan.txt": "sichuan"}


def _schemas() -> dict[str, Any]:
    return {p.name[:-len(".schema.json")]: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(SCHEMAS.glob("*.schema.json"))}


def _validator(name: str) -> Any:
    registry = referencing.Registry().with_resources(
        (s["$id"], DRAFT202012.create_resource(s)) for s in _schemas().values())
    return jsonschema.Draft202012Validator(_schemas()[name], registry=registry)


def _valid(name: str, obj: Any) -> None:
    errors = sorted(_validator(name).iter_errors(obj), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"


def _json(*args: str, lines: bool = False) -> list[Any]:
    r = runner.invoke(app, [*args, "--lang", "en"])
    assert r.stdout.strip(), (args, r.output)
    if lines:
        return [json.loads(x) for x in r.stdout.splitlines()]
    return [json.loads(r.stdout)]


def test_every_schema_is_a_valid_draft_2020_12_schema_with_its_id() -> None:
    schemas = _schemas()
    assert {"score", "hand", "dispute", "error", "waits", "batch-record", "totals", "round",
            "standings", "rules-list", "ruleset", "flags", "config"} <= set(schemas)
    for name, s in schemas.items():
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["$id"] == f"urn:mjscore:{name}" and s["title"]


def _hand_lines(path: Path) -> list[list[str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] not in ("penalty", "adjust"):
            out.append(words)
    return out


def test_score_json_of_every_example_line_validates() -> None:
    seen = set()
    for name, rid in EXAMPLES.items():
        for words in _hand_lines(ROOT / "examples" / name):
            rules = [] if "--rules" in words else ["--rules", rid]
            for extra in ([], ["--explain"]):
                (out,) = _json("score", *words, *rules, "--json", *extra)
                _valid("score", out)
                kind = "error" if "error" in out else ("dispute" if "a" in out else "hand")
                _valid(kind, out)
                seen.add(kind)
    for vs in (["--vs", "jinhua"], ["--vs-option", "cap=64"]):
        (out,) = _json("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                       *vs, "--json")
        _valid("score", out)
        _valid("dispute", out)
        seen.add("dispute")
    assert seen == {"hand", "error", "dispute"}


def test_batch_records_of_every_example_validate_each_against_its_kind() -> None:
    runs = [["batch", str(ROOT / "examples" / n), "--rules", r, "--totals"]
            for n, r in EXAMPLES.items()]
    runs.append(["batch", str(ROOT / "examples" / "evening.txt"), "--totals"])
    runs.append(["batch", str(ROOT / "examples" / "sichuan-evening.txt"), "--totals"])
    runs.append(["batch", *sorted(str(p) for p in (ROOT / "examples" / "season").glob("*.txt")),
                 "--rules", "mcr", "--subtotals"])
    kinds = set()
    for args in runs:
        records = _json(*args, lines=True)
        assert records[-1]["kind"] == "totals"
        for rec in records:
            _valid("batch-record", rec)
            kind = "error" if "error" in rec else rec["kind"]
            kinds.add(kind)
            _valid({"hand": "hand", "totals": "totals"}.get(kind, f"batch-{kind}"), rec)
    assert kinds == {"hand", "dispute", "penalty", "adjust", "error", "file", "subtotals",
                     "round", "totals"}


def test_waits_round_standings_rules_and_config_validate() -> None:
    for hand, rid in [("123m456p789s23s55m", "mcr"), ("1112345678999m", "mcr"),
                      ("123m456p789s23sP5m", "hangzhou"), ("123m456p789s234s5m", "sichuan"),
                      ("11m", "mcr")]:
        _valid("waits", *_json("waits", hand, "--rules", rid, "--json"))
    rnd = str(ROOT / "examples" / "sichuan-round.txt")
    _valid("round", *_json("round", rnd, "--json"))
    _valid("round", *_json("round", rnd, "--json", "--totals"))
    _valid("standings", *_json("standings", str(ROOT / "examples" / "standings" / "club.txt"),
                               "--json"))
    _valid("rules-list", *_json("rules", "--json"))
    for rid in [*list_builtin(), str(ROOT / "examples" / "house" / "jinhua-renhu4.yaml")]:
        _valid("ruleset", *_json("rules", "show", rid, "--json"))
    _valid("config", *_json("config", "--json"))


def test_an_error_of_any_command_validates() -> None:
    for args in (["score", "1x", "--rules", "mcr", "--json"],
                 ["score", "123m456p789s234s55m", "--rules", "nope", "--json"],
                 ["waits", "123m", "--rules", "mcr", "--json"],
                 ["rules", "show", "nope", "--json"]):
        _valid("error", *_json(*args))


def test_the_pages_api_answers_validate() -> None:
    from scorer.serve.api import Api

    api = Api()
    checks = [(api.get("/api/rules", "en"), "rules-list"), (api.get("/api/flags", "en"), "flags"),
              (api.get("/api/rules/nope", "en"), "error")]
    checks += [(api.get(f"/api/rules/{rid}", "en"), "ruleset") for rid in list_builtin()]
    hand = {"hand": "123m456p789s234sP9m", "flags": ["--rules", "hangzhou", "--self-draw"]}
    checks += [(api.post("/api/score", hand, "en"), "score"),
               (api.post("/api/score", {**hand, "hand": "1x"}, "en"), "error"),
               (api.post("/api/waits", {"hand": "123m456p789s23s55m", "flags": ["--rules", "mcr"]},
                         "en"), "waits"),
               (api.post("/api/dispute", {**hand, "flags": [*hand["flags"], "--vs", "jinhua"]},
                         "en"), "dispute")]
    for (status, body), name in checks:
        assert (status == 200) == (name != "error"), (name, status)
        _valid(name, body)
    # the API answers what the command line prints
    assert api.get("/api/rules", "en")[1] == _json("rules", "--json")[0]
    assert api.post("/api/score", hand, "en")[1] == _json(
        "score", hand["hand"], *hand["flags"], "--json")[0]


def test_a_record_that_breaks_its_schema_is_caught() -> None:
    # the schemas are not vacuous: a hand without payments, or a score that is text, fails
    (out,) = _json("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                   "--json")
    for broken in ({k: v for k, v in out.items() if k != "payments"},
                   {**out, "best": {**out["best"], "score": "2"}}, {**out, "kind": "totals"}):
        assert list(_validator("hand").iter_errors(broken))
