"""Rulesets: YAML files loaded, validated and compiled once into a frozen :class:`Ruleset`.

A ruleset says which shapes win, how wildcards are read, which context flags it
uses, its options, its patterns (condition + value, in *tallies* that combine
by max / sum / product), which patterns replace others, what makes a hand not
a legal win, and how each payer's share is computed. Every condition and
formula is an expression of :mod:`scorer.lang`, type-checked against the
vocabulary of :mod:`scorer.rules.facts` at load time; a mistake is reported with
file, line, column and key, and all problems are collected before failing.

``extends:`` makes a ruleset start from another (a built-in id or a path
relative to the file): mappings merge key by key, lists of entries with an
``id`` (patterns, errors, not_a_win) merge by id, ``remove:`` drops entries.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Problem, RulesetError
from ..lang import BOOL, GROUP, INT, STR, TILE, Compiled, ExprError, Scope, compile_expr, is_numeric
from ..lang.types import ANY, NONE, Type, base, is_list, list_of, maybe
from ..model import tiles as T
from ..search.combine import MAX_SETS, SET_NAMES, TILE_ONLY_ATTRS, Family, predicate
from ..search.readings import SHAPE_SIZES, SHAPES
from . import facts as F
from .yamlsafe import Mark, YList, YMap, load

BUILTIN = ("hangzhou", "jinhua", "xiamen", "mcr")
MAX_EXTENDS = 8

# Context flags a ruleset may use (CONTRACT.md), and the facts each one feeds.
FLAGS: dict[str, tuple[str, ...]] = {
    "wild": ("wild",),
    "dealer_streak": ("dealer_streak",),
    "kong_draw": ("kong_draw", "kongs"),
    "kongs": ("kongs",),
    "robbing_kong": ("robbing_kong",),
    "last_tile": ("last_tile",),
    "fourth_tile": ("fourth_tile",),
    "piao": ("piao",),
    "you": ("you",),
    "ready_at_deal": ("ready_at_deal",),
    "heavenly": ("heavenly",),
    "earthly": ("earthly",),
    "human": ("human",),
    "flowers": ("flowers", "flower_list", "flowers_known"),
    "chengbao": (),
    "base": ("base",),
}
INT_FLAGS = ("dealer_streak", "kongs", "piao", "you", "base")
ALWAYS_FLAGS = ("seat", "round", "from", "self_draw")

TOP_KEYS = {
    "id": "the ruleset's id (letters, digits, - and _)",
    "name": "Chinese name",
    "name_en": "English name",
    "extends": "a built-in ruleset id or a path to start from",
    "source": "where the rules come from",
    "notes": "rulings and remarks (a list of texts)",
    "hand_size": "tiles in a winning hand before kong extras (14, or 17 for Xiamen)",
    "shapes": f"winning shapes: {', '.join(['standard', *SHAPES])}; an entry may be "
    "{shape: NAME, when: CONDITION} to try the shape only on hands where the condition holds",
    "players": "number of players (an expression over options)",
    "suits": "suits in play, e.g. ['m', 'p'] for a table without bamboo (an expression)",
    "robbing_kong": "how a robbed kong counts: discard (default) or self_draw",
    "self_draw_default": "condition: treat a win as self-drawn when neither --self-draw nor "
    "--from is given",
    "context": "the context flags this ruleset uses, with default/min/max",
    "options": "house options with their values and default",
    "wildcard": "the wildcard model (face, in_play, stand_in, …)",
    "labels": "display names of values in the calculation chain ('' shows the bare number)",
    "errors": "input errors (exit 2): when + message",
    "not_a_win": "conditions that make a hand not a legal win (exit 3)",
    "tallies": "how pattern values combine: max, sum or product",
    "score": "the headline number (an expression over tallies)",
    "patterns": "the scoring patterns",
    "payment": "what each payer pays",
    "remove": "ids of inherited patterns, errors or not_a_win entries to drop",
    "house_examples": "common house changes offered by 'mjscore rules new --from ID': "
    "a list of {title, yaml}",
    "ties": "how readings that score alike are ranked: order (found | sets) and prefer "
    "(pattern ids)",
}
PATTERN_KEYS = {"id", "name", "name_en", "tally", "when", "value", "count", "each", "replaces",
                "also", "notes", "fallback", "combine"}
CHECK_KEYS = {"id", "when", "message", "on", "reason"}
COMBINES = ("max", "sum", "product")
# {name} in a check's message is replaced by that value when the check fires
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def format_message(message: str, env: Any) -> str:
    """Fill the ``{name}`` placeholders of a check's message from an environment.

    >>> format_message("below the {min_fan}-fan minimum", {"min_fan": 8})
    'below the 8-fan minimum'
    """
    if "{" not in message:
        return message
    return PLACEHOLDER.sub(lambda m: _show(env[m.group(1)]), message)


# ----------------------------------------------------------------------------- model
@dataclass(frozen=True)
class OptionSpec:
    """A house option: allowed values (or an integer range) and the default."""

    name: str
    values: tuple[Any, ...] | None
    default: Any
    type: Type
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""

    def parse(self, text: str) -> Any:
        """Turn ``--option name=text`` into a value, or raise ValueError listing valid ones."""
        if self.values is not None:
            for v in self.values:
                if _show(v) == text.strip().lower() or str(v) == text.strip():
                    return v
            raise ValueError(
                f"--option {self.name}={text}: valid values are "
                f"{', '.join(_show(v) for v in self.values)}"
            )
        try:
            n = int(text)
        except ValueError:
            raise ValueError(f"--option {self.name}={text}: expected a whole number") from None
        if (self.minimum is not None and n < self.minimum) or (
            self.maximum is not None and n > self.maximum
        ):
            raise ValueError(f"--option {self.name}={text}: must be between "
                             f"{self.minimum} and {self.maximum}")
        return n

    def describe_values(self) -> str:
        if self.values is not None:
            return ", ".join(_show(v) for v in self.values)
        return f"{self.minimum}..{self.maximum if self.maximum is not None else ''}"


def _show(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True)
class FlagSpec:
    """A context flag the ruleset uses, with its default and range."""

    name: str
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Check:
    """An input error (``errors``) or a not-a-win condition (``not_a_win``)."""

    id: str
    when: Compiled
    message: str
    on: str = "hand"  # hand | reading | result
    reason: str = "illegal"


@dataclass(frozen=True)
class Tally:
    name: str
    combine: str
    label: str
    label_en: str
    default: int
    where: str = ""  # 'file:line tallies.NAME', for run-time errors (a product too large)


@dataclass(frozen=True)
class Pattern:
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
    # combine: {of: LIST, sets: N}: judged on combinations of N sets of the list LIST under
    # the combine-once principle (scorer.search.combine); its `when` sees only the sets a, b, c, d
    combine: tuple[str, int] | None = None


@dataclass(frozen=True)
class Let:
    name: str
    label: str
    label_en: str
    value: Compiled


@dataclass(frozen=True)
class Chengbao:
    allowed: Compiled
    message: str
    reverse_factor: Compiled


@dataclass(frozen=True)
class Payment:
    pays: Compiled
    amount: Compiled
    lets: tuple[Let, ...]
    chengbao: Chengbao | None
    needs_discarder: bool
    per_reading: bool  # uses reading facts, so it cannot be cached by tally values


@dataclass(frozen=True)
class Wildcard:
    face: Compiled
    in_play: Compiled
    stand_in: int | None
    stand_in_scope: str
    stand_in_self_shapes: frozenset[str]
    in_melds: bool


@dataclass(frozen=True)
class HouseExample:
    """A common house change, offered (commented out) by ``mjscore rules new --from ID``.

    ``yaml`` is the text to add to a file that extends the ruleset; ``title`` says in
    a few words what it changes (e.g. "封顶 128 (cap 128)").
    """

    title: str
    yaml: str


@dataclass(frozen=True)
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
    detail: int = 2  # how finely patterns tell tiles apart (facts.detail_level)
    features: frozenset[str] = F.ALL_FEATURES  # at detail 1, which (facts.class_features)
    chain: tuple[str, ...] = ()  # file names: this one, then what it extends, in order
    sources: tuple[str, ...] = ()  # the same files as full paths
    house_examples: tuple[HouseExample, ...] = ()
    # (pattern, when, value, count, each) closures, unwrapped for the per-reading loop
    fast: tuple[tuple[Pattern, Any, Any, Any, Any], ...] = field(default=(), compare=False,
                                                                  repr=False)
    max_tallies: frozenset[str] = frozenset()
    payment_names: tuple[str, ...] = ()  # context/hand names the payment rule reads
    reusable: bool = False  # a reading's outcome depends only on its patterns' values
    families: tuple[Family, ...] = ()  # combination patterns, grouped by list (scorer.search.combine)
    # do the expressions care which group the winning tile completed? (facts.placement_sensitive)
    placement: bool = True
    tie_order: str = "found"  # ties: 'found' (enumeration order) or 'sets' (scoring._rank_ties)
    tie_prefer: frozenset[str] = frozenset()  # ties: patterns that win a tie
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

    def label(self, name: str, lang: str = "zh") -> str:
        zh, en = self.labels.get(name, (name, name))
        return zh if lang == "zh" else en

    def pattern(self, pid: str) -> Pattern:
        for p in self.patterns:
            if p.id == pid:
                return p
        raise KeyError(pid)


# ----------------------------------------------------------------------------- loading
@lru_cache(maxsize=1)
def builtin_dir() -> Path:
    """The folder of the built-in rulesets.

    Installed, they are the data package ``scorer/rulesets``; in a source checkout
    (editable install, tests) they are the top-level ``rulesets/`` folder. Found by
    path rather than importlib.resources, which costs 8 ms of start-up.
    """
    here = Path(__file__).resolve().parent.parent  # scorer/
    for candidate in (here / "rulesets", here.parent / "rulesets"):
        if (candidate / "hangzhou.yaml").is_file():
            return candidate
    from importlib import resources  # pragma: no cover

    return Path(str(resources.files("scorer.rulesets")))  # pragma: no cover


def builtin_path(rid: str) -> Path:
    """Path of a built-in ruleset file."""
    return builtin_dir() / f"{rid}.yaml"


def list_builtin() -> list[str]:
    """Ids of the built-in rulesets that are installed."""
    return sorted(p.name[:-5] for p in builtin_dir().iterdir() if p.name.endswith(".yaml"))


def load_ruleset(spec: str) -> Ruleset:
    """Load a ruleset by built-in id or path; compiled once per process and cached.

    A file is read again only when its size or modification time changes, or that of
    a file it extends, so editing a parent file is seen at once.

    >>> load_ruleset("hangzhou").name_en
    'Hangzhou'
    """
    path = builtin_path(spec) if not _is_path(spec) else Path(spec)
    try:
        st = path.stat()
        stamp: tuple[object, ...] = (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (spec,)
    hit = _RECENT.get(spec)
    if hit is not None and hit[0] == stamp and all(_stamp(p) == s for p, s in hit[2]):
        return hit[1]
    path, text = _locate(spec, None, [])
    key = (str(path.resolve()), text)
    cached = _CACHE.get(key)
    if cached is not None and all(_stamp(p) == s for p, s in cached[1]):
        rs, parents = cached
    else:
        rs = compile_ruleset(text, str(path))
        parents = tuple((p, _stamp(p)) for p in rs.sources[1:])
        if len(_CACHE) >= 64:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (rs, parents)
    if len(_RECENT) > 64:
        _RECENT.clear()
    _RECENT[spec] = (stamp, rs, parents)
    return rs


# spec -> (stamp of the file, ruleset, stamps of the files it extends)
_RECENT: dict[str, tuple[tuple[object, ...], Ruleset, tuple[tuple[str, Any], ...]]] = {}
# (resolved path, text) -> (ruleset, stamps of the files it extends)
_CACHE: dict[tuple[str, str], tuple[Ruleset, tuple[tuple[str, Any], ...]]] = {}


def _stamp(path: str) -> Any:
    """What tells a file's content apart cheaply: (mtime, size), or None if it is gone."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _is_path(spec: str) -> bool:
    return "/" in spec or "\\" in spec or spec.endswith((".yaml", ".yml"))


