"""``mjscore config``: the defaults in force and where each came from.

Each setting of :mod:`scorer.cli.config` (``rules``, ``lang``, ``players``, ``stake``,
``format``) with its value and its source: an environment variable, the config file (and
its line), the locale (the language only), or the built-in default. A flag of a command
wins over all of them. ``--json`` prints the same as an object (docs/schemas/config.json).
"""

from __future__ import annotations

from typing import Any

import typer

from .complete import langs


def config_data() -> dict[str, Any]:
    """The settings in force as JSON data: the config file, whether it was read, and each
    setting's value, source and where.

    Returns ``{"kind": "config", "file": PATH | None, "found": bool, "settings": {KEY:
    {"value", "source", "where"}}}``; raises ContextError for a config file that is wrong.
    """
    from ..text.lang import lang_source
    from .config import load

    c = load()
    settings = {}
    for key, s in c.settings.items():
        value, source, where = s.value, s.source, s.where
        if key == "lang":  # the locale, between the config file and the default
            value, source, where = lang_source(None)
        settings[key] = {"value": value, "source": source, "where": where}
    return {"kind": "config", "file": c.file, "found": c.found, "settings": settings}


def config_text(data: dict[str, Any], lang: str) -> str:
    """The settings as a table for people, under the config file's line, within the
    terminal's width (a long path folds; the table's cells fold, views.texttable.fitted)."""
    from ..text.render import word
    from ..text.width import wrap_text
    from ..views.texttable import fitted

    if data["file"] is None:
        head = word("config_no_file", lang)
    else:
        head = word("config_file", lang, file=data["file"],
                    state="read" if data["found"] else "absent")
    rows = [[key, "—" if s["value"] is None else s["value"],
             word(f"source.{s['source']}", lang, where=s["where"])]
            for key, s in data["settings"].items()]
    table = fitted(rows, [word(h, lang) for h in ("col_setting", "col_value", "col_from")],
                   last=(0,), disable_numparse=True)
    return (f"{wrap_text(head, indent='  ')}\n\n{table}\n\n"
            f"{wrap_text(word('config_precedence', lang))}")


def config_cmd(
    as_json: bool = typer.Option(False, "--json"),
    lang: str | None = typer.Option(None, "--lang", metavar="zh|en", autocompletion=langs),
) -> None:
    """Show the defaults in force and where each came from: MJSCORE_RULES, MJSCORE_LANG,
    MJSCORE_PLAYERS, MJSCORE_STAKE, MJSCORE_FORMAT, the config file (config.toml in the
    platform's config folder, or MJSCORE_CONFIG), the built-in default. A flag wins over
    all of them."""
    from .output import dumps, fail

    try:
        from ..errors import ContextError
        from ..text.lang import LANGS, choose_lang

        lang = choose_lang(lang)
        if lang not in LANGS:
            raise ContextError("lang.bad", "--lang", value=lang)
        data = config_data()
        print(dumps(data) if as_json else config_text(data, lang))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        fail(e, as_json, lang)
