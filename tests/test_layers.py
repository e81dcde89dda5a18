"""The architecture as a contract: the layers in pyproject.toml's [tool.importlinter] run one way.

A new import that runs back up (the library importing the CLI, the expression language
importing mahjong, the engine importing a view) fails here, naming the import and its line.
"""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold(capsys: object) -> None:
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert code == 0, "an import breaks the layers: run `lint-imports` for the broken contract"
