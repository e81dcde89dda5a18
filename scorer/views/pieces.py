"""Render results: the human report, the JSON of docs/contract.md#json, and the explain list.

One renderer per output form; the CLI and the batch command both call these,
so a hand printed by ``score`` and by ``batch`` looks the same. Every word the
report prints comes from the message catalogue (:mod:`.i18n`) in zh or en.

The report is meant to be checked against the tiles on the table:

* ``Hand:`` is the hand as typed (the user's grouping and order, spelling normalised);
  the sorted normal form (JSON ``hand``) follows as ``Sorted:`` when it differs;
* the reading marks every tile that is not what it shows: ``*`` a wildcard playing the
  tile it precedes, ``~`` a stand-in (Jinhua's 白板) played as the wildcard's face, ``←``
  the group the winning tile completed, explained once by a legend line (only in a
  ruleset with wildcards);
* a pattern that hinges on the wait (its condition reads a fact of
  :data:`scorer.rules.facts.WAIT_FACTS`) gets a "why" line: the hand without its
  winning tile and what it waited on (:func:`scorer.engine.ready.wait_facts`);
* a pattern that names its tiers (``tiers:`` in the ruleset) shows the tier's name
  beside its formula (``双财飘 (财飘: 2^(飘 2 + 1)) = 番 8``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from ..engine.scoring import Hit, Refusal, Result, Scored
from ..errors import MjscoreError, NotAWin
from ..lang import GROUP, TILE, Type, elem_of, formula_text
from ..memo import Memo, held
from ..model import tiles as T
from ..model.hand import Hand
from ..rules.facts import WAIT_FACTS
from ..rules.flags import echo
from ..rules.model import Ruleset
from ..search.decompose import Group
from ..search.readings import Reading, describe_group, join_group
from ..text import body, show
from .i18n import heads, t
from .texttable import simple

WILD_MARK = "*"  # a wildcard playing the tile it follows (as in the notation)
STAND_IN_MARK = "~"  # a stand-in (白板) played as the wildcard's face
WIN_MARK = "←"  # the group the winning tile completed

HEAD_KEYS = ["head_hand", "head_sorted", "head_tiles", "head_options", "head_flowers",
             "head_reading", "head_legend", "head_wildcard", "head_stand_in", "head_why",
             "head_pattern", "head_replaced", "head_payment"]


def pattern_name(h: Hit | Any, lang: str) -> str:
    """The pattern's name in ``lang``, e.g. ``暴头`` or ``Wildcard pair (bao tou)``."""
    p = h.pattern if isinstance(h, Hit) else h
    return p.name if lang == "zh" else p.name_en


def labels(rs: Ruleset, lang: str) -> dict[str, str]:
    """The names formulas show for the ruleset's values, e.g. ``{'fan': '番', ...}``."""
    out = {k: (zh if lang == "zh" else en) for k, (zh, en) in rs.labels.items()}
    for let in rs.payment.lets:
        out.setdefault(let.name, let.label if lang == "zh" else let.label_en)
    return out


def wildcard_word(rs: Ruleset, lang: str) -> str:
    """What the table calls the wildcard: the ruleset's label ``wildcard`` if it has one
    (Xiamen: 金), else 财神 / wildcard.

    >>> from scorer.rules.load import load_ruleset
    >>> wildcard_word(load_ruleset("hangzhou"), "zh")
    '财神'
    """
    if "wildcard" in rs.labels:
        zh, en = rs.labels["wildcard"]
        return zh if lang == "zh" or not en else en
    return "财神" if lang == "zh" else "wildcard"


# ----------------------------------------------------------------------------- the hand as typed
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


