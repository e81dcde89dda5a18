"""Load YAML safely and keep where every value came from.

Only :class:`yaml.SafeLoader` nodes are composed (no Python tags, no object
construction); the node graph is then turned into :class:`YMap`/:class:`YList`
containers that remember the line and column of each key and item, so a schema
error can say ``rulesets/x.yaml:42 patterns[3].value``.

Hostile files are refused cheaply: a size limit, a limit on the number of
nodes visited (aliases are followed, so an alias-expansion "billion laughs" bomb
hits the limit instead of the memory), a limit on the text that aliases expand to
(an alias counts as one value but its text is compiled again at every use), a
nesting limit, and a digit limit on numbers. Every limit is named in its message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import yaml

from ..errors import Problem, RulesetError
from .yamlproblems import reader_problem, yaml_problem

MAX_BYTES = 512 * 1024
MAX_NODES = 50_000
MAX_DEPTH = 32
MAX_INT_DIGITS = 30
MAX_FLOW_DEPTH = 200  # brackets: PyYAML's scanner is quadratic in their depth
# The text of every scalar as read, aliases expanded: twice what a file may hold, so a file
# that uses aliases to save typing loads, while 12,000 uses of one 1,250-character
# condition (15 MB of expressions to compile) is refused before anything is compiled.
MAX_TEXT = 2 * MAX_BYTES
# Items of one list or mapping: every entry of a list is compiled and merged by id (the
# largest built-in list has 94 patterns); 20,000 ids in a remove: list are refused unread.
MAX_ITEMS = 1000


def _c_loader() -> type[Any]:
    """libyaml's safe loader if it limits nesting (0.2.5 and later), else the Python one."""
    try:
        from yaml import _yaml

        if tuple(_yaml.get_version()) >= (0, 2, 5):
            return yaml.CSafeLoader
    except (ImportError, AttributeError):  # pragma: no cover - PyYAML built without libyaml
        pass
    return yaml.SafeLoader


_C_LOADER: type[Any] | None = None  # set by _import_yaml()


def _import_yaml() -> type[Any]:
    """Import PyYAML on first use and return the loader to use: a ruleset read from the
    ruleset store (:mod:`scorer.rules.store`) never needs it, so neither does
    the start-up of ``mjscore score``."""
    global yaml, _C_LOADER
    if _C_LOADER is None:
        import yaml

        _C_LOADER = _c_loader()
    return _C_LOADER


class Mark(NamedTuple):
    """Where a key or value starts (1-based); ``quoted`` for '...' / "..." scalars.

    A named tuple, not a dataclass: a file of 40,000 items makes 40,000 of them, and a
    tuple is made in a fifth of the time.
    """

    file: str
    line: int
    column: int
    quoted: bool = False


class YMap(dict[str, Any]):
    """A mapping that remembers the position of each key (``marks``) and its own (``mark``)."""

    def __init__(self, mark: Mark | None = None) -> None:
        super().__init__()
        self.mark = mark
        self.marks: dict[str, Mark] = {}  # where each key is written
        self.vmarks: dict[str, Mark] = {}  # where each value starts


class YList(list[Any]):
    """A list that remembers the position of each item."""

    def __init__(self, mark: Mark | None = None) -> None:
        super().__init__()
        self.mark = mark
        self.marks: list[Mark] = []


def _mark(node: yaml.Node, file: str) -> Mark:
    m = node.start_mark
    quoted = isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')
    return Mark(file, m.line + 1, m.column + 1, quoted)


