"""What a ruleset says to a person (its option meanings, its notes and rulings) is in both
languages: ``{zh: ..., en: ...}`` in the file, shown in the run's language by
``rules show``, the page's API and the option table; one text still serves both."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from scorer.errors import RulesetError
from scorer.rules.files import list_builtin
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.serve.api import ruleset_json
from tests.helpers.hostile import cli

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH = re.compile(r"\b[a-z]{3,} [a-z]{3,}\b")  # two English words in a row


def _ruleset(tmp_path: Path, body: str) -> object:
    f = tmp_path / "house.yaml"
    f.write_text(textwrap.dedent(body), encoding="utf-8")
    return compile_ruleset(f.read_text(encoding="utf-8"), str(f))


@pytest.mark.parametrize("rid", list_builtin())
def test_every_built_in_note_and_option_meaning_is_in_both_languages(rid: str) -> None:
    rs = load_ruleset(rid)
    zh, en = rs.notes_in("zh"), rs.notes_in("en")
    assert len(zh) == len(en)
    texts = list(zip(zh, en, strict=True)) + [
        (o.described("zh"), o.described("en")) for o in rs.options.values() if o.description]
    assert texts or (rid == "sichuan-xueliu" and rs.notes)  # (xueliu: its own notes only)
    for z, e in texts:
        # the Chinese is Chinese (no English sentence in it), the English is not Chinese
        # prose (English words, or a bare name: 海底捞月 / 海底炮 (--last-tile) ×2)
        code = re.sub(r"mjscore [a-z]+|--[\w-]+|\S*[_=.#/]\S*", "", z)  # commands, flags, keys
        assert CJK.search(z) and not ENGLISH.search(code), (rid, z)
        assert ENGLISH.search(e) or not re.search("[，。：；（）]", e), (rid, e)


def test_one_text_serves_both_languages_and_a_mapping_gives_each(tmp_path: Path) -> None:
    rs = _ruleset(tmp_path, """\
        extends: hangzhou
        id: house
        notes:
          - 一句话 for everyone
          - {zh: 只在本桌, en: this table only}
        options:
          cap: {values: [none, 64], default: none, description: 封顶 (cap)}
          players: {values: [4, 3], default: 4, description: 人数, description_en: players}
          no_bamboo: {values: [false, true], default: false,
                      description: {zh: 不用条子, en: no bamboo suit}}
        """)
    assert rs.notes_in("zh") == ("一句话 for everyone", "只在本桌")  # type: ignore[attr-defined]
    assert rs.notes_in("en") == ("一句话 for everyone", "this table only")  # type: ignore[attr-defined]
    opts = rs.options  # type: ignore[attr-defined]
    assert opts["cap"].described("zh") == opts["cap"].described("en") == "封顶 (cap)"
    assert (opts["no_bamboo"].described("zh"), opts["no_bamboo"].described("en")) == (
        "不用条子", "no bamboo suit")
    assert (opts["players"].described("zh"), opts["players"].described("en")) == ("人数", "players")


def test_a_mapping_with_another_language_is_a_problem_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as e:
        _ruleset(tmp_path, """\
            extends: hangzhou
            id: house
            notes:
              - {zh: 只在本桌, fr: cette table}
            """)
    [p] = e.value.problems
    assert (p.line, p.key) == (4, "notes[0]")


def test_rules_show_says_the_notes_and_meanings_in_the_runs_language() -> None:
    # the texts of rulesets/hangzhou.yaml's option must_baotou_with_wild and first note
    zh = cli("rules", "show", "hangzhou", "--lang", "zh", lang="zh")
    en = cli("rules", "show", "hangzhou", "--lang", "en", lang="en")
    assert zh.code == en.code == 0
    # (the table and the notes fold to the terminal: read them unfolded)
    zh.out = re.sub(r"\s*\n\s*", "", zh.out)
    en.out = re.sub(r"\s*\n\s*", " ", en.out)
    assert "才比拷：手里有财神时" in zh.out and "136 张牌，无花" in zh.out
    assert "may only win as" not in zh.out and "136 tiles, no flowers" not in zh.out
    assert "may only win as" in en.out and "136 tiles, no flowers" in en.out


def test_the_pages_api_gives_them_in_the_pages_language() -> None:
    rs = load_ruleset("hangzhou")
    zh, en = ruleset_json(rs, "zh"), ruleset_json(rs, "en")
    wild = {o["name"]: o["description"] for o in zh["options"]}["wild_mode"]
    wild_en = {o["name"]: o["description"] for o in en["options"]}["wild_mode"]
    assert wild.startswith("财神：") and "白板是财神" in wild
    assert "the four 白板 are wild" in wild_en
    assert zh["notes"][0].startswith("136 张牌") and en["notes"][0].startswith("136 tiles")
