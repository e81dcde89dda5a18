"""The ruleset schema: a merged YAML map validated and compiled into a :class:`Ruleset`.

A ruleset says which shapes win, how wildcards are read, which context flags it
uses, its options, its patterns (condition + value, in *tallies* that combine
by max / sum / product), which patterns replace others, what makes a hand not
a legal win, and how each payer's share is computed. Every condition and
formula is an expression of :mod:`scorer.lang`, type-checked against the
vocabulary of :mod:`scorer.rules.facts` at load time; a mistake is reported with
file, line, column and key, and all problems are collected before failing.
Finding files is :mod:`scorer.rules.files`, ``extends:`` :mod:`scorer.rules.inherit`.

The compiler is made of parts, one per kind of section: the layout of every section is
declared in :mod:`~scorer.rules.sections`, read by :class:`~scorer.rules.reader.Reader`
(places, problems, expressions); :mod:`~scorer.rules.schema_table` reads the shapes,
options, context flags, wildcard and labels, :mod:`~scorer.rules.schema_scoring` the
tallies, patterns and ties, :mod:`~scorer.rules.schema_checks` the checks and the
payment; this module the whole file, the house examples and the flags the expressions use.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import RulesetError
from ..lang import INT, TILE, Compiled, Scope
from ..search.shapes import SHAPES
from . import facts as F
from .flags import FEEDS as FLAGS
from .inherit import origin
from .model import Check, FlagSpec, HouseExample, Pattern, Ruleset
from .schema_checks import CheckSections
from .schema_scoring import ScoringSections
from .schema_table import TableSections
from .sections import HOUSE_EXAMPLES, HOUSE_NODES, MAX_FALSE_WIN, TOOLING, TOP_KEYS
from .yamlsafe import MAX_ITEMS, Mark, YList, YMap, load

__all__ = ["MAX_FALSE_WIN", "TOP_KEYS", "Compiler"]


class Compiler(TableSections, ScoringSections, CheckSections):
    """Validates a merged ruleset map and compiles it into a Ruleset, collecting problems."""

    # -- the whole file -----------------------------------------------------------
    def build(self) -> Ruleset | None:
        """The compiled Ruleset, or None when a problem was found (see :attr:`problems`)."""
        d = self.data
        self.check_keys(d, TOP_KEYS, "")
        rid = self.text(d, "id", "id", required=True)
        if rid and not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", rid):
            self.problem(self.mark_of(d, "id"), "id", "schema.bad_id")
        name = self.text(d, "name", "name", default=rid)
        name_en = self.text(d, "name_en", "name_en", default=name)
        source = self.text(d, "source", "source")
        notes_raw = d.get("notes") or []
        if isinstance(notes_raw, str):
            notes_raw = [notes_raw]
        # each note one text for both languages, or {zh: ..., en: ...}
        both = [self.texts(notes_raw, i, f"notes[{i}]") for i in range(len(notes_raw))
                ] if isinstance(notes_raw, list) else []
        notes = tuple(zh for zh, _ in both)
        notes_en = tuple(en for _, en in both) if any(en for _, en in both) else ()

        hand_size = d.get("hand_size", 14)
        if not isinstance(hand_size, int) or isinstance(hand_size, bool) or not (
                5 <= hand_size <= 20 and (hand_size - 2) % 3 == 0):
            self.problem(self.mark_of(d, "hand_size"), "hand_size", "schema.hand_size")
            hand_size = 14

        options = self.options(d.get("options"))
        flags = self.flags(d.get("context"))
        tallies = self.tallies(d.get("tallies"))
        tally_names = {t.name: INT for t in tallies}

        base_names = {**F.names_at("context"), **{o.name: o.type for o in options.values()}}
        opt_scope = Scope(base_names, F.ATTRS, {TILE: F.coerce_tile})
        hand_names = {**base_names, **F.names_at("hand")}
        reading_names = {**hand_names, **F.names_at("reading")}
        reading_scope = Scope(reading_names, F.ATTRS, {TILE: F.coerce_tile})
        hand_scope = Scope(hand_names, F.ATTRS, {TILE: F.coerce_tile}, readings=reading_scope)
        shapes, shape_when = self.shapes(d, Scope(hand_names, F.ATTRS, {TILE: F.coerce_tile}))
        for i, sname in enumerate(shapes):
            sizes = SHAPES[sname].sizes
            if sizes is not None and hand_size not in sizes:
                self.problem(self.mark_of(d.get("shapes"), i), f"shapes[{i}]",
                             "schema.shape_size", shape=sname, size=sorted(sizes),
                             hand_size=hand_size)
        result_scope = Scope({**reading_names, **tally_names, "score": INT}, F.ATTRS,
                             {TILE: F.coerce_tile})

        for oname in options:
            if oname in F.FACTS or oname in tally_names:
                self.problem(self.key_mark(d.get("options"), oname), f"options.{oname}",
                             "schema.option_is_fact", name=oname)

        players = self.expr(d, "players", "players", opt_scope, "number", default=4)
        suits = self.expr(d, "suits", "suits", opt_scope, default="['m', 'p', 's']")
        if suits is not None and str(suits.type) not in ("list[str]", "list[any]"):
            self.problem(self.mark_of(d, "suits"), "suits", "schema.suits", type=str(suits.type))
        rk = d.get("robbing_kong", "discard")
        if rk not in ("discard", "self_draw"):
            self.problem(self.mark_of(d, "robbing_kong"), "robbing_kong", "schema.robbing_kong")
            rk = "discard"
        false_win = d.get("false_win")
        if false_win is not None and (not isinstance(false_win, int) or isinstance(
                false_win, bool) or not 1 <= false_win <= MAX_FALSE_WIN):
            self.problem(self.mark_of(d, "false_win"), "false_win",
                         "schema.false_win", limit=f"{MAX_FALSE_WIN:,}")
            false_win = None
        tooling = self.mapping(d.get("tooling"), TOOLING, "tooling")
        holder, at = self.tool(d, tooling, "self_draw_default")
        sdd = self.expr(holder, "self_draw_default", at, opt_scope, default=False)
        wildcard = self.wildcard(d.get("wildcard"), opt_scope)
        labels = self.labels(d.get("labels"))
        for t in tallies:
            labels.setdefault(t.name, (t.label, t.label_en))
        errors = self.checks(d.get("errors"), "errors", hand_scope, default_on="hand",
                             allow_on=("hand",))
        not_a_win = self.checks(d.get("not_a_win"), "not_a_win", hand_scope,
                                default_on="hand", allow_on=("hand", "reading", "result"),
                                scopes={"reading": reading_scope, "result": result_scope})
        patterns = self.patterns(d.get("patterns"), reading_scope, tallies)
        score = self.expr(d, "score", "score", Scope({**tally_names}, F.ATTRS), "number",
                          default=tallies[0].name if tallies else "0")
        pay_scope_names = {**reading_names, **tally_names, **F.names_at("payment")}
        payment = self.payment(d.get("payment"), pay_scope_names, opt_scope)
        holder, at = self.tool(d, tooling, "house_examples")
        house_examples = self.house_examples(holder.get("house_examples"), at,
                                             self.mark_of(holder, "house_examples"))

        self.check_flags_used(flags, self.located(d, patterns, errors, not_a_win, shape_when))
        if (self.problems or players is None or sdd is None or score is None or payment is None
                or suits is None):
            return None
        holder, at = self.tool(d, tooling, "ties")
        tie_order, tie_prefer = self.ties(holder.get("ties"), {p.id for p in patterns}, at,
                                          self.mark_of(holder, "ties"))
        return Ruleset(
            id=rid, name=name, name_en=name_en, file=self.file, source=source, notes=notes, notes_en=notes_en,
            hand_size=hand_size, shapes=shapes, shape_when=shape_when, players=players,
            suits=suits, robbing_kong=str(rk), self_draw_default=sdd, flags=flags,
            options=options, wildcard=wildcard, labels=labels, errors=errors,
            not_a_win=not_a_win, tallies=tallies, score=score, patterns=patterns,
            payment=payment, house_examples=house_examples, tie_order=tie_order,
            tie_prefer=tie_prefer, false_win=false_win,
        )

    def house_examples(self, raw: Any, at: str = "tooling.house_examples",
                       where: Mark | None = None) -> tuple[HouseExample, ...]:
        """``tooling.house_examples:``: each {title, yaml}, the yaml a mapping of keys."""
        out: list[HouseExample] = []
        # The snippets share one node budget (an alias makes one text into many snippets,
        # each read again otherwise), and a text written twice is read once.
        budget = [HOUSE_NODES, HOUSE_NODES]
        checked: set[str] = set()
        for _, path, item in self.entries(raw, HOUSE_EXAMPLES, at, where) or ():
            title = self.text(item, "title", f"{path}.title", required=True)
            text = self.text(item, "yaml", f"{path}.yaml", required=True)
            fresh = bool(text) and not self.snippets_checked and text not in checked
            if fresh and budget[0] <= 0:
                self.problem(self.mark_of(item, "yaml"), f"{path}.yaml", "schema.house_budget",
                             limit=HOUSE_NODES)
                break  # the rest is not read either (each would cost a parse)
            if fresh:
                checked.add(text)
                # the snippet is added to a file that extends this one: it must be a mapping
                try:
                    snippet = load(text, self.file, budget=budget, max_items=MAX_ITEMS)
                except RulesetError as e:
                    code, params = e.problems[0].coded()
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml", code, **params)
                    continue
                if not isinstance(snippet, YMap):
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml",
                                 "schema.house_not_keys")
                    continue
            out.append(HouseExample(title, text))
        return tuple(out)


    def located(self, d: YMap, patterns: tuple[Pattern, ...], errors: tuple[Check, ...],
                not_a_win: tuple[Check, ...], shape_when: tuple[tuple[str, Compiled], ...],
                ) -> list[tuple[Compiled, Mark | None, str]]:
        """Every expression of patterns, checks and shape conditions, with where it is
        written (so a problem with one points at it, in the file it is written in)."""
        out: list[tuple[Compiled, Mark | None, str]] = []
        raw = d.get("patterns")
        for p in patterns:
            item = raw[p.index] if isinstance(raw, YList) and p.index < len(raw) else None
            path = f"patterns[{origin(raw, p.index)}]"
            for attr in ("when", "value", "count", "each"):
                c = getattr(p, attr)
                if c is not None:
                    out.append((c, self.mark_of(item, attr) if item else None, f"{path}.{attr}"))
            also = item.get("also") if isinstance(item, YMap) else None
            for tname, c in p.also:
                out.append((c, self.mark_of(also, tname) if also else None,
                            f"{path}.also.{tname}"))
        for _, c in shape_when:
            out.append((c, self.mark_of(d, "shapes"), "shapes"))
        for key, checks in (("errors", errors), ("not_a_win", not_a_win)):
            raw = d.get(key)
            items = list(raw) if isinstance(raw, YList) else []
            for c in checks:
                idx = next((i for i, it in enumerate(items) if isinstance(it, YMap)
                            and str(it.get("id", f"{key}{i}")) == c.id), None)
                out.append((c.when, self.mark_of(items[idx], "when") if idx is not None else None,
                            f"{key}[{origin(raw, idx)}].when" if idx is not None else key))
        return out

    def check_flags_used(self, flags: dict[str, FlagSpec],
                         exprs: list[tuple[Compiled, Mark | None, str]]) -> None:
        """A fact fed by a context flag needs the flag listed under ``context:``; the
        problem is reported at the first expression that uses it."""
        for flag, feeds in FLAGS.items():
            if flag in flags:
                continue
            for name in feeds:
                if (flag == "kongs" and "kong_draw" in flags) or (
                        flag == "kong_draw" and name == "kongs" and "kongs" in flags):
                    continue
                user = next(((m, k) for c, m, k in exprs if name in c.names), None)
                if user is None:
                    continue
                mark, key = user
                if mark is None:
                    mark, key = self.data.marks.get("context") or self.data.mark, "context"
                self.problem(mark, key, "schema.needs_flag", name=name, flag=flag)
                break
