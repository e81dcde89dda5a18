"""examples/dask_totals.py: Dask's totals of a hand file equal the ledger's, computed serially.

Needs the [dask] extra; deselected by default (marker ``dask``), run by .ci/run in a step
of its own: ``python -m pytest -m dask tests/lines/test_dask.py``. Dask is imported inside
the tests, so without the extra a selected run fails loudly instead of skipping.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from scorer.lines.pool import score_many
from scorer.table.ledger import book

pytestmark = pytest.mark.dask

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dask_totals", EXAMPLES / "dask_totals.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _evening(tmp_path: Path) -> Path:
    """Every example hand of the four rulesets in one file, each line naming its ruleset,
    with a bad line and a comment among them."""
    lines = []
    for rules in ("hangzhou", "jinhua", "xiamen", "mcr"):
        for text in (EXAMPLES / f"{rules}.txt").read_text(encoding="utf-8").splitlines():
            hand = text.split("#")[0].strip()
            lines.append(f"{hand} --rules {rules}" if hand else text)
        lines.append("123m456p789s234sP9m --self-draw --piao 9 --rules hangzhou")  # a bad line
    path = tmp_path / "evening.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_dask_totals_equal_the_serial_ledger(tmp_path: Path, scheduler: str) -> None:
    import dask.bag  # noqa: F401 (the extra must be installed: fail here, not skip)

    path = _evening(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    serial = book(score_many(lines))
    # 10 + 14 + 12 + 11 hands; mcr.txt shows one below the 8-fan minimum, plus the 4 bad lines
    assert serial.hands == 46 and len(serial.failed) == 5
    dask_ledger = _example().ledger_of(str(path), npartitions=5, scheduler=scheduler)
    assert dask_ledger == serial
    assert dask_ledger.totals(stake="0.5") == serial.totals(stake="0.5")
    t = dask_ledger.totals()
    assert sum(r.net for r in t.rows) == 0 and len(t.transfers) <= len(t.rows) - 1


def test_dask_main_prints_the_table(tmp_path: Path) -> None:
    import dask.bag  # noqa: F401

    path = tmp_path / "two.txt"
    # 自摸 1 番 by the dealer (each idle player pays 2), then idle S's 暴头 2 番 self-drawn
    # (E pays 2 × 2 = 4, W and N 1 × 2 = 2): E +6 −4 = +2, S −2 +8 = +6, W −4, N −4.
    path.write_text("123m456m789p234s55s --self-draw\n# a comment\n"
                    "123m456p789s234sP9m --self-draw --seat S\n", encoding="utf-8")
    text = _example().main([str(path), "--rules", "hangzhou", "--stake", "2", "--lang", "en"])
    assert text.startswith("Totals of 2 hands, per seat, at 2 a point\n")
    zh = _example().main([str(path), "--rules", "hangzhou", "--stake", "2"])
    assert zh.startswith("共 2 盘的合计，按座位，每分 2\n")
    nets = {ln.split()[0]: ln.split()[3] for ln in text.split("\n") if ln[:2] in
            ("E ", "S ", "W ", "N ")}
    assert nets == {"E": "+4", "S": "+12", "W": "-8", "N": "-8"}


def test_dask_totals_equal_batch_totals_on_the_evening() -> None:
    """The evening of examples/evening.txt (seats rotating by '# players:' lines and a line's
    own --players, a bad line, a dispute): Dask's totals are the totals record that
    `mjscore batch --totals` prints, field for field, at a whole and a decimal stake."""
    import json

    import dask.bag  # noqa: F401
    from typer.testing import CliRunner

    from scorer.cli.app import app
    from scorer.views.ledger import totals_record

    evening = EXAMPLES / "evening.txt"
    seating = ["--players", "E=Ann,S=Bo,W=Cy,N=Di"]
    for stake in ("1", "0.5"):
        r = CliRunner().invoke(app, ["batch", str(evening), *seating, "--totals", "--stake",
                                     stake])
        from_batch = json.loads(r.stdout.splitlines()[-1])
        ledger = _example().ledger_of(str(evening), seating, npartitions=4, scheduler="threads")
        assert totals_record(ledger.totals(stake=stake)) == from_batch
    # worked by hand in the file: Cy wins the evening, the other three pay Cy
    assert {p["name"]: p["net"] for p in from_batch["players"]} == {
        "Ann": "-197", "Bo": "-220", "Cy": "628", "Di": "-211"}


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "table"])
def test_dask_main_prints_what_batch_prints_after_the_hands(fmt: str) -> None:
    """`python examples/dask_totals.py FILE FLAGS` with the flags given to batch prints the
    totals exactly as `mjscore batch FILE FLAGS --totals` ends its output, in each format."""
    import dask.bag  # noqa: F401
    from typer.testing import CliRunner

    from scorer.cli.app import app

    args = [str(EXAMPLES / "evening.txt"), "--players", "Ann,Bo,Cy,Di", "--stake", "2",
            "--format", fmt, "--lang", "en", "--totals"]
    r = CliRunner().invoke(app, ["batch", *args])
    text = _example().main(args)
    assert r.stdout.rstrip("\n").endswith("\n" + text)
    assert "Cy" in text and "2512" in text  # Cy's net, 1256 × 2
