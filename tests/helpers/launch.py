"""Start a measured child process through a small launcher, so its peak RSS is its own.

Linux keeps a process's memory high-water mark through ``exec`` (and a forked child
starts with its parent's pages), so a command started straight from a pytest process
grown by the suite is charged that process's size: 300 MB and more. The launcher is a
fresh, small Python process: it sets the limits, forks, execs the command, waits for it
and writes the command's own CPU seconds and peak RSS to a pipe.
"""

from __future__ import annotations

import os
import sys

LAUNCH = """
import os, resource, signal, sys
fd, cpu, mem = (int(a) for a in sys.argv[1:4])
pid = os.fork()
if pid == 0:
    os.close(fd)
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    if mem:
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    os.execv(sys.argv[4], sys.argv[4:])
_, status, ru = os.wait4(pid, 0)
os.write(fd, f"{ru.ru_utime + ru.ru_stime} {ru.ru_maxrss}".encode())
code = os.waitstatus_to_exitcode(status)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
"""


def launcher(command: list[str], *, cpu: int = 0, mem: int = 0) -> tuple[list[str], int, int]:
    """The argv that runs ``command`` (its first item a path) through the launcher, and the
    pipe (read end, write end) it reports on: pass the write end in ``pass_fds`` and close
    it after starting; read ``"CPU_SECONDS MAXRSS_KB"`` from the read end once it exits.

    Example: ``argv, r, w = launcher([sys.executable, "-m", "scorer", "--version"])``.
    """
    r, w = os.pipe()
    return [sys.executable, "-c", LAUNCH, str(w), str(cpu), str(mem), *command], r, w


def usage(r: int) -> tuple[float, int]:
    """(CPU seconds, peak RSS in KiB) the launcher wrote; (0, 0) if the child never ran."""
    with os.fdopen(r, "rb") as f:
        cpu, rss = (f.read().decode() or "0 0").split()
    return float(cpu), int(rss)
