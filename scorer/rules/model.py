"""The compiled ruleset: frozen dataclasses shared by every hand scored with it.

:class:`Ruleset` holds what the YAML file says, compiled (every condition and value a
:class:`~scorer.lang.Compiled` expression); :mod:`scorer.rules.schema` builds it,
:mod:`scorer.rules.load` finds and caches it, and :mod:`scorer.rules.plan` derives from
it how the engine runs it fast (``plan_of(rs)``; this module knows nothing of it).
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from ..errors import ContextError
from ..lang import Compiled
from ..lang.types import Type
from ..memo import Memo
from ..model.numbers import shown, whole
from ..record import record
from ..text import show
from .flags import ALWAYS_FLAGS, INT_FLAGS  # noqa: F401 - re-exported; the one flag table

# {name} in a check's message is replaced by that value when the check fires
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# a template, cut at its placeholders; a check's placeholder names
_PARTS: Memo[str, tuple[str, ...]] = Memo(1024, "rules.model.message_parts")
_NAMES: Memo[tuple[str, str], tuple[str, ...]] = Memo(1024, "rules.model.message_names")


@record(frozen=True)
class OptionSpec:
    """A house option: allowed values (or an integer range) and the default."""

    name: str
    values: tuple[Any, ...] | None
    default: Any
    type: Type
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""  # in Chinese, or one text for both languages
    description_en: str = ""  # "" when the file gave one text for both

    def described(self, lang: str = "zh") -> str:
        """What the option means, in ``lang`` (the one text when the file gave one).

        >>> o = OptionSpec("cap", None, 64, Type("int"), description="封顶番数",
        ...                description_en="the cap in fan")
        >>> o.described("zh"), o.described("en")
        ('封顶番数', 'the cap in fan')
        """
        return self.description_en or self.description if lang == "en" else self.description

    def parse(self, text: str, flag: str = "--option") -> Any:
        """Turn ``--option name=text`` into a value, or raise ContextError (naming
        ``flag``) listing the valid ones.

        A number is ASCII digits (:func:`scorer.model.numbers.whole`); a long text is
        named by its length, not echoed.

        >>> OptionSpec("cap", None, 64, Type("int"), 1, 512).parse("٣")
        Traceback (most recent call last):
        scorer.errors.ContextError: --option cap=٣: expected a whole number (digits 0-9)
        """
        said = shown(text)
        if self.values is not None:
            for v in self.values:
                if show(v) == text.strip().lower() or str(v) == text.strip():
                    return v
            raise ContextError("option.bad_value", flag, name=self.name, value=said,
                               values=", ".join(show(v) for v in self.values))
        try:
            n = whole(text.strip())
        except ValueError:
            raise ContextError("option.not_whole", flag, name=self.name, value=said) from None
        if (self.minimum is not None and n < self.minimum) or (
            self.maximum is not None and n > self.maximum
        ):
            raise ContextError("option.range", flag, name=self.name, value=text,
                               min=self.minimum, max=self.maximum)
        return n

    def describe_values(self) -> str:
        """The allowed values in words: ``64, 128, none`` or a range ``0..8``."""
        if self.values is not None:
            return ", ".join(show(v) for v in self.values)
        return f"{self.minimum}..{self.maximum if self.maximum is not None else ''}"


@record(frozen=True)
class FlagSpec:
    """A context flag the ruleset uses, with its default and range."""

    name: str
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None


@record(frozen=True)
class Check:
    """An input error (``errors``) or a not-a-win condition (``not_a_win``); its message in
    Chinese (``template``) and English (``template_en``, "" when the file gave one text for
    both), each with ``{name}`` placeholders."""

    id: str
    when: Compiled
    template: str  # the message as written, with {name} placeholders
    on: str = "hand"  # hand | reading | result
    reason: str = "illegal"
    template_en: str = ""

    def message(self, env: Any, lang: str = "en") -> str:
        """The message with its ``{name}`` placeholders filled from ``env``.

        >>> from scorer.lang import Scope, compile_expr
        >>> c = Check("min", compile_expr(True, Scope({})), "不够 {min_fan} 番", "hand",
        ...           "illegal", "below the {min_fan}-fan minimum")
        >>> c.message({"min_fan": 8}), c.message({"min_fan": 8}, "zh")
        ('below the 8-fan minimum', '不够 8 番')
        """
        template = self.template_en or self.template if lang == "en" else self.template
        if "{" not in template:
            return template
        # the template cut once at its placeholders: text, name, text, ... (a regex
        # substitution with a callback was 3.4 us, and MCR words one for 2 hands in 3)
        parts = _PARTS.get(template)
        if parts is None:
            parts = _PARTS.put(template, tuple(PLACEHOLDER.split(template)))
        out = [parts[0]]
        for k in range(1, len(parts), 2):
            out += (show(env[parts[k]]), parts[k + 1])
        return "".join(out)

    def params(self, env: Any) -> dict[str, Any]:
        """What a refusal or an error by this check carries (nothing worded): the check's
        id, its message in both languages as written, the values of its placeholders.

        >>> from scorer.lang import Scope, compile_expr
        >>> Check("min", compile_expr(True, Scope({})), "不够 {min_fan} 番").params({"min_fan": 8})
        {'check': 'min', 'message': {'zh': '不够 {min_fan} 番', 'en': '不够 {min_fan} 番'}, \
'values': {'min_fan': 8}}
        """
        key = (self.template, self.template_en)
        names = _NAMES.get(key)
        if names is None:
            names = _NAMES.put(key, tuple(dict.fromkeys(
                PLACEHOLDER.findall(self.template) + PLACEHOLDER.findall(self.template_en))))
        return {"check": self.id,
                "message": {"zh": self.template, "en": self.template_en or self.template},
                "values": _values(env, names)}

    @property
    def reads(self) -> tuple[str, ...]:
        """The names the check reads: its condition's and its message's placeholders.

        >>> from scorer.lang import Scope, compile_expr
        >>> Check("m", compile_expr("fan < 8", Scope({"fan": "int"})), "{min_fan} fans").reads
        ('fan', 'min_fan')
        """
        return (*sorted(self.when.names), *dict.fromkeys(
            PLACEHOLDER.findall(self.template) + PLACEHOLDER.findall(self.template_en)))


def _values(env: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The values of ``names`` in ``env`` (a fact is worked out on asking), those it has."""
    out: dict[str, Any] = {}
    for n in names:
        try:  # (a try, not suppress(): a refused MCR hand words its message with this)
            out[n] = env[n]
        except KeyError:  # not a name here: the placeholder stays as written
            continue
    return out


