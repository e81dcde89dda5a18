"""The README's "Your table's rules in five minutes" works as written.

The section is replayed in an empty folder, as a newcomer would: each ``<!-- tutorial:
append to FILE -->`` / ``<!-- tutorial: write FILE -->`` comment is followed by a YAML
block that is added to / written as FILE (the newcomer's editor), and each ``$ command``
in a ``console`` block is run with the installed ``mjscore``; its output must be the
lines shown under it, and its exit status 0 (or the one an ``<!-- tutorial: exit N -->``
comment before the block says).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SECTION = "## Your table's rules in five minutes"


def _section() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end > 0 else None].split("\n")


def _mjscore() -> list[str]:
    script = Path(sys.executable).parent / "mjscore"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "scorer"]


def _steps() -> list[tuple[str, object]]:
    """('write'|'append', (file, text)) and ('run', (argv, expected lines, exit status))."""
    lines = _section()
    steps: list[tuple[str, object]] = []
    i = 0
    pending_file: tuple[str, str] | None = None
    exit_status = 0
    while i < len(lines):
        line = lines[i]
        m = re.fullmatch(r"<!-- tutorial: (append to|write) (\S+) -->", line)
        if m:
            pending_file = ("append" if m.group(1) == "append to" else "write", m.group(2))
        m = re.fullmatch(r"<!-- tutorial: exit (\d+) -->", line)
        if m:
            exit_status = int(m.group(1))
        if line.startswith("```"):
            lang = line[3:].strip()
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1:j]
            if lang == "yaml" and pending_file:
                steps.append((pending_file[0], (pending_file[1], "\n".join(body) + "\n")))
                pending_file = None
            elif lang == "console":
                k = 0
                while k < len(body):
                    assert body[k].startswith("$ "), f"not a command: {body[k]}"
                    argv = shlex.split(body[k][2:])
                    k += 1
                    out = []
                    while k < len(body) and not body[k].startswith("$ "):
                        out.append(body[k])
                        k += 1
                    steps.append(("run", (argv, out, exit_status)))
                exit_status = 0
            i = j
        i += 1
    return steps


def test_tutorial_has_the_steps_a_newcomer_needs() -> None:
    steps = _steps()
    commands = [" ".join(s[1][0][:3]) for s in steps if s[0] == "run"]  # type: ignore[index]
    assert commands[0] == "mjscore rules new"
    assert "mjscore rules check" in commands and "mjscore score 123m456p789s234sP9m" in commands
    assert any(s[0] == "append" for s in steps)


def test_tutorial_commands_work_as_shown(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    for kind, payload in _steps():
        if kind in ("write", "append"):
            name, text = payload  # type: ignore[misc]
            path = tmp_path / name
            if kind == "append":
                with path.open("a", encoding="utf-8") as fh:
                    fh.write("\n" + text)
            else:
                path.write_text(text, encoding="utf-8")
            continue
        argv, expected, status = payload  # type: ignore[misc]
        assert argv[0] == "mjscore"
        proc = subprocess.run([*_mjscore(), *argv[1:]], cwd=tmp_path, capture_output=True,
                              text=True, encoding="utf-8", env=env, timeout=60)
        shown = " ".join(argv)
        assert proc.returncode == status, f"$ {shown}\n{proc.stdout}{proc.stderr}"
        got = [line.rstrip() for line in proc.stdout.rstrip("\n").split("\n")]
        assert got == [line.rstrip() for line in expected], f"$ {shown}\n{proc.stderr}"
