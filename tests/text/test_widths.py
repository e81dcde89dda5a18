"""Every error and refusal fits 80 columns, in zh and in en: each code of the catalogue,
worded with parameters of ordinary length (:data:`SAMPLES`) behind ``mjscore: `` and the
longest where-prefix it can get, and each message a built-in ruleset writes itself.

An error is one line whatever its width (docs/contract.md#errors), so a message must be
short enough to be one line of a terminal: it names what and where, and where a list
would be long it names the closest (the did-you-mean) and the command that shows the
whole list. Widths are measured with wcwidth, never with the code under test.

A message that quotes a user's whole input grows with it; those codes are in
:data:`LONG_BY_NATURE`, each with the reason. Codes not reworded yet are in
:data:`NOT_YET`, a list that may only shrink.
"""

from __future__ import annotations

from typing import Any

import pytest
from wcwidth import wcswidth

from scorer.rules.load import list_builtin, load_ruleset
from scorer.text.codes import CODES, codes
from scorer.text.codes_lang import LANG_CODES
from scorer.text.codes_rules import RULES_CODES
from scorer.text.render import PLACEHOLDER, body, where

WIDTH = 80
RULESET = "sichuan-xueliu"  # the longest built-in id
FILE = "my-house-rules.yaml"  # a file name of ordinary length (19 characters)

# One value of ordinary length per placeholder name. A code with a placeholder missing
# here fails test_every_placeholder_has_a_sample: add a value as long as a real one.
SAMPLES: dict[str, Any] = {
    "a": 12, "b": 0, "allowed": ["fixed", "flip"], "amount": 128, "args": ["extra"],
    "asked": 16, "at": "--players", "bad": ["z"], "base": 14, "bracket": "(",
    "by": "--robbing-kong", "by2": "--self-draw", "byte": 1234, "cap": 2, "chain": [FILE],
    "char": "x", "combine": "max", "cost": 10000, "cpus": 2, "d": 9, "digit": "8",
    "digits": 12, "error": "Permission denied", "example": "pay S 8 N", "exp": 6,
    "expected": "a number", "fact": "concealed_hand", "first": 2, "flag": "--robbing-kong",
    "flags": ["--self-draw"], "found": "=", "functions": ["count", "any", "all"],
    "game": 12, "hand_size": 14, "have": 15, "hi": 256, "high": 256, "hint": "discard_win",
    "host": "127.0.0.1", "id": "pure_straight", "index": 12, "job": "a1b2c3d4",
    "keys": ["hand", "rules", "flags"], "kind": "adjust", "known": sorted(list_builtin()),
    "kong_line": 12, "kongs": 2, "length": 200, "letter": "E", "limit": 256,
    "limit_kib": 512, "listing": "cap (none, 64, 128, 256)", "lists": ["patterns"],
    "lo": 1, "low": 1, "lower": "m", "m": 3, "max": 256, "meld": "[123m]",
    "melds": 4, "message": {"zh": "示例", "en": "example"}, "method": "POST",
    "mib": 8, "min": 8, "min_fan": 8, "minimum": 8, "n": 123, "name": "my-house-rules",
    "names": ["甲", "乙", "丙", "丁", "戊"], "need": 14, "num": 3, "offer": "<",
    "offer_name": "上家", "one": "--self-draw", "op": "//", "option": "discard_win",
    "other": "--from", "others": ["甲", "乙"], "param": "HAND", "parent": "mcr",
    "path": FILE, "payer": "S", "payments": "+8", "players": 4, "port": 8080,
    "possibilities": ["--kongs", "--out", "--you"], "reading": "123m", "reason": "not a number",
    "round_role": "winner", "ruleset": RULESET, "said": 2, "seat": "S",
    "seating": "E 甲, S 乙, W 丙, N 丁", "seats": ["E", "S", "W", "N"], "second": 5,
    "seconds": 10, "sets": 4, "shape": "standard",
    "shapes": ["standard", "seven_pairs", "thirteen_orphans", "honors_knitted",
               "knitted_straight"],
    "size": 14, "spec": "extends: ./base.yaml", "src": "fan * 2", "st": "5m",
    "suits": ["m", "p", "s"], "tag": "!!python/object", "target": FILE, "text": "x",
    "tile": "9m", "tile_n": 15, "times": 3, "total": 12, "totals": "E +8, S -8",
    "type": "text", "unit": "fan", "use": "//", "value": "banana",
    "values": ["double", "add_base"], "var": "MJSCORE_STAKE", "version": 12,
    "what": "hand", "who": "甲", "why": {"zh": "示例", "en": "example"},
    "wild": "P", "wind": "E", "winner": "S", "winners": ["S", "N"], "won": 12,
    "word": "+5x", "write": "==", "written": "1m<",
    "honor": {"zh": "红中", "en": "red dragon"}, "choices": ["table", "json", "csv"],
    "errno": 13, "extra": ["extra"], "command": "scroe",
    # another error worded inside one ({name:error}): a short one, as a cause is
    "error:error": {"code": "seat.unknown", "params": {"flag": "--from", "value": "Q"}},
    "a_error": {"code": "count.wrong", "params": {"have": 15, "need": 14, "ruleset": RULESET,
                                                   "here": ""}},
    "b_error": {"code": "count.wrong", "params": {"have": 15, "need": 14, "ruleset": RULESET,
                                                   "here": ""}},
}

