"""The project cites only what it contains: rulings and the stable surface live in docs/.

Code comments, rulesets, docs and tests point at docs/rulings.md and docs/contract.md;
this test fails on a citation of a rule or spec file the repository does not hold (the
names are spelled in pieces so that this file does not match itself), and on a link to
an anchor that docs/rulings.md or docs/contract.md does not define.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"rulings.md": ROOT / "docs" / "rulings.md", "contract.md": ROOT / "docs" / "contract.md"}
SEARCHED = ["scorer", "rulesets", "docs", "tests", "examples", "benchmarks", ".ci"]
SUFFIXES = {".py", ".yaml", ".yml", ".md", ".txt", ".toml", ""}

# Files outside the repository that earlier versions cited, and the rule texts' file names.
FOREIGN = re.compile("|".join([
    r"\bRULES" + r"\.md", r"\bCONTRACT" + r"\.md", r"\bseeds" + r"/", r"_[0-9a-f]{16}" + r"\.txt",
    r"\bthe seed" + r"'s\b", r"\bseed " + r"00\d",
]))
ANCHOR_LINK = re.compile(r"(rulings|contract)\.md#([a-z0-9-]+)")


def _texts() -> list[Path]:
    """Every text file the project ships or tests, README and pyproject included."""
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SEARCHED:
        files += [p for p in (ROOT / top).rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts
                  and p.name != "mcr_oracle.jsonl"]
    return [p for p in files if p.exists()]


def anchors(doc: Path) -> list[str]:
    """The ids a document defines with ``<a id="...">``, in order.

    >>> "hangzhou-wildcard-discard" in anchors(DOCS["rulings.md"])
    True
    """
    return re.findall(r'<a id="([a-z0-9-]+)"></a>', doc.read_text(encoding="utf-8"))


def test_no_citation_of_a_file_the_repository_lacks() -> None:
    found = []
    for p in _texts():
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if FOREIGN.search(line):
                found.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_every_anchor_link_resolves() -> None:
    defined = {name: set(anchors(path)) for name, path in DOCS.items()}
    broken = []
    for p in _texts():
        for m in ANCHOR_LINK.finditer(p.read_text(encoding="utf-8", errors="replace")):
            if m[2] not in defined[f"{m[1]}.md"]:
                broken.append(f"{p.relative_to(ROOT)}: {m[0]}")
    assert not broken, "\n".join(broken)


def test_anchors_are_unique_and_each_ruleset_has_a_section() -> None:
    for path in DOCS.values():
        ids = anchors(path)
        assert len(ids) == len(set(ids)), path
    ids = set(anchors(DOCS["rulings.md"]))
    assert {"sources", "common", "hangzhou", "jinhua", "xiamen", "mcr", "mcr-house"} <= ids
    # the common rulings the rulesets rely on have a home of their own
    assert {"common-how-the-tile-came", "common-impossible-claims", "common-wildcards",
            "common-seats", "common-payments"} <= ids
