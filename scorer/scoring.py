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

import math
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from . import facts as F
from . import tiles as T
from .context import Context, Table, resolve
from .errors import ContextError, EvaluationError, HandError, NotAWin
from .expr import EvalError, check_clock, safe_mul, safe_pow, start_clock, stop_clock
from .facts import Env
from .hand import Hand
from .notation import parse_hand
from .payments import Settlement, settle
from .readings import Reading, interpret, readings
from .ruleset import Pattern, Ruleset, load_ruleset


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

    def key(self, winner: str) -> tuple[int, int, int]:
        return (self.settlement.payments[winner], self.score, -self.wild_substituted)


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
    )


def _check(c: Any, env: Env, where: str) -> Any:
    try:
        return c(env)
    except EvalError as e:
        raise EvaluationError(str(e) if c.where else f"{where}: {e}") from None


def _number(c: Any, env: Env, where: str) -> int:
    """A value that must be a whole number (pattern value, count, also, headline)."""
    try:
        return int(c.number(env))
    except EvalError as e:
        raise EvaluationError(str(e) if c.where else f"{where}: {e}") from None


def score(hand: Hand | str, ruleset: Ruleset | str, context: Context | None = None) -> Result:
    """Score one hand under a ruleset; raise an :class:`MjscoreError` subclass on failure.

    ``hand`` may be notation text, ``ruleset`` a built-in id or a path. A user's
    ruleset file gets :data:`scorer.expr.TIME_LIMIT` seconds of CPU for the hand; the
    built-in rulesets are trusted and run without the clock.
    """
    rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    h = parse_hand(hand) if isinstance(hand, str) else hand
    start_clock(math.inf if rs.trusted else None)
    try:
        return _score(h, rs, context or Context())
    finally:
        stop_clock()


def _score(h: Hand, rs: Ruleset, ctx: Context) -> Result:
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

    rds = readings(interp, spec, rs.shapes, rs.sets, table.self_draw)
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
            raise NotAWin(chk.message, chk.reason)

    winner = env["seat"]
    scored: list[Scored] = []
    first_drop: str | None = None
    pay_cache: dict[tuple[Any, ...], Settlement] = {}
    for renv in renvs:
        check_clock()
        dropped = None
        for chk in rs.not_a_win:
            if chk.on == "reading" and _check(chk.when, renv, f"not_a_win '{chk.id}'"):
                dropped = chk.message
                break
        if dropped is not None:
            first_drop = first_drop or dropped
            continue
        scored.extend(_score_reading(rs, table, renv, winner, pay_cache))
    if not scored:
        raise NotAWin(first_drop or "not a winning hand", "illegal")
    scored.sort(key=lambda s: s.key(winner), reverse=True)
    best = scored[0]
    for chk in rs.not_a_win:
        if chk.on == "result":
            renv = Env(best.env, score=best.score, **best.tallies)
            if _check(chk.when, renv, f"not_a_win '{chk.id}'"):
                result = Result(rs, h, table, best, scored)
                raise NotAWin(chk.message, chk.reason, details=result)
    return Result(rs, h, table, best, scored)


def _shapes_text(rs: Ruleset) -> str:
    names = {"standard": f"a pair and {rs.sets} sets", "seven_pairs": "seven pairs",
             "thirteen_orphans": "thirteen orphans"}
    return " or ".join(names.get(s, s.replace("_", " ")) for s in rs.shapes)


def _score_reading(rs: Ruleset, table: Table, renv: Env, winner: str,
                   pay_cache: dict[tuple[Any, ...], Settlement]) -> list[Scored]:
    hits: list[Hit] = []
    for p in rs.patterns:
        if _check(p.when, renv, f"pattern '{p.id}' when"):
            n = _number(p.count, renv, f"pattern '{p.id}' count") if p.count else 1
            if n > 0:
                hits.append(Hit(p, _number(p.value, renv, f"pattern '{p.id}' value"), n))
    removed: dict[str, str] = {}
    for h in hits:
        for rid in h.pattern.replaces:
            removed.setdefault(rid, h.pattern.id)
    counted = [h for h in hits if h.pattern.id not in removed]
    replaced = [Hit(h.pattern, h.value, h.count, removed[h.pattern.id]) for h in hits
                if h.pattern.id in removed]

    # A 'max' tally takes exactly one of its patterns: each is an alternative reading.
    choices: list[list[Hit | None]] = []
    max_tallies = [t for t in rs.tallies if t.combine == "max"]
    for t in max_tallies:
        opts: list[Hit | None] = [h for h in counted if h.pattern.tally == t.name]
        choices.append(opts or [None])
    out: list[Scored] = []
    sub = renv["wild_substituted"]
    for combo in product(*choices):
        check_clock()  # many 'max' tallies multiply into many combinations
        chosen = {h.pattern.id for h in combo if h is not None}
        used = [h for h in counted if h.pattern.tally not in {t.name for t in max_tallies}
                or h.pattern.id in chosen]
        tallies: dict[str, int] = {}
        for t in rs.tallies:
            vals = [(h.value, h.count) for h in used if h.pattern.tally == t.name]
            for h in used:
                for tname, c in h.pattern.also:
                    if tname == t.name:
                        vals.append((_number(c, renv, f"pattern '{h.pattern.id}' also"), 1))
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
                raise EvaluationError(f"{rs.file} tallies.{t.name}: {e}") from None
        headline = _number(rs.score, Env(None, **tallies), "score")
        key = (tuple(sorted(tallies.items())), headline)
        settlement = None if rs.payment.per_reading else pay_cache.get(key)
        if settlement is None:
            # an EvalError here already names the payment expression (file, line, key)
            settlement = settle(rs, renv, table.seats, winner, table.discarder,
                                table.chengbao, tallies, headline)
            if not rs.payment.per_reading:
                pay_cache[key] = settlement
        out.append(Scored(renv["__reading__"], used, replaced, tallies, headline, settlement,
                          renv, sub))
    return out