# Codes whose message quotes a user's whole input (or a whole foreign text) and grows with
# it: code → why. Keep this short.
LONG_BY_NATURE: dict[str, str] = {
    "dispute.both_failed": "two whole error messages side by side (A's and B's)",
}


# the codes said at a position in the hand (or a batch line's text)
POSITIONED = ("notation.", "count.", "copies.", "meld.", "suit.", "waits.count", "line.",
              "tile.", "kongs.")


# Codes still wider than 80 columns with ordinary parameters, to be reworded: the list may
# only shrink (test_not_yet_is_still_wide fails when one fits, so that it is taken off).
NOT_YET: frozenset[str] = frozenset({
    "cache.cannot_make", "cache.cannot_write", "cache.no_folder", "cache.untrusted",
    "cache.unused", "config.bad_env", "config.bad_value", "config.not_text",
    "config.syntax", "config.unknown_key", "config.unreadable", "eval.below", "eval.cpu",
    "eval.empty", "eval.in_play", "eval.index", "eval.negative_power",
    "eval.negative_share", "eval.not_whole", "eval.power_big", "eval.python", "eval.suits",
    "eval.too_big", "expr.any_reading_args", "expr.any_reading_level", "expr.arith_type",
    "expr.async", "expr.branches", "expr.call", "expr.compare_groups", "expr.compare_types",
    "expr.comparison", "expr.constant", "expr.cost", "expr.divide_zero", "expr.folded_bits",
    "expr.in_type", "expr.index_number", "expr.index_type", "expr.is_none",
    "expr.join_text", "expr.keywords", "expr.list_numbers", "expr.loop_name_taken",
    "expr.loop_over", "expr.loop_variable", "expr.loops", "expr.needs_args",
    "expr.needs_list", "expr.needs_numbers", "expr.nested", "expr.no_attribute",
    "expr.not_allowed", "expr.not_text", "expr.one_list", "expr.one_number",
    "expr.open_quote", "expr.operator", "expr.operator_use", "expr.syntax",
    "expr.syntax_end", "expr.tile_arg", "expr.too_deep", "expr.too_long",
    "expr.too_many_parts", "expr.unclosed", "expr.unknown_function", "expr.unknown_in_once",
    "expr.unknown_name", "expr.unmatched", "expr.write_instead", "extends.cycle",
    "extends.missing", "extends.no_pattern", "extends.not_text", "extends.not_yaml",
    "extends.too_deep", "file.cannot_open", "file.unreadable", "flags.contradict",
    "flags.contradict_implied", "flags.contradict_implied2", "notation.offer_bad",
    "notation.offer_missing", "option.bad_value", "option.none", "option.not_whole",
    "option.range", "option.unknown", "remove.needs_extends", "remove.not_list",
    "remove.not_text", "remove.unknown", "round.not_sichuan", "rules.clear_alone",
    "rules.needs_id", "rules.new_only", "rules_new.exists", "rules_new.one_file",
    "rules_new.symlink", "rules_new.write", "ruleset.is_folder", "ruleset.name_long",
    "ruleset.name_nul", "ruleset.no_builtin", "ruleset.not_compiled",
    "ruleset.not_found_relative", "ruleset.not_mapping", "ruleset.os_error",
    "ruleset.path_long", "schema.bad_id", "schema.count_and_each", "schema.count_once_of",
    "schema.count_once_renamed", "schema.count_once_sets", "schema.count_once_twice",
    "schema.default_outside", "schema.each_kind", "schema.each_not_list", "schema.each_of",
    "schema.each_of_missing", "schema.expr_budget", "schema.hand_size",
    "schema.house_budget", "schema.house_not_keys", "schema.id_twice", "schema.let_taken",
    "schema.min_over_max", "schema.needs_flag", "schema.no_pattern", "schema.not_attribute",
    "schema.not_number", "schema.not_texts", "schema.once_no_count", "schema.one_of",
    "schema.option_default", "schema.option_is_fact", "schema.option_range",
    "schema.option_values", "schema.outside_game", "schema.pattern_ids",
    "schema.placeholder", "schema.robbing_kong", "schema.shape_size", "schema.shapes",
    "schema.stand_in_shapes", "schema.stand_in_tile", "schema.suits", "schema.tier_name",
    "schema.too_many", "schema.tooling_moved", "schema.unknown_flag",
    "schema.unknown_flag_always", "schema.unknown_key", "schema.unknown_shape",
    "schema.unknown_tally", "schema.wildcard_face", "section.also", "section.check",
    "section.checks", "section.chengbao", "section.context_flag", "section.count_once",
    "section.house_example", "section.house_examples", "section.labels", "section.lets",
    "section.option", "section.option_name", "section.options", "section.pattern",
    "section.patterns", "section.payment", "section.tallies", "section.tally",
    "section.tier", "section.tiers", "section.ties", "section.tooling", "serve.db_newer",
    "serve.db_open", "serve.extends_builtin_only", "serve.listen", "serve.no_ruleset",
    "serve.reads_no_files", "usage.no_such_option_near", "usage.not_a_number_digits",
    "usage.number_too_long", "usage.text_too_long", "yaml.anchor_name", "yaml.anchor_twice",
    "yaml.bad_char", "yaml.block_scalar", "yaml.bomb", "yaml.brackets", "yaml.control_char",
    "yaml.dash_here", "yaml.directive", "yaml.documents", "yaml.escape", "yaml.indent",
    "yaml.invalid", "yaml.items", "yaml.long_number", "yaml.mapping_here", "yaml.merge_key",
    "yaml.nested", "yaml.no_colon", "yaml.no_value", "yaml.not_whole", "yaml.open_list",
    "yaml.open_map", "yaml.open_quote", "yaml.tab", "yaml.tag", "yaml.tag_open",
    "yaml.text_budget", "yaml.too_big", "yaml.undefined_alias",
})


