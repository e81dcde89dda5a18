"""Nothing breaks it: load-time bombs, OS errors, signals, batch faults, bounded caches.

Each case is a hostile input written by a small generator (small code, big files), run
the way a user runs it (a real ``mjscore`` process where exit statuses, signals or memory
are the point), with the exit status and message docs/robustness.md documents. Timings
are CPU seconds of the child process (the machine is shared: wall time is not a measure).
The slow cases carry the ``slow`` marker (deselected by default; ``.ci/run`` runs them).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.launch import launcher, usage

HAND = "123m456p789s234sP9m"  # README's worked Hangzhou hand: 自摸 番 2, E receives 12 in all
CPU_LIMIT = 1.0  # 'rules check' of any file under the size limit: within a second


@dataclass
class Run:
    code: int
    out: str
    err: str
    cpu: float  # user + system seconds of the child
    rss_kb: int  # its peak resident memory


def mjscore(*args: str, stdin: bytes | Callable[[io.BufferedWriter], None] | None = None,
            timeout: float = 120, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> Run:
    """Run ``python -m scorer ARGS`` (``env``: variables to add; English unless it says
    otherwise, as these cases read the English words) and measure it (its own CPU seconds
    and peak RSS)."""
    # through the launcher: the child's peak RSS is its own, not the grown pytest's
    argv, r_fd, w_fd = launcher([sys.executable, "-m", "scorer", *args])
    with tempfile.TemporaryFile() as o, tempfile.TemporaryFile() as e:
        env = {**os.environ, "MJSCORE_LANG": "en", **(env or {})}
        p = subprocess.Popen(argv, stdout=o,
                             stderr=e, pass_fds=(w_fd,), env=env,
                             stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                             cwd=cwd, start_new_session=True)
        os.close(w_fd)
        timer = threading.Timer(timeout, lambda: _kill_group(p.pid))
        timer.start()
        try:
            if stdin is not None:
                assert p.stdin is not None
                with contextlib.suppress(BrokenPipeError):
                    if callable(stdin):
                        stdin(p.stdin)  # type: ignore[arg-type]
                    else:
                        p.stdin.write(stdin)
                    p.stdin.close()
            p.wait()
            cpu, rss = usage(r_fd)
        finally:
            timer.cancel()
        o.seek(0)
        e.seek(0)
        return Run(p.returncode, o.read().decode("utf-8", "replace"),
                   e.read().decode("utf-8", "replace"), cpu, rss)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def one_clean_line(err: str) -> str:
    """stderr holds exactly one line, no traceback and no internal error."""
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err and "report" not in err
    return lines[0]


# ----------------------------------------------------------------------------- load budget
def house(body: str, tmp_path: Path, name: str = "house.yaml", parent: str = "hangzhou") -> Path:
    path = tmp_path / name
    path.write_text(f"extends: {parent}\nid: {path.stem}\n{body}", encoding="utf-8")
    assert path.stat().st_size <= 512 * 1024  # every file here is under the size limit
    return path


CONDITION = " or ".join(["(wild_count > 0 and self_draw)"] * 40)  # 1,356 characters


def alias_patterns(n: int) -> str:
    lines = ["patterns:", f"- {{id: mine0, name: a, when: &W '{CONDITION}', value: 1}}"]
    lines += [f"- {{id: mine{i}, when: *W, value: 1}}" for i in range(1, n)]
    return "\n".join(lines) + "\n"


def check(path: Path, limit: float = CPU_LIMIT) -> Run:
    """``mjscore rules check PATH``. A run that used more than half of ``limit`` seconds of
    CPU is repeated (up to three runs) and the one that used least is returned: its output
    is the same every time, but a loaded machine's CPU seconds are not (a 0.6 s check
    took 1.03 s in a CI run beside the rest of the suite). The repeats keep out of the
    ruleset cache, so that each does the first run's work, not a cache hit's."""
    best = mjscore("rules", "check", str(path), timeout=60)
    for _ in range(2):
        if best.cpu <= limit / 2:
            break
        again = mjscore("rules", "check", str(path), timeout=60, env={"MJSCORE_NO_CACHE": "1"})
        assert (again.code, again.out) == (best.code, best.out)
        best = min(best, again, key=lambda r: r.cpu)
    return best


@pytest.mark.parametrize(("uses", "says"), [
    (12_000, "patterns: 12,000 items; at most 1,000 in one list"),
    (999, "aliases expanded is more than 1,048,576 characters"),
])
def test_an_aliased_condition_used_many_times_is_refused_at_once(tmp_path: Path, uses: int,
                                                                  says: str) -> None:
    # 12,000 uses of one 1,356-character condition: 16 MB of expressions to compile
    # (42.9 s and 2.6 GB before the limits); refused while reading, the limit named
    r = check(house(alias_patterns(uses), tmp_path))
    assert r.code == 2 and says in r.out
    assert r.cpu < CPU_LIMIT and r.rss_kb < 150_000


def test_a_condition_aliased_a_few_times_is_compiled_once(tmp_path: Path) -> None:
    from scorer.rules.load import load_ruleset

    rs = load_ruleset(str(house(alias_patterns(20), tmp_path)))
    mine = [p for p in rs.patterns if p.id.startswith("mine")]
    assert len(mine) == 20
    assert all(p.when.src == CONDITION for p in mine)
    # one compilation, a copy per use: each knows its own line for its run-time errors
    assert len({p.when.fn for p in mine}) == 1
    assert len({p.when.where for p in mine}) == 20


def test_folding_big_constants_through_an_alias_is_done_once(tmp_path: Path) -> None:
    # 3,000 patterns whose aliased condition folds a 3**5150-sized constant: 29 s and 1.4 GB
    # when each use was folded again
    lines = ["patterns:", "- {id: p0, name: a, when: &W '3 ** 5150 > 2 ** 8000 and self_draw', "
             "value: 1}"]
    lines += [f"- {{id: p{i}, when: *W, value: 1}}" for i in range(1, 900)]
    r = check(house("\n".join(lines) + "\n", tmp_path), CPU_LIMIT * 2)
    assert r.code == 0, r.out + r.err
    assert r.cpu < CPU_LIMIT * 2


def test_house_examples_aliasing_one_big_text_are_refused(tmp_path: Path) -> None:
    # 2,000 house_examples aliasing one YAML text of 45,000 values: each was read again
    # with the full budget (more than 10 minutes); 2,000 are over the item limit, 900 over
    # the limit of what aliases expand to
    big = "{" + ", ".join(f"k{i}: [{','.join(['1'] * 8)}]" for i in range(5000)) + "}"
    body = "house_examples:\n" + f"  - {{title: t, yaml: &Y '{big}'}}\n" + \
        "".join("  - {title: t, yaml: *Y}\n" for _ in range(900))
    r = check(house(body, tmp_path))
    assert r.code == 2 and "1,048,576 characters" in r.out
    assert r.cpu < CPU_LIMIT


def test_house_examples_share_one_node_budget(tmp_path: Path) -> None:
    # ten different snippets of 10,000 values each: 100,000 values in all, more than one
    # file may hold, while each alone is under the limit
    snippets = ["{" + ", ".join(f"k{i}: [{','.join([str(j)] * 8)}]" for i in range(1000)) + "}"
                for j in range(10)]
    body = "house_examples:\n" + "".join(f"  - {{title: t{j}, yaml: '{s}'}}\n"
                                         for j, s in enumerate(snippets))
    r = check(house(body, tmp_path))
    assert r.code == 2 and "house_examples[1].yaml: more than 10000 values" in r.out, r.out
    # the budget spent, the snippets after that one are not read at all (each of the
    # eight was read and refused in its turn: 9 problems, 0.6 s, 1.03 s in a loaded CI run)
    assert "house_examples[2].yaml: not read: the house examples hold more than 10000 " \
        "values in all" in r.out, r.out
    assert len(r.out.splitlines()) == 2, r.out
    assert r.cpu < CPU_LIMIT


def test_remove_of_20000_unknown_ids_is_refused_at_once(tmp_path: Path) -> None:
    # 7 min 30 s before (a list `in` and a did-you-mean per id)
    body = "remove: [" + ", ".join(f"zz{i}" for i in range(20_000)) + "]\n"
    r = check(house(body, tmp_path))
    assert r.code == 2
    assert "20,000 items; at most 1,000 in one list or mapping" in r.out
    assert r.cpu < CPU_LIMIT


def test_remove_of_999_unknown_ids_reports_each_quickly(tmp_path: Path) -> None:
    body = "remove: [zimoo, " + ", ".join(f"zz{i}" for i in range(998)) + "]\n"
    r = check(house(body, tmp_path))
    assert r.code == 2
    lines = r.out.strip().split("\n")
    assert len(lines) == 999
    assert "'zimoo'; did you mean 'zimo'?" in lines[0]  # the first ones still get a hint
    assert r.cpu < CPU_LIMIT


def test_misspelt_overrides_of_a_big_parent_are_bounded(tmp_path: Path) -> None:
    # 6,000 misspelt overrides of a 6,000-pattern parent took 3 min 13 s: a parent of more
    # than 1,000 is refused; 990 misspelt overrides of a 990-pattern parent answer at once
    parent = "patterns:\n" + "".join(f"- {{id: pat{i}, name: a, when: 'true', value: 1}}\n"
                                     for i in range(6000))
    house(parent, tmp_path, "big.yaml")
    r = check(house("patterns:\n- {id: pat1, value: 2}\n", tmp_path, parent="big.yaml"))
    assert r.code == 2 and "6,000 items; at most 1,000" in r.out
    parent = "patterns:\n" + "".join(f"- {{id: pat{i}, name: a, when: 'true', value: 1}}\n"
                                     for i in range(990))
    house(parent, tmp_path, "base.yaml")
    child = "patterns:\n" + "".join(f"- {{id: pta{i}, value: 2}}\n" for i in range(990))
    r = check(house(child, tmp_path, parent="base.yaml"), CPU_LIMIT * 1.5)
    assert r.code == 2
    lines = r.out.strip().split("\n")
    assert len(lines) == 990 and "no inherited pattern 'pta0' to change" in lines[0]
    assert r.cpu < CPU_LIMIT * 1.5  # two 990-pattern files, read, merged and reported


def test_many_patterns_are_refused_with_the_limit_named(tmp_path: Path) -> None:
    # 6,800 small distinct patterns fit in 512 KiB; compiling them all took 1.6 s
    body = "patterns:\n" + "".join(f"- {{id: p{i}, name: a, when: 'wild_count > {i}', "
                                   "value: 1}\n" for i in range(6800))
    r = check(house(body, tmp_path))
    assert r.code == 2 and "at most 1,000" in r.out
    assert r.cpu < CPU_LIMIT


def test_the_expressions_compiled_are_bounded_in_all(tmp_path: Path) -> None:
    # a file of 250 different conditions of 1,976 characters each (500,000 characters)
    # extending another such file: a million characters to compile
    def cond(i: int) -> str:
        return " or ".join([f"(wild_count > {i} and self_draw)"] * 55)

    def body(first: int) -> str:
        return "patterns:\n" + "".join(f"- {{id: p{i}, name: a, when: '{cond(i)}', value: 1}}\n"
                                       for i in range(first, first + 250))
    house(body(0), tmp_path, "parent.yaml")
    r = check(house(body(1000), tmp_path, parent="parent.yaml"), CPU_LIMIT * 4)
    assert r.code == 2 and "more than 614,400 characters in all" in r.out
    # a file's worth of distinct expressions is compiled before the limit is reached (a
    # file of big conditions must load: tests/lang/test_budget.py): about 2 s, not 1 (open)
    assert r.cpu < CPU_LIMIT * 4


def test_did_you_mean_is_bounded_per_load() -> None:
    from scorer.rules.files import MAX_HINTS, hint_budget, nearest

    names = [f"name{i}" for i in range(100_000)]
    t0 = time.process_time()
    with hint_budget():
        hints = [nearest(f"nmae{i}", names) for i in range(MAX_HINTS + 50)]
    assert all(hints[:3]) and not any(hints[MAX_HINTS:])
    assert time.process_time() - t0 < CPU_LIMIT
    assert nearest("x" * 10_000, ["x" * 10_000]) is None  # too long to compare


# ----------------------------------------------------------------------------- OS errors
LONG = "a" * 300


@pytest.mark.parametrize("rules", [f"{LONG}.yaml", LONG, f"x/{LONG}.yaml"])
def test_a_name_too_long_is_bad_input(rules: str) -> None:
    r = mjscore("score", HAND, "--rules", rules, "--self-draw")
    assert r.code == 2
    assert "a file name is at most 255 bytes" in one_clean_line(r.err)


def test_an_extends_name_too_long_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(f"id: long\nextends: {LONG}.yaml\n", encoding="utf-8")
    r = mjscore("score", HAND, "--rules", str(path), "--self-draw")
    assert r.code == 2
    line = one_clean_line(r.err)
    assert "long.yaml:2:10 extends:" in line and "at most 255 bytes" in line


def test_a_nul_byte_in_a_batch_line_is_that_line_s_error(tmp_path: Path) -> None:
    f = tmp_path / "nul.txt"
    f.write_bytes(f"{HAND} --self-draw --rules a\0b.yaml\n{HAND} --self-draw\n".encode())
    r = mjscore("batch", str(f), "--rules", "hangzhou")
    assert r.code == 1
    first, second = (json.loads(x) for x in r.out.splitlines())
    assert first["error"]["exit"] == 2 and "NUL byte" in first["error"]["message"]
    assert second["payments"]["E"] == 12


def test_a_folder_is_not_a_ruleset(tmp_path: Path) -> None:
    r = mjscore("score", HAND, "--rules", f"{tmp_path}/", "--self-draw")
    assert r.code == 2 and "it is a folder, not a file" in one_clean_line(r.err)
    r = mjscore("batch", str(tmp_path), "--rules", "hangzhou")
    assert r.code == 2 and "Is a directory" in one_clean_line(r.err)


def test_a_file_without_permission_is_bad_input(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = house("", tmp_path)
    path.chmod(0)
    if os.geteuid() != 0:  # a real refusal, in a real process
        r = mjscore("score", HAND, "--rules", str(path), "--self-draw")
        assert r.code == 2 and "Permission denied" in one_clean_line(r.err)
        return
    # root reads every file (CI runs as root): the refusal the kernel would give is raised
    # where the file is opened, and the command run in this process
    from tests.helpers.hostile import cli

    real_open = Path.open

    def refused(self: Path, *a: object, **k: object) -> object:
        if self.name == path.name:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", refused)
    r2 = cli("score", HAND, "--rules", str(path), "--self-draw")
    assert r2.code == 2 and "Permission denied" in one_clean_line(r2.err), r2.err


@pytest.mark.parametrize("args", [
    ("score", HAND, "--rules", "hangzhou", "--self-draw"),
    ("score", HAND, "--rules", "hangzhou", "--self-draw", "--json"),
    ("rules",), ("rules", "mcr", "--markdown"), ("rules", "hangzhou", "--yaml"),
    ("batch", "-", "--rules", "hangzhou"),
])
def test_a_full_disk_is_exit_74_in_one_line(args: tuple[str, ...]) -> None:
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "scorer", *args], stdout=full,
                           stderr=subprocess.PIPE, input=f"{HAND} --self-draw\n".encode(),
                           timeout=60, env={**os.environ, "MJSCORE_LANG": "en"})
    err = p.stderr.decode()
    if args[0] == "batch":  # the batch summary is written too: it is not about stdout
        err = "\n".join(x for x in err.splitlines() if not x.startswith("mjscore batch:"))
    assert p.returncode == 74
    assert one_clean_line(err) == "mjscore: cannot write the output: No space left on device"


def test_a_closed_stdout_is_141() -> None:
    p = subprocess.run(f"{sys.executable} -m scorer score {HAND} --rules hangzhou --self-draw "
                       ">&-", shell=True, capture_output=True, timeout=60)
    assert p.returncode == 141 and p.stderr == b""
    # the reader goes away after the first line (of 3 MB): 141, quietly
    lines = f"{HAND} --self-draw\n" * 2000
    p = subprocess.run(f"{sys.executable} -m scorer batch - --rules hangzhou | head -n 1 "
                       ">/dev/null; exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash",
                       input=lines.encode(), capture_output=True, timeout=120)
    assert p.returncode == 141 and p.stderr == b""


# ----------------------------------------------------------------------------- provenance
def test_json_says_where_the_ruleset_came_from(tmp_path: Path) -> None:
    from scorer.lines.pool import score_record

    built_in = score_record(f"{HAND} --self-draw", ["--rules", "hangzhou"])
    assert built_in["ruleset"] == "hangzhou" and built_in["source"] == "builtin"
    assert "path" not in built_in
    path = house("", tmp_path, "mine.yaml")
    mine = score_record(f"{HAND} --self-draw", ["--rules", str(path)])
    assert (mine["ruleset"], mine["source"], mine["path"]) == ("mine", "file", str(path))


def test_a_file_that_takes_a_built_in_id_says_so(tmp_path: Path) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text("extends: hangzhou\nid: hangzhou\npatterns:\n- {id: zimo, value: 5}\n",
                    encoding="utf-8")
    r = mjscore("score", HAND, "--rules", str(path), "--self-draw", "--lang", "zh")
    assert r.code == 0
    # the title folds at 80 columns around the long temporary path: read without the folds
    title = "".join(r.out.split())
    assert title.startswith(f"杭州麻将（hangzhou，取自{path}）—E胡"), r.out
    r = mjscore("score", HAND, "--rules", str(path), "--self-draw", "--json")
    data = json.loads(r.out)
    assert (data["ruleset"], data["source"], data["path"]) == ("hangzhou", "file", str(path))
    assert data["best"]["score"] == 5  # the file's 自摸 5, not the built-in's 1 ... or 2


# ----------------------------------------------------------------------------- escapes
def test_control_characters_from_a_file_reach_no_output_raw(tmp_path: Path) -> None:
    esc = "\\x1b]0;pwned\\x07\\x1b[31m\\u202e"  # YAML's escapes: ESC, BEL, a bidi override
    path = tmp_path / "esc.yaml"
    path.write_text(f'extends: hangzhou\nid: esc\nname: "E{esc}"\npatterns:\n'
                    f'- {{id: zimo, name: "Z{esc}", name_en: "z{esc}"}}\n', encoding="utf-8")
    for args in (("score", HAND, "--rules", str(path), "--self-draw"),
                 ("score", HAND, "--rules", str(path), "--self-draw", "--explain"),
                 ("rules", str(path))):
        r = mjscore(*args)
        assert r.code == 0, r.err
        assert "\x1b" not in r.out and "\x07" not in r.out and "\u202e" not in r.out
        assert "\\x1b]0;pwned\\x07" in r.out
    f = tmp_path / "lines.txt"
    f.write_bytes(f"{HAND} --self-draw --rules \x1b[2J\n".encode())
    r = mjscore("batch", str(f), "--rules", "hangzhou")
    assert r.code == 1 and "\x1b" not in r.err and "\\x1b[2J" in r.err


# ----------------------------------------------------------------------------- interrupts
@pytest.mark.parametrize("command", ["score", "waits", "rules"])
def test_ctrl_c_exits_130_with_one_line(command: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # typer turns Ctrl-C into a returned 130, which main dropped (exit 0)
    from scorer.cli import entry, rulescmd, waitscmd
    from scorer.engine import scoring

    def interrupted(*a: object, **k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scoring, "score", interrupted)
    monkeypatch.setattr(waitscmd, "run", interrupted)
    monkeypatch.setattr(rulescmd, "_rules_check", interrupted)
    args = {"score": ["score", HAND, "--rules", "hangzhou", "--self-draw"],
            "waits": ["waits", "123m456p789s234sP", "--rules", "hangzhou", "--self-draw"],
            "rules": ["rules", "check", "x.yaml"]}[command]
    for lang, said in (("en", f"interrupted (mjscore {command})"),
                       ("zh", f"已中断（mjscore {command}）")):
        with pytest.raises(SystemExit) as e:
            entry.main([*args, "--lang", lang])
        assert e.value.code == 130
        assert capsys.readouterr().err == f"mjscore: {said}\n"


def _batch_file(tmp_path: Path, n: int) -> Path:
    f = tmp_path / "many.txt"
    f.write_text("".join(f"{HAND} --self-draw --base {1 + i % 40}\n" for i in range(n)))
    return f


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


@contextlib.contextmanager
def started(*args: str) -> Iterator[subprocess.Popen[bytes]]:
    p = subprocess.Popen([sys.executable, "-m", "scorer", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        yield p
    finally:  # whatever happened, nothing the test started keeps running
        _kill_group(p.pid)
        p.wait(timeout=10)


def _wait_for_output(p: subprocess.Popen[bytes], children: int, limit: float = 60) -> None:
    """Until the batch has workers (if asked) and has scored a first line."""
    assert p.stdout is not None
    deadline = time.monotonic() + limit
    while len(_children(p.pid)) < children and time.monotonic() < deadline:
        time.sleep(0.05)
    # until the first output can be read (not reading it: communicate() reads the pipe)
    select.select([p.stdout.fileno()], [], [], max(deadline - time.monotonic(), 1))


@pytest.mark.parametrize(("jobs", "signals", "status", "word"), [
    ("1", [signal.SIGINT], 130, "interrupted"),
    ("2", [signal.SIGINT, signal.SIGINT], 130, "interrupted"),  # hung forever before
    ("2", [signal.SIGTERM], 143, "terminated"),  # orphaned both workers before
])
def test_batch_stops_on_signals(tmp_path: Path, jobs: str, signals: list[int], status: int,
                                word: str) -> None:
    f = _batch_file(tmp_path, 60_000)
    with started("batch", str(f), "--rules", "hangzhou", "--jobs", jobs, "--lang", "en") as p:
        _wait_for_output(p, children=int(jobs) if jobs != "1" else 0)
        workers = _children(p.pid)
        assert len(workers) == (0 if jobs == "1" else 2)
        for sig in signals:
            p.send_signal(sig)
            time.sleep(0.05)
        out, err = p.communicate(timeout=30)
    assert p.returncode == status
    text = out.decode()
    assert text.endswith("\n") or text == ""  # line-whole
    lines = text.splitlines()
    assert [json.loads(x)["line"] for x in lines] == list(range(1, len(lines) + 1))
    assert all(json.loads(x)["payments"]["E"] > 0 for x in lines)
    summary = one_clean_line(err.decode())
    assert summary.startswith(f"mjscore batch: {word} after {len(lines):,} lines, 0 failed")
    time.sleep(0.2)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()
                and "Z" not in Path(f"/proc/{w}/stat").read_text().split()[2]]


def test_a_pool_stopped_while_a_worker_sends_leaves_no_thread_behind() -> None:
    # A worker ended in the middle of sending a result leaves part of a message in the
    # result pipe; the pool's manager thread, reading it, waited for the rest for ever,
    # and the batch hung at exit (Python joins that thread): stop_pool must end it.
    import struct
    from concurrent.futures import ProcessPoolExecutor

    from scorer.lines.pool import _worker_init, pool_abandoned, stop_pool

    pool = ProcessPoolExecutor(max_workers=2, initializer=_worker_init)
    assert pool.submit(abs, -1).result(timeout=30) == 1  # the workers are up
    writer = pool._result_queue._writer  # type: ignore[attr-defined]
    manager = pool._executor_manager_thread  # type: ignore[attr-defined]
    try:
        # a worker (forked: same descriptor) writes a header for 1,000 bytes and 10 of them
        fd = writer.fileno()
        pool.submit(os.write, fd, struct.pack("!i", 1000) + b"x" * 10)
        time.sleep(0.5)  # the manager is now reading the rest of that message
        assert manager.is_alive()
        stop_pool(pool)
        assert not manager.is_alive()
        assert not pool_abandoned()
    finally:  # never leave pytest to hang at its exit on this thread
        with contextlib.suppress(Exception):
            writer.close()
        manager.join(timeout=5)


def test_batch_from_a_silent_stdin_is_interrupted(tmp_path: Path) -> None:
    p = subprocess.Popen([sys.executable, "-m", "scorer", "batch", "-", "--rules", "hangzhou",
                          "--lang", "en"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        assert p.stdin is not None
        p.stdin.write(f"{HAND} --self-draw\n".encode())
        p.stdin.flush()
        assert p.stdout is not None
        # scored and written at once (not held for a chunk or a buffer), then waiting
        ready, _, _ = select.select([p.stdout.fileno()], [], [], 30)
        assert ready, "no answer to the first line"
        first = p.stdout.readline()
        assert json.loads(first)["payments"]["E"] == 12
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        _kill_group(p.pid)
        p.wait(timeout=10)
    assert p.returncode == 130
    # (one line, in the singular)
    assert one_clean_line(err.decode()).startswith("mjscore batch: interrupted after 1 line, ")


# ----------------------------------------------------------------------------- batch input
def test_bom_and_crlf(tmp_path: Path) -> None:
    f = tmp_path / "win.txt"
    f.write_bytes(b"\xef\xbb\xbf" + f"{HAND} --self-draw\r\n{HAND} --self-draw\r\n".encode())
    r = mjscore("batch", str(f), "--rules", "hangzhou")
    assert r.code == 0, r.err
    assert [json.loads(x)["payments"]["E"] for x in r.out.splitlines()] == [12, 12]


def test_a_200_mb_line_is_an_error_of_its_line_in_bounded_memory() -> None:
    # a 200 MB line without a newline peaked at 428 MB: read and decoded whole
    def feed(w: io.BufferedWriter) -> None:
        w.write(f"{HAND} --self-draw\n".encode())
        block = b"1" * (1 << 20)
        for _ in range(200):
            w.write(block)
        w.write(f"\n{HAND} --self-draw".encode())  # and the line after it is scored

    r = mjscore("batch", "-", "--rules", "hangzhou", "--jobs", "2", stdin=feed)
    assert r.code == 1
    recs = [json.loads(x) for x in r.out.splitlines()]
    assert [x.get("line") for x in recs] == [1, 2, 3]
    assert recs[0]["payments"]["E"] == recs[2]["payments"]["E"] == 12
    assert recs[1]["error"]["message"] == (
        "position 4097: the line is 209,715,200 bytes long; at most 4096 characters")
    assert r.rss_kb < 120_000


def test_lines_may_carry_their_own_rules(tmp_path: Path) -> None:
    f = tmp_path / "own.txt"
    f.write_text(f"{HAND} --self-draw --rules hangzhou\n{HAND} --self-draw\n")
    r = mjscore("batch", str(f))
    assert r.code == 1
    first, second = (json.loads(x) for x in r.out.splitlines())
    assert first["payments"]["E"] == 12 and "--rules" in second["error"]["message"]


def test_cached_settlements_keep_no_readings_alive() -> None:
    # 1,000 lines of one hand with different --base / --piao peaked at 1.66 GB: each cached
    # settlement held its hand's environments, readings and all
    from scorer.lines.records import _ruleset, score_record
    from scorer.rules.plan import plan_of

    for i in range(30):
        rec = score_record(f"PPPP111222333m4m --self-draw --base {1 + i} --piao {i % 4}",
                           ["--rules", "hangzhou"])
        assert "error" not in rec
    # the ruleset the batch scored with (it keeps a built-in one for the process; the load
    # cache may have made a newer one since, after 64 other files in the suite)
    rs = _ruleset("hangzhou")
    assert not isinstance(rs, str)
    plan = plan_of(rs)
    cached = [s for inner in plan.settlements.values() for s in inner.values()]
    assert cached
    for s in cached:
        for share in s.shares:
            assert share.env.parent is None and "__reading__" not in share.env
            assert "__readings__" not in share.env


def test_a_cached_settlement_still_explains_its_payment() -> None:
    # the second hand takes the first one's settlement from the cache: its chain is whole
    from scorer.engine.scoring import score
    from scorer.lines.grammar import parse
    from scorer.views.pieces import payment_lines

    def scored(hand: str):  # type: ignore[no-untyped-def]
        args = parse([hand, "--rules", "hangzhou", "--self-draw", "--base", "3"])
        return score(args.hand, args.rules, args.context)

    first, again = scored(HAND), scored("123m456p789s234sP6m")
    assert payment_lines(first, lang="en") == payment_lines(again, lang="en") == [
        "base 3 × dealer factor 2 × fan 2 = 12 from each of S, W, N"]


# ----------------------------------------------------------------------------- flat memory
VARIED = "PPPP111222333m4m"  # four wildcards: hundreds of readings, each kept by the old cache


def _peak(tmp_path: Path, n: int, jobs: str, varied: int = 0) -> int:
    # the first `varied` lines are VARIED with as many different --base/--piao (each cached
    # settlement held its readings: 1,000 such lines peaked at 1.66 GB); then one line in 25
    # a hand, the rest comments
    f = tmp_path / f"flat{n}-{varied}.txt"
    with f.open("w") as out:
        for i in range(n):
            out.write(f"{VARIED} --self-draw --base {1 + i} --piao {i % 4}\n" if i < varied
                      else f"{HAND} --self-draw --base {1 + i % 97}\n" if i % 25 == 0
                      else "# a comment line\n")
    r = mjscore("batch", str(f), "--rules", "hangzhou", "--jobs", jobs, timeout=600)
    assert r.code == 0, r.err[-500:]
    return r.rss_kb


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_memory_is_flat(tmp_path: Path, jobs: str) -> None:
    # 200,000 lines against 1,000 (.ci/run keeps this step short; a million lines was
    # measured by hand, see docs/robustness.md): --jobs 1 read it all before (+50 MB)
    small = _peak(tmp_path, 1_000, jobs)
    big = _peak(tmp_path, 200_000, jobs)
    assert big < 1.2 * small, (small, big)


@pytest.mark.slow
def test_one_hand_under_a_thousand_bases_is_flat(tmp_path: Path) -> None:
    # the case: 1,000 lines of one four-wildcard hand, each with its own --base and
    # --piao (1.66 GB before: every cached settlement kept its readings), against 50 such
    # lines; both files 1,000 lines long. Measured 41.7 against 53.0 MB (x1.27): what stays
    # alive grows by 2.2 MB (tracemalloc: the bounded caches filling), the rest is the
    # allocator's fragmentation around them; hence 1.5 here, where the old cache was x30.
    # A long batch beyond the first thousand lines is held to 1.2 above.
    small = _peak(tmp_path, 1_000, "1", varied=50)
    big = _peak(tmp_path, 1_000, "1", varied=1_000)
    assert big < 1.5 * small, (small, big)


def _distinct_lines(n: int, seed: int = 7) -> list[str]:
    """``n`` distinct Hangzhou winning hands (0-2 财神 P), every line its own hand: a pair
    and four sets of random tiles, no tile more than four times."""
    import random

    rng = random.Random(seed)
    out: dict[str, None] = {}
    while len(out) < n:
        counts = [0] * 34
        tiles: list[int] = []
        for k in range(5):
            while True:
                t = rng.randrange(33)  # no 白板 P of its own: P is the wildcard
                kind = "pair" if k == 0 else rng.choice(["chow", "chow", "pung"])
                if kind == "chow" and (t >= 27 or t % 9 > 6):
                    continue
                group = [t, t] if kind == "pair" else [t] * 3 if kind == "pung" else \
                    [t, t + 1, t + 2]
                if all(counts[x] + group.count(x) <= 4 for x in group):
                    break
            for x in group:
                counts[x] += 1
            tiles += group
        rng.shuffle(tiles)
        names = [f"{x % 9 + 1}{'mps'[x // 9]}" if x < 27 else "ESWNCF"[x - 27] for x in tiles]
        for k in rng.sample(range(13), rng.randrange(3)):
            names[k] = "P"
        out["".join(names) + " --self-draw"] = None
    return list(out)


def _peak_of(tmp_path: Path, lines: list[str]) -> int:
    f = tmp_path / f"distinct{len(lines)}.txt"
    f.write_text("\n".join(lines) + "\n")
    r = mjscore("batch", str(f), "--rules", "hangzhou", "--jobs", "1", timeout=900)
    assert r.code in (0, 1), r.err[-500:]
    return r.rss_kb


@pytest.mark.slow
def test_a_batch_of_distinct_hands_stops_growing(tmp_path: Path) -> None:
    # every line a new hand, so every cache fills: the decompositions are bounded at about
    # what 1,000 distinct hands fill (at 2**16 entries they held 134 MiB at 100,000 lines),
    # the readings memo at 8,192 readings. Measured 29 / 37 / 39 MiB at 1,000 / 10,000 /
    # 100,000 lines: past the first thousand lines grow the memo and the allocator's
    # fragmentation, and by 10,000 lines it has nearly stopped. What is guarded is that
    # growth, in KiB: 30,872 -> 33,964 KiB from 10,000 to 30,000 lines, as 35,732 -> 38,928
    # before batch stopped importing typer (the Python objects held stay at 11.9 MB,
    # tracemalloc). As a ratio to the 10,000-line peak (it was < 1.1x) the bound tightened
    # by itself when the start got 4.7 MiB lighter; 3.5 MiB is what that ratio allowed then.
    lines = _distinct_lines(30_000)
    small, mid, big = (_peak_of(tmp_path, lines[:n]) for n in (1_000, 10_000, 30_000))
    assert big - mid < 3.5 * 1024, (small, mid, big)
    assert big < 1.5 * small, (small, mid, big)


# ----------------------------------------------------------------------------- CPU budget
def test_a_hostile_thread_beside_two_built_in_threads_stops_at_its_limit(tmp_path: Path) -> None:
    # beside two threads scoring built-in hands, a hostile user ruleset ran 24.5 s and
    # returned a score (one process-wide deadline); the case of one thread beside it, the
    # 400 loop-free patterns and the four legitimate threads are in tests/lang/test_budget.py
    from concurrent.futures import ThreadPoolExecutor

    from scorer.errors import EvaluationError, MjscoreError
    from scorer.rules.load import load_ruleset
    from tests.conftest import run_line
    from tests.lang.test_budget import SLOW, _variant

    hostile = _variant(tmp_path, SLOW)
    go = threading.Barrier(3)

    def bad() -> tuple[object, float]:
        load_ruleset(hostile)  # loaded first: the CPU counted is the hand's, not the YAML's
        go.wait()
        t0 = time.thread_time()
        try:
            got: object = run_line("PPPP123m456p789s1s --self-draw", hostile)
        except MjscoreError as e:
            got = e
        return got, time.thread_time() - t0

    def good() -> list[dict[str, int]]:
        go.wait()
        t0, paid = time.perf_counter(), []
        while time.perf_counter() - t0 < 0.8:  # keep scoring while the hostile one runs
            paid.append(run_line(f"{HAND} --self-draw", "hangzhou").payments)
        return paid

    with ThreadPoolExecutor(3) as pool:
        fb, fg = pool.submit(bad), [pool.submit(good) for _ in range(2)]
        err, cpu = fb.result(timeout=60)
        rounds = [f.result(timeout=60) for f in fg]
    assert isinstance(err, EvaluationError), err
    assert "ran for more than 0.4 s of CPU" in str(err)
    assert cpu < 0.4 + 0.3
    # README's worked hand: 自摸 番 2 × 庄闲分 2 = 4 from each of S, W, N
    assert all(r and all(p == {"E": 12, "S": -4, "W": -4, "N": -4} for p in r) for r in rounds)
