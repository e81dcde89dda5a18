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
engine's) and holds only text, the ruleset (so that an id in a key is never reused while
its entry lives) and values that hold no Env (readings are tuples of groups; settlements
are held weakly).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from typing import Any

from ..engine.scoring import Result, Scored
from ..errors import MjscoreError, NotAWin
from ..memo import Memo
from ..rules.flags import echo
from ..rules.model import Ruleset
from .i18n import t
from .report import (
    _tiered_name,
    error_fields,
    group_texts,
    hit_json,
    legend,
    patterns_chain,
    payment_lines,
    stand_in_map,
    wait_patterns,
    why_lines,
    why_text,
    wildcard_map,
)

__all__ = ["BODY", "Body", "clear", "error_record", "json_body", "json_text", "jsonl_line"]

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
_FLAT: Memo[tuple[Any, ...], str] = Memo(LIMIT)
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
    :func:`~scorer.views.report.error_json` makes it: no ``payments`` and no
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
    head, tail = _ruleset_parts(rs)
    key = _reading_key(result, s, lang)
    reading_a, reading_b = _reading_parts(result, s, lang, key)
    patterns, tallies, chain = _scored_parts(rs, s, lang)
    parts = [head, _hand_part(result), '"best": {"score": ', _num(s.score), ', "patterns": [',
             patterns, "], ", reading_a, ', "tallies": ', tallies,
             ', "replaced": ',
             "[]" if not s.replaced else _ENCODE([{"id": h.pattern.id, "by": h.replaced_by}
                                                  for h in s.replaced]),
             ", ", reading_b, ', "why": ', _why_text(result, s, lang, key), ', "chain": ',
             chain]
    pay, lines = _payment_parts(result, s, lang)
    if paid:
        parts += [', "payment_chain": ', lines, '}, "payments": ', pay, ", "]
    else:
        parts.append("}, ")
    who, flags = _context_parts(result)
    parts += [who, '"readings": ', _num(len(result.candidates)), flags, tail]
    return Body("".join(parts), {"payments": dict(s.payments), "winner": result.winner}
                if paid else {"winner": result.winner})


def error_record(e: MjscoreError, lang: str = "zh") -> dict[Any, Any]:
    """:func:`~scorer.views.report.error_json` with the found hand of a refused win (MCR's
    below the minimum) as a :class:`Body` under :data:`BODY`: the same JSON through
    :func:`jsonl_line`.

    >>> from scorer.errors import NotationError
    >>> jsonl_line(error_record(NotationError("notation.zero", 3), "en"))[:80]
    '{"error": {"kind": "notation", "message": "position 3: \\'0\\' is not a tile number '
    """
    out: dict[Any, Any] = {"error": error_fields(e, lang)}
    if isinstance(e, NotAWin) and isinstance(e.details, Result):
        out[BODY] = json_body(e.details, lang, paid=False)
    return out


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
_KEYS: dict[str, str] = {}


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
            key = _ENCODE(k) + ": "
            if len(_KEYS) < 256:
                _KEYS[k] = key
        parts.append(key + _value(v))
    return "{" + ", ".join(parts) + "}\n"


# ----------------------------------------------------------------------------- the ruleset
# (ruleset, (head, tail)) by id of the ruleset: '"ruleset": "id", ' and the provenance
_RULESET: Memo[int, tuple[Ruleset, tuple[str, str]]] = Memo(64)


def _ruleset_parts(rs: Ruleset) -> tuple[str, str]:
    hit = _RULESET.get(id(rs))
    if hit is not None and hit[0] is rs:
        return hit[1]
    head = '"ruleset": ' + _ENCODE(rs.id) + ", "
    source = "builtin" if rs.trusted else "file"
    tail = ', "source": ' + _ENCODE(source) + (
        "" if rs.trusted else ', "path": ' + _ENCODE(rs.file))
    _RULESET.put(id(rs), (rs, (head, tail)))
    return head, tail


# ----------------------------------------------------------------------------- the hand
# '"hand": ..., "written": ..., ' by the hand as written (the normal form is a function of
# it: parse_hand(written) == hand)
_HAND: Memo[str, str] = Memo(HANDS)


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
# a pattern's entry by (id of the ruleset, id of the pattern, type and value, count, items):
# only for a pattern without tiers, whose entry depends on nothing else
_HITS: Memo[tuple[Any, ...], tuple[Ruleset, str]] = Memo(LIMIT)


