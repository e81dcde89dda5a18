"""A batch on a full disk ends its output on a whole record and says how many lines it holds.

It used to exit 74 leaving 62-85 whole records and a cut fragment of the next, so a JSONL
reader failed on the last line, and nothing said how many lines had made it. The output
is written a block of whole records at a time (scorer.cli.sink); a write the disk cuts
short is taken back to the end of the last whole record.

Two ways: a real small file system (a 64 KiB tmpfs mounted in a private user and mount
namespace with ``unshare -rm``, where the system allows it: skipped otherwise), and the
disk faked at the write call (always run): a regular file, a file opened for appending,
and a pipe.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scorer.cli import batchrun, sink

HAND = "123m456p789s234sP9m --rules hangzhou --self-draw"  # README's worked hand: 自摸 番 2
LINES = 1500  # 630 KB of JSON lines, 150 KB of CSV: more than the small disk holds
SUMMARY = "mjscore batch: stopped after "


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    # these read the English words (the Chinese: tests/cli/test_foreign.py)
    monkeypatch.setenv("MJSCORE_LANG", "en")


def _can_mount() -> bool:
    if shutil.which("unshare") is None:
        return False
    p = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                       capture_output=True, timeout=30)
    return p.returncode == 0


CAN_MOUNT = _can_mount()


def _on_small_disk(tmp_path: Path, redirect: str, *args: str, stdin: Path | None = None,
                   before: str = "") -> tuple[int, bytes, str]:
    """Run ``mjscore batch ARGS {redirect} DISK/out`` with a 64 KiB tmpfs at DISK (a private
    mount: gone with the namespace, so the output is copied out first); return the exit
    status, the output's bytes and stderr."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = ('d="$1"; py="$2"; i="$3"; o="$4"; shift 4; '
              'mount -t tmpfs -o size=64k tmpfs "$d" || exit 99; ' + before +
              f'"$py" -m scorer batch "$@" {redirect} "$d/out" < "$i"; echo $? > "$o/status"; '
              'cp "$d/out" "$o/out"')
    argv = ["unshare", "-rm", "sh", "-c", script, "sh", str(disk), sys.executable,
            str(stdin or os.devnull), str(tmp_path), *args]
    env = {**os.environ, "MJSCORE_NO_CACHE": "1"}
    p = subprocess.run(argv, capture_output=True, timeout=300, env=env)
    assert p.returncode == 0, p.stderr
    return (int((tmp_path / "status").read_text()), (tmp_path / "out").read_bytes(),
            p.stderr.decode())


def _hands(tmp_path: Path, n: int = LINES) -> Path:
    f = tmp_path / "many.txt"
    f.write_text(f"{HAND}\n" * n, encoding="utf-8")
    return f


def _told(err: str) -> int:
    """The error line and the summary; returns how many lines the summary says are held."""
    lines = err.splitlines()
    assert lines[0] == "mjscore: cannot write the output: No space left on device", err
    assert len(lines) == 2 and lines[1].startswith(SUMMARY), err
    assert "each whole" in lines[1], err
    return int(lines[1][len(SUMMARY):].split()[0].replace(",", ""))


@pytest.mark.skipif(not CAN_MOUNT, reason="no user and mount namespaces here (unshare -rm)")
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_batch_that_fills_a_real_disk_ends_on_a_whole_record(tmp_path: Path,
                                                               fmt: str) -> None:
    code, out, err = _on_small_disk(tmp_path, ">", str(_hands(tmp_path)), "--format", fmt)
    assert code == 74, err
    held = _told(err)
    assert 0 < held < LINES and len(out) <= 64 * 1024
    assert out.endswith(b"\n")
    text = out.decode("utf-8")  # (a cut multi-byte character would fail here too)
    if fmt == "jsonl":
        records = [json.loads(line) for line in text.splitlines()]  # every line parses
        assert [r["line"] for r in records] == list(range(1, held + 1))
    else:
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][:3] == ["line", "hand", "ruleset"]
        assert all(len(r) == len(rows[0]) for r in rows)
        assert [int(r[0]) for r in rows[1:]] == list(range(1, held + 1))


