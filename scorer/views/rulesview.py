"""Views of rulesets for ``mjscore rules``: the list, the table, a starter.

* :func:`list_text` — the built-in rulesets (``mjscore rules list``);
* :func:`show_text` — patterns, options and flags as text tables (``mjscore rules ID``);
* :func:`starter` — a house-rule file that extends a ruleset, with commented examples
  (``mjscore rules new FILE --from ID``).

The full YAML (``--yaml``) is :mod:`scorer.views.rulesyaml`'s, the Markdown pages
(``--markdown``, ``--facts``) :mod:`scorer.views.rulespage`'s. ``--option KEY=VALUE``
works on each view through :func:`with_options`: the view shows the ruleset with those
option values as its defaults.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..model import tiles as T
from ..rules.load import document, list_builtin, load_ruleset
from ..rules.model import Ruleset
from ..rules.yamlsafe import YMap
from ..text import show
from .rulesyaml import leaf

DESCRIBE_COMBINE = {
    "max": "exactly one pattern counts: the one that pays the winner most",
    "sum": "the values of every pattern that applies are added",
    "product": "the values of every pattern that applies are multiplied",
}


def list_text(lang: str = "zh", width: int | None = None) -> str:
    """A table of the built-in rulesets, headed in ``lang``, within ``width`` columns
    (default: the terminal's)."""
    from ..text.width import columns, wrap_text
    from .i18n import t
    from .texttable import fitted

    rows = []
    for rid in list_builtin():
        rs = load_ruleset(rid)
        # the English name is a column of the English table only
        rows.append([rs.id, rs.name, *([rs.name_en] if lang == "en" else []),
                     len(rs.patterns), rs.hand_size])
    heads = [t(k, lang) for k in ("col_id", "col_name", *(("col_english",) if lang == "en"
                                                          else ()), "col_patterns_n",
                                  "col_tiles")]
    width = columns() if width is None else width
    return fitted(rows, heads, width, last=(0,)) + "\n\n" + wrap_text(t("list_hint", lang), width)


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
    data = document(rs)
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
WHEN_LINES = 3


def in_words(src: str, names: dict[str, str]) -> str:
    """An expression with its names as the table says them and its operators as written
    by hand: ``base * zx * score`` → ``底分 × 庄闲分 × 番``.

    >>> in_words("base * (min(zx * score, cap) if cap else zx * score)",
    ...          {"base": "底分", "zx": "庄闲分", "score": "番", "cap": "封顶"})
    '底分 × (min(庄闲分 × 番, 封顶) if 封顶 else 庄闲分 × 番)'
    """
    text = re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b",
                  lambda m: names.get(m.group(0)) or m.group(0), src)
    return text.replace("**", "^").replace(" * ", " × ").replace("//", "÷")


def _default_env(rs: Ruleset) -> dict[str, Any]:
    """The option defaults and unset flags: what an expression of the table sees by default."""
    env: dict[str, Any] = {k: o.default for k, o in rs.options.items()}
    env.setdefault("wild", None)
    return env


def _try(c: Any, env: dict[str, Any]) -> Any:
    try:
        return c(env)
    except Exception:  # an expression that needs the hand or a flag: no default value
        return None


def wildcard_words(rs: Ruleset, lang: str = "zh") -> str:
    """The wildcard in words, the expression beside, e.g. ``白板 P by default (--wild with
    wild_mode=flip); 4 in play — `tile('P') if wild_mode == 'fixed' else wild` ``; '' when
    the ruleset has none."""
    from .pieces import labels

    w = rs.wildcard
    if w is None:
        return ""
    env = _default_env(rs)
    face = _try(w.face, env)
    zh = lang == "zh"
    if isinstance(face, int):
        what = (f"默认 {T.name(face)}" if zh else f"{T.name(face)} by default")
        if "wild" in w.face.names:
            what += "（或 --wild 指定的牌）" if zh else " (or the tile --wild names)"
    else:
        what = "--wild 指定的牌（翻出的那张）" if zh else "the tile --wild names (the one flipped)"
    n = _try(w.in_play, {**env, "wild": face if isinstance(face, int) else 0})
    if isinstance(n, int):
        what += f"，{n} 张在场" if zh else f"; {n} in play"
    if w.stand_in is not None:
        st = T.name(w.stand_in)
        from .pieces import wildcard_word

        what += (f"；{st} 当{wildcard_word(rs, lang)}本来的牌用" if zh else
                 f"; {st} stands in for the {wildcard_word(rs, lang)}'s own face")
    return f"{what} — `{in_words(w.face.src, labels(rs, lang))}`"


