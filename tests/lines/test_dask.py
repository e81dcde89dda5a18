"""examples/dask_totals.py: Dask's totals of a hand file, streamed in blocks, equal
`mjscore batch --totals`'s, on Dask's local schedulers and on a dask.distributed LocalCluster,
and the driver's memory stays flat however long the file.

Needs the [dask] extra; deselected by default (marker ``dask``), run by .ci/run in a step
of its own: ``python -m pytest -m dask tests/lines/test_dask.py``. Dask is imported inside
the tests, so without the extra a selected run fails loudly instead of skipping.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scorer.lines.pool import score_many
from scorer.table.ledger import book
from tests.helpers.evenings import ROUND, write_evening
from tests.helpers.launch import launcher, usage

pytestmark = pytest.mark.dask

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dask_totals", EXAMPLES / "dask_totals.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _batch_totals(path: Path, *flags: str) -> dict[str, object]:
    """The totals record `mjscore batch PATH FLAGS --totals` ends its JSON lines with."""
    r = subprocess.run([sys.executable, "-m", "scorer", "batch", str(path), *flags, "--totals",
                        "--jobs", "2"], capture_output=True, text=True, check=False)
    assert r.returncode in (0, 1), r.stderr
    last: dict[str, object] = json.loads(r.stdout.splitlines()[-1])
    assert last["kind"] == "totals"
    return last


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
    # 10 + 14 + 12 + 11 hands; mcr.txt shows one below 8 fan, plus the 4 bad lines
    assert serial.hands == 46 and len(serial.failed) == 5
    # blocks of 512 bytes: a dozen blocks, cut wherever a line ends
    dask_ledger = _example().ledger_of(str(path), blocksize=512, scheduler=scheduler)
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
    text = _example().main([str(path), "--rules", "hangzhou", "--stake", "2", "--lang", "en",
                            "--scheduler", "sync"])
    assert text.startswith("Totals of 2 hands, per seat, at 2 a point\n")
    zh = _example().main([str(path), "--rules", "hangzhou", "--stake", "2", "--scheduler",
                          "sync"])
    assert zh.startswith("共 2 盘的合计，按座位，每分 2\n")
    nets = {ln.split()[0]: ln.split()[3] for ln in text.split("\n") if ln[:2] in
            ("E ", "S ", "W ", "N ")}
    assert nets == {"E": "+4", "S": "+12", "W": "-8", "N": "-8"}


@pytest.mark.parametrize("blocksize", [64, 200, 1 << 20])
def test_dask_totals_equal_batch_totals_on_the_evening(blocksize: int) -> None:
    """The evening of examples/evening.txt (seats rotating by '# players:' lines and a line's
    own --players, a bad line, a dispute), cut into blocks of 64 and 200 bytes (each
    '# players:' line in another block than the hands it seats) and into one: Dask's totals
    are the totals record that `mjscore batch --totals` prints, field for field, at a whole
    and a decimal stake."""
    import dask.bag  # noqa: F401

    from scorer.views.ledger import totals_record

    evening = EXAMPLES / "evening.txt"
    seating = ["--players", "E=Ann,S=Bo,W=Cy,N=Di"]
    for stake in ("1", "0.5"):
        from_batch = _batch_totals(evening, *seating, "--stake", stake)
        ledger = _example().ledger_of(str(evening), seating, blocksize=blocksize,
                                      scheduler="threads")
        assert totals_record(ledger.totals(stake=stake)) == from_batch
    # worked by hand in the file: Cy wins the evening, the other three pay Cy
    assert {p["name"]: p["net"] for p in from_batch["players"]} == {  # type: ignore[attr-defined]
        "Ann": "-197", "Bo": "-220", "Cy": "628", "Di": "-211"}


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "table"])
def test_dask_main_prints_what_batch_prints_after_the_hands(fmt: str) -> None:
    """`python examples/dask_totals.py FILE FLAGS` with the flags given to batch prints the
    totals exactly as `mjscore batch FILE FLAGS --totals` ends its output, in each format."""
    import dask.bag  # noqa: F401

    args = [str(EXAMPLES / "evening.txt"), "--players", "Ann,Bo,Cy,Di", "--stake", "2",
            "--format", fmt, "--lang", "en", "--totals"]
    r = subprocess.run([sys.executable, "-m", "scorer", "batch", *args], capture_output=True,
                       text=True, check=False)
    text = _example().main([*args, "--blocksize", "256", "--scheduler", "threads"])
    assert r.stdout.rstrip("\n").endswith("\n" + text)
    assert "Cy" in text and "2512" in text  # Cy's net, 1256 × 2


# The driver of a run on a LocalCluster, as a program of its own (its peak memory is its own):
# prints the totals record and the driver's peak RSS in KiB.
DRIVER = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
import dask_totals
from dask.distributed import Client, LocalCluster
from scorer.views.ledger import totals_record
path, blocksize, *defaults = sys.argv[2:]
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                  dashboard_address=None) as cluster, Client(cluster):
    ledger = dask_totals.ledger_of(path, defaults, blocksize=int(blocksize))
print(json.dumps({"totals": totals_record(ledger.totals()),
                  "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def _on_a_local_cluster(path: Path, blocksize: int, *defaults: str) -> tuple[dict[str, object],
                                                                             int]:
    """The totals record of a LocalCluster run of the example, and its driver's peak RSS."""
    argv, r, w = launcher([sys.executable, "-c", DRIVER, str(EXAMPLES), str(path),
                           str(blocksize), *defaults])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")])}
    proc = subprocess.run(argv, capture_output=True, text=True, pass_fds=(w,), env=env,
                          check=False, timeout=1800)
    os.close(w)
    usage(r)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    return out["totals"], int(out["peak_kib"])


