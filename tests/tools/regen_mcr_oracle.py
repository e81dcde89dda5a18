"""Regenerate tests/data/mcr_oracle.jsonl: PyMahjongGB's answers on the differential hands.

    pip install ".[oracle]" && python -m tests.tools.regen_mcr_oracle

The default test run (tests/golden/test_mcr_golden.py) checks mjscore against these recorded
answers, so it needs no C++ compiler; the live comparison (tests/golden/test_mcr_oracle.py,
``python -m pytest -m oracle``) also checks that this file is still what PyMahjongGB says.
Run this script again only when the generator (tests/helpers/mcr_hands.py), its seed or the
oracle's version changes, and commit the result with the reason.

The file is JSON Lines: a header object (the oracle's name and version, the generator
call), then one object per hand: ``hand`` (the notation, winning tile last), ``context``
(the command-line flags of the win), ``shape``, PyMahjongGB's ``total`` fan and its
``fans`` as ``[English name, fan each, count]`` in the order the oracle lists them.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tests.helpers.mcr_hands import generate

DATA = Path(__file__).resolve().parent.parent / "data" / "mcr_oracle.jsonl"
N_HANDS = 4000  # the set the CI checks: every shape and every fan turns up (see the test)
SEED = 20240601


def oracle_fans(args: dict[str, Any]) -> list[list[Any]]:
    """PyMahjongGB's fans for one hand, as ``[English name, fan each, count]`` rows.

    For 123m 456m 789m 234p 55s won on a discard, for example:
    ``[["Pure Straight", 16, 1], ["Concealed Hand", 2, 1], ...]``. Raises whatever
    PyMahjongGB raises for a hand it rejects (the generator makes only winning hands,
    so that is a bug worth stopping for).
    """
    from MahjongGB import MahjongFanCalculator  # the oracle extra; C++ built at install

    return [[en, points, count]
            for points, count, _zh, en in MahjongFanCalculator(**args, verbose=True)]


def records(n: int = N_HANDS, seed: int = SEED) -> list[dict[str, Any]]:
    """The header and one record per generated hand, as written to the data file.

    Returns a list whose first item is the header (``{"oracle": "PyMahjongGB 1.4.0", ...}``).
    """
    out: list[dict[str, Any]] = [{
        "oracle": f"PyMahjongGB {version('PyMahjongGB')}",
        "generator": f"tests.helpers.mcr_hands.generate({n}, seed={seed})",
        "regenerate": "python -m tests.tools.regen_mcr_oracle",
    }]
    for c in generate(n, seed=seed):
        hand, _, context = c.line.partition(" ")
        fans = oracle_fans(c.oracle_args)
        out.append({"hand": hand, "context": context, "shape": c.shape,
                    "total": sum(points * count for _, points, count in fans), "fans": fans})
    return out


def main() -> int:
    """Write the data file; returns the exit status (0)."""
    rows = records()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    with DATA.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {DATA} ({len(rows) - 1} hands, {rows[0]['oracle']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
