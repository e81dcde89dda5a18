"""The package as an index would hand it out: the sdist carries everything the suite needs
(tests and their data, docs, examples) and nothing stray; the default wheel is pure
Python (``py3-none-any``) with its data files; the test dependency group is the test extra.

Built with build_backend.py's own hooks, as pip and ``python -m build`` call them, in a copy
of the project's files (the tracked ones where git can list them, so a scratch file of a
developer's is no part of it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # the test group installs tomli there
    import tomli as tomllib

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Made by the build, not written by anyone: the metadata, and setuptools' own config
GENERATED = re.compile(r"PKG-INFO|setup\.cfg|mjscore\.egg-info/.*")
JUNK = shutil.ignore_patterns(".git", ".ci-venv", ".venv", "build", "dist", "*.egg-info",
                              "__pycache__", "*.py[cod]", ".*cache", ".hypothesis", "*.so")


def project_files() -> list[str]:
    """The project's files, relative to ROOT: git's list of tracked files when this is a
    checkout, else every file (an unpacked sdist), less build and cache folders."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True)
        return sorted(f for f in r.stdout.decode().split("\0") if f and (ROOT / f).is_file())
    found = (p.relative_to(ROOT) for p in ROOT.rglob("*") if p.is_file())
    return sorted(f.as_posix() for f in found if not GENERATED.fullmatch(f.as_posix())
                  and not any(JUNK(".", [part]) for part in f.parts))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str], list[str]]:
    """(the project's files, the sdist's files, the default wheel's files), each relative."""
    tree = tmp_path_factory.mktemp("tree")
    files = project_files()
    for f in files:
        (tree / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, tree / f)
    out = tmp_path_factory.mktemp("dist")
    script = ("import json, sys\nsys.path.insert(0, '.')\nimport build_backend as b\n"
              f"print(json.dumps([b.build_sdist({str(out)!r}), b.build_wheel({str(out)!r})]))")
    env = {k: v for k, v in os.environ.items() if k not in ("MJSCORE_COMPILE", "MJSCORE_PURE")}
    r = subprocess.run([sys.executable, "-c", script], cwd=tree, env=env, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    sdist, wheel = json.loads(r.stdout.strip().splitlines()[-1])
    with tarfile.open(out / sdist) as t:
        top = sdist.removesuffix(".tar.gz") + "/"
        in_sdist = sorted(m.name.removeprefix(top) for m in t.getmembers() if m.isfile())
    with zipfile.ZipFile(out / wheel) as z:
        in_wheel = sorted(z.namelist())
    return files, in_sdist, [wheel, *in_wheel]


# Tracked, and no part of a source distribution
LEFT_OUT = {".gitignore"}


def test_the_sdist_carries_every_project_file_and_nothing_else(
        built: tuple[list[str], list[str], list[str]]) -> None:
    files, in_sdist, _ = built
    made = [f for f in in_sdist if GENERATED.fullmatch(f)]
    assert "PKG-INFO" in made
    assert sorted(set(in_sdist) - set(made)) == sorted(set(files) - LEFT_OUT)
    # what a packager running the suite needs, named (the list above follows the checkout)
    for needed in ("LICENSE", "CHANGELOG.md", "README.md", "build_backend.py", "setup.py",
                   "tests/__init__.py", "tests/conftest.py", "tests/data/mcr_oracle.jsonl",
                   "docs/contract.md", "examples/evening.txt", "rulesets/hangzhou.yaml",
                   "scorer/py.typed", ".ci/run"):
        assert needed in in_sdist, needed
    assert any(f.startswith("tests/golden/") and f.endswith(".yaml") for f in in_sdist)
    assert any(f.startswith("tests/rounds/") for f in in_sdist)
    assert any(f.startswith("examples/house/") for f in in_sdist)


def test_the_sdist_metadata_is_complete(built: tuple[list[str], list[str], list[str]]) -> None:
    meta = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = tomllib.loads(meta)["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Sichuan" in project["description"]
    classifiers = set(project["classifiers"])
    for c in ("Natural Language :: Chinese (Simplified)", "Typing :: Typed",
              "Operating System :: Microsoft :: Windows", "Operating System :: MacOS",
              "Operating System :: POSIX :: Linux"):
        assert c in classifiers, c
    minor = [c.rsplit(".", 1)[1] for c in classifiers
             if c.startswith("Programming Language :: Python :: 3.")]
    assert sorted(int(m) for m in minor) == list(range(10, 10 + len(minor)))
    assert project["requires-python"] == ">=3.10"


def test_the_default_wheel_is_pure_python_with_its_data(
        built: tuple[list[str], list[str], list[str]]) -> None:
    _, _, (name, *in_wheel) = built
    assert name.endswith("-py3-none-any.whl"), name
    assert not any(f.endswith((".so", ".pyd")) for f in in_wheel)
    for needed in ("scorer/py.typed", "scorer/rulesets/hangzhou.yaml", "scorer/rules/store.py",
                   "scorer/serve/static/index.html"):
        assert needed in in_wheel, needed
    assert any(f.endswith(".dist-info/licenses/LICENSE") for f in in_wheel)
    assert not any(f.startswith(("tests/", "docs/", "benchmarks/")) for f in in_wheel)


def requirement(spec: str) -> tuple[str, str]:
    """(normalised name with extras, specifier) of a requirement string."""
    m = re.fullmatch(r"([A-Za-z0-9._-]+(?:\[[^\]]*\])?)\s*(.*)", spec)
    assert m, spec
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def test_the_test_group_is_the_test_extra() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = data["project"]["optional-dependencies"]
    want: list[tuple[str, str]] = []
    for spec in extras["test"]:
        name, rest = requirement(spec)
        if name.startswith("mjscore["):  # an extra of mjscore's own, written out
            for inner in name[len("mjscore["):-1].split(","):
                want += [requirement(s) for s in extras[inner.strip()]]
        else:
            want.append((name, rest))
    got = [requirement(s) for s in data["dependency-groups"]["test"]]
    assert sorted(got) == sorted(want)
