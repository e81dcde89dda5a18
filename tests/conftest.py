"""Shared test helpers: score a line of CLI flags through the library."""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.result import Result
from scorer.engine.scoring import score

# CI runs the property and fuzz tests on the same examples every time, so a result is
# reproducible and a landing never depends on luck; MJSCORE_FUZZ=N explores new examples.
# No per-example deadline: on a shared 2-core CI machine one example's first run took 253 ms
# (a cold ruleset load) and the next 0.5 ms, and hypothesis failed the test as "flaky";
# speed is measured by benchmarks/, never by a test's clock.
settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile("explore" if os.environ.get("MJSCORE_FUZZ") else "ci")

ROOT = Path(__file__).resolve().parent.parent

# The suite never reads or writes the user's ruleset cache (scorer.rules.store): it has
# one of its own, empty at the start, that its subprocesses share; removed at exit.
_CACHE_HOME = tempfile.mkdtemp(prefix="mjscore-test-cache-")
os.environ["MJSCORE_CACHE_DIR"] = os.path.join(_CACHE_HOME, "mjscore")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
os.environ.pop("MJSCORE_NO_CACHE", None)
# Text output folds to COLUMNS (scorer.text.width.columns): the suite's is a page's, 80,
# whatever terminal runs it; a test of another width sets its own.
os.environ["COLUMNS"] = "80"
atexit.register(shutil.rmtree, _CACHE_HOME, True)
# Nor the user's defaults (scorer.cli.config): an empty config folder of its own, and none
# of the variables that would change what a command does without a flag.
os.environ["XDG_CONFIG_HOME"] = os.path.join(_CACHE_HOME, "config")
for _var in ("MJSCORE_CONFIG", "MJSCORE_RULES", "MJSCORE_PLAYERS", "MJSCORE_STAKE",
             "MJSCORE_FORMAT"):
    os.environ.pop(_var, None)


def run_line(line: str, rules: str | None = None) -> Result:
    """Score ``HAND --flags`` exactly as the CLI would parse it."""
    argv = shlex.split(line)
    if rules and "--rules" not in argv:
        argv += ["--rules", rules]
    p = parse_score_args(argv)
    return score(str(p["hand"]), str(p["rules"]), context_from_params(p))


@pytest.fixture
def hz():
    return lambda line: run_line(line, "hangzhou")
