"""scorer.memo: a named memo's bound grows with the rulesets a process scores (make_room),
an unnamed one's does not. Checked in a fresh interpreter each: the rulesets met are the
process's (this one has met many)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def test_a_named_memo_makes_room_for_each_ruleset_met() -> None:
    got = _run("""
        from scorer.memo import ROOM_MAX, Memo, make_room
        named, unnamed = Memo(4, "test.named"), Memo(4)

        def held(m):  # entries kept after 30 distinct ones are put in the emptied memo
            m.clear()
            for k in range(30):
                m.put(k, k)
            return len(m)

        print(held(named), held(unnamed))
        make_room("mcr"); make_room("mcr")  # one ruleset: the bound as written
        print(held(named), held(unnamed))
        make_room("hangzhou")
        print(held(named), held(unnamed))
        for k in range(10):
            make_room(f"house{k}")
        print(held(named), held(unnamed), ROOM_MAX)
    """)
    # 30 entries in a memo of 4: emptied at the 5th, 9th, ..., 29th; two kept. With room
    # for two rulesets, 8 a round: emptied at the 9th, 17th, 25th, six kept; at most six
    # rulesets' room: 24, emptied at the 25th, six kept
    assert got.splitlines() == ["2 2", "2 2", "6 2", "6 2 6"]


def test_scoring_a_ruleset_makes_room_for_it() -> None:
    got = _run("""
        from scorer import score
        from scorer.memo import _ROOM
        from scorer.engine.context import Context
        score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
        a = _ROOM[0]
        score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
        score("123m456m789m234p99p", "sichuan", Context(self_draw=True))
        print(a, _ROOM[0])
    """)
    assert got == "1 2"
