"""``mjscore serve``: the JSON API against a live server on 127.0.0.1 (an ephemeral port),
the app under uvicorn with its worker pool (tests/helpers/serving.py).

The API's records are compared with what the command line prints (``score --json``,
``waits --json``, ``--vs``), run through the CLI itself: the CLI is the oracle, the
server must not disagree with it on any example line. The limits (body size, JSON depth,
CPU budget, slow and many clients) are tested by what a hostile client would do; every
loop is bounded and the server is stopped at the end.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import selectors
import shlex
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scorer.cli.app import app
from scorer.rules.flags import FLAGS
from scorer.rules.load import list_builtin, load_ruleset
from scorer.serve import guard
from scorer.serve.labels import NAMES
from scorer.serve.server import STATIC, json_depth
from tests.helpers.serving import Live, running

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    house = ROOT / "examples" / "house" / "jinhua-renhu4.yaml"
    saved = dict(guard.LIMITS)
    guard.LIMITS.update(idle=1.0, deadline=2.0)  # short, so the slow-client tests are quick
    try:
        with running(tmp_path_factory.mktemp("db") / "t.sqlite3", extra=(str(house),)) as srv:
            yield srv
    finally:
        guard.LIMITS.update(saved)


def call(srv: Live, method: str, path: str, body: Any = None, raw: bytes | None = None,
         headers: dict[str, str] | None = None, source: str | None = None
         ) -> tuple[int, Any, Any]:
    """One request (from the loopback address ``source``, a device of its own); returns
    (status, decoded JSON or text, headers)."""
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(str(host), int(port), timeout=30,
                                      source_address=(source, 0) if source else None)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    conn.request(method, path, body=data, headers=hdrs)
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    ctype = res.getheader("Content-Type") or ""
    return res.status, json.loads(text) if "json" in ctype else text, res.msg  # any case


NORMAL = {"hand": "123m456m789p234s55s", "flags": ["--rules", "hangzhou", "--self-draw"]}


def answers_normally(srv: Live, within: float = 10.0) -> None:
    """After a hostile request: a plain hand is scored right, and soon (a loaded machine
    takes well under a second for it)."""
    t0 = time.monotonic()
    status, got, _ = call(srv, "POST", "/api/score", NORMAL)
    # examples/hangzhou.txt: 自摸 1 番, each idle player pays 1 × 2 × 1 = 2
    assert (status, got["payments"]) == (200, {"E": 6, "S": -2, "W": -2, "N": -2})
    assert time.monotonic() - t0 < within


def cli(*argv: str) -> tuple[int, Any]:
    """The command line's exit status and the JSON it printed on stdout."""
    res = runner.invoke(app, list(argv))
    assert "Traceback" not in res.stdout
    return res.exit_code, json.loads(res.stdout.splitlines()[0])


def example_lines() -> list[tuple[str | None, str]]:
    """(ruleset, line) for every hand line of examples/*.txt; the ruleset is None where the
    file's lines name their own (evening.txt: a batch's lines with --rules each)."""
    out: list[tuple[str | None, str]] = []
    for path in sorted((ROOT / "examples").glob("*.txt")):
        if path.stem.endswith("-round"):
            continue  # sichuan-round.txt is a round, not hands
        rules = path.stem if path.stem in list_builtin() else None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#") and line.split()[0] not in (
                    "penalty", "adjust", "round"):  # a ledger's own lines are not hands
                out.append((rules, line.split(" #")[0].strip()))
    return out


def score_argv(rules: str | None, line: str) -> tuple[str, list[str]]:
    """A batch line as ``mjscore score`` takes it: the hand and its flags, with the file's
    ruleset, without batch's own ``--players`` (a seating names people, not seats)."""
    hand, *words = shlex.split(line)
    flags: list[str] = []
    it = iter(words)
    for w in it:
        if w == "--players":
            next(it, None)
        elif not w.startswith("--players="):
            flags.append(w)
    return hand, flags + (["--rules", rules] if rules else [])