# ----------------------------------------------------------------------------- wildcards
def wildcard_map(result: Result, s: Scored | None = None) -> list[dict[str, Any]]:
    """What each physical wildcard tile stands for in a reading, one dict per tile:
    ``index`` (among the tiles as typed), ``position`` (character), ``face``, ``reads``,
    ``as_self`` and ``group`` (the index of the reading's group it sits in).

    Physical wildcards are matched to the groups' wildcard slots in the order
    written; the winning tile (written last) goes to the group it completed.
    """
    s = s or result.best
    face = result.table.wild.face
    if face is None:
        return []
    hand = result.hand
    # physical wildcard tiles in the order written, with their index among all tiles
    phys = [(i, pos, x) for i, (x, pos) in enumerate(hand.sources) if x == face]
    if not phys:  # (most hands: nothing to match)
        return []
    meld_slots: dict[int, list[tuple[int, int]]] = defaultdict(list)
    concealed_slots: list[tuple[int, int]] = []
    win_slot: tuple[int, int] | None = None
    reading = s.reading
    for k, g in enumerate(reading.groups):
        if not g.wild:  # (no slot to add)
            continue
        wild = [(w, k) for w in g.wild]
        if g.meld >= 0:
            meld_slots[g.meld].extend(wild)
            continue
        if k == reading.win and reading.win_wild:
            win_slot = wild.pop(0)
        concealed_slots.extend(wild)
    out = []
    meld_of_pos = {m.position: i for i, m in enumerate(hand.melds)}
    last = len(hand.sources) - 1
    face_name = T.name(face)
    taken = 0  # concealed slots handed out, in order
    for i, pos, _x in phys:
        slot: tuple[int, int] | None
        if pos in meld_of_pos:
            slots = meld_slots[meld_of_pos[pos]]
            slot = slots.pop(0) if slots else None
        elif i == last and win_slot is not None:
            slot = win_slot
        elif taken < len(concealed_slots):
            slot = concealed_slots[taken]
            taken += 1
        else:
            slot = None
        reads, group = slot if slot is not None else (face, -1)
        out.append({"index": i, "position": pos, "face": face_name, "reads": T.name(reads),
                    "as_self": reads == face, "group": group})
    return out


def stand_in_map(result: Result, s: Scored | None = None) -> list[dict[str, Any]]:
    """What each physical stand-in tile (Jinhua's and Xiamen's 白板) is in a reading, one
    dict per tile: ``index``, ``position``, ``tile`` (``P``), ``reads`` (the wildcard's face,
    or the tile itself where a shape lets it count as itself), ``as_self``, ``group``.

    A stand-in is an ordinary copy of the wildcard's face: every natural copy of the face
    in a reading is a stand-in (the face's own copies are wildcards), matched to the
    physical stand-ins in the order written, the winning tile to the group it completed.
    """
    return _stand_ins(result, (s or result.best).reading)


def _stand_ins(result: Result, reading: Reading) -> list[dict[str, Any]]:
    spec = result.table.wild
    st, face = spec.stand_in, spec.face
    if st is None or face is None or st == face:
        return []
    hand = result.hand
    phys = [(i, pos) for i, (x, pos) in enumerate(hand.sources) if x == st]
    if not phys:
        return []
    meld_of_pos = {m.position: i for i, m in enumerate(hand.melds)}
    # the reading's slots for a stand-in: a natural copy of the face, or of the stand-in
    meld_slots: dict[int, list[tuple[int, int]]] = defaultdict(list)
    concealed_slots: list[tuple[int, int]] = []
    win_slot: tuple[int, int] | None = None
    for k, g in enumerate(reading.groups):
        nat = [x for x in g.naturals if x in (face, st)]
        slots = [(x, k) for x in nat]
        if g.meld >= 0:
            meld_slots[g.meld].extend(slots)
            continue
        if (k == reading.win and not reading.win_wild and hand.winning == st
                and reading.win_natural in (face, st) and reading.win_natural in nat):
            win_slot = (reading.win_natural, k)
            slots.remove(win_slot)
        concealed_slots.extend(slots)
    total = len(hand.sources)
    out = []
    for i, pos in phys:
        slot: tuple[int, int] | None
        if pos in meld_of_pos:
            ms = meld_slots[meld_of_pos[pos]]
            slot = ms.pop(0) if ms else None
        elif i == total - 1 and win_slot is not None:
            slot = win_slot
        else:
            # a stand-in as itself (七风's 白板) before one read as the face
            slot = None
            for j, sl in enumerate(concealed_slots):
                if sl[0] == st:
                    slot = concealed_slots.pop(j)
                    break
            if slot is None and concealed_slots:
                slot = concealed_slots.pop(0)
        reads, group = slot if slot is not None else (face, -1)
        out.append({"index": i, "position": pos, "tile": T.name(st), "reads": T.name(reads),
                    "as_self": reads == st, "group": group})
    return out


