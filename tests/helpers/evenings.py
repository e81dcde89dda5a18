"""Long evenings: hand files of any length whose seating changes often, with bad lines,
a bad seating line, penalties and adjustments among the hands, for the tests that total
such a file in blocks (tests/lines/test_blocks.py, tests/lines/test_dask.py).

Every line is one that ``mjscore batch`` reads; the expected totals are batch's own, so
nothing here computes a result.
"""

from __future__ import annotations

from pathlib import Path

# One round of the table, 21 lines: four seatings (by '# players:' lines), a line with its
# own --players, a mistyped hand, a seating line that does not read (its seating is kept),
# a penalty (MCR's 10 to each other player) and an adjustment.
ROUND = """\
# players: E=Ann,S=Bo,W=Cy,N=Di
123m456p789s234sP9m --self-draw --rules hangzhou
123m456m789p234s55s --self-draw --rules hangzhou
# players: E=Bo,S=Cy,W=Di,N=Ann
123m456p789s234sP9m --self-draw --seat S --rules hangzhou
123m5p8 --self-draw --rules hangzhou
234567s234567p55m --rules mcr --from N --seat S --flowers 2
penalty W --rules mcr

# players: Cy,Di,Ann,Bo
1111m3333m55m22p44p --rules sichuan --from S --seat W
123m456m789p234s55s --self-draw --rules hangzhou --players Di,Ann,Bo,Cy
adjust Ann +5 Cy -5
# players: Ann,Ann
[CCC,1][EEEE,2]123m456pNNN9s5s --rules xiamen --wild 9s --self-draw
# players: Di,Ann,Bo,Cy
123m456p789s234sP9m --self-draw --piao 2 --seat W --rules hangzhou
1111m2222m3333p55s --self-draw --dealer-streak 3 --rules hangzhou --vs-option cap=64
penalty Bo 8 --rules hangzhou
# a comment line
123m456p789s234sP9m --self-draw --seat N --rules hangzhou
"""


def write_evening(path: Path, lines: int) -> Path:
    """Write ``lines`` lines (at least; whole rounds of :data:`ROUND`) to ``path``; returns
    ``path``."""
    block = ROUND.splitlines()
    rounds = -(-lines // len(block))
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(rounds):
            f.write(ROUND)
    return path
