"""The package's front: the rooms of scorer/ and the import paths of earlier releases."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import scorer

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_bottom_floor_lies_loose_in_scorer() -> None:
    # every other module lives in a room (model/ search/ lang/ rules/ engine/ table/ lines/
    # views/ serve/ cli/): a new loose module is a room that was not decided
    here = Path(scorer.__file__).parent  # the package imported (an installed one holds its .py)
    loose = {p.name for p in here.glob("*.py")}
    # (folders.py: where a user's files live, the cache's and the config's, below every room)
    assert loose == {"__init__.py", "__main__.py", "errors.py", "record.py", "memo.py",
                     "folders.py"}
    # text/ is the bottom floor's package of words (did-you-mean, values, catalogue, render)
    assert (here / "text" / "__init__.py").is_file()


@pytest.mark.parametrize(("old", "new"), sorted(scorer.MOVED.items()))
def test_a_moved_module_imports_under_its_old_name_as_the_same_module(old: str, new: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(new)


def test_the_old_paths_of_the_readme_still_work_in_a_fresh_process() -> None:
    code = ("from scorer.batch import score_many, score_record\n"
            "from scorer.ledger import book, rotate\n"
            "import scorer.argv, scorer.round\n"
            "print(scorer.argv.parse is __import__('scorer.lines.grammar').lines.grammar.parse,"
            " callable(book), scorer.round.settle_round.__module__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "scorer.table.round"]


def test_the_library_names_resolve_lazily() -> None:
    # in a fresh process: once `import scorer.dispute` (the old module path) has run, the
    # attribute scorer.dispute is that module, as it always was
    code = ("import scorer, sys\n"
            "assert 'scorer.lines.pool' not in sys.modules\n"
            "from scorer.lines.pool import score_many\n"
            "from scorer.lines.records import score_record\n"
            "from scorer.table.dispute import dispute\n"
            "assert (scorer.score_many, scorer.score_record, scorer.dispute) == "
            "(score_many, score_record, dispute)\n"
            "try:\n    scorer.no_such_name\nexcept AttributeError:\n    print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
