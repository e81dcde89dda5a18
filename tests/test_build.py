"""The two builds (README.md#compiled-or-pure-python): which one is under test, and setup.py's
choice between them, fallback included.

.ci/run runs the suite twice: from the source tree (``python -m pytest -n auto``: pure Python)
and, from the unpacked sdist, against the installed compiled package
(``MJSCORE_EXPECT_BUILD=compiled python -P -m pytest --import-mode=importlib``); cibuildwheel
runs the second against each compiled wheel it builds (pyproject.toml). The first test
fails when the build imported is not the one expected, so a compiled step that quietly
imported the source tree (the current directory first on ``sys.path``), or an install
that quietly fell back to pure Python, cannot pass.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import scorer
from tests.cli.test_app import run

ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / "setup.py"
NAMES = {"compiled": "compiled", "pure": "pure Python"}


def compiled_modules() -> list[str]:
    """The module names setup.py compiles, read from its COMPILED list (not imported: it
    would run setup()), e.g. ``["scorer.model.tiles", ...]``."""
    tree = ast.parse(SETUP.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def expected_build() -> str | None:
    """The build this run must be testing: MJSCORE_EXPECT_BUILD (compiled|pure) when set;
    pure Python when scorer comes from this source tree (which never holds compiled modules:
    editable installs stay pure, so an edit is never shadowed by a stale .so); None for an
    installed package tested without saying which build it is."""
    env = os.environ.get("MJSCORE_EXPECT_BUILD")
    if env:
        assert env in NAMES, f"MJSCORE_EXPECT_BUILD={env!r}: expected one of {sorted(NAMES)}"
        return NAMES[env]
    if Path(scorer.__file__).resolve().is_relative_to(ROOT / "scorer"):
        return NAMES["pure"]
    return None


def is_extension(module: str) -> bool:
    return str(importlib.import_module(module).__file__).endswith(tuple(EXTENSION_SUFFIXES))


def test_the_build_under_test_is_the_one_expected() -> None:
    expected = expected_build()
    if os.environ.get("MJSCORE_EXPECT_BUILD") == "compiled":
        # the installed package, not the source tree that cwd would put first
        assert not Path(scorer.__file__).resolve().is_relative_to(ROOT / "scorer"), scorer.__file__
    kinds = {m: is_extension(m) for m in compiled_modules()}
    if expected is not None:
        assert set(kinds.values()) == {expected == "compiled"}, kinds
    # all or nothing: a half-compiled install is not one of the two builds
    assert len(set(kinds.values())) == 1, kinds
    assert scorer.build() == ("compiled" if next(iter(kinds.values())) else "pure Python")


def test_only_the_listed_modules_are_compiled() -> None:
    # what runs once per start stays Python in both builds (setup.py says why)
    for module in ("scorer", "scorer.lang.compile", "scorer.rules.load", "scorer.views.report",
                   "scorer.cli.app", "scorer.lines.pool"):
        assert module not in compiled_modules()
        assert not is_extension(module), module


def test_version_names_the_build() -> None:
    code, out, _ = run("--version")
    assert code == 0
    expected = expected_build()
    builds = [expected] if expected else list(NAMES.values())
    assert out in [f"mjscore {scorer.__version__} ({b})\n" for b in builds], out
    if os.environ.get("MJSCORE_EXPECT_BUILD"):
        # the command a user runs says the same (a child process imports what is installed)
        # -I: the current folder kept off sys.path (-P, from 3.11 on, does only that)
        r = subprocess.run([sys.executable, "-I", "-m", "scorer", "--version"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, check=False)
        assert (r.returncode, r.stdout) == (0, f"mjscore {scorer.__version__} ({expected})\n")


def source_doctests(module: str) -> list[doctest.DocTest]:
    """The doctests of ``module`` as written in its .py file (the module's docstring, its
    functions', classes' and methods'), each to run in the namespace of the module as
    imported: a compiled module's functions carry no source for pytest's doctest finder,
    which finds none of them, so this is how its examples run against the compiled code."""
    # the .py beside the module imported: an installed build holds them, compiled or not
    path = Path(scorer.__file__).parent.parent / (module.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes: list[ast.AST] = [tree]
    for node in tree.body:
        nodes.append(node)
        if isinstance(node, ast.ClassDef):
            nodes += node.body
    found = []
    parser = doctest.DocTestParser()
    namespace = vars(importlib.import_module(module))
    for node in nodes:
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node)
            if doc and ">>>" in doc:
                name = f"{module}.{getattr(node, 'name', '')}".rstrip(".")
                found.append(parser.get_doctest(doc, dict(namespace), name, str(path),
                                                getattr(node, "lineno", 0)))
    return found


@pytest.mark.parametrize("module", compiled_modules())
def test_the_examples_of_the_compiled_modules_hold_in_this_build(module: str) -> None:
    tests = source_doctests(module)
    assert tests, f"{module} has no examples: docstrings show one (README, standards)"
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for t in tests:
        runner.run(t, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)
    assert results.attempted >= len(tests)


# -- setup.py's choice ---------------------------------------------------------------------
BUILD_ENV = ("MJSCORE_PURE", "MJSCORE_COMPILE", "CC")  # what the choice reads: set per probe
COMPILE = {"MJSCORE_COMPILE": "1"}

# setup.py run as setuptools' backend runs it, with setup() replaced by a recorder: what it
# would ask pip for and why it would build pure Python; then its build_ext on a broken
# build, which must leave nothing built and say so.
def probe(tmp_path: Path, argv: list[str], env: dict[str, str], then: str = "") -> dict[str, object]:
    """Run setup.py with ``argv`` and ``env`` under a recording setup(); then ``then``
    (Python, with ``ns`` the setup.py namespace and ``out`` a dict to fill); return what
    setup.py would pass to setup(), its WHY_PURE, ``out`` and its warnings."""
    script = textwrap.dedent(f"""
        import json, runpy, sys, types
        import setuptools
        seen = {{}}
        setuptools.setup = lambda **kw: seen.update(kw)
        sys.argv = ["setup.py", *{argv!r}]
        ns = runpy.run_path({str(SETUP)!r}, run_name="__main__")
        out = {{}}
    """) + textwrap.dedent(then) + textwrap.dedent("""
        print(json.dumps({"why": ns["WHY_PURE"], "requires": seen.get("setup_requires", []),
                          "out": out}))
    """)
    base = {k: v for k, v in os.environ.items() if k not in BUILD_ENV}
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env={**base, **env},
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    result: dict[str, object] = json.loads(r.stdout.strip().splitlines()[-1])
    result["stderr"] = r.stderr
    return result


def test_setup_compiles_when_asked_and_able_and_asks_for_mypy_only_then(tmp_path: Path) -> None:
    # a compiler that exists (any executable named by an absolute path will do for the choice)
    cc = {"CC": sys.executable}
    can = probe(tmp_path, ["bdist_wheel"], {**cc, **COMPILE})
    assert can["why"] is None
    assert any(str(r).startswith("mypy[mypyc]") for r in can["requires"])  # type: ignore[union-attr]
    for argv, env, why in (
        (["bdist_wheel"], cc, "the default build (MJSCORE_COMPILE=1 compiles"),
        (["bdist_wheel"], {**cc, "MJSCORE_COMPILE": "0"}, "the default build"),
        (["bdist_wheel"], {**cc, **COMPILE, "MJSCORE_PURE": "1"}, "MJSCORE_PURE is set"),
        (["bdist_wheel"], {"CC": str(tmp_path / "no-such-cc"), **COMPILE}, "no C compiler found"),
        (["editable_wheel"], {**cc, **COMPILE}, "an editable install stays pure Python"),
    ):
        pure = probe(tmp_path, argv, env)
        assert str(pure["why"]).startswith(why), (argv, env, pure)
        assert pure["requires"] == [], (argv, env)  # a pure build needs no mypy fetched
    # MJSCORE_PURE=0 is not a request for pure Python
    assert probe(tmp_path, ["bdist_wheel"], {**cc, **COMPILE, "MJSCORE_PURE": "0"})["why"] is None


def test_a_failed_translation_falls_back_to_pure_python(tmp_path: Path) -> None:
    # mypyc stops with SystemExit on a type error: build_ext builds nothing and goes on
    got = probe(tmp_path, ["bdist_wheel"], {"CC": sys.executable, **COMPILE}, then="""
        def mypycify(*a, **k):
            print("error: a type error", file=sys.stderr)
            raise SystemExit(1)
        sys.modules["mypyc"] = types.ModuleType("mypyc")
        sys.modules["mypyc.build"] = types.SimpleNamespace(mypycify=mypycify)
        dist = ns["CompiledDistribution"]({"name": "probe", "py_modules": []})
        cmd = ns["BuildExtOrPure"](dist)
        cmd.ensure_finalized()
        cmd.run()
        out["extensions"] = len(cmd.extensions)
        out["has_ext_modules"] = dist.has_ext_modules()
    """)
    assert got["out"] == {"extensions": 0, "has_ext_modules": True}
    assert "mypyc could not translate the modules (SystemExit: 1); installing pure Python instead" \
        in str(got["stderr"])


def test_a_failed_c_build_falls_back_and_leaves_nothing_built(tmp_path: Path) -> None:
    # two extensions: the first compiles, the second is not C; neither may be installed
    (tmp_path / "good.c").write_text(textwrap.dedent("""
        #include <Python.h>
        static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, "good", NULL, -1, NULL};
        PyMODINIT_FUNC PyInit_good(void) { return PyModule_Create(&m); }
    """), encoding="utf-8")
    (tmp_path / "bad.c").write_text("this is not C\n", encoding="utf-8")
    lib = tmp_path / "lib"
    got = probe(tmp_path, ["bdist_wheel"], COMPILE, then=f"""
        import os
        from setuptools import Extension
        exts = [Extension("good", ["good.c"]), Extension("bad", ["bad.c"])]
        sys.modules["mypyc"] = types.ModuleType("mypyc")
        sys.modules["mypyc.build"] = types.SimpleNamespace(mypycify=lambda *a, **k: exts)
        dist = ns["CompiledDistribution"]({{"name": "probe", "py_modules": []}})
        cmd = ns["BuildExtOrPure"](dist)
        cmd.build_lib = {str(lib)!r}
        cmd.build_temp = {str(tmp_path / "tmp")!r}
        cmd.ensure_finalized()
        out["compiling"] = len(cmd.extensions)
        cmd.run()
        out["extensions"] = len(cmd.extensions)
        out["built"] = sorted(os.listdir({str(lib)!r})) if os.path.isdir({str(lib)!r}) else []
    """)
    if got["why"] is not None:  # this machine has no C compiler: setup.py never tries
        assert got["out"] == {"compiling": 0, "extensions": 0, "built": []}
        return
    assert got["out"] == {"compiling": 2, "extensions": 0, "built": []}, got
    assert "the C build failed" in str(got["stderr"]) and "installing pure Python instead" \
        in str(got["stderr"])


def test_only_a_build_that_may_compile_asks_pip_for_mypy(tmp_path: Path) -> None:
    # build_backend.py's hooks in a copy of the project (they write its egg-info), with a C
    # compiler present: a wheel asked to compile asks for mypy; the default wheel, an
    # editable install and MJSCORE_PURE=1 do not
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".ci-venv", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*cache"))
    script = textwrap.dedent("""
        import json, sys
        sys.path.insert(0, ".")
        import build_backend as b
        print(json.dumps([b.get_requires_for_build_wheel(), b.get_requires_for_build_editable()]))
    """)
    base = {k: v for k, v in os.environ.items() if k not in BUILD_ENV}

    def requires(env: dict[str, str]) -> list[list[str]]:
        r = subprocess.run([sys.executable, "-c", script], cwd=tree, env={**base, **env},
                           capture_output=True, text=True, timeout=120, check=False)
        assert r.returncode == 0, r.stderr
        got: list[list[str]] = json.loads(r.stdout.strip().splitlines()[-1])
        return got

    def mypy(reqs: list[str]) -> bool:
        return any(r.startswith("mypy[mypyc]") for r in reqs)

    wheel, editable = requires({"CC": sys.executable, **COMPILE})
    assert mypy(wheel) and not mypy(editable), (wheel, editable)
    for env in ({"CC": sys.executable}, {"CC": sys.executable, **COMPILE, "MJSCORE_PURE": "1"}):
        wheel, editable = requires(env)
        assert not mypy(wheel) and not mypy(editable), (env, wheel, editable)
