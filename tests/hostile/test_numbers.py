"""A number is ASCII digits within its range, wherever one is read (issue 33).

``--piao ٣`` and ``--kongs ٣`` were read as 3 (Python's ``int()`` reads every Unicode
decimal digit), ``²`` failed inside ``int()``, and a 5,000-digit ``--base`` was echoed
whole. Now every number — a flag of ``score``/``waits`` (both parsers: the fast one and
typer's), a batch line's or batch's own, a round file's, an ``--option``, a ``--stake``,
a request to the page's API — is read by :func:`scorer.model.numbers.whole`.
"""

from __future__ import annotations

import pytest

from scorer.serve.api import Api
from tests.helpers.hostile import check_one_line_error, cli

HAND = "123m456p789s234sP9m"  # README's worked Hangzhou hand (自摸 番 2)
WAITING = "123m456p789s234sP"
# (a full-width ３, as a Chinese input method types it, is 3: tests/cli/test_foreign.py)
ODD = ["٣", "＋３", "²", "1_0", "+1", " 1", "1e1", "0x1"]
LONG = "9" * 5000


@pytest.mark.parametrize("flag", ["--piao", "--kongs", "--dealer-streak", "--base", "--you",
                                  "--explain-top"])
@pytest.mark.parametrize("value", ODD)
@pytest.mark.parametrize("command", ["score", "waits"])
def test_a_flag_takes_ascii_digits_only(command: str, flag: str, value: str) -> None:
    hand = HAND if command == "score" else WAITING
    for as_json in (False, True):
        for fast in (True, False):  # the fast parser, and typer's (tests/cli/test_entry.py)
            r = cli(command, hand, "--rules", "hangzhou", "--self-draw", flag, value,
                    *(["--json"] if as_json else []), fast=fast)
            msg = check_one_line_error(r, 2, as_json=as_json)
            assert f"Invalid value for '{flag}'" in msg and "not a valid int" in msg, msg


@pytest.mark.parametrize("flag", ["--piao", "--base", "--dealer-streak"])
def test_a_long_number_is_named_by_its_length(flag: str) -> None:
    for fast in (True, False):
        r = cli("score", HAND, "--rules", "hangzhou", "--self-draw", flag, LONG, fast=fast)
        msg = check_one_line_error(r, 2)
        assert "a number of 5000 digits" in msg and "99999" * 5 not in msg, msg
        assert len(msg) < 200


def test_plain_numbers_still_score() -> None:
    r = cli("score", HAND, "--rules", "hangzhou", "--piao", "0", "--self-draw", "--base",
            "0002", "--json")
    assert r.code == 0, r.err


def test_a_batch_line_and_batch_s_own_options() -> None:
    lines = (f"{HAND} --rules hangzhou --piao ٣\n{HAND} --rules hangzhou --base {LONG[:3000]}\n"
             f"{HAND} --rules hangzhou --self-draw --kongs ²\n"
             f"{HAND} --rules hangzhou --self-draw\n")
    r = cli("batch", "-", "--lang", "en", stdin=lines)
    assert r.code == 1, r.err
    errs = [x for x in r.err_lines if x.startswith("line ")]
    assert len(errs) == 3 and all("not a valid int" in x for x in errs), errs
    assert "a number of 3000 digits" in errs[1] and "9" * 21 not in r.err
    for value in ("٣", "²", LONG):
        r = cli("batch", "-", "--jobs", value, stdin=f"{HAND} --rules hangzhou\n")
        msg = check_one_line_error(r, 2)
        assert "Invalid value for '--jobs'" in msg and LONG not in msg


@pytest.mark.parametrize("value", ["٣", "²", "1_0", LONG])
def test_an_option_value(value: str) -> None:
    r = cli("score", HAND, "--rules", "hangzhou", "--self-draw",
            "--option", f"cap={value}")
    msg = check_one_line_error(r, 2)
    assert "--option cap=" in msg and LONG not in msg, msg


@pytest.mark.parametrize("value", ["٣", "２／３", "1_0"])
def test_a_stake(value: str) -> None:
    r = cli("batch", "-", "--stake", value, stdin=f"{HAND} --rules hangzhou --self-draw\n")
    msg = check_one_line_error(r, 2)
    assert "--stake" in msg and "not a decimal number" in msg, msg


@pytest.mark.parametrize("value", ["٣", "²", "9" * 200])
def test_the_page_s_api(value: str) -> None:
    status, body = Api().score({"hand": HAND, "flags": ["--rules", "hangzhou", "--self-draw",
                                                        "--piao", value]})
    assert status == 400 and body["error"]["kind"] == "context", body
    assert body["error"]["code"] in ("usage.not_a_number_digits", "usage.number_too_long")
    assert body["error"]["params"]["param"] == "--piao" and "9" * 21 not in str(body)
