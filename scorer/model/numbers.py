"""Whole numbers as people type them: ASCII digits only, and a long one named by its length.

Every number a user gives — a flag's value (``--piao 2``, ``--base 100``), a batch line's,
a round file's ``--base``, an ``--option cap=128``, a number in the page's requests — is
read by :func:`whole`: ``0``-``9`` with an optional leading ``-`` (so that a negative
value is refused by its range, with the range in the message), nothing else. Python's
``int()`` would also take ``٣`` (Arabic-Indic three), ``1_000``, `` 7 `` and ``+7``, and
fail with its own error on ``²`` or on more than 4,300 digits; none of those is a number
here. What a Chinese input method types for a number is (:data:`NUMBER_FORMS`: the
full-width digits ``０``-``９``, ``－``, and ``．`` or ``。`` for a decimal point), read as
its ASCII, as in a hand. A text longer than :data:`LONGEST` characters is never converted
and never echoed: the message names its length.

>>> whole("128"), whole("-1"), whole("１２")
(128, -1, 12)
>>> whole("٣")
Traceback (most recent call last):
scorer.model.numbers.NotANumber: '٣' is not a valid int (write it in digits 0-9).
>>> str(NotANumber.of("9" * 5000))
'a number of 5,000 digits is not a valid int (at most 20 digits).'
"""

from __future__ import annotations

import re

# Longer than any number a table uses (a base of 10**12 has 13 digits; 2**64 has 20):
# a longer text is named by its length, not converted (int() of a long text costs time
# quadratic in its length) and not echoed.
LONGEST = 20
_WHOLE = re.compile(r"-?[0-9]+")
# a number as a Chinese input method types it (full width, the ideographic full stop): its
# ASCII, one character for one
NUMBER_FORMS: dict[str, str] = {
    **{chr(c): chr(c - 0xFEE0) for c in range(0xFF10, 0xFF1A)},  # ０-９
    "\uff0d": "-", "\uff0e": ".", "\u3002": ".",  # － ． 。
}
_NUMBER = str.maketrans(NUMBER_FORMS)


def typed(text: str) -> str:
    """A number's ``text`` with what an input method types for its digits, sign and point
    (:data:`NUMBER_FORMS`) as ASCII, one character for one; anything else as it is.

    >>> typed("０。５"), typed("－３"), typed("٣")
    ('0.5', '-3', '٣')
    """
    return text.translate(_NUMBER) if not text.isascii() else text


class NotANumber(ValueError):
    """A text that is not a whole number in ASCII digits; the message says why without
    echoing a long text (``str(e)``: "'x' is not a valid int.", the wording of the command
    line's parser, which messages put after "Invalid value for '--flag': "). ``code`` is
    the last part of the usage code (``usage.`` + code, scorer/text/codes.py) and
    ``params`` its parameters, the flag aside.
    """

    def __init__(self, message: str, code: str = "not_a_number", **params: object) -> None:
        super().__init__(message)
        self.code, self.params = code, params

    @classmethod
    def of(cls, text: str) -> NotANumber:
        """The error for ``text`` (which :func:`whole` refused).

        >>> str(NotANumber.of("x")), str(NotANumber.of("y" * 30))
        ("'x' is not a valid int.", 'a text of 30 characters is not a valid int.')
        >>> e = NotANumber.of("9" * 5000); e.code, e.params
        ('number_too_long', {'digits': 5000, 'limit': 20})
        """
        if len(text) > LONGEST:
            if _WHOLE.fullmatch(typed(text)):
                digits = len(text) - text.startswith("-")
                return cls(f"a number of {digits:,} digits is not a valid int (at most "
                           f"{LONGEST} digits).", "number_too_long", digits=digits,
                           limit=LONGEST)
            return cls(f"a text of {len(text):,} characters is not a valid int.",
                       "text_too_long", length=len(text))
        if any(ch.isdigit() and not ch.isascii() for ch in text):
            return cls(f"{text!r} is not a valid int (write it in digits 0-9).",
                       "not_a_number_digits", value=text)
        return cls(f"{text!r} is not a valid int.", value=text)


def whole(text: str) -> int:
    """The whole number ``text`` writes: ASCII digits, an optional leading ``-``, at most
    :data:`LONGEST` characters (as typed: :func:`typed`); raises :class:`NotANumber` (a
    ValueError) otherwise.

    >>> whole("007"), [ok for ok in ("1_000", "+3", " 3", "²", "") if is_whole(ok)]
    (7, [])
    """
    ascii_ = typed(text)
    if len(text) > LONGEST or not _WHOLE.fullmatch(ascii_):
        raise NotANumber.of(text)
    return int(ascii_)


def is_whole(text: str) -> bool:
    """Whether :func:`whole` reads ``text``.

    >>> is_whole("12"), is_whole("１２"), is_whole("١٢")
    (True, True, False)
    """
    return len(text) <= LONGEST and _WHOLE.fullmatch(typed(text)) is not None


def shown(text: str) -> str:
    """A number's text for a message: itself when short, else its length.

    >>> shown("12"), shown("9" * 40)
    ('12', 'a number of 40 digits')
    """
    if len(text) <= LONGEST:
        return text
    if _WHOLE.fullmatch(text):
        return f"a number of {len(text) - text.startswith('-'):,} digits"
    return f"a text of {len(text):,} characters"
