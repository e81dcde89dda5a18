"""Read the compact hand notation of docs/contract.md#notation into a :class:`~scorer.model.hand.Hand`.

Grammar (spaces between groups are ignored)::

    hand    := meld* tile+
    meld    := '[' tile+ ('=' tile+)? (',' OFFER)? ']'
    tile    := DIGITS SUIT | HONOR | DIGIT 'z' | 东南西北中发白 | Unicode tile
    SUIT    := m p s | w b t          (w=m 万, b=p 饼, t=s 条)
    HONOR   := E S W N C F P
    OFFER   := 1 | 2 | 3              (上家 / 对家 / 下家)

The last concealed tile written is the winning tile. Every error names the
1-based character position it was found at::

    >>> parse_hand("123m5p8")
    Traceback (most recent call last):
    ...
    scorer.errors.NotationError: position 7: '8' has no suit letter after it
"""

from __future__ import annotations

import re

from ..errors import NotationError
from . import tiles as T
from .hand import Hand, Meld

MAX_HAND_CHARS = 200  # a real hand is ~20-60 characters; refuse megabyte inputs early

_HONOR_INPUT: dict[str, int] = {}
for _table in (T.HONOR_LETTERS, T.HONOR_CHARS, T.HONOR_CHARS_TRAD):
    for _i, _ch in enumerate(_table):
        _HONOR_INPUT[_ch] = 27 + _i
for _t in range(T.NUM_KINDS):
    _HONOR_INPUT[T.glyph(_t)] = _t  # Unicode tiles are accepted too


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


def _parse_tiles_slow(text: str, offset: int, what: str) -> list[tuple[int, int]]:
    """The careful reader: every character checked, errors with positions."""
    out: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        pos = offset + i + 1
        if ch.isdigit() and ch.isascii():
            if ch == "0":
                raise NotationError("'0' is not a tile number (tiles are 1-9)", pos, text)
            pending.append((int(ch), pos))
            i += 1
            continue
        if ch in T.ALIASES or ch == "z":
            if not pending:
                raise NotationError(f"suit letter '{ch}' has no digits before it", pos, text)
            for d, dpos in pending:
                if ch == "z":
                    if d > 7:
                        raise NotationError(
                            f"'{d}z' is not an honor (1z-7z are E S W N C F P)", dpos, text
                        )
                    out.append((27 + d - 1, dpos))
                else:
                    out.append((T.tile(d, T.ALIASES[ch]), dpos))
            pending = []
            i += 1
            continue
        if pending and (ch in _HONOR_INPUT or ch.isspace() or ch in "[]"):
            d, dpos = pending[-1]
            raise NotationError(f"'{d}' has no suit letter after it", dpos, text)
        if ch in _HONOR_INPUT:
            out.append((_HONOR_INPUT[ch], pos))
        elif ch.isspace():
            pass
        elif ch == "f" and pending:
            raise NotationError("flowers are given with --flowers, not in the hand", pos, text)
        elif ch in "encf":
            raise NotationError(
                f"'{ch}' is not a tile; honors are uppercase (E S W N C F P)", pos, text
            )
        elif ch in T.FLOWER_CHARS:
            raise NotationError(
                f"'{ch}' is a flower; flowers are given with --flowers, not in the hand", pos,
                text,
            )
        else:
            raise NotationError(f"unexpected character {ch!r} in the {what}", pos, text)
        i += 1
    if pending:
        d, dpos = pending[-1]
        raise NotationError(f"'{d}' has no suit letter after it", dpos, text)
    return out


