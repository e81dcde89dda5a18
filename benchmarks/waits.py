"""How long ``waits`` takes, by ruleset and number of wildcards in the hand.

    python benchmarks/waits.py [--repeat N]

For each hand: the time of one ``waits()`` call with the decomposition caches empty
(cold: what one ``mjscore waits`` pays, start-up aside) and with them filled (warm),
the median of N runs, and how many tiles complete the hand. Every way a tile can come
is scored (self-drawn and each other seat's discard), as the command does by default.
Hands: one tile short; the wildcard is 白板 P in Hangzhou, E in Jinhua and Xiamen
(so 白板 is Jinhua's stand-in), which hold at most 3.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from scorer.engine.context import Context
from scorer.engine.ready import waits
from scorer.memo import clear_all
from scorer.rules.load import load_ruleset
from scorer.rules.plan import plan_of

# (ruleset, flags, {wildcards: hand})
HANDS: list[tuple[str, Context, dict[int, str]]] = [
    ("hangzhou", Context(), {0: "123m456p789s2355p", 1: "123m456p789s234sP",
                             2: "123m456p789s23sPP", 3: "123m456p789s1sPPP",
                             4: "123m456p789sPPPP"}),
    ("jinhua", Context(wild="E"), {0: "123m456p789s2355p", 1: "123m456p789s234sE",
                                   2: "123m456p789s23sEE", 3: "123m456p789s1sEEE"}),
    ("xiamen", Context(wild="E"), {0: "123m456p789s123p2355s", 1: "123m456p789s123p234sE",
                                   2: "123m456p789s123p23sEE", 3: "123m456p789s123p1sEEE"}),
    ("mcr", Context(), {0: "1112345678999m"}),
    ("mcr-house", Context(), {0: "123m456p789s2355p"}),
]


def clear_caches() -> None:
    """Empty every memo the search and the scorer keep between hands."""
    clear_all()  # every named memo: the decompositions, the readings, ...
    # the per-ruleset caches are the plan's (settlements, outcomes, resolved contexts)
    for rid, _, _ in HANDS:
        plan = plan_of(load_ruleset(rid))
        plan.settlements.clear()
        plan.outcomes.clear()
        plan.tables.clear()


def timed(hand: str, rules: str, ctx: Context, cold: bool) -> tuple[float, int]:
    if cold:
        clear_caches()
    gc.collect()
    t0 = time.perf_counter()
    w = waits(hand, rules, ctx)
    return time.perf_counter() - t0, len(w.tiles)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'ruleset':<10} {'wild':>4} {'tiles':>5} {'cold ms':>8} {'warm ms':>8}  hand")
    worst = 0.0
    for rules, ctx, hands in HANDS:
        load_ruleset(rules)  # loading the YAML is start-up, not waits
        for n, hand in hands.items():
            cold = [timed(hand, rules, ctx, True) for _ in range(args.repeat)]
            warm = [timed(hand, rules, ctx, False) for _ in range(args.repeat)]
            c = statistics.median(t for t, _ in cold) * 1000
            w = statistics.median(t for t, _ in warm) * 1000
            worst = max(worst, c)
            print(f"{rules:<10} {n:>4} {cold[0][1]:>5} {c:>8.0f} {w:>8.0f}  {hand}")
    print(f"worst cold median: {worst:.0f} ms")


if __name__ == "__main__":
    main()
