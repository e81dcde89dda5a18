"""A trusted (built-in) ruleset scores without looking at the CPU clock at all: reading
it is a system call, and with no budget in force there is nothing to compare it with
(scorer.lang.budget). An untrusted file's expressions are still metered."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scorer import Context, load_ruleset, score
from scorer.engine.ready import waits


@pytest.fixture
def clock_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []

    def counting(name: str, real: Callable[[], float]) -> Callable[[], float]:
        def clock() -> float:
            calls.append(name)
            return real()
        return clock
    for name in ("thread_time", "process_time"):
        monkeypatch.setattr(time, name, counting(name, getattr(time, name)))
    return calls


# README's worked hands, and each one tile short (the winning tile left out) for waits
HANDS = [("hangzhou", "123m456p789s234sP", "9m", Context(self_draw=True, piao=2, seat="W")),
         ("mcr", "234567s234567p5m", "5m", Context(discarder="N", seat="S")),
         ("jinhua", "123m456m789m3m3m2mP", "4m", Context(wild="3m", discarder="W")),
         ("xiamen", "[CCC,1][EEEE,2]123m456pNNN9s", "5s", Context(wild="9s", self_draw=True))]


@pytest.mark.parametrize(("rid", "short", "win", "ctx"), HANDS)
def test_built_in_rulesets_never_read_the_clock(clock_calls: list[str], rid: str, short: str,
                                                win: str, ctx: Context) -> None:
    rs = load_ruleset(rid)
    assert rs.trusted
    clock_calls.clear()
    assert score(short + win, rs, ctx).payments  # scored
    assert waits(short, rs, ctx).tiles  # and waits answered
    assert clock_calls == []


def test_a_user_file_is_metered(clock_calls: list[str], tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: hangzhou\nid: house\n", encoding="utf-8")
    rs = load_ruleset(str(house))
    assert not rs.trusted
    clock_calls.clear()
    score("123m456p789s234sP9m", rs, Context(self_draw=True, piao=2, seat="W"))
    assert "thread_time" in clock_calls  # the budget starts from this thread's CPU time
