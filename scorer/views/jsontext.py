"""The JSON of a result as text, made from remembered, already-encoded fragments.

:func:`json_text` writes exactly what ``json.dumps(to_json(result, lang),
ensure_ascii=False)`` writes (the same keys in the same order, the same spacing and
escaping), without building the record's dicts and lists and encoding them again for
every hand. A batch meets the same pieces again and again: a pattern's entry, a reading
with the wildcards where they were typed, a payment table, the flags of a context. Each
piece is encoded once by the standard encoder and remembered by what it is made of; the
record is the pieces joined with the encoder's own separators (``", "`` and ``": "``), so
it is byte for byte the encoder's text (tests/views/test_jsontext.py compares the two on every
example, golden and generated hand of every ruleset).

Every memo is a bounded :class:`~scorer.memo.Memo` (emptied when full, like the
engine's), keyed by values, and holds only text. What depends on one ruleset is
remembered in memos the ruleset holds (:func:`scorer.memo.held`: they go with it), what
depends on one settlement in the settlement's (:func:`scorer.views.pieces.paid`), what
depends on one context in its table's memo (shared by the hands of that context), the
rest in named memos of this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..engine.result import Result, Scored
from ..errors import MjscoreError, NotAWin
from ..memo import Memo, forget, kept
from ..rules.flags import echo
from ..rules.model import Ruleset
from .i18n import t
from .jsondata import error_fields, hit_json
from .pieces import (
    group_texts,
    legend,
    paid,
    patterns_chain,
    payment_lines,
    reads_wait,
    sets_text,
    stand_in_map,
    tiered_name,
    why_lines,
    why_text,
    wildcard_map,
)

__all__ = ["BODY", "Body", "Encoded", "clear", "error_member", "error_record", "json_body",
           "json_text", "jsonl_line"]

# json.dumps(ensure_ascii=False) is this encoder's encode (scorer.views.rows uses the same)
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
LIMIT = 4096  # entries per memo before it is emptied
# ... and per memo of a hand's own parts (one entry per distinct hand, each up to a few KB
# of text: a batch of distinct hands holds no more than the decomposition caches' thousand
# or two hands' worth; tests/hostile/test_robust.py's slow tests hold its memory flat)
HANDS = 2048


# what _ENCODE writes for a str, without the encoder's Python-level dispatch to it
_STR: Callable[[str], str] = json.encoder.encode_basestring


def _num(x: Any) -> str:
    """A number as the encoder writes it (an int's repr; anything else through it)."""
    return int.__repr__(x) if type(x) is int else _ENCODE(x)


# A flat member of a record (a refusal's "error": kind, message, reason, exit) by its
# items and their types (True and 1 are equal keys, but not the same JSON): a batch of
# MCR hands meets a few dozen distinct ones, and encoding one cost 4 µs of a line's 7.
_FLAT: Memo[tuple[Any, ...], str] = Memo(LIMIT, "views.jsontext.flat")
_PLAIN = (str, int, bool, type(None))


def _value(v: Any) -> str:
    """A member of a record as the encoder writes it (see :func:`jsonl_line`).

    >>> _value("二"), _value(3), _value({"kind": "not_a_win", "exit": True}), _value([1.5])
    ('"二"', '3', '{"kind": "not_a_win", "exit": true}', '[1.5]')
    """
    t = type(v)
    if t is str:
        return _STR(v)
    if t is dict and len(v) <= 8:
        items: list[Any] = []
        for k, y in v.items():
            if type(k) is not str or type(y) not in _PLAIN:
                return _ENCODE(v)
            items += (k, type(y), y)
        key = tuple(items)
        hit = _FLAT.get(key)
        return hit if hit is not None else _FLAT.put(key, _ENCODE(v))
    return _num(v)  # (an int as its repr; anything else through the encoder)


def json_text(result: Result, lang: str = "zh", paid: bool = True) -> str:
    """Return ``json.dumps(to_json(result, lang), ensure_ascii=False)``, byte for byte.

    With ``paid=False``, the record of a win refused below the ruleset's minimum as
    :func:`~scorer.views.jsondata.error_json` makes it: no ``payments`` and no
    ``best.payment_chain`` (nobody pays for a hand that is no win).

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> json_text(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))[:44]
    '{"ruleset": "hangzhou", "hand": "123m456p234'
    """
    return "{" + json_body(result, lang, paid).text + "}"


def json_body(result: Result, lang: str = "zh", paid: bool = True) -> Body:
    """:func:`json_text` without its braces: the record's members, to go among others
    (:func:`jsonl_line`); its ``fields`` are the members a batch's ledger reads.

    >>> from scorer.engine.scoring import score
    >>> from scorer.engine.context import Context
    >>> b = json_body(score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)))
    >>> b.text[:23], b.fields["winner"]
    ('"ruleset": "hangzhou", ', 'E')
    """
    rs, s = result.ruleset, result.best
    f = fragments(rs)
    key = _reading_key(result, s, lang)
    reading_a, reading_b = _reading_parts(f, result, s, lang, key)
    patterns, tallies, chain = _scored_parts(f, rs, s, lang)
    parts = [f.head, _hand_part(result), '"best": {"score": ', _num(s.score), ', "patterns": [',
             patterns, "], ", reading_a, ', "tallies": ', tallies,
             ', "replaced": ', "[]" if not s.replaced else _replaced_text(f, s),
             ", ", reading_b, ', "why": ', _why_text(f, result, s, lang, key), ', "chain": ',
             chain]
    pay, lines = _payment_parts(result, s, lang)
    if paid:
        parts += [', "payment_chain": ', lines, '}, "payments": ', pay, ", "]
    else:
        parts.append("}, ")
    who, flags = _context_parts(result)
    parts += [who, '"readings": ', _num(len(result.candidates)), flags, f.tail]
    return Body("".join(parts), {"payments": dict(s.payments), "winner": result.winner}
                if paid else {"winner": result.winner})


def error_record(e: MjscoreError, lang: str = "zh", exit: bool = False) -> dict[Any, Any]:
    """:func:`~scorer.views.jsondata.error_json` with the found hand of a refused win (MCR's
    below the minimum) as a :class:`Body` under :data:`BODY`: the same JSON through
    :func:`jsonl_line`. With ``exit``, the error member ends with the error's exit status
    (``"exit": 2``), as a batch's record has it.

    >>> from scorer.errors import NotationError
    >>> jsonl_line(error_record(NotationError("notation.zero", 3), "en"))[:80]
    '{"error": {"kind": "notation", "message": "position 3: \\'0\\' is no tile number (1-'
    """
    out: dict[Any, Any] = {"error": error_member(e, lang, exit)}
    if isinstance(e, NotAWin) and isinstance(e.details, Result):
        out[BODY] = json_body(e.details, lang, paid=False)
    return out


class Encoded(dict[str, Any]):
    """A record's member as a dict that also carries its JSON text (``text``):
    :func:`jsonl_line` writes the text instead of encoding the dict again. Whoever changes
    the dict makes a plain dict of it first (its text would no longer be its JSON).

    >>> jsonl_line({"x": Encoded({"a": 1}, '{"a": 1}')})
    '{"x": {"a": 1}}\\n'
    """

    def __init__(self, fields: dict[str, Any], text: str) -> None:
        super().__init__(fields)
        self.text = text


# The error member of a record (error_fields, with the exit status or without), and its
# JSON text, by what it is made of: the error's class, kind, exit status, code, position,
# reason and parameters (their types too: True and 1 are equal keys, not the same JSON)
# and the language. A batch of MCR hands refuses two lines in three below the 8-fan
# minimum, with a few dozen distinct messages; wording and encoding one cost 60-90k
# instructions a line.
_ERRORS: Memo[tuple[Any, ...], tuple[dict[str, Any], str]] = Memo(LIMIT, "views.jsontext.errors")


def error_member(e: MjscoreError, lang: str = "zh", exit: bool = False) -> Encoded:
    """The ``error`` member of an error's record (:func:`~scorer.views.jsondata.error_fields`,
    with ``exit``: and its exit status), with its JSON text: worded and encoded once for
    every error made of the same things (see :data:`_ERRORS`).

    >>> from scorer.errors import NotationError
    >>> m = error_member(NotationError("notation.zero", 3), "en", exit=True)
    >>> m["code"], m["exit"], m.text[-25:]
    ('notation.zero', 2, '"position": 3, "exit": 2}')
    """
    try:
        params = _frozen(e.params)
    except TypeError:  # a parameter that cannot be a key: worded afresh
        fields = error_fields(e, lang)
        if exit:
            fields["exit"] = e.exit_code
        return Encoded(fields, _ENCODE(fields))
    key = (type(e), e.kind, e.exit_code, e.code, getattr(e, "position", None),
           getattr(e, "reason", None), lang, exit, params)
    hit = _ERRORS.get(key)
    if hit is None:
        fields = error_fields(e, lang)
        if exit:
            fields["exit"] = e.exit_code
        hit = _ERRORS.put(key, (fields, _ENCODE(fields)))
    return Encoded(hit[0], hit[1])


def _frozen(v: Any) -> Any:
    """A parameter as a key: the value with its type, a dict's items and a list's or
    tuple's members in order; raises TypeError for anything else (a set: not remembered).

    >>> _frozen({"n": 1, "ok": True}) != _frozen({"n": True, "ok": 1})
    True
    >>> _frozen({"tiles": ["1m"]})
    (<class 'dict'>, (('tiles', (<class 'list'>, ((<class 'str'>, '1m'),))),))
    """
    t = type(v)
    if t is str or t is int or t is bool or v is None:
        return (t, v)
    if t is dict:
        return (t, tuple([(k if type(k) is str else (type(k), k), _frozen(x))
                          for k, x in v.items()]))
    if t is list or t is tuple:
        return (t, tuple([_frozen(x) for x in v]))
    raise TypeError(f"not remembered: {t.__name__}")


class Body:
    """Members of a JSON object, already encoded (``'"a": 1, "b": [2]'``), standing in a
    record under the key :data:`BODY`; ``fields`` holds some of them as values (what the
    ledger of a batch reads: payments, winner). Not a str subclass: the compiled build
    compiles this module, and mypyc's classes cannot extend str.

    >>> Body('"a": 1', {"winner": "E"}).fields
    {'winner': 'E'}
    """

    def __init__(self, text: str, fields: dict[str, Any] | None = None) -> None:
        self.text = text
        self.fields: dict[str, Any] = {} if fields is None else fields

    def __repr__(self) -> str:
        return f"Body({self.text!r})"


# The key a Body stands under in a record (not a string: json.dumps refuses a record that
# still holds one, instead of writing it wrongly)
BODY = object()
_KEYS: Memo[str, str] = Memo(256, "views.jsontext.keys")  # a record's keys, encoded


def jsonl_line(rec: dict[Any, Any]) -> str:
    """One JSON line of a record that may hold a :class:`Body` under :data:`BODY`: the
    text json.dumps(ensure_ascii=False) writes of the record with the body's members in
    its place, and a newline.

    >>> body = Body('"b": [1, 2]')
    >>> jsonl_line({"a": "自摸", BODY: body, "c": None})
    '{"a": "自摸", "b": [1, 2], "c": null}\\n'
    """
    parts = []
    for k, v in rec.items():
        if k is BODY:
            if v.text:
                parts.append(v.text)
            continue
        key = _KEYS.get(k)
        if key is None:
            key = _KEYS.put(k, _ENCODE(k) + ": ")
        parts.append(key + (v.text if type(v) is Encoded else _value(v)))
    return "{" + ", ".join(parts) + "}\n"


# ----------------------------------------------------------------------------- the ruleset
class Fragments:
    """What this module remembers of one ruleset, kept by the ruleset itself
    (:func:`fragments`): its ``head`` (``'"ruleset": "id", '``) and ``tail`` (the
    provenance), and the memos of the fragments that depend on it (see below: ``hits``,
    ``scored``, ``reading``, ``why``). A copy of the ruleset starts without.

    >>> from scorer.rules.load import load_ruleset
    >>> fragments(load_ruleset("mcr")).head
    '"ruleset": "mcr", '
    """

    def __init__(self, rs: Ruleset) -> None:
        self.head = '"ruleset": ' + _ENCODE(rs.id) + ", "
        source = "builtin" if rs.trusted else "file"
        self.tail = ', "source": ' + _ENCODE(source) + (
            "" if rs.trusted else ', "path": ' + _ENCODE(rs.file))
        self.hits: Memo[tuple[Any, ...], str] = Memo(LIMIT)
        self.scored: Memo[tuple[Any, ...], tuple[str, str, str]] = Memo(LIMIT)
        self.reading: Memo[tuple[Any, ...], tuple[str, str]] = Memo(HANDS)
        self.why: Memo[tuple[Any, ...], str] = Memo(HANDS)
        self.replaced: Memo[tuple[Any, ...], str] = Memo(LIMIT)
        # the patterns whose why line says what the hand waited on, by place in the ruleset
        self.waits = frozenset(p.index for p in rs.patterns if reads_wait(p))


def fragments(rs: Ruleset) -> Fragments:
    """The :class:`Fragments` ``rs`` keeps (:func:`scorer.memo.kept`), made on first use."""
    return kept(rs, "views.jsontext", Fragments)


# ----------------------------------------------------------------------------- the hand
# '"hand": ..., "written": ..., ' by the hand as written (the normal form is a function of
# it: parse_hand(written) == hand)
_HAND: Memo[str, str] = Memo(HANDS, "views.jsontext.hand")


def _hand_part(result: Result) -> str:
    hand = result.hand
    written = hand.written
    hit = _HAND.get(written) if written else None
    if hit is not None:
        return hit
    text = ('"hand": ' + _ENCODE(hand.notation()) + ', "written": '
            + _ENCODE(hand.as_written()) + ", ")
    if written:
        _HAND.put(written, text)
    return text


# ----------------------------------------------------------------------------- patterns
# a pattern's entry by (the pattern's place in the ruleset, type and value, count, items),
# held by the ruleset: only for a pattern without tiers, whose entry depends on nothing else
def _hits_text(f: Fragments, s: Scored) -> str:
    out = []
    memo = f.hits
    for h in s.hits:
        p = h.pattern
        if getattr(p, "tiers", ()):
            out.append(_ENCODE(hit_json(h, s)))  # a tier's name reads the reading's facts
            continue
        key = (p.index, type(h.value), h.value, h.count, h.items)
        try:
            text = memo.get(key)
        except TypeError:  # an item that cannot be a key
            out.append(_ENCODE(hit_json(h, s)))
            continue
        if text is None:
            text = memo.put(key, _ENCODE(hit_json(h, s)))
        out.append(text)
    return ", ".join(out)


# ----------------------------------------------------------------------------- replaced
def _replaced_text(f: Fragments, s: Scored) -> str:
    """The encoded ``replaced`` list of a reading (the patterns another one replaced, and
    which), remembered by the patterns' places and what replaced them: MCR's 平和 replaces
    无字 on a hand in three, and encoding the list cost 12k instructions a line."""
    key = tuple([(h.pattern.index, h.replaced_by) for h in s.replaced])
    hit = f.replaced.get(key)
    if hit is None:
        hit = f.replaced.put(key, _ENCODE([{"id": h.pattern.id, "by": h.replaced_by}
                                           for h in s.replaced]))
    return hit


# ----------------------------------------------------------------------------- the chain
# A reading's patterns, tallies and chain, where every pattern met has a constant value and
# no tiers (nothing of them reads the reading's facts): by the patterns met (value, count,
# items), what `also` added and the tallies; held by the ruleset.


def _scored_parts(f: Fragments, rs: Ruleset, s: Scored, lang: str) -> tuple[str, str, str]:
    """The encoded ``patterns`` (their entries, without brackets), ``tallies`` and
    ``chain`` of a reading."""
    sig: list[Any] = [lang]
    for h in s.hits:
        p = h.pattern
        if not p.value.const or bool(getattr(p, "tiers", ())):
            return (_hits_text(f, s), _ENCODE(s.tallies),  # reads the reading's facts
                    _ENCODE(patterns_chain(rs, s, lang)))
        sig += (p.index, type(h.value), h.value, h.count, h.items)
    for tally, p, v in s.also:
        sig += (tally, p.index, type(v), v)
    sig.append(None)  # (the hits and the also values apart from the tallies)
    for k, v in s.tallies.items():
        sig += (k, type(v), v)
    key = tuple(sig)
    try:
        hit = f.scored.get(key)
    except TypeError:  # an item that cannot be a key
        return _hits_text(f, s), _ENCODE(s.tallies), _ENCODE(patterns_chain(rs, s, lang))
    if hit is not None:
        return hit
    return f.scored.put(key, (_hits_text(f, s), _ENCODE(s.tallies),
                              _ENCODE(patterns_chain(rs, s, lang))))


# ----------------------------------------------------------------------------- the reading
# Everything of "best" that is the reading and where its wildcards and stand-ins were typed:
# ('"decomposition": ..., "wildcards": ..., "shape": ...',
#  '"wildcard_detail": ..., "stand_ins": ..., "reading": ..., "win_group": ..., "legend": ...')
# by the reading (a tuple of groups), the hand as written and each tile's position, the
# positions of the melds, the wildcard's face and stand-in and the language; held by the
# ruleset.


def _reading_key(result: Result, s: Scored, lang: str) -> tuple[Any, ...] | None:
    """The key of a reading's parts, or None for a hand not read from text."""
    hand, spec = result.hand, result.table.wild
    if not hand.written:
        return None
    # where each tile was typed: the tiles themselves are the written hand's (a tuple of
    # numbers, not the hand's own pairs: the key outlives the hand)
    return (s.reading, hand.written, tuple([p for _, p in hand.sources]),
            tuple([m.position for m in hand.melds]), spec.face, spec.stand_in, lang)


def _reading_parts(f: Fragments, result: Result, s: Scored, lang: str,
                   key: tuple[Any, ...] | None) -> tuple[str, str]:
    if key is not None:
        hit = f.reading.get(key)
        if hit is not None:
            return hit
    wm = wildcard_map(result, s)
    a = ('"decomposition": ' + _ENCODE(sets_text(s.reading)) + ', "wildcards": '
         + _ENCODE({str(w["index"]): w["reads"] for w in wm}) + ', "shape": '
         + _ENCODE(s.reading.shape))
    b = ('"wildcard_detail": ' + _ENCODE(wm) + ', "stand_ins": '
         + _ENCODE(stand_in_map(result, s)) + ', "reading": ' + _ENCODE(group_texts(result, s))
         + ', "win_group": ' + _num(s.reading.win) + ', "legend": '
         + _ENCODE(legend(result, lang, s)))
    if key is not None:
        f.reading.put(key, (a, b))
    return a, b


# ----------------------------------------------------------------------------- why
# What the hand waited on (pieces.why_text), by the reading's key (the hand, the reading,
# the language) and the context, held by the ruleset: the table it reads is made of the
# ruleset, the context and the hand. "": it could not be worked out (the line is left out).


def _why_text(f: Fragments, result: Result, s: Scored, lang: str,
              key: tuple[Any, ...] | None) -> str:
    """``why_lines(result, lang, s)`` encoded: the names of the wait patterns met (their
    tiers read the reading's facts: named afresh) and the remembered why."""
    waits = f.waits  # (pieces.wait_patterns, by the pattern's place)
    hits = [h for h in s.hits if h.pattern.index in waits] if waits else None
    if not hits:
        return "[]"
    if key is None:
        return _ENCODE(why_lines(result, lang, s))
    rs, ctx = result.ruleset, result.table.context
    full = (key, ctx)  # (a context is a frozen value: equal contexts, equal tables)
    memo = f.why
    try:
        why = memo.get(full)
    except TypeError:  # a context holding a value that cannot be a key
        return _ENCODE(why_lines(result, lang, s))
    if why is None:
        try:
            why = why_text(result, lang, s)
        except MjscoreError:
            why = ""
        memo.put(full, why)
    if not why:  # as why_lines: the report goes on without
        return "[]"
    names = ", ".join(tiered_name(rs, h, s, lang) for h in hits)
    return _ENCODE([t("why_names", lang, names=names, why=why)])


# ----------------------------------------------------------------------------- payments
# (payments text, payment lines text) by language and discarder, in the memo the
# settlement holds (pieces.paid): a settlement is shared by every hand with the same
# payment inputs, and a hand's own goes with the hand.
def _payment_parts(result: Result, s: Scored, lang: str) -> tuple[str, str]:
    disc = result.table.discarder if not result.table.self_draw else None
    memo = paid(s.settlement)
    key = ("json", lang, disc)
    hit: tuple[str, str] | None = memo.get(key)
    if hit is not None:
        return hit
    return memo.put(key, (_ENCODE(dict(s.payments)),  # type: ignore[no-any-return]
                          _ENCODE(payment_lines(result, s, lang))))


# ----------------------------------------------------------------------------- the context
# ('"winner": ..., "self_draw": ..., ', ', "flags": {...}') by the winner and whether the
# win is self-drawn, in the memo of the context's table (Table.memo: the hands of one
# context share it)
def _context_parts(result: Result) -> tuple[str, str]:
    table = result.table
    winner, self_draw = result.winner, table.self_draw
    key = ("views.jsontext.context", winner, type(self_draw), self_draw)
    hit: tuple[str, str] | None = table.memo.get(key)
    if hit is not None:
        return hit
    parts = ('"winner": ' + _ENCODE(winner) + ', "self_draw": ' + _ENCODE(self_draw) + ", ",
             ', "flags": ' + _ENCODE(echo(table.context)))
    return table.memo.put(key, parts)  # type: ignore[no-any-return]


def clear(*rulesets: Ruleset) -> None:
    """Forget the remembered fragments: this module's named memos, and those the given
    rulesets hold (tests, and benchmarks' cold starts).

    >>> from scorer.rules.load import load_ruleset
    >>> clear(load_ruleset("mcr")); len(_HAND)
    0
    """
    for memo in (_FLAT, _KEYS, _HAND, _ERRORS):
        memo.clear()
    for rs in rulesets:
        forget(rs, "views.jsontext")
