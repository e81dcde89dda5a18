"""The table's phones while one client misbehaves: ``mjscore serve`` under load (not a test).

Starts ``mjscore serve`` (its tables in a temporary file), then for ``--seconds``:

* 4 phones (127.0.0.1 … 127.0.0.4, each a device of its own) score plain hands in turn,
  one request at a time, as a player taps;
* one client misbehaves at once: 40 connections opened and left silent (opened again as
  the server drops them), ``waits`` with a heavy uploaded ruleset in a loop, and 16 large
  uploaded files (about 400 KiB each, all different) to compile. Its silent connections
  come from 127.0.0.9 and its heavy requests from 127.0.0.10: from one address the
  connection cap would refuse the heavy requests at the door, and they must reach the
  workers for the figure to mean anything.

Prints the phones' answer times (median, 95th percentile, slowest), their statuses, what
the misbehaving client got, and the server's memory (its process and its workers,
resident, sampled every 0.2 s: the highest sum). Run: ``python benchmarks/serve_load.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

PHONE_HANDS = [
    ("123m456m789p234s55s", ["--rules", "hangzhou", "--self-draw"]),
    ("123m456p789s234sP9m", ["--rules", "hangzhou", "--self-draw", "--piao", "2", "--seat", "W"]),
    ("234567s234567p55m", ["--rules", "mcr", "--from", "N", "--seat", "S", "--flowers", "2"]),
    ("123m456m789m3m3m2mP4m", ["--rules", "jinhua", "--wild", "3m", "--from", "W"]),
]
HEAVY = "extends: hangzhou\nid: slow\npatterns:\n" + "".join(
    f"  - id: slow{i}\n    name: s{i}\n    name_en: s{i}\n"
    f"    when: \"count(1 for a in tiles for b in tiles for c in tiles if a == b) > {i}\"\n"
    "    value: 1\n" for i in range(60))


def large(i: int) -> str:
    """A large house file (about 400 KiB, different each time): many patterns to compile."""
    return f"extends: mcr\nid: big{i}\npatterns:\n" + "".join(
        f"  - id: p{i}_{k}\n    name: 番{k}\n    name_en: p{k}\n"
        f"    when: \"count(1 for t in tiles if t.number == {k % 9 + 1}) >= {k % 4 + 1} "
        f"and self_draw\"\n    value: {k % 7 + 1}\n" for k in range(2600))


def post(port: int, path: str, body: object, source: str, timeout: float = 120) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        res = conn.getresponse()
        res.read()
        return res.status
    except OSError:
        return -1
    finally:
        conn.close()


def rss_of(pid: int) -> int:
    """Resident bytes of ``pid`` and its children."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):  # the workers are children of the thread that started them
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                pids += [int(k) for k in f.read().split()]
    for p in pids:
        with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{p}/statm") as f:
            total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=40)
    args = ap.parse_args()
    db = os.path.join(tempfile.mkdtemp(), "tables.sqlite3")
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "serve", "--port", "0", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    m = re.search(r":(\d+)/", proc.stdout.readline())
    assert m, "mjscore serve printed no address"
    port = int(m.group(1))
    time.sleep(2)  # the workers start
    stop = time.monotonic() + args.seconds
    times: list[float] = []
    statuses: Counter[int] = Counter()
    bad: Counter[str] = Counter()
    peak = [0]

    def phone(n: int) -> None:
        i = 0
        while time.monotonic() < stop:
            hand, flags = PHONE_HANDS[(n + i) % len(PHONE_HANDS)]
            t0 = time.monotonic()
            status = post(port, "/api/score", {"hand": hand, "flags": flags}, f"127.0.0.{n + 1}")
            times.append(time.monotonic() - t0)
            statuses[status] += 1
            i += 1
            time.sleep(0.3)  # a player looks at the answer before the next tap

    def silent() -> None:
        socks: list[socket.socket] = []
        while time.monotonic() < stop:
            socks = [s for s in socks if s.fileno() >= 0]
            while len(socks) < 40:
                try:
                    s = socket.create_connection(("127.0.0.1", port), 5, ("127.0.0.9", 0))
                    socks.append(s)
                except OSError:
                    bad["silent refused"] += 1
                    break
            time.sleep(1)
            for s in list(socks):  # dropped by the server: open another
                s.setblocking(False)
                try:
                    if s.recv(1) == b"":
                        s.close()
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
        for s in socks:
            s.close()

    def heavy_waits() -> None:
        body = {"hand": "PPP123m456p789s1s", "flags": ["--rules", "slow.yaml"],
                "files": {"slow.yaml": HEAVY}}
        while time.monotonic() < stop:
            bad[f"waits {post(port, '/api/waits', body, '127.0.0.10')}"] += 1

    def uploads() -> None:
        for i in range(16):
            if time.monotonic() >= stop:
                break
            status = post(port, "/api/rules", {"name": f"big{i}.yaml", "text": large(i)}, "127.0.0.10")
            bad[f"upload {status}"] += 1

    def memory() -> None:
        while time.monotonic() < stop + 1:
            peak[0] = max(peak[0], rss_of(proc.pid))
            time.sleep(0.2)

    threads = [threading.Thread(target=f, daemon=True) for f in (silent, heavy_waits, uploads, memory)]
    threads += [threading.Thread(target=phone, args=(n,), daemon=True) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.seconds + 200)
    proc.terminate()
    proc.wait(30)
    times.sort()
    print(f"phones: {len(times)} answers in {args.seconds:g} s, statuses {dict(statuses)}")
    print(f"  median {statistics.median(times) * 1000:.0f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms")
    print(f"misbehaving client: {dict(bad)}")
    print(f"server memory (process and workers, resident), highest: {peak[0] / 2**20:.0f} MiB")
    print(f"load average after: {os.getloadavg()[0]:.2f} (2 cores, shared)")


if __name__ == "__main__":
    main()