def load(text: str, file: str, trusted: bool = False,
         problems: list[Problem] | None = None, budget: list[int] | None = None,
         max_items: int | None = None) -> Any:
    """Parse YAML text into YMap/YList/scalars; raise RulesetError on any problem.

    With a ``problems`` list, problems that leave the rest of the file readable (a key
    given twice, a decimal number, a tag) are appended to it and loading goes on, so
    that ``mjscore rules check`` can report them all together with the schema's; the
    offending value is read as none. Without it they are raised together at the end.

    >>> load("a: 1\\nb: [x, 2]", "t.yaml")
    {'a': 1, 'b': ['x', 2]}
    >>> found = []
    >>> load("a: 1.5\\nb: 2\\nb: 3", "t.yaml", problems=found)
    {'a': None, 'b': 2}
    >>> [str(p) for p in found]
    ["t.yaml:1:4 a: '1.5': numbers in rulesets are whole numbers", 't.yaml:3:1 b: key given twice']

    ``budget``, a list [left, limit], is a node budget shared by several texts (the snippets
    of ``house_examples``): what this text uses is taken from ``left``, so that many
    snippets together are held to ``limit`` values. ``max_items`` refuses a
    list or mapping of more items (a ruleset file is read with :data:`MAX_ITEMS`).
    """
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise RulesetError(Problem(file, None, None, "", "yaml.too_big",
                                   {"limit": MAX_BYTES}))
    _check_flow_depth(text, file)
    c_loader = _import_yaml()
    try:
        # Nodes only (compose), never Python objects from tags. libyaml (from 0.2.5) refuses
        # more than 1000 levels of nesting and is 14 times faster than the pure-Python
        # reader (0.06 s instead of 0.8 s for a 400 KiB file); without it, the pure-Python
        # reader's RecursionError on absurd nesting is caught below.
        loader = c_loader if (trusted or c_loader is not yaml.SafeLoader) else yaml.SafeLoader
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as e:
        # the kind of problem as a code (PyYAML words it in English: yamlproblems.KINDS)
        code, params, line, col = yaml_problem(e, text)
        raise RulesetError(Problem(file, line, col, "", code, params)) from None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow
        code, params, line, col = reader_problem(e, text)
        raise RulesetError(Problem(file, line, col, "", code, params)) from None
    except yaml.YAMLError as e:  # pragma: no cover - every error of compose is one of those
        raise RulesetError(Problem(file, None, None, "", "yaml.invalid", {"error": str(e)})) from None
    except RecursionError:
        raise RulesetError(Problem(file, None, None, "", "yaml.too_deep")) from None
    if node is None:
        return None
    conv = _Converter(file, max_items)
    if budget is not None:
        conv.budget = budget[0]
        conv.limit = budget[1] if len(budget) > 1 else budget[0]
    try:
        data = conv.convert(node, 0, "")
    finally:
        # what was used is taken even when the budget ran out here: the texts after this
        # one are then not read at all (each was composed whole and refused in its turn)
        if budget is not None:
            budget[0] = conv.budget
    if problems is not None:
        problems.extend(conv.problems)
    elif conv.problems:
        raise RulesetError(conv.problems)
    return data


_FLOW_CHARS = re.compile(r"""[\[\]{}'"#\n\\]""")


def _check_flow_depth(text: str, file: str) -> None:
    """Refuse deeply nested ``[[[...`` / ``{{{...`` before PyYAML reads them.

    PyYAML's scanner keeps state per open bracket and rescans it for every token, so
    ten thousand brackets cost most of a second before the composer even recurses. A
    linear pass over the brackets outside quoted text and comments finds them first.

    >>> _check_flow_depth("a: [1, [2, '[[[']]  # [[[", "t.yaml")
    >>> _check_flow_depth("a: " + "[" * 300, "t.yaml")
    Traceback (most recent call last):
    ...
    scorer.errors.RulesetError: t.yaml:1:204 a: nested more than 200 levels of brackets
    """
    depth = 0
    quote = ""
    line, line_start = 1, 0
    prev_end = 0
    for m in _FLOW_CHARS.finditer(text):
        ch, i = m.group(), m.start()
        if ch == "\n":
            line, line_start = line + 1, i + 1
            if quote == "#":
                quote = ""
            prev_end = i + 1
            continue
        if quote == "#":
            continue
        if quote:
            if ch == "\\" and quote == '"':
                # the escaped character is skipped by looking at it as already seen
                prev_end = i + 2
            elif ch == quote and i >= prev_end:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            quote = "#"
        elif ch in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                first = text[line_start:i].split(":", 1)[0].strip() if ":" in text[
                    line_start:i] else ""
                raise RulesetError(Problem(file, line, i - line_start + 1, first,
                                           "yaml.brackets", {"limit": MAX_FLOW_DEPTH}))
        elif ch in "]}":
            depth = max(depth - 1, 0)


