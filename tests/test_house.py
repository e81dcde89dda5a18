"""The house holds: modules of one job and at most 700 lines, one home per concept, one
cache class. (The rooms and the bottom floor: tests/test_init.py; the layers: test_layers.)

Each test reads the sources, so a new module, class or cache that breaks the rule fails
here with its name, rather than being found by the next review.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SCORER = Path(__file__).resolve().parent.parent / "scorer"
MAX_LINES = 700


def _modules() -> dict[str, ast.Module]:
    return {str(p.relative_to(SCORER.parent)): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(SCORER.rglob("*.py"))}


def test_no_module_is_over_700_lines() -> None:
    sizes = {str(p.relative_to(SCORER.parent)): len(p.read_text(encoding="utf-8").splitlines())
             for p in SCORER.rglob("*.py")}
    assert len(sizes) > 100  # the walk found the package
    assert {m: n for m, n in sizes.items() if n > MAX_LINES} == {}


def test_did_you_mean_has_one_home() -> None:
    # scorer.text.near is the one did-you-mean: any other difflib is a second one
    users = set()
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "difflib" for a in node.names):
                users.add(name)
            if isinstance(node, ast.ImportFrom) and node.module == "difflib":
                users.add(name)
    assert users == {"scorer/text/near.py"}


def test_a_class_name_is_one_class() -> None:
    # two classes of one name (two Transfers, two Entries) are two concepts a reader confuses
    homes: dict[str, list[str]] = defaultdict(list)
    for name, tree in _modules().items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                homes[node.name].append(name)
    assert len(homes) > 50
    assert {c: where for c, where in homes.items() if len(where) > 1} == {}


def test_the_seats_are_one_table() -> None:
    defined = set()
    for name, tree in _modules().items():
        for node in tree.body:
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, ast.AnnAssign) else [])
            if any(isinstance(t, ast.Name) and t.id == "SEATS" for t in targets):
                defined.add(name)
    assert defined == {"scorer/model/tiles.py"}


def test_every_cache_is_a_memo() -> None:
    # functools' caches are allowed only for the ruleset store's once-per-process values
    # (a stamp of the code, the helpers' names: no argument, so nothing to bound)
    found = set()
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache") and \
                    isinstance(node.value, ast.Name) and node.value.id == "functools":
                found.add(name)
            if isinstance(node, ast.ImportFrom) and node.module == "functools" and any(
                    a.name in ("lru_cache", "cache") for a in node.names):
                found.add(name)
    assert found <= {"scorer/rules/store.py", "scorer/rules/pickled.py"}, found
    for name in found:
        for node in ast.walk(_modules()[name]):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Attribute) and d.attr in ("cache", "lru_cache")
                    for d in node.decorator_list):
                assert not node.args.args, f"{name}: {node.name} takes arguments: a Memo"