def stand_in_text(result: Result, s: Scored | None = None, lang: str = "en") -> str:
    """How the stand-in tiles read, e.g. ``P ×2 → 3m, 3m``; '' if the hand holds none.

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> stand_in_text(score("2mP4m456p789s234s55s", "jinhua", Context(self_draw=True,
    ...                     wild="3m")))
    'P ×1 → 3m'
    """
    sm = stand_in_map(result, s)
    if not sm:
        return ""
    return f"{sm[0]['tile']} ×{len(sm)} → {reads_text(sm, lang)}"


def reads_text(tiles: list[dict[str, Any]], lang: str = "zh") -> str:
    """What physical tiles became, repeats counted: ``9m, 5s``, ``3m (itself) ×3``.

    >>> reads_text([{"reads": "3m", "as_self": True}] * 3, "en")
    '3m (itself) ×3'
    """
    out: dict[str, int] = {}
    for x in tiles:
        text = t("reads_itself", lang, tile=x["reads"]) if x["as_self"] else x["reads"]
        out[text] = out.get(text, 0) + 1
    return ", ".join(k + (f" ×{n}" if n > 1 else "") for k, n in out.items())


def group_texts(result: Result, s: Scored | None = None) -> list[str]:
    """Each group of the reading as written in the report: a wildcard's tile with ``*``, a
    stand-in played as the face with ``~``, the group the winning tile completed with ``←``.

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> group_texts(score("2mP4m456p789s234s55s", "jinhua", Context(self_draw=True, wild="3m")))
    ['23~4m', '456p', '234s', '789s', '55s←']
    """
    return _group_texts(result, (s or result.best).reading)


def _group_texts(result: Result, reading: Reading) -> list[str]:
    stand: defaultdict[int, int] = defaultdict(int)
    for x in _stand_ins(result, reading):
        if not x["as_self"] and x["group"] >= 0:
            stand[x["group"]] += 1
    face = result.table.wild.face
    out = []
    for k, g in enumerate(reading.groups):
        text = _marked_group(g, face, stand[k]) if stand[k] else describe_group(g)
        out.append(text + (WIN_MARK if k == reading.win else ""))
    return out


def _marked_group(g: Group, face: int | None, stand_ins: int) -> str:
    """A group with its wildcard tiles marked ``*`` and ``stand_ins`` natural copies of the
    face marked ``~`` (describe_group's spelling otherwise: ``23~4m``, ``[2*3~4m]``)."""
    wild = list(g.wild)
    left = stand_ins
    parts: list[str] = []
    for x in g.tiles:
        mark = ""
        if x in wild:
            wild.remove(x)
            mark = WILD_MARK
        elif x == face and left:
            left -= 1
            mark = STAND_IN_MARK
        name = T.name(x)
        parts.append(name[:-1] + mark + name[-1] if x < 27 else name + mark)
    return join_group(g, parts)


def legend(result: Result, lang: str = "zh", s: Scored | None = None) -> str:
    """The one line that explains the reading's marks, in a ruleset with wildcards; ''
    in one without (MCR, Sichuan), whose readings carry only ``←``.

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> legend(score("2mP4m456p789s234s55s", "jinhua", Context(self_draw=True, wild="3m")), "en")
    '~ = P standing in for 3m · ← = completed by the winning tile'
    """
    rs, spec = result.ruleset, result.table.wild
    if rs.wildcard is None:
        return ""
    s = s or result.best
    items = []
    # only the marks this reading carries (and ←, which every reading has)
    if spec.face is not None and any(g.wild for g in s.reading.groups):
        word = wildcard_word(rs, lang)
        items.append(t("legend_wild", lang, mark=WILD_MARK, face=T.name(spec.face)).replace(
            "财神" if lang == "zh" else "wildcard", word, 1))
    if spec.face is not None and any(not x["as_self"] for x in stand_in_map(result, s)):
        items.append(t("legend_stand_in", lang, mark=STAND_IN_MARK,
                       tile=T.name(spec.stand_in or 0), face=T.name(spec.face)))
    items.append(t("legend_win", lang, mark=WIN_MARK))
    return " · ".join(items)


