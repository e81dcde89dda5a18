"""What PyYAML could not read, as a code of the catalogue: the kind of problem, where.

PyYAML says what went wrong in English words of its own (``e.problem``, ``e.context``),
worded differently by libyaml and by the pure-Python reader, and it has no other name
for the kind of problem. :data:`KINDS` maps those words, once, to a code of the
catalogue (``yaml.*``, in zh and en); what the message names (the character, the alias)
is read from the file's text at the place PyYAML marks, never from its words. A problem
not in the table keeps PyYAML's words as the ``error`` parameter of ``yaml.invalid``:
the one place English may remain, and only for a reader's message we have not met.

>>> import yaml
>>> try:
...     yaml.compose("a: b: c\\n", Loader=yaml.SafeLoader)
... except yaml.MarkedYAMLError as e:
...     print(yaml_problem(e, "a: b: c\\n"))
('yaml.mapping_here', {}, 1, 5)
"""

from __future__ import annotations

from typing import Any

# (words PyYAML's problem or context starts with, in libyaml's or the Python reader's
# wording) -> (code, whether the place is where the thing began: the context's mark)
KINDS: tuple[tuple[str, str, str, bool], ...] = (
    # (which of PyYAML's texts: "problem" or "context", its start, code, at the context)
    ("context", "while scanning a quoted scalar", "yaml.open_quote", True),
    ("context", "while scanning a double-quoted scalar", "yaml.escape", False),
    ("context", "while parsing a quoted scalar", "yaml.escape", False),
    ("context", "while parsing a flow sequence", "yaml.open_list", True),
    ("context", "while parsing a flow mapping", "yaml.open_map", True),
    ("context", "found duplicate anchor", "yaml.anchor_twice", False),
    ("context", "expected a single document", "yaml.documents", False),
    ("context", "while scanning a block scalar", "yaml.block_scalar", False),
    ("context", "while scanning an anchor", "yaml.anchor_name", False),
    ("context", "while scanning an alias", "yaml.anchor_name", False),
    ("context", "while scanning a tag", "yaml.tag_open", False),
    ("context", "while parsing a tag", "yaml.tag_open", False),
    ("context", "while scanning a directive", "yaml.directive", False),
    ("problem", "mapping values are not allowed", "yaml.mapping_here", False),
    ("problem", "found a tab character", "yaml.tab", False),
    ("problem", "found character", "yaml.bad_char", False),
    ("problem", "could not find expected ':'", "yaml.no_colon", True),
    ("problem", "found undefined alias", "yaml.undefined_alias", False),
    ("problem", "did not find expected key", "yaml.indent", False),
    ("problem", "expected <block end>", "yaml.indent", False),
    ("problem", "did not find expected '-' indicator", "yaml.indent", False),
    ("problem", "did not find expected node content", "yaml.no_value", False),
    ("problem", "expected the node content", "yaml.no_value", False),
    ("problem", "block sequence entries are not allowed", "yaml.dash_here", False),
)


def yaml_problem(e: Any, text: str) -> tuple[str, dict[str, Any], int | None, int | None]:
    """``(code, params, line, column)`` of a ``yaml.MarkedYAMLError`` raised reading
    ``text`` (line and column 1-based, None when PyYAML marks no place)."""
    problem, context = e.problem or "", e.context or ""
    for which, start, code, at_context in KINDS:
        if (context if which == "context" else problem).startswith(start):
            mark = (e.context_mark if at_context else None) or e.problem_mark or e.context_mark
            return code, _params(code, text, mark), *_place(mark)
    mark = e.problem_mark or e.context_mark
    return "yaml.invalid", {"error": problem or context or "?"}, *_place(mark)


def reader_problem(e: Any, text: str) -> tuple[str, dict[str, Any], int | None, int | None]:
    """``(code, params, line, column)`` of a ``yaml.reader.ReaderError`` (a character
    YAML does not allow: a control character), from its ``position`` in ``text``.

    >>> reader_problem(type("E", (), {"position": 4, "character": 7})(), "a: b\\x07c")
    ('yaml.control_char', {'char': 'U+0007'}, 1, 5)
    """
    pos = getattr(e, "position", None)
    char = getattr(e, "character", None)
    params = {"char": f"U+{char:04X}" if isinstance(char, int) else "?"}
    if not isinstance(pos, int) or not 0 <= pos <= len(text):
        return "yaml.control_char", params, None, None
    line = text.count("\n", 0, pos) + 1
    return "yaml.control_char", params, line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _place(mark: Any) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


def _params(code: str, text: str, mark: Any) -> dict[str, Any]:
    """What the message names, read from the text at PyYAML's mark."""
    if code not in ("yaml.bad_char", "yaml.undefined_alias") or mark is None:
        return {}
    lines = text.splitlines()
    row = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    rest = row[mark.column:]
    if code == "yaml.bad_char":
        return {"char": rest[:1] or "?"}
    # the alias: '*' and its name (PyYAML marks the '*')
    name = rest.lstrip("*")
    end = next((i for i, ch in enumerate(name) if ch.isspace() or ch in ",[]{}"), len(name))
    return {"name": name[:end] or "?"}
