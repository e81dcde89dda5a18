"""How a value is shown in every message: as a ruleset file writes it (:func:`show`), and
a list of them as the language joins one (:func:`join`).

>>> show(None), show(True), show(64), show("flip")
('none', 'true', '64', 'flip')
>>> join(["一对将加4副面子", "七对", "十三幺"], "zh", "or")
'一对将加4副面子、七对或十三幺'
"""

from __future__ import annotations

from typing import Any


def show(v: Any) -> str:
    """A value as a ruleset file writes it: ``none``, ``true``/``false``, else ``str(v)``.

    >>> show(False), show(1.5)
    ('false', '1.5')
    """
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


_JOIN = {  # how a list is joined, per language: (between items, before the last one)
    ("zh", ""): ("、", "、"), ("en", ""): (", ", ", "),
    # Chinese writes "A、B或C": the enumeration comma between, 或 before the last, no spaces
    ("zh", "or"): ("、", "或"), ("en", "or"): (" or ", " or "),
    ("zh", "and"): ("、", "、"), ("en", "and"): (", ", ", "),
}


def join(items: list[str], lang: str, how: str = "") -> str:
    """Words joined as the language joins a list (``how``: "", "or" or "and"); any
    language but ``en`` is joined as zh.

    >>> join(["a", "b"], "zh"), join(["a", "b"], "en", "or"), join(["1m", "4m", "7m"], "zh", "or")
    ('a、b', 'a or b', '1m、4m或7m')
    """
    between, last = _JOIN.get((lang if lang == "en" else "zh", how), (", ", ", "))
    if len(items) < 2:
        return "".join(items)
    return between.join(items[:-1]) + last + items[-1]
