"""The grammar of ``mjscore score HAND [flags]`` as a pure parser (no typer, no click).

``mjscore score`` (through typer, whose options are built from the same rows) and every
line of ``mjscore batch`` read their flags with this grammar; :func:`parse` turns an
argument list into a :class:`ScoreArgs`: the hand, the ruleset, the
:class:`~scorer.engine.context.Context` and the output options. The grammar is the
flag table :data:`scorer.rules.flags.FLAGS` plus the run options below (:data:`RUN`):
``--flag VALUE`` or ``--flag=VALUE``, switches take no value, a repeated flag keeps
its last value unless it is repeatable, ``--`` ends the flags. The hand may be split
over several arguments (``123m 456p 789s 234s P9m``, unquoted): they are joined with one
space each (spaces between groups are ignored), so positions in a hand's errors count as
if it had been quoted. A mistake is one line, worded as typer words it for ``score``, and
carries the argument's position.

>>> a = parse(["123m456p789s234sP9m", "--rules", "hangzhou", "--piao=2", "--self-draw"])
>>> a.hand, a.rules, a.context.piao, a.context.self_draw
('123m456p789s234sP9m', 'hangzhou', 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..engine.context import Context
from ..errors import ContextError
from ..memo import Memo
from ..model.notation import join_hand_args
from ..model.numbers import NotANumber, whole
from ..model.tiles import narrow
from ..record import record
from ..rules.flags import FLAGS, Flag
from ..text import close_matches
from ..text.lang import LANGS, choose_lang

RULES = Flag("rules", ("--rules",), str, "Ruleset: hangzhou, jinhua, xiamen, mcr, or a path "
             "to a YAML file.", key=None, metavar="ID|FILE")
# What is not a fact of the win: a second ruleset to compare with, and how to print.
RUN: tuple[Flag, ...] = (
    Flag("vs", ("--vs",), str, "Dispute mode: also score under this ruleset (id or path) "
         "and show where the results differ.", key=None, metavar="ID|FILE"),
    Flag("vs_options", ("--vs-option",), str, "Dispute mode: option KEY=VALUE for the --vs "
         "side (without --vs: the same ruleset with this option).", (), multiple=True, key=None,
         metavar="KEY=VALUE"),
    Flag("as_json", ("--json",), bool, "Print the result as JSON.", False, key=None),
    Flag("explain", ("--explain",), bool, "List the readings considered, best first (the "
         "best 10; --explain-top N for another number).", False, key=None),
    Flag("explain_top", ("--explain-top",), int, "With or without --explain: list the best N "
         "distinct readings considered.", None, key=None, minimum=1,
         metavar="N"),
    Flag("lang", ("--lang",), str, "Language of the output and the errors: zh or en (default: "
         "$MJSCORE_LANG, else the locale's: LC_ALL/LC_MESSAGES/LANG zh* is zh, another "
         "language en; else zh).", None, key=None, metavar="zh|en"),
    Flag("no_unicode", ("--no-unicode",), bool, "Do not print Unicode tiles.", False, key=None),
)
# Every option of `score`, in the order --help lists them.
OPTIONS: tuple[Flag, ...] = (RULES, *FLAGS, *RUN)
REQUIRED = frozenset({"rules"})
_BY_NAME: dict[str, Flag] = {n: f for f in OPTIONS for n in f.names}
_BY_FIELD: dict[str, Flag] = {f.field: f for f in OPTIONS}
# what typer's parser offers as close matches (its --help included)
_LONG = [*_BY_NAME, "--help"]


class ArgvError(ContextError):
    """A flag that does not parse; ``argument`` is its 1-based place in the argument list
    (0 when the mistake is something missing).

    >>> e = ArgvError("usage.no_such_option", "--bogus", 3, option="--bogus")
    >>> e.argument, e.kind, e.message
    (3, 'context', 'No such option: --bogus')
    """

    def __init__(self, code: str, flag: str | None = None, argument: int = 0,
                 **params: Any) -> None:
        super().__init__(code, flag, **params)
        self.argument = argument


@record(frozen=True)
class ScoreArgs:
    """One ``mjscore score`` invocation, parsed: what to score, under what, how to print."""

    hand: str
    rules: str
    context: Context
    vs: str | None = None
    vs_options: tuple[tuple[str, str], ...] = ()
    as_json: bool = False
    explain: bool = False
    lang: str = "zh"
    explain_top: int | None = None  # --explain-top N: how many readings --explain lists
    unicode: bool = True


def parse_params(argv: Sequence[str]) -> dict[str, Any]:
    """Parse ``HAND --flag ...`` into the parameters typer would give ``score``.

    Keys are the row fields (``discarder`` for ``--from``); a flag not given has its
    default; repeatable flags are tuples. Raises :class:`ArgvError`.

    >>> p = parse_params(["1m", "--rules", "mcr", "--from", "N", "--chengbao", "E:S"])
    >>> p["hand"], p["discarder"], p["chengbao"], p["seat"]
    ('1m', 'N', ('E:S',), 'E')
    >>> parse_params(["123m", "456p", "--rules", "mcr", "789s"])["hand"]
    '123m 456p 789s'
    """
    given, positional = _read(argv)
    return _converted(given, positional)


Given = dict[str, list[tuple[int, str | None]]]  # a field's values, with where each was


def _read(argv: Sequence[str]) -> tuple[Given, list[tuple[int, str]]]:
    """The flags given (by field) and the positional words, each with its place (1-based);
    raises :class:`ArgvError` for an unknown flag, a value missing or given to a switch,
    and ``--help``."""
    given: Given = {}
    positional: list[tuple[int, str]] = []
    i, n, help_at = 0, len(argv), 0
    while i < n:
        tok, at = argv[i], i + 1
        i += 1
        if tok == "--":
            positional += [(j + 1, argv[j]) for j in range(i, n)]
            break
        if not tok.startswith("-") or len(tok) == 1:
            positional.append((at, tok))
            continue
        name, eq, value = tok.partition("=")
        flag = _BY_NAME.get(name)
        if flag is None:
            if name == "--help" and not eq:
                help_at = help_at or at
                continue
            if not tok.startswith("--"):  # typer reads -xyz as the short flags -x -y -z
                raise ArgvError("usage.no_such_option", tok[:2], at, option=tok[:2])
            close = close_matches(name, _LONG, n=3)
            if close:
                raise ArgvError("usage.no_such_option_near", name, at, option=name,
                                possibilities=sorted(close))
            raise ArgvError("usage.no_such_option", name, at, option=name)
        if flag.switch:
            if eq:
                raise ArgvError("usage.takes_no_value", name, at, option=name)
            given.setdefault(flag.field, []).append((at, None))
            continue
        if not eq:
            if i >= n:
                raise ArgvError("usage.needs_value", name, at, option=name)
            value = argv[i]  # the next argument, even one that starts with '-', as typer does
            i += 1
        given.setdefault(flag.field, []).append((at, value))

    if help_at:  # typer shows the help once the line is read, before checking any value
        raise ArgvError("usage.help_in_line", "--help", help_at)
    return given, positional


def _converted(given: Given, positional: list[tuple[int, str]]) -> dict[str, Any]:
    """The parameters, each converted and checked as typer would, in its order (see below);
    raises :class:`ArgvError`."""
    # typer converts the parameters given first, in the order they were given, then the rest
    first = {f: places[0][0] for f, places in given.items()}
    if positional:
        first["hand"] = positional[0][0]
    order = sorted(first, key=first.__getitem__) + \
        [p for p in ("hand", *(f.field for f in OPTIONS)) if p not in first]
    out: dict[str, Any] = {}
    for key in order:
        if key == "hand":
            if not positional:
                raise ArgvError("usage.missing_argument", param="HAND")  # as --help names it
            words = [t for _, t in positional]
            out["hand"] = words[0] if len(words) == 1 else join_hand_args(words)
            continue
        flag = _BY_FIELD[key]
        places = given.get(key)
        if not places:
            if key in REQUIRED:
                raise ArgvError("usage.missing_option", flag.name, param=flag.name)
            out[key] = flag.default
        elif flag.switch:
            out[key] = True
        elif flag.multiple:
            out[key] = tuple(_value(flag, at, v) for at, v in places)
        else:
            at, v = places[-1]
            out[key] = _value(flag, at, v)
    return out


def _value(flag: Flag, at: int, text: str | None) -> Any:
    if flag.type is int:
        try:  # ASCII digits only, a long one named by its length (scorer.model.numbers)
            return whole(str(text))
        except NotANumber as e:
            code = "usage." + e.code  # usage.not_a_number, usage.number_too_long …
            raise ArgvError(code, flag.name, at, param=flag.name, **e.params) from None
    return text


def pairs(values: Sequence[str] | None, flag: str = "--option") -> tuple[tuple[str, str], ...]:
    """``KEY=VALUE`` texts as pairs, stripped.

    >>> pairs(["cap = 128", "players＝3"])
    (('cap', '128'), ('players', '3'))
    """
    out = []
    for v in map(narrow, values or ()):  # (players＝3 as a Chinese input method types it)
        if "=" not in v:
            raise ContextError("flag.pairs", flag, value=v)
        k, _, val = v.partition("=")
        out.append((k.strip(), val.strip()))
    return tuple(out)


def context_from_params(p: Mapping[str, Any]) -> Context:
    """The :class:`Context` of parsed ``score`` parameters: one value per row of the table.

    >>> context_from_params({"piao": 2, "chengbao": ["E:S"]}).chengbao
    ('E:S',)
    """
    values: dict[str, Any] = {}
    for f in FLAGS:
        v = p.get(f.field, f.default)
        if f.field == "options":
            v = pairs(v)
        elif f.multiple:
            v = tuple(v or ())
        values[f.field] = v
    return Context(**values)


def score_args(p: Mapping[str, Any], run_lang: str | None = None) -> ScoreArgs:
    """A :class:`ScoreArgs` from parsed parameters (typer's, or :func:`parse_params`');
    ``run_lang`` is the run's language when the caller has chosen it (else it is chosen
    here, :func:`~scorer.text.lang.choose_lang`), for a line without ``--lang``."""
    lang = p.get("lang") or run_lang or choose_lang(None)
    if lang not in LANGS:
        raise ContextError("lang.bad", "--lang", value=lang)
    hand = p["hand"]
    # typer gives the variadic hand argument as a list; parse_params has joined it already
    if isinstance(hand, list | tuple):
        text = str(hand[0]) if len(hand) == 1 else join_hand_args(hand)
    else:
        text = str(hand)
    return ScoreArgs(hand=text, rules=str(p["rules"]), context=context_from_params(p),
                     vs=p.get("vs"), vs_options=pairs(p.get("vs_options"), "--vs-option"),
                     as_json=bool(p.get("as_json")),
                     explain=bool(p.get("explain")) or p.get("explain_top") is not None,
                     lang=lang, unicode=not p.get("no_unicode"),
                     explain_top=_top(p.get("explain_top")))


def _top(v: Any) -> int | None:
    """``--explain-top N``: a whole number of at least 1 (the table's minimum is not checked
    for a flag of the run)."""
    if v is None:
        return None
    if not isinstance(v, int) or v < 1:
        raise ContextError("explain_top.range", "--explain-top", value=v)
    return v


def parse(argv: Sequence[str], run_lang: str | None = None) -> ScoreArgs:
    """Parse ``HAND --flag ...`` exactly as ``mjscore score`` does (see the module doc).
    ``run_lang``: the run's language, when the caller has chosen it already (a batch, once
    for all its lines); else it is chosen here (``MJSCORE_LANG``, the config, the locale).

    >>> parse(["11m", "--rules", "mcr"]).hand, parse(["22m", "--rules", "mcr"]).hand
    ('11m', '22m')
    >>> parse(["123m", "456p", "--rules", "mcr"]).hand
    '123m 456p'
    >>> parse(["11m", "--rules", "mcr"], "en").lang
    'en'
    >>> parse(["11m", "--rules", "mcr", "--lang", "zh"], "en").lang
    'zh'
    """
    # The lines of a batch file share their flags: parse each flag set once. The key is
    # the argv with the hand replaced by a placeholder, so a hit is what parsing gives.
    # The run's language (without --lang) is part of the key: reading it from the
    # environment (four variables) cost as much as the rest of a remembered line's flags.
    words = tuple(argv)
    lang = choose_lang(None) if run_lang is None else run_lang
    for i, tok in enumerate(words):
        if tok.startswith("-"):
            continue
        hit = _PARSED.get((*words[:i], _HAND, *words[i + 1:], lang))
        if hit is not None:
            return _with_hand(hit, tok)
    args = score_args(parse_params(words), lang)
    if words.count(args.hand) == 1:
        i = words.index(args.hand)
        _PARSED.put((*words[:i], _HAND, *words[i + 1:], lang), args)
    return args


_HAND = "\x00hand"
# a line's arguments by its words with the hand left out (a batch repeats a few flag sets)
_PARSED: Memo[tuple[str, ...], ScoreArgs] = Memo(4096, "lines.grammar.parse")


def _with_hand(args: ScoreArgs, hand: str) -> ScoreArgs:
    """``replace(args, hand=hand)``, a tenth of its time (every line of a batch makes one):
    the fields copied as they are (they were checked when ``args`` was made), the hand set.

    >>> _with_hand(parse(["11m", "--rules", "mcr"]), "22m") == parse(["22m", "--rules", "mcr"])
    True
    """
    if not hasattr(args, "__dict__"):  # (a compiled build's class keeps no field dict)
        return replace(args, hand=hand)
    new: ScoreArgs = object.__new__(ScoreArgs)
    fields = new.__dict__
    fields.update(args.__dict__)
    fields["hand"] = hand
    return new


# the names tests, benchmarks and scripts have used
parse_score_args = parse_params