@pytest.mark.skipif(not CAN_MOUNT, reason="no user and mount namespaces here (unshare -rm)")
def test_appending_to_a_file_on_a_full_disk_keeps_what_was_there(tmp_path: Path) -> None:
    before = '{"kept": true}\n'
    code, out, err = _on_small_disk(tmp_path, ">>", "-", stdin=_hands(tmp_path),
                                    before=f"printf '%s\\n' '{before.strip()}' > \"$d/out\"; ")
    assert code == 74, err
    held = _told(err)
    lines = out.decode("utf-8").splitlines()
    assert lines[0] == before.strip()
    assert [json.loads(x)["line"] for x in lines[1:]] == list(range(1, held + 1))


# ----------------------------------------------------------------- the disk faked at os.write
class FakeDisk:
    """``os.write`` on a disk with ``room`` bytes left: a write gets what fits (a short
    write), the next one ENOSPC, as the kernel does; other descriptors are written as usual."""

    def __init__(self, fd: int, room: int) -> None:
        self.fd, self.room = fd, room
        self.real = os.write

    def __call__(self, fd: int, data: bytes | memoryview) -> int:
        if fd != self.fd:
            return self.real(fd, data)
        if self.room == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = self.real(fd, bytes(data[:self.room]))
        self.room -= n
        return n


def _run_faked(monkeypatch: pytest.MonkeyPatch, out: io.TextIOWrapper, room: int, n: int,
               fmt: str = "jsonl") -> tuple[int, str]:
    monkeypatch.setattr(sink.os, "write", FakeDisk(out.fileno(), room))
    err = io.StringIO()
    code = batchrun.run("-", [], fmt=fmt, lang="en", out=out, err=err)  # (stdin: replaced below)
    return code, err.getvalue()


@pytest.fixture
def hands_on_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (f"{HAND}\n" * 120).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("room", [0, 1, 700, 5000, 20000])
def test_a_faked_full_disk_is_cut_back_to_the_last_whole_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hands_on_stdin: None,
        room: int) -> None:
    path = tmp_path / "out.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        code, err = _run_faked(monkeypatch, out, room, 120)
    assert code == 74
    held = _told(err)
    data = path.read_bytes()
    assert len(data) <= room
    assert [json.loads(x)["line"] for x in data.decode().splitlines()] == \
        list(range(1, held + 1))
    # what fitted, to the end of its last whole record (a record is about 420 bytes)
    one = len(data) // held if held else 0
    assert room - len(data) < max(one, 1000)


def test_a_faked_full_disk_when_appending(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          hands_on_stdin: None) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text('{"kept": true}\n', encoding="utf-8")
    with open(path, "a", encoding="utf-8") as out:
        code, err = _run_faked(monkeypatch, out, 3000, 120)
    assert code == 74
    held = _told(err)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == '{"kept": true}' and len(lines) == held + 1
    assert [json.loads(x)["line"] for x in lines[1:]] == list(range(1, held + 1))


def test_a_pipe_whose_device_is_full_gets_only_whole_records(
        monkeypatch: pytest.MonkeyPatch, hands_on_stdin: None) -> None:
    # on a pipe or a device a failed write takes nothing (ENOSPC from /dev/full, EIO): the
    # reader has whole records, as many as the summary says
    r, w = os.pipe()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(os.fdopen(r, "rb").read()),
                              daemon=True)
    reader.start()
    out = os.fdopen(w, "w", encoding="utf-8")
    real = os.write
    writes = []

    def fails_second(fd: int, data: bytes | memoryview) -> int:
        if fd == w:
            writes.append(len(data))
            if len(writes) > 1:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(fd, data)

    monkeypatch.setattr(sink.os, "write", fails_second)
    monkeypatch.setattr(sink, "BLOCK", 2000)  # several blocks for 120 records
    err = io.StringIO()
    try:
        code = batchrun.run("-", [], lang="en", out=out, err=err)
    finally:
        out.close()  # (the reader's end of the pipe sees its end)
    reader.join(10)
    assert code == 74
    lines = err.getvalue().splitlines()
    assert lines[0] == "mjscore: cannot write the output: Input/output error"
    held = int(lines[1][len(SUMMARY):].split()[0])
    records = [json.loads(x) for x in got[0].decode().splitlines()]
    assert len(records) == held > 0 and records[-1]["line"] == held
