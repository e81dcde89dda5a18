"""The scoring parts of a ruleset file: the tallies, the patterns (their tiers, combination
patterns counted once, ``each:`` filters) and how readings that score alike are ranked
(read by :class:`ScoringSections`, a part of :class:`scorer.rules.schema.Compiler`).
"""

from __future__ import annotations

import re
from typing import Any

from ..lang import BOOL, GROUP, INT, STR, TILE, Compiled, ExprError, Scope, compile_expr, is_numeric
from ..lang.types import is_list, list_of
from ..search.combine import MAX_SETS, SET_NAMES
from ..text import Known
from . import facts as F
from .files import nearest
from .inherit import origin
from .model import Pattern, Tally, Tier
from .reader import Reader
from .sections import (
    ALSO,
    COMBINES,
    COUNT_ONCE,
    COUNT_ONCE_SECTION,
    OLD_COUNT_ONCE,
    PATTERNS,
    TALLIES,
    TIERS,
    TIES,
)
from .yamlsafe import Mark, YList, YMap


class ScoringSections(Reader):
    """``tallies:``, ``patterns:`` and ``tooling.ties:``."""

    def tallies(self, raw: Any) -> tuple[Tally, ...]:
        """``tallies:``: name: {combine, label, default, hidden}; one ``score`` sum tally if
        none. A ``hidden`` tally is kept out of the calculation chain shown to people (a
        marker read by the payment, such as Sichuan's ``flat``); JSON still has it."""
        out = []
        for name, path, spec in self.entries(raw, TALLIES, "tallies") or ():
            comb = spec.get("combine")
            if comb not in COMBINES:
                self.problem(self.mark_of(spec, "combine"), f"{path}.combine", "schema.one_of",
                             allowed=list(COMBINES))
                continue
            default = spec.get("default", 1 if comb == "product" else 0)
            if not isinstance(default, int):
                self.problem(self.mark_of(spec, "default"), f"{path}.default",
                             "schema.not_a_number")
                default = 0
            hidden = spec.get("hidden", False)
            if not isinstance(hidden, bool):
                self.problem(self.mark_of(spec, "hidden"), f"{path}.hidden", "schema.hidden")
                hidden = False
            mk = self.key_mark(raw, name)
            out.append(Tally(name, str(comb), str(spec.get("label", name)),
                             str(spec.get("label_en", spec.get("label", name))), default,
                             f"{mk.file}:{mk.line} {path}" if mk else f"{self.file} {path}",
                             hidden))
        return tuple(out) or (Tally("score", "sum", "分", "points", 0),)


    def patterns(self, raw: Any, scope: Scope, tallies: tuple[Tally, ...]) -> tuple[Pattern, ...]:
        """``patterns:``: every pattern, ids unique, ``replaces`` naming existing ids."""
        entries = self.entries(raw, PATTERNS, "patterns")
        if entries is None:
            return ()
        ids: dict[str, int] = {}
        tally_names = [t.name for t in tallies]
        known_tallies = Known(tally_names)  # prepared once: a file may misname thousands
        out: list[Pattern] = []
        replaces_at: list[tuple[int, str, Any]] = []
        for i, path, item in entries:
            pid = self.text(item, "id", f"{path}.id", required=True)
            if pid in ids:
                self.problem(self.mark_of(item, "id"), f"{path}.id", "schema.id_twice", id=pid,
                             other=ids[pid])
            ids[pid] = origin(raw, i)
            tally = item.get("tally", tally_names[0] if tally_names else "score")
            if tally not in tally_names:
                self.problem(self.mark_of(item, "tally"), f"{path}.tally", "schema.unknown_tally",
                             name=tally, hint=nearest(str(tally), known_tallies))
                continue
            once = self.count_once(item, path, scope)
            when_scope = scope
            if once is not None:
                when_scope = Scope({n: GROUP for n in SET_NAMES[:once[1]]}, F.ATTRS,
                                   {TILE: F.coerce_tile}, what="expr.unknown_in_once",
                                   sets=", ".join(SET_NAMES[:once[1]]))
                for key in ("count", "each"):
                    if key in item:
                        self.problem(self.key_mark(item, key), f"{path}.{key}",
                                     "schema.once_no_count", name=key)
            when = self.expr(item, "when", f"{path}.when", when_scope, default=True)
            value = self.expr(item, "value", f"{path}.value", scope, "number")
            count = None
            if "count" in item and once is None:
                count = self.expr(item, "count", f"{path}.count", scope, "number")
            each = None
            if "each" in item and once is None:
                if "count" in item:
                    self.problem(self.key_mark(item, "each"), f"{path}.each",
                                 "schema.count_and_each")
                if isinstance(item["each"], YMap):
                    each = self.each_filter(item["each"], f"{path}.each", scope)
                else:
                    each = self.expr(item, "each", f"{path}.each", scope)
                if each is not None and not is_list(each.type):
                    self.problem(self.mark_of(item, "each"), f"{path}.each",
                                 "schema.each_not_list", type=str(each.type))
                    each = None
            also: list[tuple[str, Compiled]] = []
            also_raw = item.get("also")
            for tname, at, _ in self.entries(also_raw, ALSO, f"{path}.also",
                                             self.mark_of(item, "also")) or ():
                if tname not in tally_names:
                    self.problem(self.key_mark(also_raw, tname), at, "schema.unknown_tally",
                                 name=tname)
                    continue
                c = self.expr(also_raw, tname, at, scope, "number")
                if c is not None:
                    also.append((tname, c))
            rep = item.get("replaces") or []
            if isinstance(rep, str):
                rep = [rep]
            if not isinstance(rep, list):
                self.problem(self.mark_of(item, "replaces"), f"{path}.replaces",
                             "schema.pattern_ids")
                rep = []
            replaces_at.append((i, path, item))
            if when is None or value is None:
                continue
            out.append(Pattern(pid, self.text(item, "name", f"{path}.name", default=pid),
                               self.text(item, "name_en", f"{path}.name_en",
                                         default=str(item.get("name", pid))),
                               str(tally), when, value, count, frozenset(map(str, rep)),
                               tuple(also), self.text(item, "notes", f"{path}.notes"), i,
                               self.flag(item, "fallback", f"{path}.fallback"), each,
                               once, self.tiers(item, path, scope)))
        known_ids = Known(ids)
        for _i, path, item in replaces_at:
            rep = item.get("replaces") or []
            if isinstance(rep, str):
                rep = [rep]
            for j, r in enumerate(rep if isinstance(rep, list) else []):
                if not isinstance(r, str) or r not in ids:  # (a list or mapping is no id)
                    container = item.get("replaces")
                    self.problem(self.mark_of(container, j) if isinstance(container, YList)
                                 else self.mark_of(item, "replaces"), f"{path}.replaces[{j}]",
                                 "schema.no_pattern", id=r, hint=nearest(str(r), known_ids))
        return tuple(out)

    def tiers(self, item: YMap, path: str, scope: Scope) -> tuple[Tier, ...]:
        """A pattern's ``tiers:``: each {when, name, name_en}; a ``{fact}`` or
        ``{fact:a|b}`` in a name must be a number the pattern's expressions can use."""
        out = []
        for _i, at, entry in self.entries(item.get("tiers"), TIERS, f"{path}.tiers",
                                          self.mark_of(item, "tiers")) or ():
            when = self.expr(entry, "when", f"{at}.when", scope, default=True)
            name = self.text(entry, "name", f"{at}.name", required=True)
            name_en = self.text(entry, "name_en", f"{at}.name_en", default=name)
            for key, text in (("name", name), ("name_en", name_en)):
                for m in re.finditer(r"\{([^{}:]*)(?::[^{}]*)?\}", text):
                    try:
                        ok = is_numeric(compile_expr(m.group(1), scope).type)
                    except ExprError:
                        ok = False
                    if not ok or not re.fullmatch(r"[a-z_][a-z0-9_]*", m.group(1)):
                        self.problem(self.mark_of(entry, key), f"{at}.{key}", "schema.tier_name",
                                     name=m.group(1))
            if when is not None:
                out.append(Tier(when, name, name_en))
        return tuple(out)

    def ties(self, raw: Any, ids: set[str], at: str = "tooling.ties",
             where: Mark | None = None) -> tuple[str, frozenset[str]]:
        """Read ``tooling.ties: {order: found|sets, prefer: [pattern ids]}``."""
        raw = self.mapping(raw, TIES, at, where)
        if raw is None:
            return "found", frozenset()
        order = raw.get("order", "found")
        if order not in ("found", "sets"):
            self.problem(self.mark_of(raw, "order"), f"{at}.order", "schema.tie_order")
            order = "found"
        prefer = raw.get("prefer") or []
        if not isinstance(prefer, list):
            self.problem(self.mark_of(raw, "prefer"), f"{at}.prefer", "schema.pattern_ids")
            prefer = []
        known = Known(ids)
        for j, pid in enumerate(prefer):
            if pid not in ids:
                self.problem(self.mark_of(prefer, j) if isinstance(prefer, YList)
                             else self.mark_of(raw, "prefer"), f"{at}.prefer[{j}]",
                             "schema.no_pattern", id=pid, hint=nearest(str(pid), known))
        return str(order), frozenset(map(str, prefer))

    def count_once(self, item: YMap, path: str, scope: Scope) -> tuple[str, int] | None:
        """Read ``count_once: {of: LIST, sets: N}`` (a list of groups, 2..4 sets), or its old
        spelling ``combine:`` (with a notice: under ``tallies:`` combine means how values add up)."""
        key = COUNT_ONCE
        if OLD_COUNT_ONCE in item:
            if COUNT_ONCE in item:
                self.problem(self.key_mark(item, OLD_COUNT_ONCE), f"{path}.{OLD_COUNT_ONCE}",
                             "schema.count_once_twice")
                return None
            key = OLD_COUNT_ONCE
            self.notice(self.key_mark(item, key), f"{path}.{key}", "schema.count_once_renamed")
        raw = self.mapping(item.get(key), COUNT_ONCE_SECTION, f"{path}.{key}",
                           self.mark_of(item, key))
        if raw is None:
            return None
        path = f"{path}.{key}"
        of, n = raw.get("of"), raw.get("sets")
        if not isinstance(of, str) or scope.names.get(of) != list_of(GROUP):
            lists = sorted(k for k, v in scope.names.items() if v == list_of(GROUP))
            self.problem(self.mark_of(raw, "of"), f"{path}.of", "schema.count_once_of",
                         lists=lists)
            return None
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= MAX_SETS:
            self.problem(self.mark_of(raw, "sets"), f"{path}.sets", "schema.count_once_sets",
                         limit=MAX_SETS)
            return None
        return of, n

    def each_filter(self, raw: YMap, path: str, scope: Scope) -> Compiled | None:
        """Read ``each: {of: LIST, ATTR: VALUE, ...}``: the items of a list of groups (or of
        tiles) whose attributes have these values, compiled as the list comprehension it
        stands for; None (and a problem at the key) when it does not fit.

        ``{of: pungs, dragon: true, kong: false}`` is ``[g for g in pungs if g.dragon and
        not g.kong]``; a true/false attribute takes true or false, a number or text
        attribute a value it must equal (``{of: tiles, suit: m}``).
        """
        lists = {n: e for n, t in scope.names.items()
                 for e in (GROUP, TILE) if t == list_of(e)}
        of = raw.get("of")
        if not isinstance(of, str) or of not in lists:
            self.problem(self.mark_of(raw, "of") if "of" in raw else raw.mark, f"{path}.of",
                         "schema.each_of_missing" if of is None else "schema.each_of",
                         name=of, lists=sorted(lists),
                         hint=nearest(of, lists) if isinstance(of, str) else None)
            return None
        elem = lists[of]
        attrs = F.ATTRS[elem]
        var = "g" if elem == GROUP else "t"
        conds: list[str] = []
        ok = True
        for k, v in raw.items():
            if k == "of":
                continue
            attr = attrs.get(k)
            if attr is None:
                self.problem(self.key_mark(raw, k), f"{path}.{k}", "schema.not_attribute",
                             name=k, kind=str(elem), hint=nearest(k, attrs))
                ok = False
            elif attr.type == BOOL:
                if not isinstance(v, bool):
                    self.problem(self.mark_of(raw, k), f"{path}.{k}", "schema.not_bool")
                    ok = False
                conds.append(f"{var}.{k}" if v else f"not {var}.{k}")
            elif attr.type in (INT, STR) and isinstance(v, int if attr.type == INT else str) \
                    and not isinstance(v, bool):
                conds.append(f"{var}.{k} == {v!r}")
            else:
                want = {INT: "schema.not_whole", STR: "schema.not_text"}.get(attr.type)
                self.problem(self.mark_of(raw, k), f"{path}.{k}", want or "schema.each_kind",
                             type=str(attr.type))
                ok = False
        if not ok:
            return None
        src = f"[{var} for {var} in {of}{' if ' + ' and '.join(conds) if conds else ''}]"
        try:
            c = compile_expr(src, scope, metered=self.metered)
        except ExprError as e:  # pragma: no cover - every part was checked above
            self.problem(raw.mark, path, e.code, **e.params)
            return None
        self.scopes[id(c.fn)] = scope
        mk = raw.mark
        c.where = f"{mk.file}:{mk.line} {path}" if mk is not None else f"{self.file} {path}"
        return c
