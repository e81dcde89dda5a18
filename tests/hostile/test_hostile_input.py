"""Hostile hands and flags, for every ruleset in rulesets/: exit status, one line, position.

Every case is built from a plain winning hand of the ruleset (its size, a table setup
that works, e.g. a ``--wild`` where the ruleset needs one) and spoiled in one way; the
expected position is worked out from how the text was built. Each case runs through the
CLI in-process, once plainly and once with ``--json``, and must give:

* the documented exit status (2 input error, 3 not a legal win);
* exactly one line on stderr, ``mjscore: ...``, naming the problem (and the position in
  the hand where there is one), never a traceback;
* nothing on stdout, or with ``--json`` only ``{"error": {...}}`` with the same message
  (and the position).

A smaller set runs through the installed ``mjscore`` under CPU and memory limits and must
finish within a second of CPU.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from scorer.cli.app import app
from scorer.model import tiles as T
from tests.helpers.handgen import Setup, _simple_hand, ruleset_ids, setups
from tests.helpers.hostile import EXIT_CODES, check_one_line_error, cli, run_limited


@dataclass(frozen=True)
class Case:
    name: str
    hand: str
    flags: tuple[str, ...] = ()
    code: int = 2
    position: int | None = None
    says: str = ""  # a piece of the message


def base_setup(rid: str) -> Setup:
    """A setup whose wildcard (if any) is an honor, so the plain m/p hand holds none."""
    ss = setups(rid)
    plain = [s for s in ss if not s.flags and (s.spec.face is None or s.spec.face >= 27)]
    honor = [s for s in ss if s.wild and s.spec.face is not None and s.spec.face >= 27
             and s.spec.face != s.spec.stand_in and len(s.flags) == 2]
    return (plain or honor or list(ss))[0]


def cases(rid: str) -> list[Case]:
    s = base_setup(rid)
    rs = s.ruleset
    base = _simple_hand(rs, ("m", "p"))  # chows 123m 456m 789m 123p (456p) + pair 22m
    n = rs.hand_size
    rest = base[4:]  # without the first chow "123m"
    rest2 = base[8:]  # without "123m456m"
    out = [
        Case("unknown character", base[:3] + "X" + base[3:], position=4,
             says="unexpected character 'X'"),
        Case("digit without suit at the end", base + "5", position=len(base) + 1,
             says="'5' has no suit letter after it"),
        Case("digits without suit before a bracket", "12[123m]" + rest, position=2,
             says="'2' has no suit letter"),
        Case("zero", "0" + base[1:], position=1, says="'0' is no tile number"),
        Case("lowercase honor", "e" + base, position=1, says="honors are uppercase"),
        Case("flower in the hand", "春" + base, position=1, says="with --flowers"),
        # full-width digits are read as digits now (issue 12); a full-width letter that
        # is no tile still names the character the user typed
        Case("fullwidth letter", "Ｘ" + base, position=1, says="unexpected character 'X'"),
        Case("emoji", "😀" + base, position=1, says="unexpected character"),
        Case("control character", base[:4] + "\x1b[2J" + base[4:], position=5,
             says="unexpected character '\\x1b'"),
        Case("unclosed bracket", "[" + base, position=1, says="never closed"),
        Case("nested brackets", "[1[23m]" + rest, position=3, says="cannot be nested"),
        Case("stray closing bracket", base[:4] + "]" + base[4:], position=5,
             says="']' without a '['"),
        Case("meld after concealed tiles", base[:4] + "[456m]" + rest2, position=5,
             says="melds must come before"),
        Case("meld that is no set", "[124m]" + rest, position=1,
             says="[124m] is not a chow, pung or kong"),
        Case("meld of two tiles", "[12m]3m" + rest, position=1, says="3 or 4 tiles"),
        Case("meld of five tiles", "[11112m]" + rest, position=1, says="3 or 4 tiles"),
        Case("empty meld", "[]" + base, position=1, says="3 or 4 tiles"),
        Case("offer 4", "[123m,4]" + rest, position=7, says="offer '4'"),
        Case("offer 0", "[123m,0]" + rest, position=7, says="offer '0'"),
        Case("two offers", "[123m,1,2]" + rest, position=7, says="offer '1,2'"),
        Case("concealed kong with an offer", "[1111m,0]" + rest, position=8,
             says="暗杠: [1111m]"),
        Case("meld reading that does not fit", "[123m=456m]" + rest, position=1,
             says="cannot be read as 456m"),
        Case("meld reading that is no tile", "[123m=89z]" + rest, position=7,
             says="'8z' is not an honor"),
        Case("fifth copy across melds", "[111m][111m]" + rest2, position=7,
             says="6 copies of 1m; a set has only 4"),
        Case("fifth copy concealed", "11111m9m" + rest2, position=5,
             says="5 copies of 1m; a set has only 4"),
        Case("a tile too many", base + "9p", position=len(base) + 1,
             says=f"{n + 1} tiles (tile {n + 1})"),
        Case("a tile too few", base[:-3] + "m", position=len(base) - 3,
             says=f"{n - 1} tiles;"),
        Case("10,000 characters", "1m" * 5000, position=201, says="10000 characters long"),
        Case("empty hand", "", position=1, says="no concealed tiles"),
        Case("only spaces", "   ", position=4, says="no concealed tiles"),
        Case("only melds", "[123m][456m]", position=13, says="no concealed tiles"),
        # flags
        Case("--self-draw with --from", base, ("--self-draw", "--from", "S"),
             says="--self-draw and --from contradict each other"),
        Case("--robbing-kong with --self-draw", base, ("--robbing-kong", "--self-draw"),
             says="--robbing-kong"),
        Case("seat that is no seat", base, ("--seat", "X"), says="seats are E S W N"),
        Case("two seats in one", base, ("--seat", "SW"), says="seats are E S W N"),
        Case("round that is no wind", base, ("--round", "Q"), says="seats are E S W N"),
        Case("discarder that is no seat", base, ("--from", "Z"), says="seats are"),
        Case("winner discarded to himself", base, ("--seat", "S", "--from", "S"),
             says="--from S is the winner's own seat"),
        Case("wildcard 0m", base, ("--wild", "0m"), says="--wild"),
        Case("wildcard 8z", base, ("--wild", "8z"), says="--wild"),
        Case("wildcard X", base, ("--wild", "X"), says="--wild"),
        Case("wildcard empty", base, ("--wild", ""), says="--wild"),
        Case("unknown option", base, ("--option", "nope=1"), says="--option nope"),
        Case("option without value", base, ("--option", "cap"), says="--option cap"),
        Case("negative dealer streak", base, ("--dealer-streak", "-1"), says="--dealer-streak"),
        Case("base 0", base, ("--base", "0"), says="--base"),
        Case("huge base", base, ("--base", "9" * 40), says="--base"),
        Case("negative kongs", base, ("--kongs", "-1"), says="--kongs"),
        Case("kong draw without a kong", base, ("--kong-draw",), says="--k"),
        Case("negative piao", base, ("--piao", "-1"), says="--piao"),
        Case("piao on a discard", base, ("--piao", "1", "--from", "S"), says="--piao"),
        Case("nine flowers", base, ("--flowers", "9"), says="--flowers"),
        Case("flower 0f", base, ("--flowers", "0f"), says="--flowers"),
        Case("chengbao with oneself", base, ("--chengbao", "E:E"), says="--chengbao"),
        Case("chengbao without a colon", base, ("--chengbao", "E"), says="--chengbao"),
        Case("heavenly with melds", "[123m]" + rest, ("--heavenly",), says="--heavenly"),
        Case("unknown language", base, ("--lang", "fr"), says="--lang fr"),
        Case("unknown flag", base, ("--bogus",), says="No such option: --bogus"),
        # not a legal win
        Case("not a winning hand", base[:-3] + "m9p", code=3, says="not a winning hand"),
    ]
    if s.wild and s.spec.face is not None:
        f, k = s.spec.face, s.spec.in_play
        name = T.name(f)
        tiles = [t for t in _tiles_of(base) if t != f][: n - k - 1]
        text = name * (k + 1) if f >= 27 else "".join(name for _ in range(k + 1))
        from scorer.model.hand import format_tiles

        hand = text + format_tiles(tuple(tiles))
        out.append(Case(f"{k + 1} wildcards, {k} in play", hand, position=k * len(name) + 1,
                        says=f"{k + 1} copies of {name}"))
    small = [x for x in setups(rid) if len(x.seats) < 4]
    if small:
        t = small[0]
        out.append(Case(f"seat outside a {len(t.seats)}-player table", base,
                        (*t.flags, "--seat", "N"), says=f"a {len(t.seats)}-player table"))
    return [Case(c.name, c.hand, _flags(s, c.flags), c.code, c.position, c.says) for c in out]


def _flags(s: Setup, flags: tuple[str, ...]) -> tuple[str, ...]:
    """The setup's flags and the case's; --self-draw unless the case says how the tile came
    (a ruleset may need --from on a discard win, which would be reported first)."""
    own = (*s.flags, *flags) if not _sets_wild(flags) else (*_without_wild(s.flags), *flags)
    if not {"--from", "--robbing-kong", "--self-draw"} & set(flags):
        own += ("--self-draw",)
    return own


def _tiles_of(text: str) -> list[int]:
    from scorer.model.notation import parse_tiles

    return [t for t, _ in parse_tiles(text)]


def _sets_wild(flags: tuple[str, ...]) -> bool:
    return "--wild" in flags


def _without_wild(flags: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    skip = False
    for f in flags:
        if skip:
            skip = False
            continue
        if f == "--wild":
            skip = True
            continue
        out.append(f)
    return tuple(out)


ALL = [pytest.param(rid, c, id=f"{rid}:{c.name}") for rid in ruleset_ids() for c in cases(rid)]


@pytest.mark.parametrize("rid,case", ALL)
def test_hostile_hand_or_flag(rid: str, case: Case) -> None:
    argv = ["score", case.hand, "--rules", rid, *case.flags]
    msg = check_one_line_error(cli(*argv), case.code)
    assert case.says in msg, msg
    if case.position is not None:
        assert msg.startswith(f"position {case.position}: "), msg
    r = cli(*argv, "--json")
    jmsg = check_one_line_error(r, case.code, as_json=True)
    assert jmsg == msg
    err = json.loads(r.out)["error"]
    assert msg.startswith(err["message"])  # stderr may add "(mjscore score --help)"
    if case.position is not None:
        assert err["position"] == case.position
    assert r.cpu < 1.0, f"{r.cpu:.2f} s of CPU"


def test_every_ruleset_has_cases() -> None:
    assert {p.values[0] for p in ALL} == set(ruleset_ids())
    assert len(ALL) >= 55 * len(ruleset_ids())


# -- through the installed command, under limits ---------------------------------------------
SUBPROCESS = ["unknown character", "10,000 characters", "fifth copy across melds",
              "concealed kong with an offer", "a tile too many", "--self-draw with --from",
              "unknown flag", "not a winning hand", "unclosed bracket"]


@pytest.mark.parametrize("name", SUBPROCESS)
def test_hostile_hand_installed_command(name: str) -> None:
    case = next(c for c in cases("hangzhou") if c.name == name)
    r = run_limited("score", case.hand, "--rules", "hangzhou", *case.flags, "--json")
    check_one_line_error(r, case.code, as_json=True)
    assert r.cpu < 1.0 and r.wall < 5.0, (r.cpu, r.wall)


# -- batch: non-UTF-8 bytes and hostile lines do not stop the others -------------------------
def test_batch_with_hostile_lines(tmp_path) -> None:
    hostile = [c for c in cases("hangzhou") if "\x1b" not in c.hand and c.hand.strip()
               and "--bogus" not in c.flags and "--lang" not in c.flags]
    lines = [b"123m456m789m123p22m --self-draw", b"12\xff3m --self-draw", b"\xfe\xff\x00\x01",
             b"# a comment", b""]
    import shlex
    lines += [shlex.join([c.hand, *c.flags]).encode("utf-8") for c in hostile]
    f = tmp_path / "hands.txt"
    f.write_bytes(b"\n".join(lines) + b"\n")
    r = cli("batch", str(f), "--rules", "hangzhou", "--format", "jsonl")
    assert "Traceback" not in r.out + r.err
    assert r.code == 1, r.err
    rows = [json.loads(x) for x in r.out.splitlines()]
    by_line = {row["line"]: row for row in rows}
    assert by_line[1]["best"]["score"] == 1
    assert by_line[2]["error"]["position"] == 3 and "not UTF-8" in by_line[2]["error"]["message"]
    assert by_line[3]["error"]["position"] == 1
    for i, c in enumerate(hostile, start=6):
        err = by_line[i]["error"]
        assert err["exit"] == c.code, (c.name, err)
        if c.name == "10,000 characters":  # the batch refuses the line before the hand
            assert err["position"] == 4097 and "at most 4096" in err["message"], err
        elif c.position is not None:
            assert err["position"] == c.position, (c.name, err)
    assert all(line.startswith(("line ", "mjscore batch: ")) for line in r.err.splitlines())


# -- the whole CLI surface: every command, bad invocations, never a traceback -----------------
def _commands() -> list[str]:
    import typer

    group = typer.main.get_command(app)
    return sorted(group.commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", _commands())
@pytest.mark.parametrize("extra", [[], ["--help"], ["--bogus"], ["/nonexistent/file"],
                                   ["/"], ["X", "Y", "Z"], ["-"], ["--rules"],
                                   ["--rules", "nope"], ["--json"], ["\udcff"]])
def test_cli_surface_never_crashes(command: str, extra: list[str], tmp_path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if command == "serve":
        # `mjscore serve` that starts serves until Ctrl-C: here Ctrl-C comes at once (and
        # its tables' database is a temporary file, not the user's)
        import uvicorn

        def ctrl_c(self: uvicorn.Server, sockets: object = None) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(uvicorn.Server, "run", ctrl_c)
        monkeypatch.setenv("MJSCORE_DB", str(tmp_path / "tables.sqlite3"))
    r = cli(command, *extra, stdin="12\udcff\n")
    assert "Traceback" not in r.out + r.err
    assert r.code in EXIT_CODES, (r.code, r.err)
    if r.code == 2:
        assert r.err.startswith("mjscore") and r.err.count("\n") >= 1


def test_no_arguments_and_unknown_command() -> None:
    r = cli()
    assert r.code == 0 and "Usage" in r.out
    check_one_line_error(cli("nope"), 2)
    check_one_line_error(cli("--versions"), 2)
