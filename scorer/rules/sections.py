"""The layout of a ruleset file: its keys and sections, declared once.

Each :class:`Section` says what one part of a file may hold (the keys of a mapping, or a
list or mapping of entries); :class:`scorer.rules.reader.Reader` checks a part against it
and the compiler (:mod:`scorer.rules.schema`) reads what fits. The load budget's bounds
live here too, beside the sections they bound.
"""

from __future__ import annotations

from typing import Any

from ..record import record
from ..search.shapes import SHAPES

TOP_KEYS = {
    "id": "the ruleset's id (letters, digits, - and _)",
    "name": "Chinese name",
    "name_en": "English name",
    "extends": "a built-in ruleset id or a path to start from",
    "source": "where the rules come from",
    "notes": "rulings and remarks (a list of texts)",
    "hand_size": "tiles in a winning hand before kong extras (14, or 17 for Xiamen)",
    "shapes": f"winning shapes: {', '.join(SHAPES)}; an entry may be "
    "{shape: NAME, when: CONDITION} to try the shape only on hands where the condition holds",
    "players": "number of players (an expression over options)",
    "suits": "suits in play, e.g. ['m', 'p'] for a table without bamboo (an expression)",
    "robbing_kong": "how a robbed kong counts: discard (default) or self_draw",
    "false_win": "points a false win (诈胡/错和) pays each other player, where the rules fix "
    "them (MCR: 10); a ledger's penalty line may give its own",
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
    "tooling": "how mjscore handles the ruleset, not rules of the game: self_draw_default, "
    "ties, house_examples",
}
# The keys of ``tooling:``. Each was a top-level key before; that spelling still loads, with
# a note on stderr naming the new place (see Compiler.tool).
TOOLING_KEYS = {
    "self_draw_default": "condition: treat a win as self-drawn when neither --self-draw nor "
    "--from is given",
    "ties": "how readings that score alike are ranked: order (found | sets) and prefer "
    "(pattern ids)",
    "house_examples": "common house changes offered by 'mjscore rules new --from ID': "
    "a list of {title, yaml}",
}
TOP_KEYS.update({k: f"old spelling of tooling.{k} (still read)" for k in TOOLING_KEYS})
# The pattern key of a combination pattern (套算一次), and its old spelling (still read):
# under tallies:, combine: says how the values of a tally combine.
COUNT_ONCE, OLD_COUNT_ONCE = "count_once", "combine"
PATTERN_KEYS = {"id", "name", "name_en", "tally", "when", "value", "count", "each", "replaces",
                "also", "notes", "fallback", COUNT_ONCE, OLD_COUNT_ONCE, "tiers"}
CHECK_KEYS = {"id", "when", "message", "on", "reason"}
COMBINES = ("max", "sum", "product")
# The load budget (docs/robustness.md): the largest built-in ruleset has 94 patterns and
# 6,000 characters of expressions; these bounds keep 'rules check' of any file under a second.
MAX_ENTRIES = 1000  # entries of one list or mapping (patterns, errors, options, ...)
# characters of expressions compiled, aliases and extends included: more than one file can
# hold (a file of big conditions loads), less than a chain of them or an alias's repeats
MAX_EXPR_TEXT = 600 * 1024
MAX_FALSE_WIN = 1_000_000  # points a false win pays each other player (a ledger's bound too)
HOUSE_NODES = 10_000  # values of all house_examples snippets together (the built-ins': 200)


@record(frozen=True)
class Section:
    """The layout of one part of a ruleset file, declared once and checked by the compiler.

    A mapping with the keys ``keys`` (``many=None``, see :meth:`Compiler.mapping`), or a
    list (``many="list"``) or mapping (``many="map"``) of such entries (see
    :meth:`Compiler.entries`). What does not fit is reported with these messages, at
    the place it is written; the entries that fit are handed to the compiler.
    """

    keys: frozenset[str] | None  # the keys a mapping (an entry) may have; None: any
    wrong: str  # the part is not a mapping / list (a code of the catalogue, as are the others)
    many: str | None = None  # None, "list" or "map"
    wrong_entry: str = ""  # an entry is not a mapping
    required: bool = False  # a missing part is reported too (with `wrong`)
    nonempty: bool = False  # an empty part is reported (with `wrong`)
    scalars: bool = False  # an entry may be a plain value (its keys are not checked)
    at_file: bool = False  # a part without a position of its own is reported at the file's
    name: str = ""  # a regular expression the names of a map's entries must match
    wrong_name: str = ""


def _section(keys: set[str] | None, wrong: str, **kw: Any) -> Section:
    return Section(frozenset(keys) if keys is not None else None, wrong, **kw)


HOUSE_EXAMPLES = _section({"title", "yaml"}, "section.house_examples", many="list",
                          wrong_entry="section.house_example")
OPTIONS = _section({"values", "default", "description", "description_en", "min", "max"},
                   "section.options", many="map",
                   wrong_entry="section.option",
                   name=r"[a-z][a-z0-9_]{0,40}",
                   wrong_name="section.option_name")
CONTEXT_FLAG = _section({"default", "min", "max"}, "section.context_flag")
TALLIES = _section({"combine", "label", "label_en", "default", "hidden"},
                   "section.tallies", many="map", nonempty=True,
                   wrong_entry="section.tally")
WILDCARD = _section({"face", "in_play", "stand_in", "stand_in_scope", "stand_in_self_shapes",
                     "in_melds"}, "section.mapping")
LABELS = _section(None, "section.labels", many="map", scalars=True)
CHECKS = _section(CHECK_KEYS, "section.checks", many="list",
                  wrong_entry="section.check")
PATTERNS = _section(PATTERN_KEYS, "section.patterns", many="list", required=True,
                    at_file=True, wrong_entry="section.pattern")
SHAPE = _section({"shape", "when"}, "section.mapping")
TIERS = _section({"when", "name", "name_en"}, "section.tiers",
                 many="list", wrong_entry="section.tier")
ALSO = _section(None, "section.also", many="map", scalars=True)
TIES = _section({"order", "prefer"}, "section.ties")
COUNT_ONCE_SECTION = _section({"of", "sets"}, "section.count_once")
TOOLING = _section(set(TOOLING_KEYS), "section.tooling")
PAYMENT = _section({"pays", "amount", "let", "chengbao"},
                   "section.payment", required=True,
                   at_file=True)
LETS = _section({"label", "label_en", "value"}, "section.lets",
                many="map", scalars=True)
CHENGBAO = _section({"allowed", "message", "reverse_factor"},
                    "section.chengbao")
