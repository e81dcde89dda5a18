"""Views of rulesets for ``mjscore rules``: the table, the full YAML, the rules page, a starter.

* :func:`show_text` — patterns, options and flags as text tables (``mjscore rules ID``);
* :func:`yaml_text` — the full YAML (``--yaml``): the file as written, or, for a file
  that extends another, every key resolved with a note on each inherited part;
* :func:`markdown` — a readable rules page (``--markdown``; ``docs/rules/<id>.md``);
* :func:`starter` — a house-rule file that extends a ruleset, with commented examples
  (``mjscore rules new FILE --from ID``).

``--option KEY=VALUE`` works on each view through :func:`with_options`: the view shows
the ruleset with those option values as its defaults.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..model import tiles as T
from ..rules.load import list_builtin, load_ruleset
from ..rules.model import Ruleset, show
from ..rules.schema import TOP_KEYS
from ..rules.yamlsafe import YList, YMap

DESCRIBE_COMBINE = {
    "max": "exactly one pattern counts: the one that pays the winner most",
    "sum": "the values of every pattern that applies are added",
    "product": "the values of every pattern that applies are multiplied",
}
SHAPE_TEXT = {"standard": "a pair and {sets} sets", "seven_pairs": "seven pairs",
              "as_held": "any tiles, as held",
              "thirteen_orphans": "thirteen orphans"}


def list_text() -> str:
    """A table of the built-in rulesets."""
    from tabulate import tabulate

    rows = []
    for rid in list_builtin():
        rs = load_ruleset(rid)
        rows.append([rs.id, rs.name, rs.name_en, len(rs.patterns), rs.hand_size])
    return tabulate(rows, headers=["id", "name", "English", "patterns", "tiles"]) + (
        "\n\nShow one with: mjscore rules ID   (--yaml: the full YAML, --markdown: a rules page; "
        "or a path to your own YAML file)\nStart your own: mjscore rules new my.yaml --from ID")


def with_options(rs: Ruleset, pairs: tuple[tuple[str, str], ...]) -> Ruleset:
    """The ruleset with ``--option KEY=VALUE`` values as its option defaults.

    An unknown option or value raises ContextError listing the valid ones.

    >>> rs = with_options(load_ruleset("hangzhou"), (("cap", "128"),))
    >>> rs.options["cap"].default
    128
    """
    if not pairs:
        return rs
    from ..engine.context import parse_options

    values = parse_options(rs, pairs)
    given = {k for k, _ in pairs}
    options = {k: (replace(o, default=values[k]) if k in given else o)
               for k, o in rs.options.items()}
    data = rs.data
    if isinstance(data, YMap) and isinstance(data.get("options"), YMap):
        data = _copy_map(data)
        opts = _copy_map(data["options"])
        for k in given:
            spec = _copy_map(opts[k])
            spec["default"] = _yaml_value(values[k])
            opts[k] = spec
        data["options"] = opts
    return replace(rs, options=options, data=data)


def _copy_map(m: YMap) -> YMap:
    out = YMap(m.mark)
    out.update(m)
    out.marks.update(m.marks)
    out.vmarks.update(m.vmarks)
    return out


def _yaml_value(v: Any) -> Any:
    return "none" if v is None else v


# ----------------------------------------------------------------------------- text
def show_text(spec: str | Ruleset, lang: str = "zh") -> str:
    """One ruleset: patterns with values and conditions, options with defaults, flags, notes."""
    from tabulate import tabulate

    rs: Ruleset = load_ruleset(spec) if isinstance(spec, str) else spec
    out = [f"{rs.name} {rs.name_en} ({rs.id})  —  {rs.file}"]
    if rs.chain and len(rs.chain) > 1:
        out.append("extends: " + " → ".join(reversed(rs.chain)))
    conds = dict(rs.shape_when)
    shapes = ", ".join(f"{s} (when {conds[s].src})" if s in conds else s for s in rs.shapes)
    out.append(f"hand: {rs.hand_size} tiles; shapes: {shapes}")
    tallies = ", ".join(f"{t.name} ({t.label}, {t.combine})" for t in rs.tallies)
    out.append(f"tallies: {tallies}; headline: {rs.score.src}")
    out.append("")
    rows = []
    for p in rs.patterns:
        when = p.when.src + ("  (only if nothing else counts)" if p.fallback else "")
        if p.each is not None:
            when = f"each of {p.each.src}" if when == "True" else f"{when}; each of {p.each.src}"
        elif p.count is not None:
            when = f"× {p.count.src}" if when == "True" else f"{when}; × {p.count.src}"
        if p.combine is not None:  # judged on combinations of sets, counted once (套算一次)
            when = f"{p.combine[1]} {p.combine[0]} a..: {when}"
        rows.append([p.id, p.name, p.name_en, p.tally, p.value.src, when,
                     ", ".join(sorted(p.replaces))])
    out.append(tabulate(rows, headers=["id", "name", "English", "tally", "value", "when",
                                       "replaces"]))
    if rs.options:
        out.append("")
        orows = [[o.name, o.describe_values(), show(o.default), o.description]
                 for o in rs.options.values()]
        out.append(tabulate(orows, headers=["option", "values", "default", "meaning"]))
    out.append("")
    out.append("context flags: " + (", ".join(_flag_text(f) for f in rs.flags.values())
                                     or "none beyond --seat --round --from --self-draw"))
    if rs.notes:
        out.append("")
        out.append("notes:")
        out.extend(f"  - {n}" for n in rs.notes)
    return "\n".join(out)


def _flag_text(f: Any) -> str:
    rng = ""
    if f.minimum is not None or f.maximum is not None:
        lo = "" if f.minimum is None else f.minimum
        hi = "" if f.maximum is None else f.maximum
        rng = f" {lo}..{hi}"
    dflt = f" (default {f.default})" if f.default is not None else ""
    return f"--{f.name.replace('_', '-')}{rng}{dflt}"


# ----------------------------------------------------------------------------- YAML
def yaml_text(rs: Ruleset, resolved: bool = False) -> str:
    """The full YAML of a ruleset.

    A file that extends nothing is printed as written, comments included (unless
    ``resolved``). A file that extends another is printed resolved: every key the
    ruleset has, with ``# ← FILE:LINE`` after each part written in another file of
    the chain, so the output is one self-contained ruleset file that loads to the
    same ruleset.
    """
    if not resolved and len(rs.sources) <= 1 and rs.data is not None:
        try:
            return Path(rs.sources[0]).read_text(encoding="utf-8").rstrip("\n") + "\n"
        except (OSError, IndexError):
            pass
    data = rs.data
    assert isinstance(data, YMap)
    top = rs.file
    head = [f"# {rs.name} {rs.name_en} ({rs.id}) — the full ruleset, resolved by "
            "'mjscore rules --yaml'."]
    if len(rs.chain) > 1:
        head.append(f"# {rs.chain[0]} extends {' → '.join(rs.chain[1:])}. Lines marked "
                    "'# ← FILE:LINE' are inherited from that place;")
        head.append(f"# everything else is written in {top}.")
    else:
        head.append(f"# Written in {top}.")
    head.append("# This output is itself a complete ruleset file (no extends:).")
    lines: list[str] = head
    for key, value in data.items():
        mk = data.marks.get(key)
        lines.append("")
        desc = TOP_KEYS.get(key, "")
        where = f" ← {mk.file}:{mk.line}" if mk and mk.file != top else ""
        lines.append(f"# {key}: {desc}{where}")
        sub = YMap(data.mark)
        sub[key] = value
        if mk:
            sub.marks[key] = mk
        _emit_map(sub, 0, mk.file if mk else top, lines)
    return "\n".join(lines) + "\n"


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _leaf(v: Any) -> str:
    """One scalar, or a small flow collection, as YAML text."""
    import yaml

    if v is None:
        return ""
    text: str = yaml.safe_dump(_plain(v), default_flow_style=True, allow_unicode=True,
                               width=10**6, sort_keys=False)
    text = text.rstrip("\n")
    if text.endswith("\n..."):
        text = text[:-4]
    return text.rstrip("\n")


def _same_file(v: Any, file: str) -> bool:
    if isinstance(v, YMap):
        return all(m.file == file for m in v.marks.values()) and all(
            _same_file(x, file) for x in v.values())
    if isinstance(v, YList):
        return all(m.file == file for m in v.marks) and all(_same_file(x, file) for x in v)
    return True


def _is_small(v: Any) -> bool:
    if isinstance(v, dict):
        return all(not isinstance(x, dict | list) and not (isinstance(x, str) and "\n" in x)
                   for x in v.values()) and len(_leaf(v)) <= 70
    if isinstance(v, list):
        return all(not isinstance(x, dict | list) and not (isinstance(x, str) and "\n" in x)
                   for x in v) and len(_leaf(v)) <= 70
    return True


def _emit_value(head: str, v: Any, ind: int, file: str, note: str, lines: list[str]) -> None:
    pad = " " * ind
    if isinstance(v, str) and "\n" in v:
        # a block scalar: '|' keeps the one final newline, '|-' means there is none
        body, style = (v[:-1], "|") if v.endswith("\n") and not v.endswith("\n\n") else (
            v, "|-")
        lines.append(f"{pad}{head} {style}{note}")
        lines.extend((" " * (ind + 2) + t) if t else "" for t in body.split("\n"))
    elif isinstance(v, dict | list) and v and not (_is_small(v) and _same_file(v, file)):
        lines.append(f"{pad}{head}{note}")
        if isinstance(v, dict):
            _emit_map(v, ind + 2, file, lines)
        else:
            _emit_list(v, ind + 2, file, lines)
    else:
        text = _leaf(v)
        lines.append(f"{pad}{head}{' ' + text if text else ''}{note}")


def _emit_map(m: dict[str, Any], ind: int, file: str, lines: list[str]) -> None:
    for k, v in m.items():
        mk = m.marks.get(k) if isinstance(m, YMap) else None
        here = mk.file if mk else file
        note = f"  # ← {mk.file}:{mk.line}" if mk and here != file else ""
        _emit_value(f"{_leaf(k)}:", v, ind, here, note, lines)


def _emit_list(lst: list[Any], ind: int, file: str, lines: list[str]) -> None:
    pad = " " * ind
    for i, item in enumerate(lst):
        mk = lst.marks[i] if isinstance(lst, YList) and i < len(lst.marks) else None
        here = mk.file if mk else file
        note = f"  # ← {mk.file}:{mk.line}" if mk and here != file else ""
        if isinstance(item, dict) and item and not (_is_small(item) and _same_file(item, here)):
            sub: list[str] = []
            _emit_map(item, ind + 2, here, sub)
            if note:
                lines.append(f"{pad}#{note[3:]}")
            lines.append(f"{pad}- {sub[0][ind + 2:]}")
            lines.extend(sub[1:])
        else:
            _emit_value("-", item, ind, here, note, lines)


# ----------------------------------------------------------------------------- Markdown
def _md(text: Any) -> str:
    """A table cell: pipes escaped, newlines as spaces."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _code(text: Any) -> str:
    t = _md(text)
    return f"`{t}`" if t else ""


