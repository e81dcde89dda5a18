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
still shows the other side. The CLI (``mjscore score HAND --rules A --vs B``) renders a
:class:`Dispute` with :func:`dispute_text` or :func:`dispute_json`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from ..engine.context import Context
from ..engine.scoring import Result, score
from ..errors import MjscoreError, NotationError, NotAWin
from ..model.hand import Hand
from ..model.notation import parse_hand
from ..record import record
from ..rules.load import load_ruleset
from ..rules.model import Ruleset

if TYPE_CHECKING:
    from ..lines.grammar import ScoreArgs

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
    carried = tuple((k, v) for k, v in ctx.options if k in b.options)
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
        parse_options(rs, ctx.options)
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


def dispute_of(args: ScoreArgs, load: Callable[[str], Ruleset] = load_ruleset) -> Dispute:
    """The dispute that ``score HAND --rules A --vs B`` (or ``--vs-option``) asks for.

    Returns the :class:`Dispute` with each side's ``spec`` as written; raises when neither
    side scored (:meth:`Dispute.raise_if_both_failed`), when ``--explain`` is given, and for
    a bad ``--vs-option`` (naming that flag). ``load`` turns a ``--rules``/``--vs`` value into
    a ruleset: :func:`load_ruleset` for the CLI and batch, the server's own for uploads.
    ``score --vs``, a batch ``--vs`` line and ``POST /api/score`` all come here.

    >>> from scorer.lines.grammar import parse
    >>> d = dispute_of(parse(["1111m2222m3333p55s", "--rules", "hangzhou", "--self-draw",
    ...                       "--vs-option", "cap=64", "--dealer-streak", "3"]))
    >>> d.a.spec, d.b.spec, d.b.result.payments["E"] if d.b.result else None
    ('hangzhou', 'hangzhou', 192)
    """
    from ..engine.context import parse_options
    from ..errors import ContextError

    if args.explain:
        raise ContextError("--explain does not combine with --vs / --vs-option", "--explain")
    rs_a = load(args.rules)
    rs_b = load(args.vs) if args.vs is not None else rs_a
    parse_options(rs_b, args.vs_options, "--vs-option")  # its mistakes name --vs-option
    d = dispute(args.hand, rs_a, args.context, rs_b,
                vs_context(args.context, rs_a, rs_b, args.vs_options))
    d.a.spec, d.b.spec = args.rules, args.vs if args.vs is not None else args.rules
    d.raise_if_both_failed()
    return d


def compared(side: Side) -> dict[str, Any]:
    """The values of one side that are compared (see :data:`ROWS`): patterns by id, value
    and count, not by name, so two regional spellings of one pattern (暴头, 爆头) are the
    same; the chain as the tallies and the patterns in each."""
    out = rows(side, "en")
    res = side.result
    if res is None and isinstance(side.error, NotAWin) and isinstance(side.error.details, Result):
        res = side.error.details
    if res is None or "patterns" not in out:
        return out
    s = res.best
    ids = tuple((h.pattern.id, h.value, h.count) for h in s.hits)
    out["patterns"] = ids
    out["chain"] = (tuple(sorted(s.tallies.items())), ids,
                    tuple((t, p.id, v) for t, p, v in s.also))
    return out


def rows(side: Side, lang: str = "zh") -> dict[str, Any]:
    """The shown values of one side (see :data:`ROWS`); an error fills every row."""
    from ..views.i18n import t
    from ..views.pieces import chain_lines, payment_lines, wildcard_map

    res = side.result
    found = side.error.details if isinstance(side.error, NotAWin) else None
    if res is None and not isinstance(found, Result):
        msg = side.error.render(lang) if side.error else "—"
        return {"result": t("vs_not_scored", lang, msg=msg)}
    if res is None:
        # not a legal win on its result (e.g. below a minimum): show what was found, no payments
        assert isinstance(found, Result) and side.error is not None
        out = rows(Side(side.spec, side.ruleset, side.context, result=found), lang)
        out.update(result=t("vs_not_a_win", lang, msg=side.error.render(lang)), payment="—")
        del out["payments"]
        return out
    s = res.best
    open_, close = ("（", "）") if lang == "zh" else ("(", ")")
    from ..views.pieces import shape_word

    return {
        "result": t("vs_scored", lang),
        "decomposition": " ".join(s.reading.describe())
        + f" {open_}{shape_word(s.reading.shape, lang)}{close}",
        "wildcards": ", ".join(f"{w['face']}→{w['reads']}" for w in wildcard_map(res))
        or t("vs_none", lang),
        "patterns": ", ".join(f"{h.pattern.name if lang == 'zh' else h.pattern.name_en} "
                              f"{h.value}" + (f"×{h.count}" if h.count > 1 else "")
                              for h in s.hits) or t("vs_none", lang),
        "chain": tuple(chain_lines(res.ruleset, s, lang)),
        "score": s.score,
        "payment": tuple(payment_lines(res, s, lang)),
        "payments": dict(s.payments),
    }


