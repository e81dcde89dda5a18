"""Xiamen payments against an independent brute-force scorer (tests/helpers/xiamen_oracle.py).

Hands are generated from a fixed seed: five random sets and a pair, up to two of
them claimed (pungs may become exposed or concealed kongs), up to three tiles
replaced by golds, a random winning tile, seat, base, 连庄, flowers, --you,
--ready-at-deal and --heavenly. The oracle shares no code with the engine.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from scorer import Context, score
from scorer.errors import NotAWin
from scorer.model.hand import format_tiles
from tests.helpers.xiamen_oracle import oracle

GOLDS = (8, 17, 26, 4, 27, 31)  # 9m 9p 9s 5m E C


def _hand(rng: random.Random) -> tuple[Any, ...] | None:
    gold = rng.choice(GOLDS)
    groups: list[list[int]] = []
    for _ in range(5):
        if rng.random() < 0.45:
            s = rng.choice([t for t in range(27) if t % 9 <= 6])
            groups.append([s, s + 1, s + 2])
        else:
            groups.append([rng.randrange(34)] * 3)
    p = rng.randrange(34)
    groups.append([p, p])
    melds: list[tuple[tuple[int, ...], bool]] = []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        s = groups.pop(0)
        if gold in s:
            return None
        kong = len(set(s)) == 1 and rng.random() < 0.4
        melds.append((tuple([*s, s[0]] if kong else s), not kong or rng.random() < 0.5))
    conc = [t for g in groups for t in g]
    for i in rng.sample(range(len(conc)), rng.choice([0, 0, 1, 1, 2, 3])):
        conc[i] = gold
    total = Counter(conc)
    for m, _ in melds:
        total.update(m)
    if total[gold] > 3 or max(total.values()) > 4:
        return None
    rng.shuffle(conc)
    win = conc.pop()
    golds = conc.count(gold) + (win == gold)
    seat = rng.choice("ESWN")
    self_draw = golds > 0 or rng.random() < 0.5
    f: dict[str, Any] = {"seat": seat, "self_draw": self_draw}
    if rng.random() < 0.3:
        f["base"] = rng.choice([1, 5, 10])
    if rng.random() < 0.3:
        f["streak"] = rng.choice([1, 2])
    if rng.random() < 0.4:
        f["flowers"] = tuple(sorted(rng.sample(range(1, 9), rng.randint(1, 8))))
    if self_draw and rng.random() < 0.2:
        f["you"] = rng.choice([1, 2, 3])
    if self_draw and rng.random() < 0.15:
        f["ready"] = True
    if self_draw and not melds and rng.random() < 0.15 and (seat == "E" or golds == 3):
        f["heavenly"] = True
    if f.get("you") == 3 and rng.random() < 0.5:
        f["sanyou"] = 12
    return gold, melds, conc, win, f


def _cases(n: int, seed: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    out: list[tuple[Any, ...]] = []
    while len(out) < n:
        h = _hand(rng)
        if h is not None:
            out.append(h)
    return out


@pytest.mark.parametrize("case", _cases(150, 20261130), ids=lambda c: format_tiles(tuple(c[2])))
def test_against_oracle(case: tuple[Any, ...]) -> None:
    gold, melds, conc, win, f = case
    hand = ("".join(f"[{format_tiles(t)}{',1' if exp else ''}]" for t, exp in melds)
            + format_tiles(tuple(sorted(conc))) + format_tiles((win,)))
    want = oracle(melds, conc, win, gold, self_draw=f["self_draw"], seat=f["seat"],
                  base=f.get("base", 8), streak=f.get("streak", 0),
                  flowers=f.get("flowers", ()), you=f.get("you", 0),
                  heavenly=f.get("heavenly", False), ready=f.get("ready", False),
                  sanyou=f.get("sanyou", 16))
    discarder = None if f["self_draw"] else ("W" if f["seat"] == "S" else "S")
    ctx = Context(self_draw=f["self_draw"], discarder=discarder, seat=f["seat"],
                  wild=format_tiles((gold,)), base=f.get("base"),
                  dealer_streak=f.get("streak"), you=f.get("you"),
                  flowers="".join(map(str, f["flowers"])) + "f" if f.get("flowers") else None,
                  heavenly=f.get("heavenly", False), ready_at_deal=f.get("ready", False),
                  options=(("sanyou_multiplier", "12"),) if f.get("sanyou") else ())
    try:
        got: Any = score(hand, "xiamen", ctx).payments
    except NotAWin as e:
        check = e.params.get("check")  # the refusing check, by its id (not its words)
        got = ("no-youjin" if check == "you_shape" else
               "illegal" if check == "gold_discard" else "not-winning")
    assert got == want, f"{hand} {f}"