EXAMPLES = example_lines()


def test_the_examples_are_read() -> None:
    assert len(EXAMPLES) >= 60 and {r for r, _ in EXAMPLES} >= {"hangzhou", "jinhua", "mcr", None}
    lines = [line for _, line in EXAMPLES]
    assert any("--vs" in line for line in lines) and "123m5p8 --self-draw --rules hangzhou" in lines


@pytest.mark.parametrize(("rules", "line"), EXAMPLES, ids=[f"{r or 'evening'}:{i}" for i, (r, _)
                                                          in enumerate(EXAMPLES)])
def test_score_equals_the_cli(server: Live, rules: str | None, line: str) -> None:
    hand, flags = score_argv(rules, line)
    code, want = cli("score", hand, *flags, "--json")
    status, got, _ = call(server, "POST", "/api/score", {"hand": hand, "flags": flags})
    assert got == want
    assert status == {0: 200, 2: 400, 3: 422}[code]


@pytest.mark.parametrize(("hand", "flags", "message"), [
    # docs/rulings.md#mcr-minimum: a win needs 8 fan; 123m 456m 789p 234s 55s on a discard is 门前清 2 +
    # 平和 2 + 连六 1 = 5 (平和 replaces 无字)
    ("123m456m789p234s55s", ["--rules", "mcr", "--from", "S"],
     "不够 8 番起和：不算花牌只有 5 番（门前清 2 + 平和 2 + 连六 1 = 番 5）"),
    ("123m456m789p234s55s", ["--rules", "mcr", "--from", "S", "--lang", "en"],
     "below 8 fan: 5 without flowers (Concealed Hand 2 + All Chows 2 + "
     "Short Straight 1 = fan 5)"),
    # Hangzhou: 暴头 (a lone 财神 P paired by the winning 9m) only self-drawn; on a discard
    # the refusal says what the hand waited on: every tile
    ("123m456p789s234sP9m", ["--rules", "hangzhou", "--from", "S", "--option",
                             "discard_win=true", "--dealer-streak", "3", "--lang", "en"],
     "(without the winning 9m: 123m 456p 234s 789s + a lone wildcard — waiting on every tile)"),
])
def test_a_refused_win_is_worded_as_the_cli(server: Live, hand: str, flags: list[str],
                                            message: str) -> None:
    code, want = cli("score", hand, *flags, "--json")
    status, got, _ = call(server, "POST", "/api/score", {"hand": hand, "flags": flags})
    assert (code, status) == (3, 422)
    assert got == want
    assert got["error"]["message"].endswith(message)


@pytest.mark.parametrize(("hand", "flags"), [
    ("123m456p789s2355p", ["--rules", "mcr", "--from", "N"]),
    ("123m456p789s234sP", ["--rules", "hangzhou"]),
    ("234567s234567p5m", ["--rules", "mcr", "--seat", "S", "--from", "N"]),
    ("123m456p789s2468p", ["--rules", "mcr", "--lang", "en"]),  # not ready: an answer too
    ("123m456p789s234sPP", ["--rules", "hangzhou"]),  # 14 tiles: an input error
])
def test_waits_equal_the_cli(server: Live, hand: str, flags: list[str]) -> None:
    code, want = cli("waits", hand, *flags, "--json")
    status, got, _ = call(server, "POST", "/api/waits", {"hand": hand, "flags": flags})
    assert (status, got) == ({0: 200, 2: 400}[code], want)


