"""Helpers for the hostile-input tests: run the CLI in-process or as the installed command.

``cli(argv)`` runs ``scorer.cli.entry.main`` in this process and captures what it prints (fast:
hundreds of cases in a second). ``run_limited(argv)`` runs the installed ``mjscore``
(or ``python -m scorer``) in a child process under a CPU-time and address-space limit
and reports the exit status, output, wall time, CPU time and peak memory.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from scorer.cli.entry import main
from tests.helpers.launch import launcher, usage

CPU_LIMIT = 5  # seconds: a runaway child is killed by the kernel (SIGXCPU)
MEM_LIMIT = 1 << 30  # bytes of address space for the child (a memory bomb fails inside it)
EXIT_CODES = {0, 1, 2, 3}  # documented; 70 is a bug, anything else a crash or a kill


@dataclass
class Run:
    code: int
    out: str
    err: str
    wall: float = 0.0
    cpu: float = 0.0
    rss_mb: float = 0.0

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def cli(*argv: str, stdin: str | None = None, fast: bool = True, lang: str = "en") -> Run:
    """Run ``mjscore ARGV`` in this process (its stdout/stderr captured); ``fast=False``
    sends a ``score`` line through typer (as scorer.cli.entry.main's own parameter does).
    In ``lang`` (by MJSCORE_LANG): the hostile suites read the English words;
    tests/text/test_every_code.py drives every error in both languages."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    old_lang = os.environ.get("MJSCORE_LANG")
    os.environ["MJSCORE_LANG"] = lang
    t0 = time.process_time()
    code = 0
    try:
        if stdin is not None:
            raw = stdin.encode("utf-8", "surrogateescape")  # "\udcff" stands for a byte 0xff
            sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(argv), fast=fast)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.stdin = old_stdin
        if old_lang is None:
            os.environ.pop("MJSCORE_LANG", None)
        else:
            os.environ["MJSCORE_LANG"] = old_lang
    return Run(code, out.getvalue(), err.getvalue(), cpu=time.process_time() - t0)


def mjscore_cmd() -> list[str]:
    exe = shutil.which("mjscore")
    return [exe] if exe else [sys.executable, "-m", "scorer"]


def run_limited(*argv: str, stdin: bytes | None = None, timeout: float = 30) -> Run:
    """Run the installed command under CPU and memory limits; measure its wall time, its
    own CPU time and peak RSS (from os.wait4)."""
    t0 = time.perf_counter()
    # through the launcher, which sets the limits: the child's peak RSS is then its own
    cmd, r_fd, w_fd = launcher([*mjscore_cmd(), *argv], cpu=CPU_LIMIT, mem=MEM_LIMIT)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, pass_fds=(w_fd,), start_new_session=True,
                         env={**os.environ, "MJSCORE_LANG": "en"})  # (as cli: English)
    os.close(w_fd)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    if stdin:
        with contextlib.suppress(BrokenPipeError):
            p.stdin.write(stdin)
    p.stdin.close()
    deadline = time.perf_counter() + timeout
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    os.set_blocking(p.stdout.fileno(), False)
    os.set_blocking(p.stderr.fileno(), False)
    status = None
    while True:
        for stream, chunks in ((p.stdout, out_chunks), (p.stderr, err_chunks)):
            data = stream.read()
            if data:
                chunks.append(data)
        pid, st, _ = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status = st
            break
        if time.perf_counter() > deadline:
            os.killpg(p.pid, signal.SIGKILL)  # the launcher and the command it started
            _, status, _ = os.wait4(p.pid, 0)
            break
        time.sleep(0.002)
    for stream, chunks in ((p.stdout, out_chunks), (p.stderr, err_chunks)):
        os.set_blocking(stream.fileno(), True)
        data = stream.read()
        if data:
            chunks.append(data)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    cpu, rss_kb = usage(r_fd)
    return Run(p.returncode, b"".join(out_chunks).decode("utf-8", "replace"),
               b"".join(err_chunks).decode("utf-8", "replace"), wall, cpu, rss_kb / 1024)


def check_one_line_error(r: Run, code: int, as_json: bool = False) -> str:
    """Assert the error contract; return the message (without 'mjscore: ').

    Exit status ``code``; exactly one line on stderr, starting 'mjscore: '; no traceback;
    nothing on stdout, or with ``as_json`` exactly one JSON line with the same message.
    """
    assert "Traceback" not in r.out + r.err, r.err
    assert r.code == code, (r.code, r.err)
    assert len(r.err_lines) == 1 and r.err.endswith("\n"), repr(r.err)
    assert r.err.startswith("mjscore: "), r.err
    msg = r.err[len("mjscore: "):-1]
    if as_json:
        lines = r.out.rstrip("\n").split("\n")  # (JSON lines end at "\n" only)
        assert len(lines) == 1, r.out
        doc = json.loads(lines[0])
        assert set(doc) >= {"error"} and doc["error"]["message"] in msg, doc
    else:
        assert r.out == "", r.out
    return msg
