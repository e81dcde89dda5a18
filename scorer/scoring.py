"""Score a hand: every reading, every pattern, every payment; keep the best for the winner.

:func:`score` is the library's main entry point::

    >>> from scorer import score, Context
    >>> r = score("123m456p789s234sPP", "hangzhou", Context(self_draw=True))
    >>> r.best.score, r.payments
    (2, {'E': 12, 'S': -4, 'W': -4, 'N': -4})

Ranking of readings (RULES.md): highest amount received by the winner, then the
higher headline number, then fewer wildcards substituted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from . import facts as F
from . import tiles as T
from .errors import ContextError, EvaluationError, HandError, NotAWin
from .expr import EvalError
from .facts import Env
from .hand import Hand
from .notation import parse_hand
from .payments import Settlement, settle
from .readings import Reading, interpret, readings
from .ruleset import Pattern, Ruleset, format_message, load_ruleset
from .context import Context, Table, resolve


@dataclass
class Hit:
    """A pattern that applies to a reading, with its value and how many times it counts."""

    pattern: Pattern
    value: int
    count: int
    replaced_by: str | None = None


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

    @property
    def payments(self) -> dict[str, int]:
        return self.settlement.payments

    tie: int = 0  # rank among readings that score alike (higher first), see _rank_ties

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
        concealed_hand=all(m.concealed_kong for m in hand.melds),
        physical_quads=sum(1 for n in counts.values() if n == 4),
        concealed_kongs=sum(1 for m in hand.melds if m.concealed_kong),
        exposed_kongs=sum(1 for m in hand.melds if m.is_kong and not m.concealed_kong),
        __hand__=hand, __interp__=interp,
    )


def _check(c: Any, env: Env, where: str) -> Any:
    try:
        return c(env)
    except EvalError as e:
        raise EvaluationError(f"{where}: {e}") from None


def score(hand: Hand | str, ruleset: Ruleset | str, context: Context | None = None) -> Result:
    """Score one hand under a ruleset; raise an :class:`MjscoreError` subclass on failure.

    ``hand`` may be notation text, ``ruleset`` a built-in id or a path.
    """
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    h = parse_hand(hand) if isinstance(hand, str) else hand
    ctx = context or Context()
    table = resolve(rs, ctx, h)
    spec = table.wild
    env = table.env
    hand_level = set(F.names_at("hand"))
    # Input errors that depend on the context alone come before any check of the tiles.
    late = []
    for chk in rs.errors:
        if chk.when.names & hand_level:
            late.append(chk)
        elif _check(chk.when, env, f"{rs.file} errors '{chk.id}'"):
            raise ContextError(chk.message)
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
            raise ContextError(chk.message)

    rds = readings(interp, spec, rs.shapes, rs.sets, table.self_draw, place_once=not rs.placement)
    if not rds:
        raise NotAWin(f"not a winning hand: the tiles do not form "
                      f"{_shapes_text(rs)}", "not_winning")
    renvs = []
    for r in rds:
        renv = Env(env, __reading__=r)
        if interp.win_tile is not None:
            renv["__win_natural__"] = interp.win_tile
        renvs.append(renv)
    env["__readings__"] = renvs
    for chk in rs.not_a_win:
        if chk.on == "hand" and _check(chk.when, env, f"{rs.file} not_a_win '{chk.id}'"):
            raise NotAWin(format_message(chk.message, env), chk.reason)

    winner = env["seat"]
    # patterns that use no reading facts are the same for every reading: judge them once
    hand_hits = _hits(rs.patterns, env, hand_level=True)
    scored: list[Scored] = []
    first_drop: str | None = None
    pay_cache: dict[tuple[Any, ...], Settlement] = {}
    for renv in renvs:
        dropped = None
        for chk in rs.not_a_win:
            if chk.on == "reading" and _check(chk.when, renv, f"not_a_win '{chk.id}'"):
                dropped = format_message(chk.message, renv)
                break
        if dropped is not None:
            first_drop = first_drop or dropped
            continue
        scored.extend(_score_reading(rs, table, renv, winner, pay_cache, hand_hits))
    if not scored:
        raise NotAWin(first_drop or "not a winning hand", "illegal")
    if rs.tie_order == "sets" or rs.tie_prefer:
        _rank_ties(rs, scored)
    scored.sort(key=lambda s: s.key(winner), reverse=True)
    best = scored[0]
    for chk in rs.not_a_win:
        if chk.on == "result":
            renv = Env(best.env, score=best.score, **best.tallies)
            if _check(chk.when, renv, f"not_a_win '{chk.id}'"):
                result = Result(rs, h, table, best, scored)
                raise NotAWin(format_message(chk.message, renv), chk.reason, details=result)
    return Result(rs, h, table, best, scored)


def _rank_ties(rs: Ruleset, scored: list[Scored]) -> None:
    """Set each reading's tie rank from the ruleset's ``ties`` (applies only between readings
    that pay the winner alike, with the same headline).

    ``order: sets`` ranks the readings by shape (in the order the ruleset lists its shapes),
    then by their sets in ascending tile order, the first highest; a reading that counts one
    of the ``prefer`` patterns ranks above all others, and among those the *last* in that
    order ranks highest (as a reference calculator that scans the decompositions in order
    and keeps overwriting its choice with a preferred one on a tie).
    """
    shape_pos = {shape: k for k, shape in enumerate(rs.shapes)}
    order = sorted(range(len(scored)), key=lambda k: (
        shape_pos.get(scored[k].reading.shape, len(shape_pos)),
        sorted(g.tiles for g in scored[k].reading.groups if g.kind != "pair"))
        if rs.tie_order == "sets" else k)
    n = len(scored)
    for pos, k in enumerate(order):
        s = scored[k]
        preferred = any(h.pattern.id in rs.tie_prefer for h in s.hits)
        s.tie = n + pos if preferred else -pos


def _shapes_text(rs: Ruleset) -> str:
    names = {"standard": f"a pair and {rs.sets} sets", "seven_pairs": "seven pairs",
             "thirteen_orphans": "thirteen orphans"}
    return " or ".join(names.get(s, s.replace("_", " ")) for s in rs.shapes)


def _hits(patterns: tuple[Pattern, ...], env: Env, hand_level: bool) -> list[Hit]:
    """The patterns (hand-level ones, or the others) whose ``when`` holds, with value and count.

    Combination patterns are left to their families (see :func:`_family_hits`).
    """
    hits: list[Hit] = []
    for p in patterns:
        if p.hand_level is not hand_level or p.combine is not None:
            continue
        try:
            if p.when(env):
                n = p.count(env) if p.count else 1
                if n > 0:
                    hits.append(Hit(p, int(p.value(env)), int(n)))
        except EvalError as e:
            raise EvaluationError(f"pattern '{p.id}': {e}") from None
    return hits


def _family_hits(rs: Ruleset, renv: Env) -> list[Hit]:
    """Hits of the combination patterns, family by family (the combine-once rule)."""
    hits: list[Hit] = []
    for fam in rs.families:
        try:
            counts = fam.counts(renv[fam.of])
        except EvalError as e:
            raise EvaluationError(f"combination patterns over '{fam.of}': {e}") from None
        for k, n in zip(fam.patterns, counts, strict=True):
            if n:
                p = rs.patterns[k]
                hits.append(Hit(p, int(_check(p.value, renv, f"pattern '{p.id}' value")), n))
    return hits


def _score_reading(rs: Ruleset, table: Table, renv: Env, winner: str,
                   pay_cache: dict[tuple[Any, ...], Settlement],
                   hand_hits: list[Hit] | None = None) -> list[Scored]:
    hits = [*(hand_hits or ()), *_hits(rs.patterns, renv, hand_level=False)]
    if rs.families:
        hits += _family_hits(rs, renv)
    hits.sort(key=lambda h: h.pattern.index)
    removed: dict[str, str] = {}
    for h in hits:
        for rid in h.pattern.replaces:
            removed.setdefault(rid, h.pattern.id)
    counted = [h for h in hits if h.pattern.id not in removed]
    replaced = [Hit(h.pattern, h.value, h.count, removed[h.pattern.id]) for h in hits
                if h.pattern.id in removed]
    if any(h.pattern.fallback for h in counted):
        # a fallback pattern counts only when nothing else of its tally does
        busy = {h.pattern.tally for h in counted if not h.pattern.fallback}
        counted = [h for h in counted if not (h.pattern.fallback and h.pattern.tally in busy)]

    # A 'max' tally takes exactly one of its patterns: each is an alternative reading.
    choices: list[list[Hit | None]] = []
    max_tallies = [t for t in rs.tallies if t.combine == "max"]
    for t in max_tallies:
        opts: list[Hit | None] = [h for h in counted if h.pattern.tally == t.name]
        choices.append(opts or [None])
    out: list[Scored] = []
    sub = renv["wild_substituted"]
    for combo in product(*choices):
        chosen = {h.pattern.id for h in combo if h is not None}
        used = [h for h in counted if h.pattern.tally not in {t.name for t in max_tallies}
                or h.pattern.id in chosen]
        tallies: dict[str, int] = {}
        for t in rs.tallies:
            vals = [(h.value, h.count) for h in used if h.pattern.tally == t.name]
            for h in used:
                for tname, c in h.pattern.also:
                    if tname == t.name:
                        vals.append((int(_check(c, renv, f"pattern '{h.pattern.id}' also")), 1))
            if not vals:
                tallies[t.name] = t.default
            elif t.combine == "sum":
                tallies[t.name] = sum(v * n for v, n in vals)
            elif t.combine == "product":
                total = 1
                for v, n in vals:
                    total *= v**n
                tallies[t.name] = total
            else:
                tallies[t.name] = max(v for v, _ in vals)
        headline = int(_check(rs.score, Env(None, **tallies), "score"))
        key = (tuple(sorted(tallies.items())), headline)
        settlement = None if rs.payment.per_reading else pay_cache.get(key)
        if settlement is None:
            try:
                settlement = settle(rs, renv, table.seats, winner, table.discarder,
                                    table.chengbao, tallies, headline)
            except EvalError as e:
                raise EvaluationError(f"{rs.file} payment: {e}") from None
            if not rs.payment.per_reading:
                pay_cache[key] = settlement
        out.append(Scored(renv["__reading__"], used, replaced, tallies, headline, settlement,
                          renv, sub))
    return out
