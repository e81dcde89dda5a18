"""Render results: the human report, the JSON of docs/contract.md#json, and the explain list.

One renderer per output form; the CLI and the batch command both call these,
so a hand printed by ``score`` and by ``batch`` looks the same.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..engine.scoring import Hit, Result, Scored
from ..errors import MjscoreError, NotAWin
from ..lang import GROUP, TILE, Type, elem_of, render
from ..model import tiles as T
from ..rules.flags import echo
from ..rules.model import Ruleset, show
from ..search.decompose import Group
from ..search.readings import describe_group

ROLE = {"winner": "winner", "pays": "pays", "none": "—"}


def pattern_name(h: Hit | Any, lang: str) -> str:
    p = h.pattern if isinstance(h, Hit) else h
    return p.name if lang == "zh" else p.name_en


def labels(rs: Ruleset, lang: str) -> dict[str, str]:
    out = {k: (zh if lang == "zh" else en) for k, (zh, en) in rs.labels.items()}
    for let in rs.payment.lets:
        out.setdefault(let.name, let.label if lang == "zh" else let.label_en)
    return out


# ----------------------------------------------------------------------------- wildcards
def wildcard_map(result: Result, s: Scored | None = None) -> list[dict[str, Any]]:
    """What each physical wildcard tile stands for in a reading.

    Physical wildcards are matched to the groups' wildcard slots in the order
    written; the winning tile (written last) goes to the group it completed.
    """
    s = s or result.best
    face = result.table.wild.face
    if face is None:
        return []
    hand = result.hand
    # physical wildcard tiles in the order written, with their index among all tiles
    phys = [(i, pos, t) for i, (t, pos) in enumerate(hand.sources) if t == face]
    meld_slots: dict[int, list[int]] = defaultdict(list)
    concealed_slots: list[int] = []
    win_slot: int | None = None
    for k, g in enumerate(s.reading.groups):
        wild = list(g.wild)
        if g.meld >= 0:
            meld_slots[g.meld].extend(wild)
            continue
        if k == s.reading.win and s.reading.win_wild and wild:
            win_slot = wild.pop(0)
        concealed_slots.extend(wild)
    out = []
    meld_of_pos = {m.position: i for i, m in enumerate(hand.melds)}
    total = len(hand.sources)
    for i, pos, _t in phys:
        if pos in meld_of_pos:
            slots = meld_slots[meld_of_pos[pos]]
            reads = slots.pop(0) if slots else face
        elif i == total - 1 and win_slot is not None:
            reads = win_slot
        else:
            reads = concealed_slots.pop(0) if concealed_slots else face
        out.append({"index": i, "position": pos, "face": T.name(face), "reads": T.name(reads),
                    "as_self": reads == face})
    return out


def stand_in_text(result: Result, s: Scored | None = None) -> str:
    """How the stand-in tiles (Jinhua's 白板) read, e.g. ``P ×2 → 3m, itself``; '' if none.

    A stand-in is an ordinary copy of the wildcard's face; where a shape lets
    it count as itself, the reading holds it as a natural tile of its own.
    """
    s = s or result.best
    spec = result.table.wild
    if spec.stand_in is None or spec.face is None or spec.stand_in == spec.face:
        return ""
    held = sum(1 for t, _ in result.hand.sources if t == spec.stand_in)
    if not held:
        return ""
    as_self = sum(g.naturals.count(spec.stand_in) for g in s.reading.groups)
    reads = [T.name(spec.face)] * (held - as_self) + ["itself"] * as_self
    return f"{T.name(spec.stand_in)} ×{held} → {', '.join(reads)}"


# ----------------------------------------------------------------------------- chains
def chain_lines(rs: Ruleset, s: Scored, lang: str = "zh") -> list[str]:
    """One line per tally that got a value: the patterns and how they combine.

    A ``max`` tally shows the one pattern taken (``游金 = k 4``); a ``product``
    tally its factors (``清一色 ×4 × 海底捞月 ×2 = ×8``); a ``sum`` tally every
    contribution, naming what each pattern with ``each`` counted and adding what
    other patterns gave through ``also`` (``风暗刻 EEE 2 + 金牌 1×2 = 水 4``).
    """
    lines: list[str] = []
    for t in rs.tallies:
        hits = [h for h in s.hits if h.pattern.tally == t.name]
        extra = [(p, v) for tname, p, v in s.also if tname == t.name]
        label = t.label if lang == "zh" else t.label_en
        if not hits and not extra:
            continue
        if t.combine == "max":
            parts = [f"{pattern_name(h, lang)}{_formula(rs, h, s, lang)} = {label} {h.value}"
                     for h in hits[:1]]
            parts += [f"{pattern_name(p, lang)} {v}" for p, v in extra]
            lines.append("; ".join(parts))
        elif t.combine == "product":
            items = [f"{pattern_name(h, lang)} ×{h.value}" + (f"^{h.count}" if h.count > 1 else "")
                     + _formula(rs, h, s, lang) for h in hits] + [
                         f"{pattern_name(p, lang)} ×{v}" for p, v in extra]
            lines.append(" × ".join(items) + f" = ×{s.tallies[t.name]}")
        else:
            items = []
            for h in hits:
                if h.items and h.pattern.each is not None:
                    elem = elem_of(h.pattern.each.type)
                    items += [f"{pattern_name(h, lang)} {_item_text(x, elem)} {h.value}"
                              for x in h.items]
                else:
                    items.append(f"{pattern_name(h, lang)} {h.value}"
                                 + (f"×{h.count}" if h.count > 1 else "")
                                 + _formula(rs, h, s, lang))
            items += [f"{pattern_name(p, lang)} {v}" for p, v in extra]
            lines.append(" + ".join(items) + f" = {label} {s.tallies[t.name]}".rstrip())
    return lines


def patterns_chain(rs: Ruleset, s: Scored, lang: str = "zh") -> str:
    """The patterns and how they combine, one tally after another, e.g. ``暴头 = 番 2``."""
    return "; ".join(chain_lines(rs, s, lang))


def _item_text(x: Any, elem: Type | None) -> str:
    """An item counted by a pattern's ``each`` (of type ``elem``): a group as written
    (``[EEE]``, ``5*55p``), a tile by name, anything else as it prints."""
    if elem == GROUP and isinstance(x, Group):
        return describe_group(x)
    if elem == TILE and isinstance(x, int):
        return T.name(x)
    return str(x)


def _formula(rs: Ruleset, h: Hit, s: Scored, lang: str) -> str:
    if h.pattern.value.const:
        return ""
    text = render(h.pattern.value, s.env, labels(rs, lang))
    # a formula that comes down to a bare number (a choice between constants) says nothing more
    return "" if text.strip() == str(h.value) else f" ({text})"


def payment_lines(result: Result, s: Scored | None = None, lang: str = "zh") -> list[str]:
    """Each distinct payer calculation, e.g. ``底分 1 × 庄闲分 1 × 番 2 = 2 from each of S, N``."""
    s = s or result.best
    rs = result.ruleset
    lab = labels(rs, lang)
    lab.setdefault("score", rs.label("score", lang))
    groups: dict[str, list[str]] = {}
    # the discarder (or the player whose kong was robbed) is named, as players say "放铳 W pays"
    disc = result.table.discarder if not result.table.self_draw else None
    tag = rs.label("discarder", lang) if "discarder" in rs.labels else (
        "放铳" if lang == "zh" else "discarder")
    shares = sorted(s.settlement.shares, key=lambda sh: sh.payer != disc)  # discarder first
    for share in shares:
        if not share.pays:
            continue
        text = render(rs.payment.amount, share.env, lab) + f" = {share.amount}"
        groups.setdefault(text, []).append(
            f"{share.payer} ({tag})" if share.payer == disc else share.payer)
    lines = []
    for text, payers in groups.items():
        who = ("each of " if len(payers) > 1 else "") + ", ".join(payers)
        lines.append(f"{text} from {who}")
    for a, b, who, amount in s.settlement.chengbao:
        kind = "承包" if who == b else "倒承包"
        lines.append(f"{kind} {a}:{b} → {who} pays {amount}")
    return lines


# ----------------------------------------------------------------------------- human report
def _claimed(rs: Any) -> str:
    """`` (hangzhou from my.yaml)`` for a file that takes a built-in ruleset's id, else "":
    its scores are the file's, and the report says so (docs/robustness.md#provenance)."""
    from ..rules.files import list_builtin

    return f" ({rs.id} from {rs.file})" if not rs.trusted and rs.id in list_builtin() else ""


def human(result: Result, lang: str = "zh", explain: bool = False, unicode: bool = True) -> str:
    """The report for people settling a hand at the table."""
    from tabulate import tabulate  # imported here: keeps `mjscore --help` fast

    rs, s, table = result.ruleset, result.best, result.table
    winner = result.winner
    how = "self-drawn" if table.self_draw else (
        f"on {table.discarder}'s discard" if table.discarder else "on a discard")
    if table.context.robbing_kong:
        how = (f"robbing {table.discarder}'s kong" if table.discarder else "robbing a kong") + (
            " (counts as self-drawn)" if table.self_draw else "")
    role = "dealer" if winner == "E" else "idle"
    lines = [f"{rs.name} {rs.name_en}{_claimed(rs)} — winner {winner} ({role}), {how}"]
    lines.append(f"Hand:     {result.hand.notation()}")
    if unicode:
        lines.append(f"Tiles:    {result.hand.unicode()}")
    opts = [f"{k}={show(v)}" for k, v in table.options.items()
            if rs.options[k].default != v]
    if opts:
        lines.append(f"Options:  {', '.join(opts)}")
    flowers = table.env["flower_list"]
    if flowers:
        lines.append("Flowers:  " + " ".join(T.flower_name(f) for f in flowers))
    elif table.env["flowers"]:
        lines.append(f"Flowers:  {table.env['flowers']}")
    lines.append(f"Reading:  {_reading_text(s)}")
    wm = wildcard_map(result)
    if wm:
        face = wm[0]["face"]
        reads = ", ".join(("itself" if w["as_self"] else w["reads"]) for w in wm)
        lines.append(f"Wildcard: {face} ×{len(wm)} → {reads}")
    si = stand_in_text(result)
    if si:
        lines.append(f"Stand-in: {si}")
    for i, cl in enumerate(chain_lines(rs, s, lang) or ["—"]):
        lines.append(("Pattern:  " if i == 0 else "          ") + cl)
    if s.replaced:
        rep = ", ".join(f"{pattern_name(h, lang)} (by {_name_of(rs, h.replaced_by, lang)})"
                        for h in s.replaced)
        lines.append(f"Replaced: {rep}")
    for i, pl in enumerate(payment_lines(result, s, lang)):
        lines.append(("Payment:  " if i == 0 else "          ") + pl)
    rows = []
    for seat in table.seats:
        amount = s.payments[seat]
        r = ROLE["winner"] if seat == winner else (ROLE["pays"] if amount else ROLE["none"])
        rows.append([seat + (" (dealer)" if seat == "E" else ""), r, f"{amount:+d}"])
    lines.append("")
    lines.append(tabulate(rows, headers=["seat", "role", "points"], tablefmt="simple",
                          colalign=("left", "left", "right")))
    if explain:
        lines.append("")
        lines.append(explain_text(result, lang))
    return "\n".join(lines)


def _name_of(rs: Ruleset, pid: str | None, lang: str) -> str:
    if pid is None:
        return "?"
    p = rs.pattern(pid)
    return p.name if lang == "zh" else p.name_en


def _reading_text(s: Scored) -> str:
    parts = []
    for k, g in enumerate(s.reading.groups):
        text = describe_group(g)
        if k == s.reading.win:
            text += "←"
        parts.append(text)
    shape = s.reading.shape.replace("_", " ")
    return " ".join(parts) + f"   ({shape}; * = wildcard, ← = completed by the winning tile)"


def explain_text(result: Result, lang: str = "zh") -> str:
    """Every reading considered, best first, with its patterns and what the winner gets."""
    from tabulate import tabulate

    rows: list[list[Any]] = []
    seen: set[tuple[Any, ...]] = set()
    winner = result.winner
    for s in result.candidates:
        text = _reading_text(s).split("   (")[0]
        pats = ", ".join(f"{pattern_name(h, lang)} {h.value}" for h in s.hits)
        key = (text, pats, s.score)
        if key in seen:
            continue
        seen.add(key)
        rows.append([len(rows) + 1, s.reading.shape, text, pats, s.score,
                     f"{s.payments[winner]:+d}"])
    head = f"Readings considered ({len(rows)} distinct, best first):"
    return head + "\n" + tabulate(rows, headers=["#", "shape", "reading", "patterns",
                                                 "score", "winner"], tablefmt="simple")


# ----------------------------------------------------------------------------- JSON
def to_json(result: Result, lang: str = "zh") -> dict[str, Any]:
    """The machine form of docs/contract.md#json (plus extra fields)."""
    rs, s = result.ruleset, result.best
    wm = wildcard_map(result)
    return {
        "ruleset": rs.id,
        "hand": result.hand.notation(),
        "best": {
            "score": s.score,
            "patterns": [hit_json(h) for h in s.hits],
            "decomposition": s.reading.describe(),
            "wildcards": {str(w["index"]): w["reads"] for w in wm},
            "shape": s.reading.shape,
            "tallies": s.tallies,
            "replaced": [{"id": h.pattern.id, "by": h.replaced_by} for h in s.replaced],
            "wildcard_detail": wm,
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


def hit_json(h: Hit) -> dict[str, Any]:
    """One pattern of a reading; a pattern with ``each`` also lists what it counted.

    e.g. ``{"id": "fengank", ..., "value": 2, "count": 1, "items": ["NNN"]}``.
    """
    out: dict[str, Any] = {"id": h.pattern.id, "name": h.pattern.name,
                           "name_en": h.pattern.name_en, "value": h.value, "count": h.count}
    if h.pattern.each is not None:
        elem = elem_of(h.pattern.each.type)
        out["items"] = [_item_text(x, elem) for x in h.items]
    return out


def error_json(e: MjscoreError, lang: str = "zh") -> dict[str, Any]:
    """``{"error": {"kind": ..., "message": ...}}``, with the fans found for a below-minimum win."""
    err: dict[str, Any] = {"kind": e.kind, "message": e.message}
    if isinstance(e, NotAWin):
        err["reason"] = e.reason
    pos = getattr(e, "position", None)
    if pos is not None:
        err["position"] = pos
    out: dict[str, Any] = {"error": err}
    if isinstance(e, NotAWin) and isinstance(e.details, Result):
        found = to_json(e.details, lang)
        found["best"].pop("payment_chain", None)  # nobody pays for a hand that is no win
        out.update({k: v for k, v in found.items() if k != "payments"})
    return out


def explain_json(result: Result, lang: str = "zh") -> list[dict[str, Any]]:
    """Every distinct reading considered, best first (for ``--explain --json``)."""
    out = []
    seen: set[tuple[Any, ...]] = set()
    for s in result.candidates:
        decomposition = s.reading.describe()
        patterns = [hit_json(h) for h in s.hits]
        item = {"shape": s.reading.shape, "decomposition": decomposition,
                "patterns": patterns, "score": s.score, "payments": dict(s.payments)}
        key = (tuple(decomposition), tuple(h["id"] for h in patterns), s.score)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
