"""The table's phones while one client misbehaves, all from one address: ``mjscore serve``
under load (not a test).

Starts ``mjscore serve`` (its tables in a temporary file), then for ``--seconds``, every
request from 127.0.0.1 and none naming a device (``X-Mjscore-Device``), so the server
cannot tell the phones from the misbehaving client by who they are, only by what they ask:

* 4 phones score plain hands under built-in rulesets, one request at a time each, as a
  player taps (a pause of 0.3 s between answers);
* the misbehaving client, at once: 40 connections opened and left silent (opened again
  as the server drops them); ``waits`` with a heavy uploaded ruleset, 3 loops at once
  (each request several seconds of CPU, stopped at the heavy class's CPU limit); and 16
  large house files (about 460 KiB each, all different and all valid: each compiles, and
  is kept) uploaded at once.

Prints the phones' answer times (median, 95th percentile, slowest) and statuses, what the
misbehaving client got, every 500 seen, and the server's memory (its process and its
workers, resident, sampled every 0.2 s: the highest sum). Run:
``python benchmarks/serve_load.py [--seconds 40]``.
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

ADDRESS = "127.0.0.1"
PHONE_HANDS = [
    ("123m456m789p234s55s", ["--rules", "hangzhou", "--self-draw"]),
    ("123m456p789s234sP9m", ["--rules", "hangzhou", "--self-draw", "--piao", "2", "--seat", "W"]),
    ("234567s234567p55m", ["--rules", "mcr", "--from", "N", "--seat", "S", "--flowers", "2"]),
    ("123m456m789m3m3m2mP4m", ["--rules", "jinhua", "--wild", "3m", "--from", "W"]),
]
# Each pattern counts over every triple of tiles; with 财神 in the hand a waits request
# scores every tile as the winning one, each under the 0.4 s a hand may take: about 5 s
# of CPU a request, stopped at the heavy class's limit.
HEAVY = "extends: hangzhou\nid: slow\npatterns:\n" + "".join(
    f"  - id: slow{i}\n    name: s{i}\n    name_en: s{i}\n"
    f"    when: \"count(1 for a in tiles for b in tiles for c in tiles if a == b) > {i}\"\n"
    "    value: 1\n" for i in range(12))


def large(i: int) -> str:
    """A large valid house file (about 460 KiB, different each time): 900 patterns of five
    terms each, no two expressions alike, so nothing is shared when it compiles."""
    pats = []
    for k in range(900):
        terms = " or ".join(
            f"(count(1 for t in tiles if t.number == {(k + j) % 9 + 1}) >= {(k + j) % 4 + 1} "
            f"and self_draw and len(tiles) != {100000 * (i + 1) + k * 5 + j})" for j in range(5))
        pats.append(f"  - id: p{i}_{k}\n    name: 番{k}\n    name_en: p{k}\n"
                    f"    when: \"{terms}\"\n    value: {k % 7 + 1}\n")
    return f"extends: mcr\nid: big{i}\npatterns:\n" + "".join(pats)


def post(port: int, path: str, body: object, timeout: float = 120) -> int:
    """POST ``body`` from :data:`ADDRESS` on a connection of its own; the status (-1: no
    answer: refused, reset or timed out)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(ADDRESS, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        res = conn.getresponse()
        res.read()
        return res.status
    except OSError:
        return -1
    finally:
        conn.close()


def rss_of(pid: int) -> tuple[int, int]:
    """Resident bytes of ``pid`` and of its children (its workers), summed."""
    pids = []
    with contextlib.suppress(OSError):  # the workers are children of the thread that started them
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                pids += [int(k) for k in f.read().split()]
    own = workers = 0
    for p in [pid, *pids]:
        with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{p}/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            if p == pid:
                own = rss
            else:
                workers += rss
    return own, workers


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
    texts = [large(i) for i in range(16)]
    for i, t in enumerate(texts):  # valid and new: the server must compile each
        assert 400_000 < len(t.encode()) < 512 * 1024 and f"id: big{i}" in t
    base = sum(rss_of(proc.pid))
    stop = time.monotonic() + args.seconds
    times: list[float] = []
    statuses: Counter[int] = Counter()
    bad: Counter[str] = Counter()
    peak = [0, 0, 0]  # the sum, the server's own, its workers'

    def phone(n: int) -> None:
        i = 0
        while time.monotonic() < stop:
            hand, flags = PHONE_HANDS[(n + i) % len(PHONE_HANDS)]
            t0 = time.monotonic()
            status = post(port, "/api/score", {"hand": hand, "flags": flags})
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
                    socks.append(socket.create_connection(("127.0.0.1", port), 5, (ADDRESS, 0)))
                    bad["silent opened"] += 1
                except OSError:
                    bad["silent refused"] += 1
                    break
            time.sleep(0.5)
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
            bad[f"waits {post(port, '/api/waits', body)}"] += 1

    def upload(i: int) -> None:
        bad[f"upload {post(port, '/api/rules', {'name': f'big{i}.yaml', 'text': texts[i]})}"] += 1

    def memory() -> None:
        while time.monotonic() < stop + 1:
            own, workers = rss_of(proc.pid)
            peak[:] = [max(peak[0], own + workers), max(peak[1], own), max(peak[2], workers)]
            time.sleep(0.2)

    threads = [threading.Thread(target=f, daemon=True) for f in (silent, memory)]
    threads += [threading.Thread(target=heavy_waits, daemon=True) for _ in range(3)]
    threads += [threading.Thread(target=upload, args=(i,), daemon=True) for i in range(16)]
    threads += [threading.Thread(target=phone, args=(n,), daemon=True) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.seconds + 200)
    proc.terminate()
    proc.wait(30)
    times.sort()
    print(f"phones (127.0.0.1): {len(times)} answers in {args.seconds:g} s, statuses "
          f"{dict(statuses)}")
    print(f"  median {statistics.median(times) * 1000:.0f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms")
    print(f"misbehaving client (127.0.0.1): {dict(sorted(bad.items()))}")
    fives = statuses[500] + sum(n for k, n in bad.items() if k.endswith(" 500"))
    print(f"answers 500: {fives}")
    print(f"server memory (process and workers, resident): {base / 2**20:.0f} MiB at rest, "
          f"{peak[0] / 2**20:.0f} MiB at most (the server's own process at most "
          f"{peak[1] / 2**20:.0f}, its workers together {peak[2] / 2**20:.0f})")
    print(f"load average after: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores, shared)")


if __name__ == "__main__":
    main()
