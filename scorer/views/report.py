"""The report of ``mjscore score``: for people settling a hand at the table, rendering only.

Every word comes from the catalogue (:mod:`scorer.text.words`) in zh or en; the pieces it
shows of the hand (the marked reading, the legend, the why of a pattern on the wait, the
chains and payments) are :mod:`.pieces`'. The report is meant to be checked against the
tiles on the table:

* ``Hand:`` is the hand as typed (the user's grouping and order, spelling normalised);
  the sorted normal form (JSON ``hand``) follows as ``Sorted:`` when it differs;
* the reading marks every tile that is not what it shows (``*``, ``~``, ``←``), explained
  once by a legend line (only in a ruleset with wildcards);
* a pattern that hinges on the wait gets a "why" line; a pattern that names its tiers
  shows the tier's name beside its formula;
* then each seat's points, and with ``--explain`` the readings considered
  (:mod:`.explain`).
"""

from __future__ import annotations

from typing import Any

from ..engine.result import Result, Scored
from ..model import tiles as T
from ..model.hand import Hand
from ..rules.model import Ruleset
from ..text import show
from ..text.width import columns, wrap
from .i18n import display_width, heads, t
from .pieces import (
    chain_lines,
    legend,
    pattern_name,
    payment_lines,
    reading_text,
    reads_text,
    ruleset_name,
    stand_in_text,
    why_lines,
    wildcard_map,
    wildcard_word,
)
from .texttable import simple

HEAD_KEYS = ["head_hand", "head_sorted", "head_tiles", "head_options", "head_flowers",
             "head_reading", "head_legend", "head_wildcard", "head_stand_in", "head_why",
             "head_pattern", "head_replaced", "head_payment"]


def written_glyphs(hand: Hand) -> str:
    """The hand as Unicode tiles in the order typed: melds in brackets, the winning tile apart.

    >>> from scorer.model.notation import parse_hand
    >>> written_glyphs(parse_hand("[EEE]789s123m55p23p4p"))
    '[🀀🀀🀀] 🀖🀗🀘🀇🀈🀉🀝🀝🀚🀛 🀜'
    """
    if not hand.sources:
        return hand.unicode()
    meld_at = {m.position for m in hand.melds}
    melds: dict[int, list[int]] = {}
    concealed: list[int] = []
    for tile, pos in hand.sources:
        if pos in meld_at:
            melds.setdefault(pos, []).append(tile)
        else:
            concealed.append(tile)
    parts = ["[" + "".join(T.glyph(x) for x in ts) + "]" for ts in melds.values()]
    if concealed:
        parts.append("".join(T.glyph(x) for x in concealed[:-1]))
        parts.append(T.glyph(concealed[-1]))
    return " ".join(p for p in parts if p)


def _claimed(rs: Any, lang: str = "en") -> str:
    """`` (hangzhou from my.yaml)`` for a file that takes a built-in ruleset's id, else "":
    its scores are the file's, and the report says so (docs/robustness.md#provenance)."""
    from ..rules.files import list_builtin

    if rs.trusted or rs.id not in list_builtin():
        return ""
    return t("claimed_from", lang, id=rs.id, file=rs.file)


def title_line(result: Result, lang: str = "zh") -> str:
    """The first line: ruleset, winner, how the tile came, e.g.
    ``杭州麻将 Hangzhou — winner W (idle), self-drawn``."""
    rs, table = result.ruleset, result.table
    d = table.discarder
    how = t("self_drawn", lang) if table.self_draw else (
        t("on_discard_of", lang, seat=d) if d else t("on_a_discard", lang))
    if table.context.robbing_kong:
        how = (t("robbing_of", lang, seat=d) if d else t("robbing_a_kong", lang)) + (
            t("counts_as_self_drawn", lang) if table.self_draw else "")
    role = t("dealer" if result.winner == "E" else "idle", lang)
    return t("winner_line", lang, name=f"{ruleset_name(rs, lang)}{_claimed(rs, lang)}", seat=result.winner,
             role=role, how=how)


