"""Dispute mode: score one hand under two rulesets (or two option settings) and compare.

This is how a table settles "under your rule it is X, under mine Y"::

    >>> from scorer.engine.context import Context
    >>> ctx = Context(self_draw=True, dealer_streak=3)
    >>> d = dispute("1111m2222m3333p55s", "hangzhou", ctx,
    ...             "hangzhou", Context(self_draw=True, dealer_streak=3, options=(("cap", "64"),)))
    >>> d.differences
    ['payment', 'payments']
    >>> [s.result.payments["E"] for s in (d.a, d.b)]
    [768, 192]

(清七对 with three 豪华 is 2^(2+3) = 32 番; at 3 老庄 each idle player pays 8 × 32 = 256,
or 64 with 封顶 64.)

Each side is scored independently; a side that fails (not a legal win there, or a flag
that ruleset has no use for) keeps its error instead of a result, so the comparison
still shows the other side. The sides are compared as data (:func:`compared`); the views
word a :class:`Dispute` (:mod:`scorer.views.dispute`: ``dispute_text``, ``dispute_json``),
and :func:`scorer.lines.disputes.dispute_of` makes one from a command line (``mjscore
score HAND --rules A --vs B``, a batch ``--vs`` line, the page's API).
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Any

from ..engine.context import Context
from ..engine.result import Result
from ..engine.scoring import score
from ..errors import MjscoreError, NotationError, NotAWin
from ..model.hand import Hand
from ..model.notation import parse_hand
from ..record import record
from ..rules.load import load_ruleset
from ..rules.model import Ruleset
from ..search.slots import wildcard_slots

# The rows compared, in the order shown ("result" is "scored" or the side's error).
ROWS = ("result", "decomposition", "wildcards", "patterns", "chain", "score", "payment",
        "payments")


@record
class Side:
    """One side of a dispute: the ruleset as named, and its result or its error.

    ``ignored`` lists the flags given that this side's ruleset has no use for (e.g.
    ``--last-tile`` for a ruleset without 海底): they were left out for this side.
    """

    spec: str
    ruleset: Ruleset | None
    context: Context
    result: Result | None = None
    error: MjscoreError | None = None
    ignored: tuple[str, ...] = ()


def drop_unused_flags(rs: Ruleset, ctx: Context) -> tuple[Context, tuple[str, ...]]:
    """The context without the flags ``rs`` has no use for, and those flags as written.

    Scoring a single hand refuses such a flag (it is probably a mistake); in a dispute
    the flag usually matters to one side only — a house pattern on ``--last-tile`` —
    so the other side leaves it out and says so.

    >>> ctx, ignored = drop_unused_flags(load_ruleset("hangzhou"), Context(last_tile=True))
    >>> ctx.last_tile, ignored
    (False, ('--last-tile',))
    """
    from ..rules.flags import FLAG_TEXT, states

    drop = [n for n in ctx.given() if n not in ("self_draw", "discarder") and n not in rs.flags]
    if not drop:
        return ctx, ()
    blank = Context()
    defaults: dict[str, Any] = {n: getattr(blank, n) for n in drop}
    if any("self_draw" in states(n) for n in drop):
        # a dropped --heavenly still said how the tile came: self-drawn
        defaults["self_draw"] = True
    return replace(ctx, **defaults), tuple(FLAG_TEXT[n] for n in drop)


@record
class Dispute:
    """Both sides and the names of the rows (:data:`ROWS`) in which they differ."""

    a: Side
    b: Side
    differences: list[str] = field(default_factory=list)

    def raise_if_both_failed(self) -> None:
        """Raise when neither side scored: one side's error if both say the same, else one
        error naming both (exit 2 if either was an input error), so ``score --vs`` and a
        batch ``--vs`` line fail alike. Needs ``a.spec``/``b.spec`` set."""
        ea, eb = self.a.error, self.b.error
        if ea is None or eb is None:
            return
        if (ea.code, ea.params) == (eb.code, eb.params):  # the same error: compared as data
            raise ea
        err = MjscoreError("dispute.both_failed", a=self.a.spec, b=self.b.spec,
                           a_error={"code": ea.code, "params": ea.params},
                           b_error={"code": eb.code, "params": eb.params})
        err.exit_code = 2 if 2 in (ea.exit_code, eb.exit_code) else ea.exit_code
        err.kind = ea.kind if ea.kind == eb.kind else "error"
        raise err


def vs_context(ctx: Context, a: Ruleset, b: Ruleset, vs_options: tuple[tuple[str, str], ...],
               ) -> Context:
    """The context for side B: the same flags; A's ``--option`` values where B has that
    option, then ``--vs-option`` values.

    >>> rs = load_ruleset("hangzhou")
    >>> vs_context(Context(options=(("cap", "64"),)), rs, rs, (("cap", "128"),)).options
    (('cap', '64'), ('cap', '128'))
    """
    carried = tuple((k, v) for k, v in ctx.option_pairs() if k in b.options)
    return replace(ctx, options=carried + tuple(vs_options))


def dispute(hand: str | Hand, a: str | Ruleset, ctx_a: Context, b: str | Ruleset,
            ctx_b: Context) -> Dispute:
    """Score ``hand`` under ruleset ``a`` with ``ctx_a`` and under ``b`` with ``ctx_b``.

    A hand that cannot be read, a ruleset that cannot be loaded and an unknown option
    or option value are mistakes in the question, not answers: they are raised. Any
    other error stays with its side.
    """
    from ..engine.context import parse_options

    h = parse_hand(hand) if isinstance(hand, str) else hand
    rulesets = [load_ruleset(s) if isinstance(s, str) else s for s in (a, b)]
    for rs, ctx in zip(rulesets, (ctx_a, ctx_b), strict=True):
        parse_options(rs, ctx.option_pairs())
    sides = []
    for spec, ctx, rs in ((a, ctx_a, rulesets[0]), (b, ctx_b, rulesets[1])):
        used, ignored = drop_unused_flags(rs, ctx)
        side = Side(spec if isinstance(spec, str) else rs.id, rs, used, ignored=ignored)
        try:
            side.result = score(h, rs, used)
        except NotationError:
            raise
        except MjscoreError as e:
            side.error = e
        sides.append(side)
    d = Dispute(sides[0], sides[1])
    va, vb = compared(d.a), compared(d.b)
    d.differences = [r for r in ROWS if va.get(r) != vb.get(r)]
    return d


def compared(side: Side) -> dict[str, Any]:
    """The values of one side that are compared, by row (:data:`ROWS`), as data: the
    refusal as its error's code and parameters, the reading as its shape and groups, the
    wildcards as the tiles they played, the patterns by id, value and count (two regional
    spellings of one pattern, 暴头 and 爆头, are the same), the chain as the tallies and the
    patterns in each, the payment as each payer's calculation (the formula, the values it
    read, the amount) and 承包, the payments by seat. Nothing is worded: the views word the
    rows (:mod:`scorer.views.dispute`).

    >>> from scorer.engine.context import Context
    >>> d = dispute("1111m2222m3333p55s", "hangzhou", Context(self_draw=True), "hangzhou",
    ...             Context(discarder="S"))  # 清七对, three 豪华: 2^(2+3) = 32; no 放铳 win
    >>> compared(d.a)["patterns"], compared(d.b)["result"][:2]
    ((('qingqidui', 32, 1),), ('error', 'rule.refused'))
    """
    res, err = side.result, side.error
    found = err.details if isinstance(err, NotAWin) and isinstance(err.details, Result) else None
    if res is None and found is None:
        return {"result": ("error", err.code, err.params) if err is not None else ("none",)}
    r = res if res is not None else found
    assert r is not None
    s = r.best
    ids = tuple((h.pattern.id, h.value, h.count) for h in s.hits)
    out: dict[str, Any] = {
        "result": ("scored",) if res is not None else (
            "not_a_win", err.code if err else "", err.params if err else {}),
        "decomposition": (s.reading.shape, tuple(s.reading.describe())),
        "wildcards": tuple((x.tile, x.reads) for x in wildcard_slots(
            r.hand, s.reading, r.table.wild.face)),
        "patterns": ids,
        "chain": (tuple(sorted(s.tallies.items())), ids,
                  tuple((t, p.id, v) for t, p, v in s.also)),
        "score": s.score,
    }
    if res is None:  # not a legal win on what was found: nobody pays
        out["payment"] = None
        return out
    amount = r.ruleset.payment.amount
    names = sorted(amount.names)
    out["payment"] = (amount.src, tuple(
        (sh.payer, sh.amount, tuple((n, dict.get(sh.env, n)) for n in names))
        for sh in s.settlement.shares if sh.pays), tuple(s.settlement.chengbao))
    out["payments"] = dict(s.payments)
    return out
