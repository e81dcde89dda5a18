"""The one catalogue: every word a person reads, key → (zh, en).

Two tables make it: :data:`scorer.text.codes.CODES`, the messages of the errors and
refusals (keys are the stable codes of docs/contract.md, e.g. ``notation.no_suit``), and
:data:`scorer.text.words.WORDS`, the labels, headers and connectives of the views.
:func:`scorer.text.render.render` and :func:`~scorer.text.render.word` word them.

Why a table in the code and not gettext ``.po`` files: there are exactly two languages,
written by the same people, side by side (a test holds both to the same placeholders);
a message's key is a stable code, not its English text; placeholders are typed (a list
of shapes, a bilingual name, a did-you-mean) where gettext has printf formats; and the
core does no I/O and is compiled, where ``.mo`` files are read from disk at run time.

>>> CATALOGUE["col_seat"]
('座位', 'seat')
"""

from __future__ import annotations

from .codes import CODES
from .words import WORDS

CATALOGUE: dict[str, tuple[str, str]] = {**WORDS, **CODES}
