"""scorer.serve.workers: the classes of work and the turns, against real worker processes.

The hostile client the server must survive sends heavy work (an uploaded ruleset's waits,
large files to compile) from the very address the table's phones use: light work must be
answered while it waits. Times are not asserted tightly (a shared 2-core machine): what is
asserted is the order (light answers come while the heavy work is still queued) and the
counts (never more heavy jobs running than the heavy lane holds).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scorer.serve.workers import HEAVY, LIGHT, Busy, Pool, _Job, _Queue, address_of, job_class

# A house file whose every pattern counts over each triple of tiles: with 财神 in the hand,
# waits scores every tile as the winning one, each hand under the 0.4 s budget: seconds
# of CPU in all (tests/serve/test_api.py's SLOW, smaller).
SLOW = "extends: hangzhou\nid: slow\npatterns:\n" + "".join(
    f"  - id: slow{i}\n    name: s{i}\n    name_en: s{i}\n"
    f"    when: \"count(1 for a in tiles for b in tiles for c in tiles if a == b) > {i}\"\n"
    "    value: 1\n" for i in range(8))
HEAVY_WAITS = ("post", "/api/waits", {"hand": "PPP123m456p789s1s", "flags": ["--rules", "slow.yaml"],
                                      "files": {"slow.yaml": SLOW}}, "en")
# examples/hangzhou.txt: 自摸 1 番, each idle player pays 1 × 2 × 1 = 2
NORMAL = ("post", "/api/score", {"hand": "123m456m789p234s55s",
                                 "flags": ["--rules", "hangzhou", "--self-draw"]}, "en")


@pytest.mark.parametrize(("job", "cls"), [
    (NORMAL, LIGHT),
    (HEAVY_WAITS, HEAVY),
    (("post", "/api/rules", {"name": "x.yaml", "text": "extends: mcr\n"}, "zh"), HEAVY),
    (("post", "/api/score", {"hand": "11m", "files": {}}, "zh"), LIGHT),  # no file carried
    (("post", "/api/score", None, "zh"), LIGHT),  # a wrong body: answered at once
    (("get", "/api/rules/mcr", "zh"), LIGHT),
    (("record", "11m --rules mcr", {}, "zh"), LIGHT),
    (("record", "11m --rules x.yaml", {"x.yaml": "extends: mcr\n"}, "zh"), HEAVY),
    (("round", "E hand 11m", "sichuan", {}, "zh"), LIGHT),
    (("round", "E hand 11m", "x.yaml", {"x.yaml": "extends: sichuan\n"}, "zh"), HEAVY),
    ((), LIGHT),
])
def test_a_job_is_heavy_when_it_carries_an_uploaded_file(job: tuple[Any, ...], cls: str) -> None:
    assert job_class(job) == cls


def test_turns_go_round_the_clients_and_caps_count_per_address() -> None:
    loop = asyncio.new_event_loop()
    try:
        q = _Queue()
        jobs = [_Job(c, ("get", str(i)), loop.create_future()) for i, c in
                enumerate(["10.0.0.1#aaaaaaaa", "10.0.0.1#aaaaaaaa", "10.0.0.1#bbbbbbbb", "10.0.0.2"])]
        for j in jobs:
            q.add(j)
        # two device ids behind one address: their jobs count together against its cap
        assert q.per_address == {"10.0.0.1": 3, "10.0.0.2": 1}
        order = [q.next(lambda c: True) for _ in range(4)]
        assert [j.job[1] for j in order if j] == ["0", "2", "3", "1"]  # one each, in turn
        assert q.next(lambda c: True) is None and q.per_address == {} and not q.turn
        assert address_of("10.0.0.1#aaaaaaaa") == "10.0.0.1"
    finally:
        loop.close()


def test_light_work_is_answered_while_heavy_work_of_the_same_client_waits() -> None:
    pool = Pool(size=2)
    most_heavy = [0]

    async def scenario() -> tuple[list[Any], int, list[tuple[int, Any]]]:
        watching = True

        async def watch() -> None:
            while watching:
                most_heavy[0] = max(most_heavy[0], pool.running()[HEAVY])
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch())
        # the same client (one address, no device id) sends three heavy jobs, then taps
        heavy = [asyncio.create_task(pool.run("127.0.0.1", HEAVY_WAITS)) for _ in range(3)]
        await asyncio.sleep(0.1)
        light = []
        for _ in range(4):
            status, out = await pool.run("127.0.0.1", NORMAL)
            light.append((status, out.get("payments")))
        waiting = sum(not h.done() for h in heavy)
        done = list(await asyncio.gather(*heavy))
        watching = False
        await watcher
        return light, waiting, done

    try:
        light, waiting, done = asyncio.run(scenario())
    finally:
        pool.close()
    assert light == [(200, {"E": 6, "S": -2, "W": -2, "N": -2})] * 4
    # the heavy jobs run one at a time (one worker is the light lane's): when the four
    # light answers were in, at least two heavy ones had not been answered yet
    assert waiting >= 2 and most_heavy[0] == 1
    # each answered: the waits, or stopped by the file's CPU budget (its expressions run
    # faster once the worker has seen the file): never a 500
    assert {status for status, _ in done} <= {200, 400} and len(done) == 3
    assert pool.ran == {LIGHT: 4, HEAVY: 3}


def test_heavy_work_waiting_is_capped_per_address() -> None:
    pool = Pool(size=2, queue={HEAVY: 2})

    async def scenario() -> list[Any]:
        tasks = [asyncio.create_task(pool.run(f"127.0.0.1#device{k:04d}", HEAVY_WAITS))
                 for k in range(4)]
        return list(await asyncio.gather(*tasks, return_exceptions=True))

    try:
        got = asyncio.run(scenario())
    finally:
        pool.close()
    # one runs, two wait; the fourth is refused at once, whatever device id it names
    refused = [g for g in got if isinstance(g, Busy)]
    assert len(refused) == 1 and (refused[0].code, refused[0].status) == ("serve.queue_full", 429)
    assert len([g for g in got if not isinstance(g, Busy) and g[0] in (200, 400)]) == 3


def test_a_worker_past_its_memory_limit_is_replaced_and_the_next_job_answered() -> None:
    """What a job left in a worker (an uploaded ruleset compiled) stays in no process for
    long: past ``rss_limit`` after its job, the worker leaves and a fresh one answers next."""
    pool = Pool(size=2, rss_limit=1)  # every worker is past 1 byte: each leaves after a job

    async def scenario() -> tuple[list[tuple[int, Any]], list[list[int]]]:
        answers, pids = [], []
        for _ in range(3):
            status, out = await pool.run("127.0.0.1", NORMAL)
            answers.append((status, out.get("payments")))
            pids.append(pool.pids())
        return answers, pids

    try:
        answers, pids = asyncio.run(scenario())
    finally:
        pool.close()
    assert answers == [(200, {"E": 6, "S": -2, "W": -2, "N": -2})] * 3
    # light jobs go to the first worker: three jobs, three processes, none kept after its job
    assert pool.replaced == 3 and pids == [[], [], []]


def test_a_worker_within_its_memory_limit_is_kept() -> None:
    pool = Pool(size=2)  # the default limit: a worker scoring the built-ins stays well below

    async def scenario() -> list[list[int]]:
        pids = []
        for _ in range(3):
            assert (await pool.run("127.0.0.1", NORMAL))[0] == 200
            pids.append(pool.pids())
        return pids

    try:
        pids = asyncio.run(scenario())
    finally:
        pool.close()
    assert pool.replaced == 0 and len(pids[0]) == 1 and pids == [pids[0]] * 3
