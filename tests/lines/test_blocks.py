"""scorer.lines.blocks: a hand file cut into blocks anywhere a line ends, each block booked
apart from its start, totals the same as the file read whole by ``mjscore batch --totals``
(the engine that cuts the file is not needed to show it: the cuts are made here)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

from scorer.lines.blocks import Start, book, records, starts, summary
from scorer.lines.pool import score_many
from scorer.table.ledger import Ledger, combine
from scorer.views.ledger import totals_record
from tests.helpers.evenings import ROUND, write_evening

ROOT = Path(__file__).resolve().parents[2]
SEATING = ["--players", "E=Ann,S=Bo,W=Cy,N=Di"]


def _in_blocks(lines: list[str], cuts: list[int], defaults: list[str]) -> Ledger:
    """The file's lines (with their line ends) cut before each index of ``cuts``, booked
    block by block from the starts the summaries give, the ledgers merged in order."""
    edges = [0, *cuts, len(lines)]
    parts = [lines[a:b] for a, b in itertools.pairwise(edges)]
    return combine(book(p, s, defaults) for p, s in zip(parts, starts(map(summary, parts)), strict=True))


def _batch_totals(path: Path, *flags: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-m", "scorer", "batch", str(path), *flags, "--totals"],
                       capture_output=True, text=True, check=False, cwd=ROOT)
    assert r.returncode == 1, r.stderr  # (the file has bad lines)
    out: dict[str, object] = json.loads(r.stdout.splitlines()[-1])
    return out


def test_every_cut_of_a_round_totals_as_batch(tmp_path: Path) -> None:
    """Two rounds of the long evening (four seatings each, a line's own --players, a bad
    line and a bad seating line, penalties, an adjustment, a dispute) cut at every line
    boundary in turn, and at random sets of boundaries: always batch's totals."""
    path = write_evening(tmp_path / "two.txt", 2 * len(ROUND.splitlines()))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    expected = _batch_totals(path, *SEATING)
    assert expected["failed"] == [6, 14, 27, 35]  # the mistyped hands and bad seatings
    for cut in range(len(lines) + 1):
        assert totals_record(_in_blocks(lines, [cut], SEATING).totals()) == expected, cut
    rng = random.Random(29)
    for _ in range(30):
        cuts = sorted(rng.sample(range(1, len(lines)), rng.randint(2, 12)))
        assert totals_record(_in_blocks(lines, cuts, SEATING).totals()) == expected, cuts


def test_the_evening_in_blocks_of_one_line_is_batch() -> None:
    """examples/evening.txt, one block per line (every '# players:' line alone in its
    block): the records are batch's, line numbers and seatings included."""
    lines = (ROOT / "examples" / "evening.txt").read_text(encoding="utf-8").splitlines(True)
    firsts = starts(summary([text]) for text in lines)
    mine = [r for text, s in zip(lines, firsts, strict=True) for r in records([text], s, SEATING, "en")]
    theirs = [r.data for r in score_many([t.rstrip("\n") for t in lines], SEATING, lang="en")]
    assert mine == theirs and len(mine) == 10
    # the dealer of each hand: Ann deals two, Bo four (the fourth line seats Cy as its own),
    # Cy the last three
    assert [r["players"]["E"] for r in mine] == ["Ann", "Ann", "Bo", "Bo", "Bo", "Cy", "Bo",
                                                 "Cy", "Cy", "Cy"]


def test_a_block_starts_where_the_one_before_left_off() -> None:
    assert starts([]) == []
    # the seating at the top of the file, then each block's last valid '# players:' line
    assert starts([summary(["# players: A,B,C,D\n", "x\n"]), summary(["# players: A,A\n"]),
                   summary([])], "W,X,Y,Z") == [Start(1, "W,X,Y,Z"), Start(3, "A,B,C,D"),
                                                Start(4, "A,B,C,D")]


def test_a_byte_order_mark_and_crlf_are_read_as_batch_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf123m456m789p234s55s --self-draw --rules hangzhou\r\n"
                     b"123m5p8 --rules hangzhou\r\n")
    text = path.read_bytes().decode("utf-8")
    ledger = combine(book([line], s) for line, s in
                     zip(text.splitlines(True), starts(summary([x]) for x in
                                                       text.splitlines(True)), strict=True))
    r = subprocess.run([sys.executable, "-m", "scorer", "batch", str(path), "--totals"],
                       capture_output=True, text=True, check=False, cwd=ROOT)
    assert totals_record(ledger.totals()) == json.loads(r.stdout.splitlines()[-1])
    assert ledger.hands == 1 and ledger.failed == (2,)