def _word_values(name: str) -> list[str]:
    """The values a ``{name:word}`` placeholder may take: the catalogue's ``name.VALUE``."""
    return [k[len(name) + 1:] for k in CODES if k.startswith(name + ".") and k != name + "."]


def _file_code(code: str) -> bool:
    """Whether ``code`` is a problem of a ruleset file (said after ``file:line:col key:``)."""
    return code in RULES_CODES or (code in LANG_CODES and not code.startswith("eval."))


def _prefixes(code: str, lang: str) -> list[str]:
    """The where-prefixes ``code`` may be printed behind, with ``mjscore: `` where the
    command adds it: the widest counts."""
    if _file_code(code):
        spot = {"file": FILE, "line": 123, "column": 45, "key": "patterns[12].when"}
        return ["mjscore: " + where(spot, lang), where(spot, lang)]  # score; rules check
    if code.startswith("eval."):  # a ruleset's expression failing while scoring
        return ["mjscore: " + where({"place": f"{FILE}:123 patterns[12].when"}, lang)]
    if code.startswith(POSITIONED):
        return ["mjscore: " + where({"position": 123}, lang),
                where({"at_line": 123, "position": 123}, lang)]  # batch: line, then position
    return ["mjscore: ", where({"at_line": 123}, lang),
            where({"at_line": 123, "event": 12}, lang)]  # a round in a batch file


