"""A dispute (``score HAND --rules A --vs B``) worded: side by side as text, or as JSON.

The sides and the rows in which they differ are :mod:`scorer.table.dispute`'s, compared as
data; this module words each side's rows in zh or en (:func:`rows`), writes them side by
side with each seat's points under A and B (:func:`dispute_text`, folded to the
terminal's width) or as the JSON of ``score --vs --json`` (:func:`dispute_json`).
"""

from __future__ import annotations

from typing import Any

from ..engine.result import Result
from ..errors import NotAWin
from ..table.dispute import ROWS, Dispute, Side
from ..text.values import join
from ..text.width import columns, display_width, wrap
from .i18n import t
from .jsondata import error_json, to_json
from .pieces import (
    chain_lines,
    pattern_name,
    payment_lines,
    ruleset_name,
    shape_word,
    wildcard_map,
)
from .texttable import simple

__all__ = ["differences_text", "dispute_json", "dispute_text", "rows"]


def rows(side: Side, lang: str = "zh") -> dict[str, Any]:
    """The shown values of one side by row (:data:`~scorer.table.dispute.ROWS`), in
    ``lang``; an error fills the ``result`` row alone, a win refused on what was found
    (below a minimum) shows what was found and no payments."""
    res = side.result
    found = side.error.details if isinstance(side.error, NotAWin) else None
    if res is None and not isinstance(found, Result):
        msg = side.error.render(lang) if side.error else "—"
        return {"result": t("vs_not_scored", lang, msg=msg)}
    if res is None:
        assert isinstance(found, Result) and side.error is not None
        out = rows(Side(side.spec, side.ruleset, side.context, result=found), lang)
        out.update(result=t("vs_not_a_win", lang, msg=side.error.render(lang)), payment="—")
        del out["payments"]
        return out
    s = res.best
    open_, close = ("（", "）") if lang == "zh" else ("(", ")")
    return {
        "result": t("vs_scored", lang),
        "decomposition": " ".join(s.reading.describe())
        + f" {open_}{shape_word(s.reading.shape, lang)}{close}",
        "wildcards": ", ".join(f"{w['face']}→{w['reads']}" for w in wildcard_map(res))
        or t("vs_none", lang),
        "patterns": ", ".join(f"{pattern_name(h, lang)} {h.value}"
                              + (f"×{h.count}" if h.count > 1 else "")
                              for h in s.hits) or t("vs_none", lang),
        "chain": tuple(chain_lines(res.ruleset, s, lang)),
        "score": s.score,
        "payment": tuple(payment_lines(res, s, lang)),
        "payments": dict(s.payments),
    }


def differences_text(differences: list[str] | tuple[str, ...], lang: str = "zh") -> str:
    """The rows in which two sides differ, named in ``lang`` (a batch table's ``B − A``
    row).

    >>> differences_text(["payment", "payments"], "zh"), differences_text(["score"], "en")
    ('付分、各家得失', 'score')
    """
    return join([t(f"vs_row_{r}", lang) for r in differences], lang)


def _side_title(side: Side, lang: str = "zh") -> str:
    rs = side.ruleset
    if rs is None:
        return side.spec
    title = f"{side.spec} ({ruleset_name(rs, lang)})"
    opts = [f"{k}={v}" for k, v in side.context.option_pairs()]
    title += t("vs_with", lang, opts=", ".join(opts)) if opts else ""
    return title + (t("vs_ignored", lang, flags=" ".join(side.ignored)) if side.ignored else "")


def dispute_text(d: Dispute, lang: str = "zh", width: int | None = None) -> str:
    """Side by side: the rows that are the same once, the rows that differ as A and B,
    then each seat's points under A and B and the difference; every line folded to
    ``width`` columns (the terminal's, :func:`scorer.text.width.columns`)."""
    width = columns() if width is None else width
    va, vb = rows(d.a, lang), rows(d.b, lang)
    out = [*wrap(f"A = {_side_title(d.a, lang)}", width, "    "),
           *wrap(f"B = {_side_title(d.b, lang)}", width, "    "), ""]
    if not d.differences:
        out += wrap(t("vs_same_result", lang), width)
    names = {r: t(f"vs_row_{r}", lang) for r in ROWS if r != "payments"}
    head = max(display_width(n) for n in names.values()) + 1
    same = t("vs_same", lang)
    for r in ROWS:
        if r == "payments" or (r == "result" and r not in d.differences):
            continue
        label = names[r] + " " * (head - display_width(names[r]))
        if r not in d.differences:
            out += _lines(label + "  " + same, va[r], width)
            continue
        out += _lines(label + "≠ A: ", va.get(r, "—"), width)
        out += _lines(" " * (head + 2) + "B: ", vb.get(r, "—"), width)
    out.append("")
    pa, pb = va.get("payments"), vb.get("payments")
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
    if table:
        out.append(simple(table, [t("col_seat", lang), "A", "B", "B − A"],
                          ("left", "right", "right", "right")))
    return "\n".join(out).rstrip("\n")


def _lines(head: str, value: Any, width: int) -> list[str]:
    """A row value after its head: one line per item of a tuple (a chain of tallies, a
    payment per payer), each folded to ``width``, continuations indented under the text."""
    items = list(value) if isinstance(value, tuple) else [value]
    pad = " " * display_width(head)
    out: list[str] = []
    for i, item in enumerate(items or ["—"]):
        folded = wrap((head if i == 0 else pad) + str(item), width, pad + "  ")
        out += folded
    return out


def _seats(side: Side) -> tuple[str, ...]:
    return side.result.table.seats if side.result is not None else ()


def dispute_json(d: Dispute, lang: str = "zh") -> dict[str, Any]:
    """Both results in the JSON of ``score --json`` (or the error object), and the rows
    that differ: ``{"a": {...}, "b": {...}, "differences": [...]}``."""

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
