"""Defaults where people keep them: a configuration file and environment variables.

A table that always plays its house file in English says so once::

    # ~/.config/mjscore/config.toml (the platform's config folder: scorer.folders)
    rules = "my-table.yaml"      # a path is relative to this file's folder
    lang = "en"
    players = "E=Ann,S=Bo,W=Cy,N=Di"
    stake = "0.5"
    format = "csv"

Each key has its environment variable (``MJSCORE_RULES``, ``MJSCORE_LANG``,
``MJSCORE_PLAYERS``, ``MJSCORE_STAKE``, ``MJSCORE_FORMAT``), and a value comes from the
first of: the command line's flag, the environment variable, the config file, the built-in
default. ``MJSCORE_CONFIG`` names another config file. ``mjscore config`` shows each value
and where it came from. What each key is a default of:

* ``rules``: ``--rules`` of ``score``, ``waits`` and ``batch`` (a batch line's own
  ``--rules`` still wins); not of ``round`` (Sichuan) nor ``standings`` (MCR);
* ``lang``: ``--lang`` of every command (after ``MJSCORE_LANG``, before the locale:
  :func:`scorer.text.lang.choose_lang`);
* ``players``: ``--players`` of ``batch``, ``round`` and ``standings``;
* ``stake``: ``--stake`` of ``batch`` and ``round`` (the money per point of their totals;
  unlike the flag, a default stake does not turn the totals on);
* ``format``: ``--format`` of ``batch`` (``jsonl``, ``csv`` or ``table``).

A config file that is not TOML, holds a key that is none of these or a value that is not
one (``lang = "fr"``) is one error naming the file, the line and the key, exit status 2;
so is an environment variable with a value that is not one. The file is read with
``tomli`` (``tomllib`` from Python 3.14, whose error says where too), and only when it
exists: a start without one costs one failed ``open``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from .. import folders
from ..errors import ContextError, os_reason

CONFIG_ENV = "MJSCORE_CONFIG"
FILE_NAME = "config.toml"
# key -> (its environment variable, its built-in default)
KEYS: dict[str, tuple[str, str | None]] = {
    "rules": ("MJSCORE_RULES", None),
    "lang": ("MJSCORE_LANG", "zh"),
    "players": ("MJSCORE_PLAYERS", None),
    "stake": ("MJSCORE_STAKE", "1"),
    "format": ("MJSCORE_FORMAT", "jsonl"),
}
CHOICES = {"lang": ("zh", "en"), "format": ("jsonl", "csv", "table")}
MAX_BYTES = 64 * 1024  # a config file is a few lines: a larger one is refused, not read


class Setting(NamedTuple):
    """One value and where it came from: ``source`` is ``"env"``, ``"config"`` or
    ``"default"`` (``"locale"`` for a language the locale gave); ``where`` names it
    (``MJSCORE_RULES``, ``FILE:LINE``, the locale variable), "" for a default."""

    key: str
    value: str | None
    source: str
    where: str = ""


def path(environ: Mapping[str, str] | None = None) -> str | None:
    """The config file: ``MJSCORE_CONFIG``, else ``config.toml`` in the platform's config
    folder; None when there is no home folder to look in.

    >>> path({"MJSCORE_CONFIG": "/etc/mj.toml"}), path({"HOME": "/home/ann"})[-27:]
    ('/etc/mj.toml', '.config/mjscore/config.toml')
    """
    env = os.environ if environ is None else environ
    named = env.get(CONFIG_ENV, "")
    if named:
        return named
    found = folders.folder("config", environ=environ)
    return os.path.join(found, FILE_NAME) if found else None


class Config:
    """The settings of a run: for each key of :data:`KEYS` the value from the environment,
    the config file or the built-in default (:meth:`get`), and where it came from
    (:meth:`setting`).

    >>> c = Config.read({"MJSCORE_RULES": "mcr", "HOME": "/nonexistent-home"})
    >>> c.get("rules"), c.setting("rules").where, c.setting("format").source
    ('mcr', 'MJSCORE_RULES', 'default')
    """

    def __init__(self, file: str | None, settings: dict[str, Setting], found: bool) -> None:
        self.file, self.found = file, found
        self.settings = settings

    def get(self, key: str) -> str | None:
        """The value of ``key`` (None: no default)."""
        return self.settings[key].value

    def given(self, key: str) -> str | None:
        """The value of ``key`` when the environment or the config file gave it, else None
        (a built-in default is the command's own)."""
        s = self.settings[key]
        return s.value if s.source in ("env", "config") else None

    def setting(self, key: str) -> Setting:
        return self.settings[key]

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> Config:
        """The settings from ``environ`` (default ``os.environ``) and the config file it
        leads to; raises :class:`ContextError` (exit 2) for a file or value that is wrong."""
        env = os.environ if environ is None else environ
        file = path(environ)
        values, lines, found = _read_file(file, explicit=bool(env.get(CONFIG_ENV)))
        settings = {}
        for key, (var, default) in KEYS.items():
            mine = env.get(var, "").strip()
            if key == "lang" and mine.lower() not in CHOICES["lang"]:
                mine = ""  # an unknown MJSCORE_LANG is passed over (scorer.text.lang)
            if mine:
                settings[key] = Setting(key, _checked(key, mine, var=var), "env", var)
            elif key in values:
                where = f"{file}:{lines[key]}" if lines.get(key) else str(file)
                settings[key] = Setting(key, values[key], "config", where)
            else:
                settings[key] = Setting(key, default, "default")
        return cls(file, settings, found)


def load() -> Config:
    """This process's settings (:meth:`Config.read` of ``os.environ``), read when asked: a
    command asks once or twice, and a test's environment may change between runs."""
    return Config.read()


def apply(args: list[str]) -> list[str]:
    """Read the settings at the start of a run (ContextError, exit 2, when they are wrong),
    make the config file's language the run's (:func:`scorer.text.lang.configure`), and
    return ``args`` with the ruleset ``score`` and ``waits`` take when the line names none
    (before a ``--``). ``batch``, ``round`` and ``standings`` read the other settings
    themselves (:func:`load`). ``mjscore --version`` reads none.

    >>> apply(["score", "11m", "--rules", "mcr"])
    ['score', '11m', '--rules', 'mcr']
    """
    from ..text.lang import configure

    if args[:1] == ["--version"]:
        return args
    c = load()
    lang = c.setting("lang")
    configure(lang.value if lang.source == "config" else None, lang.where)
    rules = c.given("rules")
    if rules is None or args[:1] not in (["score"], ["waits"]):
        return args
    end = args.index("--") if "--" in args else len(args)
    if has_flag(args[:end], "--rules"):
        return args
    return [*args[:end], "--rules", rules, *args[end:]]


def has_flag(words: list[str], flag: str) -> bool:
    """Whether ``flag`` is among ``words`` (``--flag VALUE`` or ``--flag=VALUE``).

    >>> has_flag(["--rules=mcr"], "--rules"), has_flag(["--rulesx"], "--rules")
    (True, False)
    """
    return any(a == flag or a.startswith(flag + "=") for a in words)


def _read_file(file: str | None, explicit: bool) -> tuple[dict[str, str], dict[str, int], bool]:
    """The values of the config file (checked), the line of each key, and whether it was
    there; a missing file is no settings (an error when ``MJSCORE_CONFIG`` named it)."""
    if file is None:
        return {}, {}, False
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        if explicit:
            raise ContextError("config.missing", file=file, var=CONFIG_ENV) from None
        return {}, {}, False
    except OSError as e:
        raise ContextError("config.unreadable", file=file, **os_reason(e)) from None
    if len(data) > MAX_BYTES:
        raise ContextError("config.too_big", file=file, limit=MAX_BYTES // 1024)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ContextError("config.not_utf8", file=file,
                           line=data[:e.start].count(b"\n") + 1) from None
    table = _toml(text, file)
    lines = _key_lines(text)
    values = {}
    for key, value in table.items():
        line = lines.get(key)
        if key not in KEYS:
            from ..text import closest

            raise ContextError("config.unknown_key", file=file, line=line, key=key,
                               known=", ".join(KEYS), hint=closest(key, list(KEYS)))
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ContextError("config.not_text", file=file, line=line, key=key,
                               toml_type=_toml_type(value))
        values[key] = _checked(key, str(value).strip(), file=file, line=line)
        if key == "rules":
            values[key] = _beside(values[key], file)
    return values, lines, True


def _toml(text: str, file: str) -> dict[str, Any]:
    """The TOML document of ``text``; a syntax error names the file, line and column and
    what is wrong (``config.syntax`` with the word ``toml``, :data:`TOML_PROBLEMS`)."""
    import sys

    # The parser's error must say where: TOMLDecodeError has lineno/colno in tomllib from
    # Python 3.14 and in tomli from 2.1 (the same parser, tomllib's original; a dependency
    # before 3.14: pyproject.toml), where 3.11's tomllib only words them in its English
    if sys.version_info >= (3, 14):
        import tomllib
    else:
        import tomli as tomllib
    try:
        data: dict[str, Any] = tomllib.loads(text)
        return data
    except tomllib.TOMLDecodeError as e:
        line, column = int(e.lineno), int(e.colno)
        pos = int(e.pos)
        # the key of the line that does not read, when it begins with one
        lines = text.splitlines()
        m = _KEY_LINE.match(lines[line - 1]) if line <= len(lines) else None
        key = next((g for g in m.groups() if g is not None), None) if m else None
        raise ContextError("config.syntax", file=file, line=line, column=column, key=key,
                           **toml_problem(str(e.msg), text, pos)) from None


# What the TOML parser found wrong, by its problem (the parser's fixed text of each kind,
# matched whole as a constant, never searched: tomli's _parser.py, as tomllib's): the word
# config.syntax says it with (toml.WORD, scorer/text/codes_cli.py). A problem not in the
# table is said from the document itself: the character where the parser stopped.
TOML_PROBLEMS: dict[str, str] = {
    "Invalid value": "bad_value",
    "Expected '=' after a key in a key/value pair": "no_equals",
    "Invalid initial character for a key part": "bad_key",
    "Invalid statement": "statement",
    "Expected newline or end of document after a statement": "line_end",
    "Unterminated string": "open_string",
    "Unclosed array": "open_array",
    "Unclosed inline table": "open_table",
    "Expected ']' at the end of a table declaration": "table_end",
    "Expected ']]' at the end of an array declaration": "table_end",
    "Cannot overwrite a value": "twice",
    "Unescaped '\\' in a string": "escape",
    "Escaped character is not a Unicode scalar value": "escape",
    "Invalid hex value": "escape",
    "Invalid date or datetime": "date",
}


def toml_problem(problem: str, text: str, pos: int) -> dict[str, Any]:
    """The parameters of ``config.syntax`` for the parser's ``problem`` at ``pos`` of
    ``text``: ``{"toml": WORD}``, with the character found (``char``) when the problem is
    none of :data:`TOML_PROBLEMS`.

    >>> toml_problem("Invalid value", "a = ", 4), toml_problem("Cannot declare x twice", "x", 0)
    ({'toml': 'bad_value'}, {'toml': 'char', 'char': 'x'})
    >>> toml_problem("Found invalid character", "a = 1", 5)
    {'toml': 'end'}
    """
    word = TOML_PROBLEMS.get(problem)
    if word is not None:
        return {"toml": word}
    if pos >= len(text):
        return {"toml": "end"}
    return {"toml": "char", "char": text[pos]}


def _toml_type(value: object) -> str:
    """What a TOML value that is no text nor number is, in TOML's words.

    >>> _toml_type(True), _toml_type([1]), _toml_type({}), _toml_type(None)
    ('boolean', 'array', 'table', 'datetime')
    """
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return "datetime"  # (tomllib's other values: datetime, date and time)


_KEY_LINE = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")
_TABLE_LINE = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_-]+)")


