"""mjscore benchmarks: one script, one machine, one run.

    python benchmarks/run.py [--hands N] [--seed S] [--quick]

For every built-in ruleset it prints: in-process hands/second on a fixed
seeded set of generated winning hands (by number of wildcards where the ruleset
has them), the worst single hand, `mjscore batch` throughput with 1 and N jobs,
and the cold start of one `mjscore score`. For MCR it also scores the same
hands with PyMahjongGB (C++) and, on the comparable no-wildcard hands, the
riichi `mahjong` package's HandCalculator, and prints the ratios.

Peers are benchmark-only extras (`pip install ".[bench]"`), never runtime
dependencies. Not part of the test suite: timings belong here, not in tests.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from gen import winning_hand  # noqa: E402

from scorer import Context, Hand, load_ruleset, parse_hand, score  # noqa: E402
from scorer.errors import MjscoreError  # noqa: E402
from scorer.rules.load import list_builtin  # noqa: E402
from scorer.search.decompose import _suit_parts, seven_pairs, standard  # noqa: E402


@dataclass
class Setup:
    """How to generate hands for a ruleset and which flags to score them with."""

    flags: list[str]
    sets: int = 4
    wild_face: int | None = None
    max_wilds: int = 0
    exclude: frozenset[int] = frozenset()
    seven_pairs: float = 0.1
    contexts: list[list[str]] = field(default_factory=lambda: [[]])


SETUPS: dict[str, Setup] = {
    "hangzhou": Setup(["--self-draw"], wild_face=33, max_wilds=4),
    # Jinhua: the wildcard is 5s; the 白板 P would stand in for 5s, so generated hands avoid P.
    "jinhua": Setup(["--self-draw", "--wild", "5s"], wild_face=22, max_wilds=3,
                    exclude=frozenset({33})),
    "xiamen": Setup(["--self-draw", "--wild", "5s"], sets=5, wild_face=22, max_wilds=3,
                    seven_pairs=0.0),
    "mcr": Setup([], contexts=[["--self-draw"], ["--from", "S"], ["--from", "N"],
                               ["--self-draw", "--seat", "S", "--round", "S"]]),
}


def context_from(flags: list[str]) -> Context:
    from scorer.cli.app import context_from_params, parse_score_args

    p = parse_score_args(["1m", "--rules", "x", *flags])
    return context_from_params(p)


def gen_lines(rid: str, n: int, seed: int) -> dict[int, list[str]]:
    """Seeded hand lines per number of wildcards."""
    st = SETUPS[rid]
    out: dict[int, list[str]] = {}
    for w in range(st.max_wilds + 1):
        rng = random.Random(seed * 100 + w)
        lines = []
        for i in range(n):
            h = winning_hand(rng, sets=st.sets, wilds=w, wild_face=st.wild_face or 33,
                             seven_pairs=st.seven_pairs, exclude=st.exclude)
            ctx = st.contexts[i % len(st.contexts)]
            lines.append(" ".join([h.text, *st.flags, *ctx]))
        out[w] = lines
    return out


def clear_caches() -> None:
    """Forget every decomposition: the next hands are scored from a cold start."""
    standard.cache_clear()
    seven_pairs.cache_clear()
    _suit_parts.cache_clear()


def time_in_process(rid: str, lines: list[str], cold: bool = True
                    ) -> tuple[float, float, float, str, int]:
    """(hands/s, median ms, worst ms, worst hand, errors): each hand scored once, in order,
    from its text (parsing included). With ``cold`` the caches are emptied first, so the
    figure includes filling them; without, it is the steady state of a long batch."""
    rs = load_ruleset(rid)
    jobs = []
    for line in lines:
        hand, *flags = line.split()
        jobs.append((hand, context_from(flags), line))
    if cold:
        clear_caches()
    times = []
    errors = 0
    for h, ctx, _ in jobs:
        t = time.perf_counter()
        try:
            score(h, rs, ctx)
        except MjscoreError:
            errors += 1
        times.append(time.perf_counter() - t)
    worst = max(range(len(times)), key=times.__getitem__)
    return (len(times) / sum(times), statistics.median(times) * 1e3, times[worst] * 1e3,
            jobs[worst][2], errors)


def mjscore_cmd() -> list[str]:
    exe = shutil.which("mjscore")
    return [exe] if exe else [sys.executable, "-m", "scorer"]


def time_batch(rid: str, lines: list[str], jobs: int) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        t = time.perf_counter()
        subprocess.run([*mjscore_cmd(), "batch", path, "--rules", rid, "--jobs", str(jobs)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return len(lines) / (time.perf_counter() - t)
    finally:
        os.unlink(path)


def cold_start(rid: str, line: str, runs: int = 7) -> float:
    hand, *flags = line.split()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([*mjscore_cmd(), "score", hand, "--rules", rid, *flags],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


# ----------------------------------------------------------------------------- MCR peers
GB_HONOR = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def gb_tile(t: int) -> str:
    if t >= 27:
        return GB_HONOR[t - 27]
    return "WBT"[t // 9] + str(t % 9 + 1)


def hand_and_context(line: str) -> tuple[Hand, Context]:
    """A benchmark line read the way mjscore reads it, for handing to a peer calculator."""
    hand_text, *flags = line.split()
    return parse_hand(hand_text), context_from(flags)


def to_gb(line: str) -> Callable[[], object] | None:
    """A closure calling PyMahjongGB on the same hand and context."""
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        return None
    h, ctx = hand_and_context(line)
    packs = []
    for m in h.melds:
        if len(m.tiles) == 4:
            packs.append(("GANG", gb_tile(m.tiles[0]), m.offer))
        elif m.tiles[0] == m.tiles[1]:
            packs.append(("PENG", gb_tile(m.tiles[0]), m.offer or 1))
        else:
            packs.append(("CHI", gb_tile(m.tiles[1]), m.offer or 1))
    kw = dict(pack=tuple(packs), hand=tuple(gb_tile(t) for t in h.concealed),
              winTile=gb_tile(h.winning), flowerCount=0, isSelfDrawn=ctx.self_draw,
              is4thTile=False, isAboutKong=False, isWallLast=False,
              seatWind="ESWN".index(ctx.seat), prevalentWind="ESWN".index(ctx.round))

    def run() -> object:
        try:
            return MahjongFanCalculator(**kw)
        except Exception as e:  # PyMahjongGB raises for hands it cannot score
            return e
    return run


RIICHI_HONOR = [1, 2, 3, 4, 7, 6, 5]  # E S W N C(chun) F(hatsu) P(haku) -> riichi honor index


def to_riichi(line: str) -> Callable[[], object] | None:
    """A closure calling the riichi HandCalculator on the same tiles (no wildcards)."""
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.meld import Meld
    except ImportError:
        return None
    h, ctx = hand_and_context(line)

    def kind34(t: int) -> int:
        if t >= 27:
            return 27 + RIICHI_HONOR[t - 27] - 1
        return {0: 0, 1: 9, 2: 18}[t // 9] + t % 9  # riichi: man 0-8, pin 9-17, sou 18-26

    used: dict[int, int] = {}

    def t136(t: int) -> int:
        k = kind34(t)
        n = used.get(k, 0)
        used[k] = n + 1
        return k * 4 + n

    melds = []
    all_tiles = []
    for m in h.melds:
        ts = [t136(t) for t in m.tiles]
        all_tiles += ts
        if len(ts) == 4:
            melds.append(Meld(Meld.KAN, ts, opened=m.offer != 0))
        elif m.tiles[0] == m.tiles[1]:
            melds.append(Meld(Meld.PON, ts))
        else:
            melds.append(Meld(Meld.CHI, ts))
    conc = [t136(t) for t in h.concealed]
    win = t136(h.winning)
    all_tiles += [*conc, win]
    calc = HandCalculator()
    cfg = HandConfig(is_tsumo=ctx.self_draw)

    def run() -> object:
        return calc.estimate_hand_value(all_tiles, win, melds=melds or None, config=cfg)
    return run


def time_calls(calls: list[Callable[[], object]]) -> float:
    t = time.perf_counter()
    for c in calls:
        c()
    return len(calls) / (time.perf_counter() - t)


# ----------------------------------------------------------------------------- main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per wildcard count")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--quick", action="store_true", help="fewer hands, no batch runs")
    args = ap.parse_args()
    n = 200 if args.quick else args.hands
    cores = os.cpu_count() or 1
    print(f"mjscore benchmarks — {n} hands per set, seed {args.seed}, {cores} cores, "
          f"Python {sys.version.split()[0]}")
    print("in-process: hands scored from their text, one core; 'cold' starts with empty "
          "caches, 'steady' is a second pass (a long batch)")
    for rid in list_builtin():
        if rid not in SETUPS:
            continue
        st = SETUPS[rid]
        sets = gen_lines(rid, n, args.seed)
        print(f"\n== {rid}")
        everything: list[str] = []
        for w, lines in sets.items():
            hps, med, worst, _worst_line, errors = time_in_process(rid, lines)
            steady = time_in_process(rid, lines, cold=False)[0]
            label = f"{w} wildcard{'s' if w != 1 else ''}" if st.max_wilds else "no wildcards"
            err = f", {errors} not scored (exit 2/3)" if errors else ""
            print(f"  in-process, {label:12s}: {hps:8,.0f} hands/s cold, {steady:8,.0f} steady; "
                  f"median {med:6.3f} ms  worst {worst:7.2f} ms{err}")
            everything += lines
        low = [x for w, ls in sets.items() if w <= 2 for x in ls]
        if st.max_wilds:
            hps, *_ = time_in_process(rid, low)
            steady = time_in_process(rid, low, cold=False)[0]
            print(f"  in-process, 0-2 wildcards mixed: {hps:,.0f} hands/s cold, "
                  f"{steady:,.0f} steady")
        # The slowest hands of the run, timed again on their own (cold caches, median of 3),
        # so a garbage-collector pause during the run is not taken for a slow hand.
        slow = sorted(everything, key=lambda x: time_in_process(rid, [x])[2])[-5:]
        timed = [(statistics.median(time_in_process(rid, [x])[2] for _ in range(3)), x)
                 for x in slow]
        worst_ms, worst = max(timed)
        print(f"  worst single hand: {worst_ms:.2f} ms  ({worst})")
        if not args.quick:
            b1 = time_batch(rid, everything, 1)
            bn = time_batch(rid, everything, cores)
            print(f"  batch: 1 job {b1:,.0f} lines/s, {cores} jobs {bn:,.0f} lines/s "
                  f"(×{bn / b1:.2f})")
        print(f"  cold start of one `mjscore score`: {cold_start(rid, sets[0][0]):.0f} ms "
              "(median of 7)")
        if rid == "mcr":
            lines = sets[0]
            ours = time_in_process(rid, lines)[0]
            ours_steady = time_in_process(rid, lines, cold=False)[0]
            gb = [c for c in (to_gb(x) for x in lines) if c]
            ri = [c for c in (to_riichi(x) for x in lines) if c]
            if gb:
                g = time_calls(gb)
                print(f"  PyMahjongGB on the same hands: {g:,.0f} hands/s — mjscore is "
                      f"{g / ours:.1f}× slower cold, {g / ours_steady:.1f}× steady "
                      "(target ≤ 10×)")
            else:
                print("  PyMahjongGB not installed (pip install '.[bench]')")
            if ri:
                r = time_calls(ri)
                print(f"  riichi mahjong HandCalculator on the same tiles: {r:,.0f} hands/s — "
                      f"ratio mjscore/riichi {ours / r:.2f} cold, {ours_steady / r:.2f} steady "
                      "(target ≥ 1.0)")
            else:
                print("  riichi `mahjong` not installed (pip install '.[bench]')")


if __name__ == "__main__":
    main()