def suits_words(rs: Ruleset, lang: str = "zh") -> str:
    """The suits in play in words, the expression beside when it depends on an option."""
    names = {"m": ("万", "characters"), "p": ("筒", "dots"), "s": ("条", "bamboo")}
    suits = _try(rs.suits, _default_env(rs))
    k = 0 if lang == "zh" else 1
    words = " ".join(f"{x} {names[x][k]}" for x in suits) if isinstance(suits, list | tuple) \
        else ""
    return words + ("" if rs.suits.const or not rs.options else f" — `{rs.suits.src}`")


def payment_words(rs: Ruleset, lang: str = "zh") -> str:
    """Who pays and how much, in the table's words with the expression beside."""
    from .pieces import labels

    names = labels(rs, lang)
    names.setdefault("score", rs.label("score", lang))
    pay = rs.payment
    zh = lang == "zh"
    amount = in_words(pay.amount.src, names)
    who = in_words(pay.pays.src, names)
    text = (f"每家付 {amount}（谁付：{who}）" if zh else f"each payer pays {amount} (who pays: {who})")
    for let in pay.lets:
        text += f"; {let.label if zh else let.label_en} = {in_words(let.value.src, names)}"
    return text


def _wrap(text: str, width: int, lines: int = 0) -> str:
    """``text`` folded at ``width`` columns, at most ``lines`` lines (0: all):
    :func:`.texttable.fold_cell`, the one folding of a cell."""
    from .texttable import fold_cell

    return fold_cell(text, width, lines)


def tier_summary(p: Any, lang: str = "zh") -> str:
    """A pattern's tier names as one text, alternatives of a ``{fact:a|b}`` joined by '/':
    ``双财飘, 三财飘`` or ``豪华/双豪华/三豪华七对子``."""
    out = []
    for tier in getattr(p, "tiers", ()):
        name = tier.name if lang == "zh" else tier.name_en

        def alts(m: re.Match[str]) -> str:
            if m.group(2) is None:
                return "n"  # {piao}: the number itself
            parts = [a for a in m.group(2).split("|") if a.strip()]
            joined = "/".join(a.strip() for a in parts)
            # "luxury |double luxury " + "seven pairs": keep the space the names had
            return joined + (" " if parts and parts[-1].endswith(" ") else "") if not \
                (parts and parts[0].startswith(" ")) else " " + joined

        out.append(re.sub(r"\{([a-z_][a-z0-9_]*)(?::([^{}]*))?\}", alts, name))
    return ", ".join(out)