def _hits_text(rs: Ruleset, s: Scored) -> str:
    out = []
    for h in s.hits:
        p = h.pattern
        if getattr(p, "tiers", ()):
            out.append(_ENCODE(hit_json(h, s)))  # a tier's name reads the reading's facts
            continue
        key = (id(rs), id(p), type(h.value), h.value, h.count, h.items)
        try:
            hit = _HITS.get(key)
        except TypeError:  # an item that cannot be a key
            out.append(_ENCODE(hit_json(h, s)))
            continue
        if hit is None or hit[0] is not rs:
            text = _ENCODE(hit_json(h, s))
            _HITS.put(key, (rs, text))
        else:
            text = hit[1]
        out.append(text)
    return ", ".join(out)


# ----------------------------------------------------------------------------- the chain
# A reading's patterns, tallies and chain, where every pattern met has a constant value and
# no tiers (nothing of them reads the reading's facts): by the patterns met (value, count,
# items), what `also` added and the tallies.
_SCORED: Memo[tuple[Any, ...], tuple[Ruleset, tuple[str, str, str]]] = Memo(LIMIT)


def _scored_parts(rs: Ruleset, s: Scored, lang: str) -> tuple[str, str, str]:
    """The encoded ``patterns`` (their entries, without brackets), ``tallies`` and
    ``chain`` of a reading."""
    sig: list[Any] = [id(rs), lang]
    for h in s.hits:
        p = h.pattern
        if not p.value.const or bool(getattr(p, "tiers", ())):
            return (_hits_text(rs, s), _ENCODE(s.tallies),  # reads the reading's facts
                    _ENCODE(patterns_chain(rs, s, lang)))
        sig += (id(p), type(h.value), h.value, h.count, h.items)
    for tally, p, v in s.also:
        sig += (tally, id(p), type(v), v)
    sig.append(None)  # (the hits and the also values apart from the tallies)
    for k, v in s.tallies.items():
        sig += (k, type(v), v)
    key = tuple(sig)
    try:
        hit = _SCORED.get(key)
    except TypeError:  # an item that cannot be a key
        return _hits_text(rs, s), _ENCODE(s.tallies), _ENCODE(patterns_chain(rs, s, lang))
    if hit is not None and hit[0] is rs:
        return hit[1]
    parts = (_hits_text(rs, s), _ENCODE(s.tallies), _ENCODE(patterns_chain(rs, s, lang)))
    _SCORED.put(key, (rs, parts))
    return parts


# ----------------------------------------------------------------------------- the reading
# Everything of "best" that is the reading and where its wildcards and stand-ins were typed:
# ('"decomposition": ..., "wildcards": ..., "shape": ...',
#  '"wildcard_detail": ..., "stand_ins": ..., "reading": ..., "win_group": ..., "legend": ...')
# by the reading (a tuple of groups), the hand as written and each tile's position, the
# positions of the melds, the wildcard's face and stand-in, the ruleset and the language.
_READING: Memo[tuple[Any, ...], tuple[Ruleset, tuple[str, str]]] = Memo(HANDS)


def _reading_key(result: Result, s: Scored, lang: str) -> tuple[Any, ...] | None:
    """The key of a reading's parts, or None for a hand not read from text."""
    hand, spec = result.hand, result.table.wild
    if not hand.written:
        return None
    # where each tile was typed: the tiles themselves are the written hand's (a tuple of
    # numbers, not the hand's own pairs: the key outlives the hand)
    return (s.reading, hand.written, tuple([p for _, p in hand.sources]),
            tuple([m.position for m in hand.melds]), spec.face, spec.stand_in,
            id(result.ruleset), lang)