def _shape_word(shape: str, lang: str) -> str:
    from .i18n import MESSAGES

    key = "shape." + shape
    return t(key, lang) if key in MESSAGES else shape.replace("_", " ")


def reading_text(result: Result, s: Scored | None = None, lang: str = "zh") -> str:
    """The reading line: the marked groups, then the shape, e.g.
    ``123m 456p 234s 789s 9*9m←   (standard)``; in a ruleset without wildcards the
    shape is followed by what ``←`` means (there is no legend line there)."""
    s = s or result.best
    shape = _shape_word(s.reading.shape, lang)
    if result.ruleset.wildcard is None:
        shape += ("；" if lang == "zh" else "; ") + t("legend_win", lang, mark=WIN_MARK)
    open_, close = ("（", "）") if lang == "zh" else ("(", ")")
    return " ".join(group_texts(result, s)) + f"   {open_}{shape}{close}"


# ----------------------------------------------------------------------------- why lines
def wait_patterns(s: Scored) -> list[Hit]:
    """The patterns of a reading that hinge on the wait: those whose condition or value
    reads a fact of :data:`~scorer.rules.facts.WAIT_FACTS` (``lone_wild``, ``wait``)."""
    return [h for h in s.hits if reads_wait(h.pattern)]


def reads_wait(p: Any) -> bool:
    """Whether pattern ``p``'s condition or value reads a fact of
    :data:`~scorer.rules.facts.WAIT_FACTS` (its why line says what the hand waited on)."""
    return not (WAIT_FACTS.isdisjoint(p.when.names) and WAIT_FACTS.isdisjoint(p.value.names))


def why_text(result: Result, lang: str = "zh", s: Scored | None = None) -> str:
    """The hand without its winning tile and what it waited on, in players' words, e.g.
    ``without the winning 9m: 123m 456p 234s 789s + a lone 财神 — waiting on every tile``.

    The groups are the reading's other groups; what is left of the winning tile's group
    is "a lone 财神" (a wildcard), "a lone 9m" (a tile), or the partial set (``12m``).
    """
    from ..engine.waitfacts import wait_facts

    return _why(result, (s or result.best).reading, wait_facts(result), lang)


def refusal_text(d: Refusal, lang: str = "zh") -> str:
    """:func:`why_text` for a refusal by a check that reads the wait, from the reading and
    the waits the engine handed over (:class:`~scorer.engine.scoring.Refusal`)."""
    return _why(d, d.reading, d.waits, lang)


def _why(result: Result | Refusal, r: Reading, facts: Any, lang: str) -> str:
    win = result.hand.winning
    texts = _group_texts(result, r)  # type: ignore[arg-type]
    rest = [x for k, x in enumerate(texts) if k != r.win]
    g = r.win_group
    if g is not None:
        left = list(g.tiles)
        wild = list(g.wild)
        # take the winning tile out of its group: a wildcard slot if it was a wildcard
        if r.win_wild and wild:
            w = wild.pop(0)
            left.remove(w)
        else:
            natural = r.win_natural if r.win_natural is not None else win
            if natural in left:
                left.remove(natural)
        if len(left) == 1:
            lone = wildcard_word(result.ruleset, lang) if wild else T.name(left[0])
            rest.append(t("why_lone", lang, tile=lone))
        elif left:
            rest.append("+ " + describe_group(Group(g.kind, tuple(left), tuple(wild))))
    if facts.any_tile:
        waiting = t("why_any", lang)
    elif len(facts.tiles) == 1:
        waiting = t("why_one", lang, tile=T.name(next(iter(facts.tiles))))
    elif facts.tiles:
        waiting = t("why_tiles", lang, tiles=" ".join(T.name(x) for x in sorted(facts.tiles)))
    else:
        waiting = t("why_not_ready", lang)
    return t("why_without", lang, tile=T.name(win), rest=" ".join(rest)) + " — " + waiting