def test_the_page_says_why_a_wait_is_no_win_in_its_language(server: Live) -> None:
    # the reasons of /api/waits are worded in the request's language, from one code
    said = {}
    for lang in ("zh", "en"):
        body = {"hand": "123m456p789s2355p", "flags": ["--rules", "mcr", "--from", "N",
                                                        "--lang", lang]}
        status, got, _ = call(server, "POST", "/api/waits", body)
        assert status == 200
        said[lang] = got["entries"][2]["outcomes"][0]
    assert said["zh"]["reason"] == "不够 8 番起和：不算花牌只有 3 番"
    assert said["en"]["reason"] == "below 8 fan: 3 without flowers"
    assert said["zh"]["error"]["code"] == said["en"]["error"]["code"] == "rule.refused"
    assert said["zh"]["error"]["params"] == said["en"]["error"]["params"]


@pytest.mark.parametrize(("hand", "flags"), [
    ("123m456m789p234s55s", ["--rules", "hangzhou", "--self-draw", "--vs", "mcr"]),
    ("1111m2222m3333p55s", ["--rules", "hangzhou", "--self-draw", "--dealer-streak", "3",
                            "--vs-option", "cap=64"]),
    ("123m456m789p234s55s", ["--rules", "mcr", "--from", "S", "--vs", "mcr-house"]),  # 2 x no win
    ("123m456m789p234s55s", ["--rules", "hangzhou", "--self-draw", "--last-tile", "--vs",
                             "jinhua"]),
])
def test_dispute_equals_the_cli(server: Live, hand: str, flags: list[str]) -> None:
    code, want = cli("score", hand, *flags, "--json")
    for path in ("/api/score", "/api/dispute"):
        status, got, _ = call(server, "POST", path, {"hand": hand, "flags": flags})
        assert (status, got) == ({0: 200, 3: 422}[code], want)


def test_dispute_endpoint_needs_a_second_side(server: Live) -> None:
    status, got, _ = call(server, "POST", "/api/dispute",
                          {"hand": "123m456m789p234s55s", "flags": ["--rules", "mcr"]})
    assert status == 400 and "--vs" in got["error"]["message"]


def test_uploaded_house_file_scores_as_the_cli_with_the_path(server: Live) -> None:
    # examples/house/README.md: S self-draws a full flush in the first go-round; at this
    # table 清一色 ×4 × 人胡 ×4 = ×16, each of the three pays 2 × 16 = 32, S +96
    house = ROOT / "examples" / "house" / "jinhua-renhu4.yaml"
    text = house.read_text(encoding="utf-8")
    hand, flags = "123m456m789m55m23m4m", ["--wild", "9p", "--human", "--seat", "S"]
    code, want = cli("score", hand, "--rules", str(house), *flags, "--json")
    assert code == 0
    body = {"hand": hand, "flags": ["--rules", "jinhua-renhu4.yaml", *flags],
            "files": {"jinhua-renhu4.yaml": text}}
    status, got, _ = call(server, "POST", "/api/score", body)
    # where the ruleset came from: the CLI read a file on this machine; the server was sent
    # its text, which it never writes anywhere, so it names the upload, not a path of its own
    assert (got.pop("path"), want.pop("path")) == ("upload/jinhua-renhu4.yaml", str(house))
    assert (status, got) == (200, want)
    assert got["payments"] == {"E": -32, "S": 96, "W": -32, "N": -32}
    # and the README's dispute with the built-in (×8: each pays 16)
    code, want_vs = cli("score", hand, "--rules", str(house), *flags, "--vs", "jinhua", "--json")
    body["flags"] += ["--vs", "jinhua"]
    status, got, _ = call(server, "POST", "/api/dispute", body)
    assert (code, status, got["a"].pop("rules"), want_vs["a"].pop("rules")) == \
        (0, 200, "jinhua-renhu4.yaml", str(house))  # each names the ruleset as it was given
    assert (got["a"].pop("path"), want_vs["a"].pop("path")) == ("upload/jinhua-renhu4.yaml",
                                                               str(house))
    assert got == want_vs
    assert got["b"]["payments"] == {"E": -16, "S": 48, "W": -16, "N": -16}
    # the same file started with the server (mjscore serve --rules PATH), by its id
    status, got, _ = call(server, "POST", "/api/score",
                          {"hand": hand, "flags": ["--rules", want["ruleset"], *flags]})
    assert got.pop("path") == str(house)  # a file the server itself was started with
    assert (status, got) == (200, want)
    status, got, _ = call(server, "POST", "/api/rules", {"name": "jinhua-renhu4.yaml", "text": text})
    assert status == 200 and got["id"] == want["ruleset"]


