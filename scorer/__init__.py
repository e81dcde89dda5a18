"""mjscore: a hand-scoring calculator for Chinese mahjong, with rulesets as data.

The library is the product; the ``mjscore`` command is a thin layer over it. README's
worked MCR example: S wins on N's discard with two flowers, 10 fan + 2 for the flowers;
N pays the base 8 and the 12, the two others the base 8 each:

    >>> from scorer import score, Context
    >>> result = score("234567s234567p55m", "mcr", Context(discarder="N", seat="S", flowers="2"))
    >>> result.best.score, result.payments
    (12, {'E': -8, 'S': 36, 'W': -8, 'N': -20})

Pipeline: :mod:`scorer.model.notation` → :mod:`scorer.model.hand` → :mod:`scorer.search.decompose`
/ :mod:`scorer.search.readings` → :mod:`scorer.rules.load` → :mod:`scorer.engine.scoring` →
:mod:`scorer.engine.payments` → :mod:`scorer.views.report` / :mod:`scorer.cli.app`.
"""

import importlib
import sys
import types
from importlib.machinery import ModuleSpec

from .engine.context import Context
from .engine.result import Result
from .engine.scoring import score
from .errors import (
    ContextError,
    EvaluationError,
    HandError,
    MjscoreError,
    NotationError,
    NotAWin,
    RulesetError,
)
from .model.hand import Hand, Meld
from .model.notation import parse_hand
from .rules.load import load_ruleset
from .rules.model import Ruleset

__all__ = [
    "Context", "ContextError", "EvaluationError", "Hand", "HandError", "Meld", "MjscoreError",
    "NotAWin", "NotationError", "Result", "Ruleset", "RulesetError", "build", "dispute",
    "load_ruleset", "parse_hand", "score", "score_many", "score_record",
]



def build() -> str:
    """Which build is running: ``"compiled"`` when the hot modules were compiled with mypyc
    at install (setup.py's ``COMPILED``), ``"pure Python"`` when they run from their source.

    It looks at the module actually imported (an extension module wins over the .py of the
    same name), so it cannot disagree with what runs. ``mjscore --version`` prints it::

        >>> build() in ("compiled", "pure Python")
        True
    """
    from importlib.machinery import EXTENSION_SUFFIXES

    from .engine import scoring

    return "compiled" if scoring.__file__.endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"


# Imported on first use, so that `import scorer` (and `mjscore score`) stays fast.
_LAZY = {"score_many": "lines.pool", "score_record": "lines.records", "dispute": "table.dispute"}

# Where the modules of earlier releases live now (docs/architecture.md): the old names
# still import, as the very same module objects, so that user code and pickles keep working.
MOVED = {
    "scorer.argv": "scorer.lines.grammar",
    "scorer.batch": "scorer.lines.pool",
    "scorer.reader": "scorer.lines.reader",
    "scorer.dispute": "scorer.table.dispute",
    "scorer.round": "scorer.table.round",
    "scorer.ledger": "scorer.table.ledger",
    "scorer.views.table": "scorer.views.texttable",
    "scorer.engine.waits": "scorer.engine.ready",
}


class _Moved:
    """Imports a module of :data:`MOVED` under its old name: ``import scorer.ledger`` is
    ``scorer.table.ledger``. (A finder and loader by protocol: importlib.abc would cost
    every start 7 ms of imports.)"""

    def find_spec(self, name: str, path: object = None, target: object = None
                  ) -> ModuleSpec | None:
        if name not in MOVED:
            return None
        return ModuleSpec(name, self)  # type: ignore[arg-type]  # a Loader by protocol

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is the one already imported under its new name."""


if not any(isinstance(f, _Moved) for f in sys.meta_path):
    sys.meta_path.append(_Moved())


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
__version__ = "0.1.0"
