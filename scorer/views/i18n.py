"""The views' short names for the catalogue's words (:mod:`scorer.text`).

``t(key, lang, **values)`` is :func:`scorer.text.render.word`; :func:`heads` pads line
heads to one width. The words themselves live in :mod:`scorer.text.words`, the errors'
messages in :mod:`scorer.text.codes`: one catalogue.

>>> t("from_each", "en", payers="S, N"), t("from_each", "zh", payers="S, N")
(' from each of S, N', '，S, N 各付')
"""

from __future__ import annotations

from typing import Any

from ..text.lang import DEFAULT_LANG
from ..text.render import word
from ..text.width import display_width, known_width
from ..text.words import WORDS as MESSAGES

__all__ = ["DEFAULT_LANG", "MESSAGES", "display_width", "heads", "known_width", "t"]


def t(key: str, lang: str = DEFAULT_LANG, **values: Any) -> str:
    """Return the word ``key`` in ``lang`` ('zh' or 'en'; anything else reads as zh),
    placeholders filled.

    >>> t("col_seat", "zh"), t("col_seat", "en")
    ('座位', 'seat')
    """
    return word(key, lang, **values)


def heads(keys: list[str], lang: str, texts: dict[str, str] | None = None) -> dict[str, str]:
    """Return the line heads ``keys`` in ``lang`` (or as ``texts`` gives them), each padded
    to the widest (in terminal columns: a CJK character takes two), so the report's text
    starts in one column.

    >>> heads(["head_hand", "head_payment"], "en")
    {'head_hand': 'Hand:    ', 'head_payment': 'Payment: '}
    """
    texts = {k: t(k, lang) for k in keys} | (texts or {})
    width = max(display_width(x) for x in texts.values()) + 1
    return {k: x + " " * (width - display_width(x)) for k, x in texts.items()}