def test_rules_list_and_one_ruleset(server: Live) -> None:
    status, got, _ = call(server, "GET", "/api/rules")
    assert status == 200
    ids = [r["id"] for r in got]
    assert ids[:len(list_builtin())] == list_builtin() and "jinhua-renhu4" in ids
    for rid in list_builtin():
        status, one, _ = call(server, "GET", f"/api/rules/{rid}")
        assert status == 200 and one["id"] == rid
        rs = load_ruleset(rid)
        fields = {f["field"] for f in one["flags"]}
        # exactly the flags every ruleset takes and those this one lists under context:
        assert fields == {f.field for f in FLAGS if f.always or (f.yaml_key in rs.flags)}
        assert all(f["name_zh"] and f["name_en"] for f in one["flags"])
        assert {o["name"] for o in one["options"]} == set(rs.options)
    status, hz, _ = call(server, "GET", "/api/rules/hangzhou")
    piao = next(f for f in hz["flags"] if f["field"] == "piao")
    # rulesets/hangzhou.yaml: piao {default: 0, min: 0, max: 3}; the table names it 财飘
    assert (piao["flag"], piao["type"], piao["min"], piao["max"], piao["name_zh"]) == \
        ("--piao", "int", 0, 3, "财飘")
    streak = next(f for f in hz["flags"] if f["field"] == "dealer_streak")
    assert (streak["default"], streak["min"], streak["max"]) == (1, 1, 3)


def test_flags_endpoint_is_the_table_and_every_row_has_names(server: Live) -> None:
    status, got, _ = call(server, "GET", "/api/flags")
    assert status == 200 and [f["flag"] for f in got] == [f.name for f in FLAGS]
    assert set(NAMES) == {f.field for f in FLAGS}
    # each row's help in both languages, as --help says it (the page's tooltip in its own)
    row = {f["field"]: f for f in got}
    assert (row["self_draw"]["help"], row["self_draw"]["help_zh"]) == \
        ("The winning tile was self-drawn.", "胡的那张是自摸的。")
    assert row["piao"]["help_zh"] == "财飘：连着打出财神的次数。"
    assert all(re.search(r"[\u4e00-\u9fff]", f["help_zh"]) for f in got)


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"hand": "123m5p8", "flags": ["--rules", "mcr"]}, 400, "position 7"),
    ({"hand": "123m456m789p234s56s", "flags": ["--rules", "mcr", "--self-draw"]}, 422,
     "not a winning hand"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "mcr", "--piao", "1"]}, 400, "--piao"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "mcr", "--bogus"]}, 400, "--bogus"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "../../etc/passwd"]}, 400,
     "reads no files"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "/etc/hosts.yaml"]}, 400,
     "reads no files"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "nope"]}, 400, "no built-in ruleset"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "x.yaml"],
      "files": {"x.yaml": "extends: ../../rulesets/mcr.yaml\n"}}, 400, "built-in ruleset only"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "x.yaml"],
      "files": {"../x.yaml": "extends: mcr\n"}}, 400, "plain file name"),
    ({"hand": "123m456m789p234s55s", "flags": ["--rules", "x.yaml"],
      "files": {"x.yaml": "extends: mcr\npatterns:\n  - id: p\n    name: P\n    name_en: P\n"
                          "    when: self_drawn\n    value: 1\n"}}, 400,
     "upload/x.yaml:6:11 patterns[0].when: unknown name 'self_drawn'"),
    ({"hand": 5, "flags": []}, 400, "hand"),
    ({"hand": "11m", "flags": "--rules mcr"}, 400, "flags"),
    ({"hand": "11m", "flags": [], "extra": 1}, 400, "unknown key"),
    (["not", "an", "object"], 400, "JSON object"),  # (no flags: English asked by the header)
    ({"hand": "1m" * 300, "flags": ["--rules", "mcr"]}, 413, "longer than"),
])
def test_bad_requests_are_one_line_errors(server: Live, body: Any, status: int, says: str) -> None:
    if isinstance(body, dict) and isinstance(body.get("flags"), list):
        body = {**body, "flags": [*body["flags"], "--lang", "en"]}  # (the words checked)
    got_status, got, _ = call(server, "POST", "/api/score", body, headers={"Accept-Language": "en"})
    assert got_status == status
    message = got["error"]["message"]
    assert says in message and "\n" not in message and "Traceback" not in message


