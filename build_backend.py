"""The build backend: setuptools', except that an editable install never asks for mypy.

setup.py asks for mypy (with mypyc) and its stubs as build requirements whenever it may
compile, but setuptools asks setup.py the same question for a wheel and for an editable
install, and an editable install is always pure Python (setup.py): without this, every
``pip install -e .`` would fetch and install mypy into its build environment for nothing.
"""

from __future__ import annotations

from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the other hooks, unchanged)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for an editable build, less what only compiling needs.

    >>> all(not r.startswith(("mypy", "types-")) for r in get_requires_for_build_editable())
    True
    """
    needed: list[str] = build_meta.get_requires_for_build_editable(config_settings)
    return [r for r in needed if not r.startswith(("mypy", "types-"))]