def _reading_parts(result: Result, s: Scored, lang: str, key: tuple[Any, ...] | None
                   ) -> tuple[str, str]:
    rs = result.ruleset
    if key is not None:
        hit = _READING.get(key)
        if hit is not None and hit[0] is rs:
            return hit[1]
    wm = wildcard_map(result, s)
    a = ('"decomposition": ' + _ENCODE(s.reading.describe()) + ', "wildcards": '
         + _ENCODE({str(w["index"]): w["reads"] for w in wm}) + ', "shape": '
         + _ENCODE(s.reading.shape))
    b = ('"wildcard_detail": ' + _ENCODE(wm) + ', "stand_ins": '
         + _ENCODE(stand_in_map(result, s)) + ', "reading": ' + _ENCODE(group_texts(result, s))
         + ', "win_group": ' + _num(s.reading.win) + ', "legend": '
         + _ENCODE(legend(result, lang, s)))
    if key is not None:
        _READING.put(key, (rs, (a, b)))
    return a, b


# ----------------------------------------------------------------------------- why
# What the hand waited on (report.why_text), by the reading's key (the hand, the reading,
# the ruleset, the language) and the context: the table it reads is made of the ruleset,
# the context and the hand. None: it could not be worked out (the line is left out).
_WHY: Memo[tuple[Any, ...], tuple[Ruleset, str | None]] = Memo(HANDS)


def _why_text(result: Result, s: Scored, lang: str, key: tuple[Any, ...] | None) -> str:
    """``why_lines(result, lang, s)`` encoded: the names of the wait patterns met (their
    tiers read the reading's facts: named afresh) and the remembered why."""
    hits = wait_patterns(s)
    if not hits:
        return "[]"
    if key is None:
        return _ENCODE(why_lines(result, lang, s))
    rs, ctx = result.ruleset, result.table.context
    full = (key, ctx)  # (a context is a frozen value: equal contexts, equal tables)
    try:
        hit = _WHY.get(full)
    except TypeError:  # a context holding a value that cannot be a key
        return _ENCODE(why_lines(result, lang, s))
    if hit is not None and hit[0] is rs:
        why = hit[1]
    else:
        try:
            why = why_text(result, lang, s)
        except MjscoreError:
            why = None
        _WHY.put(full, (rs, why))
    if why is None:  # as why_lines: the report goes on without
        return "[]"
    names = ", ".join(_tiered_name(rs, h, s, lang) for h in hits)
    return _ENCODE([t("why_names", lang, names=names, why=why)])


# ----------------------------------------------------------------------------- payments
# (settlement, ruleset, payments text, payment lines text) by (id of the settlement, id of
# the ruleset, language, discarder): a settlement is shared by every hand with the same
# payment inputs. Held weakly, as report.payment_lines holds it (a hand's own settlement
# reaches its readings).
_PAID: Memo[tuple[Any, ...], tuple[weakref.ref[Any], Ruleset, str, str]] = Memo(1024)


def _payment_parts(result: Result, s: Scored, lang: str) -> tuple[str, str]:
    rs, settlement = result.ruleset, s.settlement
    disc = result.table.discarder if not result.table.self_draw else None
    key = (id(settlement), id(rs), lang, disc)
    hit = _PAID.get(key)
    if hit is not None and hit[0]() is settlement and hit[1] is rs:
        return hit[2], hit[3]
    pay = _ENCODE(dict(s.payments))
    lines = _ENCODE(payment_lines(result, s, lang))
    _PAID.put(key, (weakref.ref(settlement), rs, pay, lines))
    return pay, lines


# ----------------------------------------------------------------------------- the context
# ('"winner": ..., "self_draw": ..., ', ', "flags": {...}') by the context (kept: the lines
# of a batch with the same flags share one), the winner and whether the win is self-drawn
_CONTEXT: Memo[tuple[Any, ...], tuple[Any, tuple[str, str]]] = Memo(LIMIT)


def _context_parts(result: Result) -> tuple[str, str]:
    table = result.table
    ctx = table.context
    winner, self_draw = result.winner, table.self_draw
    key = (id(ctx), winner, type(self_draw), self_draw)
    hit = _CONTEXT.get(key)
    if hit is not None and hit[0] is ctx:
        return hit[1]
    parts = ('"winner": ' + _ENCODE(winner) + ', "self_draw": ' + _ENCODE(self_draw) + ", ",
             ', "flags": ' + _ENCODE(echo(ctx)))
    _CONTEXT.put(key, (ctx, parts))
    return parts


def clear() -> None:
    """Forget every remembered fragment (tests, and benchmarks' cold starts)."""
    for memo in (_RULESET, _HAND, _HITS, _SCORED, _READING, _WHY, _PAID, _CONTEXT):
        memo.clear()
