"""The 34 tile kinds and the 8 flowers: indices, names, suits and Unicode glyphs.

A tile kind is an ``int`` in ``0..33``:

* ``0..8``   characters 1m..9m (万)
* ``9..17``  dots 1p..9p (筒/饼)
* ``18..26`` bamboo 1s..9s (条/索)
* ``27..33`` honors E S W N (winds), C F P (red, green, white dragons)

Keeping tiles as small ints makes the decomposition search a matter of
counting, the way fast mahjong calculators do it.
"""

from __future__ import annotations

from typing import Final

NUM_KINDS: Final = 34
SUITS: Final = "mps"
HONOR_LETTERS: Final = "ESWNCFP"
HONOR_CHARS: Final = "东南西北中发白"
# Traditional forms, accepted on input (the Hangzhou and Jinhua rule texts are in traditional characters).
HONOR_CHARS_TRAD: Final = "東南西北中發白"
FLOWER_CHARS: Final = "春夏秋冬梅兰竹菊"

EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(27, 34)
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (RED, GREEN, WHITE)
# The four seats, dealer first, in turn order: the one seats table (the winds by seat)
SEATS: Final = ("E", "S", "W", "N")
# A seat by its own name: the letter (either case; full width through narrow) or the wind's
# character, simplified or traditional (东南西北, 東)
_SEAT_NAMES: Final[dict[str, str]] = {
    **{s: s for s in SEATS}, **{s.lower(): s for s in SEATS},
    **dict(zip(HONOR_CHARS[:4], SEATS, strict=True)), "東": "E",
}
# A seat said from a player's place in the turn E→S→W→N (docs/rulings.md#common-seats: "E's 上家 is N"), as
# steps forward: 上家 plays just before, 下家 just after, 对家 sits opposite
RELATIVE_SEATS: Final[dict[str, int]] = {"上家": -1, "对家": 2, "下家": 1, "對家": 2}


def seat_of(word: str) -> str | None:
    """The seat ``word`` names by itself: E S W N in either case or full width, or the
    wind's character 东南西北; None for any other word (上家 too: :func:`seat_from`).

    >>> seat_of("东"), seat_of(" s "), seat_of("Ｗ"), seat_of("上家")
    ('E', 'S', 'W', None)
    """
    return _SEAT_NAMES.get(narrow(word).strip())


def is_relative(word: str) -> bool:
    """Whether ``word`` says a seat from a player's place: 上家, 下家, 对家 (對家).

    >>> is_relative("上家"), is_relative("S")
    (True, False)
    """
    return narrow(word).strip() in RELATIVE_SEATS


def seat_from(word: str, of: str, seats: tuple[str, ...] = SEATS) -> str | None:
    """The seat ``word`` names, a relative word said from the seat ``of``'s place in the
    turn among ``seats`` (those at the table, dealer first); None when it names none (not
    a seat word, ``of`` not at the table, or 对家 at a table without four players).

    >>> [seat_from("上家", s) for s in SEATS], [seat_from("下家", s) for s in SEATS]
    (['N', 'E', 'S', 'W'], ['S', 'W', 'N', 'E'])
    >>> [seat_from("对家", s) for s in SEATS], seat_from("北", "E")
    (['W', 'N', 'E', 'S'], 'N')
    >>> seat_from("上家", "E", ("E", "S", "W")), seat_from("对家", "E", ("E", "S", "W"))
    ('W', None)
    """
    step = RELATIVE_SEATS.get(narrow(word).strip())
    if step is None:
        return seat_of(word)
    if of not in seats or (step == 2 and len(seats) != 4):
        return None
    return seats[(seats.index(of) + step) % len(seats)]


def tile(number: int, suit: str) -> int:
    """Return the index of a suited tile.

    >>> tile(5, "p")
    13
    """
    return SUITS.index(suit) * 9 + number - 1


def is_honor(t: int) -> bool:
    """True for winds and dragons.

    >>> is_honor(27), is_honor(8)
    (True, False)
    """
    return t >= 27


def is_wind(t: int) -> bool:
    """True for E S W N."""
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    """True for C F P (中 发 白)."""
    return t >= 31