def _locate(spec: str, base_dir: Path | None, chain: list[str]) -> tuple[Path, str]:
    """Find a ruleset by id or path and read its text.

    ``base_dir`` is the folder of the file that names ``spec`` in its ``extends:``
    (relative paths are relative to that file); ``chain`` the files read so far, shown
    in the message when the ruleset is missing.
    """
    via = f" (chain: {' → '.join([*chain, spec])})" if chain else ""
    if not _is_path(spec):
        path = builtin_path(spec)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", spec) or not path.is_file():
            known = list_builtin()
            close = difflib.get_close_matches(spec, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise RulesetError(
                f"no built-in ruleset '{spec}'{hint}; built-in: {', '.join(known)}; "
                f"or give a path to a YAML file{via}"
            )
    else:
        path = Path(spec)
        if base_dir is not None and not path.is_absolute():
            path = base_dir / path
        if not path.is_file():
            where = f" (looked for {path}, relative to the file that extends it)" if str(
                path) != spec else ""
            stem = Path(spec).stem
            if stem in list_builtin() and Path(spec).name == f"{stem}.yaml":
                where += f"; a built-in ruleset is named by its id: extends: {stem}"
            raise RulesetError(f"ruleset file not found: {spec}{where}{via}")
    try:
        # read at most one byte more than allowed: a huge file is refused without loading it
        with path.open("rb") as fh:
            raw = fh.read(512 * 1024 + 1)
    except OSError as e:
        raise RulesetError(f"cannot read ruleset {path}: {e.strerror}") from None
    if len(raw) > 512 * 1024:
        raise RulesetError(f"{path}: file is larger than 512 KiB; refused")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesetError(f"{path}: not UTF-8 text (byte {e.start + 1})") from None
    return path, text


def _display(path: str) -> str:
    """Show built-in files as rulesets/<id>.yaml, user files as given."""
    p = Path(path)
    try:
        if p.resolve().parent == builtin_dir():
            return f"rulesets/{p.name}"
    except OSError:  # pragma: no cover
        pass
    return path


def is_builtin(path: str) -> bool:
    try:
        return Path(path).resolve().parent == builtin_dir()
    except OSError:  # pragma: no cover
        return False


# Top-level lists whose entries have an ``id``: a child's entry with an inherited id
# changes that entry key by key; one with a new id is added; ``remove:`` drops ids.
ID_LISTS = ("patterns", "errors", "not_a_win")


def _ident(path: str) -> str:
    p = Path(path)
    return str(p.resolve()) if p.exists() else path


def read_merged(text: str, file: str, chain: list[str] | None = None,
                problems: list[Problem] | None = None) -> tuple[YMap, list[str]]:
    """Parse a ruleset file and everything it extends; return the merged map and the chain.

    The chain lists the files read, the given one first (resolved paths). A file
    that extends another (``extends: hangzhou`` or ``extends: ../base.yaml``, a path
    relative to the file) starts from the parent's merged map: see :func:`merge_ruleset`.
    A missing parent, a cycle or more than ``MAX_EXTENDS`` levels is a RulesetError at
    the ``extends:`` line, with the chain of files. Problems that leave a file readable
    (see :func:`scorer.rules.yamlsafe.load`) are added to ``problems`` when it is given, else
    raised.

    >>> data, chain = read_merged("extends: hangzhou\\nid: mine\\n", "mine.yaml")
    >>> data["id"], data["name_en"], [c.rsplit("/", 1)[-1] for c in chain]
    ('mine', 'Hangzhou', ['mine.yaml', 'hangzhou.yaml'])
    """
    chain = list(chain or [])
    shown = _display(file)
    # Built-in files are ours: read them with libyaml (1 ms instead of 11 ms).
    data = load(text, shown, trusted=is_builtin(file), problems=problems)
    if not isinstance(data, YMap):
        raise RulesetError(Problem(shown, 1, 1, "", "a ruleset file must be a mapping of keys"))
    chain.append(_ident(file))
    parent_spec = data.get("extends")
    if parent_spec is None and "extends" not in data:
        if "remove" in data:
            m = data.marks.get("remove")
            raise RulesetError(Problem(shown, m.line if m else None, m.column if m else None,
                                       "remove", "remove: drops inherited entries; it needs "
                                       "extends: (the ruleset to start from)"))
        return data, chain
    m = data.vmarks.get("extends")
    line, col = (m.line, m.column) if m else (None, None)
    names = [Path(c).name for c in chain]
    if "extends" in data and parent_spec is None:
        raise RulesetError(Problem(shown, line, col, "extends",
                                   "give the ruleset to start from: a built-in id (e.g. "
                                   "hangzhou) or a path to a YAML file, relative to this file"))
    if not isinstance(parent_spec, str) or not parent_spec.strip():
        raise RulesetError(Problem(shown, line, col, "extends",
                                   "must be a built-in ruleset id (e.g. hangzhou) or a path to "
                                   "a YAML file, relative to this file"))
    if _is_path(parent_spec) and not parent_spec.endswith((".yaml", ".yml")):
        # a ruleset may only read other rulesets, not any file it can name
        raise RulesetError(Problem(shown, line, col, "extends",
                                   f"'{parent_spec}': extends names a built-in ruleset id or a "
                                   ".yaml/.yml file"))
    if len(chain) > MAX_EXTENDS:
        raise RulesetError(Problem(shown, line, col, "extends",
                                   f"more than {MAX_EXTENDS} levels of extends "
                                   f"(chain: {' → '.join(names)})"))
    try:
        ppath, ptext = _locate(parent_spec, Path(file).parent, names)
    except RulesetError as e:
        raise RulesetError(Problem(shown, line, col, "extends",
                                   e.problems[0].message if e.problems else e.message)) from None
    if _ident(str(ppath)) in chain:
        cycle = [*names, ppath.name]
        raise RulesetError(Problem(shown, line, col, "extends",
                                   f"extends itself in a cycle: {' → '.join(cycle)}"))
    parent, chain = read_merged(ptext, str(ppath), chain, problems)
    merge_problems: list[Problem] = []
    merged = merge_ruleset(parent, data, merge_problems)
    if merge_problems:
        raise RulesetError(merge_problems)
    if "id" not in data:
        # A house file without its own id is named after the file, so that results and
        # disputes never show it under its parent's id.
        merged["id"] = Path(file).stem
        merged.marks["id"] = merged.vmarks["id"] = Mark(shown, 1, 1)
    return merged, chain


def merge_ruleset(parent: YMap, child: YMap, problems: list[Problem]) -> YMap:
    """Merge a child ruleset file over its (merged) parent.

    * mappings (``options``, ``context``, ``labels``, ``payment`` …) merge key by key,
      recursively: ``options: {cap: {default: 128}}`` changes one default;
    * the lists of :data:`ID_LISTS` merge by ``id``: an entry with an inherited id
      changes that entry key by key (``{id: baotou, value: 4}``), a new id adds an
      entry (a new pattern must say ``when:``);
    * ``remove: [id, ...]`` drops inherited entries before the child's are added (so
      remove + an entry with the same id replaces it whole); ``replaces:`` lists of
      inherited patterns forget the removed ids;
    * any other value (text, numbers, other lists) is replaced by the child's.

    Problems (an unknown id in ``remove``, an override of a pattern that does not
    exist) are appended to ``problems`` with the child's file and line.
    """
    removed = _removals(parent, child, problems)
    base = _without(parent, removed) if removed else parent
    out = YMap(child.mark)
    _copy_into(out, base)
    for k, v in child.items():
        if k in ("extends", "remove"):
            continue
        if k in ID_LISTS and isinstance(v, YList) and isinstance(out.get(k), YList):
            out[k] = _merge_by_id(out[k], v, k, problems)
        else:
            out[k] = merge(out[k], v) if k in out else v
        out.marks[k] = child.marks[k]
        out.vmarks[k] = child.vmarks[k]
    return out


def merge(parent: Any, child: Any) -> Any:
    """Merge two values of a ruleset: mappings key by key, lists of entries with ids by id,
    anything else is the child's value.

    >>> merge({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"d": 4}})
    {'a': 1, 'b': {'c': 2, 'd': 4}}
    """
    if isinstance(parent, dict) and isinstance(child, dict):
        out = YMap(getattr(child, "mark", None))
        _copy_into(out, parent)
        for k, v in child.items():
            out[k] = merge(out[k], v) if k in out else v
            if isinstance(child, YMap):
                if k in child.marks:
                    out.marks[k] = child.marks[k]
                if k in child.vmarks:
                    out.vmarks[k] = child.vmarks[k]
        return out
    if isinstance(parent, YList) and isinstance(child, YList) and _has_ids(parent) and _has_ids(
            child):
        return _merge_by_id(parent, child, "", [])
    return child


def _copy_into(out: YMap, src: dict[str, Any]) -> None:
    for k, v in src.items():
        out[k] = v
        if isinstance(src, YMap):
            if k in src.marks:
                out.marks[k] = src.marks[k]
            if k in src.vmarks:
                out.vmarks[k] = src.vmarks[k]


def _origin(lst: Any, i: int) -> int:
    """The index an entry of a merged list had in the file it was written in."""
    origins = getattr(lst, "origins", None)
    return origins[i] if origins is not None and i < len(origins) else i


def _new_list(mark: Mark | None) -> YList:
    out = YList(mark)
    out.origins = []  # type: ignore[attr-defined]
    return out


def _append(out: YList, item: Any, mark: Mark, origin: int) -> None:
    out.append(item)
    out.marks.append(mark)
    out.origins.append(origin)  # type: ignore[attr-defined]


def _merge_by_id(parent: YList, child: YList, key: str, problems: list[Problem]) -> YList:
    out = _new_list(child.mark)
    index: dict[str, int] = {}
    for i, (item, mk) in enumerate(zip(parent, parent.marks, strict=False)):
        pid = item.get("id") if isinstance(item, dict) else None
        if isinstance(pid, str):
            index[pid] = len(out)
        _append(out, item, mk, _origin(parent, i))
    for j, (item, mk) in enumerate(zip(child, child.marks, strict=False)):
        pid = item.get("id") if isinstance(item, dict) else None
        if isinstance(pid, str) and pid in index:
            pos = index[pid]
            out[pos] = merge(out[pos], item)
            out.marks[pos] = mk
            out.origins[pos] = j  # type: ignore[attr-defined]
            continue
        if key == "patterns" and isinstance(item, YMap) and isinstance(pid, str) and (
                "when" not in item):
            # An override whose id matches nothing would silently add a pattern that always
            # applies (when defaults to true): almost surely a misspelt id.
            close = difflib.get_close_matches(pid, list(index), n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            mark = item.vmarks.get("id") or mk
            problems.append(Problem(mark.file, mark.line, mark.column, f"patterns[{j}].id",
                                    f"no inherited pattern '{pid}' to change; {hint}a new "
                                    "pattern needs when: (and name, value)"))
        _append(out, item, mk, j)
    return out


def _removals(parent: YMap, child: YMap, problems: list[Problem]) -> set[str]:
    """The ids a child's ``remove:`` drops, each checked against the parent's entries."""
    raw = child.get("remove")
    if raw is None:
        return set()
    m = child.vmarks.get("remove") or child.mark
    if isinstance(raw, str):
        lst = YList(m)
        lst.append(raw)
        lst.marks.append(m)  # type: ignore[arg-type]
        raw = lst
    if not isinstance(raw, YList):
        problems.append(Problem(m.file if m else "", m.line if m else None,
                                m.column if m else None, "remove",
                                "must be a list of inherited ids, e.g. [qingqidui, gangkai]"))
        return set()
    known: list[str] = []
    for key in ID_LISTS:
        entries = parent.get(key)
        if isinstance(entries, list):
            known += [str(i["id"]) for i in entries if isinstance(i, dict) and "id" in i]
    out: set[str] = set()
    for j, rid in enumerate(raw):
        mk = raw.marks[j] if j < len(raw.marks) else m
        if not isinstance(rid, str):
            problems.append(Problem(mk.file if mk else "", mk.line if mk else None,
                                    mk.column if mk else None, f"remove[{j}]",
                                    "must be the id of an inherited entry (text)"))
            continue
        if rid not in known:
            close = difflib.get_close_matches(str(rid), known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(Problem(mk.file if mk else "", mk.line if mk else None,
                                    mk.column if mk else None, f"remove[{j}]",
                                    f"no inherited pattern, error or not_a_win with id "
                                    f"'{rid}'{hint}"))
            continue
        out.add(rid)
    return out


def _without(parent: YMap, removed: set[str]) -> YMap:
    """A copy of ``parent`` without the removed entries; ``replaces`` lists forget them."""
    out = YMap(parent.mark)
    _copy_into(out, parent)
    for key in ID_LISTS:
        lst = parent.get(key)
        if not isinstance(lst, YList):
            continue
        kept = _new_list(lst.mark)
        for i, (item, mk) in enumerate(zip(lst, lst.marks, strict=False)):
            if isinstance(item, dict) and item.get("id") in removed:
                continue
            if key == "patterns" and isinstance(item, YMap) and item.get("replaces"):
                rep = item["replaces"]
                reps = [rep] if isinstance(rep, str) else rep
                if isinstance(reps, list) and any(r in removed for r in reps):
                    item = merge(item, YMap())
                    new = YList(getattr(rep, "mark", None))
                    for r, rm in zip(reps, getattr(rep, "marks", [item.vmarks.get("replaces")]
                                                   * len(reps)), strict=False):
                        if r not in removed:
                            new.append(r)
                            new.marks.append(rm)
                    item["replaces"] = new
            _append(kept, item, mk, _origin(lst, i))
        out[key] = kept
    return out


def _families(patterns: tuple[Pattern, ...]) -> tuple[Family, ...]:
    """The combination patterns grouped by the list they combine, in the ruleset's order.

    A family whose patterns look only at the sets' tiles (no group comparison, no
    attribute beyond :data:`scorer.search.combine.TILE_ONLY_ATTRS`) is memoised by tiles.
    """
    fams: dict[str, list[int]] = {}
    for k, p in enumerate(patterns):
        if p.combine is not None:
            fams.setdefault(p.combine[0], []).append(k)
    out = []
    for of, idx in fams.items():
        pats = [patterns[k] for k in idx]
        attrs = {a for p in pats for (_, a) in p.when.attrs}
        preds = tuple((p.combine[1], predicate(p.when.fn, p.combine[1]))  # type: ignore[index]
                      for p in pats)
        out.append(Family(of, tuple(idx), preds, attrs <= TILE_ONLY_ATTRS
                          and not any(GROUP in p.when.compares for p in pats)))
    return tuple(out)


def _has_ids(lst: list[Any]) -> bool:
    # ids must be text to merge by; anything else (a list, a mapping) is reported by the
    # compiler as "must be text" instead of crashing here as an unhashable key
    return bool(lst) and all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in lst)


# ----------------------------------------------------------------------------- compiling
def compile_ruleset(text: str, file: str) -> Ruleset:
    """Parse, merge, validate and compile a ruleset; raise RulesetError with every problem.

    A problem found in a file that this one extends is reported at its place in that
    file, with a note that the file is inherited (an override here may be the cause);
    the file's own problems come first.
    """
    found: list[Problem] = []
    data, chain = read_merged(text, file, problems=found)
    shown = _display(file)
    c = _Compiler(shown, data, metered=not is_builtin(file))
    rs = c.build()
    # a value the YAML reader refused was read as none: drop the schema's echo of it
    # ("missing", "must be a mapping") so each mistake is reported once
    seen = {(p.file, p.key) for p in found}
    problems = found + [p for p in c.problems if (p.file, p.key) not in seen]
    problems = [Problem(p.file, p.line, p.column, p.key, p.message + f" (inherited by {shown})")
                if p.file and p.file != shown else p for p in problems]
    # in file order, this file first: an inherited problem is often the echo of a change here
    problems.sort(key=lambda p: (p.file != shown, p.file, p.line or 0, p.column or 0))
    if problems or rs is None:
        raise RulesetError(problems or [Problem(shown, None, None, "",
                                                "the ruleset could not be compiled")])
    return rs.__class__(**{**rs.__dict__, "chain": tuple(Path(p).name for p in chain),
                           "sources": tuple(chain), "data": data, "trusted": is_builtin(file)})


class _Compiler:
    def __init__(self, file: str, data: YMap, metered: bool = True) -> None:
        self.metered = metered  # False for a trusted built-in file: no CPU budget ticks
        self.file = file
        self.data = data
        self.problems: list[Problem] = []

    # -- reporting ----------------------------------------------------------------
    def problem(self, where: Mark | None, key: str, message: str) -> None:
        if where is None:
            # a value without a position of its own (a scalar where a mapping was expected):
            # point at the top-level key it belongs to, so every problem has a line
            top = re.split(r"[.\[]", key, maxsplit=1)[0]
            where = self.data.vmarks.get(top) or self.data.marks.get(top) or self.data.mark
        f = where.file if where else self.file
        self.problems.append(Problem(f, where.line if where else None,
                                     where.column if where else None, key, message))

    def mark_of(self, container: Any, key: Any) -> Mark | None:
        if isinstance(container, YMap):
            return container.vmarks.get(key) or container.marks.get(key) or container.mark
        if isinstance(container, YList) and isinstance(key, int) and key < len(container.marks):
            return container.marks[key]
        return getattr(container, "mark", None)

    def key_mark(self, container: Any, key: str) -> Mark | None:
        if isinstance(container, YMap):
            return container.marks.get(key) or container.mark
        return None

    def check_keys(self, m: YMap, allowed: set[str] | dict[str, str], path: str) -> None:
        for k in m:
            if k not in allowed:
                close = difflib.get_close_matches(k, list(allowed), n=1, cutoff=0.6)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.problem(self.key_mark(m, k), f"{path}{k}" if not path else f"{path}.{k}",
                             f"unknown key '{k}'{hint}")

    def expr(self, container: Any, key: Any, path: str, scope: Scope, want: str | None = None,
             default: Any = None) -> Compiled | None:
        value = container.get(key, default) if isinstance(container, dict) else container[key]
        if value is None:
            value = default
        if value is None:
            self.problem(self.mark_of(container, key), path, "missing")
            return None
        try:
            c = compile_expr(value, scope, metered=self.metered)
        except ExprError as e:
            mk = self.mark_of(container, key) if (isinstance(container, dict) and
                                                  key in container) else None
            col = None
            if mk is not None:
                col = mk.column + e.col + (1 if mk.quoted else 0)
                mk = Mark(mk.file, mk.line, col, mk.quoted)
            self.problem(mk, path, e.message)
            return None
        if want == "number" and not is_numeric(c.type):
            self.problem(self.mark_of(container, key), path,
                         f"must be a number, this expression gives a {c.type}")
            return None
        # run-time errors (division by zero, a number too large) name file, line and key
        mk = self.mark_of(container, key) if isinstance(container, dict) and key in container \
            else None
        c.where = f"{mk.file}:{mk.line} {path}" if mk is not None else f"{self.file} {path}"
        return c

    def flag(self, m: YMap, key: str, path: str) -> bool:
        """A true/false key (default false)."""
        v = m.get(key, False)
        if not isinstance(v, bool):
            self.problem(self.mark_of(m, key), path, "must be true or false")
            return False
        return v

    def text(self, m: YMap, key: str, path: str, required: bool = False,
             default: str = "") -> str:
        v = m.get(key)
        if v is None:
            if required:
                self.problem(m.mark, path, "missing")
            return default
        if not isinstance(v, str | int) or isinstance(v, bool):
            self.problem(self.mark_of(m, key), path, "must be text")
            return default
        return str(v)

    # -- the whole file -----------------------------------------------------------
    def build(self) -> Ruleset | None:
        d = self.data
        self.check_keys(d, TOP_KEYS, "")
        rid = self.text(d, "id", "id", required=True)
        if rid and not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", rid):
            self.problem(self.mark_of(d, "id"), "id", "use letters, digits, '-' and '_' only")
        name = self.text(d, "name", "name", default=rid)
        name_en = self.text(d, "name_en", "name_en", default=name)
        source = self.text(d, "source", "source")
        notes_raw = d.get("notes") or []
        if isinstance(notes_raw, str):
            notes_raw = [notes_raw]
        notes = tuple(str(n) for n in notes_raw) if isinstance(notes_raw, list) else ()

        hand_size = d.get("hand_size", 14)
        if not isinstance(hand_size, int) or isinstance(hand_size, bool) or not (
                5 <= hand_size <= 20 and (hand_size - 2) % 3 == 0):
            self.problem(self.mark_of(d, "hand_size"), "hand_size",
                         "must be a whole number like 14 or 17 (a pair plus sets of three)")
            hand_size = 14

        options = self.options(d.get("options"))
        flags = self.flags(d.get("context"))
        tallies = self.tallies(d.get("tallies"))
        tally_names = {t.name: INT for t in tallies}

        base_names = {**F.names_at("context"), **{o.name: o.type for o in options.values()}}
        opt_scope = Scope(base_names, F.ATTRS, {TILE: F.coerce_tile})
        hand_names = {**base_names, **F.names_at("hand")}
        reading_names = {**hand_names, **F.names_at("reading")}
        reading_scope = Scope(reading_names, F.ATTRS, {TILE: F.coerce_tile})
        hand_scope = Scope(hand_names, F.ATTRS, {TILE: F.coerce_tile}, readings=reading_scope)
        shapes, shape_when = self.shapes(d, Scope(hand_names, F.ATTRS, {TILE: F.coerce_tile}))
        for i, sname in enumerate(shapes):
            size = SHAPE_SIZES.get(sname)
            if size is not None and size != hand_size:
                self.problem(self.mark_of(d.get("shapes"), i), f"shapes[{i}]",
                             f"{sname} is a {size}-tile shape; this ruleset's hand_size is "
                             f"{hand_size}")
        result_scope = Scope({**reading_names, **tally_names, "score": INT}, F.ATTRS,
                             {TILE: F.coerce_tile})

        for oname in options:
            if oname in F.FACTS or oname in tally_names:
                self.problem(self.key_mark(d.get("options"), oname), f"options.{oname}",
                             f"'{oname}' is already the name of a fact; choose another name")

        players = self.expr(d, "players", "players", opt_scope, "number", default=4)
        suits = self.expr(d, "suits", "suits", opt_scope, default="['m', 'p', 's']")
        if suits is not None and str(suits.type) not in ("list[str]", "list[any]"):
            self.problem(self.mark_of(d, "suits"), "suits",
                         f"must give a list of suit letters, this gives a {suits.type}")
        rk = d.get("robbing_kong", "discard")
        if rk not in ("discard", "self_draw"):
            self.problem(self.mark_of(d, "robbing_kong"), "robbing_kong",
                         "must be 'discard' or 'self_draw'")
            rk = "discard"
        sdd = self.expr(d, "self_draw_default", "self_draw_default", opt_scope, default=False)
        wildcard = self.wildcard(d.get("wildcard"), opt_scope)
        labels = self.labels(d.get("labels"))
        for t in tallies:
            labels.setdefault(t.name, (t.label, t.label_en))
        errors = self.checks(d.get("errors"), "errors", hand_scope, default_on="hand",
                             allow_on=("hand",))
        not_a_win = self.checks(d.get("not_a_win"), "not_a_win", hand_scope,
                                default_on="hand", allow_on=("hand", "reading", "result"),
                                scopes={"reading": reading_scope, "result": result_scope})
        patterns = self.patterns(d.get("patterns"), reading_scope, tallies)
        score = self.expr(d, "score", "score", Scope({**tally_names}, F.ATTRS), "number",
                          default=tallies[0].name if tallies else "0")
        pay_scope_names = {**reading_names, **tally_names, **F.names_at("payment")}
        payment = self.payment(d.get("payment"), pay_scope_names, opt_scope)
        house_examples = self.house_examples(d.get("house_examples"))

        self.check_flags_used(flags, self.located(d, patterns, errors, not_a_win, shape_when))
        if (self.problems or players is None or sdd is None or score is None or payment is None
                or suits is None):
            return None
        reading_exprs: list[Compiled] = []
        for p in patterns:
            reading_exprs += [p.when, p.value] + ([p.count] if p.count else []) + (
                [p.each] if p.each else []) + [c for _, c in p.also]
        reading_exprs += [c.when for c in not_a_win]
        if payment.per_reading:
            reading_exprs += [payment.pays, payment.amount] + [x.value for x in payment.lets]
        detail = F.detail_level(reading_exprs)
        features = F.class_features(reading_exprs)
        placement = F.placement_sensitive(reading_exprs)
        families = _families(patterns)
        tie_order, tie_prefer = self.ties(d.get("ties"), {p.id for p in patterns})
        return Ruleset(
            id=rid, name=name, name_en=name_en, file=self.file, source=source, notes=notes,
            hand_size=hand_size, shapes=shapes, shape_when=shape_when, players=players,
            suits=suits,
            robbing_kong=str(rk),
            self_draw_default=sdd, flags=flags, options=options, wildcard=wildcard,
            labels=labels, errors=errors, not_a_win=not_a_win, tallies=tallies, score=score,
            patterns=patterns, payment=payment, detail=detail, features=features,
            house_examples=house_examples,
            fast=tuple((p, p.when.fn, p.value.fn, p.count.fn if p.count else None,
                        p.each.fn if p.each else None) for p in patterns if p.combine is None),
            families=families, placement=placement, tie_order=tie_order,
            tie_prefer=tie_prefer,
            max_tallies=frozenset(t.name for t in tallies if t.combine == "max"),
            # an `also` value that reads no reading fact is the same on every reading
            reusable=not payment.per_reading and not any(
                set(c.names) & set(reading_names) - set(hand_names)
                for p in patterns for _, c in p.also),
            payment_names=tuple(sorted(
                (set(payment.pays.names) | set(payment.amount.names)
                 | {n for x in payment.lets for n in x.value.names}
                 | (set(payment.chengbao.reverse_factor.names) if payment.chengbao else set()))
                - set(tally_names) - set(F.names_at("payment")) - {x.name for x in payment.lets})),
        )

    def house_examples(self, raw: Any) -> tuple[HouseExample, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, YList):
            self.problem(getattr(raw, "mark", None), "house_examples",
                         "must be a list of {title, yaml}")
            return ()
        out = []
        for i, item in enumerate(raw):
            path = f"house_examples[{i}]"
            if not isinstance(item, YMap):
                self.problem(self.mark_of(raw, i), path, "must be a mapping with title and yaml")
                continue
            self.check_keys(item, {"title", "yaml"}, path)
            title = self.text(item, "title", f"{path}.title", required=True)
            text = self.text(item, "yaml", f"{path}.yaml", required=True)
            if text:
                # the snippet is added to a file that extends this one: it must be a mapping
                try:
                    snippet = load(text, self.file)
                except RulesetError as e:
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml",
                                 e.problems[0].message)
                    continue
                if not isinstance(snippet, YMap):
                    self.problem(self.mark_of(item, "yaml"), f"{path}.yaml",
                                 "must be YAML keys to add to a file that extends this ruleset")
                    continue
            out.append(HouseExample(title, text))
        return tuple(out)

    def shapes(self, d: YMap, scope: Scope) -> tuple[tuple[str, ...],
                                                     tuple[tuple[str, Compiled], ...]]:
        """The shapes and the conditions of the conditional ones.

        An entry is a shape name, or ``{shape: NAME, when: CONDITION}``: the shape is
        tried only on hands where the condition (over context, options and hand facts)
        holds, e.g. ``{shape: as_held, when: "wild_count == 3"}`` (三金倒).
        """
        raw = d.get("shapes", ["standard"])
        known = ["standard", *SHAPES]
        conds: list[tuple[str, Compiled]] = []
        if not isinstance(raw, list) or not raw:
            self.problem(self.mark_of(d, "shapes"), "shapes",
                         f"must be a list of: {', '.join(known)}")
            return ("standard",), ()
        out = []
        for i, s in enumerate(raw):
            if isinstance(s, YMap):
                self.check_keys(s, {"shape", "when"}, f"shapes[{i}]")
                when = self.expr(s, "when", f"shapes[{i}].when", scope)
                entry = s
                s = s.get("shape")
                if s is None:
                    self.problem(entry.mark, f"shapes[{i}].shape", "missing (a shape name)")
                    continue
                if when is not None and s in known:
                    conds.append((str(s), when))
            if s not in known:
                close = difflib.get_close_matches(str(s), known, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.problem(self.mark_of(raw, i), f"shapes[{i}]", f"unknown shape '{s}'{hint}")
            else:
                out.append(str(s))
        return tuple(out), tuple(conds)

    def options(self, raw: Any) -> dict[str, OptionSpec]:
        out: dict[str, OptionSpec] = {}
        if raw is None:
            return out
        if not isinstance(raw, YMap):
            self.problem(getattr(raw, "mark", None), "options", "must be a mapping name: {...}")
            return out
        for name, spec in raw.items():
            path = f"options.{name}"
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,40}", name):
                self.problem(self.key_mark(raw, name), path,
                             "option names use lowercase letters, digits and _")
                continue
            if not isinstance(spec, YMap):
                self.problem(self.mark_of(raw, name), path,
                             "must be a mapping with values/default/description")
                continue
            self.check_keys(spec, {"values", "default", "description", "description_en", "min",
                                   "max"}, path)
            desc = str(spec.get("description", ""))
            values = spec.get("values")
            default = spec.get("default")
            if values is not None:
                if not isinstance(values, list) or not values or any(
                        isinstance(v, dict | list) for v in values):
                    self.problem(self.mark_of(spec, "values"), f"{path}.values",
                                 "must be a non-empty list of words, numbers, true/false or none")
                    continue
                vals = tuple(None if (isinstance(v, str) and v == "none") else v for v in values)
                if isinstance(default, str) and default == "none":
                    default = None
                if not any(default is v or (type(default) is type(v) and default == v)
                           for v in vals):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 f"must be one of the values ({', '.join(_show(v) for v in vals)})")
                    continue
                kinds = {type(v) for v in vals if v is not None}
                typ = {bool: BOOL, int: INT, str: STR}.get(kinds.pop(), ANY) if len(
                    kinds) == 1 else ANY
                if None in vals:
                    typ = maybe(typ)
                out[name] = OptionSpec(name, vals, default, typ, description=desc)
            else:
                lo, hi = spec.get("min"), spec.get("max")
                bad = [k for k, v in (("min", lo), ("max", hi))
                       if v is not None and (not isinstance(v, int) or isinstance(v, bool))]
                for k in bad:
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "must be a whole number")
                if bad:
                    continue
                if not isinstance(default, int) or isinstance(default, bool):
                    self.problem(self.mark_of(spec, "default"), f"{path}.default",
                                 "give values: [...] or a whole-number default with min/max")
                    continue
                out[name] = OptionSpec(name, None, default, INT, lo, hi, desc)
        return out

    def flags(self, raw: Any) -> dict[str, FlagSpec]:
        out: dict[str, FlagSpec] = {}
        if raw is None:
            return out
        items: list[tuple[str, Any]]
        if isinstance(raw, YList):
            items = [(str(x), None) for x in raw]
        elif isinstance(raw, YMap):
            items = list(raw.items())
        else:
            self.problem(getattr(raw, "mark", None), "context", "must list the flags used")
            return out
        for name, spec in items:
            path = f"context.{name}"
            if name not in FLAGS:
                close = difflib.get_close_matches(name, list(FLAGS), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                extra = " (always accepted, no need to list)" if name in ALWAYS_FLAGS else ""
                self.problem(self.key_mark(raw, name) if isinstance(raw, YMap) else raw.mark,
                             path, f"unknown context flag '{name}'{hint}{extra}")
                continue
            if spec is None:
                out[name] = FlagSpec(name)
                continue
            if not isinstance(spec, YMap):
                self.problem(self.mark_of(raw, name), path, "must be a mapping (default/min/max)")
                continue
            self.check_keys(spec, {"default", "min", "max"}, path)
            vals = {k: spec.get(k) for k in ("default", "min", "max")}
            for k, v in vals.items():
                if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                    self.problem(self.mark_of(spec, k), f"{path}.{k}", "must be a whole number")
            out[name] = FlagSpec(name, vals["default"], vals["min"], vals["max"])
        return out

    def tallies(self, raw: Any) -> tuple[Tally, ...]:
        if raw is None:
            return (Tally("score", "sum", "分", "points", 0),)
        if not isinstance(raw, YMap) or not raw:
            self.problem(getattr(raw, "mark", None), "tallies", "must be a mapping name: {combine}")
            return (Tally("score", "sum", "分", "points", 0),)
        out = []
        for name, spec in raw.items():
            path = f"tallies.{name}"
            if not isinstance(spec, YMap):
                self.problem(self.mark_of(raw, name), path, "must be a mapping with combine:")
                continue
            self.check_keys(spec, {"combine", "label", "label_en", "default"}, path)
            comb = spec.get("combine")
            if comb not in COMBINES:
                self.problem(self.mark_of(spec, "combine"), f"{path}.combine",
                             f"must be one of {', '.join(COMBINES)}")
                continue
            default = spec.get("default", 1 if comb == "product" else 0)
            if not isinstance(default, int):
                self.problem(self.mark_of(spec, "default"), f"{path}.default", "must be a number")
                default = 0
            mk = self.key_mark(raw, name)
            out.append(Tally(name, str(comb), str(spec.get("label", name)),
                             str(spec.get("label_en", spec.get("label", name))), default,
                             f"{mk.file}:{mk.line} {path}" if mk else f"{self.file} {path}"))
        return tuple(out) or (Tally("score", "sum", "分", "points", 0),)

    def wildcard(self, raw: Any, scope: Scope) -> Wildcard | None:
        if raw is None:
            return None
        if not isinstance(raw, YMap):
            self.problem(getattr(raw, "mark", None), "wildcard", "must be a mapping")
            return None
        self.check_keys(raw, {"face", "in_play", "stand_in", "stand_in_scope",
                              "stand_in_self_shapes", "in_melds"}, "wildcard")
        face = self.expr(raw, "face", "wildcard.face", scope)
        if face is not None and base(face.type) not in (TILE, NONE):
            self.problem(self.mark_of(raw, "face"), "wildcard.face",
                         f"must give a tile (e.g. wild, or 'P'), this gives a {face.type}")
        in_play = self.expr(raw, "in_play", "wildcard.in_play", scope, "number", default=4)
        stand_in = raw.get("stand_in")
        st: int | None = None
        if stand_in is not None:
            try:
                st = T.parse_tile(str(stand_in))
            except ValueError as e:
                self.problem(self.mark_of(raw, "stand_in"), "wildcard.stand_in", str(e))
        scope_v = raw.get("stand_in_scope", "all")
        if scope_v not in ("all", "melds"):
            self.problem(self.mark_of(raw, "stand_in_scope"), "wildcard.stand_in_scope",
                         "must be 'all' or 'melds'")
        shapes = raw.get("stand_in_self_shapes") or []
        known = ["standard", *SHAPES]
        if not isinstance(shapes, list) or any(s not in known for s in shapes):
            self.problem(self.mark_of(raw, "stand_in_self_shapes"),
                         "wildcard.stand_in_self_shapes",
                         f"must be a list of shapes ({', '.join(known)})")
            shapes = []
        in_melds = raw.get("in_melds", True)
        if not isinstance(in_melds, bool):
            self.problem(self.mark_of(raw, "in_melds"), "wildcard.in_melds",
                         "must be true or false")
        if face is None or in_play is None:
            return None
        return Wildcard(face, in_play, st, str(scope_v), frozenset(map(str, shapes)),
                        bool(in_melds))

    def labels(self, raw: Any) -> dict[str, tuple[str, str]]:
        out: dict[str, tuple[str, str]] = {}
        if raw is None:
            return out
        if not isinstance(raw, YMap):
            self.problem(getattr(raw, "mark", None), "labels", "must be a mapping name: label")
            return out
        for k, v in raw.items():
            if isinstance(v, YMap):
                out[k] = (str(v.get("zh", k)), str(v.get("en", v.get("zh", k))))
            else:
                out[k] = (str(v), str(v))
        return out

    def checks(self, raw: Any, key: str, scope: Scope, default_on: str,
               allow_on: tuple[str, ...], scopes: dict[str, Scope] | None = None) -> tuple[
            Check, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, YList):
            self.problem(getattr(raw, "mark", None), key, "must be a list of {when, message}")
            return ()
        out = []
        for i, item in enumerate(raw):
            path = f"{key}[{_origin(raw, i)}]"
            if not isinstance(item, YMap):
                self.problem(self.mark_of(raw, i), path, "must be a mapping with when and message")
                continue
            self.check_keys(item, CHECK_KEYS, path)
            on = item.get("on", default_on)
            if on not in allow_on:
                self.problem(self.mark_of(item, "on"), f"{path}.on",
                             f"must be one of {', '.join(allow_on)}")
                continue
            sc = (scopes or {}).get(on, scope)
            when = self.expr(item, "when", f"{path}.when", sc)
            message = self.text(item, "message", f"{path}.message", required=True)
            for name in PLACEHOLDER.findall(message):
                if name not in sc.names:
                    self.problem(self.mark_of(item, "message"), f"{path}.message",
                                 f"{{{name}}} is not a name here (placeholders name a value, "
                                 "e.g. {min_fan})")
            if when is not None:
                out.append(Check(str(item.get("id", f"{key}{i}")), when, message, on,
                                 str(item.get("reason", "illegal"))))
        return tuple(out)

    def patterns(self, raw: Any, scope: Scope, tallies: tuple[Tally, ...]) -> tuple[Pattern, ...]:
        if not isinstance(raw, YList):
            self.problem(getattr(raw, "mark", self.data.mark), "patterns",
                         "must be a list of patterns")
            return ()
        ids: dict[str, int] = {}
        tally_names = [t.name for t in tallies]
        out: list[Pattern] = []
        replaces_at: list[tuple[int, str, Any]] = []
        for i, item in enumerate(raw):
            path = f"patterns[{_origin(raw, i)}]"
            if not isinstance(item, YMap):
                self.problem(self.mark_of(raw, i), path, "must be a mapping (id, name, when, value)")
                continue
            self.check_keys(item, PATTERN_KEYS, path)
            pid = self.text(item, "id", f"{path}.id", required=True)
            if pid in ids:
                self.problem(self.mark_of(item, "id"), f"{path}.id",
                             f"id '{pid}' is used twice (also patterns[{ids[pid]}])")
            ids[pid] = _origin(raw, i)
            tally = item.get("tally", tally_names[0] if tally_names else "score")
            if tally not in tally_names:
                close = difflib.get_close_matches(str(tally), tally_names, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.problem(self.mark_of(item, "tally"), f"{path}.tally",
                             f"unknown tally '{tally}'{hint}")
                continue
            combine = self.combine(item, path, scope)
            when_scope = scope
            if combine is not None:
                when_scope = Scope({n: GROUP for n in SET_NAMES[:combine[1]]}, F.ATTRS,
                                   {TILE: F.coerce_tile}, what="name (a combination pattern "
                                   f"sees only the sets {', '.join(SET_NAMES[:combine[1]])})")
                for key in ("count", "each"):
                    if key in item:
                        self.problem(self.key_mark(item, key), f"{path}.{key}",
                                     "a combination pattern is counted by the combine-once "
                                     f"rule; remove {key}")
            when = self.expr(item, "when", f"{path}.when", when_scope, default=True)
            value = self.expr(item, "value", f"{path}.value", scope, "number")
            count = None
            if "count" in item and combine is None:
                count = self.expr(item, "count", f"{path}.count", scope, "number")
            each = None
            if "each" in item and combine is None:
                if "count" in item:
                    self.problem(self.key_mark(item, "each"), f"{path}.each",
                                 "give count or each, not both (each counts its items)")
                each = self.expr(item, "each", f"{path}.each", scope)
                if each is not None and not is_list(each.type):
                    self.problem(self.mark_of(item, "each"), f"{path}.each",
                                 f"must give a list (e.g. [g for g in pungs if g.dragon]), "
                                 f"this gives a {each.type}")
                    each = None
            also: list[tuple[str, Compiled]] = []
            also_raw = item.get("also")
            if also_raw is not None:
                if not isinstance(also_raw, YMap):
                    self.problem(self.mark_of(item, "also"), f"{path}.also",
                                 "must be a mapping tally: value")
                else:
                    for tname in also_raw:
                        if tname not in tally_names:
                            self.problem(self.key_mark(also_raw, tname), f"{path}.also.{tname}",
                                         f"unknown tally '{tname}'")
                            continue
                        c = self.expr(also_raw, tname, f"{path}.also.{tname}", scope, "number")
                        if c is not None:
                            also.append((tname, c))
            rep = item.get("replaces") or []
            if isinstance(rep, str):
                rep = [rep]
            if not isinstance(rep, list):
                self.problem(self.mark_of(item, "replaces"), f"{path}.replaces",
                             "must be a list of pattern ids")
                rep = []
            replaces_at.append((i, path, item))
            if when is None or value is None:
                continue
            out.append(Pattern(pid, self.text(item, "name", f"{path}.name", default=pid),
                               self.text(item, "name_en", f"{path}.name_en",
                                         default=str(item.get("name", pid))),
                               str(tally), when, value, count, frozenset(map(str, rep)),
                               tuple(also), self.text(item, "notes", f"{path}.notes"), i,
                               self.flag(item, "fallback", f"{path}.fallback"), each,
                               combine))
        for _i, path, item in replaces_at:
            rep = item.get("replaces") or []
            if isinstance(rep, str):
                rep = [rep]
            for j, r in enumerate(rep if isinstance(rep, list) else []):
                if not isinstance(r, str) or r not in ids:  # (a list or mapping is no id)
                    close = difflib.get_close_matches(str(r), list(ids), n=1)
                    hint = f"; did you mean '{close[0]}'?" if close else ""
                    container = item.get("replaces")
                    self.problem(self.mark_of(container, j) if isinstance(container, YList)
                                 else self.mark_of(item, "replaces"), f"{path}.replaces[{j}]",
                                 f"no pattern with id '{r}'{hint}")
        return tuple(out)

    def ties(self, raw: Any, ids: set[str]) -> tuple[str, frozenset[str]]:
        """Read ``ties: {order: found|sets, prefer: [pattern ids]}``."""
        if raw is None:
            return "found", frozenset()
        if not isinstance(raw, YMap):
            self.problem(getattr(raw, "mark", None), "ties",
                         "must be a mapping {order: sets, prefer: [...]}")
            return "found", frozenset()
        self.check_keys(raw, {"order", "prefer"}, "ties")
        order = raw.get("order", "found")
        if order not in ("found", "sets"):
            self.problem(self.mark_of(raw, "order"), "ties.order", "must be 'found' or 'sets'")
            order = "found"
        prefer = raw.get("prefer") or []
        if not isinstance(prefer, list):
            self.problem(self.mark_of(raw, "prefer"), "ties.prefer",
                         "must be a list of pattern ids")
            prefer = []
        for j, pid in enumerate(prefer):
            if pid not in ids:
                close = difflib.get_close_matches(str(pid), list(ids), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                self.problem(self.mark_of(prefer, j) if isinstance(prefer, YList)
                             else self.mark_of(raw, "prefer"), f"ties.prefer[{j}]",
                             f"no pattern with id '{pid}'{hint}")
        return str(order), frozenset(map(str, prefer))

    def combine(self, item: YMap, path: str, scope: Scope) -> tuple[str, int] | None:
        """Read ``combine: {of: LIST, sets: N}`` (a list of groups, 2..4 sets)."""
        raw = item.get("combine")
        if raw is None:
            return None
        if not isinstance(raw, YMap):
            self.problem(self.mark_of(item, "combine"), f"{path}.combine",
                         "must be a mapping {of: chows, sets: 2}")
            return None
        self.check_keys(raw, {"of", "sets"}, f"{path}.combine")
        of, n = raw.get("of"), raw.get("sets")
        if not isinstance(of, str) or scope.names.get(of) != list_of(GROUP):
            lists = sorted(k for k, v in scope.names.items() if v == list_of(GROUP))
            self.problem(self.mark_of(raw, "of"), f"{path}.combine.of",
                         f"must name a list of groups: {', '.join(lists)}")
            return None
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= MAX_SETS:
            self.problem(self.mark_of(raw, "sets"), f"{path}.combine.sets",
                         f"must be a whole number from 2 to {MAX_SETS}")
            return None
        return of, n

    def payment(self, raw: Any, names: dict[str, Type], opt_scope: Scope) -> Payment | None:
        if not isinstance(raw, YMap):
            self.problem(getattr(raw, "mark", self.data.mark), "payment",
                         "must be a mapping with amount (and pays, let, chengbao)")
            return None
        self.check_keys(raw, {"pays", "amount", "let", "chengbao"}, "payment")
        lets: list[Let] = []
        scope_names = dict(names)
        let_raw = raw.get("let")
        if let_raw is not None:
            if not isinstance(let_raw, YMap):
                self.problem(self.mark_of(raw, "let"), "payment.let",
                             "must be a mapping name: {label, value}")
            else:
                for lname, spec in let_raw.items():
                    path = f"payment.let.{lname}"
                    if lname in scope_names:
                        self.problem(self.key_mark(let_raw, lname), path,
                                     f"'{lname}' is already a name; choose another")
                        continue
                    if isinstance(spec, YMap):
                        self.check_keys(spec, {"label", "label_en", "value"}, path)
                        c = self.expr(spec, "value", f"{path}.value",
                                      Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile}), "number")
                        label = str(spec.get("label", lname))
                        label_en = str(spec.get("label_en", label))
                    else:
                        c = self.expr(let_raw, lname, path,
                                      Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile}), "number")
                        label = label_en = lname
                    if c is not None:
                        lets.append(Let(lname, label, label_en, c))
                        scope_names[lname] = INT
        scope = Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile})
        pays = self.expr(raw, "pays", "payment.pays", scope, default=True)
        amount = self.expr(raw, "amount", "payment.amount", scope, "number")
        cb: Chengbao | None = None
        cb_raw = raw.get("chengbao")
        if cb_raw is not None:
            if not isinstance(cb_raw, YMap):
                self.problem(self.mark_of(raw, "chengbao"), "payment.chengbao",
                             "must be a mapping (allowed, message, reverse_factor)")
            else:
                self.check_keys(cb_raw, {"allowed", "message", "reverse_factor"},
                                "payment.chengbao")
                cb_scope = Scope({**opt_scope.names, **F.names_at("chengbao")}, F.ATTRS,
                                 {TILE: F.coerce_tile})
                allowed = self.expr(cb_raw, "allowed", "payment.chengbao.allowed", cb_scope,
                                    default=True)
                rf = self.expr(cb_raw, "reverse_factor", "payment.chengbao.reverse_factor",
                               cb_scope, "number", default=2)
                msg = str(cb_raw.get("message", "承包 does not apply here"))
                if allowed is not None and rf is not None:
                    cb = Chengbao(allowed, msg, rf)
        if pays is None or amount is None:
            return None
        used = set(pays.names) | set(amount.names)
        for let in lets:
            used |= set(let.value.names)
        reading_level = set(F.names_at("reading"))
        needs = bool(used & {"payer_is_discarder", "discarder"})
        return Payment(pays, amount, tuple(lets), cb, needs, bool(used & reading_level))

    def located(self, d: YMap, patterns: tuple[Pattern, ...], errors: tuple[Check, ...],
                not_a_win: tuple[Check, ...], shape_when: tuple[tuple[str, Compiled], ...],
                ) -> list[tuple[Compiled, Mark | None, str]]:
        """Every expression of patterns, checks and shape conditions, with where it is
        written (so a problem with one points at it, in the file it is written in)."""
        out: list[tuple[Compiled, Mark | None, str]] = []
        raw = d.get("patterns")
        for p in patterns:
            item = raw[p.index] if isinstance(raw, YList) and p.index < len(raw) else None
            path = f"patterns[{_origin(raw, p.index)}]"
            for attr in ("when", "value", "count", "each"):
                c = getattr(p, attr)
                if c is not None:
                    out.append((c, self.mark_of(item, attr) if item else None, f"{path}.{attr}"))
            also = item.get("also") if isinstance(item, YMap) else None
            for tname, c in p.also:
                out.append((c, self.mark_of(also, tname) if also else None,
                            f"{path}.also.{tname}"))
        for _, c in shape_when:
            out.append((c, self.mark_of(d, "shapes"), "shapes"))
        for key, checks in (("errors", errors), ("not_a_win", not_a_win)):
            raw = d.get(key)
            items = list(raw) if isinstance(raw, YList) else []
            for c in checks:
                idx = next((i for i, it in enumerate(items) if isinstance(it, YMap)
                            and str(it.get("id", f"{key}{i}")) == c.id), None)
                out.append((c.when, self.mark_of(items[idx], "when") if idx is not None else None,
                            f"{key}[{_origin(raw, idx)}].when" if idx is not None else key))
        return out

    def check_flags_used(self, flags: dict[str, FlagSpec],
                         exprs: list[tuple[Compiled, Mark | None, str]]) -> None:
        """A fact fed by a context flag needs the flag listed under ``context:``; the
        problem is reported at the first expression that uses it."""
        for flag, feeds in FLAGS.items():
            if flag in flags:
                continue
            for name in feeds:
                if (flag == "kongs" and "kong_draw" in flags) or (
                        flag == "kong_draw" and name == "kongs" and "kongs" in flags):
                    continue
                user = next(((m, k) for c, m, k in exprs if name in c.names), None)
                if user is None:
                    continue
                mark, key = user
                if mark is None:
                    mark, key = self.data.marks.get("context") or self.data.mark, "context"
                self.problem(mark, key, f"uses '{name}', which needs the flag '{flag}' listed "
                             f"under context: (a line '  {flag}:' below 'context:')")
                break


_ = (BOOL, GROUP, STR)  # re-exported type names used by tests and docs
