"""Every command's JSON, validated against the JSON Schemas published in docs/schemas/.

Each schema is a JSON Schema (draft 2020-12) with an ``urn:mjscore:NAME`` id; they refer to
one another by it. The commands are run as a user runs them, on every example file (each
line of each, for ``score``), the page's API is asked through the object the server
runs (scorer.serve.api.Api), and its tables API on a live server; every answer must
validate against its schema.
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
            "standings", "rules-list", "ruleset", "flags", "config", "table", "table-conflict",
            "table-export"} <= set(schemas)
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


def test_the_tables_api_answers_validate(tmp_path: Path) -> None:
    # every route of scorer/serve/tables.py on a live server (tests/helpers/serving.py), each
    # JSON answer validated: the sheet of every write, the conflict, the export, the errors
    from tests.helpers.serving import request, running

    seen: list[tuple[str, int, Any]] = []

    def ask(name: str, method: str, path: str, body: object = None) -> Any:
        status, got = request(srv, method, path, body)
        seen.append((name, status, got))
        return got

    with running(tmp_path / "t.sqlite3") as srv:
        tid = ask("table", "POST", "/api/tables", {"rules": "hangzhou", "seating": "Ann,Bo,Cy,Di",
                                                   "title": "周四"})["id"]
        base = f"/api/tables/{tid}"
        ask("table", "POST", base + "/hands", {"version": 1, "hand": "123m456p789s234sP9m",
                                               "flags": ["--self-draw"]})
        ask("table-conflict", "POST", base + "/hands", {"version": 1, "hand": "123m456m789p234s55s",
                                                        "flags": ["--self-draw"]})
        ask("table", "PUT", base + "/hands/1", {"version": 2, "hand": "123m456m789p234s55s",
                                                "flags": ["--self-draw"]})
        ask("table", "POST", base + "/penalties", {"version": 3, "seat": "S", "amount": 8})
        ask("table", "POST", base + "/adjustments", {"version": 4, "amounts": {"Ann": 5, "Bo": -5}})
        ask("table", "POST", base + "/undo/3", {"version": 5, "undone": True})
        ask("table", "POST", base + "/settings", {"version": 6, "stake": "2", "rotate": "dealer"})
        ask("table", "GET", base)
        ask("table-export", "GET", base + "/export.json")
        ask("error", "POST", base + "/hands", {"version": 7, "hand": "1x", "flags": []})
        ask("error", "POST", base + "/hands", {"version": 7, "hand": "123m456p789s234sP9m",
                                               "flags": ["--vs", "jinhua"]})
        ask("error", "POST", base + "/adjustments", {"version": 7, "amounts": {"Ann": 5}})
        ask("error", "GET", "/api/tables/zzzzzz")
        ask("error", "GET", "/api/tables/zzzzzz/events")
        ask("error", "GET", base + "/export.pdf")
        ask("error", "POST", "/api/tables", {"rules": "nope", "seating": "Ann,Bo"})
        sichuan = ask("table", "POST", "/api/tables", {"rules": "sichuan", "seating": "A,B,C,D"})
        text = (ROOT / "examples" / "sichuan-round.txt").read_text(encoding="utf-8")
        ask("table", "POST", f"/api/tables/{sichuan['id']}/rounds", {"version": 1, "text": text})
        # the routes that answer no JSON: the batch file, the CSV, the QR code
        for route in ("/export.txt", "/export.csv", "/qr.svg"):
            status, got = request(srv, "GET", base + route)
            assert status == 200 and isinstance(got, str) and got, route
    kinds = {e["kind"] for _, _, got in seen if isinstance(got, dict) and "entries" in got
             for e in got["entries"]}
    assert kinds == {"hand", "penalty", "adjust", "round"}
    want = {"table": (200, 201), "table-export": (200,), "table-conflict": (409,),
            "error": (400, 404)}
    for name, status, got in seen:
        assert status in want[name], (name, status, got)
        _valid(name, got)


def test_a_sheet_that_breaks_the_tables_schema_is_caught() -> None:
    sheet = json.loads((SCHEMAS / "table.schema.json").read_text(encoding="utf-8"))
    assert sheet["$id"] == "urn:mjscore:table"
    good = {"id": "ab12cd", "version": 2,
            "settings": {"rules": "mcr", "upload": None, "seating": {"E": "A", "S": "B"},
                         "stake": "1", "rotate": "dealer", "flags": [], "title": ""},
            "entries": [{"kind": "adjust", "n": 1, "line": "adjust E +5 S -5",
                         "seating": {"E": "A", "S": "B"}, "deleted": False,
                         "record": {"kind": "adjust", "payments": {"E": 5, "S": -5},
                                    "winner": []},
                         "summary": {"payments": {"E": 5, "S": -5}}}],
            "totals": _json("batch", str(ROOT / "examples" / "mcr.txt"), "--totals",
                            "--format", "jsonl", lines=True)[-1]}
    _valid("table", good)
    entry = good["entries"][0]
    for broken in ({k: v for k, v in good.items() if k != "totals"}, {**good, "version": "2"},
                   {**good, "entries": [{**entry, "kind": "dispute"}]},
                   {**good, "entries": [{**entry, "record": {**entry["record"],
                                                             "payments": {"X": 1}}}]}):
        assert list(_validator("table").iter_errors(broken)), broken
