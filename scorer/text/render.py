"""The one renderer: an error's code and parameters (or a view's word) in zh or en.

Every message is a catalogue entry (:data:`scorer.text.catalogue.CATALOGUE`, key → (zh,
en)) whose ``{name}`` placeholders are filled from the parameters, and only so: a
template is cut at its placeholders, never run as a format string (no attribute access,
no indexing, no format specs), because a ruleset's own messages are templates too and a
ruleset file is untrusted. A placeholder may say how its value is worded:

* ``{name}`` — the value as a ruleset writes it (:func:`~scorer.text.values.show`); a
  ``{"zh": ..., "en": ...}`` map gives its word in the language asked; a list is joined
  with the language's comma (``、`` in Chinese);
* ``{name:q}`` — quoted, as typed (``'x'``; a control character escaped);
* ``{name:or}`` / ``{name:and}`` — a list joined with the language's "or" / "and"
  (:func:`~scorer.text.values.join`: ``A、B或C`` in Chinese);
* ``{name:shapes}`` — shape names (``standard``, ``seven_pairs``), worded through the
  catalogue's ``shape.NAME.long`` with the ``sets`` parameter, joined with "or"; of more
  than two, the first and how many others (``shape.more``), to keep the line short;
* ``{name:error}`` — another error ``{"code": ..., "params": ...}``, worded whole;
* ``{name:word}`` — the value names a word of the catalogue (``NAME.VALUE``);
* ``{name:rule}`` — a ruleset's own message ``{"zh": ..., "en": ...}``, its ``{name}``
  placeholders filled from the ``values`` parameter (plain names only: the file is
  untrusted).

Where an error happened is said in one place (:func:`where`): the parameters
``position`` (in the hand), ``file``/``line``/``column``/``key`` (in a ruleset file) and
``at_line`` (a line of a batch or round file), ``event`` (an event of a ``round`` line
of a batch file) become the message's prefix; ``hint`` (the
did-you-mean of :func:`scorer.text.near.closest`) its suffix, after the ``chain`` of
``extends:`` a ruleset was reached through.

>>> render("notation.no_suit", {"position": 7, "digit": "8"}, "en")
"position 7: '8' has no suit letter after it"
>>> render("notation.no_suit", {"position": 7, "digit": "8"}, "zh")
"第 7 个字符：'8' 后面没有花色字母"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..memo import Memo
from .catalogue import CATALOGUE
from .values import join, show

# {name} or {name:how}; anything else in braces is text (a ruleset's template is data)
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([a-z]+))?\}")
_PARTS: Memo[str, tuple[str, ...]] = Memo(4096, "text.render.parts")  # a template, cut at placeholders

def template(key: str, lang: str) -> str:
    """The catalogue's text for ``key`` in ``lang`` (zh unless ``en``).

    >>> template("col_seat", "en")
    'seat'
    """
    zh, en = CATALOGUE[key]
    return en if lang == "en" else zh


def fill(text: str, params: Mapping[str, Any], lang: str = "en", hows: bool = True) -> str:
    """``text`` with its placeholders filled from ``params`` (see the module docstring);
    a placeholder with no parameter stays as written. ``hows=False`` (a ruleset's own
    template: untrusted) fills plain ``{name}`` only and leaves ``{name:how}`` as text.

    >>> fill("{a} or {b:q}; {c:or}", {"a": None, "b": "x", "c": ["1m", "2m"]}, "zh")
    "none or 'x'; 1m或2m"
    >>> fill("{x.__class__} {y}", {"y": 1})
    '{x.__class__} 1'
    """
    if "{" not in text:
        return text
    parts = _PARTS.get(text)
    if parts is None:
        parts = _PARTS.put(text, tuple(PLACEHOLDER.split(text)))
    out = [parts[0]]
    for k in range(1, len(parts), 3):
        name, how = parts[k], parts[k + 1]
        if name in params and (hows or not how):
            out.append(value(params[name], lang, how or "", params, name))
        else:
            out.append("{" + name + (":" + how if how else "") + "}")
        out.append(parts[k + 2])
    return "".join(out)


def value(v: Any, lang: str, how: str = "", params: Mapping[str, Any] | None = None,
          name: str = "") -> str:
    """One parameter ``name`` in words (``how`` as after the colon of a placeholder).

    >>> value({"zh": "七对", "en": "seven pairs"}, "zh"), value(["1m", "2m"], "en", "or")
    ('七对', '1m or 2m')
    >>> value("hand", "zh", "word", name="what"), value(["a", "b"], "en", "q")
    ('手牌', "'a' or 'b'")
    """
    if how == "q":
        if isinstance(v, (list, tuple)):
            return join([value(x, lang, "q") for x in v], lang, "or")
        s = str(v)
        return "'" + s + "'" if s.isprintable() and "'" not in s else repr(s)
    if how == "word":  # the value names a word of the catalogue: NAME.VALUE
        key = f"{name}.{v}"
        return word(key, lang, **(params or {})) if key in CATALOGUE else show(v)
    if how == "shapes":
        sets = (params or {}).get("sets", 4)
        names = [word(f"shape.{s}.long", lang, sets=sets) if f"shape.{s}.long" in CATALOGUE
                 else str(s).replace("_", " ") for s in v[:1 if len(v) > 2 else 2]]
        if len(v) > 2:  # an error is one line: the first shape and how many more
            return word("shape.more", lang, first=names[0], others=len(v) - 1)
        return join(names, lang, "or")
    if how == "error":  # another error, {code, params}, worded in the same language
        return render(str(v["code"]), v["params"], lang)
    if how == "rule":  # a ruleset's own message, {zh, en}: untrusted, so {name} only
        text = value(v, lang)
        return fill(text, (params or {}).get("values") or {}, lang, hows=False)
    if isinstance(v, dict) and ("zh" in v or "en" in v):
        return str(v.get(lang) or v.get("en" if lang == "zh" else "zh") or "")
    if isinstance(v, (list, tuple)):
        return join([value(x, lang) for x in v], lang, how)
    return show(v)


def word(key: str, lang: str = "zh", /, **params: Any) -> str:
    """The catalogue's ``key`` in ``lang``, its placeholders filled; with ``n`` 1, the
    word's singular ``KEY.one`` where the catalogue has one (``1 line``, ``2 lines``).

    >>> word("from_each", "en", payers="S, N"), word("from_each", "zh", payers="S, N")
    (' from each of S, N', '，S, N 各付')
    """
    if params.get("n") == 1 and key + ".one" in CATALOGUE:
        key += ".one"
    return fill(template(key, lang), params, lang)


def where(params: Mapping[str, Any], lang: str = "en") -> str:
    """The prefix saying where an error happened, from its where-parameters, or "".

    >>> where({"file": "my.yaml", "line": 3, "column": 5, "key": "patterns.x"}, "en")
    'my.yaml:3:5 patterns.x: '
    >>> where({"position": 4}, "zh"), where({"at_line": 2}, "en")
    ('第 4 个字符：', 'line 2: ')
    """
    out = ""
    at = params.get("at_line")
    if at is not None:
        out += word("where.line", lang, n=at)
    event = params.get("event")  # an event of a round written as one batch line
    if event is not None:
        out += word("where.event", lang, n=event)
    pos = params.get("position")
    if pos is not None:
        out += word("where.position", lang, n=pos)
    place = params.get("place")  # where a ruleset's expression is written: 'file:line key'
    if place:
        out += f"{place}: "
    f, key = params.get("file") or "", params.get("key") or ""
    if f or key:
        line, col = params.get("line"), params.get("column")
        spot = str(f)
        if f and line is not None:
            spot += f":{line}" + (f":{col}" if col is not None else "")
        out += (f"{spot} {key}" if spot and key else spot or str(key)) + ": "
    return out


def render(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """An error's whole message: where it happened, what, and the did-you-mean hint.

    >>> render("ruleset.not_found", {"name": "x.yaml", "hint": "y.yaml", "at_line": 2}, "en")
    "line 2: ruleset file not found: x.yaml; did you mean 'y.yaml'?"
    """
    return where(params, lang) + body(code, params, lang)


def body(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """An error's message without its where-prefix: the message, the ``why`` the views
    attach to a refusal (``{zh, en}``: what was found, what the hand waited on), a second
    sentence some messages take (``by_id``), the ``extends:`` chain, the did-you-mean
    hint (at the end, or where the template places ``{chain}`` / ``{hint}``) and the file
    that extends the one at fault (``inherited_by``).

    >>> body("ruleset.no_builtin", {"name": "x", "known": "mcr", "position": 3}, "en")
    "no built-in ruleset 'x'; see mjscore rules list, or give a path"
    """
    text = template(code, lang)
    chain, hint = params.get("chain"), params.get("hint")
    why = params.get("why")
    tail = {"why": word("why", lang, why=why) if why else "",
            "chain": word("chain", lang, chain=" → ".join(map(str, chain))) if chain else "",
            "hint": word("hint", lang, hint=hint) if hint else ""}
    by = params.get("inherited_by")  # a problem in a file another extends: said last
    if by:
        tail["inherited_by"] = word("inherited_by", lang, by=by)
    by_id = params.get("by_id")
    if by_id:
        tail["chain"] = word("ruleset.by_id", lang, id=by_id) + tail["chain"]
    placed = {k: v for k, v in tail.items() if "{" + k + "}" in text}
    text = fill(text, {**params, **placed} if placed else params, lang)
    return text + "".join(v for k, v in tail.items() if k not in placed)
