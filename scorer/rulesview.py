"""Text views of rulesets for ``mjscore rules``."""

from __future__ import annotations

from .ruleset import Ruleset, _show, list_builtin, load_ruleset


def list_text() -> str:
    """A table of the built-in rulesets."""
    from tabulate import tabulate

    rows = []
    for rid in list_builtin():
        rs = load_ruleset(rid)
        rows.append([rs.id, rs.name, rs.name_en, len(rs.patterns), rs.hand_size])
    return tabulate(rows, headers=["id", "name", "English", "patterns", "tiles"]) + (
        "\n\nShow one with: mjscore rules ID   (or a path to your own YAML file)")


def show_text(spec: str, lang: str = "zh") -> str:
    """One ruleset: patterns with values and conditions, options with defaults, flags, notes."""
    from tabulate import tabulate

    rs: Ruleset = load_ruleset(spec)
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
        orows = [[o.name, o.describe_values(), _show(o.default), o.description]
                 for o in rs.options.values()]
        out.append(tabulate(orows, headers=["option", "values", "default", "meaning"]))
    flags = []
    for f in rs.flags.values():
        rng = ""
        if f.minimum is not None or f.maximum is not None:
            lo = "" if f.minimum is None else f.minimum
            hi = "" if f.maximum is None else f.maximum
            rng = f" {lo}..{hi}"
        dflt = f" (default {f.default})" if f.default is not None else ""
        flags.append(f"--{f.name.replace('_', '-')}{rng}{dflt}")
    out.append("")
    out.append("context flags: " + (", ".join(flags) or "none beyond --seat --round --from "
                                     "--self-draw"))
    if rs.notes:
        out.append("")
        out.append("notes:")
        out.extend(f"  - {n}" for n in rs.notes)
    return "\n".join(out)
