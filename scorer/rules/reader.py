"""Reading the parts of a ruleset file: where each value is written, problems and notices
collected with their place, sections checked against their layout, expressions compiled
once per text and scope.

:class:`Reader` is the base of the compiler (:class:`scorer.rules.schema.Compiler`); the
sections of a file are read by its parts (:mod:`~scorer.rules.schema_table`,
:mod:`~scorer.rules.schema_scoring`, :mod:`~scorer.rules.schema_checks`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from ..errors import Problem, RulesetError
from ..lang import Compiled, ExprError, Scope, compile_expr, is_numeric
from .files import nearest
from .inherit import origin
from .sections import MAX_ENTRIES, MAX_EXPR_TEXT, Section
from .yamlsafe import Mark, YList, YMap


class Reader:
    """Reads the parts of a merged ruleset map, collecting problems (see the module docstring)."""

    def __init__(self, file: str, data: YMap, metered: bool = True) -> None:
        self.metered = metered  # False for a trusted built-in file: no CPU budget ticks
        self.file = file
        self.data = data
        self.problems: list[Problem] = []
        # The load budget (docs/robustness.md): an expression written once and used many
        # times (a YAML alias, a parent's condition) is compiled once per scope; the text
        # compiled in all is held to MAX_EXPR_TEXT characters.
        self._compiled: dict[tuple[str, int], tuple[Scope, Compiled | ExprError]] = {}
        # the scope of each expression compiled, by id(its closure): what the cache of
        # built rulesets (scorer.rules.store) compiles it in again
        self.scopes: dict[int, Scope] = {}
        self.expr_text = 0
        # True for a document from the ruleset cache: its house_examples' YAML was read
        # when it was cached, and reading it again would import PyYAML at every start-up
        self.snippets_checked = False
        # old spellings that still load: printed on stderr by load.compile_ruleset
        self.notices: list[Problem] = []

    # -- reporting ----------------------------------------------------------------
    def problem(self, where: Mark | None, key: str, message: str, **params: Any) -> None:
        """Record a problem at ``where`` (file, line, column) under the key path ``key``:
        ``message`` is a code of the catalogue with its ``params`` (or, not converted yet,
        prose)."""
        if where is None:
            # a value without a position of its own (a scalar where a mapping was expected):
            # point at the top-level key it belongs to, so every problem has a line
            top = re.split(r"[.\[]", key, maxsplit=1)[0]
            where = self.data.vmarks.get(top) or self.data.marks.get(top) or self.data.mark
        f = where.file if where else self.file
        self.problems.append(Problem(f, where.line if where else None,
                                     where.column if where else None, key, message,
                                     params or None))

    def notice(self, where: Mark | None, key: str, code: str, **params: Any) -> None:
        """Record a note about a spelling that still works (see :attr:`notices`): a code
        of the catalogue with its ``params``."""
        f = where.file if where else self.file
        self.notices.append(Problem(f, where.line if where else None,
                                    where.column if where else None, key, code,
                                    params or None))

    def tool(self, d: YMap, tooling: YMap | None, key: str) -> tuple[YMap, str]:
        """Where a key of ``tooling:`` is read: (the mapping that holds it, its path). Its old
        top-level place wins when it is written there, with a notice; an absent key is
        read (as missing) from ``tooling:``, or from the top when there is none.

        >>> Reader("f.yaml", YMap()).tool(YMap(), None, "ties")
        ({}, 'tooling.ties')
        """
        if key in d:
            self.notice(self.key_mark(d, key), key, "schema.tooling_moved", name=key)
            return d, key
        return (tooling if tooling is not None else d), f"tooling.{key}"

    def mark_of(self, container: Any, key: Any) -> Mark | None:
        """Where the value of ``container[key]`` is written (else the container's position)."""
        if isinstance(container, YMap):
            return container.vmarks.get(key) or container.marks.get(key) or container.mark
        if isinstance(container, YList) and isinstance(key, int) and key < len(container.marks):
            return container.marks[key]
        return getattr(container, "mark", None)

    def key_mark(self, container: Any, key: str) -> Mark | None:
        """Where the key ``key`` of a mapping is written (None if it is not a mapping)."""
        if isinstance(container, YMap):
            return container.marks.get(key) or container.mark
        return None

    def check_keys(self, m: YMap, allowed: Collection[str], path: str) -> None:
        """Report every key of ``m`` not in ``allowed``, with the closest allowed one."""
        for k in m:
            if k not in allowed:
                self.problem(self.key_mark(m, k), f"{path}{k}" if not path else f"{path}.{k}",
                             "schema.unknown_key", name=k, hint=nearest(k, allowed))

    def _misfit(self, raw: Any, sec: Section, path: str, where: Mark | None,
                kind: type) -> bool:
        """Report a part that is missing (when required), of the wrong kind or empty."""
        if raw is None and not sec.required:
            return True
        if not isinstance(raw, kind) or (sec.nonempty and not raw):
            if where is None:  # else where the part's value is written (see problem)
                where = getattr(raw, "mark", None)
            self.problem(where, path, sec.wrong)
            return True
        return False

    def mapping(self, raw: Any, sec: Section, path: str,
                where: Mark | None = None) -> YMap | None:
        """``raw`` if it is a mapping laid out as ``sec`` says (unknown keys reported), else
        None (missing, or reported at ``where``, by default its own position).

        >>> from scorer.rules.sections import TIES
        >>> Reader("f.yaml", YMap()).mapping(None, TIES, "ties") is None
        True
        """
        if self._misfit(raw, sec, path, where, YMap):
            return None
        if sec.keys is not None:
            self.check_keys(raw, sec.keys, path)
        return raw  # type: ignore[no-any-return]

    def entries(self, raw: Any, sec: Section, path: str,
                where: Mark | None = None) -> list[tuple[Any, str, Any]] | None:
        """The entries of a list or mapping laid out as ``sec`` says, as (index or name,
        path, entry); an entry that does not fit is reported and left out. None when the
        part is missing or is not a list / mapping (reported, see :meth:`mapping`).

        >>> from scorer.rules.sections import CHECKS
        >>> c = Reader("f.yaml", YMap())
        >>> c.entries(YList(), CHECKS, "errors"), c.problems
        ([], [])
        """
        kind = YList if sec.many == "list" else YMap
        if self._misfit(raw, sec, path, where, kind):
            return None
        if len(raw) > MAX_ENTRIES:  # fatal: each entry is compiled, and checked against all
            mk = getattr(raw, "mark", None) or self.data.vmarks.get(path)
            raise RulesetError(Problem(
                mk.file if mk else self.file, mk.line if mk else None,
                mk.column if mk else None, path,
                "schema.too_many", {"n": f"{len(raw):,}", "limit": f"{MAX_ENTRIES:,}"}))
        out: list[tuple[Any, str, Any]] = []
        items: Iterable[tuple[Any, Any]] = enumerate(raw) if kind is YList else raw.items()
        for k, item in items:
            at = f"{path}[{origin(raw, k)}]" if kind is YList else f"{path}.{k}"
            if sec.name and not re.fullmatch(sec.name, k):
                self.problem(self.key_mark(raw, k), at, sec.wrong_name)
                continue
            if not isinstance(item, YMap):
                if not sec.scalars:
                    self.problem(self.mark_of(raw, k), at, sec.wrong_entry)
                    continue
            elif sec.keys is not None:
                self.check_keys(item, sec.keys, at)
            out.append((k, at, item))
        return out

    def expr(self, container: Any, key: Any, path: str, scope: Scope, want: str | None = None,
             default: Any = None) -> Compiled | None:
        """Compile ``container[key]`` in ``scope``; None (and a problem) if it is missing,
        does not compile, or is not a number when ``want="number"``."""
        value = container.get(key, default) if isinstance(container, dict) else container[key]
        if value is None:
            value = default
        if value is None:
            self.problem(self.mark_of(container, key), path, "schema.missing")
            return None
        try:
            c = self._compile(value, scope)
        except ExprError as e:
            mk = self.mark_of(container, key) if (isinstance(container, dict) and
                                                  key in container) else None
            col = None
            if mk is not None:
                col = mk.column + e.col + (1 if mk.quoted else 0)
                mk = Mark(mk.file, mk.line, col, mk.quoted)
            self.problem(mk, path, e.code, **e.params)
            return None
        if want == "number" and not is_numeric(c.type):
            self.problem(self.mark_of(container, key), path, "schema.not_number",
                         type=str(c.type))
            return None
        # run-time errors (division by zero, a number too large) name file, line and key
        mk = self.mark_of(container, key) if isinstance(container, dict) and key in container \
            else None
        c.where = f"{mk.file}:{mk.line} {path}" if mk is not None else f"{self.file} {path}"
        return c

    def _compile(self, value: Any, scope: Scope) -> Compiled:
        """``compile_expr(value, scope)``, once per text and scope; a copy, as ``where`` is
        set per use. Raises RulesetError (fatal) past :data:`MAX_EXPR_TEXT` characters.

        >>> c = Reader("f.yaml", YMap())
        >>> s = Scope({"n": "int"})
        >>> c._compile("n + 1", s) is not c._compile("n + 1", s), c.expr_text
        (True, 5)
        """
        src = value if isinstance(value, str) else repr(value)
        key = (src, id(scope))  # the scope is kept in the entry, so its id is not reused
        hit = self._compiled.get(key)
        if hit is None:
            self.expr_text += len(src)
            if self.expr_text > MAX_EXPR_TEXT:
                raise RulesetError(Problem(
                    self.file, None, None, "", "schema.expr_budget",
                    {"limit": f"{MAX_EXPR_TEXT:,}"}))
            try:
                result: Compiled | ExprError = compile_expr(value, scope, metered=self.metered)
            except ExprError as e:
                result = e
            hit = self._compiled[key] = (scope, result)
            if isinstance(result, Compiled):
                self.scopes[id(result.fn)] = scope
        if isinstance(hit[1], ExprError):
            raise hit[1]
        return replace(hit[1])

    def flag(self, m: YMap, key: str, path: str) -> bool:
        """A true/false key (default false)."""
        v = m.get(key, False)
        if not isinstance(v, bool):
            self.problem(self.mark_of(m, key), path, "schema.not_bool")
            return False
        return v

    def text(self, m: YMap, key: str, path: str, required: bool = False,
             default: str = "") -> str:
        """A text key (a number is taken as its text); ``default`` if missing or wrong."""
        v = m.get(key)
        if v is None:
            if required:
                self.problem(m.mark, path, "schema.missing")
            return default
        if not isinstance(v, str | int) or isinstance(v, bool):
            self.problem(self.mark_of(m, key), path, "schema.not_text")
            return default
        return str(v)

    def texts(self, m: YMap | list[Any], key: str | int, path: str,
              required: bool = False) -> tuple[str, str]:
        """A text a person reads, in both languages: ``{zh: ..., en: ...}`` (the spelling
        docs/rulesets.md documents), or one text for both (as files wrote it before: then
        ``(text, "")``). Returns ``(zh, en)``; a map missing one language uses the other.
        ``m`` may be a list and ``key`` its index (an item of ``notes:``)."""
        v = m.get(str(key)) if isinstance(m, dict) else m[int(key)]
        if isinstance(v, dict):
            extra = sorted(str(k) for k in v if k not in ("zh", "en"))
            if extra or not v:
                self.problem(self.mark_of(m, key), path, "schema.not_texts")
                return "", ""
            zh, en = v.get("zh"), v.get("en")
            if any(x is not None and not isinstance(x, str) for x in (zh, en)):
                self.problem(self.mark_of(m, key), path, "schema.not_text")
                return "", ""
            return str(zh if zh is not None else en), str(en if en is not None else zh)
        if not isinstance(m, dict):
            return str(v), ""  # a list's item: any scalar is taken as its text
        return self.text(m, str(key), path, required=required), ""

