"""scorer.text.lang: --lang, then MJSCORE_LANG, then the locale, then zh."""

from __future__ import annotations

import pytest

from scorer.text.lang import choose_lang


@pytest.mark.parametrize(("asked", "env", "want"), [
    ("en", {"MJSCORE_LANG": "zh", "LANG": "zh_CN.UTF-8"}, "en"),  # --lang wins
    (None, {"MJSCORE_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),  # then MJSCORE_LANG
    (None, {"MJSCORE_LANG": "xx", "LANG": "en_US.UTF-8"}, "en"),  # an unknown one passed over
    (None, {"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),  # LC_ALL first
    (None, {"LC_MESSAGES": "de_DE.UTF-8", "LANG": "zh_CN"}, "en"),  # another language: en
    (None, {"LANG": "zh_CN.GB18030"}, "zh"),
    (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "zh"),  # no language in the locale: zh as before
    (None, {"LC_ALL": "POSIX"}, "zh"),
    (None, {}, "zh"),  # no locale at all
])
def test_the_language_is_chosen_in_order(asked: str | None, env: dict[str, str],
                                         want: str) -> None:
    assert choose_lang(asked, env) == want
