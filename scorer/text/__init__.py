"""The bottom floor's words, shared by every layer: what a person reads, in zh or en.

* :mod:`~scorer.text.near` — the one did-you-mean (:func:`closest`, :class:`Known`);
* :mod:`~scorer.text.values` — a value as a ruleset file writes it (:func:`show`), a list
  as the language joins one (:func:`join`);
* :mod:`~scorer.text.catalogue` — every message and word, key → (zh, en), from
  :mod:`~scorer.text.codes` (errors, by stable code) and :mod:`~scorer.text.words`;
* :mod:`~scorer.text.render` — an error's code and parameters, or a word, in a language;
* :mod:`~scorer.text.lang` — which language a run speaks;
* :mod:`~scorer.text.width` — display columns, and text folded to the terminal.

Pure, and knows nothing of mahjong beyond the words, so any layer may use it.

>>> render("notation.no_suit", {"position": 7, "digit": "8"}, "zh")
"第 7 个字符：'8' 后面没有花色字母"
"""

from __future__ import annotations

from .lang import DEFAULT_LANG, LANGS, choose_lang
from .near import Known, close_matches, closest
from .render import body, fill, render, where, word
from .values import join, show

__all__ = ["DEFAULT_LANG", "LANGS", "Known", "body", "choose_lang", "close_matches", "closest",
           "fill", "join", "render", "show", "where", "word"]
