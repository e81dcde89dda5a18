"""An error is one line; what is not an error is said after a run that succeeds (issue 33).

A ruleset with a deprecated key printed its notice and then the error (two stderr lines);
now notices (an old spelling, a ruleset cache not used, a capped --jobs) are kept by the
library (scorer.rules.notices) and said after a successful run, or listed by ``rules
check``. And ``--jobs`` is capped at JOBS_PER_CPU per CPU; ``rules new`` refuses to write
through a symbolic link unless ``--force``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.lines.pool import JOBS_PER_CPU, cpus, max_jobs
from tests.helpers.hostile import check_one_line_error, cli

HAND = "123m456p789s234sP9m"  # README's worked Hangzhou hand (自摸 番 2)
OLD = "extends: hangzhou\nid: old\nties: {order: sets}\n"  # ties: belongs under tooling:
NOTICE = "ties: 'ties' now belongs under tooling:"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    f = tmp_path / "old.yaml"
    f.write_text(OLD, encoding="utf-8")
    return f


@pytest.mark.parametrize("args,code", [
    (("score", "12X3m"), 2),  # notation
    (("score", HAND, "--from", "E"), 2),  # flag (the winner's own seat)
    (("score", "123m456p789s234s19m", "--self-draw"), 3),  # not a win
    (("score", HAND, "--self-draw", "--bogus"), 2),  # usage (typer's)
    (("waits", "123m"), 2),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_an_error_with_a_deprecated_ruleset_is_one_line(old: Path, args: tuple[str, ...],
                                                       code: int, as_json: bool) -> None:
    for cache in ("0", "1"):  # built now, and read from the cache of built rulesets
        os.environ["MJSCORE_NO_CACHE"] = cache if cache == "1" else ""
        try:
            r = cli(*args, "--rules", str(old), *(["--json"] if as_json else []))
        finally:
            os.environ.pop("MJSCORE_NO_CACHE", None)
        msg = check_one_line_error(r, code, as_json=as_json)
        assert "tooling" not in msg, msg


def test_the_notice_follows_a_run_that_succeeds(old: Path) -> None:
    r = cli("score", HAND, "--rules", str(old), "--self-draw")
    assert r.code == 0 and r.out
    assert len(r.err_lines) == 1 and NOTICE in r.err_lines[0], r.err
    # a batch whose lines failed ran: its summary, then the notice (a file of its own: this
    # process keeps the rulesets it loaded, and says a notice when it loads one)
    other = old.with_name("old2.yaml")
    other.write_text(OLD, encoding="utf-8")
    r = cli("batch", "-", "--rules", str(other), stdin=f"{HAND} --self-draw\n12X\n")
    assert r.code == 1
    assert r.err_lines[0].startswith("line 2: ") and r.err_lines[1].startswith("mjscore batch:")
    assert NOTICE in r.err_lines[2] and len(r.err_lines) == 3


def test_rules_check_lists_the_notice_on_its_own_line(old: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path is long: the ok line unfolded
    for _ in range(2):  # compiled, then read from the cache of built rulesets
        r = cli("rules", "check", str(old))
        assert r.code == 0 and r.err == ""
        lines = r.out.splitlines()
        assert len(lines) == 2 and lines[0] == f"{old}:3:1 {NOTICE} (tooling: {{ties: ...}}); " \
            "the top-level spelling still works"
        assert lines[1].startswith(f"{old}: ok")


def test_a_cache_that_is_not_used_is_said_after_a_run_that_succeeds() -> None:
    # (a user without a home folder is the same line with another reason: test_store_portable)
    env = {**os.environ, "MJSCORE_CACHE_DIR": "relative/folder", "MJSCORE_LANG": "en"}
    bad = subprocess.run([sys.executable, "-m", "scorer", "score", "12X3m", "--rules", "mcr"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "unexpected character 'X'" in bad.stderr
    good = subprocess.run([sys.executable, "-m", "scorer", "score", HAND, "--rules", "hangzhou",
                           "--self-draw"], capture_output=True, text=True, env=env, timeout=60)
    assert good.returncode == 0 and good.stdout
    assert good.stderr == ("mjscore: MJSCORE_CACHE_DIR is not an absolute path; rulesets are "
                           "read from their files (MJSCORE_NO_CACHE=1 turns the cache off)\n")


# ------------------------------------------------------------------------------ --jobs
def test_jobs_are_capped_with_a_note() -> None:
    assert max_jobs() == JOBS_PER_CPU * cpus()
    lines = f"{HAND} --rules hangzhou --self-draw\n" * 3
    r = cli("batch", "-", "--jobs", "256", stdin=lines)
    assert r.code == 0
    assert r.err_lines[0].endswith(f"({max_jobs()} jobs)"), r.err
    assert r.err_lines[1] == (f"mjscore: --jobs 256: capped at {max_jobs()} processes "
                              f"({JOBS_PER_CPU} per CPU, {cpus()} CPUs)")
    r = cli("batch", "-", "--jobs", str(max_jobs()), stdin=lines)
    assert r.code == 0 and len(r.err_lines) == 1  # no cap, no note
    check_one_line_error(cli("batch", "-", "--jobs", "0", stdin=lines), 2)


# --------------------------------------------------------------------- rules new, links
def test_rules_new_refuses_a_symbolic_link_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.yaml"
    link = tmp_path / "LINK.yaml"
    link.symlink_to(target)  # dangling: exists() is False
    r = cli("rules", "new", str(link), "--from", "hangzhou")
    msg = check_one_line_error(r, 2)
    assert "symbolic link" in msg and str(target) in msg
    assert not target.exists() and link.is_symlink()
    r = cli("rules", "new", str(link), "--from", "hangzhou", "--force")
    assert r.code == 0, r.err
    assert "extends: hangzhou" in target.read_text(encoding="utf-8")  # written where it points
    # a plain new file is still written, and one that exists is refused without --force
    plain = tmp_path / "mine.yaml"
    assert cli("rules", "new", str(plain), "--from", "hangzhou").code == 0
    assert cli("rules", "check", str(plain)).code == 0
    check_one_line_error(cli("rules", "new", str(plain), "--from", "hangzhou"), 2)
