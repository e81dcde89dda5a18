"""Shared test helpers: score a line of CLI flags through the library."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from scorer.cli import context_from_params, parse_score_args
from scorer.scoring import Result, score

ROOT = Path(__file__).resolve().parent.parent


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
