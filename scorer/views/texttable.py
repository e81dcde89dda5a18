"""The small text tables of the ``score`` report, without importing tabulate.

:func:`simple` writes exactly what ``tabulate(rows, headers, tablefmt="simple",
colalign=...)`` writes for the report's table (words in left-aligned columns, whole numbers
in the right-aligned last one, the dash ``—`` for a seat that neither wins nor pays), and
hands any other table to tabulate itself. Importing
tabulate costs the start-up of ``mjscore score`` a fifth of its time (it reads its own
version through ``importlib.metadata``), and this table is all the report needs of it.
tests/views/test_texttable.py checks the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .i18n import known_width

MIN_PADDING = 2  # tabulate's: a header is two characters narrower than its column
_WORDS = re.compile(r"[ -/:-~—]*")  # ASCII but digits, and the dash (one column wide)
_WHOLE = re.compile(r"[+-]?[0-9]+")


def _fast(cell: object, align: str) -> bool:
    """True for a cell this module writes as tabulate does: words without digits in a
    left-aligned column (Chinese ones too, of widths known without wcwidth), a whole
    number in a right-aligned one; nothing empty or padded."""
    if not isinstance(cell, str) or not cell or cell != cell.strip():
        return False
    if align != "left":
        return bool(_WHOLE.fullmatch(cell))
    if cell.isascii():
        return bool(_WORDS.fullmatch(cell))
    return known_width(cell) is not None and not any(c.isdigit() for c in cell)


def _width(cell: str) -> int:
    """The columns a cell that passed :func:`_fast` takes (wide characters count two)."""
    if cell.isascii():
        return len(cell)
    w = known_width(cell)
    return len(cell) if w is None else w


def simple(rows: Sequence[Sequence[str]], headers: Sequence[str], colalign: Sequence[str]
           ) -> str:
    """Return the rows as tabulate's ``simple`` table, columns aligned ``left``/``right``.

    >>> print(simple([["E (dealer)", "pays", "-16"], ["W", "winner", "+32"]],
    ...              ["seat", "role", "points"], ("left", "left", "right")))
    seat        role      points
    ----------  ------  --------
    E (dealer)  pays         -16
    W           winner       +32
    """
    if (not rows or len(colalign) != len(headers) or colalign[-1] != "right"
            or any(len(r) != len(headers) for r in rows)
            or not all(_fast(h, "left") for h in headers)
            or not all(_fast(c, a) for r in rows for c, a in zip(r, colalign, strict=True))):
        # wide characters, numbers to format, ...: tabulate knows how
        from tabulate import tabulate

        return str(tabulate(rows, headers=list(headers), tablefmt="simple",
                            colalign=tuple(colalign)))
    widths = [max(_width(h) + MIN_PADDING, *(_width(r[i]) for r in rows))
              for i, h in enumerate(headers)]

    def line(r: Sequence[str]) -> str:
        # padded to display columns, as tabulate pads wide characters
        return "  ".join(c + " " * (w - _width(c)) if a == "left" else " " * (w - _width(c)) + c
                         for c, w, a in zip(r, widths, colalign, strict=True))
    return "\n".join([line(headers), "  ".join("-" * w for w in widths),
                      *(line(r) for r in rows)])