def why_lines(result: Result, lang: str = "zh", s: Scored | None = None) -> list[str]:
    """One line naming the patterns that hinge on the wait, and why they apply; [] when no
    pattern of the reading reads the wait, e.g. ``暴头: without the winning 9m: …``."""
    s = s or result.best
    hits = wait_patterns(s)
    if not hits:
        return []
    names = ", ".join(_tiered_name(result.ruleset, h, s, lang) for h in hits)
    try:
        why = why_text(result, lang, s)
    except MjscoreError:  # the waits could not be worked out: the report goes on without
        return []
    return [t("why_names", lang, names=names, why=why)]


# ----------------------------------------------------------------------------- tiers
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([^{}]*))?\}")


def tier_name(h: Hit, s: Scored, lang: str = "zh") -> str:
    """The name of the tier a pattern reached (its ``tiers:``), or '' when it names none.

    The first tier whose ``when`` holds names it; ``{fact}`` in a name is the fact's
    number, ``{fact:a|b|c}`` the fact's value-th alternative (the last one beyond):
    ``{luxury:|豪华|双豪华|三豪华}七对子``. A name that comes out as the pattern's own
    name is no tier.
    """
    for tier in getattr(h.pattern, "tiers", ()):
        try:
            if not tier.when(s.env):
                continue
        except Exception:  # a tier's condition never stops a report
            continue
        text = _fill(tier.name if lang == "zh" else tier.name_en, s.env)
        return "" if text.casefold() == pattern_name(h, lang).casefold() else text
    return ""


def _fill(template: str, env: Any) -> str:
    def one(m: re.Match[str]) -> str:
        try:
            v = env[m.group(1)]
        except Exception:
            return m.group(0)
        if m.group(2) is None:
            return str(v)
        alts = m.group(2).split("|")
        return alts[min(max(int(v), 0), len(alts) - 1)]

    return _PLACEHOLDER.sub(one, template)


def _tiered_name(rs: Ruleset, h: Hit, s: Scored, lang: str) -> str:
    tier = tier_name(h, s, lang)
    return f"{tier} ({pattern_name(h, lang)})" if tier else pattern_name(h, lang)


def _named(rs: Ruleset, h: Hit, s: Scored, lang: str) -> str:
    """A pattern as the chain shows it: ``暴头``, ``暴头 (2^…)``, or with its tier
    ``双财飘 (财飘: 2^(飘 2 + 1))``."""
    tier = tier_name(h, s, lang)
    formula = _formula(rs, h, s, lang).strip()
    if tier:
        inner = pattern_name(h, lang) + (f": {formula[1:-1]}" if formula else "")
        return f"{tier} ({inner})"
    return pattern_name(h, lang) + (f" {formula}" if formula else "")


