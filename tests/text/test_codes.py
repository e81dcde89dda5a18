"""scorer.text.codes and the catalogue: every code in zh and en, the same placeholders in
both, every code documented, and every raise site passing a code (not prose)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scorer.text.catalogue import CATALOGUE
from scorer.text.codes import markdown
from scorer.text.render import PLACEHOLDER

ROOT = Path(__file__).resolve().parents[2]
# the error classes (and the schema's problem/notice methods) and which argument is the code
ERRORS = {"MjscoreError": 0, "NotationError": 0, "HandError": 0, "ContextError": 0,
          "RulesetError": 0, "EvaluationError": 0, "NotAWin": 0, "EvalError": 0, "Problem": 4,
          "ArgvError": 0, "RequestError": 0, "PaymentError": 0, "ExprError": 0,
          "LedgerError": 0, "RoundError": 0, "problem": 2, "notice": 2}


def _placeholders(text: str) -> set[tuple[str, str]]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_entry_has_both_languages_with_the_same_placeholders(key: str) -> None:
    zh, en = CATALOGUE[key]
    assert isinstance(zh, str) and isinstance(en, str)
    assert _placeholders(zh) == _placeholders(en), key
    if en.strip() and not key.startswith(("rule.", "prose")):
        # a message has a Chinese form of its own, not the English copied over
        assert zh != en or not re.search(r"[a-z]{3,} [a-z]{3,}", en), key


def test_every_code_is_listed_in_the_contract() -> None:
    # regenerate with: python -c "from scorer.text.codes import markdown; print(markdown())"
    contract = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    assert markdown() in contract, "docs/contract.md#codes is not the table of the codes"


def _prose_sites() -> list[str]:
    """Raise sites that still pass prose: an error class called with a first argument that
    is not a code of the catalogue (a literal), or an f-string."""
    out = []
    for path in sorted((ROOT / "scorer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            at = ERRORS.get(name)
            if at is None or len(node.args) <= at:
                continue
            first = node.args[at]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                if first.value in CATALOGUE:
                    continue
            elif not isinstance(first, ast.JoinedStr | ast.BinOp):
                continue  # a name or a call: a code or an error passed on (checked at run time)
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return out


def test_raise_sites_pass_codes_not_prose() -> None:
    # every raise site passes a code of the catalogue (the ratchet that counted the ones
    # still passing prose reached 0): a new error gets a code in scorer/text/codes*.py
    assert _prose_sites() == []