def parse_hand(text: str) -> Hand:
    """Parse a hand written in the notation of docs/contract.md#notation.

    >>> h = parse_hand("[5555p,2]123m456s789sEE")
    >>> h.melds[0].offer, h.winning
    (2, 27)
    """
    if len(text) > MAX_HAND_CHARS:
        raise NotationError(
            f"the hand is {len(text)} characters long; a hand is at most {MAX_HAND_CHARS}",
            MAX_HAND_CHARS + 1,
            "",
        )
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
                raise NotationError(
                    "fixed melds must come before the concealed tiles", i + 1, text
                )
            close = text.find("]", i + 1)
            nested = text.find("[", i + 1)
            if nested != -1 and (close == -1 or nested < close):
                raise NotationError("'[' inside a meld: melds cannot be nested", nested + 1, text)
            if close == -1:
                raise NotationError("'[' is never closed with ']'", i + 1, text)
            meld = _parse_meld(text, i, close)
            melds.append(meld)
            sources.extend((t, meld.position) for t in meld.tiles)
            i = close + 1
            continue
        if ch == "]":
            raise NotationError("']' without a '[' before it", i + 1, text)
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
        raise NotationError(  # where the missing tiles would go: after the end
            "the hand has no concealed tiles; the last concealed tile is the winning tile",
            len(text) + 1,
            text,
        )
    *rest, (win, _) = concealed
    hand = Hand(
        melds=tuple(sorted(melds, key=lambda m: (m.tiles, m.offer, m.reading or ()))),
        concealed=tuple(sorted(t for t, _ in rest)),
        winning=win,
        sources=tuple(sources),
    )
    return hand


def _parse_meld(text: str, start: int, close: int) -> Meld:
    """Parse ``text[start:close+1]`` = ``[...]`` into a Meld (no wildcard knowledge yet)."""
    inner = text[start + 1 : close]
    pos0 = start + 1  # position of '['
    offer = 0
    body = inner
    if "," in inner:
        comma = inner.index(",")
        body, offer_text = inner[:comma], inner[comma + 1 :]
        offer_pos = start + 1 + comma + 2
        stripped = offer_text.strip()
        if stripped not in ("1", "2", "3"):
            shown = stripped or "nothing"
            # A kong with an offer is exposed (明杠, also 加杠): a concealed kong (暗杠) is
            # the kong written without one, so an offer like 0 meant for "concealed" is
            # refused with that hint rather than read either way.
            kong = ""
            if "=" not in body:
                try:
                    if len(parse_tiles(body, offset=start + 1, what="meld")) == 4:
                        kong = f"; a concealed kong (暗杠) is written without an offer: [{body}]"
                except NotationError:
                    pass
            raise NotationError(
                f"offer {shown!r} after ',' must be 1 (上家), 2 (对家) or 3 (下家){kong}"
                if stripped
                else f"',' must be followed by an offer 1 (上家), 2 (对家) or 3 (下家), "
                f"not {shown}{kong}",
                offer_pos,
                text,
            )
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
        raise NotationError(
            f"a meld has 3 or 4 tiles, this one has {len(tiles)}", pos0, text
        )
    if reading is not None and len(reading) != len(tiles):
        raise NotationError(
            f"the meld has {len(tiles)} tiles but its reading after '=' has {len(reading)}",
            pos0,
            text,
        )
    return Meld(tiles=tiles, offer=offer, reading=reading, position=pos0)


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
    s = text.strip()
    if s.isdigit() and s.isascii():
        n = int(s)
        if n > 8:
            raise NotationError(f"--flowers {n}: there are only 8 flowers", None, text)
        return n, ()
    which: list[int] = []
    pending: list[int] = []
    for i, ch in enumerate(s):
        if ch.isdigit() and ch.isascii():
            d = int(ch)
            if not 1 <= d <= 8:
                raise NotationError(f"flower {d} does not exist (1-4 春夏秋冬, 5-8 梅兰竹菊)",
                                    i + 1, text)
            pending.append(d)
        elif ch == "f":
            if not pending:
                raise NotationError("'f' has no flower numbers before it", i + 1, text)
            which.extend(pending)
            pending = []
        elif ch in T.FLOWER_CHARS:
            which.append(T.FLOWER_CHARS.index(ch) + 1)
        elif ch.isspace():
            continue
        else:
            raise NotationError(
                f"unexpected character {ch!r} in --flowers (write a count 0-8, or e.g. 15f, 春梅)",
                i + 1, text,
            )
    if pending:
        raise NotationError("flower numbers need the suffix 'f' (e.g. 15f)", len(s), text)
    if len(set(which)) != len(which):
        dup = next(f for f in which if which.count(f) > 1)
        raise NotationError(f"flower {dup} ({T.flower_name(dup)}) is listed twice", None, text)
    return len(which), tuple(sorted(which))
