"""The full YAML of a ruleset (``mjscore rules ID --yaml``): the file as written, or, for a
file that extends another, every key resolved with a ``# ← FILE:LINE`` note on each part
written in another file of the chain.

>>> leaf({"default": 64}), leaf("a: b")
('{default: 64}', "'a: b'")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..rules.load import document
from ..rules.model import Ruleset
from ..rules.schema import TOP_KEYS
from ..rules.yamlsafe import YList, YMap


def yaml_text(rs: Ruleset, resolved: bool = False) -> str:
    """The full YAML of a ruleset.

    A file that extends nothing is printed as written, comments included (unless
    ``resolved``). A file that extends another is printed resolved: every key the
    ruleset has, with ``# ← FILE:LINE`` after each part written in another file of
    the chain, so the output is one self-contained ruleset file that loads to the
    same ruleset.
    """
    if not resolved and len(rs.sources) <= 1:
        try:
            return Path(rs.sources[0]).read_text(encoding="utf-8").rstrip("\n") + "\n"
        except (OSError, IndexError):
            pass
    data = document(rs)
    assert isinstance(data, YMap)
    top = rs.file
    head = [f"# {rs.name} {rs.name_en} ({rs.id}) — the full ruleset, resolved by "
            "'mjscore rules --yaml'."]
    if len(rs.chain) > 1:
        head.append(f"# {rs.chain[0]} extends {' → '.join(rs.chain[1:])}. Lines marked "
                    "'# ← FILE:LINE' are inherited from that place;")
        head.append(f"# everything else is written in {top}.")
    else:
        head.append(f"# Written in {top}.")
    head.append("# This output is itself a complete ruleset file (no extends:).")
    lines: list[str] = head
    for key, value in data.items():
        mk = data.marks.get(key)
        lines.append("")
        desc = TOP_KEYS.get(key, "")
        where = f" ← {mk.file}:{mk.line}" if mk and mk.file != top else ""
        lines.append(f"# {key}: {desc}{where}")
        sub = YMap(data.mark)
        sub[key] = value
        if mk:
            sub.marks[key] = mk
        _emit_map(sub, 0, mk.file if mk else top, lines)
    return "\n".join(lines) + "\n"


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def leaf(v: Any) -> str:
    """One scalar, or a small flow collection, as YAML text."""
    import yaml

    if v is None:
        return ""
    text: str = yaml.safe_dump(_plain(v), default_flow_style=True, allow_unicode=True,
                               width=10**6, sort_keys=False)
    text = text.rstrip("\n")
    if text.endswith("\n..."):
        text = text[:-4]
    return text.rstrip("\n")


def _same_file(v: Any, file: str) -> bool:
    if isinstance(v, YMap):
        return all(m.file == file for m in v.marks.values()) and all(
            _same_file(x, file) for x in v.values())
    if isinstance(v, YList):
        return all(m.file == file for m in v.marks) and all(_same_file(x, file) for x in v)
    return True


def _is_small(v: Any) -> bool:
    if isinstance(v, dict):
        return all(not isinstance(x, dict | list) and not (isinstance(x, str) and "\n" in x)
                   for x in v.values()) and len(leaf(v)) <= 70
    if isinstance(v, list):
        return all(not isinstance(x, dict | list) and not (isinstance(x, str) and "\n" in x)
                   for x in v) and len(leaf(v)) <= 70
    return True


def _emit_value(head: str, v: Any, ind: int, file: str, note: str, lines: list[str]) -> None:
    pad = " " * ind
    if isinstance(v, str) and "\n" in v:
        # a block scalar: '|' keeps the one final newline, '|-' means there is none
        body, style = (v[:-1], "|") if v.endswith("\n") and not v.endswith("\n\n") else (
            v, "|-")
        lines.append(f"{pad}{head} {style}{note}")
        lines.extend((" " * (ind + 2) + t) if t else "" for t in body.split("\n"))
    elif isinstance(v, dict | list) and v and not (_is_small(v) and _same_file(v, file)):
        lines.append(f"{pad}{head}{note}")
        if isinstance(v, dict):
            _emit_map(v, ind + 2, file, lines)
        else:
            _emit_list(v, ind + 2, file, lines)
    else:
        text = leaf(v)
        lines.append(f"{pad}{head}{' ' + text if text else ''}{note}")


def _emit_map(m: dict[str, Any], ind: int, file: str, lines: list[str]) -> None:
    for k, v in m.items():
        mk = m.marks.get(k) if isinstance(m, YMap) else None
        here = mk.file if mk else file
        note = f"  # ← {mk.file}:{mk.line}" if mk and here != file else ""
        _emit_value(f"{leaf(k)}:", v, ind, here, note, lines)


def _emit_list(lst: list[Any], ind: int, file: str, lines: list[str]) -> None:
    pad = " " * ind
    for i, item in enumerate(lst):
        mk = lst.marks[i] if isinstance(lst, YList) and i < len(lst.marks) else None
        here = mk.file if mk else file
        note = f"  # ← {mk.file}:{mk.line}" if mk and here != file else ""
        if isinstance(item, dict) and item and not (_is_small(item) and _same_file(item, here)):
            sub: list[str] = []
            _emit_map(item, ind + 2, here, sub)
            if note:
                lines.append(f"{pad}#{note[3:]}")
            lines.append(f"{pad}- {sub[0][ind + 2:]}")
            lines.extend(sub[1:])
        else:
            _emit_value("-", item, ind, here, note, lines)
