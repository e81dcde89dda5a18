"""The ruleset schema: a merged YAML map validated and compiled into a :class:`Ruleset`.

A ruleset says which shapes win, how wildcards are read, which context flags it
uses, its options, its patterns (condition + value, in *tallies* that combine
by max / sum / product), which patterns replace others, what makes a hand not
a legal win, and how each payer's share is computed. Every condition and
formula is an expression of :mod:`scorer.lang`, type-checked against the
vocabulary of :mod:`scorer.rules.facts` at load time; a mistake is reported with
file, line, column and key, and all problems are collected before failing.
Finding files is :mod:`scorer.rules.files`, ``extends:`` :mod:`scorer.rules.inherit`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from ..errors import Problem, RulesetError
from ..lang import BOOL, GROUP, INT, STR, TILE, Compiled, ExprError, Scope, compile_expr, is_numeric
from ..lang.types import ANY, NONE, Type, base, is_list, list_of, maybe
from ..model import tiles as T
from ..record import record
from ..search.combine import MAX_SETS, SET_NAMES
from ..search.shapes import SHAPES
from ..text import Known, show
from . import facts as F
from .files import did_you_mean
from .flags import ALWAYS_FLAGS
from .flags import FEEDS as FLAGS
from .flags import FLAG as FLAG_ROWS
from .inherit import origin
from .model import (
    PLACEHOLDER,
    Check,
    Chengbao,
    FlagSpec,
    HouseExample,
    Let,
    OptionSpec,
    Pattern,
    Payment,
    Ruleset,
    Tally,
    Tier,
    Wildcard,
)
from .yamlsafe import MAX_ITEMS, Mark, YList, YMap, load

TOP_KEYS = {
    "id": "the ruleset's id (letters, digits, - and _)",
    "name": "Chinese name",
    "name_en": "English name",
    "extends": "a built-in ruleset id or a path to start from",
    "source": "where the rules come from",
    "notes": "rulings and remarks (a list of texts)",
    "hand_size": "tiles in a winning hand before kong extras (14, or 17 for Xiamen)",
    "shapes": f"winning shapes: {', '.join(SHAPES)}; an entry may be "
    "{shape: NAME, when: CONDITION} to try the shape only on hands where the condition holds",
    "players": "number of players (an expression over options)",
    "suits": "suits in play, e.g. ['m', 'p'] for a table without bamboo (an expression)",
    "robbing_kong": "how a robbed kong counts: discard (default) or self_draw",
    "false_win": "points a false win (诈胡/错和) pays each other player, where the rules fix "
    "them (MCR: 10); a ledger's penalty line may give its own",
    "context": "the context flags this ruleset uses, with default/min/max",
    "options": "house options with their values and default",
    "wildcard": "the wildcard model (face, in_play, stand_in, …)",
    "labels": "display names of values in the calculation chain ('' shows the bare number)",
    "errors": "input errors (exit 2): when + message",
    "not_a_win": "conditions that make a hand not a legal win (exit 3)",
    "tallies": "how pattern values combine: max, sum or product",
    "score": "the headline number (an expression over tallies)",
    "patterns": "the scoring patterns",
    "payment": "what each payer pays",
    "remove": "ids of inherited patterns, errors or not_a_win entries to drop",
    "tooling": "how mjscore handles the ruleset, not rules of the game: self_draw_default, "
    "ties, house_examples",
}
# The keys of ``tooling:``. Each was a top-level key before; that spelling still loads, with
# a note on stderr naming the new place (see Compiler.tool).
TOOLING_KEYS = {
    "self_draw_default": "condition: treat a win as self-drawn when neither --self-draw nor "
    "--from is given",
    "ties": "how readings that score alike are ranked: order (found | sets) and prefer "
    "(pattern ids)",
    "house_examples": "common house changes offered by 'mjscore rules new --from ID': "
    "a list of {title, yaml}",
}
TOP_KEYS.update({k: f"old spelling of tooling.{k} (still read)" for k in TOOLING_KEYS})
# The pattern key of a combination pattern (套算一次), and its old spelling (still read):
# under tallies:, combine: says how the values of a tally combine.
COUNT_ONCE, OLD_COUNT_ONCE = "count_once", "combine"
PATTERN_KEYS = {"id", "name", "name_en", "tally", "when", "value", "count", "each", "replaces",
                "also", "notes", "fallback", COUNT_ONCE, OLD_COUNT_ONCE, "tiers"}
CHECK_KEYS = {"id", "when", "message", "on", "reason"}
COMBINES = ("max", "sum", "product")
# The load budget (docs/robustness.md): the largest built-in ruleset has 94 patterns and
# 6,000 characters of expressions; these bounds keep 'rules check' of any file under a second.
MAX_ENTRIES = 1000  # entries of one list or mapping (patterns, errors, options, ...)
# characters of expressions compiled, aliases and extends included: more than one file can
# hold (a file of big conditions loads), less than a chain of them or an alias's repeats
MAX_EXPR_TEXT = 600 * 1024
MAX_FALSE_WIN = 1_000_000  # points a false win pays each other player (a ledger's bound too)
HOUSE_NODES = 10_000  # values of all house_examples snippets together (the built-ins': 200)


@record(frozen=True)
class Section:
    """The layout of one part of a ruleset file, declared once and checked by the compiler.

    A mapping with the keys ``keys`` (``many=None``, see :meth:`Compiler.mapping`), or a
    list (``many="list"``) or mapping (``many="map"``) of such entries (see
    :meth:`Compiler.entries`). What does not fit is reported with these messages, at
    the place it is written; the entries that fit are handed to the compiler.
    """

    keys: frozenset[str] | None  # the keys a mapping (an entry) may have; None: any
    wrong: str  # the part is not a mapping / list
    many: str | None = None  # None, "list" or "map"
    wrong_entry: str = ""  # an entry is not a mapping
    required: bool = False  # a missing part is reported too (with `wrong`)
    nonempty: bool = False  # an empty part is reported (with `wrong`)
    scalars: bool = False  # an entry may be a plain value (its keys are not checked)
    at_file: bool = False  # a part without a position of its own is reported at the file's
    name: str = ""  # a regular expression the names of a map's entries must match
    wrong_name: str = ""


def _section(keys: set[str] | None, wrong: str, **kw: Any) -> Section:
    return Section(frozenset(keys) if keys is not None else None, wrong, **kw)


HOUSE_EXAMPLES = _section({"title", "yaml"}, "must be a list of {title, yaml}", many="list",
                          wrong_entry="must be a mapping with title and yaml")
OPTIONS = _section({"values", "default", "description", "description_en", "min", "max"},
                   "must be a mapping name: {...}", many="map",
                   wrong_entry="must be a mapping with values/default/description",
                   name=r"[a-z][a-z0-9_]{0,40}",
                   wrong_name="option names use lowercase letters, digits and _")
CONTEXT_FLAG = _section({"default", "min", "max"}, "must be a mapping (default/min/max)")
TALLIES = _section({"combine", "label", "label_en", "default", "hidden"},
                   "must be a mapping name: {combine}", many="map", nonempty=True,
                   wrong_entry="must be a mapping with combine:")
WILDCARD = _section({"face", "in_play", "stand_in", "stand_in_scope", "stand_in_self_shapes",
                     "in_melds"}, "must be a mapping")
LABELS = _section(None, "must be a mapping name: label", many="map", scalars=True)
CHECKS = _section(CHECK_KEYS, "must be a list of {when, message}", many="list",
                  wrong_entry="must be a mapping with when and message")
PATTERNS = _section(PATTERN_KEYS, "must be a list of patterns", many="list", required=True,
                    at_file=True, wrong_entry="must be a mapping (id, name, when, value)")
SHAPE = _section({"shape", "when"}, "")
TIERS = _section({"when", "name", "name_en"}, "must be a list of {when, name, name_en}",
                 many="list", wrong_entry="must be a mapping with name (and when, name_en)")
ALSO = _section(None, "must be a mapping tally: value", many="map", scalars=True)
TIES = _section({"order", "prefer"}, "must be a mapping {order: sets, prefer: [...]}")
COUNT_ONCE_SECTION = _section({"of", "sets"}, "must be a mapping {of: chows, sets: 2}")
TOOLING = _section(set(TOOLING_KEYS), "must be a mapping (self_draw_default, ties, house_examples)")
PAYMENT = _section({"pays", "amount", "let", "chengbao"},
                   "must be a mapping with amount (and pays, let, chengbao)", required=True,
                   at_file=True)
LETS = _section({"label", "label_en", "value"}, "must be a mapping name: {label, value}",
                many="map", scalars=True)
CHENGBAO = _section({"allowed", "message", "reverse_factor"},
                    "must be a mapping (allowed, message, reverse_factor)")
class Compiler:
    """Validates a merged ruleset map and compiles it into a Ruleset, collecting problems."""

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

    def notice(self, where: Mark | None, key: str, message: str) -> None:
        """Record a note about a spelling that still works (see :attr:`notices`)."""
        f = where.file if where else self.file
        self.notices.append(Problem(f, where.line if where else None,
                                    where.column if where else None, key, message))

    def tool(self, d: YMap, tooling: YMap | None, key: str) -> tuple[YMap, str]:
        """Where a key of ``tooling:`` is read: (the mapping that holds it, its path). Its old
        top-level place wins when it is written there, with a notice; an absent key is
        read (as missing) from ``tooling:``, or from the top when there is none.

        >>> Compiler("f.yaml", YMap()).tool(YMap(), None, "ties")
        ({}, 'tooling.ties')
        """
        if key in d:
            self.notice(self.key_mark(d, key), key,
                        f"'{key}' now belongs under tooling: (tooling: {{{key}: ...}}); "
                        "the top-level spelling still works")
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
                hint = did_you_mean(k, allowed)
                self.problem(self.key_mark(m, k), f"{path}{k}" if not path else f"{path}.{k}",
                             f"unknown key '{k}'{hint}")

    def _misfit(self, raw: Any, sec: Section, path: str, where: Mark | None,
                kind: type) -> bool:
        """Report a part that is missing (when required), of the wrong kind or empty."""
        if raw is None and not sec.required:
            return True
        if not isinstance(raw, kind) or (sec.nonempty and not raw):
            if where is None:
                where = getattr(raw, "mark", self.data.mark if sec.at_file else None)
            self.problem(where, path, sec.wrong)
            return True
        return False

    def mapping(self, raw: Any, sec: Section, path: str,
                where: Mark | None = None) -> YMap | None:
        """``raw`` if it is a mapping laid out as ``sec`` says (unknown keys reported), else
        None (missing, or reported at ``where``, by default its own position).

        >>> Compiler("f.yaml", YMap()).mapping(None, TIES, "ties") is None
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

        >>> c = Compiler("f.yaml", YMap())
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
                f"{len(raw):,} entries (with what this ruleset extends); at most "
                f"{MAX_ENTRIES:,}; refused"))
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
            self.problem(self.mark_of(container, key), path, "missing")
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
            self.problem(mk, path, e.message)
            return None
        if want == "number" and not is_numeric(c.type):
            self.problem(self.mark_of(container, key), path,
                         f"must be a number, this expression gives a {c.type}")
            return None
        # run-time errors (division by zero, a number too large) name file, line and key
        mk = self.mark_of(container, key) if isinstance(container, dict) and key in container \
            else None
        c.where = f"{mk.file}:{mk.line} {path}" if mk is not None else f"{self.file} {path}"
        return c

    def _compile(self, value: Any, scope: Scope) -> Compiled:
        """``compile_expr(value, scope)``, once per text and scope; a copy, as ``where`` is
        set per use. Raises RulesetError (fatal) past :data:`MAX_EXPR_TEXT` characters.

        >>> c = Compiler("f.yaml", YMap())
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
                    self.file, None, None, "", f"the expressions of this ruleset (with what it "
                    f"extends) are more than {MAX_EXPR_TEXT:,} characters in all; refused"))
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
            self.problem(self.mark_of(m, key), path, "must be true or false")
            return False
        return v

    def text(self, m: YMap, key: str, path: str, required: bool = False,
             default: str = "") -> str:
        """A text key (a number is taken as its text); ``default`` if missing or wrong."""
        v = m.get(key)
        if v is None:
            if required:
                self.problem(m.mark, path, "missing")
            return default
        if not isinstance(v, str | int) or isinstance(v, bool):
            self.problem(self.mark_of(m, key), path, "must be text")
            return default
        return str(v)

    def texts(self, m: YMap, key: str, path: str, required: bool = False) -> tuple[str, str]:
        """A text a person reads, in both languages: ``{zh: ..., en: ...}`` (the spelling
        docs/rulesets.md documents), or one text for both (as files wrote it before: then
        ``(text, "")``). Returns ``(zh, en)``; a map missing one language uses the other."""
        v = m.get(key)
        if isinstance(v, dict):
            extra = sorted(str(k) for k in v if k not in ("zh", "en"))
            if extra or not v:
                self.problem(self.mark_of(m, key), path,
                             "must be text, or a mapping {zh: ..., en: ...}")
                return "", ""
            zh, en = v.get("zh"), v.get("en")
            if any(x is not None and not isinstance(x, str) for x in (zh, en)):
                self.problem(self.mark_of(m, key), path, "must be text")
                return "", ""
            return str(zh if zh is not None else en), str(en if en is not None else zh)
        return self.text(m, key, path, required=required), ""

    # -- the whole file -----------------------------------------------------------
    def build(self) -> Ruleset | None:
        """The compiled Ruleset, or None when a problem was found (see :attr:`problems`)."""
        d = self.data
        self.check_keys(d, TOP_KEYS, "")
        rid = self.text(d, "id", "id", required=True)
        if rid and not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", rid):
            self.problem(self.mark_of(d, "id"), "id", "use letters, digits, '-' and '_' only")
        name = self.text(d, "name", "name", default=rid)
        name_en = self.text(d, "name_en", "name_en", default=name)
        source = self.text(d, "source", "source")
        notes_raw = d.get("notes") or []
        if isinstance(notes_raw, str):
            notes_raw = [notes_raw]
        notes = tuple(str(n) for n in notes_raw) if isinstance(notes_raw, list) else ()

        hand_size = d.get("hand_size", 14)
        if not isinstance(hand_size, int) or isinstance(hand_size, bool) or not (
                5 <= hand_size <= 20 and (hand_size - 2) % 3 == 0):
            self.problem(self.mark_of(d, "hand_size"), "hand_size",
                         "must be a whole number like 14 or 17 (a pair plus sets of three)")
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
                size = " or ".join(map(str, sorted(sizes)))
                self.problem(self.mark_of(d.get("shapes"), i), f"shapes[{i}]",
                             f"{sname} is a {size}-tile shape; this ruleset's hand_size is "
                             f"{hand_size}")
        result_scope = Scope({**reading_names, **tally_names, "score": INT}, F.ATTRS,
                             {TILE: F.coerce_tile})

        for oname in options:
            if oname in F.FACTS or oname in tally_names:
                self.problem(self.key_mark(d.get("options"), oname), f"options.{oname}",
                             f"'{oname}' is already the name of a fact; choose another name")

        players = self.expr(d, "players", "players", opt_scope, "number", default=4)
        suits = self.expr(d, "suits", "suits", opt_scope, default="['m', 'p', 's']")
        if suits is not None and str(suits.type) not in ("list[str]", "list[any]"):
            self.problem(self.mark_of(d, "suits"), "suits",
                         f"must give a list of suit letters, this gives a {suits.type}")
        rk = d.get("robbing_kong", "discard")
        if rk not in ("discard", "self_draw"):
            self.problem(self.mark_of(d, "robbing_kong"), "robbing_kong",
                         "must be 'discard' or 'self_draw'")
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
            id=rid, name=name, name_en=name_en, file=self.file, source=source, notes=notes,
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
                self.problem(self.mark_of(item, "yaml"), f"{path}.yaml", "not read: the "
                             f"house examples hold more than {HOUSE_NODES} values in all")
                break  # the rest is not read either (each would cost a parse)
            if fresh:
                checked.add(text)
                # the snippet is added to a file that extends this one: it must be a mapping
                try:
                    snippet = load(text, self.file, budget=budget, max_items=MAX_ITEMS)
                except RulesetError as e:
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml",
                                 e.problems[0].message)
                    continue
                if not isinstance(snippet, YMap):
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml",
                                 "must be YAML keys to add to a file that extends this ruleset")
                    continue
            out.append(HouseExample(title, text))
        return tuple(out)

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
            self.problem(self.mark_of(d, "shapes"), "shapes",
                         f"must be a list of: {', '.join(known)}")
            return ("standard",), ()
        out = []
        for i, s in enumerate(raw):
            if isinstance(s, YMap):
                self.mapping(s, SHAPE, f"shapes[{i}]")
                when = self.expr(s, "when", f"shapes[{i}].when", scope)
                entry = s
                s = s.get("shape")
                if s is None:
                    self.problem(entry.mark, f"shapes[{i}].shape", "missing (a shape name)")
                    continue
                if when is not None and s in known:
                    conds.append((str(s), when))
            if s not in known:
                hint = did_you_mean(str(s), known)
                self.problem(self.mark_of(raw, i), f"shapes[{i}]", f"unknown shape '{s}'{hint}")
            else:
                out.append(str(s))
        return tuple(out), tuple(conds)

    def options(self, raw: Any) -> dict[str, OptionSpec]:
        """``options:``: each a list of values with a default, or a whole-number range."""
        out: dict[str, OptionSpec] = {}
        for name, path, spec in self.entries(raw, OPTIONS, "options") or ():
            desc = str(spec.get("description", ""))
            values = spec.get("values")
            default = spec.get("default")
            if values is not None:
                if not isinstance(values, list) or not values or any(
                        isinstance(v, dict | list) for v in values):
                    self.problem(self.mark_of(spec, "values"), f"{path}.values",
                                 "must be a non-empty list of words, numbers, true/false or none")
                    continue
                vals = tuple(None if (isinstance(v, str) and v == "none") else v for v in values)
                if isinstance(default, str) and default == "none":
                    default = None
                if not any(default is v or (type(default) is type(v) and default == v)
                           for v in vals):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 f"must be one of the values ({', '.join(show(v) for v in vals)})")
                    # still define the name, so the expressions that use it (an inherited
                    # file's) do not each report it unknown: one mistake, one line
                    default = vals[0]
                kinds = {type(v) for v in vals if v is not None}
                typ = {bool: BOOL, int: INT, str: STR}.get(kinds.pop(), ANY) if len(
                    kinds) == 1 else ANY
                if None in vals:
                    typ = maybe(typ)
                out[name] = OptionSpec(name, vals, default, typ, description=desc)
            else:
                lo, hi = spec.get("min"), spec.get("max")
                bad = [k for k, v in (("min", lo), ("max", hi))
                       if v is not None and (not isinstance(v, int) or isinstance(v, bool))]
                for k in bad:
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "must be a whole number")
                if bad:
                    continue
                if not isinstance(default, int) or isinstance(default, bool):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 "give values: [...] or a whole-number default with min/max")
                    default = lo if isinstance(lo, int) else 0  # (the name stays defined)
                out[name] = OptionSpec(name, None, default, INT, lo, hi, desc)
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
            self.problem(getattr(raw, "mark", None), "context", "must list the flags used")
            return out
        for name, spec in items:
            path = f"context.{name}"
            if name not in FLAGS:
                hint = did_you_mean(name, list(FLAGS))
                extra = " (always accepted, no need to list)" if name in ALWAYS_FLAGS else ""
                self.problem(self.key_mark(raw, name) if isinstance(raw, YMap) else raw.mark,
                             path, f"unknown context flag '{name}'{hint}{extra}")
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
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "must be a whole number")
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
                self.problem(self.mark_of(spec, k), f"{path}.{k}",
                             f"{v} is outside the game's range {low}..{high}")
        if lo > hi:
            self.problem(self.mark_of(spec, "min"), f"{path}.min",
                         f"min {lo} is more than max {hi}")
        d = vals["default"]
        if d is not None and not lo <= d <= hi:
            self.problem(self.mark_of(spec, "default"), f"{path}.default",
                         f"{d} is outside the flag's range {lo}..{hi}")

    def tallies(self, raw: Any) -> tuple[Tally, ...]:
        """``tallies:``: name: {combine, label, default, hidden}; one ``score`` sum tally if
        none. A ``hidden`` tally is kept out of the calculation chain shown to people (a
        marker read by the payment, such as Sichuan's ``flat``); JSON still has it."""
        out = []
        for name, path, spec in self.entries(raw, TALLIES, "tallies") or ():
            comb = spec.get("combine")
            if comb not in COMBINES:
                self.problem(self.mark_of(spec, "combine"), f"{path}.combine",
                             f"must be one of {', '.join(COMBINES)}")
                continue
            default = spec.get("default", 1 if comb == "product" else 0)
            if not isinstance(default, int):
                self.problem(self.mark_of(spec, "default"), f"{path}.default", "must be a number")
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

    def wildcard(self, raw: Any, scope: Scope) -> Wildcard | None:
        """``wildcard:``: the wildcard model, or None for a table without one."""
        raw = self.mapping(raw, WILDCARD, "wildcard")
        if raw is None:
            return None
        face = self.expr(raw, "face", "wildcard.face", scope)
        if face is not None and base(face.type) not in (TILE, NONE):
            self.problem(self.mark_of(raw, "face"), "wildcard.face",
                         f"must give a tile (e.g. wild, or 'P'), this gives a {face.type}")
        in_play = self.expr(raw, "in_play", "wildcard.in_play", scope, "number", default=4)
        stand_in = raw.get("stand_in")
        st: int | None = None
        if stand_in is not None:
            try:
                st = T.parse_tile(str(stand_in))
            except ValueError as e:
                self.problem(self.mark_of(raw, "stand_in"), "wildcard.stand_in", str(e))
        scope_v = raw.get("stand_in_scope", "all")
        if scope_v not in ("all", "melds"):
            self.problem(self.mark_of(raw, "stand_in_scope"), "wildcard.stand_in_scope",
                         "must be 'all' or 'melds'")
        shapes = raw.get("stand_in_self_shapes") or []
        known = list(SHAPES)
        if not isinstance(shapes, list) or any(s not in known for s in shapes):
            self.problem(self.mark_of(raw, "stand_in_self_shapes"),
                         "wildcard.stand_in_self_shapes",
                         f"must be a list of shapes ({', '.join(known)})")
            shapes = []
        in_melds = raw.get("in_melds", True)
        if not isinstance(in_melds, bool):
            self.problem(self.mark_of(raw, "in_melds"), "wildcard.in_melds",
                         "must be true or false")
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

    def checks(self, raw: Any, key: str, scope: Scope, default_on: str,
               allow_on: tuple[str, ...], scopes: dict[str, Scope] | None = None) -> tuple[
            Check, ...]:
        """``errors:`` / ``not_a_win:``: each {when, message}, checked ``on`` hand, reading or result."""
        out = []
        for i, path, item in self.entries(raw, CHECKS, key) or ():
            on = item.get("on", default_on)
            if on not in allow_on:
                self.problem(self.mark_of(item, "on"), f"{path}.on",
                             f"must be one of {', '.join(allow_on)}")
                continue
            sc = (scopes or {}).get(on, scope)
            when = self.expr(item, "when", f"{path}.when", sc)
            message, message_en = self.texts(item, "message", f"{path}.message", required=True)
            for name in PLACEHOLDER.findall(message + message_en):
                if name not in sc.names:
                    self.problem(self.mark_of(item, "message"), f"{path}.message",
                                 f"{{{name}}} is not a name here (placeholders name a value, "
                                 "e.g. {min_fan})")
            if when is not None:
                out.append(Check(str(item.get("id", f"{key}{i}")), when, message, on,
                                 str(item.get("reason", "illegal")), message_en))
        return tuple(out)

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
                self.problem(self.mark_of(item, "id"), f"{path}.id",
                             f"id '{pid}' is used twice (also patterns[{ids[pid]}])")
            ids[pid] = origin(raw, i)
            tally = item.get("tally", tally_names[0] if tally_names else "score")
            if tally not in tally_names:
                hint = did_you_mean(str(tally), known_tallies)
                self.problem(self.mark_of(item, "tally"), f"{path}.tally",
                             f"unknown tally '{tally}'{hint}")
                continue
            once = self.count_once(item, path, scope)
            when_scope = scope
            if once is not None:
                when_scope = Scope({n: GROUP for n in SET_NAMES[:once[1]]}, F.ATTRS,
                                   {TILE: F.coerce_tile}, what="name (a combination pattern "
                                   f"sees only the sets {', '.join(SET_NAMES[:once[1]])})")
                for key in ("count", "each"):
                    if key in item:
                        self.problem(self.key_mark(item, key), f"{path}.{key}",
                                     "a combination pattern is counted once (count_once:, "
                                     f"套算一次); remove {key}")
            when = self.expr(item, "when", f"{path}.when", when_scope, default=True)
            value = self.expr(item, "value", f"{path}.value", scope, "number")
            count = None
            if "count" in item and once is None:
                count = self.expr(item, "count", f"{path}.count", scope, "number")
            each = None
            if "each" in item and once is None:
                if "count" in item:
                    self.problem(self.key_mark(item, "each"), f"{path}.each",
                                 "give count or each, not both (each counts its items)")
                if isinstance(item["each"], YMap):
                    each = self.each_filter(item["each"], f"{path}.each", scope)
                else:
                    each = self.expr(item, "each", f"{path}.each", scope)
                if each is not None and not is_list(each.type):
                    self.problem(self.mark_of(item, "each"), f"{path}.each",
                                 f"must give a list (e.g. [g for g in pungs if g.dragon]), "
                                 f"this gives a {each.type}")
                    each = None
            also: list[tuple[str, Compiled]] = []
            also_raw = item.get("also")
            for tname, at, _ in self.entries(also_raw, ALSO, f"{path}.also",
                                             self.mark_of(item, "also")) or ():
                if tname not in tally_names:
                    self.problem(self.key_mark(also_raw, tname), at, f"unknown tally '{tname}'")
                    continue
                c = self.expr(also_raw, tname, at, scope, "number")
                if c is not None:
                    also.append((tname, c))
            rep = item.get("replaces") or []
            if isinstance(rep, str):
                rep = [rep]
            if not isinstance(rep, list):
                self.problem(self.mark_of(item, "replaces"), f"{path}.replaces",
                             "must be a list of pattern ids")
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
                    hint = did_you_mean(str(r), known_ids)
                    container = item.get("replaces")
                    self.problem(self.mark_of(container, j) if isinstance(container, YList)
                                 else self.mark_of(item, "replaces"), f"{path}.replaces[{j}]",
                                 f"no pattern with id '{r}'{hint}")
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
                        self.problem(self.mark_of(entry, key), f"{at}.{key}",
                                     f"{{{m.group(1)}}} is not a number a pattern can use "
                                     "(write {fact} or {fact:alt0|alt1|...})")
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
            self.problem(self.mark_of(raw, "order"), f"{at}.order", "must be 'found' or 'sets'")
            order = "found"
        prefer = raw.get("prefer") or []
        if not isinstance(prefer, list):
            self.problem(self.mark_of(raw, "prefer"), f"{at}.prefer",
                         "must be a list of pattern ids")
            prefer = []
        known = Known(ids)
        for j, pid in enumerate(prefer):
            if pid not in ids:
                hint = did_you_mean(str(pid), known)
                self.problem(self.mark_of(prefer, j) if isinstance(prefer, YList)
                             else self.mark_of(raw, "prefer"), f"{at}.prefer[{j}]",
                             f"no pattern with id '{pid}'{hint}")
        return str(order), frozenset(map(str, prefer))

    def count_once(self, item: YMap, path: str, scope: Scope) -> tuple[str, int] | None:
        """Read ``count_once: {of: LIST, sets: N}`` (a list of groups, 2..4 sets), or its old
        spelling ``combine:`` (with a notice: under ``tallies:`` combine means how values add up)."""
        key = COUNT_ONCE
        if OLD_COUNT_ONCE in item:
            if COUNT_ONCE in item:
                self.problem(self.key_mark(item, OLD_COUNT_ONCE), f"{path}.{OLD_COUNT_ONCE}",
                             "give count_once only (combine is its old spelling)")
                return None
            key = OLD_COUNT_ONCE
            self.notice(self.key_mark(item, key), f"{path}.{key}",
                        "a combination pattern's 'combine:' is now spelt 'count_once:' "
                        "(套算一次); the old spelling still works")
        raw = self.mapping(item.get(key), COUNT_ONCE_SECTION, f"{path}.{key}",
                           self.mark_of(item, key))
        if raw is None:
            return None
        path = f"{path}.{key}"
        of, n = raw.get("of"), raw.get("sets")
        if not isinstance(of, str) or scope.names.get(of) != list_of(GROUP):
            lists = sorted(k for k, v in scope.names.items() if v == list_of(GROUP))
            self.problem(self.mark_of(raw, "of"), f"{path}.of",
                         f"must name a list of groups: {', '.join(lists)}")
            return None
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= MAX_SETS:
            self.problem(self.mark_of(raw, "sets"), f"{path}.sets",
                         f"must be a whole number from 2 to {MAX_SETS}")
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
            hint = did_you_mean(of, lists) if isinstance(of, str) else ""
            self.problem(self.mark_of(raw, "of") if "of" in raw else raw.mark, f"{path}.of",
                         ("missing: " if of is None else f"'{of}' is not a list of groups or "
                          f"tiles{hint}; ") + f"of: names one of {', '.join(sorted(lists))}")
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
                self.problem(self.key_mark(raw, k), f"{path}.{k}",
                             f"'{k}' is not an attribute of a {elem}{did_you_mean(k, attrs)}")
                ok = False
            elif attr.type == BOOL:
                if not isinstance(v, bool):
                    self.problem(self.mark_of(raw, k), f"{path}.{k}", "must be true or false")
                    ok = False
                conds.append(f"{var}.{k}" if v else f"not {var}.{k}")
            elif attr.type in (INT, STR) and isinstance(v, int if attr.type == INT else str) \
                    and not isinstance(v, bool):
                conds.append(f"{var}.{k} == {v!r}")
            else:
                want = {INT: "a whole number", STR: "text"}.get(attr.type)
                self.problem(self.mark_of(raw, k), f"{path}.{k}",
                             f"must be {want}" if want else f"a {attr.type} cannot be matched "
                             "here; write each: as an expression")
                ok = False
        if not ok:
            return None
        src = f"[{var} for {var} in {of}{' if ' + ' and '.join(conds) if conds else ''}]"
        try:
            c = compile_expr(src, scope, metered=self.metered)
        except ExprError as e:  # pragma: no cover - every part was checked above
            self.problem(raw.mark, path, e.message)
            return None
        self.scopes[id(c.fn)] = scope
        mk = raw.mark
        c.where = f"{mk.file}:{mk.line} {path}" if mk is not None else f"{self.file} {path}"
        return c

    def payment(self, raw: Any, names: dict[str, Type], opt_scope: Scope) -> Payment | None:
        """``payment:``: pays, amount, the ``let`` chain and 承包; None if it has a problem."""
        raw = self.mapping(raw, PAYMENT, "payment")
        if raw is None:
            return None
        lets: list[Let] = []
        scope_names = dict(names)
        let_raw = raw.get("let")
        for lname, path, spec in self.entries(let_raw, LETS, "payment.let",
                                              self.mark_of(raw, "let")) or ():
            if lname in scope_names:
                self.problem(self.key_mark(let_raw, lname), path,
                             f"'{lname}' is already a name; choose another")
                continue
            let_scope = Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile})
            if isinstance(spec, YMap):
                c = self.expr(spec, "value", f"{path}.value", let_scope, "number")
                label = str(spec.get("label", lname))
                label_en = str(spec.get("label_en", label))
            else:
                c = self.expr(let_raw, lname, path, let_scope, "number")
                label = label_en = lname
            if c is not None:
                lets.append(Let(lname, label, label_en, c))
                scope_names[lname] = INT
        scope = Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile})
        pays = self.expr(raw, "pays", "payment.pays", scope, default=True)
        amount = self.expr(raw, "amount", "payment.amount", scope, "number")
        cb: Chengbao | None = None
        cb_raw = self.mapping(raw.get("chengbao"), CHENGBAO, "payment.chengbao",
                              self.mark_of(raw, "chengbao"))
        if cb_raw is not None:
            cb_scope = Scope({**opt_scope.names, **F.names_at("chengbao")}, F.ATTRS,
                             {TILE: F.coerce_tile})
            allowed = self.expr(cb_raw, "allowed", "payment.chengbao.allowed", cb_scope,
                                default=True)
            rf = self.expr(cb_raw, "reverse_factor", "payment.chengbao.reverse_factor",
                           cb_scope, "number", default=2)
            msg, msg_en = self.texts(cb_raw, "message", "payment.chengbao.message")
            if not msg:
                msg, msg_en = "这里不适用承包", "承包 does not apply here"
            if allowed is not None and rf is not None:
                cb = Chengbao(allowed, msg, rf, msg_en)
        if pays is None or amount is None:
            return None
        used = set(pays.names) | set(amount.names)
        for let in lets:
            used |= set(let.value.names)
        reading_level = set(F.names_at("reading"))
        needs = bool(used & {"payer_is_discarder", "discarder"})
        return Payment(pays, amount, tuple(lets), cb, needs, bool(used & reading_level))

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
                self.problem(mark, key, f"uses '{name}', which needs the flag '{flag}' listed "
                             f"under context: (a line '  {flag}:' below 'context:')")
                break