def test_a_long_evening_on_a_local_cluster_totals_as_batch_in_flat_memory(
        tmp_path: Path) -> None:
    """200,000 lines (seatings changing every few lines, across the blocks: mistyped hands,
    a seating line that does not read, penalties, adjustments, disputes, a line's own
    --players) on a dask.distributed LocalCluster of two worker processes, in blocks of 256
    KiB (33 of them): the totals are `mjscore batch --totals`'s, and the driver's peak
    memory with 200,000 lines is that with 50,000 (it never holds the file's lines)."""
    import dask.distributed  # noqa: F401

    small = write_evening(tmp_path / "50k.txt", 50_000)
    large = write_evening(tmp_path / "200k.txt", 200_000)
    assert len(large.read_text(encoding="utf-8").splitlines()) >= 200_000
    seating = ("--players", "E=Ann,S=Bo,W=Cy,N=Di")
    block = 256 * 1024
    _, peak_small = _on_a_local_cluster(small, block, *seating)
    totals, peak_large = _on_a_local_cluster(large, block, *seating)
    assert totals == _batch_totals(large, *seating)
    assert totals["penalties"] and totals["adjustments"] and totals["disputed"]
    rounds = -(-200_000 // len(ROUND.splitlines()))  # each with a mistyped hand, a bad seating
    assert len(totals["failed"]) == 2 * rounds  # type: ignore[arg-type]
    # flat: the lines read (four times as many) add less than 8 MiB to the driver's peak
    # (measured: see the note printed; the file itself is 8.6 MB, its lines as Python
    # strings over 25 MB)
    print(f"driver peak RSS: 50,000 lines {peak_small / 1024:.1f} MiB, "
          f"200,000 lines {peak_large / 1024:.1f} MiB")
    assert peak_large - peak_small < 8 * 1024, (peak_small, peak_large)


def test_readme_recipe_writes_the_records_batch_writes(tmp_path: Path) -> None:
    """README's Dask recipe, run as written (the file and the output folder named here), in
    blocks of 128 bytes: its JSON lines are batch's records of the same file, in order."""
    import dask

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- dask recipe", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    evening = EXAMPLES / "evening.txt"
    code = (block.replace('"hands.txt"', repr(str(evening)))
            .replace('"4MiB"', "128")
            .replace('"scored/*.jsonl"', repr(str(tmp_path / "*.jsonl"))))
    assert code != block
    with dask.config.set(scheduler="sync"):
        exec(compile(code, "README.md", "exec"), {})
    files = sorted(tmp_path.glob("*.jsonl"), key=lambda p: int(p.stem))
    assert len(files) > 10  # the evening in many blocks
    mine = [json.loads(x) for f in files for x in f.read_text(encoding="utf-8").splitlines()]
    r = subprocess.run([sys.executable, "-m", "scorer", "batch", str(evening), "--rules", "mcr",
                        "--players", "E=Ann,S=Bo,W=Cy,N=Di"], capture_output=True, text=True,
                       check=False)
    assert mine == [json.loads(x) for x in r.stdout.splitlines()]
    assert [m["line"] for m in mine] == [9, 12, 18, 21, 23, 26, 30, 36, 39, 43]  # its hand lines
