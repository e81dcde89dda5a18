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

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from ..errors import ContextError, EvaluationError, HandError, NotAWin
from ..lang import EvalError, budget, safe_mul, safe_pow
from ..model import tiles as T
from ..model.hand import Hand
from ..model.notation import parse_hand
from ..rules import facts as F
from ..rules.facts import Env
from ..rules.load import load_ruleset
from ..rules.model import Pattern, Ruleset
from ..rules.plan import Memo
from ..search.readings import Reading, interpret, readings
from .context import Context, Table, resolve
from .payments import Settlement, detached, settle


@dataclass
class Hit:
    """A pattern that applies to a reading, with its value and how many times it counts."""

    pattern: Pattern
    value: int
    count: int
    replaced_by: str | None = None
    items: tuple[Any, ...] = ()  # what the pattern counted, for patterns with ``each``


@dataclass
class Scored:
    """One reading of the hand, scored: patterns, tallies, headline number and payments."""

    reading: Reading
    hits: list[Hit]
    replaced: list[Hit]
    tallies: dict[str, int]
    score: int
    settlement: Settlement
    env: Env
    wild_substituted: int
    # values added to other tallies by ``also:`` of the patterns used: (tally, pattern, value)
    also: list[tuple[str, Pattern, int]] = field(default_factory=list)
    tie: int = 0  # rank among readings that score alike (higher first), see _rank_ties

    @property
    def payments(self) -> dict[str, int]:
        return self.settlement.payments

    def key(self, winner: str) -> tuple[int, int, int, int]:
        return (self.settlement.payments[winner], self.score, -self.wild_substituted, self.tie)


@dataclass
class Result:
    """The outcome of scoring one hand."""

    ruleset: Ruleset
    hand: Hand
    table: Table
    best: Scored
    candidates: list[Scored] = field(default_factory=list)

    @property
    def payments(self) -> dict[str, int]:
        return self.best.payments

    @property
    def winner(self) -> str:
        return self.table.env["seat"]  # type: ignore[no-any-return]


def _hand_facts(env: Env, hand: Hand, interp: Any) -> None:
    counts: dict[int, int] = {}
    for t in (*hand.concealed, hand.winning):
        counts[t] = counts.get(t, 0) + 1
    env.update(
        hand_tiles=tuple(t for t, _ in hand.sources) or (*hand.concealed, hand.winning),
        wild_count=interp.wild_count,
        kong_melds=hand.kong_count,
        melds=len(hand.melds),
        exposed_melds=sum(1 for m in hand.melds if not m.concealed_kong),
        chow_melds=sum(1 for m in hand.melds if len(set(m.reading or m.tiles)) == 3),
        concealed_hand=all(m.concealed_kong for m in hand.melds),
        physical_quads=sum(1 for n in counts.values() if n == 4),
        concealed_kongs=sum(1 for m in hand.melds if m.concealed_kong),
        exposed_kongs=sum(1 for m in hand.melds if m.is_kong and not m.concealed_kong),
        __hand__=hand, __interp__=interp,
    )


def _check(c: Any, env: Any, where: str) -> Any:
    try:
        return c(env)
    except EvalError as e:  # a compiled expression's error already names file:line key
        raise EvaluationError(str(e) if getattr(c, "where", "") else f"{where}: {e}") from None


def _number(c: Any, env: Any, where: str) -> int:
    """A value that must be a whole number (pattern ``also``, the headline)."""
    try:
        return int(c.number(env))
    except EvalError as e:
        raise EvaluationError(str(e) if c.where else f"{where}: {e}") from None


def _clock(rs: Ruleset, where: str = "") -> None:
    """Stop a user ruleset that has used up its CPU time, naming the file."""
    try:
        budget.check()
    except EvalError as e:
        raise EvaluationError(f"{rs.file}{where}: {e}") from None


def _whole(v: Any, c: Any) -> None:
    """An ``int?`` expression (an option that may be none) can give None: refuse it here."""
    if not isinstance(v, int):
        raise EvalError(f"'{c.src}' gave {'none' if v is None else repr(v)}, not a whole number")