# ----------------------------------------------------------------------------- chains
def chain_lines(rs: Ruleset, s: Scored, lang: str = "zh") -> list[str]:
    """One line per tally that got a value: the patterns and how they combine.

    A ``max`` tally shows the one pattern taken (``游金 = k 4``); a ``product``
    tally its factors (``清一色 ×4 × 海底捞月 ×2 = ×8``); a ``sum`` tally every
    contribution, naming what each pattern with ``each`` counted and adding what
    other patterns gave through ``also`` (``风暗刻 EEE 2 + 金牌 1×2 = 水 4``). A pattern
    that reached a named tier shows it (``双财飘 (财飘: 2^(飘 2 + 1)) = 番 8``).
    """
    lines: list[str] = []
    for tl in rs.tallies:
        if tl.hidden:  # a marker for the payment, not a step of the calculation
            continue
        hits = [h for h in s.hits if h.pattern.tally == tl.name]
        extra = [(p, v) for tname, p, v in s.also if tname == tl.name]
        label = tl.label if lang == "zh" else tl.label_en
        if not hits and not extra:
            continue
        if tl.combine == "max":
            parts = [f"{_named(rs, h, s, lang)} = {label} {h.value}" for h in hits[:1]]
            parts += [f"{pattern_name(p, lang)} {v}" for p, v in extra]
            lines.append("; ".join(parts))
        elif tl.combine == "product":
            items = []
            for h in hits:
                tier = tier_name(h, s, lang)
                name = f"{tier} ({pattern_name(h, lang)})" if tier else pattern_name(h, lang)
                items.append(f"{name} ×{h.value}" + (f"^{h.count}" if h.count > 1 else "")
                             + _formula(rs, h, s, lang))
            items += [f"{pattern_name(p, lang)} ×{v}" for p, v in extra]
            lines.append(" × ".join(items) + f" = ×{s.tallies[tl.name]}")
        else:
            items = []
            for h in hits:
                if h.items and h.pattern.each is not None:
                    elem = elem_of(h.pattern.each.type)
                    items += [f"{pattern_name(h, lang)} {_item_text(x, elem)} {h.value}"
                              for x in h.items]
                else:
                    tier = tier_name(h, s, lang)
                    name = f"{tier} ({pattern_name(h, lang)})" if tier else pattern_name(h, lang)
                    items.append(f"{name} {h.value}"
                                 + (f"×{h.count}" if h.count > 1 else "")
                                 + _formula(rs, h, s, lang))
            items += [f"{pattern_name(p, lang)} {v}" for p, v in extra]
            lines.append(" + ".join(items) + f" = {label} {s.tallies[tl.name]}".rstrip())
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
    text = _render(rs, h.pattern.value, s.env, lang, labels)
    # a formula that comes down to a bare number (a choice between constants) says nothing more
    return "" if text.strip() == str(h.value) else f" ({text})"


# formula_text() of a formula depends only on the expression, the values of the names it uses,
# the labels and the language: a batch renders the same payment formula with the same few
# values again and again (25-44 µs a hand went into to_json). Remembered by the ruleset
# (a held memo: it goes with the ruleset), by where the expression is written and its
# text, the labels it is shown with (a pattern's or the payment's), the language and the
# values, of plain types and already computed.
RENDERED = 4096
_PLAIN = (int, str, bool, float, type(None))


def _render(rs: Ruleset, c: Any, env: Any, lang: str,
            lab: Callable[[Ruleset, str], dict[str, str]]) -> str:
    """``formula_text(c, env, lab(rs, lang))``, remembered by the values it shows."""
    values: list[Any] = [c.where, c.src, lab is labels, lang]
    for n in c.names:  # one order for one expression: a frozenset that never changes
        v = dict.get(env, n, _render)  # dict.get: never computes a fact not yet needed
        if type(v) not in _PLAIN:
            return formula_text(c, env, lab(rs, lang))
        values += (type(v), v)  # 1, 1.0 and True are equal keys but print apart
    memo: Memo[tuple[Any, ...], str] = held(rs, "views.rendered", RENDERED)
    key = tuple(values)
    text = memo.get(key)
    return text if text is not None else memo.put(key, formula_text(c, env, lab(rs, lang)))


def payment_lines(result: Result, s: Scored | None = None, lang: str = "zh") -> list[str]:
    """Return each distinct payer calculation, e.g. ``底分 1 × 庄闲分 1 × 番 2 = 2，S, N 各付``
    (zh) or ``base 1 × dealer factor 1 × fan 2 = 2 from each of S, N`` (en)."""
    s = s or result.best
    rs = result.ruleset
    # the discarder (or the player whose kong was robbed) is named, as players say "放铳 W pays"
    disc = result.table.discarder if not result.table.self_draw else None
    # A settlement is shared by every hand with the same payment inputs (the engine's
    # payment cache), and its lines depend on nothing else: remembered by the settlement
    # (a held memo: a hand's own settlement, which reaches its readings, goes with it)
    return list(paid(s.settlement).get_or(("lines", lang, disc),
                                          lambda: tuple(_payment_lines(rs, s, lang, disc))))


def paid(settlement: Any) -> Memo[tuple[Any, ...], Any]:
    """What a settlement's views remember of it (its payment lines, their JSON), by
    language and discarder: a memo held by the settlement."""
    return held(settlement, "views.paid", 16)


