"""Build of mjscore: the metadata is in pyproject.toml; this file only decides what to compile.

``pip install .`` installs pure Python, in seconds. The compiled build is asked for, as
black's is: ``MJSCORE_COMPILE=1 pip install .`` compiles the hot modules (COMPILED below)
with mypyc, and installs pure Python when it cannot, so an install never fails for want
of a compiler:

- ``MJSCORE_COMPILE`` unset (or ``0``), ``MJSCORE_PURE=1``, an editable install
  (``pip install -e .``) or no C compiler on PATH: pure Python, and mypy is not even
  asked for as a build requirement;
- otherwise mypy (with mypyc) is a build requirement (``setup_requires``, which
  setuptools' PEP 517 backend hands to pip for the isolated build environment), and any
  failure to compile -- mypy missing or too old, a mypyc error, a C compiler or header
  that fails -- is printed as a warning and the install goes on in pure Python.

Released wheels are where users get the compiled speed without a compiler: cibuildwheel
builds them with ``MJSCORE_COMPILE=1`` (pyproject.toml, ``[tool.cibuildwheel]``), and the
pure ``py3-none-any`` wheel is the fallback everywhere else.
``mjscore --version`` says which build is running ("(compiled)" / "(pure Python)").
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

# The modules worth compiling, as profiling showed (the per-hand path): tiles, hand and
# notation; the search for decompositions and readings (the waits search too: the wait
# fact asks it); facts, their Env and the tile profile; the context and the
# scoring driver (with the results it makes and the faults it words); the expression
# language's operators and budget; the bounded memos
# every cache of theirs is (memo.py: the search calls one twice a reading, a thousand
# times in a four-wildcard hand); and the JSON line a batch writes for each hand
# (views/jsontext.py: its body 25 % faster compiled). Not compiled: the rest of a batch
# line's work (lines.py: compiled, what a line costs beside its scoring stayed 49-60 µs
# on MCR, as pure); argv.py (a batch line's flags: 3x slower compiled, where its copy of
# a parsed line becomes dataclasses.replace); lang/compile.py and lang/closures.py (closures-returning
# lambdas hit a mypyc internal error, and the pattern code the codegen branch generates
# runs as plain Python anyway); rules/plan.py (tests replace its functions to make code
# generation fail, which a compiled module's own calls would not see); and all that runs
# once per start (rules loading, the other views, the CLI), where a compiled import is
# no faster.
COMPILED = [
    "scorer/memo.py",
    "scorer/model/tiles.py",
    "scorer/model/hand.py",
    "scorer/model/notation.py",
    "scorer/search/shapes.py",
    "scorer/search/decompose.py",
    "scorer/search/kind_shapes.py",
    "scorer/search/special_shapes.py",
    "scorer/search/waits.py",
    "scorer/search/readings.py",
    "scorer/search/combine.py",
    "scorer/rules/env.py",
    "scorer/rules/facts.py",
    "scorer/rules/profile.py",
    "scorer/engine/context.py",
    "scorer/engine/scoring.py",
    "scorer/engine/result.py",
    "scorer/engine/faults.py",
    "scorer/lang/ops.py",
    "scorer/lang/budget.py",
    "scorer/views/jsontext.py",
]

# mypyc's output and runtime change between mypy releases; this range was tested. mypyc
# type-checks what it compiles and the modules they import (strict, as configured in
# pyproject.toml), so the stubs of the dev extra come too, and wcwidth (typed itself):
# views/jsontext.py imports the report, whose i18n imports it. Without it, in pip's clean
# build environment, mypy refused the modules and the build fell back to pure Python (a
# build in the source folder hid that behind the mypy cache there).
BUILD_REQUIREMENTS = ["mypy[mypyc]>=1.10,<3", "types-PyYAML", "types-tabulate", "wcwidth"]


def _warn(message: str) -> None:
    print(f"mjscore setup: {message}", file=sys.stderr, flush=True)


def _fall_back(why: str) -> None:
    _warn(f"{why}; installing pure Python instead")


def _c_compiler() -> str | None:
    """The C compiler that the extension build would call, if it is on PATH, else None.

    >>> _c_compiler() is None or os.path.isabs(_c_compiler())
    True
    """
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    return shutil.which(words[0]) if words else None


def _asked(name: str) -> bool:
    """Whether the environment variable ``name`` is set to something other than 0."""
    return os.environ.get(name, "") not in ("", "0")


def _why_pure() -> str | None:
    """Why this build is pure Python before trying anything, or None to try compiling."""
    if _asked("MJSCORE_PURE"):
        return "MJSCORE_PURE is set"
    if {"editable_wheel", "develop"} & set(sys.argv[1:]):
        return "an editable install stays pure Python"
    if not _asked("MJSCORE_COMPILE"):
        return "the default build (MJSCORE_COMPILE=1 compiles the hot modules with mypyc)"
    if sys.implementation.name != "cpython":
        return f"mypyc builds for CPython, not {sys.implementation.name}"
    if _c_compiler() is None:
        return "no C compiler found (set CC, or install gcc/clang)"
    return None


WHY_PURE = _why_pure()
BUILDING = bool({"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:]))


class CompiledDistribution(Distribution):
    """A distribution that has extension modules to build unless the build is pure."""

    def has_ext_modules(self) -> bool:
        return WHY_PURE is None


class BuildExtOrPure(build_ext):
    """build_ext that compiles COMPILED with mypyc, and on any failure builds nothing.

    The .py files are installed in every case (build_py), so a failed compilation leaves
    a working pure-Python install; the compiled modules, when built, are found first
    (an extension module wins over a .py of the same name).
    """

    def finalize_options(self) -> None:
        # mypycify type-checks and writes the C code; setuptools' own finalize_options must
        # see the extensions it returns, so they are made here (only when build_ext runs).
        # Only for a command that builds: metadata commands (egg_info, dist_info) finalize
        # build_ext too, to list its sources, and must not pay for a translation.
        compile_now = (WHY_PURE is None and BUILDING and not self.inplace
                       and not getattr(self, "editable_mode", False))
        if compile_now and not self.distribution.ext_modules:
            try:
                from mypyc.build import mypycify

                # opt_level 3 is mypyc's default; debug level 0 keeps the .so small
                self.distribution.ext_modules = mypycify(COMPILED, opt_level="3", debug_level="0")
            except (Exception, SystemExit) as e:  # mypyc reports type errors by SystemExit
                _fall_back(f"mypyc could not translate the modules ({type(e).__name__}: {e})")
                self.distribution.ext_modules = []
        super().finalize_options()

    def run(self) -> None:
        if self.inplace or getattr(self, "editable_mode", False):
            return  # never writes into the source tree: an edit must not meet a stale .so
        # A module compiled by an earlier build in the same build/ folder would be installed
        # with this one (the whole build folder is), compiled or not: none survives.
        self._remove_built()
        if not self.extensions:
            return
        try:
            super().run()
        except (Exception, SystemExit) as e:  # a compiler or linker error, missing headers
            _fall_back(f"the C build failed ({type(e).__name__}: {e})")
            self._remove_built()
            self.extensions = []

    def _remove_built(self) -> None:
        """Remove every extension module under the build folder (ours are all mypyc's)."""
        for folder, _, files in os.walk(self.build_lib):
            for name in files:
                if name.endswith(tuple(EXTENSION_SUFFIXES)):
                    os.remove(os.path.join(folder, name))


if WHY_PURE is not None and BUILDING:
    _warn(f"building pure Python: {WHY_PURE}")

options: dict[str, Any] = {}
if WHY_PURE is None:
    # Asked of pip only when compiling: a pure build needs no mypy, so it installs where
    # mypy cannot be fetched (with MJSCORE_PURE=1).
    options["setup_requires"] = BUILD_REQUIREMENTS

setup(distclass=CompiledDistribution, cmdclass={"build_ext": BuildExtOrPure}, **options)