def test_an_error_is_the_clis_error_object(server: Live) -> None:
    code, want = cli("score", "123m5p8", "--rules", "mcr", "--json")
    status, got, _ = call(server, "POST", "/api/score", {"hand": "123m5p8", "flags": ["--rules", "mcr"]})
    assert (code, status, got) == (2, 400, want) and got["error"]["position"] == 7


def test_http_errors(server: Live) -> None:
    assert call(server, "GET", "/api/nothing")[0] == 404
    assert call(server, "GET", "/api/rules/..%2F..%2Fetc")[0] == 404
    assert call(server, "GET", "/api/rules/no-such")[0] == 404
    assert call(server, "POST", "/api/flags", {})[0] == 405
    assert call(server, "GET", "/../../etc/passwd")[0] == 404
    assert call(server, "GET", "/static/index.html")[0] == 404  # only the fixed map
    status, got, _ = call(server, "POST", "/api/score", raw=b"hand=1m",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415  # what a page on another site could send without asking
    status, got, _ = call(server, "POST", "/api/score", raw=b"{not json")
    # the page's language decides (zh unless it asks for en): '{' read, 'n' at character 2
    assert (status, got["error"]["code"], got["error"]["message"]) == \
        (400, "serve.not_json", "请求体不是 JSON（第 2 个字符）")
    status, got, _ = call(server, "POST", "/api/score", raw=b"{not json",
                          headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert got["error"]["message"] == "the body is not JSON (at character 2)"


def test_page_has_a_csp_and_no_inline_script(server: Live) -> None:
    status, page, headers = call(server, "GET", "/")
    assert status == 200
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert re.search(r"<script(?![^>]*\bsrc=)", page) is None  # every script is a file
    assert re.search(r"\son[a-z]+\s*=", page) is None  # no inline event handlers
    for path in STATIC:
        status, text, headers = call(server, "GET", path)
        assert status == 200 and "Content-Security-Policy" in headers
        text = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, not a fetch
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), \
            f"{path} fetches something from outside"


def test_json_depth() -> None:
    assert json_depth(b'{"a": "[[[[", "b": [[1]]}') == 3
    assert json_depth(b'["\\"[[["]') == 1


def test_huge_body_is_refused_unread(server: Live) -> None:
    host, port = server.server_address[:2]
    with socket.create_connection((str(host), int(port)), timeout=10) as s:
        s.sendall(b"POST /api/score HTTP/1.0\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000000000\r\n\r\n{")
        head = s.recv(4096).decode()
    assert head.startswith("HTTP/1.1 413")
    answers_normally(server)
    # a body as large as it says, 2 MiB of it really sent: refused before it is read
    with socket.create_connection((str(host), int(port)), timeout=10) as s:
        s.sendall(b"POST /api/score HTTP/1.0\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 2097152\r\n\r\n")
        with contextlib.suppress(OSError):  # the server may close while we still send
            s.sendall(b" " * 2097152)
        with contextlib.suppress(OSError):
            assert s.recv(4096).startswith(b"HTTP/1.1 413")
    answers_normally(server)
    # no Content-Length (a chunked body): refused, not read until the client stops
    status, _, _ = call(server, "POST", "/api/score", headers={"Transfer-Encoding": "chunked",
                        "Content-Type": "application/json"})
    assert status == 411
    answers_normally(server)


def test_deep_json_is_refused(server: Live) -> None:
    status, got, _ = call(server, "POST", "/api/score", raw=b"[" * 100_000 + b"]" * 100_000)
    assert (status, got["error"]["code"], got["error"]["params"]) == \
        (400, "serve.json_deep", {"limit": 8})
    status, got, _ = call(server, "POST", "/api/score", raw=b'{"hand": ' + b"[" * 9 + b"]" * 9 + b"}")
    assert status == 400
    answers_normally(server)
    # wide instead of deep: 500 KiB of one flat list is read, and refused as not the object
    status, got, _ = call(server, "POST", "/api/score", raw=b"[" + b"1," * 250_000 + b"1]")
    assert status == 400 and got["error"]["code"] == "serve.body_object"
    answers_normally(server)


SLOW = "extends: hangzhou\nid: slow\npatterns:\n" + "".join(
    f"  - id: slow{i}\n    name: s{i}\n    name_en: s{i}\n"
    f"    when: \"count(1 for a in tiles for b in tiles for c in tiles if a == b) > {i}\"\n"
    "    value: 1\n" for i in range(60))


def test_slow_ruleset_is_stopped_and_the_server_answers(server: Live) -> None:
    body = {"hand": "PPPP123m456p789s1s",
            "flags": ["--rules", "slow.yaml", "--self-draw", "--lang", "en"],
            "files": {"slow.yaml": SLOW}}
    t0 = time.monotonic()
    status, got, _ = call(server, "POST", "/api/score", body)
    assert status == 400 and got["error"]["code"] == "eval.cpu"
    assert "ran for more than" in got["error"]["message"]
    assert time.monotonic() - t0 < 20
    answers_normally(server)
    # a plain hand sent while the slow one runs waits its turn, then is answered
    slow = threading.Thread(target=call, args=(server, "POST", "/api/score", body), daemon=True)
    slow.start()
    time.sleep(0.05)
    answers_normally(server, within=20)
    slow.join(30)
    assert not slow.is_alive()


def test_many_requests_at_once(server: Live) -> None:
    """60 requests at once from one device: each is answered, or refused at once (503: too
    many connections from it, 429: too much work waiting); the server then answers
    normally. From 12 devices (127.0.0.x) each one's requests are all answered."""
    body = {"hand": "123m456p789s234sP9m", "flags": ["--rules", "hangzhou", "--self-draw",
                                                    "--piao", "2", "--seat", "W"]}
    statuses: list[int] = []

    def one(source: str = "127.0.0.1") -> None:
        try:
            statuses.append(call(server, "POST", "/api/score", body, source=source)[0])
        except OSError:
            statuses.append(-1)  # refused at the door: also an answer

    threads = [threading.Thread(target=one, daemon=True) for _ in range(60)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:  # one deadline for all: every client has a 30 s socket timeout
        t.join(max(0.0, t0 + 60 - time.monotonic()))
    assert len(statuses) == 60 and statuses.count(200) >= 8 and set(statuses) <= {200, 429, 503, -1}
    status, got, _ = call(server, "POST", "/api/score", body)
    # README: 双财飘 8 番, E pays 16, S and N 8 each
    assert status == 200 and got["payments"] == {"E": -16, "S": -8, "W": 32, "N": -8}
    statuses.clear()
    threads = [threading.Thread(target=one, args=(f"127.0.0.{10 + i % 12}",), daemon=True)
               for i in range(36)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert statuses == [200] * 36
    answers_normally(server)


def test_one_address_with_silent_connections_and_heavy_work_still_gets_answers(
        server: Live) -> None:
    """The hostile client and a phone share 127.0.0.1 (neither names a device): 40 silent
    connections held open and heavy waits in a loop do not keep the phone's plain hands
    from being answered, none refused. At the address's cap the silent connection opened
    first gives way to the one that sends a request."""
    host, port = server.server_address[:2]
    saved = dict(guard.LIMITS)
    guard.LIMITS.update(idle=60.0, deadline=60.0)  # the silent ones stay, unless pushed out
    silent: list[socket.socket] = []
    stop = threading.Event()
    heavy: list[int] = []

    def heavy_loop() -> None:
        body = {"hand": "PPP123m456p789s1s", "flags": ["--rules", "slow.yaml"],
                "files": {"slow.yaml": SLOW}}
        while not stop.is_set():
            heavy.append(call(server, "POST", "/api/waits", body)[0])

    loops = [threading.Thread(target=heavy_loop, daemon=True) for _ in range(2)]
    try:
        for _ in range(40):
            silent.append(socket.create_connection((str(host), int(port)), timeout=10))
        for t in loops:
            t.start()
        deadline = time.monotonic() + 10
        while guard.open_count("127.0.0.1") < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert guard.open_count("127.0.0.1") >= 40
        time.sleep(0.5)  # the heavy work is in the server
        for _ in range(6):
            answers_normally(server, within=10)  # generous: a shared machine; typically ms
        assert guard.open_count("127.0.0.1") >= 40  # nobody was pushed out: room enough
        stop.set()
        for t in loops:
            t.join(60)
        # at the cap (what is open now): the oldest silent connection is closed for a request
        settled = time.monotonic() + 10  # (the heavy loops' last connections closing)
        while guard.open_count("127.0.0.1") > 40 and time.monotonic() < settled:
            time.sleep(0.05)
        guard.LIMITS.update(per_address=guard.open_count("127.0.0.1"))
        answers_normally(server, within=10)
        silent[0].settimeout(10)
        assert silent[0].recv(1) == b""  # closed by the server
    finally:
        stop.set()
        for t in loops:
            t.join(60)
        for s in silent:
            s.close()
        guard.LIMITS.update(saved)
    assert heavy and set(heavy) <= {200, 400}  # the heavy work was answered too, or stopped


def test_slow_clients_are_cut_and_do_not_block_others(server: Live) -> None:
    host, port = server.server_address[:2]
    socks = []
    for _ in range(10):  # slowloris: headers dribbled in, never finished
        s = socket.create_connection((str(host), int(port)), timeout=10)
        s.sendall(b"POST /api/score HTTP/1.0\r\nContent-Type: application/json\r\n")
        socks.append(s)
    assert call(server, "GET", "/api/flags")[0] == 200  # answered meanwhile
    t0 = time.monotonic()
    while time.monotonic() - t0 < 3.0:  # keep dribbling, faster than the 1 s idle time
        for s in socks:
            with contextlib.suppress(OSError):  # (already cut)
                s.sendall(b"X-Slow: 1\r\n")
        time.sleep(0.3)
    closed = 0
    for s in socks:  # past the 2 s read deadline: every one was cut
        try:
            closed += s.recv(1) == b""
        except OSError:
            closed += 1
        s.close()
    assert closed == len(socks)
    with socket.create_connection((str(host), int(port)), timeout=10) as s:
        s.sendall(b"GET /api/flags HTTP/1.0\r\n")  # then silence: dropped after the idle time
        t0 = time.monotonic()
        with contextlib.suppress(ConnectionResetError):
            assert s.recv(100) == b""
        assert time.monotonic() - t0 < 5
    answers_normally(server)


def test_serve_command_prints_its_url_and_stops_cleanly(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    env = {**os.environ, "MJSCORE_DB": str(tmp_path / "t.sqlite3"), "MJSCORE_LANG": "en"}
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        # the first line within 30 s (a child stuck before printing must not hang the suite)
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            assert sel.select(timeout=30), "mjscore serve printed nothing in 30 s"
        line = proc.stdout.readline()
        m = re.match(r"mjscore serve: http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        conn = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=30)
        conn.request("GET", "/api/rules")
        assert conn.getresponse().status == 200
        conn.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        err = proc.stderr.read() if proc.stderr else ""
        assert "Traceback" not in err and "stopped" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_serve_in_process_leaves_its_caller_as_it_found_it(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    # run in-process (as tests/hostile/test_hostile_input.py runs every command), the command that
    # would serve forever is stopped at once; the cache switch and the signal handlers it
    # sets while serving are undone, so the tests after it see the process unchanged
    import os
    import signal

    import uvicorn

    def ctrl_c(self: uvicorn.Server, sockets: object = None) -> None:
        assert os.environ.get("MJSCORE_NO_CACHE") == "1"  # no request reads the disk cache
        raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn.Server, "run", ctrl_c)
    monkeypatch.delenv("MJSCORE_NO_CACHE", raising=False)
    monkeypatch.setenv("MJSCORE_DB", str(tmp_path / "t.sqlite3"))
    before = signal.getsignal(signal.SIGTERM)
    res = runner.invoke(app, ["serve", "--port", "0"])
    assert res.exit_code == 0 and re.match(r"mjscore serve: http://127\.0\.0\.1:\d+/", res.stdout)
    assert "MJSCORE_NO_CACHE" not in os.environ
    assert signal.getsignal(signal.SIGTERM) is before
    monkeypatch.setenv("MJSCORE_NO_CACHE", "0")
    assert runner.invoke(app, ["serve", "--port", "0"]).exit_code == 0
    assert os.environ["MJSCORE_NO_CACHE"] == "0"


@pytest.mark.parametrize(("lang", "here", "kept", "stopped"), [
    ("zh", "（本机）", "牌桌记录存放在 ", "mjscore serve: 已停止"),
    ("en", " on this machine", "tables kept in ", "mjscore serve: stopped"),
])
def test_serve_speaks_to_its_host_in_its_language(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path, lang: str, here: str,
                                                  kept: str, stopped: str) -> None:
    # the lines on the host's terminal in the language it speaks (MJSCORE_LANG, the config,
    # the locale); the URL line starts the same in both, for a script that reads it
    import uvicorn

    def ctrl_c(self: uvicorn.Server, sockets: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn.Server, "run", ctrl_c)
    monkeypatch.setenv("MJSCORE_DB", str(tmp_path / "t.sqlite3"))
    monkeypatch.setenv("MJSCORE_LANG", lang)
    res = runner.invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0"])
    assert res.exit_code == 0, res.output
    first = res.stdout.splitlines()[0]
    assert re.fullmatch(r"mjscore serve: http://127\.0\.0\.1:\d+/" + re.escape(here), first)
    err = res.stderr.splitlines()
    assert err[0].startswith(kept) and err[-1] == stopped


def test_serve_command_bad_options(monkeypatch: pytest.MonkeyPatch) -> None:
    # the command turns the ruleset cache off for its process: restore that after the test
    monkeypatch.setenv("MJSCORE_NO_CACHE", "1")
    res = runner.invoke(app, ["serve", "--port", "70000"])
    assert res.exit_code == 2 and "0..65535" in res.output
    res = runner.invoke(app, ["serve", "--rules", "nope"])
    assert res.exit_code == 2 and "没有内置规则 'nope'" in res.output


def test_serve_without_the_extra_says_how_to_install_it() -> None:
    import subprocess
    import sys

    # uvicorn missing (None in sys.modules: its import fails as if not installed)
    code = ("import sys; sys.modules['uvicorn'] = None; sys.argv = ['mjscore', 'serve']; "
            "from scorer.cli.entry import main; main()")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == ["mjscore: serve needs the [serve] extra (Starlette and "
                                       "uvicorn): pip install 'mjscore[serve]'"]