def score(hand: Hand | str, ruleset: Ruleset | str, context: Context | None = None) -> Result:
    """Score one hand under a ruleset; raise an :class:`MjscoreError` subclass on failure.

    ``hand`` may be notation text, ``ruleset`` a built-in id or a path. A user's
    ruleset file gets :data:`scorer.lang.budget.TIME_LIMIT` seconds of this thread's CPU for
    the hand (a budget of its own, so threads scoring at once do not share one); the
    built-in rulesets are trusted and run without a budget.
    """
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    h = parse_hand(hand) if isinstance(hand, str) else hand
    with budget.limited(None if rs.trusted else budget.TIME_LIMIT):
        return _score(h, rs, context or Context())


def _score(h: Hand, rs: Ruleset, ctx: Context) -> Result:
    table = resolve(rs, ctx, h)
    spec = table.wild
    env = table.env
    hand_level = _HAND_LEVEL
    # Input errors that depend on the context alone come before any check of the tiles.
    late = []
    for chk in rs.errors:
        if chk.when.names & hand_level:
            late.append(chk)
        elif _check(chk.when, env, f"{rs.file} errors '{chk.id}'"):
            raise ContextError(chk.template)  # as written: the hand facts are not known yet
    h.check_size(rs.hand_size, rs.id)
    h.check_copies({spec.face: spec.in_play} if spec.face is not None else None)
    for t, pos in h.sources:
        if t < 27 and T.SUITS[t // 9] not in table.suits:
            raise HandError(f"{T.name(t)} is not in play at this table (suits in play: "
                            f"{' '.join(table.suits)})", pos)
    interp = interpret(h, spec)
    _hand_facts(env, h, interp)
    for chk in late:
        if _check(chk.when, env, f"{rs.file} errors '{chk.id}'"):
            raise ContextError(chk.template)  # as written, like the errors above

    try:
        shapes = rs.shapes_for(env) if rs.shape_when else rs.shapes
    except EvalError as e:
        raise EvaluationError(f"{rs.file} shapes: {e}") from None
    rds = readings(interp, spec, shapes, rs.sets, table.self_draw, place_once=not rs.plan.placement)
    if not rds:
        raise NotAWin(f"not a winning hand: the tiles do not form "
                      f"{_shapes_text(rs, shapes)}", "not_winning")
    renvs = []
    for r in rds:
        # Seed each reading's names with the hand's (a C-level dict copy), so only
        # reading facts are computed through Env.__missing__.
        renv = Env(env)
        dict.update(renv, env)
        renv["__reading__"] = r
        if interp.win_tile is not None:
            renv["__win_natural__"] = interp.win_tile
        renvs.append(renv)
    env["__readings__"] = renvs
    for chk in rs.not_a_win:
        if chk.on == "hand" and _check(chk.when, env, f"{rs.file} not_a_win '{chk.id}'"):
            raise NotAWin(chk.message(env), chk.reason)

    winner = env["seat"]
    scored: list[Scored] = []
    first_drop: str | None = None
    pay_cache = _pay_cache(rs, table)
    seen: dict[tuple[Any, ...], list[Variant]] = {}
    reading_checks = [(c.when.fn, c) for c in rs.not_a_win if c.on == "reading"]
    fast = _hand_fast(rs) if len(renvs) >= _MANY_READINGS else rs.plan.fast
    for renv in renvs:
        _clock(rs)
        dropped = None
        try:
            for fn, chk in reading_checks:
                if fn(renv):
                    dropped = chk.message(renv)
                    break
        except Exception as e:
            raise _eval_error(rs, "not_a_win", e) from None
        if dropped is not None:
            first_drop = first_drop or dropped
            continue
        scored.extend(_score_reading(rs, table, renv, winner, pay_cache, seen, fast))
    if not scored:
        raise NotAWin(first_drop or "not a winning hand", "illegal")
    if len(scored) > 1 and (rs.tie_order == "sets" or rs.tie_prefer):
        _rank_ties(rs, scored)
    scored.sort(key=lambda s: s.key(winner), reverse=True)
    best = scored[0]
    for chk in rs.not_a_win:
        if chk.on == "result":
            renv = Env(best.env, score=best.score, **best.tallies)
            if _check(chk.when, renv, f"not_a_win '{chk.id}'"):
                result = Result(rs, h, table, best, scored)
                raise NotAWin(chk.message(renv), chk.reason, details=result)
    return Result(rs, h, table, best, scored)


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


def _shapes_text(rs: Ruleset, shapes: tuple[str, ...] | None = None) -> str:
    """The winning shapes in words, e.g. ``a pair and 5 sets`` (17 tiles)."""
    names = {"standard": f"a pair and {rs.sets} sets", "seven_pairs": "seven pairs",
             "thirteen_orphans": "thirteen orphans",
             "gapped_honors": "14 unrelated tiles (十三不靠: each suit's tiles 3+ apart, 5+ honors)",
             "all_honors": "all honors",
             "honors_knitted": "honors and knitted tiles (全不靠)",
             "knitted_straight": "a knitted straight with a set and a pair (组合龙)"}
    return " or ".join(names.get(s, s.replace("_", " ")) for s in (shapes or rs.shapes))


_HAND_LEVEL = frozenset(F.names_at("hand"))
_READING_LEVEL = frozenset(F.names_at("reading"))
_MANY_READINGS = 16


def _once(fn: Any) -> Any:
    """``fn`` computed on its first call and remembered (an error is not remembered)."""
    box: list[Any] = []

    def f(env: Any) -> Any:
        if not box:
            box.append(fn(env))
        return box[0]
    return f


def _hand_fast(rs: Ruleset) -> tuple[tuple[Any, ...], ...]:
    """``rs.plan.fast`` for one hand with many readings: a pattern closure that reads no
    reading fact (a flower condition, ``wild_count``) has one value for the whole hand,
    so it is computed on first use and reused by the other readings."""
    def wrap(c: Any) -> Any:
        if c is None:
            return None
        return _once(c.fn) if c.names.isdisjoint(_READING_LEVEL) else c.fn
    return tuple((p, wrap(p.when), wrap(p.value), wrap(p.count), wrap(p.each))
                 for p in rs.patterns if p.combine is None)


def _pay_cache(rs: Ruleset, table: Table) -> Memo[tuple[Any, ...], Settlement]:
    """Settlements keyed by tallies, shared by hands with the same payment inputs.

    A payment that uses no reading facts depends only on the tallies and on the
    context names it mentions, so hands scored with the same flags share it (the
    caches are the ruleset plan's, bounded there).
    """
    plan = rs.plan
    key = (table.seats, table.env["seat"], table.discarder, table.chengbao,
           tuple(repr(table.env.get(n)) for n in plan.payment_names))
    return plan.settlements.get_or(key, lambda: Memo(256))


def _eval_error(rs: Ruleset, where: str, e: Exception) -> EvaluationError:
    """A ruleset expression failed while scoring: say which file and what."""
    return EvaluationError(f"{rs.file} {where}: {type(e).__name__ if not isinstance(e, EvalError) else ''}"
                           f"{'' if isinstance(e, EvalError) else ': '}{e}")


# (patterns used, patterns replaced, tallies, headline, settlement, also contributions)
Variant = tuple[list[Hit], list[Hit], dict[str, int], int, Settlement,
                list[tuple[str, Pattern, int]]]


def _score_reading(rs: Ruleset, table: Table, renv: Env, winner: str,
                   pay_cache: Memo[tuple[Any, ...], Settlement],
                   seen: dict[tuple[Any, ...], list[Variant]],
                   fast: tuple[tuple[Any, ...], ...] | None = None) -> list[Scored]:
    found: list[tuple[Pattern, int, int, tuple[Any, ...]]] = []
    part = "when"  # which expression of the pattern is evaluated, for the error message
    p: Pattern | None = None
    try:
        for p, when, value, count, each in fast or rs.plan.fast:
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
                    _whole(n, p.count)
                if n > 0:
                    part = "value"
                    v = value(renv)
                    _whole(v, p.value)
                    found.append((p, int(v), int(n), items))
    except (EvalError, TypeError, ValueError, ZeroDivisionError, IndexError, KeyError,
            AttributeError, OverflowError, RecursionError) as e:
        c = getattr(p, part, None) if p is not None else None
        if c is not None and c.where:  # name the file, line and key of the expression
            msg = str(e) if isinstance(e, EvalError) else f"{type(e).__name__}: {e}"
            raise EvaluationError(c.at(msg)) from None
        raise _eval_error(rs, "patterns", e) from None
    if rs.plan.families:
        found += _family_hits(rs, renv)
        found.sort(key=lambda f: f[0].index)
    reading = renv["__reading__"]
    sub = renv["wild_substituted"]
    # Readings of one hand that meet the same patterns with the same values score alike
    # (unless `also` or the payment reads reading facts): reuse the tallies and payments.
    # (the items a pattern's `each` counted are part of it: the report names them)
    sig = tuple((p.index, v, n, items) for p, v, n, items in found)
    reusable = rs.plan.reusable
    variants = seen.get(sig) if reusable else None
    if variants is None:
        variants = _variants(rs, table, renv, winner, pay_cache, found)
        if reusable:
            seen[sig] = variants
    return [Scored(reading, used, replaced, tallies, headline, settlement, renv, sub, also)
            for used, replaced, tallies, headline, settlement, also in variants]


def _family_hits(rs: Ruleset, renv: Env) -> list[tuple[Pattern, int, int, tuple[Any, ...]]]:
    """The combination patterns that count, family by family (scorer.search.combine)."""
    out: list[tuple[Pattern, int, int, tuple[Any, ...]]] = []
    for fam in rs.plan.families:
        try:
            counts = fam.counts(renv[fam.of])
        except Exception as e:
            raise _eval_error(rs, f"combination patterns over {fam.of}", e) from None
        for k, n in zip(fam.patterns, counts, strict=True):
            if n:
                p = rs.patterns[k]
                out.append((p, int(_check(p.value, renv, f"pattern '{p.id}' value")), n, ()))
    return out


def _variants(rs: Ruleset, table: Table, renv: Env, winner: str,
              pay_cache: Memo[tuple[Any, ...], Settlement],
              found: list[tuple[Pattern, int, int, tuple[Any, ...]]]) -> list[Variant]:
    hits = [Hit(p, v, n, items=items) for p, v, n, items in found]
    removed: dict[str, str] = {}
    for h in hits:
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
    max_names = rs.plan.max_tallies
    choices: list[list[Hit | None]] = []
    for tname in max_names:
        opts: list[Hit | None] = [h for h in counted if h.pattern.tally == tname]
        choices.append(opts or [None])
    out: list[Variant] = []
    for combo in product(*choices):
        _clock(rs, " tallies")  # many 'max' tallies multiply into many combinations
        if max_names:
            chosen = {h.pattern.id for h in combo if h is not None}
            used = [h for h in counted if h.pattern.tally not in max_names
                    or h.pattern.id in chosen]
        else:
            used = counted
        tallies: dict[str, int] = {}
        also: list[tuple[str, Pattern, int]] = []
        for t in rs.tallies:
            vals = [(h.value, h.count) for h in used if h.pattern.tally == t.name]
            for h in used:
                for tname, c in h.pattern.also:
                    if tname == t.name:
                        v = _number(c, renv, f"pattern '{h.pattern.id}' also")
                        vals.append((v, 1))
                        also.append((tname, h.pattern, v))
            try:  # exact integers, with the expression language's bound on their size
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
                raise EvaluationError(f"{t.where or rs.file}: {e}") from None
        headline = _number(rs.score, tallies, "score")
        key = (tuple(tallies.values()), headline)
        settlement = None if rs.payment.per_reading else pay_cache.get(key)
        if settlement is None:
            # an EvalError here already names the payment expression (file, line, key)
            settlement = settle(rs, renv, table.seats, winner, table.discarder,
                                table.chengbao, tallies, headline)
            if not rs.payment.per_reading:  # a copy that keeps this hand's readings unheld
                pay_cache.put(key, detached(settlement, rs.plan.payment_reads))
        out.append((used, replaced, tallies, headline, settlement, also))
    return out
