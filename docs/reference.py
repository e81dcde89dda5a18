"""Build the library's API reference from its docstrings, with pdoc.

    pip install pdoc && python docs/reference.py [FOLDER]

writes the HTML reference of the modules a library user imports (:data:`PUBLIC`) to FOLDER
(default: ``api``), with the docstrings' examples as they are run by the test suite
(``--doctest-modules``). tests/docs/test_reference.py builds it on every run, so the
reference cannot rot: a module that no longer imports, or a public name that lost its
docstring, fails the suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

# What a library user imports: the package (score, Context, Result, the errors), the
# context, the result and its fields (decomposition, wildcards and payment chain as data),
# one line's record and many lines', a file in blocks (Dask, Spark), the evening's ledger
# and its rendering, a ruleset loaded from a file, the errors.
PUBLIC = ("scorer", "scorer.engine.context", "scorer.engine.scoring", "scorer.engine.result",
          "scorer.engine.fields", "scorer.lines.records", "scorer.lines.pool",
          "scorer.lines.blocks", "scorer.table.ledger",
          "scorer.views.ledger", "scorer.views.jsondata", "scorer.rules.load", "scorer.errors")


def build(folder: Path) -> list[Path]:
    """Write the reference of :data:`PUBLIC` to ``folder``; returns the pages written."""
    import pdoc

    pdoc.render.configure(docformat="restructuredtext", show_source=False,
                          footer_text="mjscore")
    pdoc.pdoc(*PUBLIC, output_directory=folder)
    return sorted(folder.rglob("*.html"))


if __name__ == "__main__":
    pages = build(Path(sys.argv[1] if len(sys.argv) > 1 else "api"))
    print(f"{len(pages)} pages")
