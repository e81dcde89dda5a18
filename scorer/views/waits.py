"""Render :class:`~scorer.engine.ready.Waits`: the report of ``mjscore waits`` and its JSON.

The report has one block per entry (a tile, or "any tile" for the faces that all
score alike), one row per way the tile can come (self-drawn, each seat's discard),
with the patterns, the headline number and what each seat pays (the winner's column
is what it receives); a way that is no
win says why in a numbered note under the table, so the columns stay narrow.
Every label comes in zh and en (``lang``); pattern names are the ruleset's.
"""

from __future__ import annotations

from typing import Any

from ..engine.ready import DISCARD, Outcome, WaitEntry, Waits
from ..model import tiles as T
from ..model.hand import Hand, format_tiles
from ..text.width import columns, wrap
from .i18n import MESSAGES
from .jsondata import error_fields, hit_json
from .pieces import pattern_name, ruleset_name
from .texttable import fitted

# the words of this report live in the one message catalogue, under "waits_"
LABELS: dict[str, tuple[str, str]] = {k[len("waits_"):]: v for k, v in MESSAGES.items()
                                      if k.startswith("waits_")}


def label(key: str, lang: str, **values: Any) -> str:
    """A label of the report in ``lang`` ('zh' or 'en'), placeholders filled.

    >>> label("discard", "en", seat="N"), label("discard", "zh", seat="N")
    ("N's discard", 'N 放铳')
    """
    zh, en = LABELS[key]
    return (zh if lang == "zh" else en).format(**values)


def short_notation(hand: Hand) -> str:
    """The held tiles in normal form, melds first (no winning tile to set apart).

    >>> from scorer.model.notation import parse_hand
    >>> short_notation(parse_hand("[EEE]55p789s23p4p"))
    '[EEE]23455p789s'
    """
    return "".join(m.notation() for m in hand.melds) + format_tiles(hand.concealed_with_win)


def _tiles_text(tiles: tuple[int, ...] | list[int]) -> str:
    return " ".join(T.name(t) for t in tiles)


def entry_name(e: WaitEntry, w: Waits, lang: str) -> str:
    """The tile column of an entry: ``9m``, or ``any tile (34 faces)``."""
    if not e.any_tile:
        return T.name(e.tiles[0])
    key = "any" if len(e.tiles) == len(w.tiles) else "any_other"
    return label(key, lang) + label("faces", lang, n=len(e.tiles))


def _how(o: Outcome, lang: str) -> str:
    return label("self_draw", lang) if o.how != DISCARD else label("discard", lang,
                                                                     seat=o.discarder or "?")


def human(w: Waits, lang: str = "zh", unicode: bool = True, width: int | None = None) -> str:
    """The report for a player: what the hand waits on and what each tile would pay,
    within ``width`` columns (default: the terminal's, :func:`scorer.text.width.columns`;
    the table's long cells fold, :func:`.texttable.fitted`)."""
    width = columns() if width is None else width
    return "\n".join(x for ln in _report(w, lang, unicode, width).split("\n")
                     for x in (wrap(ln, width, "    ") or [""]))


