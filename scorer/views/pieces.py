"""The pieces every view shows of a scored hand, worded in zh or en: rendering only.

The report (:mod:`.report`), the JSON (:mod:`.jsondata`, :mod:`.jsontext`), the readings
of ``--explain`` (:mod:`.explain`), ``waits`` (:mod:`.waits`), the rules pages and
``--vs`` (:mod:`.dispute`) all show the same things of a hand, and take them from here,
each worded from the catalogue (:mod:`scorer.text.words`):

* the reading as marked groups: ``*`` a wildcard playing the tile it precedes, ``~`` a
  stand-in (Jinhua's 白板) played as the wildcard's face, ``←`` the group the winning
  tile completed (which physical tile stood for which slot is the search's:
  :mod:`scorer.search.slots`), and the legend line that explains the marks;
* a pattern that hinges on the wait (its condition reads a fact of
  :data:`scorer.rules.facts.WAIT_FACTS`) gets a "why": the hand without its winning tile
  and what it waited on (the wait facts the engine worked out, never a second search);
* the chain of patterns per tally, a tier's name beside its formula (``双财飘 (财飘:
  2^(飘 2 + 1)) = 番 8``), and the payment lines;
* a refusal's why, attached to the error as ``{zh, en}`` (:func:`refused`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..engine.fields import WildcardReading, decomposition_of, payment_chain_of, wildcards_of
from ..engine.result import Hit, Refusal, Result, Scored
from ..errors import MjscoreError, NotAWin
from ..lang import GROUP, TILE, Type, elem_of, formula_text
from ..memo import Memo, held
from ..model import tiles as T
from ..model.hand import Hand
from ..rules.facts import WAIT_FACTS
from ..rules.model import Ruleset
from ..search.decompose import Group
from ..search.readings import Reading, describe_group, join_group
from ..search.slots import Slot, marked_counts, stand_in_slots
from ..text.words import WORDS
from .i18n import t

WILD_MARK = "*"  # a wildcard playing the tile it follows (as in the notation)
STAND_IN_MARK = "~"  # a stand-in (白板) played as the wildcard's face
WIN_MARK = "←"  # the group the winning tile completed


def pattern_name(h: Hit | Any, lang: str) -> str:
    """The pattern's name in ``lang``, e.g. ``暴头`` or ``Wildcard pair (bao tou)``."""
    p = h.pattern if isinstance(h, Hit) else h
    return p.name if lang == "zh" else p.name_en


def ruleset_name(rs: Ruleset, lang: str) -> str:
    """A ruleset's name as a title says it: its Chinese name under zh, both names under en
    (the Chinese one is what the table calls it).

    >>> from scorer.rules.load import load_ruleset
    >>> ruleset_name(load_ruleset("mcr"), "zh"), ruleset_name(load_ruleset("mcr"), "en")
    ('国标麻将', '国标麻将 Chinese Official (MCR)')
    """
    return rs.name if lang == "zh" else f"{rs.name} {rs.name_en}"


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


# ----------------------------------------------------------------------------- wildcards
def wildcard_map(result: Result, s: Scored | None = None) -> list[dict[str, Any]]:
    """What each physical wildcard tile stands for in a reading (the result's
    :attr:`~scorer.engine.result.Result.wildcards`), one dict per tile as JSON shows it:
    ``index`` (among the tiles as typed), ``position`` (character), ``face``, ``reads``,
    ``as_self`` and ``group`` (the index of the reading's group it sits in).

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> wildcard_map(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))
    [{'index': 12, 'position': 17, 'face': 'P', 'reads': '9m', 'as_self': False, 'group': 4}]
    """
    return [{"index": w.nth, "position": w.position, "face": w.tile, "reads": w.reads,
             "as_self": w.as_self, "group": w.set} for w in _wildcards(result, s)
            if not w.stand_in]


def stand_in_map(result: Result, s: Scored | None = None) -> list[dict[str, Any]]:
    """What each physical stand-in tile (Jinhua's and Xiamen's 白板) is in a reading (the
    stand-ins of :attr:`~scorer.engine.result.Result.wildcards`), one dict per tile:
    ``index``, ``position``, ``tile`` (``P``), ``reads`` (the wildcard's face, or the tile
    itself where a shape lets it count as itself), ``as_self``, ``group``."""
    return [{"index": w.nth, "position": w.position, "tile": w.tile, "reads": w.reads,
             "as_self": w.as_self, "group": w.set} for w in _wildcards(result, s)
            if w.stand_in]


def _wildcards(result: Result, s: Scored | None) -> tuple[WildcardReading, ...]:
    """The wildcards of reading ``s`` (the best when None): the result's own field for
    its best reading."""
    if s is None or s is result.best:
        return result.wildcards
    return wildcards_of(result.hand, s.reading, result.table.wild)


def _stand_ins(result: Result | Refusal, reading: Reading) -> list[Slot]:
    spec = result.table.wild
    return stand_in_slots(result.hand, reading, spec.face, spec.stand_in)


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


