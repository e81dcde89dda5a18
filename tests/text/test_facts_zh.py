"""scorer/text/facts_zh.py: every name a ruleset's expressions can use has its Chinese
meaning (a fact, attribute or function added without one fails here), none is left for
a name that is gone, and the Chinese page reads in 80 columns."""

from __future__ import annotations

import re

from wcwidth import wcswidth

from scorer.lang import FUNCTIONS
from scorer.rules import facts as F
from scorer.text import facts_zh as Z
from scorer.views.rulespage import LEVELS, facts_markdown

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_fact_attribute_and_function_has_its_chinese() -> None:
    for kind, names, zh in (("fact", F.FACTS, Z.FACTS), ("tile attribute", F.TILE_ATTRS,
                                                        Z.TILE_ATTRS),
                            ("group attribute", F.GROUP_ATTRS, Z.GROUP_ATTRS),
                            ("function", FUNCTIONS, Z.FUNCTIONS)):
        missing = sorted(set(names) - set(zh))
        assert not missing, f"no Chinese meaning in scorer/text/facts_zh.py for {kind} {missing}"
        stale = sorted(set(zh) - set(names))
        assert not stale, f"scorer/text/facts_zh.py has a {kind} that is gone: {stale}"
        plain = sorted(k for k, v in zh.items() if not CJK.search(v))
        assert not plain, f"{kind} meanings with no Chinese in them: {plain}"


def test_every_level_and_heading_has_both_languages() -> None:
    levels = {f.level for f in F.FACTS.values()}
    assert levels <= set(LEVELS), levels - set(LEVELS)
    for level in LEVELS:
        assert f"level.{level}" in Z.PAGE and f"level.{level}.text" in Z.PAGE, level
    for key, (zh, en) in Z.PAGE.items():
        assert CJK.search(zh), key
        assert en and en != zh, key


def test_a_function_s_chinese_starts_with_its_call_as_the_english_does() -> None:
    # the signature is notation, written as in English; only the meaning is translated
    for name, fn in FUNCTIONS.items():
        assert fn.help.startswith(f"{name}(") and Z.FUNCTIONS[name].startswith(f"{name}("), name
        assert fn.help.split("->")[1].split(":")[0] in Z.FUNCTIONS[name], name  # the result


def test_the_chinese_page_is_chinese_and_fits_80_columns() -> None:
    page = facts_markdown("zh")
    wide = [ln for ln in page.splitlines() if wcswidth(ln) > 80]
    assert not wide, wide
    assert "won on a kong replacement tile" not in page
    assert "和在杠后的补牌上" in page  # kong_draw, as the catalogue words it
    assert facts_markdown("en") == facts_markdown()
    assert "won on a kong replacement tile" in facts_markdown("en")
