"""Read the compact hand notation of docs/contract.md#notation into a :class:`~scorer.model.hand.Hand`.

Grammar (spaces between groups are ignored)::

    hand    := meld* tile+
    meld    := '[' tile+ ('=' tile+)? (',' OFFER)? ']'
    tile    := DIGITS SUIT | HONOR | DIGIT 'z' | 东南西北中发白 | Unicode tile
    SUIT    := m p s | w b t          (w=m 万, b=p 饼, t=s 条)
    HONOR   := E S W N C F P
    OFFER   := 1 | 2 | 3              (上家 / 对家 / 下家)

Input is normalised first (:func:`normalise`): full-width letters, digits and
brackets of a Chinese input method (``１２３ｍ``, ``Ｐ``, ``［］，＝``, ``【】``), the
suffixes 万 筒/饼 条/索 and the numerals 一…九 (``一二三万``) become the ASCII
notation. The last concealed tile written is the winning tile. Every error names
the 1-based character position *the user typed* it at::

    >>> parse_hand("123m5p8")
    Traceback (most recent call last):
    ...
    scorer.errors.NotationError: position 7: '8' has no suit letter after it

Errors carry a code and the parameters their message needs (:mod:`scorer.errors`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..errors import NotationError
from ..memo import Memo
from . import tiles as T
from .hand import Hand, Meld
from .numbers import LONGEST

MAX_HAND_CHARS = 200  # a real hand is ~20-60 characters; refuse megabyte inputs early

_HONOR_INPUT: dict[str, int] = {}
for _table in (T.HONOR_LETTERS, T.HONOR_CHARS, T.HONOR_CHARS_TRAD):
    for _i, _ch in enumerate(_table):
        _HONOR_INPUT[_ch] = 27 + _i
for _t in range(T.NUM_KINDS):
    _HONOR_INPUT[T.glyph(_t)] = _t  # Unicode tiles are accepted too


# -- normalisation ----------------------------------------------------------------------
# Each entry of T.INPUT_FORMS replaces one typed character by one ASCII character;
# characters in T.INVISIBLE are dropped. Positions are mapped back through the kept
# characters, so an error always points at what the user typed.
_NORMAL = T.INPUT_FORMS
_INVISIBLE = T.INVISIBLE
_CN_SUFFIXES = frozenset("万萬筒饼餅条條索")
_HONOR_CN = dict(zip(T.HONOR_LETTERS, T.HONOR_CHARS, strict=True))


def normalise(text: str) -> tuple[str, tuple[int, ...]]:
    """Return the text in ASCII notation and, for each of its characters, the 0-based
    index of the character the user typed.

    >>> normalise("１２３万\u200b一二三筒")
    ('123m123p', (0, 1, 2, 3, 5, 6, 7, 8))
    """
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        out.append(_NORMAL.get(ch, ch))
        origin.append(i)
    return "".join(out), tuple(origin)


def join_hand_args(args: Sequence[str]) -> str:
    """Return a hand given as several shell arguments as one hand text.

    ``mjscore score 123m 456p 789s 234s P9m`` reaches the program as five arguments;
    spaces between groups are ignored, so they are joined with one space each and the
    error positions count as if the user had quoted the whole hand.

    >>> join_hand_args(["123m", "456p", "789s", "234s", "P9m"])
    '123m 456p 789s 234s P9m'
    """
    return " ".join(a.strip() for a in args if a.strip())


_FAST_OK = re.compile(r"(?:[1-9]+[mpswbt]|[1-7]+z|[ESWNCFP]| )+")
_FAST_TOKEN = re.compile(r"([1-9]+)([mpswbtz])|([ESWNCFP])")
_SUIT_BASE = {"m": 0, "w": 0, "p": 9, "b": 9, "s": 18, "t": 18, "z": 27}


def parse_tiles(text: str, offset: int = 0, what: str = "tile list") -> list[tuple[int, int]]:
    """Parse a run of tiles with no brackets; return ``(tile, position)`` pairs.

    ``offset`` is added to positions (used for text inside a meld).

    >>> [t for t, _ in parse_tiles("123m EE")]
    [0, 1, 2, 27, 27]
    """
    if _FAST_OK.fullmatch(text):
        # Well-formed ASCII (the common case in batches): a regular expression reads it.
        fast: list[tuple[int, int]] = []
        for m in _FAST_TOKEN.finditer(text):
            if m.group(3):
                fast.append((27 + "ESWNCFP".index(m.group(3)), offset + m.start() + 1))
            else:
                base = _SUIT_BASE[m.group(2)]
                start = offset + m.start() + 1
                fast.extend((base + int(d) - 1, start + k) for k, d in enumerate(m.group(1)))
        return fast
    return _parse_tiles_slow(text, offset, what)


def _honor(letter: str) -> dict[str, str]:
    """``'P'`` -> ``{'letter': 'P', 'honor': '白'}``: an honor letter and its Chinese name,
    the parameters of a hint."""
    return {"letter": letter, "honor": _HONOR_CN[letter]}


# Characters players put between groups; the notation needs nothing there.
_SEPARATORS = "/;|-_+&.:"
# Other spellings of the dragons and winds in English notations.
_OTHER_HONORS = {"R": "C", "G": "F", "D": ""}


def _unexpected(ch: str, pos: int, text: str, what: str, prev: str) -> NotationError:
    """The error for a character that is no part of the notation, with what was probably
    meant when a common slip explains it."""
    if ch in "MBTZ":
        return NotationError("notation.suit_upper", pos, text, char=ch, lower=ch.lower())
    if ch in "encf":
        return NotationError("notation.honor_lower", pos, text, char=ch, **_honor(ch.upper()))
    if ch in _OTHER_HONORS:
        code = {"C": "notation.red_letter", "F": "notation.green_letter",
                "": "notation.dragon_letter"}[_OTHER_HONORS[ch]]
        return NotationError(code, pos, text, char=ch)
    if ch in "(){}<>":
        return NotationError("notation.round_brackets", pos, text, char=ch)
    if ch == ",":
        return NotationError("notation.comma_outside", pos, text)
    if ch == "=":
        return NotationError("notation.equals_outside", pos, text)
    if ch in _SEPARATORS:
        return NotationError("notation.separator", pos, text, char=ch)
    if ch in "风風" and prev in "东南西北東":
        return NotationError("notation.wind_suffix", pos, text, char=ch, wind=prev)
    if ch == "板" and prev == "白":
        return NotationError("notation.board_suffix", pos, text)
    if ch == "红" or ch == "紅":
        return NotationError("notation.red_char", pos, text, char=ch)
    compat = unicodedata.normalize("NFKC", ch)
    hint = compat if compat != ch and compat.isascii() and compat.isprintable() else None
    return NotationError("notation.unexpected_char", pos, text, char=ch, what=what, hint=hint)


def _parse_tiles_slow(text: str, offset: int, what: str) -> list[tuple[int, int]]:
    """The careful reader: every character checked, errors with positions."""
    out: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    i = 0
    n = len(text)
    prev = ""  # the last character that was not a space, for hints
    while i < n:
        ch = text[i]
        pos = offset + i + 1
        if ch.isdigit() and ch.isascii():
            if ch == "0":
                raise NotationError("notation.zero", pos, text)
            pending.append((int(ch), pos))
            prev = ch
            i += 1
            continue
        if ch in T.ALIASES or ch == "z":
            if not pending:
                if ch in "spw" and (prev in T.ALIASES or prev == "z"):
                    raise NotationError("notation.suit_after_suit", pos, text, char=ch,
                                        **_honor(ch.upper()))
                if ch in "spw":
                    raise NotationError("notation.suit_no_digits_honor", pos, text, char=ch,
                                        **_honor(ch.upper()))
                raise NotationError("notation.suit_no_digits", pos, text, char=ch)
            for d, dpos in pending:
                if ch == "z":
                    if d > 7:
                        raise NotationError("notation.bad_honor_z", dpos, text, digit=d)
                    out.append((27 + d - 1, dpos))
                else:
                    out.append((T.tile(d, T.ALIASES[ch]), dpos))
            pending = []
            prev = ch
            i += 1
            continue
        if pending and ch in "SWP":
            # '123S': an upper-case suit letter, which is also an honor on its own
            raise NotationError("notation.upper_after_digits", pos, text, char=ch,
                                lower=ch.lower(), honor=_HONOR_CN[ch])
        if pending and ch in "MBTZ":
            raise NotationError("notation.suit_upper", pos, text, char=ch, lower=ch.lower())
        if pending and (ch in _HONOR_INPUT or ch.isspace() or ch in "[]"):
            d, dpos = pending[-1]
            raise NotationError("notation.no_suit", dpos, text, digit=str(d))
        if ch in _HONOR_INPUT:
            out.append((_HONOR_INPUT[ch], pos))
        elif ch.isspace():
            i += 1
            continue
        elif ch == "f" and pending:
            raise NotationError("notation.flower_in_hand", pos, text)
        elif ch in T.FLOWER_CHARS:
            raise NotationError("notation.flower_char", pos, text, char=ch)
        else:
            raise _unexpected(ch, pos, text, what, prev)
        prev = ch
        i += 1
    if pending:
        d, dpos = pending[-1]
        raise NotationError("notation.no_suit", dpos, text, digit=str(d))
    return out


def parse_hand(text: str) -> Hand:
    """Parse a hand written in the notation of docs/contract.md#notation, as players type it.

    Full-width and Chinese spellings are normalised first (:func:`normalise`); error
    positions and :attr:`Hand.sources` count the characters of ``text`` as typed.
    :attr:`Hand.written` keeps what was understood, in the order written.

    >>> h = parse_hand("[5555p,2]123m456s789sEE")
    >>> h.melds[0].offer, h.winning
    (2, 27)
    >>> parse_hand("［５５５筒，２］一二三万 ４５６ｓ ７８９条 东东").written
    '[555p,2]123m456s789sEE'
    """
    if len(text) > MAX_HAND_CHARS:
        raise NotationError("notation.too_long", MAX_HAND_CHARS + 1, "", length=len(text),
                            limit=MAX_HAND_CHARS)
    if text.isascii():  # the common case: nothing to normalise, positions are the same
        return _scan(text) or _parse_normal(text)
    normal, origin = normalise(text)

    def typed(pos: int) -> int:
        # 1-based position in the normal text -> 1-based position in what was typed;
        # one past the end stays one past the end
        return origin[pos - 1] + 1 if 0 < pos <= len(origin) else len(text) + 1

    try:
        h = _parse_normal(normal)
    except NotationError as e:
        where = None if e.position is None else typed(e.position)
        code, params = e.code, {k: v for k, v in e.params.items() if k != "position"}
        if where is not None and where <= len(text) and text[where - 1] in _CN_SUFFIXES:
            # a suit character with no digits: the letter hints (P for 白) fit no 条
            code, params = "notation.suit_char_no_digits", {"char": text[where - 1]}
        raise NotationError(code, where, text, **params) from None
    if len(origin) == len(text):  # nothing dropped: every position is already the typed one
        return h
    melds = tuple(replace(m, position=typed(m.position)) for m in h.melds)
    return replace(h, melds=melds, sources=tuple((t, typed(p)) for t, p in h.sources))


# The one-pass scanner: a well-formed ASCII hand (melds without '=' and without spaces
# inside, then tiles and spaces) is read by one match and one walk over its tokens. Any
# other text — every mistake included — goes to the full parser, which alone words errors.
_T = r"(?:[1-9]+[mpswbt]|[1-7]+z|[ESWNCFP])"
_SCAN_OK = re.compile(rf"(?:\[{_T}+(?:,[123])?\]| )*(?:{_T}| )+")
_SCAN_TOKEN = re.compile(r"\[([^],]+)(?:,([123]))?\]|[1-9]+[mpswbtz]|[ESWNCFP]")


# by the token's text (_scan looks it up itself)
_MEMO_TOKEN: Memo[str, tuple[tuple[int, ...], str]] = Memo(4096, "model.notation._token")


def _token(token: str) -> tuple[tuple[int, ...], str]:
    """A digit group with its suit letter, or an honor letter: its tiles (one per
    character before the suit letter) and how :func:`_written_tiles` writes it.

    >>> _token("123w"), _token("12z"), _token("P")
    (((0, 1, 2), '123m'), ((27, 28), 'ES'), ((33,), 'P'))
    """
    hit = _MEMO_TOKEN.get(token)
    return hit if hit is not None else _MEMO_TOKEN.put(token, _compute_token(token))


def _compute_token(token: str) -> tuple[tuple[int, ...], str]:
    if len(token) == 1:
        return (27 + "ESWNCFP".index(token),), token
    base = _SUIT_BASE[token[-1]]
    tiles = tuple(base + ord(d) - 49 for d in token[:-1])
    if base == 27:
        return tiles, "".join(T.HONOR_LETTERS[t - 27] for t in tiles)
    return tiles, token[:-1] + T.SUITS[base // 9]


_MEMO_MELD_TOKEN: Memo[Any, tuple[tuple[int, ...], str] | None] = Memo(
    1024, "model.notation._meld_token")


def _meld_token(body: str, offer: int) -> tuple[tuple[int, ...], str] | None:
    """A meld's sorted tiles and notation from its body and offer; None if the full
    parser would refuse it (not 3 or 4 tiles, a chow offered by 对家 or 下家).

    >>> _meld_token("EEE", 1), _meld_token("12m", 0)
    (((27, 27, 27), '[EEE,1]'), None)
    """
    key = (body, offer)
    hit = _MEMO_MELD_TOKEN.get(key)
    if hit is None:
        hit = _MEMO_MELD_TOKEN.put(key, _compute_meld_token(body, offer))
    return hit


def _compute_meld_token(body: str, offer: int) -> tuple[tuple[int, ...], str] | None:
    tiles = tuple(sorted(t for b in _SCAN_TOKEN.finditer(body) for t in _token(b.group())[0]))
    if len(tiles) not in (3, 4) or (offer in (2, 3) and _is_chow(tiles)):
        return None
    return tiles, Meld(tiles=tiles, offer=offer).notation()


def _scan(text: str) -> Hand | None:
    """The Hand of a well-formed ASCII hand, exactly as :func:`_parse_normal` reads it;
    None for any text it does not read (the full parser then does, or says what is wrong).

    >>> _scan("[EEE,1]123m456p789s55p") == _parse_normal("[EEE,1]123m456p789s55p")
    True
    >>> _scan("[123m,2]456p789s55pEEE") is None  # an error: the full parser words it
    True
    """
    if _SCAN_OK.fullmatch(text) is None:
        return None
    m = _SCAN_MELDS.match(text)
    end = m.end() if m is not None else 0
    tail = text[end:]  # the concealed tiles (and spaces)
    groups = _SCAN_GROUP.findall(tail)
    if not groups:
        return None
    # each token's entry looked up here, by the memo's own dict get rather than through
    # _token: no Python-level call for the ten tokens of every hand (a token is never falsy)
    known = _MEMO_TOKEN.get
    held: list[int] = []
    for g in groups:
        held += (known(g) or _token(g))[0]
    melds: list[Meld] = []
    written: list[str] = []
    sources: list[tuple[int, int]] = []
    if end:
        for mm in _SCAN_MELD.finditer(text, 0, end):
            position = mm.start() + 1
            offer = int(mm.group(2) or 0)
            body = mm.group(1)
            read = _MEMO_MELD_TOKEN.get((body, offer)) or _meld_token(body, offer)
            if read is None:
                return None
            tiles, w = read
            melds.append(Meld(tiles=tiles, offer=offer, reading=None, position=position))
            written.append(w)
            sources += [(t, position) for t in tiles]
    # already normal (no alias, no z, no space): written as it is
    written.append(tail if _PLAIN_TAIL.fullmatch(tail) else
                   "".join((known(g) or _token(g))[1] for g in groups))
    # every digit and honor letter is one tile, at its own position
    sources += zip(held, [i for i, ch in enumerate(tail, end + 1) if ch in _TILE_CHARS],
                   strict=True)
    win = held.pop()
    held.sort()
    return Hand(
        melds=tuple(sorted(melds, key=lambda m: (m.tiles, m.offer, m.reading or ())))
        if len(melds) > 1 else tuple(melds),
        concealed=tuple(held),
        winning=win,
        sources=tuple(sources),
        written="".join(written),
    )


_SCAN_MELDS = re.compile(r"(?:\[[^]]*\]| )*")  # the melds of a text _SCAN_OK matched
_SCAN_MELD = re.compile(r"\[([^],]+)(?:,([123]))?\]")
_SCAN_GROUP = re.compile(r"[1-9]+[mpswbtz]|[ESWNCFP]")
_TILE_CHARS = frozenset("123456789ESWNCFP")
_PLAIN_TAIL = re.compile(r"(?:[1-9]+[mps]|[ESWNCFP])+")


def _parse_normal(text: str) -> Hand:
    """Parse normalised text (see :func:`parse_hand`)."""
    melds: list[Meld] = []
    concealed: list[tuple[int, int]] = []
    sources: list[tuple[int, int]] = []
    i = 0
    n = len(text)
    body_start: int | None = None
    while i < n:
        ch = text[i]
        if ch == "[":
            if body_start is not None:
                raise NotationError("notation.melds_first", i + 1, text)
            close = text.find("]", i + 1)
            nested = text.find("[", i + 1)
            if nested != -1 and (close == -1 or nested < close):
                raise NotationError("notation.nested_meld", nested + 1, text)
            if close == -1:
                raise NotationError("notation.unclosed_meld", i + 1, text)
            meld = _parse_meld(text, i, close)
            melds.append(meld)
            sources.extend((t, meld.position) for t in meld.tiles)
            i = close + 1
            continue
        if ch == "]":
            raise NotationError("notation.unopened_meld", i + 1, text)
        if ch.isspace():
            i += 1
            continue
        # The concealed part runs to the next bracket (which is then an error above).
        j = i
        while j < n and text[j] not in "[]":
            j += 1
        part = parse_tiles(text[i:j], offset=i, what="hand")
        if part and body_start is None:
            body_start = i
        concealed.extend(part)
        sources.extend(part)
        i = j
    if not concealed:
        # where the missing tiles would go: after the end
        raise NotationError("notation.no_concealed", len(text) + 1, text)
    *rest, (win, _) = concealed
    return Hand(
        melds=tuple(sorted(melds, key=lambda m: (m.tiles, m.offer, m.reading or ()))),
        concealed=tuple(sorted(t for t, _ in rest)),
        winning=win,
        sources=tuple(sources),
        written="".join(m.notation() for m in melds) + _written_tiles(concealed),
    )


def _written_tiles(tiles: list[tuple[int, int]]) -> str:
    """Concealed tiles in the order written, one group per group the user wrote.

    >>> _written_tiles(parse_tiles("789s 234s E 1z"))
    '789s234sEE'
    """
    out: list[str] = []
    suit = ""  # the suit letter the open group of digits waits for
    last_pos = -2
    for t, pos in tiles:
        if t >= 27:
            if suit:
                out.append(suit)
                suit = ""
            out.append(T.HONOR_LETTERS[t - 27])
        else:
            s = T.SUITS[t // 9]
            # digits of one group are adjacent and share a suit
            if suit and (s != suit or pos != last_pos + 1):
                out.append(suit)
            out.append(_DIGITS[t % 9])
            suit = s
        last_pos = pos
    if suit:
        out.append(suit)
    return "".join(out)


_DIGITS = "123456789"


def chow_offer(written: str, offer: int) -> dict[str, object]:
    """The parameters of ``notation.chow_offer``: a chow written with an offer other than 上家.

    >>> chow_offer("123m", 2)
    {'written': '123m', 'offer': 2, 'offer_name': '对家'}
    """
    return {"written": written, "offer": offer, "offer_name": _OFFER_NAMES[offer]}


_OFFER_NAMES = {1: "上家", 2: "对家", 3: "下家"}


def _parse_meld(text: str, start: int, close: int) -> Meld:
    """Parse ``text[start:close+1]`` = ``[...]`` into a Meld (no wildcard knowledge yet)."""
    inner = text[start + 1 : close]
    pos0 = start + 1  # position of '['
    offer = 0
    offer_pos = 0
    body = inner
    if "," in inner:
        comma = inner.index(",")
        body, offer_text = inner[:comma], inner[comma + 1 :]
        stripped = offer_text.strip()
        # the offer's first character, past spaces after the comma
        offer_pos = start + 1 + comma + 2 + (len(offer_text) - len(offer_text.lstrip())
                                             if stripped else 0)
        if stripped not in ("1", "2", "3"):
            shown = stripped or "nothing"
            # A kong with an offer is exposed (明杠, also 加杠): a concealed kong (暗杠) is
            # the kong written without one, so an offer like 0 meant for "concealed" is
            # refused with that hint rather than read either way.
            more: dict[str, str] = {"more": ""}  # a second sentence, when a slip explains it
            if "=" not in body:
                try:
                    if len(parse_tiles(body, offset=start + 1, what="meld")) == 4:
                        more = {"more": "kong", "body": body}
                except NotationError:
                    pass
            if len(stripped) == 1 and stripped in T.SEATS:
                more = {"more": "seat"}
            elif stripped and stripped[0] in "上对對下":
                num = "1" if stripped[0] == "上" else "3" if stripped[0] == "下" else "2"
                more = {"more": "relative", "num": num, "word": stripped[0]}
            raise NotationError("notation.offer_bad" if stripped else "notation.offer_missing",
                                offer_pos, text, offer=shown, **more)
        offer = int(stripped)
    reading: tuple[int, ...] | None = None
    if "=" in body:
        eq = body.index("=")
        phys_text, read_text = body[:eq], body[eq + 1 :]
        read = parse_tiles(read_text, offset=start + 1 + eq + 1, what="meld reading")
        reading = tuple(sorted(t for t, _ in read))
    else:
        phys_text = body
    phys = parse_tiles(phys_text, offset=start + 1, what="meld")
    tiles = tuple(sorted(t for t, _ in phys))
    if len(tiles) not in (3, 4):
        raise NotationError("notation.meld_size", pos0, text, n=len(tiles))
    if reading is not None and len(reading) != len(tiles):
        raise NotationError("notation.meld_reading_size", pos0, text, n=len(tiles),
                            m=len(reading))
    shape = reading if reading is not None else tiles
    if offer in (2, 3) and _is_chow(shape):
        # docs/rulings.md#common-chow-offer: 吃 only from 上家. COMH's notation uses ',N' on a chow
        # for which tile was claimed, so a player used to it writes [123m,2]: refuse, saying so.
        raise NotationError("notation.chow_offer", offer_pos, text,
                            **chow_offer("".join(body.split()), offer))
    return Meld(tiles=tiles, offer=offer, reading=reading, position=pos0)


def _is_chow(tiles: tuple[int, ...]) -> bool:
    """True for three consecutive tiles of one suit (sorted), e.g. 1m 2m 3m."""
    return (len(tiles) == 3 and tiles[2] < 27 and tiles[0] // 9 == tiles[2] // 9
            and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2)


def parse_flowers(text: str) -> tuple[int | None, tuple[int, ...]]:
    """Parse a ``--flowers`` value: a count ``0``-``8``, or which flowers.

    Returns ``(count, which)``: ``which`` is empty when only a count was given.

    >>> parse_flowers("3")
    (3, ())
    >>> parse_flowers("15f")
    (2, (1, 5))
    >>> parse_flowers("春梅")
    (2, (1, 5))
    """
    s = normalise(text.strip())[0]  # full-width ３ or 一五f as typed by an input method
    if s.isdigit() and s.isascii():
        if len(s) > LONGEST:  # never int() of a long text, nor echo it
            raise NotationError("notation.flowers_long", None, text, digits=len(s))
        n = int(s)
        if n > 8:
            raise NotationError("notation.flowers_count", None, text, n=n)
        return n, ()
    which: list[int] = []
    pending: list[int] = []
    for i, ch in enumerate(s):
        if ch.isdigit() and ch.isascii():
            d = int(ch)
            if not 1 <= d <= 8:
                raise NotationError("notation.flower_number", i + 1, text, d=d)
            pending.append(d)
        elif ch == "f":
            if not pending:
                raise NotationError("notation.flower_f_alone", i + 1, text)
            which.extend(pending)
            pending = []
        elif ch in T.FLOWER_CHARS:
            which.append(T.FLOWER_CHARS.index(ch) + 1)
        elif ch.isspace():
            continue
        else:
            raise NotationError("notation.flower_unexpected", i + 1, text, char=ch)
    if pending:
        raise NotationError("notation.flower_suffix", len(s), text)
    if len(set(which)) != len(which):
        dup = next(f for f in which if which.count(f) > 1)
        raise NotationError("notation.flower_twice", None, text, d=dup,
                            name=T.flower_name(dup))
    return len(which), tuple(sorted(which))