def hand_lines(result: Result, lang: str = "zh", unicode: bool = True) -> list[str]:
    """The hand as typed, the sorted form when it differs, the tiles as typed."""
    hd = heads(HEAD_KEYS, lang)
    hand = result.hand
    lines = [hd["head_hand"] + hand.as_written()]
    if hand.notation() != hand.as_written():
        lines.append(hd["head_sorted"] + hand.notation())
    if unicode:
        lines.append(hd["head_tiles"] + written_glyphs(hand))
    return lines


def human(result: Result, lang: str = "zh", explain: bool = False, unicode: bool = True,
          top: int | None = None, width: int | None = None) -> str:
    """The report for people settling a hand at the table (``explain``: with the
    readings considered, the best ``top`` of them), within ``width`` columns (default: the
    terminal's, :func:`scorer.text.width.columns`): a long line folds under its text, past
    its head."""
    rs, s, table = result.ruleset, result.best, result.table
    # the wildcard's line is headed by what the table calls it (Xiamen: 金)
    hd = heads(HEAD_KEYS, lang, {"head_wildcard": wildcard_word(rs, lang).capitalize()
                                 + ("：" if lang == "zh" else ":")})
    pad = _pad(hd["head_hand"])
    lines = [title_line(result, lang)]
    lines += hand_lines(result, lang, unicode)
    opts = [f"{k}={show(v)}" for k, v in table.options.items()
            if rs.options[k].default != v]
    if opts:
        lines.append(hd["head_options"] + ", ".join(opts))
    flowers = table.env["flower_list"]
    if flowers:
        lines.append(hd["head_flowers"] + " ".join(T.flower_name(f) for f in flowers))
    elif table.env["flowers"]:
        lines.append(hd["head_flowers"] + str(table.env["flowers"]))
    lines.append(hd["head_reading"] + reading_text(result, s, lang))
    lg = legend(result, lang, s)
    if lg:
        lines.append(hd["head_legend"] + lg)
    wm = wildcard_map(result)
    if wm:
        lines.append(hd["head_wildcard"] + f"{wm[0]['face']} ×{len(wm)} → {reads_text(wm, lang)}")
    si = stand_in_text(result, s, lang)
    if si:
        lines.append(hd["head_stand_in"] + si)
    for i, cl in enumerate(chain_lines(rs, s, lang) or ["—"]):
        lines.append((hd["head_pattern"] if i == 0 else pad) + cl)
    for i, wl in enumerate(why_lines(result, lang, s)):
        lines.append((hd["head_why"] if i == 0 else pad) + wl)
    if s.replaced:
        rep = ", ".join(t("replaced_by", lang, name=pattern_name(h, lang),
                          by=_name_of(rs, h.replaced_by, lang)) for h in s.replaced)
        lines.append(hd["head_replaced"] + rep)
    for i, pl in enumerate(payment_lines(result, s, lang)):
        lines.append((hd["head_payment"] if i == 0 else pad) + pl)
    width = columns() if width is None else width
    lines = [x for ln in lines for x in wrap(ln, width, pad)]
    lines.append("")
    lines.append(seat_table(result, s, lang))
    if explain:
        from .explain import explain_text

        lines.append("")
        lines.append(explain_text(result, lang, top, width))
    return "\n".join(lines)


def _pad(head: str) -> str:
    return " " * display_width(head)


def seat_table(result: Result, s: Scored | None = None, lang: str = "zh") -> str:
    """Return each seat, its role and its points, as a text table (:func:`.table.simple`:
    tabulate only where wide characters need it)."""
    s = s or result.best
    rows = []
    for seat in result.table.seats:
        amount = s.payments[seat]
        role = "role_winner" if seat == result.winner else (
            "role_pays" if amount else "role_none")
        rows.append([t("seat_dealer", lang, seat=seat) if seat == "E" else seat,
                     t(role, lang), f"{amount:+d}"])
    return simple(rows, [t("col_seat", lang), t("col_role", lang), t("col_points", lang)],
                  ("left", "left", "right"))


def _name_of(rs: Ruleset, pid: str | None, lang: str) -> str:
    if pid is None:
        return "?"
    p = rs.pattern(pid)
    return p.name if lang == "zh" else p.name_en