def markdown(rs: Ruleset) -> str:
    """A rules page: patterns (both names, value, formula, condition), scoring, payment,
    options with defaults, context flags, wildcard, checks, notes and house changes."""
    out = [f"# {rs.name} {rs.name_en} (`{rs.id}`)", ""]
    out.append(f"> Generated by `mjscore rules {rs.id} --markdown` from `{rs.file}`; "
               "do not edit by hand.")
    out.append("")
    if len(rs.chain) > 1:
        out.append(f"Extends: {' → '.join(f'`{c}`' for c in rs.chain[1:])} "
                   "(everything not changed here is inherited).")
        out.append("")
    if rs.source:
        out.append(f"Source: {rs.source}")
        out.append("")

    out.append("## The hand")
    out.append("")
    conds = dict(rs.shape_when)
    shapes = ", ".join(SHAPE_TEXT.get(s, s.replace("_", " ")).format(sets=rs.sets)
                       + (f" (only when `{_md(conds[s].src)}`)" if s in conds else "")
                       for s in rs.shapes)
    out.append(f"- A winning hand has {rs.hand_size} tiles (each kong adds one): {shapes}.")
    out.append(f"- Players: {rs.players.src}." if rs.players.const else
               f"- Players: given by `{rs.players.src}`.")
    if rs.suits.src != "['m', 'p', 's']":
        out.append(f"- Suits in play: `{rs.suits.src}`.")
    if rs.wildcard is not None:
        w = rs.wildcard
        extra = (f"; `{T.name(w.stand_in)}` stands in for the wildcard's face as an ordinary "
                 "tile" if w.stand_in is not None else "")
        out.append(f"- Wildcard: the tile `{w.face.src}`, `{w.in_play.src}` copies in play"
                   f"{extra}.")
    if rs.self_draw_default.src not in ("False", "0"):
        out.append(f"- A win is taken as self-drawn when neither `--self-draw` nor `--from` "
                   f"is given and `{rs.self_draw_default.src}`.")
    out.append("")

    out.append("## Scoring")
    out.append("")
    for t in rs.tallies:
        out.append(f"- **{t.label}** ({t.label_en}, `{t.name}`): {DESCRIBE_COMBINE[t.combine]}"
                   + (f"; {t.default} when none applies." if t.combine != "max" else "."))
    out.append(f"- Headline score: `{rs.score.src}`.")
    out.append("")
    out.append("| id | 名称 | name | tally | value | when | replaces | notes |")
    out.append("|---|---|---|---|---|---|---|---|")
    for p in rs.patterns:
        also = "; ".join(f"also {t}: {c.src}" for t, c in p.also)
        cnt = f" × count `{_md(p.count.src)}`" if p.count is not None else ""
        if p.each is not None:
            cnt += f" for each of `{_md(p.each.src)}`"
        out.append(f"| `{p.id}` | {_md(p.name)} | {_md(p.name_en)} | {p.tally} | "
                   f"{_code(p.value.src)}{cnt} | {_code(p.when.src)}"
                   f"{' (only if nothing else counts)' if p.fallback else ''} | "
                   f"{', '.join(sorted(p.replaces))} | {_md('; '.join(x for x in (p.notes, also) if x))} |")
    out.append("")
    if rs.labels:
        out.append("Names in formulas: " + ", ".join(
            f"`{k}` = {zh}" + (f" ({en})" if en != zh else "")
            for k, (zh, en) in rs.labels.items() if zh) + ".")
        out.append("")

    if rs.not_a_win:
        out.append("## Not a legal win (exit status 3)")
        out.append("")
        out.append("| id | checked on | when | message |")
        out.append("|---|---|---|---|")
        for c in rs.not_a_win:
            out.append(f"| `{c.id}` | {c.on} | {_code(c.when.src)} | {_md(c.template)} |")
        out.append("")
    if rs.errors:
        out.append("## Input errors (exit status 2)")
        out.append("")
        out.append("| id | when | message |")
        out.append("|---|---|---|")
        for c in rs.errors:
            out.append(f"| `{c.id}` | {_code(c.when.src)} | {_md(c.template)} |")
        out.append("")

    out.append("## Payment")
    out.append("")
    pay = rs.payment
    for let in pay.lets:
        out.append(f"- {let.label} ({let.label_en}, `{let.name}`) = `{_md(let.value.src)}`")
    out.append(f"- Who pays: `{_md(pay.pays.src)}`")
    out.append(f"- Each payer pays: `{_md(pay.amount.src)}`")
    if pay.chengbao is not None:
        out.append(f"- 承包 (`--chengbao A:B`) allowed when `{_md(pay.chengbao.allowed.src)}`: "
                   "A wins → B pays every share; B wins → A pays every share × "
                   f"`{_md(pay.chengbao.reverse_factor.src)}`.")
    out.append("")

    if rs.options:
        out.append("## Options (`--option KEY=VALUE`)")
        out.append("")
        out.append("| option | values | default | meaning |")
        out.append("|---|---|---|---|")
        for o in rs.options.values():
            out.append(f"| `{o.name}` | {_md(o.describe_values())} | `{show(o.default)}` | "
                       f"{_md(o.description)} |")
        out.append("")
    out.append("## Context flags")
    out.append("")
    out.append("Always accepted: `--seat`, `--round`, `--from`, `--self-draw`.")
    if rs.flags:
        out.append("")
        out.append("| flag | default | range |")
        out.append("|---|---|---|")
        for f in rs.flags.values():
            rng = ""
            if f.minimum is not None or f.maximum is not None:
                rng = f"{'' if f.minimum is None else f.minimum}..{'' if f.maximum is None else f.maximum}"
            out.append(f"| `--{f.name.replace('_', '-')}` | "
                       f"{'' if f.default is None else f.default} | {rng} |")
    out.append("")
    if rs.notes:
        out.append("## Notes and rulings")
        out.append("")
        out.extend(f"- {n}" for n in rs.notes)
        out.append("")
    if rs.house_examples:
        out.append("## Common house changes")
        out.append("")
        out.append(f"`mjscore rules new my.yaml --from {rs.id}` writes a file that extends this "
                   "ruleset with these examples (commented out):")
        out.append("")
        for ex in rs.house_examples:
            out.append(f"- {ex.title}:")
            out.append("")
            out.append("  ```yaml")
            out.extend(("  " + t) if t else "" for t in ex.yaml.rstrip("\n").split("\n"))
            out.append("  ```")
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# ----------------------------------------------------------------------------- starter
def starter(rs: Ruleset, target: str, parent_spec: str,
            pairs: tuple[tuple[str, str], ...] = ()) -> str:
    """The text of a new house-rule file that extends ``parent_spec``.

    It sets an id (from the file name) and names, applies any ``--option`` values as
    new defaults, and lists — commented out — the ruleset's common house changes
    (its ``house_examples``), every option with its values, and every pattern with its
    value, so a change is one uncommented line.
    """
    stem = Path(target).stem
    rid = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")[:40] or "house"
    lines = [
        f"# {Path(target).name} — house rules on top of {rs.name} {rs.name_en} ({rs.id}).",
        "#",
        f"# 'extends: {parent_spec}' starts from that ruleset; this file changes only what it",
        "# says. Uncomment an example below or write your own change:",
        "#   * a different default for an option:  options: {cap: {default: 128}}",
        "#   * a different value or name for a pattern (by its id):",
        "#       patterns: [{id: PATTERN_ID, value: 4}]",
        "#   * a new pattern: an entry with a new id, name, when (a condition) and value",
        "#   * drop inherited patterns: remove: [PATTERN_ID, ...]",
        "# Each key (options:, patterns:, context:, remove: ...) may appear only once: put",
        "# several changes under the same key.",
        "#",
        f"# Check it:    mjscore rules check {target}",
        f"# Score with:  mjscore score HAND --rules {target}",
        f"# Compare:     mjscore score HAND --rules {target} --vs {rs.id}",
        f"# Read it:     mjscore rules {target} --markdown",
        f"# What you start from (every key, commented): mjscore rules {parent_spec} --yaml",
        "",
        f"extends: {parent_spec}",
        f"id: {rid}",
        f"name: {_leaf(rs.name + '（' + rid + '）')}",
        f"name_en: {_leaf(rs.name_en + ' (' + rid + ')')}",
    ]
    if pairs:
        from ..engine.context import parse_options

        values = parse_options(rs, pairs)
        lines.append("options:")
        for k in dict(pairs):
            lines.append(f"  {k}: {_leaf({'default': _yaml_value(values[k])})}")
    if rs.house_examples:
        lines += ["", "# ---- common house changes: uncomment one (remove the leading '# ')"]
        for ex in rs.house_examples:
            lines.append("")
            lines.append(f"# {ex.title}")
            lines.extend(f"# {t}".rstrip() for t in ex.yaml.rstrip("\n").split("\n"))
    if rs.options:
        lines += ["", "# ---- every option, with its values and the default inherited now",
                  "# options:"]
        for o in rs.options.values():
            lines.append(f"#   {o.name}: {_leaf({'default': _yaml_value(o.default)})}"
                         f"    # {o.describe_values()}" + (f" — {o.description}"
                                                           if o.description else ""))
    lines += ["", "# ---- every pattern: change a value or a name by its id, or remove it",
              "# patterns:"]
    for p in rs.patterns:
        lines.append(f"#   - {_leaf({'id': p.id, 'value': _expr_value(p.value.src)})}"
                     f"    # {p.name} {p.name_en}; when: {p.when.src}")
    lines += ["#", "# A new pattern (a condition over the facts listed in the docs):",
              "# patterns:",
              "#   - id: my_pattern",
              "#     name: 我的番",
              "#     name_en: My pattern",
              "#     when: self_draw and seven_pairs",
              "#     value: 4"]
    return "\n".join(lines) + "\n"