def _renderings(code: str, lang: str) -> list[str]:
    """``code`` worded with :data:`SAMPLES` (every value of each ``{name:word}``)."""
    en = CODES[code][1]  # (zh has the same placeholders: tests/text/test_codes.py)
    params: dict[str, Any] = {}
    variants: list[dict[str, Any]] = [{}]
    for m in PLACEHOLDER.finditer(en):
        name, how = m.group(1), m.group(2)
        if how == "word":
            variants = [{**v, name: w} for v in variants for w in _word_values(name) or [""]]
        elif how == "error":  # another error, worded inside this one
            params[name] = SAMPLES["a_error" if name in ("a_error", "b_error") else "error:error"]
        elif name in SAMPLES:
            params[name] = SAMPLES[name]
    return [body(code, {**params, **v}, lang) for v in variants]


def _widest(code: str, lang: str) -> tuple[int, str]:
    return max((wcswidth(p + text), p + text) for p in _prefixes(code, lang)
               for text in _renderings(code, lang))


def test_every_placeholder_has_a_sample() -> None:
    missing = {(c, m.group(1)) for c in codes() for text in CODES[c]
               for m in PLACEHOLDER.finditer(text)
               if m.group(2) not in ("word", "error") and m.group(1) not in SAMPLES}
    assert not missing, sorted(missing)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_code_fits_80_columns(lang: str) -> None:
    wide = [(w, c, line) for c in codes() if c not in LONG_BY_NATURE and c not in NOT_YET
            for w, line in [_widest(c, lang)] if w > WIDTH]
    assert not wide, f"{len(wide)} over {WIDTH}:\n" + "\n".join(
        f"{w} {c}: {line}" for w, c, line in sorted(wide, reverse=True))


def test_long_by_nature_is_long() -> None:
    """An exception that fits is no exception any more: take it off the list."""
    fits = [c for c in LONG_BY_NATURE if max(_widest(c, lang)[0] for lang in ("zh", "en"))
            <= WIDTH]
    assert not fits, fits


def test_not_yet_is_still_wide() -> None:
    """A code of :data:`NOT_YET` that fits in both languages comes off the list."""
    fits = sorted(c for c in NOT_YET if max(_widest(c, lang)[0] for lang in ("zh", "en"))
                  <= WIDTH)
    assert not fits, fits
    assert not NOT_YET - set(codes()), sorted(NOT_YET - set(codes()))


def _ruleset_messages() -> list[tuple[str, str, Any]]:
    """Each built-in ruleset's own messages (``errors:``, ``not_a_win:``), as ``(ruleset,
    check, {zh, en})``."""
    out = []
    for rid in sorted(list_builtin()):
        rs = load_ruleset(rid)
        for check in [*rs.errors, *rs.not_a_win]:
            out.append((rid, check.id, {"zh": check.template,
                                        "en": check.template_en or check.template}))
    return out


def test_the_built_in_rulesets_say_something() -> None:
    assert len(_ruleset_messages()) >= 5


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_ruleset_message_fits_80_columns(lang: str) -> None:
    """A ruleset's own error or refusal, behind ``mjscore: `` (score) or ``line 123: ``
    (batch, a round's event)."""
    wide = []
    for rid, check, message in _ruleset_messages():
        for code in ("rule.error", "rule.refused"):
            text = body(code, {"message": message, "values": {}}, lang)
            wide += [f"{wcswidth(p + text)} {rid} {check}: {p + text}"
                     for p in _prefixes(code, lang) if wcswidth(p + text) > WIDTH]
    assert not wide, "\n".join(sorted(set(wide)))
