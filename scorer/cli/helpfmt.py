"""Every ``--help`` in the run's language, folded to the terminal.

The commands declare no help text: each command and option takes its words from the
catalogue (:data:`scorer.text.helps.HELPS`) by key, ``help.PATH`` and ``help.PATH.PARAM``
(else ``help.opt.PARAM``), when the command line is read. Typer builds the click commands
afresh for every run; the root group's :meth:`HelpGroup.parse_args` — before click reads
any option, so before the eager ``--help`` — chooses the language of the line
(:func:`scorer.cli.output.lang_of`: its ``--lang``, else ``MJSCORE_LANG``, the config
file, the locale, zh) and gives every command of the tree its words (:func:`speak`).
Shell completion, which reads the same texts (zsh and fish show them), gets them too.

:func:`page` then writes the page itself, in place of click's formatter, which measures a
Chinese character as one column and has its section titles in English: the usage line,
the description, arguments, options, commands and any further list (``batch``'s flags of
a line), each folded by :func:`scorer.text.width.wrap` to the terminal's width
(``COLUMNS``, else the terminal's, 80 when not a terminal; at most 80).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typer.core import TyperCommand, TyperGroup

from ..text.width import columns, display_width, wrap

MAX_WIDTH = 80  # a wider terminal still gets lines a reader's eye can follow
NAME_COLUMN = 30  # a longer option name has its text start on the next line
Rows = list[tuple[str, str]]


def text(key: str, lang: str) -> str:
    """The catalogue's help text ``key`` in ``lang``, the registry's ruleset ids in place
    of ``{rulesets}``; "" for a key the catalogue lacks (tests/cli/test_help.py holds
    every command and option to having one).

    >>> text("help.opt.round", "zh"), text("help.no.such.key", "en")
    ('圈风。', '')
    """
    from ..text.helps import HELPS, help_text

    if key not in HELPS:
        return ""
    if "{rulesets}" not in HELPS[key][1]:
        return help_text(key, lang)
    from ..rules.files import list_builtin

    return help_text(key, lang, rulesets=list_builtin())


def key_of(path: Sequence[str], param: str = "") -> str:
    """The catalogue key of a command (``path``: its words after ``mjscore``) or of one of
    its parameters (its Python name), before the shared ``help.opt.PARAM``.

    >>> key_of(()), key_of(("rules", "show"), "as_yaml")
    ('help.mjscore', 'help.rules.show.as_yaml')
    """
    return "help." + ".".join(path or ("mjscore",)) + (f".{param}" if param else "")


def param_text(path: Sequence[str], param: str, lang: str) -> str:
    """An option's or argument's help: the command's own entry, else the shared one.

    >>> param_text(("round",), "rules", "en"), param_text(("score",), "seat", "zh")[:6]
    ("Ruleset (a 'rules' line in the file overrides it).", '胡牌的人坐哪')
    """
    from ..text.helps import HELPS

    own = key_of(path, param)
    return text(own if own in HELPS else f"help.opt.{param}", lang)


def speak(command: Any, lang: str, path: tuple[str, ...] = ()) -> None:
    """Give ``command`` and every command under it their words in ``lang``: the
    description, the short line of a group's list, each visible option's help. Returns
    None (the click objects are this run's own: typer builds them for each run)."""
    command.help_lang, command.help_path = lang, path
    command.help = text(key_of(path), lang)
    short = key_of(path, "short")
    command.short_help = text(short, lang) or None
    for p in command.params:
        if not getattr(p, "hidden", False):
            p.help = param_text(path, p.name or "", lang) or p.help
    for name, sub in getattr(command, "commands", {}).items():
        speak(sub, lang, (*path, name))


def width() -> int:
    """The columns a help page folds to: the terminal's (:func:`scorer.text.width.columns`)
    less a margin of 2, at most 78.

    >>> 18 <= width() <= 78
    True
    """
    return min(columns(), MAX_WIDTH) - 2


def rows(lines: list[str], items: Rows, fold: int, spaces: bool = False) -> None:
    """Append a definition list (a name, its text) to ``lines``, indented by 2: the texts
    in one column after the names, folded to ``fold`` columns; a name too long for the
    column, or a column too narrow to read, puts its text on the lines below it; with
    ``spaces`` (English) a text breaks at spaces only."""
    if not items:
        return
    names = min(max(display_width(n) for n, _ in items), NAME_COLUMN) + 2
    beside = fold - 2 - names >= 20  # (else each text goes under its name)
    at = 2 + names if beside else 6
    for name, said in items:
        body = fold_said(said, fold - at, spaces)
        if beside and body and display_width(name) <= names - 2:
            lines.append("  " + name + " " * (names - display_width(name)) + body[0])
            body = body[1:]
        else:
            lines.append("  " + name)
        lines += [" " * at + b for b in body]


KEEP = "\x1f"  # between an option's help and its default: the default is never split


def fold_said(said: str, fold: int, spaces: bool = False) -> list[str]:
    """An option's help folded to ``fold`` columns, its default or "required" (after
    :data:`KEEP`) kept whole: at the end of the last line, or on a line of its own.

    >>> fold_said("圈风。" + KEEP + "（默认：E）", 18)
    ['圈风。（默认：E）']
    >>> fold_said("Prevalent wind." + KEEP + "[default: E]", 20)
    ['Prevalent wind.', '[default: E]']
    """
    text, _, extra = said.partition(KEEP)
    lines = wrap(text, fold, spaces=spaces) if text else []
    if not extra:
        return lines
    gap = "  " if extra.isascii() and text else ""
    if lines and display_width(lines[-1] + gap + extra) <= fold:
        lines[-1] += gap + extra
    else:
        lines.append(extra)
    return lines


def paragraph(lines: list[str], said: str, fold: int, spaces: bool = False) -> None:
    """Append ``said`` after a blank line, folded to ``fold`` columns, indented by 2."""
    lines.append("")
    lines += wrap("  " + " ".join(said.split()), fold, "  ", spaces)


def _extras(param: Any, lang: str) -> str:
    """What typer adds after an option's help, in ``lang``: its default, or that it is
    required."""
    if getattr(param, "required", False):
        return text("help.required", lang)
    default = param.default
    if not getattr(param, "show_default", True) or default is None or callable(default):
        return ""
    if getattr(param, "is_bool_flag", False):
        if not param.secondary_opts:
            return ""  # a switch: off unless given
        default = (param.opts if default else param.secondary_opts)[0].lstrip("-")
    elif isinstance(default, (list, tuple)):
        if not default:
            return ""
        default = ", ".join(map(str, default))
    from ..text.helps import help_text

    return help_text("help.default", lang, value=default)


def _said(param: Any, lang: str) -> str:
    extra = _extras(param, lang)
    return f"{param.help or ''}{KEEP}{extra}" if extra else param.help or ""


def page(command: Any, ctx: Any) -> str:
    """The whole ``--help`` of ``command`` in the run's language (see the module)."""
    lang = command.help_lang or _run_lang()
    en, fold = lang == "en", width()
    pieces = []
    for piece in command.collect_usage_pieces(ctx):
        if piece == command.options_metavar:
            piece = text("help.options_metavar", lang)
        elif piece == getattr(command, "subcommand_metavar", None):
            piece = text("help.command_metavar", lang)
        elif piece.startswith("{") and "}" in piece:  # typer's {FILE}...: required, as
            piece = piece[1:].replace("}", "", 1)  # a bare name says (FILE...; [FILE] optional)
        pieces.append(piece)
    head = text("help.usage", lang) + ctx.command_path + " "
    hang = " " * (display_width(head) if fold - display_width(head) >= 20 else 4)
    lines = wrap(head + " ".join(pieces), fold, hang)
    if command.help:
        paragraph(lines, command.help, fold, en)
    arguments: Rows = []
    options: Rows = []
    for p in command.get_params(ctx):
        record = p.get_help_record(ctx) if not getattr(p, "hidden", False) else None
        if record is None:
            continue
        if p.param_type_name == "argument":
            # its name as the usage line writes it (FILE...), without typer's "<list[str]>"
            named = (p.metavar or p.name.upper()) + ("..." if p.nargs < 0 else "")
            arguments.append((named, _said(p, lang)))
        else:
            options.append((record[0], _said(p, lang)))
    listed = [(text(f"help.{kind}", lang), found) for kind, found in
              (("arguments", arguments), ("options", options), ("commands", _commands(command, ctx)))]
    for title, found in listed:
        if found:
            lines += ["", title]
            rows(lines, found, fold, en)
    for said, found in command.more(lang):
        paragraph(lines, said, fold, en)
        lines.append("")
        rows(lines, found, fold, en)
    return "\n".join(lines) + "\n"


def _commands(command: Any, ctx: Any) -> Rows:
    """A group's commands and their short lines (none for a command)."""
    out: Rows = []
    for name in command.list_commands(ctx) if isinstance(command, TyperGroup) else ():
        sub = command.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            out.append((name, sub.short_help or sub.help or ""))
    return out


def _run_lang() -> str:
    """The language of a help asked without a command line to read (a test's own click
    command, not built by :func:`speak`): the run's."""
    from ..text.lang import choose_lang

    return choose_lang(None)


class _Speaks:
    """What a command of mjscore adds to typer's: its words and a page of its own."""

    help_lang: str | None = None
    help_path: tuple[str, ...] = ()

    def format_help(self, ctx: Any, formatter: Any) -> None:
        formatter.write(page(self, ctx))

    def more(self, lang: str) -> list[tuple[str, Rows]]:
        """Further lists after the options, each after its paragraph (none here)."""
        return []

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = param_text(self.help_path, "help", self.help_lang or _run_lang())
        return option


class HelpCommand(_Speaks, TyperCommand):
    """A command of mjscore (``app.command(cls=HelpCommand)``)."""


class HelpGroup(_Speaks, TyperGroup):
    """A group of mjscore's commands; the root one gives the whole tree its words before it
    reads the line (:func:`speak`)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.parent is None:
            from .output import lang_of

            speak(self, lang_of(list(args)), self.help_path)
        return super().parse_args(ctx, args)
