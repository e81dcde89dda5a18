"""The hand model: physical tiles as written, fixed melds, the winning tile.

A :class:`Hand` knows nothing about wildcards or rulesets: which tiles are wild
is decided by the table (:mod:`scorer.engine.context` builds its wildcard model,
:mod:`scorer.search.readings` reads the hand under it). It is a pure, hashable value;
:func:`scorer.model.notation.parse_hand` builds one and :meth:`Hand.notation` prints it
back so that ``parse_hand(h.notation()) == h``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..errors import HandError
from . import tiles as T


@dataclass(frozen=True)
class Meld:
    """A fixed meld as written in brackets.

    ``tiles`` are the physical tiles (sorted), ``offer`` is 1/2/3 (上家/对家/下家)
    or 0 when none was written, ``reading`` is what the meld says it is after
    ``=`` (sorted) or None. Four tiles without an offer are a concealed kong.
    """

    tiles: tuple[int, ...]
    offer: int = 0
    reading: tuple[int, ...] | None = None
    position: int = field(default=0, compare=False)

    @property
    def concealed_kong(self) -> bool:
        """True for a kong written without an offer, e.g. ``[5555p]``."""
        return len(self.tiles) == 4 and self.offer == 0

    @property
    def is_kong(self) -> bool:
        return len(self.tiles) == 4

    def notation(self) -> str:
        """Return the meld in normal form, e.g. ``[5555p,2]`` or ``[55pP=555p]``."""
        text = format_tiles(self.tiles)
        if self.reading is not None:
            text += "=" + format_tiles(self.reading)
        if self.offer:
            text += f",{self.offer}"
        return f"[{text}]"


@dataclass(frozen=True)
class Hand:
    """A finished hand: fixed melds, concealed tiles and the winning tile.

    ``concealed`` holds the concealed tiles *without* the winning tile, sorted;
    ``winning`` is the last concealed tile written. ``sources`` maps every physical
    tile, in the order written, to its 1-based character position (for errors).
    ``written`` is what the parser understood, in the user's order (melds and groups
    as written, ASCII notation: ``１２３万`` reads as ``123m``); empty for a hand not
    read from text. Neither takes part in equality.
    """

    melds: tuple[Meld, ...]
    concealed: tuple[int, ...]
    winning: int
    sources: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    written: str = field(default="", compare=False)

    def as_written(self) -> str:
        """Return the hand as the user wrote it, normalised (:attr:`written`), or the
        normal form when it was not read from text.

        >>> from scorer.model.notation import parse_hand
        >>> parse_hand("１２３万 ４５６筒 ７８９条 ２３４条 白 ９万").as_written()
        '123m456p789s234sP9m'
        """
        return self.written or self.notation()

    @property
    def concealed_with_win(self) -> tuple[int, ...]:
        """All concealed tiles including the winning tile (sorted)."""
        return tuple(sorted((*self.concealed, self.winning)))

    @property
    def kong_count(self) -> int:
        return sum(1 for m in self.melds if m.is_kong)

    def physical_counts(self) -> Counter[int]:
        """Count every physical tile, melds included."""
        c: Counter[int] = Counter(self.concealed)
        c[self.winning] += 1
        for m in self.melds:
            c.update(m.tiles)
        return c

    def tile_total(self) -> int:
        return len(self.concealed) + 1 + sum(len(m.tiles) for m in self.melds)

    def notation(self) -> str:
        """Return the hand in normal form.

        >>> from scorer.model.notation import parse_hand
        >>> parse_hand("[EEE] [123m] 55p 789s 23p 4p").notation()
        '[123m][EEE]2355p789s4p'
        """
        return "".join(m.notation() for m in self.melds) + format_tiles(
            self.concealed
        ) + format_tiles((self.winning,))

    def unicode(self) -> str:
        """Return the hand as Unicode tiles, melds in brackets, the winning tile apart.

        >>> from scorer.model.notation import parse_hand
        >>> parse_hand("[EEE]123m55p789s23p4p").unicode()
        '[🀀🀀🀀] 🀇🀈🀉🀚🀛🀝🀝🀖🀗🀘 🀜'
        """
        parts = ["[" + "".join(T.glyph(t) for t in m.tiles) + "]" for m in self.melds]
        parts.append("".join(T.glyph(t) for t in self.concealed))
        parts.append(T.glyph(self.winning))
        return " ".join(p for p in parts if p)

    def position_of_copy(self, t: int, n: int) -> int | None:
        """Return the character position of the n-th (1-based) copy of tile t as written."""
        seen = 0
        for tile, pos in self.sources:
            if tile == t:
                seen += 1
                if seen == n:
                    return pos
        return None

    def check_size(self, base_size: int, ruleset: str) -> None:
        """Raise HandError unless the hand holds ``base_size`` tiles plus one per kong.

        >>> from scorer.model.notation import parse_hand
        >>> parse_hand("123m456p789s11z2z").check_size(14, "hangzhou")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        scorer.errors.HandError: position 16: 12 tiles; a win needs 14 (+1 per kong)
        """
        need = base_size + self.kong_count
        have = self.tile_total()
        if have != need:
            # where: the first tile too many, or the last tile written when tiles are missing
            order = [pos for _, pos in self.sources]
            pos = (order[need] if have > need else order[-1]) if len(order) == have else None
            here = "at" if have > need and pos is not None else ""
            raise HandError("count.wrong_kongs" if self.kong_count else "count.wrong", pos,
                            have=have, need=need, ruleset=ruleset, base=base_size,
                            kongs=self.kong_count, here=here, tile_n=need + 1)

    def check_copies(self, limits: dict[int, int] | None = None) -> None:
        """Raise HandError if any physical tile appears more often than allowed; return None.

        ``limits`` overrides the default of 4 copies for some tiles (e.g. a flipped
        wildcard has 3 copies in play).

        >>> from scorer.model.notation import parse_hand
        >>> parse_hand("11112m456p789s234sPP").check_copies({33: 1})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        scorer.errors.HandError: position 20: 2 copies of P; only 1 are in play
        """
        # counted in a list (every hand is checked: a Counter costs several times more)
        counts = [0] * T.NUM_KINDS
        for t in self.concealed:
            counts[t] += 1
        counts[self.winning] += 1
        for m in self.melds:
            for t in m.tiles:
                counts[t] += 1
        if max(counts) <= 4 and not (limits and any(counts[t] > n for t, n in limits.items())):
            return
        for t, n in enumerate(counts):
            limit = (limits or {}).get(t, 4)
            if n > limit:
                pos = self.position_of_copy(t, limit + 1)
                raise HandError("copies.too_many" if limit != 4 else "copies.over_four", pos,
                                n=n, tile=T.name(t), limit=limit)


def format_tiles(tiles: tuple[int, ...] | list[int]) -> str:
    """Write tiles compactly: suited runs share a suffix, honors are letters.

    Order is kept within the given sequence except that consecutive tiles of one
    suit share one suffix.

    >>> format_tiles((0, 1, 2, 13, 27, 27, 31))
    '123m5pEEC'
    """
    # one pass, each tile's digit and suit letter looked up (a report writes every group)
    out: list[str] = []
    suit = ""  # the suit letter the digits written last wait for
    for t in tiles:
        if t >= 27:
            if suit:
                out.append(suit)
                suit = ""
            out.append(T.HONOR_LETTERS[t - 27])
            continue
        s = _SUIT_LETTER[t]
        if suit and s != suit:
            out.append(suit)
        out.append(_DIGIT[t])
        suit = s
    if suit:
        out.append(suit)
    return "".join(out)


_SUIT_LETTER = tuple(T.SUITS[t // 9] for t in range(27))
_DIGIT = tuple(str(t % 9 + 1) for t in range(27))
