"""Display columns: how wide a text is in a terminal, and text folded to a width.

A CJK character takes two columns (:func:`display_width`); every text output is folded
to the terminal's width (:func:`columns`: ``COLUMNS`` when set, the terminal's own width,
80 when stdout is not a terminal) by :func:`wrap`, which breaks English at spaces and
Chinese between any two characters, never inside a tile's notation when a space is near.

>>> display_width("番种：3"), wrap("一二三四五六", 6)
(7, ['一二三', '四五六'])
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from typing import Any

DEFAULT_COLUMNS = 80  # stdout is not a terminal (a pipe, a file): the width of a page
MIN_COLUMNS = 20  # a narrower COLUMNS is taken as this: a word still fits on a line


def columns(environ: Mapping[str, str] | None = None, stream: Any = None) -> int:
    """The width text output folds to: ``COLUMNS`` when it is a number, else the terminal's
    width when ``stream`` (stdout) is one, else 80.

    >>> columns({"COLUMNS": "100"}), columns({"COLUMNS": "wide"}, stream=None)
    (100, 80)
    """
    env = os.environ if environ is None else environ
    raw = env.get("COLUMNS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return max(MIN_COLUMNS, int(raw))
    out = sys.stdout if stream is None and environ is None else stream
    try:
        if out is not None and out.isatty():
            return max(MIN_COLUMNS, os.get_terminal_size(out.fileno()).columns)
    except (OSError, ValueError, AttributeError):
        pass
    return DEFAULT_COLUMNS


def display_width(text: str) -> int:
    """Return the columns ``text`` takes in a terminal (wide characters count two).

    >>> display_width("番种"), display_width("abc")
    (4, 3)
    """
    if text.isascii():  # the English report: no need to load wcwidth at start-up
        return len(text)
    known = known_width(text)
    if known is not None:  # the Chinese report's words: no need to load wcwidth either
        return known
    from wcwidth import wcswidth

    w = wcswidth(text)
    # a control character makes wcswidth give up (-1): count what can be counted
    return w if w >= 0 else sum(max(0, wcswidth(c)) for c in text)


# Characters whose width is known without wcwidth (tests/lines/test_records.py holds them to
# wcwidth's): CJK ideographs, CJK punctuation and full-width forms take two columns; a
# few symbols of the reports one; the mahjong tiles of the report's Tiles: line one, but
# the red dragon 🀄, an emoji, two.
_WIDE = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0x3000, 0x3029), (0x3030, 0x303E),
         (0xFF01, 0xFF60), (0xFFE0, 0xFFE6), (0x1F004, 0x1F004))
_NARROW = frozenset("·×—…←→")
_NARROW_RANGES = ((0x1F000, 0x1F02B),)


def known_width(text: str) -> int | None:
    """The columns ``text`` takes, if every character in it is printable ASCII or of
    :data:`_WIDE`, :data:`_NARROW` or :data:`_NARROW_RANGES`; else None (wcwidth then counts).

    >>> known_width("番种：3"), known_width("🀄🀀"), known_width("ß") is None
    (7, 3, True)
    """
    n = 0
    for ch in text:
        o = ord(ch)
        if 0x20 <= o < 0x7F or ch in _NARROW:
            n += 1
        elif any(lo <= o <= hi for lo, hi in _WIDE):
            n += 2
        elif any(lo <= o <= hi for lo, hi in _NARROW_RANGES):
            n += 1
        else:
            return None
    return n


# A token of folding: a run of spaces, a run of printable ASCII (a word, a tile's notation),
# or one other character (Chinese breaks between any two) with the closing punctuation that
# must not start a line.
_TOKEN = re.compile(r" +|[\x21-\x7e]+[，。：；、）」』！？]*|[^ ][，。：；、）」』！？]*")


_WORDS = re.compile(r" +|[^ ]+")  # an English text: a Chinese name in it is one word


def wrap(text: str, width: int, indent: str = "", spaces: bool = False) -> list[str]:
    """``text`` (one line) folded into lines of at most ``width`` columns; lines after the
    first start with ``indent``. English breaks at spaces, Chinese between characters
    (with ``spaces``, at spaces only: an English text keeps a Chinese name it glosses
    whole); a word longer than a line is cut.

    >>> wrap("waiting on 1m 4m 7m", 12)
    ['waiting on', '1m 4m 7m']
    >>> wrap("没有胡：只听 1m，不能放铳", 10)
    ['没有胡：只', '听 1m，不', '能放铳']
    >>> wrap("seat (东南西北), or", 12, spaces=True)
    ['seat', '(东南西北),', 'or']
    """
    if display_width(text) <= width:
        return [text]
    lines: list[str] = []
    body = text.lstrip(" ")
    line, space = text[:len(text) - len(body)], ""  # the first line keeps its indent
    for tok in (_WORDS if spaces else _TOKEN).findall(body):
        if tok[0] == " ":
            space = tok
            continue
        joined = line + space + tok if line.strip() else line + tok
        space = ""
        if display_width(joined) <= width:
            line = joined
            continue
        if line.strip():
            lines.append(line.rstrip())
            line = indent
        line += tok
        while display_width(line) > width:  # a word longer than a line: cut it
            cut = _fit(line, width)
            lines.append(line[:cut])
            line = indent + line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _fit(line: str, width: int) -> int:
    """How many characters of ``line`` fit in ``width`` columns (at least one)."""
    w = 0
    for k, ch in enumerate(line):
        w += display_width(ch)
        if w > width:
            return max(1, k)
    return len(line)


def wrap_text(text: str, width: int | None = None, indent: str = "") -> str:
    """Every line of ``text`` folded to ``width`` (default :func:`columns`), a continued
    line indented like its first line's leading spaces plus ``indent``.

    >>> print(wrap_text("  a bb ccc dddd", 8))
      a bb
      ccc
      dddd
    >>> wrap_text("a\\n\\nb", 8)
    'a\\n\\nb'
    """
    width = columns() if width is None else width
    out: list[str] = []
    for ln in text.split("\n"):
        lead = ln[:len(ln) - len(ln.lstrip(" "))]
        out += wrap(ln, width, lead + indent) or [""]  # a blank line stays one blank line
    return "\n".join(out)