def sets_text(reading: Reading) -> list[str]:
    """The sets of a reading as JSON's ``decomposition`` writes them: the ``text`` of each
    :class:`~scorer.engine.fields.TileSet` (:attr:`Result.decomposition
    <scorer.engine.result.Result.decomposition>` for the best reading).

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> sets_text(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)).best.reading)
    ['123m', '456p', '234s', '789s', '9*9m']
    """
    return [x.text for x in decomposition_of(reading)]


def group_texts(result: Result, s: Scored | None = None) -> list[str]:
    """Each group of the reading as written in the report: a wildcard's tile with ``*``, a
    stand-in played as the face with ``~``, the group the winning tile completed with ``←``.

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> group_texts(score("2mP4m456p789s234s55s", "jinhua", Context(self_draw=True, wild="3m")))
    ['23~4m', '456p', '234s', '789s', '55s←']
    """
    return reading_groups(result, (s or result.best).reading)


def reading_groups(result: Result | Refusal, reading: Reading) -> list[str]:
    """:func:`group_texts` of any reading of the hand (a reading ruled out, or the one a
    refusal holds)."""
    stand = marked_counts(_stand_ins(result, reading))
    face = result.table.wild.face
    out = []
    for k, g in enumerate(reading.groups):
        n = stand.get(k, 0)
        text = _marked_group(g, face, n) if n else describe_group(g)
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


def shape_word(shape: str, lang: str) -> str:
    """A reading's shape in ``lang``, from the catalogue's ``shape.NAME`` (its one home).

    >>> shape_word("seven_pairs", "zh"), shape_word("odd_shape", "en")
    ('七对', 'odd shape')
    """
    key = "shape." + shape
    return t(key, lang) if key in WORDS else shape.replace("_", " ")


def reading_text(result: Result, s: Scored | None = None, lang: str = "zh") -> str:
    """The reading line: the marked groups, then the shape, e.g.
    ``123m 456p 234s 789s 9*9m←   (standard)``; in a ruleset without wildcards the
    shape is followed by what ``←`` means (there is no legend line there)."""
    s = s or result.best
    shape = shape_word(s.reading.shape, lang)
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
    from ..engine.waitfacts import wait_facts  # (on first use: not on a plain score's path)

    return _why(result, (s or result.best).reading, wait_facts(result), lang)


def refusal_text(d: Refusal, lang: str = "zh") -> str:
    """:func:`why_text` for a refusal by a check that reads the wait, from the reading and
    the waits the engine handed over (:class:`~scorer.engine.result.Refusal`)."""
    return _why(d, d.reading, d.waits, lang)


def _why(result: Result | Refusal, r: Reading, facts: Any, lang: str) -> str:
    win = result.hand.winning
    texts = reading_groups(result, r)
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
    names = ", ".join(tiered_name(result.ruleset, h, s, lang) for h in hits)
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


def tiered_name(rs: Ruleset, h: Hit, s: Scored, lang: str) -> str:
    """A pattern's name with the tier it reached: ``双财飘 (财飘)``, or the name alone."""
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
                    items += [f"{pattern_name(h, lang)} {item_text(x, elem)} {h.value}"
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


def item_text(x: Any, elem: Type | None) -> str:
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
    """The payment lines of reading ``s``, rendered from its payment chain
    (:func:`scorer.engine.fields.payment_chain_of`): each share's formula from the values
    it was computed from, the 承包 moves."""
    chain = payment_chain_of(rs, s)
    envs = {sh.payer: sh.env for sh in s.settlement.shares}
    lab = labels(rs, lang)
    lab.setdefault("score", rs.label("score", lang))
    groups: dict[str, list[str]] = {}
    tag = rs.label("discarder", lang) if "discarder" in rs.labels else t("discarder", lang)
    shares = sorted(chain.shares, key=lambda sh: sh.payer != disc)  # discarder first
    open_, close = ("（", "）") if lang == "zh" else (" (", ")")
    amount = rs.payment.amount
    for share in shares:
        if not share.pays:
            continue
        values: Any = dict(share.values)
        if not amount.names <= values.keys():  # (a value of no plain type: as computed)
            values = envs[share.payer]
        text = _render(rs, amount, values, lang, lambda _rs, _lang: lab) + f" = {share.amount}"
        groups.setdefault(text, []).append(
            f"{share.payer}{open_}{tag}{close}" if share.payer == disc else share.payer)
    lines = []
    for text, payers in groups.items():
        who = (t("from_each", lang, payers=", ".join(payers)) if len(payers) > 1
               else t("from_one", lang, payer=payers[0]))
        lines.append(text + who)
    for m in chain.chengbao:
        key = "chengbao" if m.payer == m.b else "dao_chengbao"
        lines.append(t(key, lang, a=m.a, b=m.b, who=m.payer, amount=m.amount))
    return lines


# ----------------------------------------------------------------------------- refusals


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
    gets its why from the engine's :class:`~scorer.engine.result.Refusal` ("without the
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
