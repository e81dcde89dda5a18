"""Why an expression does not parse, as a code of the catalogue and the column it names.

Python's parser says what it found in English of its own (``SyntaxError.msg``), which a
Chinese table must not read. This module looks at the expression itself, at the place
the parser stopped, and names the failure in our words: a bracket never closed or never
opened, a quote never closed, an operator written as another language writes it
(``&&``, ``||``, ``!``, a single ``=``), the expression ending too early, or what stands
where the parser could not go on.

>>> syntax_error("a and (b or c", None)
('expr.unclosed', 6, {'bracket': '('})
>>> syntax_error("score = 8", 7)
('expr.write_instead', 6, {'found': '=', 'write': '=='})
>>> syntax_error("a b", 3)
('expr.syntax', 2, {'found': 'b'})
"""

from __future__ import annotations

from typing import Any

_PAIRS = {")": "(", "]": "[", "}": "{"}
# operators other languages write, and how an expression of a ruleset says them
_INSTEAD = (("&&", "and"), ("||", "or"), ("===", "=="), ("!==", "!="))


def syntax_error(text: str, offset: int | None) -> tuple[str, int, dict[str, Any]]:
    """``(code, column, params)`` for ``text`` that Python's parser refused at ``offset``
    (its 1-based column, None or 0 when the text ended too early); ``column`` is 0-based.
    """
    found = _brackets(text)
    if found is not None:
        return found
    col = (offset - 1) if offset else len(text)
    col = max(0, min(col, len(text)))
    # the parser may stop a token after the mistake: look back to the start of that token
    for at in (col, col - 1):
        instead = _instead(text, at)
        if instead is not None:
            return "expr.write_instead", at, instead
    rest = text[col:].strip()
    if not rest:
        return "expr.syntax_end", len(text), {}
    token = rest.split()[0]
    return "expr.syntax", col, {"found": token[:20]}


def _instead(text: str, at: int) -> dict[str, str] | None:
    if at < 0:
        return None
    for op, write in _INSTEAD:
        if text.startswith(op, at):
            return {"found": op, "write": write}
    ch = text[at:at + 1]
    nxt = text[at + 1:at + 2]
    prev = text[at - 1:at] if at else ""
    if ch == "!" and nxt != "=":
        return {"found": "!", "write": "not"}
    if ch == "=" and nxt != "=" and prev not in ("=", "!", "<", ">"):
        return {"found": "=", "write": "=="}
    return None


def _brackets(text: str) -> tuple[str, int, dict[str, Any]] | None:
    """A quote or bracket out of place: never closed, or closing nothing."""
    stack: list[tuple[str, int]] = []
    quote: tuple[str, int] | None = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote is not None:
            if ch == "\\":
                i += 2
                continue
            if ch == quote[0]:
                quote = None
        elif ch in "'\"":
            quote = (ch, i)
        elif ch in "([{":
            stack.append((ch, i))
        elif ch in _PAIRS:
            if not stack or stack[-1][0] != _PAIRS[ch]:
                return "expr.unmatched", i, {"bracket": ch}
            stack.pop()
        i += 1
    if quote is not None:
        return "expr.open_quote", quote[1], {}
    if stack:
        ch, at = stack[-1]
        return "expr.unclosed", at, {"bracket": ch}
    return None
