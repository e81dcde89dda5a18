"""A command line as a Chinese input method types it: its flag names read as ASCII.

With a Chinese input method on, ``--from`` comes out as ``－－from`` (full width), as
``——from`` (the method's dash, two em dashes for one key) or, corrected by a text field,
as ``—from``; a flag's letters may come full width too (``－－ｆｒｏｍ``). :func:`typed`
reads each such argument as the ASCII flag it stands for, once, before either parser (the
fast one or typer's) reads the line; the values of flags are read by the commands, which
narrow what they take (:func:`scorer.model.tiles.narrow`, :func:`scorer.model.numbers.typed`).

Only an argument that then reads as a long flag (``--`` and ASCII letters, digits and
``-``, with ``=VALUE`` kept as typed) is changed: a hand, a seat and a number never start
so, and the argument after ``--players`` (names) and everything after ``--`` are left as
they are.
"""

from __future__ import annotations

import re

# what an input method or a text field types for the ASCII hyphen-minus: full width, the
# em and en dashes, the figure dash, the horizontal bar, the minus sign, the small and
# the plain hyphen (the small em dash)
DASHES = "\uff0d\u2014\u2013\u2012\u2015\u2212\ufe63\u2010\ufe58"
_ONE_FOR_TWO = "\u2014\u2013"  # one em or en dash: '--' as a text field corrects it
_FLAG = re.compile(r"--[a-z][a-z0-9-]*")
_NAMES = frozenset({"--players"})  # a flag whose value holds people's names


def typed(args: list[str]) -> list[str]:
    """``args`` with each flag name typed with an input method's dashes or full-width
    letters as its ASCII (see the module docstring); a new list.

    >>> typed(["score", "11m", "－－from", "上家", "——self-draw", "—lang＝en"])
    ['score', '11m', '--from', '上家', '--self-draw', '--lang=en']
    >>> typed(["batch", "f.txt", "--players", "——甲", "--", "－－x"])
    ['batch', 'f.txt', '--players', '——甲', '--', '－－x']
    """
    out: list[str] = []
    names = False
    for k, a in enumerate(args):
        if a == "--":
            out += args[k:]
            break
        if not names and not a.isascii():
            a = _flag(a)
        out.append(a)
        names = a in _NAMES
    return out


def _flag(arg: str) -> str:
    """One argument as the ASCII flag it stands for, or as it is.

    >>> _flag("－－ｏｐｔｉｏｎ＝cap＝１２８"), _flag("－ｈ"), _flag("——"), _flag("—1m")
    ('--option=cap＝１２８', '－ｈ', '——', '—1m')
    """
    from ..model.tiles import narrow

    lead = len(arg) - len(arg.lstrip(DASHES + "-"))
    if not (lead == 2 or (lead == 1 and arg[0] in _ONE_FOR_TWO)):
        return arg
    rest = arg[lead:]
    cut = min((i for i in (rest.find("="), rest.find("＝")) if i >= 0), default=len(rest))
    name = "--" + narrow(rest[:cut])
    if not _FLAG.fullmatch(name):
        return arg
    return name + ("=" + rest[cut + 1:] if cut < len(rest) else "")
