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
from ..table.round import RoundResult, Transfer

# The words of a round, key → (zh, en); {placeholders} from the transfer's params.
WORDS: dict[str, tuple[str, str]] = {
    "kong.from": ("直杠 {tile}", "exposed kong {tile}"),
    "kong.added": ("补杠 {tile}", "added kong {tile}"),
    "kong.concealed": ("暗杠 {tile}", "concealed kong {tile}"),
    "win": ("胡 {chain} = {multiplier} 倍", "win {chain} = {multiplier} x"),
    "win.capped": ("，封顶 {capped}", ", capped at {capped}"),
    "win.added": ("，加底 {added}", ", added base {added}"),
    "passed_on": ("呼叫转移: {seat} 的杠 {tile} (第 {line} 行) 所得",
                  "kong income passed on: {seat}'s kong {tile} (line {line})"),
    "huazhu": ("查花猪: {seat} 是花猪", "flower pig: {seat} holds three suits"),
    "not_ready": ("查大叫: {seat} 听 {tile} {multiplier} 倍",
                  "not ready: {seat} waits on {tile}, {multiplier}x"),
    "refund": ("退税: {seat} 的杠 {tile} (第 {line} 行)",
               "kong refund: {seat}'s kong {tile} (line {line})"),
    # the text's heads and statuses
    "base": ("底", "base"),
    "xueliu": ("血流成河", "blood flowing into a river"),
    "end": ("end", "end"),
    "check.chahuazhu": ("查花猪", "flower pigs"),
    "check.chadajiao": ("查大叫", "not-ready check"),
    "check.tuishui": ("退税", "kong refunds"),
    "robbed": ("   (被抢杠，不收钱)", "   (抢杠: no payment)"),
    "status.won": ("已胡", "won"),
    "status.ready": ("有叫", "ready"),
    "status.not_ready": ("无叫", "not ready"),
    "status.huazhu": ("花猪", "flower pig"),
    "status.in": ("—", "—"),
    "wins": (" {n} 次", " {n} times"),
    "total": ("total", "total"),
}


def word(key: str, lang: str, **params: Any) -> str:
    """The round's word ``key`` in ``lang`` (zh, or en for anything else), filled in.

    >>> word("huazhu", "en", seat="N")
    'flower pig: N holds three suits'
    """
    return WORDS[key][0 if lang == "zh" else 1].format(**params)


def _chain(params: Mapping[str, Any], lang: str) -> str:
    """A win's patterns as ``name value^count`` joined by ×."""
    key = "name" if lang == "zh" else "name_en"
    return " × ".join(f"{p[key]} {p['value']}" + (f"^{p['count']}" if p["count"] > 1 else "")
                      for p in params["patterns"])


def reason_text(t: Transfer, lang: str = "zh") -> str:
    """Why ``t`` was paid, in ``lang``: its reason code and parameters worded.

    >>> reason_text(Transfer("E", "S", 2, "kong", {"how": "from", "tile": "5p"}), "en")
    'exposed kong 5p'
    """
    p = t.params
    if t.reason == "kong":
        return word(f"kong.{p['how']}", lang, tile=p["tile"])
    if t.reason == "win":
        text = word("win", lang, chain=_chain(p, lang), multiplier=p["multiplier"])
        if "capped" in p:
            text += word("win.capped", lang, capped=p["capped"])
        if "added" in p:
            text += word("win.added", lang, added=p["added"])
        return text
    return word(t.reason, lang, **p)


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


def round_text(result: RoundResult, lang: str = "zh") -> str:
    """The settlement as text: each event with its payments, then the totals.

    >>> from scorer.table.round import EXAMPLE, settle_round
    >>> print(round_text(settle_round(EXAMPLE), "en").splitlines()[-1])
    total  E +22  S +12  W +14  N -48
    """
    rs = result.ruleset
    name = rs.name if lang == "zh" else rs.name_en
    if result.mode == "xueliu" and "血流" not in rs.name:  # sichuan with the option on
        name += f" — {word('xueliu', lang)}"
    out = [f"{name} — {word('base', lang)} {result.base}"]
    for e in result.events:
        if e.line:
            head = f"line {e.line:>3}  {e.text}"
        else:
            head = f"{word('end', lang):<10}{word('check.' + e.kind, lang)}"
        if e.detail.get("robbed"):
            head += word("robbed", lang)
        out.append(head)
        for t in e.transfers:
            out.append(f"          {t.payer} → {t.payee} {t.amount:>5}   {reason_text(t, lang)}")
    for s in SEATS:
        w = result.waits.get(s)
        extra = f" {w['tile']} {w['multiplier']}" if w else ""
        n = result.wins.get(s, 0)
        if result.mode == "xueliu" and n > 1:
            extra += word("wins", lang, n=n)
        out.append(f"{s}: {word('status.' + result.status[s], lang)}{extra}")
    out.append(word("total", lang) + "  " + "  ".join(f"{s} {v:+d}"
                                                     for s, v in result.totals.items()))
    return "\n".join(out)