def printable(text: str, keep: str = "\n\t") -> str:
    r"""``text`` with every character that is not printable (but those in ``keep``) escaped.

    Names, labels and messages of a ruleset are shown on terminals by every command: an
    ESC/OSC sequence or a bidi override in a file must reach them as text, never as a
    control. Escaped once, here, every output (report, --explain, rules, JSON, batch
    errors) gets the escaped text.

    >>> printable("自摸\x1b]0;x\x07 \u202e"), printable("a\nb"), printable("a\nb", keep="")
    ('自摸\\x1b]0;x\\x07 \\u202e', 'a\nb', 'a\\nb')
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else repr(ch)[1:-1] for ch in text)


class _Converter:
    """Turns composed nodes into YMap/YList/scalars, following aliases within a budget."""

    def __init__(self, file: str, max_items: int | None = None) -> None:
        self.file = file
        self.max_items = max_items
        self.budget = self.limit = MAX_NODES
        self.text_budget = MAX_TEXT
        self.problems: list[Problem] = []

    def problem(self, node: yaml.Node, key: str, code: str, **params: Any) -> None:
        m = _mark(node, self.file)
        self.problems.append(Problem(self.file, m.line, m.column, key, code, params or None))

    def convert(self, node: yaml.Node, depth: int, path: str) -> Any:
        self.budget -= 1
        if self.budget < 0:  # fatal: aliases are followed, so a "billion laughs" bomb ends here
            raise RulesetError(Problem(
                self.file, None, None, "",
                "yaml.bomb", {"limit": self.limit},
            ))
        if depth > MAX_DEPTH:
            m = _mark(node, self.file)
            raise RulesetError(Problem(self.file, m.line, m.column, path,
                                       "yaml.nested", {"limit": MAX_DEPTH}))
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in (
                "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            # !!python/object:..., !!python/object/apply:... (compose never builds them,
            # but a tag there is a mistake or an attempt: say so rather than read it)
            self.problem(node, path, "yaml.tag", tag=node.tag)
            return None
        if self.max_items is not None and isinstance(
                node, yaml.MappingNode | yaml.SequenceNode) and len(node.value) > self.max_items:
            m = _mark(node, self.file)
            raise RulesetError(Problem(self.file, m.line, m.column, path,
                                       "yaml.items", {"n": f"{len(node.value):,}",
                                                      "limit": f"{self.max_items:,}"}))
        if isinstance(node, yaml.MappingNode):
            out = YMap(_mark(node, self.file))
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode):
                    self.problem(k, path, "yaml.key_not_word")
                    continue
                if k.tag == "tag:yaml.org,2002:merge":
                    self.problem(k, f"{path}.<<" if path else "<<",
                                 "yaml.merge_key")
                    continue
                key = printable(str(k.value), keep="")
                sub = f"{path}.{key}" if path else key
                if key in out:
                    self.problem(k, sub, "yaml.key_twice")
                    continue
                out.marks[key] = _mark(k, self.file)
                out.vmarks[key] = _mark(v, self.file)
                out[key] = self.convert(v, depth + 1, sub)
            return out
        if isinstance(node, yaml.SequenceNode):
            lst = YList(_mark(node, self.file))
            for i, item in enumerate(node.value):
                lst.marks.append(_mark(item, self.file))
                lst.append(self.convert(item, depth + 1, f"{path}[{i}]"))
            return lst
        assert isinstance(node, yaml.ScalarNode)  # compose gives only these three kinds
        return self.scalar(node, path)

    def scalar(self, node: yaml.ScalarNode, path: str) -> Any:
        tag = node.tag
        value = node.value
        self.text_budget -= len(value)
        if self.text_budget < 0:  # fatal, like the node budget: the rest is not read
            m = _mark(node, self.file)
            raise RulesetError(Problem(
                self.file, m.line, m.column, path,
                "yaml.text_budget", {"limit": f"{MAX_TEXT:,}"}))
        if tag == "tag:yaml.org,2002:int":
            digits = value.lstrip("+-").replace("_", "")
            if len(digits) > MAX_INT_DIGITS:
                self.problem(node, path, "yaml.long_number", limit=MAX_INT_DIGITS)
                return None
            try:
                return int(value.replace("_", ""), 10)
            except ValueError:
                # 0x1F, 0o17, 1:30 (YAML 1.1 forms): let PyYAML read this one short scalar
                parsed = yaml.safe_load(value)
                return parsed if isinstance(parsed, int) else value
        if tag == "tag:yaml.org,2002:bool":
            return value.lower() in ("true", "yes", "on", "y")
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:float":
            self.problem(node, path, "yaml.not_whole", value=value)
            return None
        if tag in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp",
                   "tag:yaml.org,2002:binary"):
            return printable(str(value))
        self.problem(node, path, "yaml.tag", tag=tag)
        return None


# -- the plain-data form of a document with its marks (the ruleset store's JSON entries) --
def _mark_out(m: Mark | None) -> list[Any] | None:
    return None if m is None else [m.file, m.line, m.column, m.quoted]


def _mark_in(m: Any) -> Mark | None:
    if m is None:
        return None
    file, line, column, quoted = m
    if not (isinstance(file, str) and type(line) is int and type(column) is int
            and type(quoted) is bool):
        raise ValueError("bad mark")
    return Mark(file, line, column, quoted)


def to_plain(value: Any) -> Any:
    """The JSON form of a merged document: ``{"M": mark, "k": [[key, key mark, value mark,
    value], ...]}`` for a map, ``{"L": mark, "i": [[mark, item], ...]}`` for a list,
    scalars as they are. Raise TypeError for anything else (the ruleset store caches no such document).

    >>> to_plain(_sample())["k"][0][0]
    'id'
    """
    if isinstance(value, YMap):
        return {"M": _mark_out(value.mark),
                "k": [[k, _mark_out(value.marks.get(k)), _mark_out(value.vmarks.get(k)),
                       to_plain(v)] for k, v in value.items()]}
    if isinstance(value, YList):
        origins = getattr(value, "origins", None)  # set by the merge (scorer.rules.inherit)
        return {"L": _mark_out(value.mark), "i": [to_plain(v) for v in value],
                "m": [_mark_out(m) for m in value.marks],
                "o": None if origins is None else [_whole(i) for i in origins]}
    if value is None or type(value) in (str, int, bool):
        return value
    if type(value) is float and value == value and abs(value) != float("inf"):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _whole(i: Any) -> int:
    if type(i) is not int:
        raise ValueError("bad index")
    return i


def from_plain(value: Any) -> Any:
    """The document back from :func:`to_plain`'s form; ValueError if it is not one.

    >>> from_plain(to_plain(_sample())) == _sample()
    True
    """
    if isinstance(value, dict):
        if "M" in value:
            out = YMap(_mark_in(value["M"]))
            for k, km, vm, v in value["k"]:
                if not isinstance(k, str):
                    raise ValueError("bad key")
                out[k] = from_plain(v)
                for marks, m in ((out.marks, _mark_in(km)), (out.vmarks, _mark_in(vm))):
                    if m is not None:
                        marks[k] = m
            return out
        if "L" in value:
            lst = YList(_mark_in(value["L"]))
            lst.extend(from_plain(v) for v in value["i"])
            for m in value["m"]:
                mk = _mark_in(m)
                if mk is None:
                    raise ValueError("bad list mark")
                lst.marks.append(mk)
            if value["o"] is not None:
                lst.origins = [_whole(i) for i in value["o"]]  # type: ignore[attr-defined]
            return lst
        raise ValueError("bad node")
    if value is None or type(value) in (str, int, bool, float):
        return value
    raise ValueError("bad value")


def _sample() -> YMap:
    """A small document with marks, for the examples above."""
    m = YMap(Mark("t.yaml", 1, 1))
    m["id"] = "t"
    m.marks["id"] = Mark("t.yaml", 1, 1)
    m.vmarks["id"] = Mark("t.yaml", 1, 5, True)
    lst = YList(Mark("t.yaml", 2, 3))
    lst.append(3)
    lst.marks.append(Mark("t.yaml", 2, 5))
    m["xs"] = lst
    return m