def _payment_lines(rs: Ruleset, s: Scored, lang: str, disc: str | None) -> list[str]:
    lab = labels(rs, lang)
    lab.setdefault("score", rs.label("score", lang))
    groups: dict[str, list[str]] = {}
    tag = rs.label("discarder", lang) if "discarder" in rs.labels else t("discarder", lang)
    shares = sorted(s.settlement.shares, key=lambda sh: sh.payer != disc)  # discarder first
    open_, close = ("（", "）") if lang == "zh" else (" (", ")")
    for share in shares:
        if not share.pays:
            continue
        text = _render(rs, rs.payment.amount, share.env, lang, lambda _rs, _lang: lab) + (
            f" = {share.amount}")
        groups.setdefault(text, []).append(
            f"{share.payer}{open_}{tag}{close}" if share.payer == disc else share.payer)
    lines = []
    for text, payers in groups.items():
        who = (t("from_each", lang, payers=", ".join(payers)) if len(payers) > 1
               else t("from_one", lang, payer=payers[0]))
        lines.append(text + who)
    for a, b, who, amount in s.settlement.chengbao:
        key = "chengbao" if who == b else "dao_chengbao"
        lines.append(t(key, lang, a=a, b=b, who=who, amount=amount))
    return lines


# ----------------------------------------------------------------------------- human report
def _claimed(rs: Any) -> str:
    """`` (hangzhou from my.yaml)`` for a file that takes a built-in ruleset's id, else "":
    its scores are the file's, and the report says so (docs/robustness.md#provenance)."""
    from ..rules.files import list_builtin

    return f" ({rs.id} from {rs.file})" if not rs.trusted and rs.id in list_builtin() else ""


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
    return t("winner_line", lang, name=f"{rs.name} {rs.name_en}{_claimed(rs)}", seat=result.winner,
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
          top: int | None = None) -> str:
    """The report for people settling a hand at the table (``explain``: with the
    readings considered, the best ``top`` of them)."""
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
    lines.append("")
    lines.append(seat_table(result, s, lang))
    if explain:
        lines.append("")
        lines.append(explain_text(result, lang, top))
    return "\n".join(lines)


def _pad(head: str) -> str:
    from .i18n import display_width

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


def refusal_why(e: NotAWin, lang: str = "zh") -> str:
    """The why :func:`refused` attached to a refusal, in ``lang``, or ''."""
    why = e.params.get("why")
    return str(why.get(lang) or "") if isinstance(why, dict) else ""


def refused(e: NotAWin, hand: str | Hand | None = None, rules: str | Ruleset | None = None,
            ctx: Any = None, lang: str = "zh") -> tuple[str, NotAWin]:
    """What the report shows for a hand that is no legal win, and the error to exit with,
    from what the engine handed over (nothing is scored again, no message is read).

    The error stays one line (docs/contract.md). A win below the ruleset's minimum (MCR's
    8 fan) names the fans found in it, so the table sees what is missing: ``below the
    8-fan minimum: 2 fan without flowers (幺九刻 1 + 单钓将 1 = 番 2)``. A win refused by a
    check that reads the wait (:data:`~scorer.rules.facts.WAIT_FACTS`: 暴头 on a discard)
    gets its why from the engine's :class:`~scorer.engine.scoring.Refusal` ("without the
    winning 9m: … + a lone 财神 — waiting on every tile"). The why is the parameter
    ``why`` ({zh, en}) of the error returned. ``hand``, ``rules`` and ``ctx`` are unused
    (kept for callers of earlier releases).
    """
    d = e.details
    if isinstance(d, Result) and e.reason == "below_minimum":
        why = {lg: patterns_chain(d.ruleset, d.best, lg) for lg in ("zh", "en")}
    elif isinstance(d, Refusal) and d.waits is not None:
        why = {lg: refusal_text(d, lg) for lg in ("zh", "en")}
    else:
        return "", e
    if not why["en"]:
        return "", e
    return "", NotAWin(e.code, e.reason, d, **{**e.params, "why": why})


def _name_of(rs: Ruleset, pid: str | None, lang: str) -> str:
    if pid is None:
        return "?"
    p = rs.pattern(pid)
    return p.name if lang == "zh" else p.name_en


# ----------------------------------------------------------------------------- --explain
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


