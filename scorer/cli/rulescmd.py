"""``mjscore rules``: sub-commands to list the rulesets, show one, check files, start a
house-rule file and clear the cache of built rulesets::

    mjscore rules list [--facts]            mjscore rules show ID [--yaml|--markdown]
    mjscore rules check FILE...             mjscore rules new FILE --from ID
    mjscore rules clear-cache

The spellings of earlier releases still work, as aliases (:meth:`RulesGroup.parse_args`
turns them into the sub-commands): ``rules`` (list), ``rules ID`` and ``rules --rules ID``
(show), ``rules --facts`` (list --facts), ``rules --clear-cache`` (clear-cache).
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from ..errors import Problem
from ..lines.grammar import pairs
from ..text.render import word
from .complete import langs, rulesets
from .helpfmt import HelpCommand, HelpGroup
from .output import dumps, fail, one_line

COMMANDS = ("list", "show", "check", "new", "clear-cache")
# the legacy options that take a value (to tell their value from a ruleset id)
_VALUED = ("--rules", "--option", "--from", "--lang")


def legacy(args: list[str]) -> list[str]:
    """A ``mjscore rules`` argument list of an earlier release as the sub-command it meant
    (a sub-command's own list is kept as it is).

    >>> legacy([]), legacy(["hangzhou", "--yaml"]), legacy(["--facts"])
    (['list'], ['show', 'hangzhou', '--yaml'], ['list', '--facts'])
    >>> legacy(["--clear-cache"]), legacy(["--lang", "en"]), legacy(["check", "my.yaml"])
    (['clear-cache'], ['list', '--lang', 'en'], ['check', 'my.yaml'])
    >>> legacy(["--json"]), legacy(["mcr", "--json"])
    (['list', '--json'], ['show', 'mcr', '--json'])
    """
    if not args:
        return ["list"]
    if args[0] in COMMANDS or args[0] in ("--help", "-h"):
        return args
    if "--clear-cache" in args:  # (what else is there is refused by clear-cache)
        return ["clear-cache", *(a for a in args if a != "--clear-cache")]
    if "--facts" in args:
        return ["list", *args]
    rest, listing = args, True
    while rest:  # only --lang and --json: the list, in that language or as JSON
        flag = rest[0].split("=", 1)[0]
        if flag == "--json":
            rest = rest[1:]
            continue
        if flag != "--lang":
            listing = False
            break
        rest = rest[1:] if "=" in rest[0] else rest[2:]
    return ["list", *args] if listing else ["show", *args]


class RulesGroup(HelpGroup):
    """The ``rules`` group, reading its legacy spellings as sub-commands (:func:`legacy`)."""

    help_path = ("rules",)  # (its help's catalogue keys, when it is run as a group alone)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, legacy(list(args)))


app = typer.Typer(cls=RulesGroup, no_args_is_help=False, add_completion=False)

_LANG = typer.Option(None, "--lang", metavar="zh|en", autocompletion=langs)


def _lang(lang: str | None) -> str:
    """The language asked (or the run's); raises ContextError for another."""
    from ..errors import ContextError
    from ..text.lang import LANGS, choose_lang

    chosen = choose_lang(lang)
    if chosen not in LANGS:
        raise ContextError("lang.bad", "--lang", value=chosen)
    return chosen


_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("list", context_settings=_EXTRA, cls=HelpCommand)
def list_cmd(ctx: typer.Context,
             facts: bool = typer.Option(False, "--facts"),
             option: list[str] | None = typer.Option(None, "--option", hidden=True, metavar="KEY=VALUE"),
             as_yaml: bool = typer.Option(False, "--yaml", hidden=True),
             as_markdown: bool = typer.Option(False, "--markdown", hidden=True),
             as_json: bool = typer.Option(False, "--json"),
             lang: str | None = _LANG) -> None:
    """List the built-in rulesets (or, with --facts, the vocabulary of their expressions)."""
    try:
        from ..errors import ContextError

        lang = _lang(lang)
        extra = ctx.args
        if facts:
            if extra or as_yaml or as_markdown or option:
                raise ContextError("rules.facts_alone", "--facts")
            if as_json:  # the vocabulary is a Markdown page: no JSON of it to give
                raise ContextError("usage.facts_json", "--json")
            from ..views.rulespage import facts_markdown

            print(facts_markdown(lang), end="")
            return
        if extra:
            raise ContextError("rules.extra_args", args=" ".join(extra))
        if as_json:
            print(dumps(rules_list_json()))
            return
        from ..views.rulesview import list_text

        print(list_text(lang))
    except Exception as e:
        fail(e, as_json, lang=lang)


@app.command("show", context_settings={"allow_extra_args": True}, cls=HelpCommand)
def show_cmd(
    ctx: typer.Context,
    ruleset: str | None = typer.Argument(None, metavar="ID|FILE", autocompletion=rulesets),
    rules_opt: str | None = typer.Option(None, "--rules", metavar="ID|FILE", autocompletion=rulesets),
    option: list[str] | None = typer.Option(None, "--option", metavar="KEY=VALUE"),
    as_yaml: bool = typer.Option(False, "--yaml"),
    resolved: bool = typer.Option(False, "--resolved"),
    as_markdown: bool = typer.Option(False, "--markdown"),
    as_json: bool = typer.Option(False, "--json"),
    from_: str | None = typer.Option(None, "--from", hidden=True),
    force: bool = typer.Option(False, "--force", hidden=True),
    lang: str | None = _LANG,
) -> None:
    """Show one ruleset: its patterns, values, options and flags (--yaml, --markdown, --json)."""
    try:
        from ..errors import ContextError

        lang = _lang(lang)
        if from_ or force:
            raise ContextError("rules.new_only", "--from" if from_ else "--force")
        if ctx.args:
            raise ContextError("rules.extra_after", args=" ".join(ctx.args))
        if ruleset and rules_opt and ruleset != rules_opt:
            raise ContextError("rules.two", "--rules", first=ruleset, second=rules_opt)
        if as_yaml + as_markdown + as_json > 1:
            raise ContextError("rules.one_format")
        spec = ruleset or rules_opt
        if spec is None:
            raise ContextError("rules.needs_id")
        from ..rules.load import load_ruleset
        from ..views.rulespage import markdown
        from ..views.rulesview import show_text, with_options
        from ..views.rulesyaml import yaml_text

        rs = with_options(load_ruleset(spec), pairs(option))
        if as_json:
            from ..serve.api import ruleset_json

            print(dumps(ruleset_json(rs)))
        elif as_yaml:
            print(yaml_text(rs, resolved=resolved or bool(option)), end="")
        elif as_markdown:
            print(markdown(rs), end="")
        else:
            print(show_text(rs, lang))
    except Exception as e:
        fail(e, as_json, lang=lang)


@app.command("check", cls=HelpCommand)
def check_cmd(files: list[str] | None = typer.Argument(None, metavar="FILE"),
              lang: str | None = _LANG) -> None:
    """Check ruleset files: every problem on a line of its own (exit 2 if any)."""
    try:
        code = _rules_check(files or [], _lang(lang))
    except Exception as e:
        fail(e, lang=lang)
    raise SystemExit(code)


@app.command("new", cls=HelpCommand)
def new_cmd(
    files: list[str] | None = typer.Argument(None, metavar="FILE"),
    from_: str | None = typer.Option(None, "--from", metavar="ID|FILE", autocompletion=rulesets),
    rules_opt: str | None = typer.Option(None, "--rules", hidden=True),
    option: list[str] | None = typer.Option(None, "--option", metavar="KEY=VALUE"),
    force: bool = typer.Option(False, "--force"),
    lang: str | None = _LANG,
) -> None:
    """Start a house-rule file that extends a ruleset (it loads as written)."""
    try:
        from ..errors import ContextError

        lang = _lang(lang)
        if not files or len(files) != 1:
            raise ContextError("rules_new.one_file")
        parent = from_ or rules_opt
        if parent is None:
            raise ContextError("rules_new.from", "--from")
        _rules_new(files[0], parent, pairs(option), force, lang)
    except Exception as e:
        fail(e, lang=lang)


@app.command("clear-cache", context_settings=_EXTRA, cls=HelpCommand)
def clear_cache_cmd(ctx: typer.Context, lang: str | None = _LANG) -> None:
    """Remove the cached built rulesets (MJSCORE_NO_CACHE=1 turns the cache off)."""
    try:
        from ..errors import ContextError

        lang = _lang(lang)
        if ctx.args:
            raise ContextError("rules.clear_alone", "--clear-cache")
        from ..rules import store

        n = store.clear()
        print(word("cache_removed", lang, n=n, folder=str(store.directory())))
    except Exception as e:
        fail(e, lang=lang)


def rules_list_json() -> list[dict[str, Any]]:
    """The built-in rulesets as the page's ``GET /api/rules`` lists them: id, names, that
    they are built in, the flags each uses (docs/schemas/rules-list.json).

    >>> [r["id"] for r in rules_list_json()][:2]
    ['hangzhou', 'jinhua']
    """
    from ..rules.files import list_builtin
    from ..rules.load import load_ruleset
    from ..serve.api import ruleset_json

    out = []
    for rid in list_builtin():
        rs = load_ruleset(rid)
        out.append({"id": rs.id, "name": rs.name, "name_en": rs.name_en, "builtin": rs.trusted,
                    "flags": [f["flag"] for f in ruleset_json(rs)["flags"]]})
    return out


def _rules_new(target: str, parent: str, pairs: tuple[tuple[str, str], ...],
               force: bool, lang: str = "en") -> None:
    """Write a starter house-rule file that extends ``parent``; it must load as written."""
    import os
    from pathlib import Path

    from ..errors import ContextError, os_reason
    from ..rules.files import is_path
    from ..rules.load import compile_ruleset, load_ruleset
    from ..views.rulesview import starter

    out = Path(target)
    if not target.endswith((".yaml", ".yml")):
        raise ContextError("rules_new.suffix", name=target)
    if out.is_symlink() and not force:  # (exists() is False for a link to nothing)
        raise ContextError("rules_new.symlink", name=target, target=os.readlink(out))
    if out.exists() and not force:
        raise ContextError("rules_new.exists", name=target)
    rs = load_ruleset(parent)
    spec = parent
    if is_path(parent):
        # extends: is relative to the new file's folder
        spec = os.path.relpath(Path(parent).resolve(), out.resolve().parent).replace(os.sep, "/")
    text = starter(rs, target, spec, pairs)
    compile_ruleset(text, str(out))  # never write a file that does not load
    # without --force, a file made here and now: never through a link, never over a file
    # that appeared since the check (O_EXCL, O_NOFOLLOW)
    how = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    if not force:
        how |= os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        with os.fdopen(os.open(out, how, 0o644), "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise ContextError("rules_new.write", name=target, **os_reason(e)) from None
    print(word("rules_new_wrote", lang, file=target, spec=spec))


def _rules_check(files: list[str], lang: str = "en") -> int:
    """Validate ruleset files and print every problem, one line each; return the exit
    status: 0 if all are valid, else 2.

    Each problem points into the file that has it. A problem in a built-in ruleset the
    file extends is shown only when the file has none of its own: it is then the echo of
    an override here (an inherited pattern changed into nonsense), not a mistake the user
    can find in a file they did not write. A file that cannot be read is one line,
    ``mjscore: ruleset file not found: x.yaml``.

    >>> _rules_check(["hangzhou"])
    hangzhou: ok — hangzhou (Hangzhou), 10 patterns
    0
    >>> _rules_check(["hangzhou"], "zh")
    hangzhou：没问题 — hangzhou（杭州麻将），10 个番种
    0
    """
    from ..errors import ContextError, RulesetError
    from ..rules import notices
    from ..rules.files import builtin_dir, display, locate
    from ..rules.load import compile_ruleset
    from ..text.width import wrap_text

    if not files:
        raise ContextError("rules_check.no_file")
    status = 0
    for f in files:
        try:
            path, text = locate(f, None, [])
            rs = compile_ruleset(text, str(path))
        except RulesetError as e:
            status = 2
            problems = e.problems
            if not any(p.file for p in problems) and e.code not in _SAID_OF_THE_FILE:
                # nothing read to point into (not found, unreadable): one line, as any error
                print(f"mjscore: {one_line(e.render(lang))}", file=sys.stderr)
                continue
            shown = display(f)
            # built-in files are named rulesets/<id>.yaml in messages (rules.files.display)
            builtin = {f"rulesets/{p.name}" for p in builtin_dir().glob("*.yaml")} - {shown}
            own = [p for p in problems if p.file not in builtin]
            lines = [p.render(lang) for p in own] if own else _into_file(problems, text, shown,
                                                                          lang)
            for line in lines:
                print(one_line(line))
            print(word("check_problems", lang, file=f, n=len(lines)), file=sys.stderr)
            continue
        # an old spelling that still works: listed here, one line each (a notice of the
        # ruleset cache is the run's, said at its end: scorer.cli.output.say_notices)
        for n in notices.take(str(path)):
            print(one_line(n.render(lang) if hasattr(n, "render") else str(n)))
        # a file that checks is said within the terminal's width (a problem is one line)
        print(wrap_text(word("check_ok", lang, file=f, id=rs.id, name=rs.name_en if lang == "en"
                             else rs.name, n=len(rs.patterns)), indent="  "))
    return status


# a file read but refused whole (its size, its encoding): said as a problem of the file,
# where any other error of reading names nothing in a file (not found, unreadable)
_SAID_OF_THE_FILE = ("ruleset.too_big", "ruleset.not_utf8")


def _into_file(problems: list[Problem], text: str, shown: str, lang: str = "en") -> list[str]:
    r"""Problems found in a built-in file that ``shown`` extends, pointed at the key of
    ``shown`` that changed what the built-in says (the deepest key of the problem's path
    the file writes). A problem whose path the file does not write keeps its own place.
    Said in ``lang``; the file it was inherited by is the one it is now said of, so the
    problem's ``inherited_by`` is left out.

    >>> from scorer.errors import Problem
    >>> p = Problem("rulesets/hangzhou.yaml", 56, 14, "options.cap.default",
    ...             "schema.option_default",
    ...             {"values": [64, 128], "inherited_by": "my.yaml"})
    >>> mine = "extends: hangzhou\noptions:\n  cap: {values: [64, 128]}\n"
    >>> print(_into_file([p], mine, "my.yaml")[0].replace(" (the", "\n(the"))
    my.yaml:3:3 options.cap.default: must be one of the values (64, 128)
    (the value is rulesets/hangzhou.yaml:56's)
    >>> _into_file([p], mine, "my.yaml", "zh")[0]
    'my.yaml:3:3 options.cap.default: 必须是这些值之一（64、128）（这个值是 rulesets/hangzhou.yaml:56 的）'
    """
    from ..errors import RulesetError
    from ..rules.yamlsafe import YMap, load
    from ..text.render import body, where

    try:
        data = load(text, shown, problems=[])
    except RulesetError:  # pragma: no cover - the file was read once already
        data = None
    out = []
    for p in problems:
        node, mark = data, None
        for part in p.key.split("."):
            if not isinstance(node, YMap) or part not in node:
                break
            mark, node = node.marks.get(part, mark), node[part]
        if mark is None:
            out.append(p.render(lang))
            continue
        code, params = p.coded()
        params.pop("inherited_by", None)  # said of the file that inherits it, here
        out.append(where({"file": shown, "line": mark.line, "column": mark.column,
                          "key": p.key}, lang) + body(code, params, lang)
                   + word("check_value_from", lang, file=p.file, line=p.line))
    return out
