"""``--explain``: the readings a hand was considered under, best first, and why each lost.

One row per distinct reading (the same marked groups and shape): the patterns it could
count (alternatives joined by "or"), the headline number, what the winner gets and why
it was not chosen; then the readings a rule of the ruleset ruled out, with the rule's
message. The text (:func:`explain_text`) and the JSON (:func:`explain_json`, under
``explain`` of ``score --explain --json``) show the same readings. Rendering only: the
candidates and the readings ruled out are the engine's (``Result.candidates``,
``Result.excluded``).
"""

from __future__ import annotations

from typing import Any

from ..engine.result import Result, Scored
from ..search.readings import Reading
from ..text import body, join
from ..text.width import columns, wrap
from .i18n import t
from .jsondata import hit_json
from .pieces import group_texts, pattern_name, reading_groups, sets_text, shape_word
from .texttable import fitted

DEFAULT_TOP = 10  # readings --explain shows unless told (--explain-top N)


def distinct_readings(result: Result) -> list[list[Scored]]:
    """The candidates grouped by reading (the same marked groups and shape), best first;
    each group's candidates differ only in the patterns counted (e.g. 暴头 2 or 自摸 1)."""
    by: dict[tuple[str, ...], list[Scored]] = {}
    for s in result.candidates:
        key = (s.reading.shape, *group_texts(result, s))
        alts = by.setdefault(key, [])
        pats = _pats(s, "en")
        if all(_pats(x, "en") != pats or x.score != s.score for x in alts):
            alts.append(s)
    return list(by.values())


def _pats(s: Scored, lang: str) -> str:
    return ", ".join(f"{pattern_name(h, lang)} {h.value}" + (f"×{h.count}" if h.count > 1
                                                              else "") for h in s.hits)


def why_lost(result: Result, s: Scored, lang: str = "zh") -> str:
    """Why a candidate is not the reading chosen: ``best``, it pays the winner less, its
    headline is lower, it substitutes more wildcards, or it ranks later on a tie."""
    best, w = result.best, result.winner
    if s is best:
        return t("lost_best", lang)
    if s.payments[w] < best.payments[w]:
        return t("lost_pays", lang, gets=f"{s.payments[w]:+d}", best=f"{best.payments[w]:+d}")
    if s.score < best.score:
        return t("lost_lower", lang, score=s.score, best=best.score)
    return t("lost_tie", lang)


def explain_text(result: Result, lang: str = "zh", top: int | None = None,
                 width: int | None = None) -> str:
    """The readings considered, best first, one row per distinct reading: its patterns
    (the alternatives it could count joined by "or"), score, what the winner gets and why
    it was not chosen; the best ``top`` (:data:`DEFAULT_TOP`), then "and K more"; within
    ``width`` columns (default: the terminal's; :func:`.texttable.fitted` folds the long
    cells)."""
    groups = distinct_readings(result)
    ruled_out = excluded_readings(result, lang)
    n = DEFAULT_TOP if top is None else max(top, 1)
    rows: list[list[Any]] = []
    w = result.winner
    for k, alts in enumerate(groups[:n]):
        s = alts[0]
        shape = shape_word(s.reading.shape, lang)
        pats = join([_pats(x, lang) or "—" for x in alts], lang, "or")
        rows.append([k + 1, shape, " ".join(group_texts(result, s)), pats,
                     " / ".join(str(x.score) for x in alts),
                     " / ".join(f"{x.payments[w]:+d}" for x in alts), why_lost(result, s, lang)])
    for k, (reading, message) in enumerate(ruled_out[:max(0, n - len(groups))]):
        rows.append([len(groups) + k + 1, shape_word(reading.shape, lang),
                     " ".join(reading_groups(result, reading)), "—", "—", "—",
                     t("lost_excluded", lang, msg=message)])
    total = len(groups) + len(ruled_out)
    width = columns() if width is None else width
    head = "\n".join(wrap(t("explain_head", lang, n=total), width))
    table = fitted(rows, [t(c, lang) for c in (
        "col_num", "col_shape", "col_reading", "col_patterns", "col_score", "col_winner",
        "col_why_lost")], width, fold=(1, 2, 3, 4, 5, 6))
    out = head + "\n" + table
    if total > n:
        out += "\n" + "\n".join(wrap(t("explain_more", lang, k=total - n, total=total), width))
    return out


def excluded_readings(result: Result, lang: str = "zh") -> list[tuple[Reading, str]]:
    """The readings a rule of the ruleset ruled out (a reading-level ``not_a_win`` check),
    each once, with the rule's message in ``lang``."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for reading, params in getattr(result, "excluded", ()):
        key = (reading.shape, *reading_groups(result, reading))
        if key not in seen:
            seen.add(key)
            out.append((reading, body("rule.refused", params, lang) if params else ""))
    return out


def explain_json(result: Result, lang: str = "zh") -> list[dict[str, Any]]:
    """Every distinct reading considered, best first (for ``--explain --json``); a reading
    that could count other patterns lists them under ``alternatives``."""
    out = []
    for alts in distinct_readings(result):
        s = alts[0]
        item: dict[str, Any] = {
            "shape": s.reading.shape, "decomposition": sets_text(s.reading),
            "reading": group_texts(result, s), "patterns": [hit_json(h, s) for h in s.hits],
            "score": s.score, "payments": dict(s.payments),
            "why_not": None if s is result.best else why_lost(result, s, "en")}
        if len(alts) > 1:
            item["alternatives"] = [{"patterns": [hit_json(h, x) for h in x.hits],
                                     "score": x.score, "payments": dict(x.payments)}
                                    for x in alts[1:]]
        out.append(item)
    for reading, message in excluded_readings(result, lang):
        out.append({"shape": reading.shape, "decomposition": sets_text(reading),
                    "reading": reading_groups(result, reading), "excluded": message})
    return out
