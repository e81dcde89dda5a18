"""What the shell completes after a flag: the values it takes, not only the flags.

``mjscore --install-completion`` installs typer's completion for the user's shell (bash,
zsh, fish, PowerShell); ``mjscore --show-completion`` prints that script. At each Tab the
shell runs ``mjscore`` with ``_MJSCORE_COMPLETE`` set, and typer asks the functions here
for the values of the flag being typed: a ruleset (the built-in ids, from the registry,
then the ``.yaml``/``.yml`` files and the folders of the path typed so far), a seat or
wind (E S W N, or 东南西北 once one is typed; ``--from`` and ``--out`` also 上家 对家 下家,
said from the winner's seat), a language (zh en), an output format. Each returns the candidates that
start with what was typed.
"""

from __future__ import annotations

import os

from ..model.tiles import HONOR_CHARS, RELATIVE_SEATS, SEATS

LANGS = ("zh", "en")
BATCH_FORMATS = ("jsonl", "csv", "table")
STANDINGS_FORMATS = ("table", "json", "csv")


def _starting(words: tuple[str, ...] | list[str], incomplete: str) -> list[str]:
    return [w for w in words if w.startswith(incomplete)]


def rulesets(incomplete: str) -> list[str]:
    """The built-in ruleset ids, then the ruleset files and folders, that start with
    ``incomplete``.

    >>> rulesets("sich")
    ['sichuan', 'sichuan-xueliu']
    """
    from ..rules.files import list_builtin

    out = _starting(list_builtin(), incomplete)
    folder, _, start = incomplete.rpartition("/")
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        return out
    for name in names:
        if not name.startswith(start) or (name.startswith(".") and not start.startswith(".")):
            continue
        path = f"{folder}/{name}" if folder else name
        if os.path.isdir(path):
            out.append(path + "/")
        elif name.endswith((".yaml", ".yml")):
            out.append(path)
    return out


def seats(incomplete: str) -> list[str]:
    """A seat or wind: E S W N, or 东南西北 when what was typed is not ASCII.

    >>> seats(""), seats("s"), seats("东")
    (['E', 'S', 'W', 'N'], ['S'], ['东'])
    """
    if incomplete and not incomplete.isascii():
        return _starting(tuple(HONOR_CHARS[:4]), incomplete)
    return _starting(SEATS, incomplete.upper())


def seats_from_winner(incomplete: str) -> list[str]:
    """A seat (:func:`seats`) or one said from the winner's: 上家 对家 下家 (``--from``).

    >>> seats_from_winner(""), seats_from_winner("上")
    (['E', 'S', 'W', 'N', '上家', '对家', '下家'], ['上家'])
    """
    relative = [w for w in RELATIVE_SEATS if w != "對家"]
    if incomplete and not incomplete.isascii():
        return seats(incomplete) + _starting(relative, incomplete)
    return seats(incomplete) + ([] if incomplete else relative)


def langs(incomplete: str) -> list[str]:
    """A language: zh en.

    >>> langs("e")
    ['en']
    """
    return _starting(LANGS, incomplete)


def batch_formats(incomplete: str) -> list[str]:
    """``batch --format``: jsonl csv table.

    >>> batch_formats("")
    ['jsonl', 'csv', 'table']
    """
    return _starting(BATCH_FORMATS, incomplete)


def standings_formats(incomplete: str) -> list[str]:
    """``standings --format``: table json csv.

    >>> standings_formats("j")
    ['json']
    """
    return _starting(STANDINGS_FORMATS, incomplete)


# the flags of the score table whose values complete, by field
BY_FIELD = {"rules": rulesets, "vs": rulesets, "seat": seats, "discarder": seats_from_winner,
            "round": seats, "out": seats_from_winner, "lang": langs}