def suit_of(t: int) -> str:
    """Return 'm', 'p', 's' or 'z' (honors).

    >>> suit_of(20)
    's'
    """
    return "z" if t >= 27 else SUITS[t // 9]


def number_of(t: int) -> int:
    """Return 1..9 for suited tiles and 1..7 for honors (E=1 … P=7, as in ``1z``..``7z``).

    >>> number_of(13), number_of(33)
    (5, 7)
    """
    return t - 26 if t >= 27 else t % 9 + 1


def is_terminal(t: int) -> bool:
    """True for suited 1 and 9."""
    return t < 27 and t % 9 in (0, 8)


def name(t: int) -> str:
    """Return the short name of a tile.

    >>> name(0), name(13), name(27), name(33)
    ('1m', '5p', 'E', 'P')
    """
    if 0 <= t < NUM_KINDS:
        return _NAMES[t]  # (every report and record names its tiles one by one)
    if t >= 27:
        return HONOR_LETTERS[t - 27]
    return f"{t % 9 + 1}{SUITS[t // 9]}"


_NAMES: Final = tuple(HONOR_LETTERS[t - 27] if t >= 27 else f"{t % 9 + 1}{SUITS[t // 9]}"
                      for t in range(NUM_KINDS))


def glyph(t: int) -> str:
    """Return the Unicode mahjong glyph of a tile.

    >>> glyph(0), glyph(27)
    ('🀇', '🀀')
    """
    if t >= 27:
        return chr(0x1F000 + t - 27)
    suit, n = divmod(t, 9)
    start = {0: 0x1F007, 1: 0x1F019, 2: 0x1F010}[suit]  # man, pin, sou blocks
    return chr(start + n)


def flower_name(f: int) -> str:
    """Return the Chinese name of flower 1..8 (春夏秋冬 梅兰竹菊).

    >>> flower_name(5)
    '梅'
    """
    return FLOWER_CHARS[f - 1]


def parse_tile(text: str) -> int:
    """Parse one tile name ('5p', '5b', 'E', '1z', '东'); raise ValueError if it is not one.

    Full-width and Chinese forms are read too (:data:`INPUT_FORMS`):

    >>> parse_tile("3w"), parse_tile("7z"), parse_tile("發"), parse_tile("九万"), parse_tile("５ｐ")
    (2, 33, 32, 8, 13)
    """
    s = "".join(INPUT_FORMS.get(c, c) for c in text.strip() if c not in INVISIBLE).strip()
    if len(s) == 1:
        for table in (HONOR_LETTERS, HONOR_CHARS, HONOR_CHARS_TRAD):
            if s in table:
                return 27 + table.index(s)
    if len(s) == 2 and s[0] in "123456789":
        suit = ALIASES.get(s[1])
        if suit is not None:
            return tile(int(s[0]), suit)
        if s[1] == "z" and s[0] in "1234567":
            return 27 + int(s[0]) - 1
    raise ValueError(f"'{text}' is not a tile (write e.g. 5p, 3m, 7s, E, C, 1z, 东)")


# Suffix letter -> canonical suit. w/b/t are the pinyin initials 万/饼/条.
ALIASES: Final = {"m": "m", "p": "p", "s": "s", "w": "m", "b": "p", "t": "s"}

# The width forms a Chinese input method types for ASCII, one character for one: its
# full-width punctuation and letters (，：－＋＝＃ Ｓ) and the ideographic space. Every text a
# person types is read through them (:func:`narrow`): hands, lines of a file, flags' values.
# Full-width digits are not among them: a number is written in 0-9 (docs/contract.md#flags,
# scorer.model.numbers); only a hand (INPUT_FORMS) and --flowers read １２３.
WIDTH_FORMS: Final[dict[str, str]] = {
    **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F) if not 0xFF10 <= c <= 0xFF19},
    "\u3000": " ",
}
_NARROW: Final = str.maketrans(WIDTH_FORMS)


def narrow(text: str) -> str:
    """``text`` with each width form (:data:`WIDTH_FORMS`) as its ASCII character. One
    character stands for one, so a position in the result is the same position in ``text``
    (an error points at what was typed).

    >>> narrow("# players： 甲，乙，丙，丁"), narrow("－－from\u3000Ｓ"), narrow("cap＝１２８")
    ('# players: 甲,乙,丙,丁', '--from S', 'cap=１２８')
    """
    return text if text.isascii() else text.translate(_NARROW)


# How a Chinese input method types the notation, one character for one ASCII character:
# the width forms above and the full-width digits (１２３ｍ Ｐ ［］，＝), the IME's 【】 for [ ],
# the suit characters 万 筒/饼 条/索 (simplified and traditional) and the numerals 一…九.
INPUT_FORMS: Final[dict[str, str]] = {
    **WIDTH_FORMS,
    **{chr(c): chr(c - 0xFEE0) for c in range(0xFF10, 0xFF1A)},
    "【": "[", "】": "]", "〔": "[", "〕": "]", "〖": "[", "〗": "]",
    "万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s",
    **{ch: str(i + 1) for i, ch in enumerate("一二三四五六七八九")},
}
# Dropped on input: pasted from chat apps come zero-width spaces and joiners, the
# byte-order mark, and the emoji variation selectors that follow 🀄 (U+1F004 U+FE0F).
INVISIBLE: Final = frozenset("\u200b\u200c\u200d\u2060\ufeff\ufe0e\ufe0f")