@record(frozen=True)
class Tally:
    """A tally: how the values of its patterns combine (max, sum or product), and its label."""

    name: str
    combine: str
    label: str
    label_en: str
    default: int
    where: str = ""  # 'file:line tallies.NAME', for run-time errors (a product too large)
    hidden: bool = False  # kept out of the calculation chain (a marker the payment reads)


@record(frozen=True)
class Pattern:
    """A scoring pattern: when it applies, its value, how many times it counts, what it replaces."""

    id: str
    name: str
    name_en: str
    tally: str
    when: Compiled
    value: Compiled
    count: Compiled | None
    replaces: frozenset[str]
    also: tuple[tuple[str, Compiled], ...]
    notes: str
    index: int
    # counts only when no other pattern of its tally counts (平胡 ×1 "when nothing else applies")
    fallback: bool = False
    # a list expression: the pattern counts once per item, and the report names the items
    each: Compiled | None = None
    # count_once: {of: LIST, sets: N}: judged on combinations of N sets of the list LIST under
    # the combine-once principle (套算一次, scorer.search.combine); its `when` sees only the
    # sets a, b, c, d
    count_once: tuple[str, int] | None = None
    # named tiers (双财飘, 豪华七对子 …), shown beside the formula; see Tier
    tiers: tuple[Tier, ...] = ()


@record(frozen=True)
class Tier:
    """A named tier of a pattern (``tiers:``): the first whose ``when`` holds names the
    pattern's level in the report, e.g. 双财飘 for 财飘 after two wildcard discards.
    ``name``/``name_en`` may hold ``{fact}`` (its number) or ``{fact:a|b|c}`` (its
    value-th alternative)."""

    when: Compiled
    name: str
    name_en: str


@record(frozen=True)
class Let:
    """A named intermediate value of the payment rule (shown in the calculation chain)."""

    name: str
    label: str
    label_en: str
    value: Compiled