def _expr_value(src: str) -> Any:
    """An expression as a YAML value: a whole number stays a number."""
    return int(src) if re.fullmatch(r"-?\d+", src) else src


# ----------------------------------------------------------------------------- facts
LEVEL_TEXT = {
    "context": ("The win's context (flags and options)",
                "From the command-line flags; every expression can use them, and a ruleset's "
                "options by their names. A fact fed by a flag (e.g. `last_tile` by "
                "`--last-tile`) needs that flag listed under the ruleset's `context:`."),
    "hand": ("The hand", "The physical hand, whatever reading is chosen."),
    "reading": ("One reading of the hand",
                "One decomposition with one assignment of every wildcard: patterns and "
                "reading-level not_a_win checks see these."),
    "payment": ("Payment (per payer)", "Only in payment: pays, amount and let values; the "
                "tally names (e.g. fan) are there too."),
    "chengbao": ("承包 relations", "Only in payment.chengbao.allowed and reverse_factor."),
}


def facts_markdown() -> str:
    """The vocabulary of ruleset expressions (``mjscore rules --facts``; ``docs/facts.md``)."""
    from ..lang import FUNCTIONS
    from ..rules import facts as F

    out = ["# What a ruleset's conditions and values can use", "",
           "> Generated by `mjscore rules --facts`; do not edit by hand.", "",
           "Conditions (`when:`) and values (`value:`) are expressions: Python-like, with "
           "`and or not`, `== != < <= > >=`, `in`, `+ - * // % **`, `a if c else b`, "
           "`count(g for g in sets if g.pung)`, tile constants as text (`'5p'`, `'E'`). "
           "Numbers are whole numbers.", ""]
    for level, (title, text) in LEVEL_TEXT.items():
        facts = [f for f in F.FACTS.values() if f.level == level]
        if not facts:
            continue
        out += [f"## {title}", "", text, "", "| name | type | meaning |", "|---|---|---|"]
        out += [f"| `{f.name}` | {_md(f.type)} | {_md(f.doc)} |" for f in facts]
        out.append("")
    for typ, attrs in (("tile", F.TILE_ATTRS), ("group", F.GROUP_ATTRS)):
        out += [f"## Attributes of a {typ} (`x.attr`)", "", "| attribute | type | meaning |",
                "|---|---|---|"]
        out += [f"| `.{name}` | {_md(a.type)} | {_md(a.doc)} |" for name, a in attrs.items()]
        out.append("")
    out += ["## Functions", "", "| function | meaning |", "|---|---|"]
    out += [f"| `{name}` | {_md(f.help)} |" for name, f in FUNCTIONS.items()]
    return "\n".join(out) + "\n"