def _key_lines(text: str) -> dict[str, int]:
    """The line of each top-level key of a TOML text (the first, before any [table]), by
    reading its lines: tomllib keeps no positions.

    >>> _key_lines('rules = "mcr"\\n\\n"lang" = "en"\\n[batch]\\nformat = "csv"\\n')
    {'rules': 1, 'lang': 3, 'batch': 4}
    """
    out: dict[str, int] = {}
    tables = False
    for n, line in enumerate(text.splitlines(), 1):
        table = _TABLE_LINE.match(line)
        if table:  # a [table] is a key of the document too (none is a setting)
            tables = True
            out.setdefault(table.group(1), n)
        m = None if tables else _KEY_LINE.match(line)
        if m:
            out.setdefault(next(g for g in m.groups() if g is not None), n)
    return out


def _checked(key: str, value: str, var: str = "", file: str | None = None,
             line: int | None = None) -> str:
    """``value`` if it is one ``key`` takes; else ContextError naming where it came from
    (the variable ``var``, or ``file:line key``)."""
    where: dict[str, Any] = {"var": var} if var else {"file": file, "line": line, "key": key}
    code = "config.bad_env" if var else "config.bad_value"
    # why it is no value: an error of its own ({code, params}), said in the run's language
    # inside this one (the renderer's {cause:error})
    if not value:
        raise ContextError(code, value=value, cause={"code": "config.empty", "params": {}},
                           **where)
    choices = CHOICES.get(key)
    if choices and value not in choices:
        raise ContextError(code, value=value, cause={"code": "config.choice",
                                                     "params": {"choices": list(choices)}},
                           **where)
    if key in ("stake", "players"):
        from ..errors import MjscoreError
        from ..table.ledger import parse_players, parse_stake

        try:
            (parse_stake if key == "stake" else parse_players)(value)
        except MjscoreError as e:
            raise ContextError(code, value=value, cause={"code": e.code, "params": e.params},
                               **where) from None
    return value


def _beside(spec: str, file: str) -> str:
    """A ruleset path of the config file, relative to the file's folder (an id as it is).

    >>> _beside("house/my.yaml", "/home/ann/.config/mjscore/config.toml")
    '/home/ann/.config/mjscore/house/my.yaml'
    >>> _beside("hangzhou", "/x/config.toml")
    'hangzhou'
    """
    from ..rules.files import is_path

    if not is_path(spec):
        return spec
    return os.path.join(os.path.dirname(os.path.abspath(file)), os.path.expanduser(spec))


def flag_value(words: list[str], flag: str) -> str | None:
    """The value of the last ``flag`` among ``words`` (``--flag VALUE`` or ``--flag=VALUE``),
    or None: the language an error of the settings is said in, before any parser ran.

    >>> flag_value(["score", "--lang", "en", "--lang=zh"], "--lang"), flag_value([], "--lang")
    ('zh', None)
    """
    found = None
    for k, a in enumerate(words):
        if a == flag and k + 1 < len(words):
            found = words[k + 1]
        elif a.startswith(flag + "="):
            found = a[len(flag) + 1:]
    return found