def show_text(spec: str | Ruleset, lang: str = "zh", width: int | None = None) -> str:
    """One ruleset within ``width`` columns (default: the terminal's,
    :func:`scorer.text.width.columns`; tables fold their long cells): the hand, wildcard, suits and payment in
    words (expression beside), patterns with values and conditions (long conditions
    shortened: the full text is in ``--markdown`` and ``--yaml``), options, flags, notes."""
    from ..text.width import columns
    from .i18n import t
    from .texttable import fitted

    width = columns() if width is None else width
    rs: Ruleset = load_ruleset(spec) if isinstance(spec, str) else spec
    zh = lang == "zh"
    from .pieces import ruleset_name

    out = [f"{ruleset_name(rs, lang)} ({rs.id})  —  {rs.file}"]
    if rs.chain and len(rs.chain) > 1:
        out.append(t("rules_extends", lang, chain=" → ".join(reversed(rs.chain))))
    conds = dict(rs.shape_when)
    from .pieces import shape_word

    shapes = ", ".join(t("rules_when", lang, shape=shape_word(x, lang), cond=conds[x].src)
                       if x in conds else shape_word(x, lang) for x in rs.shapes)
    out.append(t("rules_hand", lang, n=rs.hand_size, shapes=shapes))
    suits = suits_words(rs, lang)
    if suits:
        out.append(t("rules_suits", lang, suits=suits))
    wild = wildcard_words(rs, lang)
    if wild:
        from .pieces import wildcard_word

        word = wildcard_word(rs, lang)
        out.append(t("rules_wildcard", lang, text=wild).replace(
            "财神" if zh else "wildcard", word, 1))
    tallies = ", ".join(f"{tl.name} ({tl.label if zh else tl.label_en}, "
                        f"{t('combine_' + tl.combine, lang)})" for tl in rs.tallies)
    out.append(t("rules_tallies", lang, tallies=tallies, score=rs.score.src))
    out.append(t("rules_payment", lang, text=payment_words(rs, lang)))
    out = [_wrap(line, width) for line in out]
    out.append("")
    one_tally = len(rs.tallies) == 1

    cells = []
    for p in rs.patterns:
        when = p.when.src
        if p.each is not None:
            each = t("rules_each_of", lang, x=p.each.src)
            when = each if when == "True" else f"{when}; {each}"
        elif p.count is not None:
            when = f"× {p.count.src}" if when == "True" else f"{when}; × {p.count.src}"
        if p.count_once is not None:  # judged on combinations of sets, counted once (套算一次)
            when = f"{p.count_once[1]} {p.count_once[0]} a..: {when}"
        if p.fallback:
            when += t("rules_only_if_nothing", lang)
        name = p.name if zh else p.name_en
        tiers = tier_summary(p, lang)
        if tiers:
            name += f" ({tiers})"
        cells.append((p.id, name, p.tally, p.value.src, when, ", ".join(sorted(p.replaces))))

    heads = [t(k, lang) for k in ("col_id", "col_name", "col_tally", "col_value", "col_when",
                                  "col_replaces")]

    # the table shares the width: fitted folds the widest text columns first (the id
    # last), a condition, value or list of replaced patterns to at most WHEN_LINES lines
    keep = [k for k in range(6) if not (one_tally and k == 2)]
    rows = [[c[k] for k in keep] for c in cells]
    text = fitted(rows, [heads[k] for k in keep], width, last=(0,), lines=WHEN_LINES,
                  disable_numparse=True)
    out.append(text)
    out.append(_wrap(t("rules_full", lang), width))
    if rs.options:
        out.append("")
        heads = [t(k, lang) for k in ("col_option", "col_values", "col_default",
                                       "col_meaning")]
        orows = [[o.name, o.describe_values(), show(o.default), o.described(lang)]
                  for o in rs.options.values()]
        table = fitted(orows, heads, width, last=(0,), disable_numparse=True)
        out.append(table)
    out.append("")
    flags = ", ".join(_flag_text(f, lang) for f in rs.flags.values()) or t("rules_flags_none",
                                                                            lang)
    out.append(_wrap(t("rules_flags", lang, flags=flags), width))
    if rs.notes:
        out.append("")
        out.append(t("rules_notes", lang))
        out.extend(_indent(_wrap(f"- {n}", width - 4)) for n in rs.notes_in(lang))
    return "\n".join(out)


def _indent(text: str) -> str:
    return "\n".join(("  " if k == 0 else "    ") + line
                     for k, line in enumerate(text.split("\n")))


def _flag_text(f: Any, lang: str = "en") -> str:
    from .i18n import t

    rng = ""
    if f.minimum is not None or f.maximum is not None:
        lo = "" if f.minimum is None else f.minimum
        hi = "" if f.maximum is None else f.maximum
        rng = f" {lo}..{hi}"
    dflt = t("rules_default", lang, v=f.default) if f.default is not None else ""
    return f"--{f.name.replace('_', '-')}{rng}{dflt}"


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
        f"name: {leaf(rs.name + '（' + rid + '）')}",
        f"name_en: {leaf(rs.name_en + ' (' + rid + ')')}",
    ]
    if pairs:
        from ..engine.context import parse_options

        values = parse_options(rs, pairs)
        lines.append("options:")
        for k in dict(pairs):
            lines.append(f"  {k}: {leaf({'default': _yaml_value(values[k])})}")
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
            lines.append(f"#   {o.name}: {leaf({'default': _yaml_value(o.default)})}"
                         f"    # {o.describe_values()}" + (f" — {o.described('en')}"
                                                           if o.description else ""))
    lines += ["", "# ---- every pattern: change a value or a name by its id, or remove it",
              "# patterns:"]
    for p in rs.patterns:
        lines.append(f"#   - {leaf({'id': p.id, 'value': _expr_value(p.value.src)})}"
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
