"""``extends:``: a ruleset file that starts from another, merged key by key and id by id.

``extends:`` names a built-in id or a path relative to the file; mappings merge
key by key, lists of entries with an ``id`` (patterns, errors, not_a_win) merge by
id, ``remove:`` drops entries. Every value keeps the position it was written at (in
whichever file), so problems are reported there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Problem, RulesetError
from ..text import Known
from .files import display, ident, is_builtin, is_path, locate, nearest
from .yamlsafe import MAX_ITEMS, Mark, YList, YMap, load

MAX_EXTENDS = 8

# Top-level lists whose entries have an ``id``: a child's entry with an inherited id
# changes that entry key by key; one with a new id is added; ``remove:`` drops ids.
ID_LISTS = ("patterns", "errors", "not_a_win")


def read_merged(text: str, file: str, chain: list[str] | None = None,
                problems: list[Problem] | None = None) -> tuple[YMap, list[str]]:
    """Parse a ruleset file and everything it extends; return the merged map and the chain.

    The chain lists the files read, the given one first (resolved paths). A file
    that extends another (``extends: hangzhou`` or ``extends: ../base.yaml``, a path
    relative to the file) starts from the parent's merged map: see :func:`merge_ruleset`.
    A missing parent, a cycle or more than ``MAX_EXTENDS`` levels is a RulesetError at
    the ``extends:`` line, with the chain of files. Problems that leave a file readable
    (see :func:`scorer.rules.yamlsafe.load`) are added to ``problems`` when it is given, else
    raised.

    >>> data, chain = read_merged("extends: hangzhou\\nid: mine\\n", "mine.yaml")
    >>> data["id"], data["name_en"], [c.rsplit("/", 1)[-1] for c in chain]
    ('mine', 'Hangzhou', ['mine.yaml', 'hangzhou.yaml'])
    """
    chain = list(chain or [])
    shown = display(file)
    # Built-in files are ours: read them with libyaml (1 ms instead of 11 ms).
    data = load(text, shown, trusted=is_builtin(file), problems=problems, max_items=MAX_ITEMS)
    if not isinstance(data, YMap):
        raise RulesetError(Problem(shown, 1, 1, "", "ruleset.not_mapping"))
    chain.append(ident(file))
    parent_spec = data.get("extends")
    if parent_spec is None and "extends" not in data:
        if "remove" in data:
            m = data.marks.get("remove")
            raise RulesetError(Problem(shown, m.line if m else None, m.column if m else None,
                                       "remove", "remove.needs_extends"))
        return data, chain
    m = data.vmarks.get("extends")
    line, col = (m.line, m.column) if m else (None, None)
    names = [Path(c).name for c in chain]
    if "extends" in data and parent_spec is None:
        raise RulesetError(Problem(shown, line, col, "extends", "extends.missing"))
    if not isinstance(parent_spec, str) or not parent_spec.strip():
        raise RulesetError(Problem(shown, line, col, "extends", "extends.not_text"))
    if is_path(parent_spec) and not parent_spec.endswith((".yaml", ".yml")):
        # a ruleset may only read other rulesets, not any file it can name
        raise RulesetError(Problem(shown, line, col, "extends", "extends.not_yaml",
                                   {"name": parent_spec}))
    if len(chain) > MAX_EXTENDS:
        raise RulesetError(Problem(shown, line, col, "extends", "extends.too_deep",
                                   {"limit": MAX_EXTENDS, "names": " → ".join(names)}))
    try:
        ppath, ptext = locate(parent_spec, Path(file).parent, names)
    except RulesetError as e:  # said at this file's extends: line, in its own words
        code, params = e.problems[0].coded() if e.problems else (e.code, e.params)
        raise RulesetError(Problem(shown, line, col, "extends", code, params)) from None
    if ident(str(ppath)) in chain:
        cycle = [*names, ppath.name]
        raise RulesetError(Problem(shown, line, col, "extends", "extends.cycle",
                                   {"names": " → ".join(cycle)}))
    parent, chain = read_merged(ptext, str(ppath), chain, problems)
    merge_problems: list[Problem] = []
    merged = merge_ruleset(parent, data, merge_problems)
    if merge_problems:
        raise RulesetError(merge_problems)
    if "id" not in data:
        # A house file without its own id is named after the file, so that results and
        # disputes never show it under its parent's id.
        merged["id"] = Path(file).stem
        merged.marks["id"] = merged.vmarks["id"] = Mark(shown, 1, 1)
    return merged, chain


def merge_ruleset(parent: YMap, child: YMap, problems: list[Problem]) -> YMap:
    """Merge a child ruleset file over its (merged) parent.

    * mappings (``options``, ``context``, ``labels``, ``payment`` …) merge key by key,
      recursively: ``options: {cap: {default: 128}}`` changes one default;
    * the lists of :data:`ID_LISTS` merge by ``id``: an entry with an inherited id
      changes that entry key by key (``{id: baotou, value: 4}``), a new id adds an
      entry (a new pattern must say ``when:``);
    * ``remove: [id, ...]`` drops inherited entries before the child's are added (so
      remove + an entry with the same id replaces it whole); ``replaces:`` lists of
      inherited patterns forget the removed ids;
    * any other value (text, numbers, other lists) is replaced by the child's.

    Problems (an unknown id in ``remove``, an override of a pattern that does not
    exist) are appended to ``problems`` with the child's file and line.
    """
    removed = _removals(parent, child, problems)
    base = _without(parent, removed) if removed else parent
    out = YMap(child.mark)
    _copy_into(out, base)
    for k, v in child.items():
        if k in ("extends", "remove"):
            continue
        if k in ID_LISTS and isinstance(v, YList) and isinstance(out.get(k), YList):
            out[k] = _merge_by_id(out[k], v, k, problems)
        else:
            out[k] = merge(out[k], v) if k in out else v
        out.marks[k] = child.marks[k]
        out.vmarks[k] = child.vmarks[k]
    return out


def merge(parent: Any, child: Any) -> Any:
    """Merge two values of a ruleset: mappings key by key, lists of entries with ids by id,
    anything else is the child's value.

    >>> merge({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"d": 4}})
    {'a': 1, 'b': {'c': 2, 'd': 4}}
    """
    if isinstance(parent, dict) and isinstance(child, dict):
        out = YMap(getattr(child, "mark", None))
        _copy_into(out, parent)
        for k, v in child.items():
            out[k] = merge(out[k], v) if k in out else v
            if isinstance(child, YMap):
                if k in child.marks:
                    out.marks[k] = child.marks[k]
                if k in child.vmarks:
                    out.vmarks[k] = child.vmarks[k]
        return out
    if isinstance(parent, YList) and isinstance(child, YList) and _has_ids(parent) and _has_ids(
            child):
        return _merge_by_id(parent, child, "", [])
    return child


def _copy_into(out: YMap, src: dict[str, Any]) -> None:
    # copy the keys with their positions, so problems found later point into the right file
    for k, v in src.items():
        out[k] = v
        if isinstance(src, YMap):
            if k in src.marks:
                out.marks[k] = src.marks[k]
            if k in src.vmarks:
                out.vmarks[k] = src.vmarks[k]


def origin(lst: Any, i: int) -> int:
    """The index an entry of a merged list had in the file it was written in.

    >>> origin(["a", "b"], 1)
    1
    """
    origins = getattr(lst, "origins", None)
    return origins[i] if origins is not None and i < len(origins) else i


def _new_list(mark: Mark | None) -> YList:
    out = YList(mark)
    out.origins = []  # type: ignore[attr-defined]
    return out


def _append(out: YList, item: Any, mark: Mark, index: int) -> None:
    out.append(item)
    out.marks.append(mark)
    out.origins.append(index)  # type: ignore[attr-defined]


def _merge_by_id(parent: YList, child: YList, key: str, problems: list[Problem]) -> YList:
    out = _new_list(child.mark)
    index: dict[str, int] = {}
    for i, (item, mk) in enumerate(zip(parent, parent.marks, strict=False)):
        pid = item.get("id") if isinstance(item, dict) else None
        if isinstance(pid, str):
            index[pid] = len(out)
        _append(out, item, mk, origin(parent, i))
    known = Known(index)
    for j, (item, mk) in enumerate(zip(child, child.marks, strict=False)):
        pid = item.get("id") if isinstance(item, dict) else None
        if isinstance(pid, str) and pid in index:
            pos = index[pid]
            out[pos] = merge(out[pos], item)
            out.marks[pos] = mk
            out.origins[pos] = j  # type: ignore[attr-defined]
            continue
        if key == "patterns" and isinstance(item, YMap) and isinstance(pid, str) and (
                "when" not in item):
            # An override whose id matches nothing would silently add a pattern that always
            # applies (when defaults to true): almost surely a misspelt id.
            close = nearest(pid, known)  # bounded per load (files.hint_budget)
            mark = item.vmarks.get("id") or mk
            problems.append(Problem(mark.file, mark.line, mark.column, f"patterns[{j}].id",
                                    "extends.no_pattern", {"id": pid, "hint": close}))
        _append(out, item, mk, j)
    return out


def _removals(parent: YMap, child: YMap, problems: list[Problem]) -> set[str]:
    """The ids a child's ``remove:`` drops, each checked against the parent's entries."""
    raw = child.get("remove")
    if raw is None:
        return set()
    m = child.vmarks.get("remove") or child.mark
    if isinstance(raw, str):
        lst = YList(m)
        lst.append(raw)
        lst.marks.append(m)  # type: ignore[arg-type]
        raw = lst
    if not isinstance(raw, YList):
        problems.append(Problem(m.file if m else "", m.line if m else None,
                                m.column if m else None, "remove", "remove.not_list"))
        return set()
    known: dict[str, None] = {}  # ordered (the hint takes the first close one), and O(1) `in`
    for key in ID_LISTS:
        entries = parent.get(key)
        if isinstance(entries, list):
            known.update((str(i["id"]), None) for i in entries if isinstance(i, dict) and "id" in i)
    out: set[str] = set()
    prepared = Known(known)
    for j, rid in enumerate(raw):
        mk = raw.marks[j] if j < len(raw.marks) else m
        if not isinstance(rid, str):
            problems.append(Problem(mk.file if mk else "", mk.line if mk else None,
                                    mk.column if mk else None, f"remove[{j}]",
                                    "remove.not_text"))
            continue
        if rid not in known:
            problems.append(Problem(mk.file if mk else "", mk.line if mk else None,
                                    mk.column if mk else None, f"remove[{j}]", "remove.unknown",
                                    {"id": rid, "hint": nearest(str(rid), prepared)}))
            continue
        out.add(rid)
    return out


def _without(parent: YMap, removed: set[str]) -> YMap:
    """A copy of ``parent`` without the removed entries; ``replaces`` lists forget them."""
    out = YMap(parent.mark)
    _copy_into(out, parent)
    for key in ID_LISTS:
        lst = parent.get(key)
        if not isinstance(lst, YList):
            continue
        kept = _new_list(lst.mark)
        for i, (item, mk) in enumerate(zip(lst, lst.marks, strict=False)):
            if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] in removed:
                continue
            if key == "patterns" and isinstance(item, YMap) and item.get("replaces"):
                rep = item["replaces"]
                reps = [rep] if isinstance(rep, str) else rep
                if isinstance(reps, list) and any(isinstance(r, str) and r in removed for r in reps):
                    item = merge(item, YMap())
                    new = YList(getattr(rep, "mark", None))
                    for r, rm in zip(reps, getattr(rep, "marks", [item.vmarks.get("replaces")]
                                                   * len(reps)), strict=False):
                        if not (isinstance(r, str) and r in removed):
                            new.append(r)
                            new.marks.append(rm)
                    item["replaces"] = new
            _append(kept, item, mk, origin(lst, i))
        out[key] = kept
    return out


def _has_ids(lst: list[Any]) -> bool:
    # ids must be text to merge by; anything else (a list, a mapping) is reported by the
    # compiler as "must be text" instead of crashing here as an unhashable key
    return bool(lst) and all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in lst)