def _side_title(side: Side, lang: str = "zh") -> str:
    from ..views.i18n import t

    rs = side.ruleset
    if rs is None:
        return side.spec
    title = f"{side.spec} ({rs.name} {rs.name_en})" if side.spec != rs.id else (
        f"{rs.id} ({rs.name} {rs.name_en})")
    opts = [f"{k}={v}" for k, v in side.context.options]
    title += t("vs_with", lang, opts=", ".join(opts)) if opts else ""
    return title + (t("vs_ignored", lang, flags=" ".join(side.ignored)) if side.ignored else "")


def dispute_text(d: Dispute, lang: str = "zh") -> str:
    """Side by side: the rows that are the same once, the rows that differ as A and B,
    then each seat's points under A and B and the difference."""
    from tabulate import tabulate

    from ..views.i18n import display_width, t

    va, vb = rows(d.a, lang), rows(d.b, lang)
    out = [f"A = {_side_title(d.a, lang)}", f"B = {_side_title(d.b, lang)}", ""]
    if not d.differences:
        out.append(t("vs_same_result", lang))
    names = {r: t(f"vs_row_{r}", lang) for r in ROWS if r != "payments"}
    width = max(display_width(n) for n in names.values()) + 1
    same = t("vs_same", lang)
    for r in ROWS:
        if r == "payments" or (r == "result" and r not in d.differences):
            continue
        label = names[r] + " " * (width - display_width(names[r]))
        if r not in d.differences:
            out += _lines(label + "  " + same, va[r])
            continue
        out += _lines(label + "≠ A: ", va.get(r, "—"))
        out += _lines(" " * (width + 2) + "B: ", vb.get(r, "—"))
    out.append("")
    pa = va.get("payments")
    pb = vb.get("payments")
    seats = [s for s in "ESWN" if (pa and s in pa and (pa[s] or s in _seats(d.a))) or
             (pb and s in pb and (pb[s] or s in _seats(d.b)))]
    table = []
    for seat in seats:
        a_pts = pa.get(seat, 0) if pa else None
        b_pts = pb.get(seat, 0) if pb else None
        diff = f"{b_pts - a_pts:+d}" if a_pts is not None and b_pts is not None else ""
        table.append([t("seat_dealer", lang, seat=seat) if seat == "E" else seat,
                      "—" if a_pts is None else f"{a_pts:+d}",
                      "—" if b_pts is None else f"{b_pts:+d}", diff])
    out.append(tabulate(table, headers=[t("col_seat", lang), "A", "B", "B − A"],
                        tablefmt="simple", colalign=("left", "right", "right", "right")))
    return "\n".join(out)


def _lines(head: str, value: Any, width: int = 100) -> list[str]:
    """A row value after its head: one line per item of a tuple (a chain of tallies, a
    payment per payer), each wrapped at ``width``, continuations indented under the text."""
    import textwrap

    items = list(value) if isinstance(value, tuple) else [value]
    from ..views.i18n import display_width

    pad = " " * display_width(head)
    out: list[str] = []
    for i, item in enumerate(items or ["—"]):
        text = textwrap.wrap(str(item), max(width - display_width(head), 30)) or [""]
        out.append((head if i == 0 else pad) + text[0])
        out += [pad + "  " + t for t in text[1:]]
    return out


def _seats(side: Side) -> tuple[str, ...]:
    return side.result.table.seats if side.result is not None else ()


def dispute_json(d: Dispute, lang: str = "zh") -> dict[str, Any]:
    """Both results in the JSON of ``score --json`` (or the error object), and the rows
    that differ: ``{"a": {...}, "b": {...}, "differences": [...]}``."""
    from ..views.jsondata import error_json, to_json

    def one(side: Side) -> dict[str, Any]:
        body: dict[str, Any]
        if side.result is not None:
            body = to_json(side.result, lang)
        else:
            assert side.error is not None
            body = error_json(side.error, lang)
        body["rules"] = side.spec
        body["options"] = dict(side.context.options)
        body["ignored_flags"] = list(side.ignored)
        return body

    return {"a": one(d.a), "b": one(d.b), "differences": list(d.differences)}
