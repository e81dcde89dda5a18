"""A settled Sichuan round (:class:`scorer.table.round.RoundResult`) in words: the text of
``mjscore round`` and its JSON. The settlement holds data only (each transfer a reason code
and its parameters); every word is chosen here, in zh or en.

>>> from scorer.table.round import EXAMPLE, settle_round
>>> r = settle_round(EXAMPLE)
>>> [reason_text(t, "en") for t in r.events[0].transfers]
['exposed kong 2m']
>>> round_json(r, "zh")["events"][0]["payments"][0]["why"]
'直杠 2m'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model.tiles import SEATS
from ..table.round import Charge, RoundResult
from ..text.width import columns, display_width, wrap
from .i18n import t


def word(key: str, lang: str, **params: Any) -> str:
    """The round's word ``key`` (the catalogue's ``round_why.KEY``, ``round_text.KEY``, …)
    in ``lang``, filled in.

    >>> word("round_why.huazhu", "en", seat="N")
    'flower pig: N holds three suits'
    """
    return t(key, lang, **params)


def _chain(params: Mapping[str, Any], lang: str) -> str:
    """A win's patterns as ``name value^count`` joined by ×."""
    key = "name" if lang == "zh" else "name_en"
    return " × ".join(f"{p[key]} {p['value']}" + (f"^{p['count']}" if p["count"] > 1 else "")
                      for p in params["patterns"])


def reason_text(t: Charge, lang: str = "zh") -> str:
    """Why ``t`` was paid, in ``lang``: its reason code and parameters worded.

    >>> reason_text(Charge("E", "S", 2, "kong", {"how": "from", "tile": "5p"}), "en")
    'exposed kong 5p'
    """
    p = t.params
    if t.reason == "kong":
        return word(f"round_why.kong.{p['how']}", lang, tile=p["tile"])
    if t.reason == "win":
        text = word("round_why.win", lang, chain=_chain(p, lang), multiplier=p["multiplier"])
        if "capped" in p:
            text += word("round_why.win.capped", lang, capped=p["capped"])
        if "added" in p:
            text += word("round_why.win.added", lang, added=p["added"])
        return text
    return word(f"round_why.{t.reason}", lang, **p)


def round_json(result: RoundResult, lang: str = "zh") -> dict[str, Any]:
    """The JSON form (README: "Round JSON"); reasons worded in ``lang``, and as data
    (``reason``, ``params``).

    >>> from scorer.table.round import EXAMPLE, settle_round
    >>> j = round_json(settle_round(EXAMPLE))
    >>> j["totals"], j["mode"], j["players"]["E"]["wins"]
    ({'E': 22, 'S': 12, 'W': 14, 'N': -48}, 'xuezhan', 0)
    """
    return {
        "ruleset": result.ruleset.id,
        "mode": result.mode,
        "base": result.base,
        "events": [{"line": e.line or None, "seat": e.seat, "kind": e.kind, "text": e.text,
                    **e.detail,
                    "payments": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                                  "why": reason_text(t, lang), "reason": t.reason,
                                  "params": dict(t.params)} for t in e.transfers]}
                   for e in result.events],
        "players": {s: {"status": result.status[s], "wait": result.waits.get(s),
                        "wins": result.wins.get(s, 0)} for s in SEATS},
        "totals": dict(result.totals),
        "zero_sum": sum(result.totals.values()) == 0,
    }


def round_text(result: RoundResult, lang: str = "zh", width: int | None = None) -> str:
    """The settlement as text: each event with its payments, then the totals, within
    ``width`` columns (default: the terminal's; a long line folds under its text).

    >>> from scorer.table.round import EXAMPLE, settle_round
    >>> print(round_text(settle_round(EXAMPLE), "en").splitlines()[-1])
    total  E +22  S +12  W +14  N -48
    >>> print(round_text(settle_round(EXAMPLE), "zh").splitlines()[1])
    第 1 行   E kong 2m from S
    """
    rs = result.ruleset
    name = rs.name if lang == "zh" else rs.name_en
    if result.mode == "xueliu" and "血流" not in rs.name:  # sichuan with the option on
        name += f" — {word('round_text.xueliu', lang)}"
    out = [f"{name} — {word('round_text.base', lang)} {result.base}"]
    for e in result.events:
        if e.line:
            head = _column(word("round_text.line", lang, n=e.line)) + e.text
        else:
            head = _column(word("round_text.end", lang)) + word("round_check." + e.kind, lang)
        if e.detail.get("robbed"):
            head += word("round_text.robbed", lang)
        out.append(head)
        for x in e.transfers:
            out.append(f"          {x.payer} → {x.payee} {x.amount:>5}   {reason_text(x, lang)}")
    for s in SEATS:
        w = result.waits.get(s)
        extra = f" {w['tile']} {w['multiplier']}" if w else ""
        n = result.wins.get(s, 0)
        if result.mode == "xueliu" and n > 1:
            extra += word("round_text.wins", lang, n=n)
        out.append(f"{s}: {word('round_status.' + result.status[s], lang)}{extra}")
    out.append(word("round_text.total", lang) + "  " + "  ".join(f"{s} {v:+d}"
                                                     for s, v in result.totals.items()))
    width = columns() if width is None else width
    return "\n".join(x for ln in out for x in wrap(ln, width, " " * 10 + "      "))


def _column(head: str) -> str:
    """``head`` padded to the ten columns the events' text starts at (wide characters
    count two), at least two spaces after it."""
    return head + " " * max(2, 10 - display_width(head))
