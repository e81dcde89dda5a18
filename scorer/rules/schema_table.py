"""The table's parts of a ruleset file: the winning shapes, the options, the context flags
the ruleset uses, the wildcard model and the display labels (read by :class:`TableSections`,
a part of :class:`scorer.rules.schema.Compiler`).
"""

from __future__ import annotations

from typing import Any

from ..lang import BOOL, INT, STR, TILE, Compiled, Scope
from ..lang.types import ANY, NONE, base, maybe
from ..model import tiles as T
from ..search.shapes import SHAPES
from ..text import show
from .files import nearest
from .flags import ALWAYS_FLAGS
from .flags import FEEDS as FLAGS
from .flags import FLAG as FLAG_ROWS
from .model import FlagSpec, OptionSpec, Wildcard
from .reader import Reader
from .sections import CONTEXT_FLAG, LABELS, OPTIONS, SHAPE, WILDCARD
from .yamlsafe import YList, YMap


class TableSections(Reader):
    """``shapes:``, ``options:``, ``context:``, ``wildcard:`` and ``labels:``."""

    def shapes(self, d: YMap, scope: Scope) -> tuple[tuple[str, ...],
                                                     tuple[tuple[str, Compiled], ...]]:
        """The shapes and the conditions of the conditional ones.

        An entry is a shape name, or ``{shape: NAME, when: CONDITION}``: the shape is
        tried only on hands where the condition (over context, options and hand facts)
        holds, e.g. ``{shape: as_held, when: "wild_count == 3"}`` (三金倒).
        """
        raw = d.get("shapes", ["standard"])
        known = list(SHAPES)
        conds: list[tuple[str, Compiled]] = []
        if not isinstance(raw, list) or not raw:
            self.problem(self.mark_of(d, "shapes"), "shapes", "schema.shapes", known=known)
            return ("standard",), ()
        out = []
        for i, s in enumerate(raw):
            if isinstance(s, YMap):
                self.mapping(s, SHAPE, f"shapes[{i}]")
                when = self.expr(s, "when", f"shapes[{i}].when", scope)
                entry = s
                s = s.get("shape")
                if s is None:
                    self.problem(entry.mark, f"shapes[{i}].shape", "schema.shape_missing")
                    continue
                if when is not None and s in known:
                    conds.append((str(s), when))
            if s not in known:
                self.problem(self.mark_of(raw, i), f"shapes[{i}]", "schema.unknown_shape",
                             name=s, hint=nearest(str(s), known))
            else:
                out.append(str(s))
        return tuple(out), tuple(conds)

    def options(self, raw: Any) -> dict[str, OptionSpec]:
        """``options:``: each a list of values with a default, or a whole-number range."""
        out: dict[str, OptionSpec] = {}
        for name, path, spec in self.entries(raw, OPTIONS, "options") or ():
            desc, desc_en = self.texts(spec, "description", f"{path}.description")
            desc_en = desc_en or self.text(spec, "description_en", f"{path}.description_en")
            values = spec.get("values")
            default = spec.get("default")
            if values is not None:
                if not isinstance(values, list) or not values or any(
                        isinstance(v, dict | list) for v in values):
                    self.problem(self.mark_of(spec, "values"), f"{path}.values",
                                 "schema.option_values")
                    continue
                vals = tuple(None if (isinstance(v, str) and v == "none") else v for v in values)
                if isinstance(default, str) and default == "none":
                    default = None
                if not any(default is v or (type(default) is type(v) and default == v)
                           for v in vals):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 "schema.option_default", values=[show(v) for v in vals])
                    # still define the name, so the expressions that use it (an inherited
                    # file's) do not each report it unknown: one mistake, one line
                    default = vals[0]
                kinds = {type(v) for v in vals if v is not None}
                typ = {bool: BOOL, int: INT, str: STR}.get(kinds.pop(), ANY) if len(
                    kinds) == 1 else ANY
                if None in vals:
                    typ = maybe(typ)
                out[name] = OptionSpec(name, vals, default, typ, description=desc,
                                       description_en=desc_en)
            else:
                lo, hi = spec.get("min"), spec.get("max")
                bad = [k for k, v in (("min", lo), ("max", hi))
                       if v is not None and (not isinstance(v, int) or isinstance(v, bool))]
                for k in bad:
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "schema.not_whole")
                if bad:
                    continue
                if not isinstance(default, int) or isinstance(default, bool):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 "schema.option_range")
                    default = lo if isinstance(lo, int) else 0  # (the name stays defined)
                out[name] = OptionSpec(name, None, default, INT, lo, hi, desc, desc_en)
        return out

    def flags(self, raw: Any) -> dict[str, FlagSpec]:
        """``context:``: the flags used, as a list or a mapping flag: {default, min, max}."""
        out: dict[str, FlagSpec] = {}
        if raw is None:
            return out
        items: list[tuple[str, Any]]
        if isinstance(raw, YList):
            items = [(str(x), None) for x in raw]
        elif isinstance(raw, YMap):
            items = list(raw.items())
        else:
            self.problem(getattr(raw, "mark", None), "context", "schema.context")
            return out
        for name, spec in items:
            path = f"context.{name}"
            if name not in FLAGS:
                always = name in ALWAYS_FLAGS
                self.problem(self.key_mark(raw, name) if isinstance(raw, YMap) else raw.mark,
                             path, "schema.unknown_flag_always" if always else
                             "schema.unknown_flag", name=name,
                             hint=None if always else nearest(name, list(FLAGS)))
                continue
            if spec is None:
                out[name] = FlagSpec(name)
                continue
            spec = self.mapping(spec, CONTEXT_FLAG, path, self.mark_of(raw, name))
            if spec is None:
                continue
            vals = {k: spec.get(k) for k in ("default", "min", "max")}
            bad = False
            for k, v in vals.items():
                if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "schema.not_whole")
                    bad = True
            row = FLAG_ROWS.get(name)
            if not bad and row is not None and row.type is int:
                self.check_flag_range(spec, path, row.bounds(), vals)
            out[name] = FlagSpec(name, vals["default"], vals["min"], vals["max"])
        return out

    def check_flag_range(self, spec: YMap, path: str, game: tuple[int, int],
                         vals: dict[str, Any]) -> None:
        """A flag's range narrows the game's (the flag table's), never widens it, and holds
        its default: each mistake a problem at the value written."""
        low, high = game
        lo = vals["min"] if vals["min"] is not None else low
        hi = vals["max"] if vals["max"] is not None else high
        for k, v in (("min", vals["min"]), ("max", vals["max"])):
            if v is not None and not low <= v <= high:
                self.problem(self.mark_of(spec, k), f"{path}.{k}", "schema.outside_game",
                             value=v, low=low, high=high)
        if lo > hi:
            self.problem(self.mark_of(spec, "min"), f"{path}.min", "schema.min_over_max",
                         min=lo, max=hi)
        d = vals["default"]
        if d is not None and not lo <= d <= hi:
            self.problem(self.mark_of(spec, "default"), f"{path}.default",
                         "schema.default_outside", value=d, low=lo, high=hi)


    def wildcard(self, raw: Any, scope: Scope) -> Wildcard | None:
        """``wildcard:``: the wildcard model, or None for a table without one."""
        raw = self.mapping(raw, WILDCARD, "wildcard")
        if raw is None:
            return None
        face = self.expr(raw, "face", "wildcard.face", scope)
        if face is not None and base(face.type) not in (TILE, NONE):
            self.problem(self.mark_of(raw, "face"), "wildcard.face", "schema.wildcard_face",
                         type=str(face.type))
        in_play = self.expr(raw, "in_play", "wildcard.in_play", scope, "number", default=4)
        stand_in = raw.get("stand_in")
        st: int | None = None
        if stand_in is not None:
            try:
                st = T.parse_tile(str(stand_in))
            except ValueError:
                self.problem(self.mark_of(raw, "stand_in"), "wildcard.stand_in",
                             "schema.stand_in_tile", value=str(stand_in))
        scope_v = raw.get("stand_in_scope", "all")
        if scope_v not in ("all", "melds"):
            self.problem(self.mark_of(raw, "stand_in_scope"), "wildcard.stand_in_scope",
                         "schema.stand_in_scope")
        shapes = raw.get("stand_in_self_shapes") or []
        known = list(SHAPES)
        if not isinstance(shapes, list) or any(s not in known for s in shapes):
            self.problem(self.mark_of(raw, "stand_in_self_shapes"),
                         "wildcard.stand_in_self_shapes", "schema.stand_in_shapes", known=known)
            shapes = []
        in_melds = raw.get("in_melds", True)
        if not isinstance(in_melds, bool):
            self.problem(self.mark_of(raw, "in_melds"), "wildcard.in_melds", "schema.not_bool")
        if face is None or in_play is None:
            return None
        return Wildcard(face, in_play, st, str(scope_v), frozenset(map(str, shapes)),
                        bool(in_melds))

    def labels(self, raw: Any) -> dict[str, tuple[str, str]]:
        """``labels:``: name -> (Chinese, English) display names."""
        out: dict[str, tuple[str, str]] = {}
        for k, _, v in self.entries(raw, LABELS, "labels") or ():
            if isinstance(v, YMap):
                out[k] = (str(v.get("zh", k)), str(v.get("en", v.get("zh", k))))
            else:
                out[k] = (str(v), str(v))
        return out