def explain_text(result: Result, lang: str = "zh", top: int | None = None) -> str:
    """The readings considered, best first, one row per distinct reading: its patterns
    (the alternatives it could count joined by "or"), score, what the winner gets and why
    it was not chosen; the best ``top`` (:data:`DEFAULT_TOP`), then "and K more"."""
    from tabulate import tabulate

    groups = distinct_readings(result)
    ruled_out = excluded_readings(result, lang)
    n = DEFAULT_TOP if top is None else max(top, 1)
    rows: list[list[Any]] = []
    w = result.winner
    sep = f" {t('or', lang)} "
    for k, alts in enumerate(groups[:n]):
        s = alts[0]
        shape = _shape_word(s.reading.shape, lang)
        pats = sep.join(_pats(x, lang) or "—" for x in alts)
        rows.append([k + 1, shape, " ".join(group_texts(result, s)), pats,
                     " / ".join(str(x.score) for x in alts),
                     " / ".join(f"{x.payments[w]:+d}" for x in alts), why_lost(result, s, lang)])
    for k, (reading, message) in enumerate(ruled_out[:max(0, n - len(groups))]):
        rows.append([len(groups) + k + 1, _shape_word(reading.shape, lang),
                     " ".join(_group_texts(result, reading)), "—", "—", "—",
                     t("lost_excluded", lang, msg=message)])
    total = len(groups) + len(ruled_out)
    head = t("explain_head", lang, n=total)
    table = tabulate(rows, headers=[t(c, lang) for c in (
        "col_num", "col_shape", "col_reading", "col_patterns", "col_score", "col_winner",
        "col_why_lost")], tablefmt="simple", maxcolwidths=[None, None, 40, 36, None, None, 24])
    out = head + "\n" + table
    if total > n:
        out += "\n" + t("explain_more", lang, k=total - n, total=total)
    return out


def excluded_readings(result: Result, lang: str = "zh") -> list[tuple[Reading, str]]:
    """The readings a rule of the ruleset ruled out (a reading-level ``not_a_win`` check),
    each once, with the rule's message in ``lang``."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for reading, params in getattr(result, "excluded", ()):
        key = (reading.shape, *_group_texts(result, reading))
        if key not in seen:
            seen.add(key)
            out.append((reading, body("rule.refused", params, lang) if params else ""))
    return out


# ----------------------------------------------------------------------------- JSON
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
            "decomposition": s.reading.describe(),
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


def hit_json(h: Hit, s: Scored | None = None, lang: str = "zh") -> dict[str, Any]:
    """One pattern of a reading; a pattern with ``each`` also lists what it counted, one
    that reached a named tier gives it (``"tier": {"zh": "双财飘", "en": ...}``).

    e.g. ``{"id": "fengank", ..., "value": 2, "count": 1, "items": ["NNN"]}``.
    """
    out: dict[str, Any] = {"id": h.pattern.id, "name": h.pattern.name,
                           "name_en": h.pattern.name_en, "value": h.value, "count": h.count}
    if h.pattern.each is not None:
        elem = elem_of(h.pattern.each.type)
        out["items"] = [_item_text(x, elem) for x in h.items]
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


def explain_json(result: Result, lang: str = "zh") -> list[dict[str, Any]]:
    """Every distinct reading considered, best first (for ``--explain --json``); a reading
    that could count other patterns lists them under ``alternatives``."""
    out = []
    for alts in distinct_readings(result):
        s = alts[0]
        item: dict[str, Any] = {
            "shape": s.reading.shape, "decomposition": s.reading.describe(),
            "reading": group_texts(result, s), "patterns": [hit_json(h, s) for h in s.hits],
            "score": s.score, "payments": dict(s.payments),
            "why_not": None if s is result.best else why_lost(result, s, "en")}
        if len(alts) > 1:
            item["alternatives"] = [{"patterns": [hit_json(h, x) for h in x.hits],
                                     "score": x.score, "payments": dict(x.payments)}
                                    for x in alts[1:]]
        out.append(item)
    for reading, message in excluded_readings(result, lang):
        out.append({"shape": reading.shape, "decomposition": reading.describe(),
                    "reading": _group_texts(result, reading), "excluded": message})
    return out
