"""The optimiser's plan of a ruleset: what the engine may skip, reuse or unwrap.

A :class:`Plan` is derived from a compiled :class:`~scorer.rules.model.Ruleset` and
kept with it (``plan_of(rs)``): how finely its expressions tell tiles apart (so the
wildcard search can merge readings the ruleset cannot tell apart), whether they care
which group the winning tile completed, the pattern closures unwrapped for the
per-reading loop, the combination families, and whether readings that meet the same
patterns can share their outcome. It also holds the ruleset's caches (the context
checked per set of flags, the settlements per tallies), each bounded, so that they go
when the ruleset goes.

The per-reading pattern loop is also *generated* as one Python function
(:func:`generate_loop`, from the expressions' checked trees by :mod:`scorer.lang.codegen`),
kept in ``plan.generated``. Generating costs about as much as scoring a few hundred
readings with the closures, so by default it is made once the ruleset has scored
``AUTO_READINGS`` readings in this process (a long batch, a server), never for one
``mjscore score``. The engine runs it and goes back to the closures for a reading where
it raises, so that every error is worded and placed as the closures word and place it.
``MJSCORE_CODEGEN=off`` in the environment keeps the closures only, ``eager`` generates
when the plan is built (docs/speed.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from ..lang import GROUP, Compiled, EvalError, budget
from ..memo import Memo, make_room
from ..record import record
from ..search.combine import TILE_ONLY_ATTRS, Family, predicate
from ..search.decompose import Group
from . import analysis
from . import facts as F
from . import profile as TP

if TYPE_CHECKING:  # the model, for annotations only (it does not import this module)
    from ..lang.codegen import Emitter, ListBits
    from .model import Check, Pattern, Ruleset

# (pattern, when, value, count, each): the compiled closures, unwrapped
Fast = tuple[tuple["Pattern", Any, Any, Any, Any], ...]
# the generated pattern loop: (reading env, per-hand memo or None) -> the patterns that
# count, in the ruleset's order, as (pattern, value, count, items)
Loop = Callable[[Any, "dict[int, Any] | None"],
                list[tuple["Pattern", int, int, tuple[Any, ...]]]]
CODEGEN_ENV = "MJSCORE_CODEGEN"  # off: closures only; eager: at once; else auto
AUTO_READINGS = 512  # readings scored with the closures before the loop is generated
MAX_LOOP_SOURCE = 128 * 1024  # a longer generated loop is not compiled (the closures run)


class Generated:
    """The generated pattern loop of one plan, made when it pays (see the module docstring).

    ``mode`` is ``'auto'``, ``'eager'`` or ``'off'``; ``loop`` the function once made
    (None before, or when it could not be generated), ``source`` its text; ``readings``
    counts the readings scored so far.

    >>> g = Generated("off"); g.prepare(None), g.loop  # closures only: nothing is made
    (None, None)
    """

    __slots__ = ("loop", "mode", "readings", "source", "tried")

    def __init__(self, mode: str | None = None) -> None:
        if mode is None:
            mode = os.environ.get(CODEGEN_ENV, "auto").strip().lower() or "auto"
        self.mode = mode if mode in ("off", "eager") else "auto"
        self.readings = 0
        self.loop: Loop | None = None
        self.source = ""
        self.tried = False

    def prepare(self, rs: Ruleset | None) -> None:
        """Generate the loop of ``rs`` now if it is time (call it outside any CPU budget:
        the work is the engine's own, bounded by ``MAX_LOOP_SOURCE``); return None."""
        if not self.tried and rs is not None and not (
                self.mode == "auto" and self.readings < AUTO_READINGS):
            self.warm(rs)  # (asked before every hand: once tried, one attribute is read)

    def warm(self, rs: Ruleset) -> None:
        """Generate the loop of ``rs`` now, unless that was tried already or is off: a
        batch's parent does it before its workers fork, so that each inherits the loop
        instead of scoring its first 512 readings with the closures and generating its
        own. Returns None.

        >>> from scorer.rules.load import compile_ruleset
        >>> rs = compile_ruleset("extends: hangzhou\\nid: warmed\\n", "warmed.yaml")
        >>> g = plan_of(rs).generated; g.warm(rs); g.loop is not None or g.mode == "off"
        True
        """
        if not self.tried and self.mode != "off":
            self.tried = True
            self.loop, self.source = generate_loop(rs, plan_of(rs).families)


@record(frozen=True)
class Plan:
    """How the engine runs one ruleset; built by :meth:`build`, read-only but for its caches."""

    detail: int  # how finely patterns tell tiles apart (analysis.detail_level)
    features: frozenset[str]  # at detail 1, which class features (analysis.class_features)
    # do the expressions care which group the winning tile completed? (analysis.placement_sensitive)
    placement: bool
    fast: Fast  # the closures of the patterns that are not combination patterns
    max_tallies: frozenset[str]  # tallies that take one pattern's value (combine: max)
    payment_names: tuple[str, ...]  # context/hand names the payment rule reads
    # every name the payment expressions read (a cached settlement keeps only these)
    payment_reads: tuple[str, ...]
    reusable: bool  # a reading's outcome depends only on its patterns' values
    families: tuple[Family, ...]  # combination patterns, grouped by list (scorer.search.combine)
    # the context and hand names the patterns' ``also`` values read: with the payment inputs
    # and the patterns met, what a reading's outcome depends on (scorer.engine.scoring)
    also_names: tuple[str, ...] = ()
    # every name the conditions, values, counts and each: of the patterns in ``fast`` read
    pattern_names: frozenset[str] = frozenset()
    # every name a reading's patterns met depend on: ``pattern_names``, the lists the
    # combination families combine and their values' names (scorer.engine.scoring keys
    # the patterns met by these names' values), in a fixed order
    found_names: tuple[str, ...] = ()
    # every name the reading-level not_a_win checks read, conditions and messages
    check_names: tuple[str, ...] = ()
    # every reading fact among found_names and check_names is a plain value (a number, a
    # truth value, a word or a tile; no list or group): the readings of a hand then have
    # few distinct values of them, and are scored by those values (scorer.engine.scoring)
    scalar_key: bool = False
    # found_names and check_names together, sorted (what a reading is keyed by)
    key_names: tuple[str, ...] = ()
    # the engine fills each reading's lists (facts.LISTS_FAMILY) at once: the patterns or
    # checks read them, or the tile profile made from them
    fill_lists: bool = False
    # the not_a_win checks on the hand and on each reading, in the ruleset's order
    hand_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    reading_checks: tuple[Check, ...] = field(default=(), compare=False, repr=False)
    # the pattern loop generated as one function (generate_loop), when it pays; a plan
    # made by dataclasses.replace generates its own
    generated: Generated = field(default_factory=Generated, init=False, compare=False,
                                 repr=False)
    # The caches (not arguments: a plan made by dataclasses.replace starts with empty ones,
    # as what they hold was computed under the other plan):
    # the context checked once per set of flags (scorer.engine.context.resolve)
    tables: Memo[Any, Any] = field(default_factory=lambda: Memo(512), init=False,
                                   compare=False, repr=False)
    # settlements by payment inputs, then by tallies (scorer.engine.scoring)
    # (64 x 256 small entries at most: a cached settlement keeps no readings alive, see
    # scorer.engine.payments.detached)
    settlements: Memo[Any, Memo[Any, Any]] = field(default_factory=lambda: Memo(64),
                                                   init=False, compare=False, repr=False)
    # the outcomes of readings (patterns counted, tallies, headline) by payment inputs and
    # ``also`` values, then by the patterns they meet, shared by the hands of a batch
    # (reusable plans only; they hold patterns, values and groups, never an Env or a
    # reading: the settlement is looked up in ``settlements``)
    outcomes: Memo[Any, Memo[Any, Any]] = field(default_factory=lambda: Memo(32),
                                                init=False, compare=False, repr=False)
    # the same outcomes by the values of ``found_names`` instead of the patterns met (a
    # reading whose names have the values of one seen before is not evaluated at all):
    # by payment inputs, ``also`` values and the hand's values, then by the reading's
    # (built-in rulesets only: a user's budget counts every evaluation)
    met: Memo[Any, Memo[Any, Any]] = field(default_factory=lambda: Memo(64), init=False,
                                           compare=False, repr=False)
    # the tiles a hand without its winning tile waits on, by that hand and the flags
    # (scorer.engine.waitfacts.wait_facts, for the report's why lines)
    waits: Memo[Any, Any] = field(default_factory=lambda: Memo(1024), init=False,
                                  compare=False, repr=False)

    @classmethod
    def build(cls, rs: Ruleset) -> Plan:
        """The plan of a compiled ruleset.

        >>> from scorer.rules.load import load_ruleset
        >>> p = Plan.build(load_ruleset("jinhua"))
        >>> p.detail, sorted(p.features), p.placement
        (1, ['honor', 'suit'], True)
        """
        pay = rs.payment
        reading_exprs: list[Compiled] = []
        for p in rs.patterns:
            reading_exprs += [p.when, p.value] + ([p.count] if p.count else []) + (
                [p.each] if p.each else []) + [c for _, c in p.also]
        reading_exprs += [c.when for c in rs.not_a_win]
        if pay.per_reading:
            reading_exprs += [pay.pays, pay.amount] + [x.value for x in pay.lets]
        # names an expression sees only on a reading (an option or a hand fact of the same
        # name shadows the reading fact)
        reading_only = (set(F.names_at("reading")) - set(F.names_at("context", "hand"))
                        - set(rs.options))
        tally_names = {t.name for t in rs.tallies}
        fams = families(rs.patterns)
        pattern_names = frozenset(n for p in rs.patterns if p.count_once is None
                                  for c in (p.when, p.value, p.count, p.each)
                                  if c is not None for n in c.names)
        # a combination's condition reads only the sets it is given (combine.predicate)
        family_names = {n for f in fams for n in (f.of, *(
            m for k in f.patterns for m in rs.patterns[k].value.names))}
        check_names = tuple(sorted({n for c in rs.not_a_win if c.on == "reading"
                                    for n in c.reads}))
        found_names = tuple(sorted(pattern_names | family_names))
        plan = cls(
            detail=analysis.detail_level(reading_exprs),
            features=analysis.class_features(reading_exprs),
            placement=analysis.placement_sensitive(reading_exprs),
            fast=tuple((p, p.when.fn, p.value.fn, p.count.fn if p.count else None,
                        p.each.fn if p.each else None)
                       for p in rs.patterns if p.count_once is None),
            max_tallies=frozenset(t.name for t in rs.tallies if t.combine == "max"),
            payment_names=tuple(sorted(
                (set(pay.pays.names) | set(pay.amount.names)
                 | {n for x in pay.lets for n in x.value.names}
                 | (set(pay.chengbao.reverse_factor.names) if pay.chengbao else set()))
                - tally_names - set(F.names_at("payment")) - {x.name for x in pay.lets})),
            payment_reads=tuple(sorted(
                set(pay.pays.names) | set(pay.amount.names)
                | {n for x in pay.lets for n in x.value.names} | {x.name for x in pay.lets})),
            # an `also` value that reads no reading fact is the same on every reading
            reusable=not pay.per_reading and not any(
                set(c.names) & reading_only for p in rs.patterns for _, c in p.also),
            families=fams,
            also_names=tuple(sorted({n for p in rs.patterns for _, c in p.also
                                     for n in c.names})),
            pattern_names=pattern_names,
            found_names=found_names,
            check_names=check_names,
            scalar_key=all(_plain(n, reading_only) for n in (*found_names, *check_names)),
            key_names=tuple(sorted({*found_names, *check_names})),
            fill_lists=not (F.LISTS_FAMILY | F.PROFILE_NAMES).isdisjoint(
                {*found_names, *check_names}),
            hand_checks=tuple(c for c in rs.not_a_win if c.on == "hand"),
            reading_checks=tuple(c for c in rs.not_a_win if c.on == "reading"),
        )
        if plan.generated.mode == "eager":
            plan.generated.tried = True
            plan.generated.loop, plan.generated.source = generate_loop(rs, fams)
        return plan

    def closures_only(self) -> Plan:
        """A copy of the plan that never generates code (the differential tests' reference).

        >>> from scorer.rules.load import load_ruleset
        >>> plan_of(load_ruleset("mcr")).closures_only().generated.mode
        'off'
        """
        out = replace(self)
        out.generated.mode = "off"
        return out

    def generate_now(self, rs: Ruleset) -> Plan:
        """A copy of the plan of ``rs`` with its loop generated at once (tests, benchmarks).

        >>> from scorer.rules.load import load_ruleset
        >>> rs = load_ruleset("mcr")
        >>> plan_of(rs).generate_now(rs).generated.loop is not None
        True
        """
        out = replace(self)
        g = out.generated
        g.mode, g.tried = "eager", True
        g.loop, g.source = generate_loop(rs, self.families)
        return out


def plan_of(rs: Ruleset) -> Plan:
    """How the engine runs ``rs`` fast: its :class:`Plan`, built on first use and kept with
    the ruleset (a copy made by ``dataclasses.replace`` builds its own). The model does not
    know of plans: they are derived from it here, one way.

    >>> from scorer.rules.load import load_ruleset
    >>> rs = load_ruleset("jinhua")
    >>> plan_of(rs).detail, plan_of(rs) is plan_of(rs)
    (1, True)
    """
    kept: dict[str, Any] = rs.__dict__  # (a frozen record: its fields are not written)
    got = kept.get("plan")
    if got is None:
        make_room(rs.id)  # the named memos keep room for each ruleset a process scores
        # two threads may both build it: the first one kept is the one every caller uses
        got = kept.setdefault("plan", Plan.build(rs))
    return got  # type: ignore[no-any-return]


def with_plan(rs: Ruleset, plan: Plan) -> Ruleset:
    """A copy of ``rs`` that runs with another plan (e.g. one that cuts nothing).

    >>> from scorer.rules.load import load_ruleset
    >>> rs = load_ruleset("jinhua")
    >>> plan_of(with_plan(rs, replace(plan_of(rs), detail=2))).detail, plan_of(rs).detail
    (2, 1)
    """
    out = replace(rs)
    out.__dict__["plan"] = plan
    return out


def _plain(name: str, reading_only: set[str]) -> bool:
    """True unless ``name`` is a reading fact (not shadowed) whose values are lists or
    groups (``reading_only``: the reading facts no hand name shadows).

    >>> _plain("lone_wild", {"lone_wild"}), _plain("pungs", {"pungs"}), _plain("pungs", set())
    (True, False, True)
    """
    f = F.FACTS.get(name)
    if f is None or name not in reading_only:
        return True
    return f.type.elem is None and f.type.kind in ("int", "bool", "str", "tile")


class _Bad(EvalError):
    """Raised by generated code where the closures raise (the engine runs them again)."""


def _bad() -> None:
    raise _Bad("not a whole number")


def generate_loop(rs: Ruleset, fams: tuple[Family, ...]) -> tuple[Loop | None, str]:
    """The per-reading pattern loop of ``rs`` as one generated function, and its source;
    ``(None, '')`` when it cannot be generated (the engine keeps the closures).

    The function does what ``scorer.engine.scoring`` does with the closures, in the same
    order and with the same short-circuits: each pattern's ``when``, then ``each`` or
    ``count``, then ``value`` (whole numbers required), the combination families'
    counts, and per hand with many readings (a memo given) an expression that reads no
    reading fact computed once. A metered ruleset ticks the budget as its closures do.

    >>> from scorer.rules.load import load_ruleset
    >>> loop, src = generate_loop(load_ruleset("hangzhou"), ())
    >>> src.splitlines()[0], loop is not None
    ('def _loop(env, _m):', True)
    """
    # imported here: a single `mjscore score` never generates code, and the module is
    # 6 ms of its cold start
    from ..lang.codegen import CodegenError

    try:
        src, em = _loop_source(rs, fams)
        if len(src) > MAX_LOOP_SOURCE:
            return None, ""
        return em.function(src, "_loop"), src
    except (CodegenError, RecursionError, SyntaxError, MemoryError, ValueError):
        return None, ""


# Tile and group attributes written inline in generated code (a call of the accessor
# costs more than the attribute itself): the accessor of facts.TILE_ATTRS/GROUP_ATTRS ->
# the same computation as source, '{}' standing for the tile or group (a Group is a
# NamedTuple: .kind, .tiles, .meld, ...). tests/twins/test_codegen.py holds each to its
# accessor on every kind of group and every tile.
_G, _T = F.GROUP_ATTRS, F.TILE_ATTRS
INLINE_ATTRS: dict[Callable[..., Any], str] = {
    _G["kind"].fn: "{}.kind",
    _G["tiles"].fn: "{}.tiles",
    _G["tile"].fn: "{}.tiles[0]",
    _G["pair"].fn: "{}.kind == 'pair'",
    _G["chow"].fn: "{}.kind == 'chow'",
    _G["pung"].fn: "{}.kind in ('pung', 'kong')",
    _G["kong"].fn: "{}.kind == 'kong'",
    _G["honor"].fn: "{}.tiles[0] >= 27",
    _G["suited"].fn: "{}.tiles[0] < 27",
    _G["wind"].fn: "27 <= {}.tiles[0] <= 30",
    _G["dragon"].fn: "{}.tiles[0] >= 31",
    _G["exposed"].fn: "{}.exposed",
    _G["melded"].fn: "{}.meld >= 0",
    _G["concealed"].fn: "{}.concealed",
    _G["has_win"].fn: "{}.has_win",
    _T["honor"].fn: "{} >= 27",
    _T["wind"].fn: "27 <= {} <= 30",
    _T["dragon"].fn: "{} >= 31",
}


# The profile facts (scorer.rules.profile) as the generated loop reads them: bit tests and
# small ints of the reading's compact description (profile.description), which the loop
# unpacks once into DESCRIPTION_LOCALS, in place of one Env lookup and function call per
# fact. tests/twins/test_bits.py holds each text to its fact on every reading of every
# golden hand; a name a ruleset's option or a hand's fact shadows stays an Env lookup.
DESCRIPTION_LOCALS = "_dk, _dh, _ds, _dq, _dn, _dx, _du"


def _none_of(bits: int) -> str:
    """The text of 'the reading holds no tile of the kinds in ``bits``'."""
    return f"((_dk & {bits}) == 0)"


DESCRIBED: dict[str, str] = {
    "has_wind": f"((_dk & {TP.WIND_BITS}) != 0)",
    "has_dragon": f"((_dk & {TP.DRAGON_BITS}) != 0)",
    "all_honors": _none_of(TP.SUITED_BITS),
    "all_terminals": _none_of(TP.ALL_BITS ^ TP.TERMINAL_BITS),
    "all_yaojiu": _none_of(TP.ALL_BITS ^ TP.YAOJIU_BITS),
    "all_simples": _none_of(TP.ALL_BITS ^ TP.SIMPLE_BITS),
    "all_green": _none_of(TP.ALL_BITS ^ TP.GREEN_BITS),
    "all_reversible": _none_of(TP.ALL_BITS ^ TP.REVERSIBLE_BITS),
    "honor_tiles": "_dh",
    "suited_tiles": "_ds",
    "quads": "_dq",
    "min_number": "_dn",
    "max_number": "_dx",
    "suits": "_du",
}


# reading facts the generated loop reads from a local that one call sets once a reading
# (a single pass over the groups instead of the fact's own function): name -> local
ONE_PASS: dict[str, str] = {"concealed_pungs": "_dc"}


def described_names(rs: Ruleset) -> dict[str, str]:
    """The names of :data:`DESCRIBED` and :data:`ONE_PASS` the generated loop of ``rs``
    reads from locals, as their texts: every one that is a reading fact no option of
    ``rs`` shadows.

    >>> from scorer.rules.load import load_ruleset
    >>> sorted(described_names(load_ruleset("mcr"))) == sorted({**DESCRIBED, **ONE_PASS})
    True
    """
    shadowed = set(F.names_at("context", "hand")) | set(rs.options)
    reading = F.names_at("reading")
    return {n: t for n, t in {**DESCRIBED, **ONE_PASS}.items()
            if n in reading and n not in shadowed}


# A reading's group lists as the generated loop reads them: any/all/count over pungs,
# chows, pairs, sets, kongs_held or groups whose loop reads only the attributes below of
# its items (values of a group's kind and tiles alone) become bit tests of the reading's
# group masks (profile.group_masks, unpacked into GROUP_MASK_LOCALS once a reading), and
# a loop no item of which can pass its leading such conditions is not run. The masks each
# test reads are worked out when the text is written, by the loop's own text on one
# sample group of each kind and first tile (scorer.lang.codegen.ListBits).
# tests/twins/test_bits.py holds every loop so written to the loop itself.
GROUP_MASK_LOCALS = "_gp, _gk, _gc, _gr, _go, _gu"
KEY_ATTRS = ("kind", "tiles", "tile", "suit", "number", "pair", "chow", "pung", "kong",
             "honor", "wind", "dragon", "suited", "terminal", "yaojiu")
_PUNG = ("_gp", tuple(Group("pung", (t,) * 3) for t in range(34)), 1)
_KONG = ("_gk", tuple(Group("kong", (t,) * 4) for t in range(34)), 2)
_CHOW = ("_gc", tuple(Group("chow", (t, t + 1, t + 2)) if t < 27 and t % 9 <= 6 else None
                      for t in range(34)), 4)
_PAIR = ("_gr", tuple(Group("pair", (t, t)) for t in range(34)), 8)
_LIST_PARTS = {"pungs": (_PUNG, _KONG), "kongs_held": (_KONG,), "chows": (_CHOW,),
               "pairs": (_PAIR,), "sets": (_CHOW, _PUNG, _KONG),
               "groups": (_PUNG, _KONG, _CHOW, _PAIR)}


def list_bits(rs: Ruleset) -> ListBits:
    """The group lists of :data:`_LIST_PARTS` the generated loop of ``rs`` may read as bit
    tests: every one that is a reading fact no option of ``rs`` shadows.

    >>> from scorer.rules.load import load_ruleset
    >>> sorted(list_bits(load_ruleset("mcr")).parts)
    ['chows', 'groups', 'kongs_held', 'pairs', 'pungs', 'sets']
    """
    from ..lang.codegen import ListBits

    shadowed = set(F.names_at("context", "hand")) | set(rs.options)
    reading = F.names_at("reading")
    parts = {n: p for n, p in _LIST_PARTS.items() if n in reading and n not in shadowed}
    return ListBits([F.GROUP_ATTRS[a].fn for a in KEY_ATTRS], parts,
                    {"groups": "_go"} if "groups" in parts else {}, "_gu", int.bit_count)


# Complexity 17, over the 15 allowed, on purpose: it writes the text of scoring._choose's
# per-pattern steps (a family's count, when, each, count, value) one branch for one, so that
# the two read side by side.
def _loop_source(rs: Ruleset, fams: tuple[Family, ...]) -> tuple[str, Emitter]:  # noqa: C901
    from ..lang.codegen import CodegenError, Emitter

    em = Emitter(INLINE_ATTRS, described_names(rs), list_bits(rs))
    reading = frozenset(F.names_at("reading"))
    out = ["def _loop(env, _m):", "    _found = []"]
    memo_keys = iter(range(1 << 30))
    tick, int_, isint, len_, tuple_ = (em.helper(x) for x in (budget.tick, int, isinstance,
                                                             len, tuple))
    bad = em.helper(_bad)

    def operand(c: Compiled, target: str, pad: str, memo: bool) -> tuple[list[str], str]:
        """Lines to run first and the text of the value of ``c`` (as its closure, ticks
        included): the text is ``target`` where the lines set it, else to be used once."""
        if c.const:
            return [], em.literal(c.consts[id(c.tree)])
        ticks = [f"{pad}{tick}({c.weight})"] if c.weight else []
        text = em.expr(c)
        if not memo or not c.names.isdisjoint(reading):
            return ticks, text
        # scoring._hand_fast: on a hand with many readings (a memo given), computed once
        # (the ticks before the work, as the closure's: `_tick(w) or value`, None or value)
        k = next(memo_keys)
        work = f"({tick}({c.weight}) or {text})" if c.weight else text
        return [f"{pad}{target} = _m[{k}] if _m is not None and {k} in _m else {work}",
                f"{pad}if _m is not None:", f"{pad}    _m[{k}] = {target}"], target

    def whole(c: Compiled, target: str, pad: str, memo: bool) -> tuple[list[str], str]:
        """Lines that check the value of ``c`` is a whole number, and its text as an int."""
        if c.const and type(c.consts[id(c.tree)]) in (int, bool):
            return [], str(int(c.consts[id(c.tree)]))
        lines, text = operand(c, target, pad, memo)
        if text != target:
            lines.append(f"{pad}{target} = {text}")
        return [*lines, f"{pad}if not {isint}({target}, {int_}):", f"{pad}    {bad}()"], \
            f"{int_}({target})"

    where: dict[int, tuple[int, int]] = {}  # pattern index -> (family, position)
    for f, fam in enumerate(fams):
        out.append(f"    _c{f} = {em.helper(fam.counts)}(env[{fam.of!r}])")
        for j, k in enumerate(fam.patterns):
            where[k] = (f, j)
    size, mark = 0, 0
    for p in rs.patterns:
        size += sum(len(line) + 1 for line in out[mark:])
        mark = len(out)
        if size > MAX_LOOP_SOURCE:  # stop writing: it will not be compiled
            raise CodegenError(f"the generated loop is longer than {MAX_LOOP_SOURCE} characters")
        pat = em.helper(p)
        if p.count_once is not None:  # scoring._family_hits: the value of each that counts
            f, j = where[p.index]
            out.append(f"    if _c{f}[{j}]:")
            lines, text = operand(p.value, "_x", " " * 8, False)
            if p.value.const and type(p.value.consts[id(p.value.tree)]) in (int, bool):
                text = str(int(p.value.consts[id(p.value.tree)]))
            else:
                text = f"{int_}({text})"
            out += lines
            out.append(f"        _found += (({pat}, {text}, _c{f}[{j}], ()),)")
            continue
        pad = " " * 4
        if p.when.const:
            if not p.when.consts[id(p.when.tree)]:
                continue  # never counts
        else:
            lines, text = operand(p.when, "_w", pad, True)
            out += [*lines, f"{pad}if {text}:"]
            pad += " " * 4
        items = "()"
        if p.each is not None:
            lines, text = operand(p.each, "_e", pad, True)
            out += [*lines, f"{pad}_i = {tuple_}({text})", f"{pad}if {len_}(_i) > 0:"]
            items, n = "_i", f"{len_}(_i)"
            pad += " " * 4
        elif p.count is not None:
            lines, n = whole(p.count, "_n", pad, True)
            out += [*lines, f"{pad}if {n} > 0:"]
            pad += " " * 4
        else:
            n = "1"
        lines, v = whole(p.value, "_x", pad, True)
        out += [*lines, f"{pad}_found += (({pat}, {v}, {n}, {items}),)"]
    # the description and the one-pass facts, once a reading, before any pattern reads them
    if not em.named.isdisjoint(DESCRIBED):
        out.insert(1, f"    {DESCRIPTION_LOCALS} = {em.helper(TP.description)}(env)")
    if em.masks:
        out.insert(1, f"    {GROUP_MASK_LOCALS} = {em.helper(TP.group_masks)}(env)")
    if "concealed_pungs" in em.named:
        out.insert(1, f"    {ONE_PASS['concealed_pungs']} = {em.helper(TP.concealed_pungs_once)}(env)")
    out.append("    return _found")
    return "\n".join(out) + "\n", em


def families(patterns: tuple[Pattern, ...]) -> tuple[Family, ...]:
    """The combination patterns grouped by the list they combine, in the ruleset's order.

    A family whose patterns look only at the sets' tiles (no group comparison, no
    attribute beyond :data:`scorer.search.combine.TILE_ONLY_ATTRS`) is memoised by tiles.

    >>> from scorer.rules.load import load_ruleset
    >>> [f.of for f in families(load_ruleset("mcr").patterns)]  # mcr.yaml combines pungs first
    ['pungs', 'chows']
    """
    fams: dict[str, list[int]] = {}
    for k, p in enumerate(patterns):
        if p.count_once is not None:
            fams.setdefault(p.count_once[0], []).append(k)
    out = []
    for of, idx in fams.items():
        pats = [patterns[k] for k in idx]
        attrs = {a for p in pats for (_, a) in p.when.attrs}
        preds = tuple((p.count_once[1], predicate(p.when.fn, p.count_once[1]))  # type: ignore[index]
                      for p in pats)
        out.append(Family(of, tuple(idx), preds, attrs <= TILE_ONLY_ATTRS
                          and not any(GROUP in p.when.compares for p in pats)))
    return tuple(out)