def _report(w: Waits, lang: str, unicode: bool, width: int) -> str:
    """The report of :func:`human`, its table within ``width``, its other lines unfolded."""
    rs = w.ruleset
    role = label("dealer" if w.seat == "E" else "idle", lang)
    lines = [f"{ruleset_name(rs, lang)} — " + label("title", lang, seat=w.seat, role=role)]
    hand_line = short_notation(w.hand)
    if unicode:
        hand_line += "   " + " ".join(
            ["[" + "".join(T.glyph(t) for t in m.tiles) + "]" for m in w.hand.melds]
            + ["".join(T.glyph(t) for t in w.hand.concealed_with_win)])
    lines.append(f"{label('hand', lang)} {hand_line}")
    if not w.ready:
        lines.append(f"{label('waits', lang)} {w.reason_in(lang)}")
        return "\n".join(lines)
    entries = w.entries()
    names = [entry_name(e, w, lang) for e in entries]
    lines.append(f"{label('waits', lang)} {', '.join(names)}")
    if w.held_out:
        lines.append(f"{label('held', lang)} "
                     + label("held_text", lang, tiles=_tiles_text(w.held_out)))
    for how, why in w.skipped.items():
        lines.append(f"{label('skipped', lang)} {label('how_' + how, lang)}"
                     f"{label('colon', lang)}{why.render(lang)}")
    seats = _seats(w)
    notes: dict[str, int] = {}
    rows: list[list[str]] = []
    for e, name in zip(entries, names, strict=True):
        for k, (o, how) in enumerate(_rows(e, lang)):
            first = name if k == 0 else ""
            if o.result is None:
                n = notes.setdefault(o.reason_in(lang), len(notes) + 1)
                rows.append([first, how, label("no_win", lang, n=n), ""] + [""] * len(seats))
                continue
            best = o.result.best
            pats = " + ".join(f"{pattern_name(h, lang)} {h.value}"
                              + (f"×{h.count}" if h.count > 1 else "") for h in best.hits)
            pays = [f"{best.payments[s]:+d}" if best.payments[s] else "0" for s in seats]
            rows.append([first, how, pats, str(best.score), *pays])
    lines.append("")
    headers = [label("tile", lang), label("how", lang), label("patterns", lang),
               label("score", lang), *seats]
    # long pattern lists (MCR) fold inside their column, so the table fits a terminal
    lines.append(fitted(rows, headers, width, fold=(0, 1, 2),
                        colalign=("left", "left", "left") + ("right",) * (len(seats) + 1)))
    if notes:
        lines.append("")
        lines.append(label("notes", lang))
        lines += [f"[{n}] {reason}" for reason, n in notes.items()]
    return "\n".join(lines)


def _rows(e: WaitEntry, lang: str) -> list[tuple[Outcome, str]]:
    """The outcomes of an entry with their "how" text; discards that are all refused for
    the same reason are one row ("any discard"), since no seat changes the answer."""
    outs = e.wait.outcomes
    discards = [o for o in outs if o.how == DISCARD]
    if len(discards) > 1 and all(o.result is None and o.signature() == discards[0].signature()
                                 for o in discards):
        return [(o, _how(o, lang)) for o in outs if o.how != DISCARD] + [
            (discards[0], label("any_discard", lang))]
    return [(o, _how(o, lang)) for o in outs]


def _seats(w: Waits) -> list[str]:
    """The seats at the table, from any scored outcome (E S W N when none scored)."""
    for tw in w.tiles:
        for o in tw.outcomes:
            if o.result is not None:
                return list(o.result.table.seats)
    return list(T.SEATS)


def outcome_json(o: Outcome, lang: str = "zh") -> dict[str, Any]:
    """One way of winning on a tile, e.g. ``{"how": "self_draw", "from": null, "win": true, …}``;
    a way that is no win says why in ``lang`` (``reason``) and as data (``error``: its
    ``code`` and ``params``, as every JSON error)."""
    out: dict[str, Any] = {"how": o.how, "from": o.discarder, "win": o.won}
    if o.result is None:
        out.update(reason=o.reason_in(lang), code=o.code)
        if o.error is not None:
            out["error"] = error_fields(o.error, lang)
        return out
    best = o.result.best
    out.update(score=best.score, patterns=[hit_json(h) for h in best.hits],
               decomposition=best.reading.describe(), payments=dict(best.payments),
               winner_gets=o.amount)
    return out


def to_json(w: Waits, lang: str = "zh") -> dict[str, Any]:
    """The machine form of ``mjscore waits --json`` (schema in README, under the command)."""
    entries = []
    for e in w.entries():
        best = e.wait.best
        entries.append({
            "tiles": [T.name(t) for t in e.tiles], "any_tile": e.any_tile,
            "outcomes": [outcome_json(o, lang) for o in e.wait.outcomes],
            "best": None if best is None else {"how": best.how, "from": best.discarder,
                                               "winner_gets": best.amount},
        })
    return {
        "ruleset": w.ruleset.id,
        "hand": short_notation(w.hand),
        "seat": w.seat,
        "ready": w.ready,
        "reason": w.reason_in(lang),
        "any_tile": w.any_tile,
        "tiles": [T.name(t.tile) for t in w.tiles],
        "winning_tiles": [T.name(t.tile) for t in w.winning],
        "held_out": [T.name(t) for t in w.held_out],
        "skipped": {how: e.render(lang) for how, e in w.skipped.items()},
        "entries": entries,
    }
