"""Which language a run speaks: ``--lang``, then ``MJSCORE_LANG``, then the config file's
``lang``, then the locale.

The locale counts when ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (the first set, as the C
library reads them) names a language: one starting with ``zh`` gives Chinese, any other
English. With none set, or the language-less ``C``/``POSIX`` locale, Chinese: the
regional games are played and argued in Chinese, and that was the default before.

>>> choose_lang(None, {"LANG": "en_GB.UTF-8"}), choose_lang(None, {"LANG": "C.UTF-8"})
('en', 'zh')
>>> choose_lang("en", {"MJSCORE_LANG": "zh"}), choose_lang(None, {"MJSCORE_LANG": "en"})
('en', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
_NO_LANGUAGE = ("", "C", "POSIX")


def choose_lang(asked: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``asked`` (``--lang``) when given, else ``MJSCORE_LANG``
    (zh or en), else the config file's (:func:`configure`), else the locale's, else zh.
    An ``asked`` value is returned as given, for the caller to check; an unknown
    ``MJSCORE_LANG`` is passed over.

    >>> choose_lang(None, {"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US"}), choose_lang(None, {})
    ('zh', 'zh')
    """
    return lang_source(asked, environ)[0]


def lang_source(asked: str | None = None, environ: Mapping[str, str] | None = None
                ) -> tuple[str, str, str]:
    """The language to speak (:func:`choose_lang`), where it came from (``flag``, ``env``,
    ``config``, ``locale`` or ``default``) and what named it (``--lang``, ``MJSCORE_LANG``,
    the config file and line, the locale variable; "" for the default). The config file
    counts only for the process's own environment (``environ`` None).

    >>> lang_source(None, {"LANG": "en_GB.UTF-8"}), lang_source(None, {})
    (('en', 'locale', 'LANG'), ('zh', 'default', ''))
    """
    if asked:
        return asked, "flag", "--lang"
    env = os.environ if environ is None else environ
    mine = env.get("MJSCORE_LANG", "").strip().lower()
    if mine in LANGS:
        return mine, "env", "MJSCORE_LANG"
    if environ is None and _CONFIGURED:
        return _CONFIGURED[0], "config", _CONFIGURED[1]
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if value:  # the first one set decides, as for the C library
            language = value.split(".")[0].split("@")[0]
            if language in _NO_LANGUAGE:
                return DEFAULT_LANG, "locale", var
            return ("zh" if language.lower().startswith("zh") else "en"), "locale", var
    return DEFAULT_LANG, "default", ""


# the config file's language and where it is written (scorer.cli.config sets it at start)
_CONFIGURED: list[str] = []


def configure(lang: str | None, where: str = "") -> None:
    """Make ``lang`` (zh or en; None: none) the config file's language, written at
    ``where``: the language of a run that gives neither ``--lang`` nor ``MJSCORE_LANG``.
    The command line calls it once at start (:mod:`scorer.cli.config`); returns None.

    >>> configure("en", "config.toml:2"); choose_lang(None, None) in ("zh", "en")
    True
    >>> configure(None)
    """
    _CONFIGURED[:] = [lang, where] if lang in LANGS else []
