"""The JSON of a result and of an error, as data: docs/contract.md#json and #errors.

:func:`to_json` is what ``score --json`` prints (a batch writes the same record as text,
byte for byte, through :mod:`.jsontext`); :func:`error_json` is the error object of every
command: ``kind``, ``message`` (worded in the language asked), the stable ``code`` and its
``params``, and for a win refused below a minimum what was found.
"""

from __future__ import annotations

from typing import Any

from ..engine.result import Hit, Result, Scored
from ..errors import MjscoreError, NotAWin
from ..lang import elem_of
from ..rules.flags import echo
from .pieces import (
    group_texts,
    item_text,
    legend,
    patterns_chain,
    payment_lines,
    refusal_why,
    stand_in_map,
    tier_name,
    why_lines,
    wildcard_map,
)


def to_json(result: Result, lang: str = "zh") -> dict[str, Any]:
    """The machine form of docs/contract.md#json (plus extra fields).

    Besides the contract's fields: ``written`` (the hand as typed), ``best.reading``
    (the groups as the report marks them), ``best.stand_ins`` and ``best.wildcard_detail``
    (each physical wildcard or stand-in: its index and position as typed, what it reads
    as, the group it sits in), ``best.legend``, ``best.why`` and each pattern's ``tier``.
    """
    rs, s = result.ruleset, result.best
    wm = wildcard_map(result)
    return {
        "ruleset": rs.id,
        "hand": result.hand.notation(),
        "written": result.hand.as_written(),
        "best": {
            "score": s.score,
            "patterns": [hit_json(h, s) for h in s.hits],
            "decomposition": [x.text for x in result.decomposition],
            "wildcards": {str(w["index"]): w["reads"] for w in wm},
            "shape": s.reading.shape,
            "tallies": s.tallies,
            "replaced": [{"id": h.pattern.id, "by": h.replaced_by} for h in s.replaced],
            "wildcard_detail": wm,
            "stand_ins": stand_in_map(result, s),
            "reading": group_texts(result, s),
            "win_group": s.reading.win,
            "legend": legend(result, lang, s),
            "why": why_lines(result, lang, s),
            "chain": patterns_chain(rs, s, lang),
            "payment_chain": payment_lines(result, s, lang),
        },
        "payments": dict(s.payments),
        "winner": result.winner,
        "self_draw": result.table.self_draw,
        "readings": len(result.candidates),
        "flags": echo(result.table.context),
        # provenance (docs/robustness.md#provenance): a built-in ruleset, or the file it was
        # loaded from (its id is the file's own: no file may take a built-in id)
        "source": "builtin" if rs.trusted else "file",
        **({} if rs.trusted else {"path": rs.file}),
    }


def score_json(result: Result, lang: str = "zh") -> dict[str, Any]:
    """What ``score --json`` (and the page's ``POST /api/score``) prints: :func:`to_json`
    with the ``kind`` and ``unit`` a batch record carries (``"kind": "hand"``, ``unit`` the
    ruleset's word for its score), so that one hand has one shape wherever it is printed.

    >>> from scorer import score, Context
    >>> out = score_json(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))
    >>> out["kind"], out["unit"], out["best"]["score"]
    ('hand', '番', 2)
    """
    return {"kind": "hand", **to_json(result, lang), "unit": result.ruleset.label("score", lang)}


def hit_json(h: Hit, s: Scored | None = None, lang: str = "zh") -> dict[str, Any]:
    """One pattern of a reading; a pattern with ``each`` also lists what it counted, one
    that reached a named tier gives it (``"tier": {"zh": "双财飘", "en": ...}``).

    e.g. ``{"id": "fengank", ..., "value": 2, "count": 1, "items": ["NNN"]}``.
    """
    out: dict[str, Any] = {"id": h.pattern.id, "name": h.pattern.name,
                           "name_en": h.pattern.name_en, "value": h.value, "count": h.count}
    if h.pattern.each is not None:
        elem = elem_of(h.pattern.each.type)
        out["items"] = [item_text(x, elem) for x in h.items]
    if s is not None:
        zh, en = tier_name(h, s, "zh"), tier_name(h, s, "en")
        if zh or en:
            out["tier"] = {"zh": zh or h.pattern.name, "en": en or h.pattern.name_en}
    return out


def error_json(e: MjscoreError, lang: str = "zh") -> dict[str, Any]:
    """``{"error": {"kind": ..., "message": ...}}``, with the fans found for a below-minimum win."""
    out: dict[str, Any] = {"error": error_fields(e, lang)}
    if isinstance(e, NotAWin) and isinstance(e.details, Result):
        found = to_json(e.details, lang)
        found["best"].pop("payment_chain", None)  # nobody pays for a hand that is no win
        out.update({k: v for k, v in found.items() if k != "payments"})
    return out


def error_fields(e: MjscoreError, lang: str = "zh") -> dict[str, Any]:
    """The ``error`` member of :func:`error_json`: kind, message (in ``lang``), the stable
    ``code`` and its ``params`` (docs/contract.md#errors), and what else is known (a
    refusal's reason and why, the position in the hand).

    >>> from scorer.errors import NotationError
    >>> f = error_fields(NotationError("notation.no_suit", 7, digit="8"), "en")
    >>> f["position"], f["code"], f["params"], f["message"]
    (7, 'notation.no_suit', {'digit': '8', 'position': 7}, "position 7: '8' has no suit letter after it")
    """
    err: dict[str, Any] = {"kind": e.kind, "message": e.render(lang), "code": e.code,
                           "params": json_params(e.params)}
    if isinstance(e, NotAWin):
        err["reason"] = e.reason
        why = refusal_why(e, lang)
        if why:
            err["why"] = why
    pos = getattr(e, "position", None)
    if pos is not None:
        err["position"] = pos
    return err


def json_params(v: Any) -> Any:
    """Parameters as JSON values: lists for tuples and sets, text for anything else that
    JSON has no form for.

    >>> json_params({"tiles": ("1m", "2m"), "n": 3, "x": None, "s": frozenset({"E"})})
    {'tiles': ['1m', '2m'], 'n': 3, 'x': None, 's': ['E']}
    """
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, dict):
        return {str(k): json_params(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [json_params(x) for x in v]
    if isinstance(v, set | frozenset):
        return sorted(json_params(x) for x in v)
    return str(v)
