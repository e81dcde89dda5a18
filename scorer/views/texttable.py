"""The small text tables of the ``score`` report, without importing tabulate.

:func:`simple` writes exactly what ``tabulate(rows, headers, tablefmt="simple",
colalign=...)`` writes for the report's table (words in left-aligned columns, whole numbers
in the right-aligned last one, the dash ``—`` for a seat that neither wins nor pays), and
hands any other table to tabulate itself. Importing
tabulate costs the start-up of ``mjscore score`` a fifth of its time (it reads its own
version through ``importlib.metadata``), and this table is all the report needs of it.
tests/views/test_texttable.py checks the two agree.

:func:`fitted` is every other table a person reads: tabulate's, within the terminal's
width, its long cells folded rather than run off the screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .i18n import display_width, known_width

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


FOLD_FLOOR = 8  # columns a folded cell keeps at least (a tile's notation, a short word)


def fitted(rows: Sequence[Sequence[Any]], headers: Sequence[str], width: int | None = None,
           fold: Sequence[int] | None = None, last: Sequence[int] = (), drop_empty: bool = False,
           lines: int = 0, floor: int = FOLD_FLOOR, **options: Any) -> str:
    """tabulate's ``simple`` table of ``rows`` within ``width`` columns (default: the
    terminal's, :func:`scorer.text.width.columns`): while it is wider, the widest of the
    columns ``fold`` (default: every column holding text) has its cells and header folded
    narrower by :func:`scorer.text.width.wrap` (English at spaces, Chinese between
    characters), down to ``floor`` columns (:data:`FOLD_FLOOR`); the columns ``last`` (a
    hand's notation) only when no other can fold further. A table that still cannot fit is
    as narrow as it gets (the columns counted before any is left out). ``lines``: a folded
    cell keeps that many lines, the last ending in ``…`` (0: all). ``drop_empty``: a column empty in every row
    is left out (a table for people: the CSV keeps every column). ``options`` go to
    tabulate (``colalign``, …).

    >>> print(fitted([["1", "a long list of words here", "+8"]], ["n", "patterns", "pts"], 20))
    n  patterns     pts
    -  -----------  ---
    1  a long list   +8
       of words
       here
    """
    from tabulate import tabulate

    from ..text.width import columns

    width = columns() if width is None else width
    heads = list(headers)
    body = [list(r) for r in rows]
    lasts = set(last)
    if drop_empty and body:
        keep = [i for i in range(len(heads)) if any(r[i] not in ("", None) for r in body)]
        lasts = {keep.index(i) for i in lasts if i in keep}
        heads, body = [heads[i] for i in keep], [[r[i] for i in keep] for r in body]
        if "colalign" in options:
            options["colalign"] = tuple(options["colalign"][i] for i in keep)
    if fold is None:
        fold = [i for i in range(len(heads))
                if any(isinstance(r[i], str) and not _WHOLE.fullmatch(r[i]) for r in body)]
    shown = {i: _cells(body, heads, i) for i in fold}  # the column's cells as folded now
    # a column folds to its floor at most, and never cuts a word of its header
    floors = {i: max([floor, *(display_width(w) for w in str(heads[i]).split())]) for i in fold}
    text, snug = "", False
    for _ in range(9):  # folding cells can leave a column narrower than asked: try again
        text = _render(tabulate, body, heads, shown, snug, options)
        over = max((display_width(x) for x in text.split("\n")), default=0) - width
        if over > 0 and not snug:  # first give up the two spaces a header keeps spare
            snug = True
            continue
        if over <= 0:
            break
        now = {i: _column_width(shown[i]) for i in shown}
        first = {i: w for i, w in now.items() if i not in lasts}
        cap = _cap(floors, first, over)
        caps = {i: w for i, w in now.items() if i in lasts}  # as they are, unless below
        caps.update({i: max(floors[i], floor if cap is None else cap) for i in first})
        if cap is None:  # the others at their floor do not make room: the last ones fold too
            left = over - sum(w - caps[i] for i, w in first.items() if w > caps[i])
            last_cap = _cap(floors, {i: w for i, w in now.items() if i in lasts}, left) or floor
            caps.update({i: max(floors[i], last_cap) for i in now if i in lasts})
        narrower = [i for i, w in now.items() if w > caps[i]]
        if not narrower:
            break
        for i in narrower:
            cells, cap_i = _cells(body, heads, i), caps[i]
            shown[i] = [fold_cell(cells[0], cap_i),
                        *(fold_cell(c, cap_i, lines) for c in cells[1:])]
    return text


def _render(tabulate: Any, body: list[list[Any]], heads: list[str], shown: dict[int, list[str]],
            snug: bool, options: dict[str, Any]) -> str:
    """The table with the cells as folded now; ``snug``: a column no wider than its widest
    cell or header (tabulate keeps two columns spare beside a header: MIN_PADDING)."""
    import tabulate as module

    spare = module.MIN_PADDING
    if snug:
        module.MIN_PADDING = 0
    try:
        return str(tabulate([[shown[i][k + 1] if i in shown else c for i, c in enumerate(r)]
                             for k, r in enumerate(body)],
                            headers=[shown[i][0] if i in shown else h
                                     for i, h in enumerate(heads)],
                            tablefmt="simple", **options))
    finally:
        module.MIN_PADDING = spare


def fold_lines(text: str, width: int | None = None) -> str:
    """Every line of a view's ``text`` within ``width`` columns (default: the terminal's):
    a line that fits stays as it is (a table's row that fits, a blank line), a longer one
    folds with its continuation indented two columns past its own indent
    (:func:`scorer.text.width.wrap_text`).

    >>> print(fold_lines("Not counted: 3 failed lines (4, 8, 15)", 20))
    Not counted: 3
      failed lines (4,
      8, 15)
    """
    from ..text.width import wrap_text

    return wrap_text(text, width, "  ")


def _cap(floors: dict[int, int], widths: dict[int, int], over: int) -> int | None:
    """The widest a column may stay so that folding every wider one to it (column ``i`` no
    narrower than ``floors[i]``) gains ``over`` columns; None when the floors do not.

    >>> _cap({0: 8, 1: 8, 2: 8}, {0: 30, 1: 20, 2: 5}, 15), _cap({0: 8}, {0: 10}, 5)
    (17, None)
    """
    for cap in range(max(widths.values(), default=0) - 1, 0, -1):
        if sum(w - max(cap, floors[i]) for i, w in widths.items() if w > max(cap, floors[i])) \
                >= over:
            return cap
        if all(cap <= floors[i] for i in widths):
            break
    return None


def _cells(body: list[list[Any]], heads: list[str], i: int) -> list[str]:
    """Column ``i`` as text, its header first."""
    return [str(heads[i]), *("" if r[i] is None else str(r[i]) for r in body)]


def _column_width(cells: list[str]) -> int:
    """The columns the widest line of any cell takes."""
    return max((display_width(x) for c in cells for x in c.split("\n")), default=0)


def fold_cell(cell: str, width: int, lines: int = 0) -> str:
    """A cell's every line folded to ``width`` columns (:func:`scorer.text.width.wrap`);
    beyond ``lines`` lines (0: no limit) it ends in ``…``.

    >>> print(fold_cell("a bb ccc dddd", 6, lines=2))
    a bb
    ccc …
    """
    from ..text.width import wrap

    out = [x for line in cell.split("\n") for x in (wrap(line, width) or [""])]
    if lines and len(out) > lines:
        out = out[:lines]
        last = out[-1]
        while last and display_width(last + " …") > width:
            last = last[:-1]
        out[-1] = last + " …"
    return "\n".join(out)
