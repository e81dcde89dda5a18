"""The table's evening against a live server: book, rotate, undo, a false win, conflicts
between two phones, a restart, and the exported file totalled by ``mjscore batch --totals``.

The expected points are worked by hand from the README and examples/evening.txt (each
hand's per-seat payments there), placed on the players by the seating of each hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scorer.cli.app import app
from tests.helpers.serving import request, running

runner = CliRunner()
SEATING = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}


def nets(sheet: Any) -> dict[str, int]:
    return {p["name"]: p["net"] for p in sheet["totals"]["players"]}


def batch_totals(text: str, tmp_path: Path) -> dict[str, Any]:
    """``mjscore batch FILE --totals --format jsonl`` on an exported file: its totals record."""
    path = tmp_path / "evening.txt"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["batch", str(path), "--totals", "--format", "jsonl"])
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.stdout.splitlines()[-1])
    assert out["kind"] == "totals"
    return out


def book(srv: Any, tid: str, version: int, hand: str, *flags: str, source: str | None = None
         ) -> tuple[int, Any]:
    return request(srv, "POST", f"/api/tables/{tid}/hands",
                   {"version": version, "hand": hand, "flags": list(flags)}, source)


def test_an_evening_booked_rotated_undone_and_exported(tmp_path: Path) -> None:
    with running(tmp_path / "t.sqlite3") as srv:
        status, sheet = request(srv, "POST", "/api/tables",
                                {"rules": "hangzhou", "seating": "Ann,Bo,Cy,Di"})
        assert status == 201 and sheet["version"] == 1
        tid = sheet["id"]
        # 1: the dealer's 暴头, self-drawn: E +12, each other −4 (examples/hangzhou.txt)
        status, sheet = book(srv, tid, 1, "123m456p789s234sP9m", "--self-draw")
        assert status == 200 and nets(sheet) == {"Ann": 12, "Bo": -4, "Cy": -4, "Di": -4}
        assert sheet["settings"]["seating"] == SEATING  # the dealer won: 连庄
        # 2: 自摸 1 番: E +6, each other −2
        status, sheet = book(srv, tid, 2, "123m456m789p234s55s", "--self-draw")
        # 3: S (Bo) 暴头 self-drawn: E −4, S +8, W −2, N −2; an idle player won: the deal passes
        status, sheet = book(srv, tid, 3, "123m456p789s234sP9m", "--self-draw", "--seat", "S")
        assert sheet["settings"]["seating"] == {"E": "Bo", "S": "Cy", "W": "Di", "N": "Ann"}
        # 4: W (Di) 双财飘: E −16, S −8, W +32, N −8 (README)
        status, sheet = book(srv, tid, 4, "123m456p789s234sP9m", "--self-draw", "--piao", "2",
                             "--seat", "W")
        assert nets(sheet) == {"Ann": 12 + 6 - 4 - 8, "Bo": -4 - 2 + 8 - 16,
                               "Cy": -4 - 2 - 2 - 8, "Di": -4 - 2 - 2 + 32}
        assert sheet["entries"][3]["summary"]["winner"] == "W"
        # a second phone still on version 4 books too: refused, shown the new sheet and its edit
        status, got = book(srv, tid, 4, "123m456m789p234s55s", "--self-draw", source="127.0.0.2")
        assert status == 409 and got["sheet"]["version"] == 5
        assert got["yours"]["hand"] == "123m456m789p234s55s" and len(got["sheet"]["entries"]) == 4
        # undo line 4: not counted, and the players sit again as they sat for it
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/undo/4",
                                {"version": 5, "undone": True})
        assert status == 200 and sheet["entries"][3]["deleted"]
        assert sheet["settings"]["seating"] == {"E": "Bo", "S": "Cy", "W": "Di", "N": "Ann"}
        # a false win by S (Cy) at 8 a player: Cy −24, each other +8
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/penalties",
                                {"version": 6, "seat": "S", "amount": 8})
        assert status == 200 and sheet["entries"][4]["kind"] == "penalty"
    # a restart: the same database, a new server; nothing is lost
    with running(tmp_path / "t.sqlite3") as srv:
        status, sheet = request(srv, "GET", f"/api/tables/{tid}")
        assert status == 200 and sheet["version"] == 7 and len(sheet["entries"]) == 5
        # 6: the dealer (Bo) 三豪华清七对 at 3 老庄: each idle pays 256 (scorer/table/dispute.py)
        status, sheet = book(srv, tid, 7, "1111m2222m3333p55s", "--self-draw",
                             "--dealer-streak", "3")
        assert status == 200
        want = {"Ann": 12 + 6 - 4 + 8 - 256, "Bo": -4 - 2 + 8 + 8 + 768,
                "Cy": -4 - 2 - 2 - 24 - 256, "Di": -4 - 2 - 2 + 8 - 256}
        assert nets(sheet) == want and sum(want.values()) == 0
        transfers = sheet["totals"]["transfers"]
        assert len(transfers) == 3 and {t["to"] for t in transfers} == {"Bo"}
        status, text = request(srv, "GET", f"/api/tables/{tid}/export.txt")
        assert status == 200 and isinstance(text, str)
        # the exported file, totalled by batch: the sheet, its false win a penalty line
        got = batch_totals(text, tmp_path)
        assert {p["name"]: p["net"] for p in got["players"]} == want
        assert "# undone: " in text and "\npenalty S 8\n" in text
        assert len(got["penalties"]) == 1 and sheet["totals"]["penalties"] == [5]
        assert {p["name"]: p["penalties"] for p in got["players"]}["Cy"] == 1
        status, csv_text = request(srv, "GET", f"/api/tables/{tid}/export.csv")
        assert status == 200 and "transfer,Cy,Bo," in str(csv_text)


def test_mistakes_are_answered_not_booked(tmp_path: Path) -> None:
    with running(tmp_path / "t.sqlite3") as srv:
        status, sheet = request(srv, "POST", "/api/tables",
                                {"rules": "mcr", "seating": {"E": "A", "S": "B", "W": "C", "N": "D"}})
        tid = sheet["id"]
        for body, want in [(None, 415), ([], 400), ({"version": 1}, 400),
                           ({"version": 1, "hand": "123m5p8", "flags": []}, 400),
                           ({"version": 1, "hand": "11m", "flags": ["--rules", "mcr"]}, 400),
                           ({"version": "1", "hand": "11m"}, 400)]:
            status, got = request(srv, "POST", f"/api/tables/{tid}/hands", body)
            assert status == want and "message" in got["error"], (body, got)
        # 123m456m789p234s55s on a discard is 5 fan in MCR: below 8 fan
        status, got = book(srv, tid, 1, "123m456m789p234s55s", "--from", "S")
        assert status == 422 and "8" in got["error"]["message"]
        status, got = request(srv, "GET", f"/api/tables/{tid}")
        assert got["version"] == 1 and got["entries"] == []
        # MCR's false win: 10 to each other player
        status, got = request(srv, "POST", f"/api/tables/{tid}/penalties", {"version": 1, "seat": "N"})
        assert nets(got) == {"A": 10, "B": 10, "C": 10, "D": -30}
        for path in ("/api/tables/zzzzzz", "/api/tables/../x", "/api/tables/abc/export.exe"):
            assert request(srv, "GET", path)[0] == 404
        for bad in ({"rules": "nope", "seating": "A,B"}, {"rules": "mcr", "seating": "A"},
                    {"rules": "mcr", "seating": "A,B", "stake": "1/3"}, {"rules": "mcr"}, []):
            status, got = request(srv, "POST", "/api/tables", bad)
            assert status == 400 and "\n" not in got["error"]["message"], (bad, got)


def test_a_sichuan_round_is_booked_with_the_settlement_of_round(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "examples" / "sichuan-round.txt").read_text()
    with running(tmp_path / "t.sqlite3") as srv:
        _, sheet = request(srv, "POST", "/api/tables", {"rules": "sichuan", "seating": "A,B,C,D"})
        status, sheet = request(srv, "POST", f"/api/tables/{sheet['id']}/rounds",
                                {"version": 1, "text": text})
        # examples/sichuan-round.txt, worked there: E +4, S +4, W +8, N −16
        assert status == 200 and nets(sheet) == {"A": 4, "B": 4, "C": 8, "D": -16}
        assert sheet["entries"][0]["summary"]["winners"] == ["S", "W"]
        # E (A) did not win: the deal passes; then N (A) makes a false win at 3 a player
        assert sheet["settings"]["seating"] == {"E": "B", "S": "C", "W": "D", "N": "A"}
        status, sheet = request(srv, "POST", f"/api/tables/{sheet['id']}/penalties",
                                {"version": 2, "seat": "N", "amount": 3})
        want = {"A": 4 - 9, "B": 4 + 3, "C": 8 + 3, "D": -16 + 3}
        assert status == 200 and nets(sheet) == want
        # the export writes the round as a batch line, its ruleset first, so batch --totals
        # of the file is the sheet
        status, exported = request(srv, "GET", f"/api/tables/{sheet['id']}/export.txt")
        rounds = [x for x in str(exported).splitlines() if x.startswith("round ")]
        assert rounds == ["round rules sichuan --option cap=16 / N kong 5s concealed / E kong 9s "
                          "from W / S win 123m456m789m11p45p6p --from E --after-kong / W win "
                          "222p333p789p66p45p6p --from E --after-kong / E hand "
                          "[9999s,3]111s222s77s88s / N hand [5555s]13579m24688s"]
        got = batch_totals(str(exported), tmp_path)
        assert {p["name"]: p["net"] for p in got["players"]} == want
        assert got["transfers"] == sheet["totals"]["transfers"]
        assert {p["name"]: p["hands_won"] for p in got["players"]} == {
            "A": 0, "B": 1, "C": 1, "D": 0}


def test_penalties_and_adjustments_on_the_sheet_as_in_a_batch_file(tmp_path: Path) -> None:
    with running(tmp_path / "t.sqlite3") as srv:
        _, sheet = request(srv, "POST", "/api/tables", {"rules": "mcr", "seating": "A,B,C,D"})
        tid = sheet["id"]
        # 1: D (N) makes a false win, MCR: D -30, each other +10
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/penalties",
                                {"version": 1, "seat": "N"})
        assert status == 200
        # 2: B +15, C -5, D -10 (players by name or seat); the seats do not move for either
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/adjustments",
                                {"version": 2, "amounts": {"B": 15, "W": -5, "D": -10}})
        assert status == 200, sheet
        # A 10; B 10 + 15 = 25; C 10 - 5 = 5; D -30 - 10 = -40 (sum 0)
        want = {"A": 10, "B": 25, "C": 5, "D": -40}
        assert nets(sheet) == want
        assert sheet["settings"]["seating"] == {"E": "A", "S": "B", "W": "C", "N": "D"}
        entry = sheet["entries"][1]
        assert entry["kind"] == "adjust" and entry["line"] == "adjust S +15 W -5 N -10"
        assert entry["record"]["payments"] == {"S": 15, "W": -5, "N": -10}
        assert sheet["totals"]["penalties"] == [1] and sheet["totals"]["adjustments"] == [2]
        assert sheet["totals"]["hands"] == 0
        # a line that does not sum to zero, or names nobody at the table: refused, not booked
        for amounts, code in [({"B": 5, "C": -4}, "adjust.not_zero"),
                              ({"A": 0, "B": 0}, "adjust.nothing"),
                              ({"Zed": 5, "A": -5}, "ledger_line.not_seated"),
                              ({"A": 5, "A ": -5}, "ledger_line.not_seated"),
                              ({"A": True, "B": -1}, "serve.adjust_amounts"),
                              ({"A": 1.5, "B": -1.5}, "serve.adjust_amounts"),
                              ([["A", 5], ["B", -5]], "serve.adjust_amounts"),
                              (None, "serve.adjust_amounts")]:
            status, got = request(srv, "POST", f"/api/tables/{tid}/adjustments",
                                  {"version": 3, "amounts": amounts})
            assert status == 400 and got["error"]["code"] == code, (amounts, got)
        status, got = request(srv, "GET", f"/api/tables/{tid}")
        assert got["version"] == 3 and len(got["entries"]) == 2
        # undone, the adjustment no longer counts
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/undo/2",
                                {"version": 3, "undone": True})
        assert nets(sheet) == {"A": 10, "B": 10, "C": 10, "D": -30}
        status, sheet = request(srv, "POST", f"/api/tables/{tid}/undo/2",
                                {"version": 4, "undone": False})
        assert nets(sheet) == want
        # the exported batch file books the same lines: its totals are the sheet's
        status, text = request(srv, "GET", f"/api/tables/{tid}/export.txt")
        assert "\npenalty N 10\n" in text and "\nadjust S +15 W -5 N -10\n" in text
        got = batch_totals(str(text), tmp_path)
        assert {p["name"]: p["net"] for p in got["players"]} == want
        assert len(got["penalties"]) == 1 and len(got["adjustments"]) == 1
        status, csv_text = request(srv, "GET", f"/api/tables/{tid}/export.csv")
        rows = str(csv_text).splitlines()
        assert rows[0] == "n,kind,undone,seating,line,A,B,C,D"
        assert rows[2] == '2,adjust,0,"E=A,S=B,W=C,N=D",adjust S +15 W -5 N -10,0,15,-5,-10'
        assert "transfer,D,B,25" in rows


def test_a_xueliu_round_on_the_sheet(tmp_path: Path) -> None:
    # tests/golden/rounds/sichuan.yaml "血流成河, S wins twice": E -22, S +5, W +20, N -3
    text = ("S win 123m456m789m11p45p6p --from E\nW kong 9s concealed\n"
            "S win 123m456m789m11p45p3p --self-draw\nE hand 13579m2468p2468p\n"
            "W hand [9999s]111s222s333s5s\nN hand 123p456p789p22m34m\n")
    with running(tmp_path / "t.sqlite3") as srv:
        _, sheet = request(srv, "POST", "/api/tables",
                           {"rules": "sichuan-xueliu", "seating": "A,B,C,D"})
        status, sheet = request(srv, "POST", f"/api/tables/{sheet['id']}/rounds",
                                {"version": 1, "text": text})
        assert status == 200 and nets(sheet) == {"A": -22, "B": 5, "C": 20, "D": -3}
        assert sheet["entries"][0]["summary"]["winners"] == ["S"]
        status, exported = request(srv, "GET", f"/api/tables/{sheet['id']}/export.txt")
        assert "\nround rules sichuan-xueliu / S win 123m456m789m11p45p6p --from E / " in exported
        got = batch_totals(str(exported), tmp_path)
        assert {p["name"]: p["net"] for p in got["players"]} == {
            "A": -22, "B": 5, "C": 20, "D": -3}


def test_an_uploaded_ruleset_is_kept_for_the_table(tmp_path: Path) -> None:
    house = Path(__file__).resolve().parents[2] / "examples" / "house" / "jinhua-renhu4.yaml"
    with running(tmp_path / "t.sqlite3") as srv:
        status, info = request(srv, "POST", "/api/rules",
                               {"name": "renhu4.yaml", "text": house.read_text()})
        assert status == 200 and len(info["upload"]) == 24
        _, sheet = request(srv, "POST", "/api/tables", {"upload": info["upload"],
                                                        "seating": "A,B,C,D"})
        tid = sheet["id"]
        # examples/house/README.md: S self-draws a full flush in the first go-round: ×16,
        # each of the three pays 32
        status, sheet = book(srv, tid, 1, "123m456m789m55m23m4m", "--wild", "9p", "--human",
                             "--seat", "S")
        assert status == 200 and nets(sheet) == {"A": -32, "B": 96, "C": -32, "D": -32}
        # the page scores with the table's file without sending it again
        status, got = request(srv, "POST", "/api/score", {"table": tid, "hand": "123m456m789m55m23m4m",
                              "flags": ["--rules", "renhu4.yaml", "--wild", "9p", "--human", "--seat", "S"]})
        assert status == 200 and got["payments"]["S"] == 96


@pytest.mark.parametrize("body", [b"null", b"[]", b"1", b'"x"', b"{}", b'{"version": null}',
                                  b'{"version": 1, "seating": 5}', b"\xff", b"{" * 9 + b"}" * 9])
def test_no_malformed_body_gets_a_500(tmp_path_factory: pytest.TempPathFactory, body: bytes) -> None:
    import http.client

    with running(tmp_path_factory.mktemp("db") / "t.sqlite3") as srv:
        _, sheet = request(srv, "POST", "/api/tables", {"rules": "mcr", "seating": "A,B,C,D"})
        tid = sheet["id"]
        for method, path in [("POST", "/api/score"), ("POST", "/api/waits"), ("POST", "/api/dispute"),
                             ("POST", "/api/rules"), ("POST", "/api/tables"),
                             ("POST", f"/api/tables/{tid}/hands"), ("PUT", f"/api/tables/{tid}/hands/1"),
                             ("POST", f"/api/tables/{tid}/undo/1"), ("POST", f"/api/tables/{tid}/penalties"),
                             ("POST", f"/api/tables/{tid}/adjustments"),
                             ("POST", f"/api/tables/{tid}/rounds"), ("POST", f"/api/tables/{tid}/settings")]:
            conn = http.client.HTTPConnection(*srv.server_address, timeout=30)
            conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
            res = conn.getresponse()
            got = json.loads(res.read())
            conn.close()
            assert 400 <= res.status < 500 and "message" in got["error"], (method, path, res.status)


# Words a Chinese message may hold: the protocol's own names and JSON's literals (tile
# notation, flags, ids and numbers are taken out before the check, as quoted text is)
TECHNICAL = {"JSON", "POST", "GET", "api", "rules", "tables", "id", "ID", "KiB", "UTF", "Content",
             "Type", "application", "json", "Length", "Host", "true", "false", "txt", "csv"}


def english_words(text: str) -> list[str]:
    """The English words left in a message once quoted text, flags, paths and file names
    are taken out (a Chinese message should have none)."""
    import re

    text = re.sub(r"'[^']*'|\"[^\"]*\"|--[\w-]+|/[\w/.-]*|\S+\.\w+|\{[^}]*\}", " ", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in TECHNICAL]


def test_errors_are_in_the_pages_language(tmp_path: Path) -> None:
    """Each error of the sheet's endpoints has a code, and its words in the language the
    page asks for (Accept-Language, or the body's "lang"): no English under zh."""
    import http.client

    from scorer.text.render import render

    with running(tmp_path / "t.sqlite3") as srv:
        _, sheet = request(srv, "POST", "/api/tables", {"rules": "mcr", "seating": "A,B,C,D"})
        tid = sheet["id"]
        bad: list[tuple[str, str, Any, str]] = [
            ("POST", "/api/tables", {"rules": "mcr", "seating": 5}, "serve.seating_shape"),
            ("POST", "/api/tables", {"rules": "mcr", "seating": "A"}, "serve.seating_two"),
            ("POST", "/api/tables", {"rules": "mcr", "seating": "A,B", "rotate": "x"},
             "serve.rotate"),
            ("POST", "/api/tables", {"rules": "mcr", "seating": "A,B", "stake": True},
             "serve.stake_shape"),
            ("POST", "/api/tables", {"seating": "A,B"}, "serve.rules_id"),
            ("POST", "/api/tables", {"upload": "nope", "seating": "A,B"}, "serve.no_upload"),
            ("POST", "/api/tables", [], "serve.body_object"),
            ("GET", "/api/tables/zzzzzz", None, "serve.no_table"),
            ("POST", f"/api/tables/{tid}/hands", {"version": 1}, "serve.hand_string"),
            ("POST", f"/api/tables/{tid}/hands", {"hand": "11m"}, "serve.version"),
            ("POST", f"/api/tables/{tid}/hands", {"version": 1, "hand": "11m", "flags": ["--rules", "x"]},
             "serve.table_flag"),
            ("POST", f"/api/tables/{tid}/hands", {"version": 1, "hand": "11m", "flags": "x"},
             "serve.flags_list"),
            ("POST", f"/api/tables/{tid}/penalties", {"version": 1, "seat": "Q"}, "serve.seat"),
            ("POST", f"/api/tables/{tid}/undo/1", {"version": 1, "undone": "yes"}, "serve.undone"),
            ("POST", f"/api/tables/{tid}/undo/7", {"version": 1}, "serve.no_line"),
            ("PUT", f"/api/tables/{tid}/hands/3", {"version": 1, "hand": "11m"}, "serve.no_hand_line"),
            ("POST", f"/api/tables/{tid}/rounds", {"version": 1, "text": ""}, "serve.round_text"),
            ("POST", f"/api/tables/{tid}/hands", {"version": 9, "hand": "234567s234567p55m",
                                                  "flags": ["--from", "N", "--seat", "S"]},
             "serve.conflict"),
            ("GET", f"/api/tables/{tid}/export.exe", None, "serve.export_format"),
            ("GET", "/api/nothing", None, "serve.no_endpoint"),
            ("POST", "/api/score", {"hand": "11m", "flags": [], "x": 1}, "serve.unknown_key"),
            ("POST", "/api/score", {"hand": 5}, "serve.hand_string"),
        ]
        for method, path, body, code in bad:
            seen = {}
            for lang, how in (("zh", {}), ("en", {"Accept-Language": "en-US,en;q=0.9"}),
                              ("en", "body"), ("zh", {"Accept-Language": "zh-CN"})):
                headers = {"Content-Type": "application/json"}
                sent = body
                if how == "body":
                    if not isinstance(body, dict) or path.startswith("/api/score"):
                        continue
                    sent = {**body, "lang": "en"}
                else:
                    headers.update(how)
                conn = http.client.HTTPConnection(*srv.server_address, timeout=30)
                conn.request(method, path, body=None if sent is None else json.dumps(sent),
                             headers=headers)
                res = conn.getresponse()
                got = json.loads(res.read())
                conn.close()
                err = got["error"]
                assert (err["code"], 400 <= res.status < 500) == (code, True), (path, body, got)
                assert err["message"] == render(err["code"], err["params"], lang)
                if lang == "zh":
                    assert not english_words(err["message"]), err["message"]
                seen[lang] = err["message"]
            assert seen["zh"] != seen["en"]
