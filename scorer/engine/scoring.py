"""Score a hand: every reading, every pattern, every payment; keep the best for the winner.

:func:`score` is the library's main entry point::

    >>> from scorer import score, Context
    >>> r = score("123m456p789s234sPP", "hangzhou", Context(self_draw=True))
    >>> r.best.score, r.payments
    (2, {'E': 12, 'S': -4, 'W': -4, 'N': -4})

Ranking of readings (docs/rulings.md#common-best-reading): highest amount received by the winner, then the
higher headline number, then fewer wildcards substituted, then the ruleset's
``ties`` (see :func:`_rank_ties`).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ..errors import ContextError, HandError, MjscoreError, NotAWin
from ..lang import EvalError, budget, safe_mul, safe_pow
from ..memo import Memo
from ..model import tiles as T
from ..model.hand import Hand
from ..model.notation import parse_hand
from ..rules import facts as F
from ..rules.env import Env, child_env
from ..rules.load import load_ruleset
from ..rules.model import Check, Pattern, Ruleset
from ..rules.plan import Loop, Plan, plan_of
from ..search.readings import Interpretation, Reading, interpret, readings
from .context import Context, Table, resolve
from .faults import PYTHON_ERRORS, holds, ruleset_errors, translate, whole
from .payments import Settlement, detached, settle
from .result import Hit, Refusal, Result, Scored


def score(hand: Hand | str, ruleset: Ruleset | str, context: Context | None = None) -> Result:
    """Score one hand under a ruleset; raise an :class:`MjscoreError` subclass on failure.

    ``hand`` may be notation text, ``ruleset`` a built-in id or a path. A user's
    ruleset file gets :data:`scorer.lang.budget.TIME_LIMIT` seconds of this thread's CPU for
    the hand (a budget of its own, so threads scoring at once do not share one); the
    built-in rulesets are trusted and run without a budget.
    """
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    h = parse_hand(hand) if isinstance(hand, str) else hand
    plan_of(rs).generated.prepare(rs)  # the generated pattern loop, once it pays (rules.plan)
    if rs.trusted and budget.current() is None:
        return _score(h, rs, context or Context())  # no budget, as limited(None) would be
    with budget.limited(None if rs.trusted else budget.TIME_LIMIT):
        return _score(h, rs, context or Context())


def _score(h: Hand, rs: Ruleset, ctx: Context) -> Result:
    """The three steps: check the input, build the readings, choose the best."""
    table = resolve(rs, ctx, h)
    interp = _check_input(h, rs, table)
    renvs = _build_readings(rs, table, interp, h)
    return _choose(h, rs, table, renvs)


def _check_input(h: Hand, rs: Ruleset, table: Table) -> Interpretation:
    """The ruleset's input errors, the tile count and copies, the suits in play; the hand as
    the table reads it, its facts added to ``table.env``. Raises ContextError / HandError."""
    spec = table.wild
    env = table.env
    # Input errors that depend on the context alone come before any check of the tiles:
    # the same verdict for every hand of this context, so worked out once (Table.memo)
    verdict: tuple[Check | None, tuple[Any, ...]] | None = table.memo.get("errors")
    if verdict is None:
        verdict = table.memo.put("errors", _context_errors(rs, env))
    if verdict[0] is not None:  # as written: the hand facts are not known yet
        raise ContextError("rule.error", **verdict[0].params({}))
    late = verdict[1]
    h.check_size(rs.hand_size, rs.id)
    h.check_copies({spec.face: spec.in_play} if spec.face is not None else None)
    if not _ALL_SUITS.issubset(table.suits):  # with every suit in play, every tile is
        for t, pos in h.sources:
            if t < 27 and T.SUITS[t // 9] not in table.suits:
                raise HandError("suit.not_in_play", pos, tile=T.name(t),
                                suits=" ".join(table.suits))
    interp = interpret(h, spec)
    F.fill_hand(env, h, interp)
    for chk in late:
        if holds(chk.when, env, f"{rs.file} errors '{chk.id}'"):
            raise ContextError("rule.error", **chk.params({}))  # as written, like the above
    return interp


def _context_errors(rs: Ruleset, env: Env) -> tuple[Check | None, tuple[Any, ...]]:
    """The ruleset's input errors on a context's values: the first that holds
    of the names it reads that are not the hand's (or None), and the checks that read the
    hand's, in order, for after the tiles are checked. An expression's failure raises (and
    so is not remembered).

    >>> from scorer.model.notation import parse_hand
    >>> rs, h = load_ruleset("jinhua"), parse_hand("123m456p789s234s55s")
    >>> _context_errors(rs, resolve(rs, Context(self_draw=True), h).env)[0].id
    'needs_wild'
    >>> _, late = _context_errors(rs, resolve(rs, Context(self_draw=True, wild="3m"), h).env)
    >>> [c.id for c in late]
    ['human_melds']
    """
    late = []
    for chk in rs.errors:
        if chk.when.names & _HAND_LEVEL:
            late.append(chk)
        elif holds(chk.when, env, f"{rs.file} errors '{chk.id}'"):
            return chk, ()
    return None, tuple(late)


def _build_readings(rs: Ruleset, table: Table, interp: Interpretation,
                    h: Hand | None = None) -> list[Env]:
    """Every reading of the hand in the ruleset's shapes, each with its own Env; raises
    NotAWin when there is none or a ``not_a_win`` check on the hand holds."""
    env = table.env
    plan = plan_of(rs)
    shapes = rs.shapes
    if rs.shape_when:
        with ruleset_errors(f"{rs.file} shapes"):
            shapes = rs.shapes_for(env)
    rds = readings(interp, table.wild, shapes, rs.sets, table.self_draw,
                   place_once=not plan.placement)
    if not rds:
        raise NotAWin("win.not_complete", "not_winning", shapes=list(shapes), sets=rs.sets)
    renvs = []
    win = interp.win_tile
    face = env["wild_face"]
    # every reading's wild_substituted is asked for (the ranking): its family is filled in
    # at once, unless a name of the hand's shadows one of its facts (then on first use)
    family = env.keys().isdisjoint(F.READING_FAMILY)
    lists = plan.fill_lists and env.keys().isdisjoint(F.LISTS_FAMILY)
    # Seed each reading's names with the hand's (a C-level dict copy), so only reading
    # facts are computed through Env.__missing__; not where most readings are never
    # evaluated (_keyed: _choose seeds a reading it evaluates)
    seed = not _keyed(rs)
    family = family and seed  # (keyed: by the values themselves, see _choose)
    update = dict.update
    child = child_env
    for r in rds:
        renv = child(env, r, win)
        if seed:
            update(renv, env)
        if family:
            F.fill_reading(renv, r, face, win)
        if lists:
            update(renv, F.lists_facts(r.groups))
        renvs.append(renv)
    env["__readings__"] = renvs
    for chk in plan.hand_checks:
        try:
            held = chk.when.fn(env)
        except Exception:  # evaluated again, to be worded and placed as holds does
            held = holds(chk.when, env, f"{rs.file} not_a_win '{chk.id}'")
        if held:
            refusal = _refusal(rs, h, table, renvs) if h is not None and (
                chk.when.names & F.WAIT_FACTS or "any_reading" in chk.when.names) else None
            raise NotAWin("rule.refused", chk.reason, details=refusal, **chk.params(env))
    return renvs


def _refusal(rs: Ruleset, h: Hand, table: Table, renvs: list[Env]) -> Refusal | None:
    """The wait data of a refusal by a check that reads the wait: the first reading whose
    wait facts hold (its lone wildcard, its wait), and the hand's waits without the winning
    tile. None when no reading shows one (the check read something else)."""
    from .waitfacts import wait_facts

    for renv in renvs:
        if any(renv[name] for name in sorted(F.WAIT_FACTS)):
            refusal = Refusal(rs, h, table, renv["__reading__"])
            try:
                refusal.waits = wait_facts(refusal)  # type: ignore[arg-type]
            except MjscoreError:  # the waits cannot be worked out: the message goes alone
                return None
            return refusal
    return None


# Complexity 31, over the 15 allowed, on purpose: the loop below is what every reading of
# every hand goes through (a thousand for four wildcards), with its keyed and remembered
# shortcuts inline; each step taken out into a function would be one more call per reading
# (about 400 instructions, 0.1 % of a steady hand, for every step), and the pattern loop
# rules/plan.py generates follows this one step by step.
def _choose(h: Hand, rs: Ruleset, table: Table, renvs: list[Env]) -> Result:  # noqa: C901
    """Score every reading a ``not_a_win`` check on readings lets through, rank them for the
    winner and check the best (``not_a_win`` on the result); raises NotAWin."""
    env = table.env
    winner = env["seat"]
    scored: list[Scored] = []
    first_drop: dict[str, Any] | None = None
    excluded: list[tuple[Reading, dict[str, Any]]] = []
    plan = plan_of(rs)
    pay_key = _pay_key(rs, table, plan)
    pay_cache = plan.settlements.get_or(pay_key, _new_settlements)
    # readings that meet the same patterns with the same values score alike, in this hand
    # and in every hand with the same payment inputs and `also` values (reusable plans)
    also_key = tuple([repr(env[n]) for n in plan.also_names]) if plan.also_names else ()
    seen: Memo[tuple[Any, ...], list[Outcome]] = (
        plan.outcomes.get_or((pay_key, also_key), _new_outcomes) if plan.reusable
        else Memo(256))
    reading_checks = plan.reading_checks
    many = len(renvs) >= _MANY_READINGS
    gen = plan.generated
    gen.readings += len(renvs)
    loop = gen.loop
    # (with a generated loop, the closures run only to word an error: no memo for them)
    fast = _hand_fast(rs) if many and loop is None else plan.fast
    memo: dict[int, Any] | None = {} if many else None  # the generated loop's _hand_fast
    # A hand with many readings (four wildcards: a thousand) meets few distinct values of
    # the reading names its patterns read: the patterns met are remembered by those values
    # (not for a user's ruleset: its budget counts every evaluation, and the generated loop
    # ticks exactly as the closures do; nor beside a generated loop, which has its own memo)
    met: Met | None = None
    if many and loop is None and rs.trusted:
        met = (tuple(n for n in plan.pattern_names if n not in env), {})
    # A built-in ruleset's patterns met are a function of the values of plan.found_names
    # (the hand's are the same for every reading), its reading checks of plan.check_names':
    # a reading whose values were seen before in this hand is not evaluated at all, nor
    # are its patterns where they were seen in a hand with the same values and payment
    # inputs (keyed: the reading names, this hand's (dropped, variants) by their values,
    # the outcomes remembered across hands)
    keyed: Keyed | None = None
    seeded = not _keyed(rs)  # (_build_readings)
    # where every reading name of the key is one of facts.reading_values(), the key is
    # made from those values, and a reading's Env gets them only when it is evaluated
    by_values: tuple[int, ...] | None = None
    face, win = env["wild_face"], env["__interp__"].win_tile
    if not seeded:
        hand_names = tuple([n for n in plan.found_names if n in env])
        hand_key = _met_key(env, hand_names)
        if hand_key is not None:
            names = tuple([n for n in plan.key_names if n not in env])
            keyed = (names, {}, plan.met.get_or((pay_key, also_key, names, hand_names,
                                                 hand_key), lambda: Memo(512)))
            if env.keys().isdisjoint(F.READING_FAMILY) and F.READING_FAMILY.issuperset(names):
                by_values = tuple([F.READING_ORDER.index(n) for n in names])
    # The loop is hot: one try for it, and `at` says which site failed (0: a user's ruleset
    # out of CPU time, 1: a not_a_win check on the reading, any error; 2: a reading's own
    # scoring, which names its errors itself), translated as ruleset_errors would.
    at = 0
    update = dict.update
    metered = budget.current() is not None  # (a built-in ruleset has no budget)
    try:
        for renv in renvs:
            at = 0
            if metered:
                budget.check()
            rkey = None
            hit = None
            values = None
            if by_values is not None and keyed is not None:
                values = F.reading_values(renv["__reading__"], face, win)
                rkey = tuple([values[i] for i in by_values])
                hit = keyed[1].get(rkey)
            elif keyed is not None:
                rkey = _met_key(renv, keyed[0])
                if rkey is not None:
                    hit = keyed[1].get(rkey)
            if hit is None:
                if values is not None:  # evaluated: its facts and the hand's names in
                    update(renv, zip(F.READING_ORDER, values, strict=True))
                if not seeded:  # (the hand's names copied, see _build_readings)
                    update(renv, env)
                dropped = None
                if reading_checks:
                    at = 1
                    for chk in reading_checks:
                        if chk.when.fn(renv):
                            dropped = chk.params(renv)
                            break
                variants: list[Variant] | None = None
                if dropped is None:
                    at = 2
                    if keyed is not None and rkey is not None:
                        known = keyed[2].get(rkey)
                        if known is not None:
                            variants = _settled(known, pay_cache)
                        if variants is None:
                            variants = _reading_variants(rs, plan, table, renv, winner,
                                                         pay_cache, seen, fast, met, loop, memo)
                            keyed[2].put(rkey, [(u, r, t, h, a)
                                                for u, r, t, h, _, a in variants])
                    else:
                        variants = _reading_variants(rs, plan, table, renv, winner, pay_cache,
                                                     seen, fast, met, loop, memo)
                hit = (dropped, variants)
                if keyed is not None and rkey is not None:
                    keyed[1][rkey] = hit
            dropped, variants = hit
            if variants is None:
                first_drop = first_drop or dropped
                excluded.append((renv["__reading__"], dropped or {}))
                continue
            at = 2
            reading = renv["__reading__"]
            sub = values[_SUBSTITUTED] if values is not None else renv["wild_substituted"]
            for used, replaced, tallies, headline, settlement, also in variants:
                scored.append(Scored(reading, used, replaced, tallies, headline, settlement,
                                     renv, sub, also))
    except Exception as e:
        if at == 2 or (at == 0 and not isinstance(e, EvalError)):
            raise
        raise translate(e, rs.file if at == 0 else f"{rs.file} not_a_win") from None
    if not scored:
        raise (NotAWin("rule.refused", "illegal", **first_drop) if first_drop
               else NotAWin("win.no_reading", "illegal"))
    if len(scored) > 1 and (rs.tie_order == "sets" or rs.tie_prefer):
        _rank_ties(rs, scored)
    # (Scored.key, written out: a call less per reading)
    scored.sort(key=lambda s: (s.settlement.payments[winner], s.score, -s.wild_substituted,
                               s.tie), reverse=True)
    best = scored[0]
    for chk in rs.not_a_win:
        if chk.on == "result":
            renv = Env(best.env, score=best.score, **best.tallies)
            try:
                held = chk.when.fn(renv)
            except Exception:  # evaluated again, to be worded and placed as holds does
                held = holds(chk.when, renv, f"not_a_win '{chk.id}'")
            if held:
                result = Result(rs, h, table, best, scored, excluded)
                raise NotAWin("rule.refused", chk.reason, details=result, **chk.params(renv))
    return Result(rs, h, table, best, scored, excluded)


def _rank_ties(rs: Ruleset, scored: list[Scored]) -> None:
    """Set each reading's tie rank from the ruleset's ``ties`` (it matters only between
    readings that pay the winner alike, with the same headline).

    ``order: sets`` ranks the readings by shape (in the order the ruleset lists its
    shapes), then by their sets in ascending tile order, the first highest; a reading
    that counts one of the ``prefer`` patterns ranks above all others, and among those
    the *last* in that order ranks highest (as a reference calculator that scans the
    decompositions in order and keeps overwriting its choice with a preferred one).
    """
    shape_pos = {shape: k for k, shape in enumerate(rs.shapes)}
    if rs.tie_order == "sets":
        order = sorted(range(len(scored)), key=lambda k: (
            shape_pos.get(scored[k].reading.shape, len(shape_pos)),
            sorted(g.tiles for g in scored[k].reading.groups if g.kind != "pair")))
    else:
        order = list(range(len(scored)))
    n = len(scored)
    for pos, k in enumerate(order):
        s = scored[k]
        preferred = any(h.pattern.id in rs.tie_prefer for h in s.hits)
        s.tie = n + pos if preferred else -pos


_HAND_LEVEL = frozenset(F.names_at("hand"))
_ALL_SUITS = frozenset(T.SUITS)
_READING_LEVEL = frozenset(F.names_at("reading"))
_MANY_READINGS = 16
_SUBSTITUTED = F.READING_ORDER.index("wild_substituted")


def _once(fn: Any) -> Any:
    """``fn`` computed on its first call and remembered (an error is not remembered)."""
    box: list[Any] = []

    def f(env: Any) -> Any:
        if not box:
            box.append(fn(env))
        return box[0]
    return f


def _hand_fast(rs: Ruleset) -> tuple[tuple[Any, ...], ...]:
    """``plan_of(rs).fast`` for one hand with many readings: a pattern closure that reads no
    reading fact (a flower condition, ``wild_count``) has one value for the whole hand,
    so it is computed on first use and reused by the other readings."""
    def wrap(c: Any) -> Any:
        if c is None:
            return None
        return _once(c.fn) if c.names.isdisjoint(_READING_LEVEL) else c.fn
    return tuple((p, wrap(p.when), wrap(p.value), wrap(p.count), wrap(p.each))
                 for p in rs.patterns if p.count_once is None)


def _new_settlements() -> Memo[tuple[Any, ...], Settlement]:
    return Memo(256)


def _new_outcomes() -> Memo[tuple[Any, ...], list[Outcome]]:
    return Memo(256)


def _pay_key(rs: Ruleset, table: Table, plan: Plan | None = None) -> tuple[Any, ...]:
    """What a settlement depends on besides the tallies: hands scored with the same key
    share the settlements cached by tallies (``plan_of(rs).settlements``, bounded there).

    A payment that uses no reading facts depends only on the tallies and on the context
    names it mentions, so hands scored with the same flags share it. (``plan``: the
    ruleset's, when the caller has it.)
    """
    plan = plan or plan_of(rs)
    return (table.seats, table.env["seat"], table.discarder, table.chengbao,
            tuple(repr(table.env.get(n)) for n in plan.payment_names))


# (patterns used, patterns replaced, tallies, headline, settlement, also contributions)
Variant = tuple[list[Hit], list[Hit], dict[str, int], int, Settlement,
                list[tuple[str, Pattern, int]]]
# a Variant without its settlement, as remembered across hands (plan.outcomes): the
# settlement is the payment cache's, so the memo holds no Env, hence no reading
Outcome = tuple[list[Hit], list[Hit], dict[str, int], int, list[tuple[str, Pattern, int]]]
# the patterns a reading meets, (pattern, value, count, items) each
Found = list[tuple[Pattern, int, int, tuple[Any, ...]]]
# the reading names the patterns read (not shadowed by the hand's), and the patterns met
# by their values, for one hand (see _choose)
Met = tuple[tuple[str, ...], dict[tuple[Any, ...], Found]]


# the reading names of plan.found_names and plan.check_names, one hand's readings by
# their values (the message of a not_a_win check that ruled it out, or its variants), and
# the outcomes by their values across hands (see _choose)
Keyed = tuple[tuple[str, ...], dict[tuple[Any, ...], tuple[dict[str, Any] | None, list[Variant] | None]],
              Memo[tuple[Any, ...], list[Outcome]]]


def _keyed(rs: Ruleset) -> bool:
    """Whether the readings of ``rs`` are scored by the values of the names they read
    (_choose): a built-in ruleset whose outcomes depend on its patterns' values only (a
    user's ruleset has a CPU budget that counts every evaluation), which reads no list or
    group of a reading (with those, nearly every reading has values of its own).

    >>> _keyed(load_ruleset("hangzhou")), _keyed(load_ruleset("mcr"))
    (True, False)
    """
    if not (KEYED and rs.trusted):
        return False
    plan = plan_of(rs)
    return plan.reusable and plan.scalar_key


# the keyed scoring of _keyed in use (the differential tests switch it off: their reference;
# a module global, not a function to replace, so that a compiled build sees the switch too)
KEYED = True


def _reading_variants(rs: Ruleset, plan: Plan, table: Table, renv: Env, winner: str,
                      pay_cache: Memo[tuple[Any, ...], Settlement],
                      seen: Memo[tuple[Any, ...], list[Outcome]],
                      fast: tuple[tuple[Any, ...], ...] | None = None,
                      met: Met | None = None,
                      loop: Loop | None = None, memo: dict[int, Any] | None = None
                      ) -> list[Variant]:
    """The variants of one reading (patterns used and replaced, tallies, headline,
    settlement, ``also``): one, or one per choice of a 'max' tally. ``plan`` is the
    ruleset's (``plan_of(rs)``, taken once per hand by the caller: this runs per reading).

    >>> from scorer import load_ruleset, Context
    >>> from scorer.engine.context import resolve
    >>> from scorer.model.notation import parse_hand
    >>> rs = load_ruleset("hangzhou"); h = parse_hand("123m456p789s234s99m")
    >>> table = resolve(rs, Context(self_draw=True), h)  # 自摸 1 番, each pays 庄闲分 2
    >>> renv = _build_readings(rs, table, _check_input(h, rs, table))[0]
    >>> [(headline, settlement.payments["E"]) for _, _, _, headline, settlement, _
    ...  in _reading_variants(rs, plan_of(rs), table, renv, "E", Memo(8), Memo(8))]
    [(1, 6)]
    """
    found = None
    if loop is not None:  # the pattern loop as generated code (rules.plan)
        try:
            found = loop(renv, memo)
        except Exception:  # the closures below say what failed, and where
            found = None
    if found is None:
        found = _pattern_hits(rs, plan, renv, fast, met)
    # Readings of one hand that meet the same patterns with the same values score alike
    # (unless `also` or the payment reads reading facts): reuse the tallies and payments.
    # (the items a pattern's `each` counted are not: the reading's own are put in its hits)
    sig = tuple([(p.index, v, n) for p, v, n, _ in found])
    reusable = plan.reusable
    known = seen.get(sig) if reusable else None
    variants = _settled(known, pay_cache) if known is not None else None
    if variants is not None and any(f[3] for f in found):
        variants = _with_items(variants, found)
    if variants is None:
        variants = _variants(rs, plan, table, renv, winner, pay_cache, found)
        if reusable:
            seen.put(sig, [(u, r, t, h, a) for u, r, t, h, _, a in variants])
    return variants


def _with_items(variants: list[Variant], found: Found) -> list[Variant]:
    """``variants`` remembered from a reading that met the same patterns with the same
    values and counts, with the items of this reading's ``each`` patterns in their hits.

    >>> from scorer import load_ruleset
    >>> p = load_ruleset("xiamen").patterns[0]
    >>> old = ([Hit(p, 1, 1, items=("111m",))], [], {}, 1, None, [])
    >>> _with_items([old], [(p, 1, 1, ("999m",))])[0][0][0].items  # type: ignore[list-item]
    ('999m',)
    """
    items = {p.index: its for p, _, _, its in found if its}
    out: list[Variant] = []
    for used, replaced, tallies, headline, settlement, also in variants:
        out.append(([Hit(h.pattern, h.value, h.count, h.replaced_by, items[h.pattern.index])
                     if h.pattern.index in items else h for h in used],
                    [Hit(h.pattern, h.value, h.count, h.replaced_by, items[h.pattern.index])
                     if h.pattern.index in items else h for h in replaced],
                    tallies, headline, settlement, also))
    return out


def _pattern_hits(rs: Ruleset, plan: Plan, renv: Env, fast: tuple[tuple[Any, ...], ...] | None,
                  met: Met | None = None) -> list[tuple[Pattern, int, int, tuple[Any, ...]]]:
    """The patterns that count on a reading, by their closures: (pattern, value, count,
    items) in the ruleset's order; an error is named by the expression that failed. With
    ``met``, the patterns met are remembered by the values of the names they read."""
    key = _met_key(renv, met[0]) if met is not None else None
    met_before = met[1].get(key) if met is not None and key is not None else None
    found: Found = list(met_before) if met_before is not None else []
    part = "when"  # which expression of the pattern is evaluated, for the error message
    p: Pattern | None = None
    # Any, not int: an `int?` count may give None, which whole() refuses with its message
    # (a compiled build checks an int variable's type on assignment, before whole() could)
    n: Any
    try:
        for p, when, value, count, each in () if met_before is not None else fast or plan.fast:
            part = "when"
            if when(renv):
                items: tuple[Any, ...] = ()
                if each is not None:
                    part = "each"
                    items = tuple(each(renv))
                    n = len(items)
                else:
                    part = "count"
                    n = count(renv) if count is not None else 1
                    whole(n, p.count)
                if n > 0:
                    part = "value"
                    v = value(renv)
                    whole(v, p.value)
                    found.append((p, int(v), int(n), items))
    except (EvalError, *PYTHON_ERRORS) as e:
        # (a try, not ruleset_errors: which expression failed is known only here, and the
        # loop is the hot path) named by the expression's file, line and key
        raise translate(e, f"{rs.file} patterns",
                        getattr(p, part, None) if p is not None else None) from None
    if met is not None and key is not None and met_before is None:
        met[1][key] = list(found)
    if plan.families:
        found += _family_hits(rs, plan, renv)
        found.sort(key=lambda f: f[0].index)
    return found


def _met_key(renv: Env, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The values of ``names`` in a reading's Env (the patterns met are a function of
    them, the hand's names being the same for every reading); None if one cannot be
    computed or is unhashable (the patterns are then evaluated)."""
    try:
        key = tuple([renv[n] for n in names])
        hash(key)
    except Exception:  # the patterns' own evaluation reports what is wrong, where
        return None
    return key


def _settled(known: list[Outcome], pay_cache: Memo[tuple[Any, ...], Settlement]
             ) -> list[Variant] | None:
    """Remembered outcomes with their settlements from the payment cache (keyed as
    :func:`_variants` stores them); None when one has gone from it (computed again)."""
    out: list[Variant] = []
    for used, replaced, tallies, headline, also in known:
        settlement = pay_cache.get((tuple(tallies.values()), headline))
        if settlement is None:
            return None
        out.append((used, replaced, tallies, headline, settlement, also))
    return out


def _family_hits(rs: Ruleset, plan: Plan, renv: Env
                 ) -> list[tuple[Pattern, int, int, tuple[Any, ...]]]:
    """The combination patterns that count, family by family (scorer.search.combine)."""
    out: list[tuple[Pattern, int, int, tuple[Any, ...]]] = []
    for fam in plan.families:
        with ruleset_errors(f"{rs.file} combination patterns over {fam.of}",
                            catch=(Exception,)):
            counts = fam.counts(renv[fam.of])
        for k, n in zip(fam.patterns, counts, strict=True):
            if n:
                p = rs.patterns[k]
                out.append((p, int(holds(p.value, renv, f"pattern '{p.id}' value")), n, ()))
    return out


# Complexity 23, over the 15 allowed, on purpose: run for every reading whose outcome is not
# remembered, its steps (the max tallies' variants, the replaced patterns, tallies,
# headline, the settlement from the payment memo) share the reading's state; as functions
# each would be one more call per reading.
def _variants(rs: Ruleset, plan: Plan, table: Table, renv: Env, winner: str,  # noqa: C901
              pay_cache: Memo[tuple[Any, ...], Settlement],
              found: list[tuple[Pattern, int, int, tuple[Any, ...]]]) -> list[Variant]:
    hits = [Hit(p, v, n, items=items) for p, v, n, items in found]
    max_names = plan.max_tallies
    removed: dict[str, str] = {}
    for h in hits:
        # a pattern of a 'max' tally replaces others only in the variant that counts it
        # (below): one that is not chosen does not count, so it takes nothing away
        if h.pattern.tally in max_names:
            continue
        for rid in h.pattern.replaces:
            removed.setdefault(rid, h.pattern.id)
    if removed:
        counted = [h for h in hits if h.pattern.id not in removed]
        replaced = [Hit(h.pattern, h.value, h.count, removed[h.pattern.id], h.items)
                    for h in hits if h.pattern.id in removed]
    else:
        counted, replaced = hits, []
    # a fallback pattern (平胡 ×1) counts only when nothing else of its tally does
    busy = {h.pattern.tally for h in counted if not h.pattern.fallback}
    counted = [h for h in counted if not (h.pattern.fallback and h.pattern.tally in busy)]

    # A 'max' tally takes exactly one of its patterns: each is an alternative reading.
    choices: list[list[Hit | None]] = []
    for tname in max_names:
        opts: list[Hit | None] = [h for h in counted if h.pattern.tally == tname]
        choices.append(opts or [None])
    out: list[Variant] = []
    for combo in product(*choices):
        try:  # many 'max' tallies multiply into many combinations
            budget.check()
        except EvalError as e:
            raise translate(e, f"{rs.file} tallies") from None
        dropped = replaced
        if max_names:
            chosen = {h.pattern.id for h in combo if h is not None}
            used = [h for h in counted if h.pattern.tally not in max_names
                    or h.pattern.id in chosen]
            # what the chosen patterns replace, in this variant only (e.g. Sichuan's 天胡
            # takes no doubling: a variant that counts the hand's own base pattern keeps them)
            gone = {rid: h.pattern.id for h in combo if h is not None
                    for rid in h.pattern.replaces if rid not in chosen}
            if gone:
                dropped = replaced + [Hit(h.pattern, h.value, h.count, gone[h.pattern.id],
                                          h.items) for h in used if h.pattern.id in gone]
                used = [h for h in used if h.pattern.id not in gone]
        else:
            used = counted
        tallies: dict[str, int] = {}
        also: list[tuple[str, Pattern, int]] = []
        for t in rs.tallies:
            vals = [(h.value, h.count) for h in used if h.pattern.tally == t.name]
            for h in used:
                for tname, c in h.pattern.also:
                    if tname == t.name:
                        with ruleset_errors(f"pattern '{h.pattern.id}' also", c):
                            v = int(c.number(renv))
                        vals.append((v, 1))
                        also.append((tname, h.pattern, v))
            # exact integers, with the expression language's bound on their size (a try,
            # not ruleset_errors: the hot path, and the message names this tally)
            try:
                if not vals:
                    tallies[t.name] = t.default
                elif t.combine == "sum":
                    total = 0
                    for v, n in vals:
                        total = safe_mul(1, total + safe_mul(v, n))
                    tallies[t.name] = total
                elif t.combine == "product":
                    total = 1
                    for v, n in vals:
                        total = safe_mul(total, safe_pow(v, n))
                    tallies[t.name] = total
                else:
                    tallies[t.name] = max(v for v, _ in vals)
            except EvalError as e:
                raise translate(e, t.where or rs.file) from None
        try:
            headline = int(rs.score.number(tallies))
        except EvalError as e:
            raise translate(e, "score", rs.score) from None
        key = (tuple(tallies.values()), headline)
        settlement = None if rs.payment.per_reading else pay_cache.get(key)
        if settlement is None:
            # an EvalError here already names the payment expression (file, line, key)
            settlement = settle(rs, renv, table.seats, winner, table.discarder,
                                table.chengbao, tallies, headline)
            if not rs.payment.per_reading:  # a copy that keeps this hand's readings unheld
                pay_cache.put(key, detached(settlement, plan.payment_reads))
        out.append((used, dropped, tallies, headline, settlement, also))
    return out
