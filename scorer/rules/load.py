"""Loading a ruleset: by built-in id or path, compiled once per process and cached.

The public entry points of the rules layer: :func:`load_ruleset` (find, read, merge
``extends:``, compile, cache), :func:`compile_ruleset` (a file's text to a
:class:`~scorer.rules.model.Ruleset`, every problem collected), :func:`list_builtin`.
Every cache of rulesets, in this process and on disk, is :mod:`scorer.rules.store`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import Problem, RulesetError
from . import notices, store
from .files import (
    builtin_path,
    display,
    hint_budget,
    is_builtin,
    is_path,
    list_builtin,
    locate,
    stamp,
)
from .model import Ruleset

__all__ = ["builtin_path", "compile_ruleset", "document", "is_path", "list_builtin",
           "load_ruleset", "locate"]

def load_ruleset(spec: str) -> Ruleset:
    """Load a ruleset by built-in id or path; compiled once per process and cached.

    A file is read again only when its size or modification time changes, or that of
    a file it extends, so editing a parent file is seen at once.

    >>> load_ruleset("hangzhou").name_en
    'Hangzhou'
    """
    spec_stamp = store.LOADED.spec_stamp(spec)
    hit = store.LOADED.recent(spec, spec_stamp)
    if hit is not None:
        return hit
    path, text = locate(spec, None, [])
    cached = store.LOADED.by_text(path, text)
    if cached is not None:
        rs, parents = cached
    else:
        rs = compile_ruleset(text, str(path))
        parents = tuple((p, stamp(p)) for p in rs.sources[1:])
    store.LOADED.put(spec, spec_stamp, path, text, rs, parents)
    return rs


def compile_ruleset(text: str, file: str) -> Ruleset:
    """Parse, merge, validate and compile a ruleset; raise RulesetError with every problem.

    A problem found in a file that this one extends is reported at its place in that
    file, with a note that the file is inherited (an override here may be the cause);
    the file's own problems come first.

    >>> compile_ruleset("extends: hangzhou\\nid: mine\\n", "mine.yaml").chain
    ('mine.yaml', 'hangzhou.yaml')
    """
    done = store.read_built(file, text)  # the ruleset as an earlier run built it
    if done is not None:
        for line in done[1]:
            notices.note(line, file)  # said after a run that succeeds (scorer.rules.notices)
        return done[0]
    from .schema import Compiler  # not needed at all when the ruleset was built before

    found: list[Problem] = []
    trusted = is_builtin(file)
    hit = store.read_document(file, text)  # the merged document an earlier run read
    with hint_budget():  # did-you-mean searches are bounded per load (files.nearest)
        if hit is None:
            from .inherit import read_merged  # imports PyYAML: only when the cache misses

            data, chain = read_merged(text, file, problems=found)
        else:
            data, chain = hit
        shown = display(file)
        c = Compiler(shown, data, metered=not trusted)
        c.snippets_checked = hit is not None
        rs = c.build()
    # a value the YAML reader refused was read as none: drop the schema's echo of it
    # ("missing", "must be a mapping") so each mistake is reported once
    seen = {(p.file, p.key) for p in found}
    problems = found + [p for p in c.problems if (p.file, p.key) not in seen]
    problems = [Problem(p.file, p.line, p.column, p.key, p.code,
                        {**(p.params or {}), "inherited_by": shown})
                if p.file and p.file != shown else p for p in problems]
    # in file order, this file first: an inherited problem is often the echo of a change here
    problems.sort(key=lambda p: (p.file != shown, p.file, p.line or 0, p.column or 0))
    if problems or rs is None:
        raise RulesetError(problems or [Problem(shown, None, None, "", "ruleset.not_compiled")])
    if hit is None:
        store.write_document(file, text, data, chain)
    for found_note in c.notices:  # an old spelling that still works: said once, where and
        notices.note(found_note, file)  # what, after a run that succeeds (rules.notices)
    out = replace(rs, chain=tuple(Path(p).name for p in chain), sources=tuple(chain),
                  data=data, trusted=trusted)
    store.write_built(file, text, out, [str(n) for n in c.notices], c.scopes)
    return out


def document(rs: Ruleset) -> Any:
    """The merged document ``rs`` was built from (a :class:`~scorer.rules.yamlsafe.YMap`
    with every key's position), for ``rules --yaml``.

    A ruleset built in this process holds it (``rs.data``); one read from the cache of
    built rulesets does not (scoring never needs it, and it is a third of the entry), so
    it is read again: from the document cache, else from the files.

    >>> document(load_ruleset("mcr"))["id"]
    'mcr'
    """
    if rs.data is not None:
        return rs.data
    file = rs.sources[0]
    text = Path(file).read_text(encoding="utf-8")
    hit = store.read_document(file, text)
    if hit is not None:
        return hit[0]
    from .inherit import read_merged

    return read_merged(text, file)[0]
