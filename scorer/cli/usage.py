"""Usage errors of the command line as codes and parameters, in the player's language.

Typer's parser (its vendored click) words its usage errors in English. What went wrong is
read here from the exception's class and attributes — the option's name, the parameter,
the value a number flag refused (:mod:`.params`), the command line's own grammar — and
never from its message; the catalogue (``usage.*``, docs/contract.md#codes) words it in
zh or en. The did-you-mean is the one of :mod:`scorer.text.near`, not click's.

Two of click's usage errors carry nothing but their English (an unknown command, extra
arguments): :class:`UsageGroup` and :class:`UsageCommand`, which the app's group and
commands are made with (beside their help: scorer.cli.app), raise them as
:class:`UnknownCommand` and :class:`ExtraArguments` instead, which say what they are about.
"""

from __future__ import annotations

from typing import Any

from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    MissingParameter,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperCommand, TyperGroup

from ..text.near import close_matches, closest


class UnknownCommand(UsageError):
    """A command the group does not have: ``name`` as typed, ``known`` the group's."""

    def __init__(self, name: str, known: list[str], ctx: Any = None) -> None:
        super().__init__(f"No such command {name!r}.", ctx)
        self.name, self.known = name, known


class ExtraArguments(UsageError):
    """Arguments left over once a command took all it takes (``extra``, as typed)."""

    def __init__(self, extra: list[str], ctx: Any = None) -> None:
        super().__init__(f"Got unexpected extra argument(s) ({' '.join(extra)})", ctx)
        self.extra = extra


class UsageGroup(TyperGroup):
    """A group whose unknown command is an :class:`UnknownCommand` (the app's root)."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if (name and not name.startswith("-") and not ctx.resilient_parsing
                and self.get_command(ctx, name) is None):
            raise UnknownCommand(name, list(self.list_commands(ctx)), ctx)
        return super().resolve_command(ctx, args)


class UsageCommand(TyperCommand):
    """A command whose arguments it does not take are :class:`ExtraArguments`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.allow_extra_args or ctx.resilient_parsing:
            return super().parse_args(ctx, args)
        # click's own parse, told to keep what is left over, so that it is known here
        ctx.allow_extra_args = True
        try:
            rest: list[str] = super().parse_args(ctx, args)
        finally:
            ctx.allow_extra_args = False
        if rest:
            raise ExtraArguments([str(a) for a in rest], ctx)
        return rest


def usage_code(e: Exception, args: list[str] | tuple[str, ...] = ()) -> tuple[str, dict[str, Any]]:
    """The stable code of a usage error of typer's click and its parameters, for the
    catalogue to word in either language and for the JSON error object; ``args`` is the
    command line (what a misused option was given). A usage error of another kind is
    ``usage.error``, said alike whatever click said.

    >>> usage_code(NoSuchOption("--bogus"))
    ('usage.no_such_option', {'option': '--bogus'})
    >>> usage_code(UnknownCommand("scroe", ["score", "waits"]))
    ('usage.no_such_command', {'command': 'scroe', 'hint': 'score'})
    >>> usage_code(BadOptionUsage("--json", "…"), ["rules", "--json=1"])
    ('usage.takes_no_value', {'option': '--json'})
    """
    if isinstance(e, UnknownCommand):
        return "usage.no_such_command", {"command": e.name, "hint": closest(e.name, e.known)}
    if isinstance(e, ExtraArguments):
        return "usage.extra_arguments", {"extra": " ".join(e.extra)}
    if isinstance(e, NoSuchOption):
        return _no_such_option(e)
    if isinstance(e, BadOptionUsage):
        # click says so of an option given a value with '=' that takes none, and of one
        # whose value is missing (the end of the line): which it was, the line says
        option = str(e.option_name)
        given = any(str(a).startswith(option + "=") for a in args)
        return "usage.takes_no_value" if given else "usage.needs_value", {"option": option}
    if isinstance(e, (MissingParameter, BadParameter)) and e.param is not None:
        return _parameter(e)
    ctx = getattr(e, "ctx", None)
    if type(e) is UsageError and ctx is not None and isinstance(ctx.command, TyperGroup):
        return "usage.missing_command", {}  # (a group's one plain usage error)
    return "usage.error", {}


def _no_such_option(e: NoSuchOption) -> tuple[str, dict[str, Any]]:
    """An unknown option, and the command's options closest to it (a long one's)."""
    option = str(e.option_name)
    ctx = e.ctx
    known: list[str] = []
    if ctx is not None and option.startswith("--"):
        for p in ctx.command.get_params(ctx):
            if p.param_type_name == "option":
                known += [*p.opts, *p.secondary_opts]
    near = sorted(close_matches(option, known, n=3))
    if near:
        return "usage.no_such_option_near", {"option": option, "possibilities": near}
    return "usage.no_such_option", {"option": option}


def _parameter(e: MissingParameter | BadParameter) -> tuple[str, dict[str, Any]]:
    """A missing parameter, or a value it refused: named as its --help names it."""
    param = e.param
    assert param is not None
    hint = e.param_hint
    if hint is None:
        get_hint: Any = param.get_error_hint  # (its signature differs between typers)
        try:
            hint = get_hint(e.ctx)
        except TypeError:  # typer 0.29's options take no context here
            hint = get_hint()
    name = (hint if isinstance(hint, str) else " / ".join(hint)).strip("'\"")
    if isinstance(e, MissingParameter):
        kind_of = param.param_type_name
        return (f"usage.missing_{kind_of}" if kind_of in ("argument", "option")
                else "usage.missing_option"), {"param": name}
    number = getattr(e, "number", None)  # (cli.params.integer: why it is no number)
    if number is not None:
        return f"usage.{number.code}", {"param": name, **number.params}
    return "usage.bad_value", {"param": name}