@record(frozen=True)
class Chengbao:
    """承包: when a relation A:B may be claimed, and the factor when B wins."""

    allowed: Compiled
    message: str  # in Chinese (or the one text the file gave)
    reverse_factor: Compiled
    message_en: str = ""  # in English, "" when the file gave one text


@record(frozen=True)
class Payment:
    """What each payer pays: whether (``pays``) and how much (``amount``), with 承包."""

    pays: Compiled
    amount: Compiled
    lets: tuple[Let, ...]
    chengbao: Chengbao | None
    needs_discarder: bool
    per_reading: bool  # uses reading facts, so it cannot be cached by tally values


@record(frozen=True)
class Wildcard:
    """The wildcard model: which tile is wild, how many are in play, what stands in for it."""

    face: Compiled
    in_play: Compiled
    stand_in: int | None
    stand_in_scope: str
    stand_in_self_shapes: frozenset[str]
    in_melds: bool


@record(frozen=True)
class HouseExample:
    """A common house change, offered (commented out) by ``mjscore rules new --from ID``.

    ``yaml`` is the text to add to a file that extends the ruleset; ``title`` says in
    a few words what it changes (e.g. "封顶 128 (cap 128)").
    """

    title: str
    yaml: str


@record(frozen=True)
class Ruleset:
    """A compiled ruleset; immutable and shared by every hand scored with it."""

    id: str
    name: str
    name_en: str
    file: str
    source: str
    notes: tuple[str, ...]
    hand_size: int
    shapes: tuple[str, ...]
    shape_when: tuple[tuple[str, Compiled], ...]  # conditional shapes: (shape, condition)
    players: Compiled
    suits: Compiled
    robbing_kong: str
    self_draw_default: Compiled
    flags: dict[str, FlagSpec]
    options: dict[str, OptionSpec]
    wildcard: Wildcard | None
    labels: dict[str, tuple[str, str]]
    errors: tuple[Check, ...]
    not_a_win: tuple[Check, ...]
    tallies: tuple[Tally, ...]
    score: Compiled
    patterns: tuple[Pattern, ...]
    payment: Payment
    chain: tuple[str, ...] = ()  # file names: this one, then what it extends, in order
    sources: tuple[str, ...] = ()  # the same files as full paths
    house_examples: tuple[HouseExample, ...] = ()
    tie_order: str = "found"  # ties: 'found' (enumeration order) or 'sets' (scoring._rank_ties)
    tie_prefer: frozenset[str] = frozenset()  # ties: patterns that win a tie
    # points a false win (诈胡/错和) pays each other player where the rules fix them (MCR 10)
    false_win: int | None = None
    # the notes in English where the file gave them in both languages ({zh: ..., en: ...});
    # () when every note is one text for both (then `notes` serves both)
    notes_en: tuple[str, ...] = ()
    data: Any = field(default=None, compare=False, repr=False)
    trusted: bool = False  # a built-in file: its expressions run without the CPU clock

    @property
    def sets(self) -> int:
        """Sets in a standard winning hand (4 for 14 tiles, 5 for 17)."""
        return (self.hand_size - 2) // 3

    def shapes_for(self, env: Any) -> tuple[str, ...]:
        """The shapes tried on a hand: every shape whose condition (if any) holds in env.

        ``env`` holds the context, options and hand facts (a :class:`~scorer.rules.facts.Env`).
        """
        conds = dict(self.shape_when)
        return tuple(s for s in self.shapes if s not in conds or conds[s](env))

    def notes_in(self, lang: str = "zh") -> tuple[str, ...]:
        """The notes and rulings in ``lang``: each note's English where the file gave one
        (``{zh: ..., en: ...}``), else its one text."""
        if lang != "en" or not self.notes_en:
            return self.notes
        return tuple(en or zh for zh, en in zip(self.notes, self.notes_en, strict=True))

    def label(self, name: str, lang: str = "zh") -> str:
        """A value's display name in the calculation chain, e.g. ``番`` for ``fan``."""
        zh, en = self.labels.get(name, (name, name))
        return zh if lang == "zh" else en

    def pattern(self, pid: str) -> Pattern:
        """The pattern with this id; KeyError if there is none."""
        for p in self.patterns:
            if p.id == pid:
                return p
        raise KeyError(pid)
