"""The JSON API of ``mjscore serve``, without HTTP: a request's body in, (status, object) out.

Every answer is the record the command line prints with ``--json``: ``POST /api/score``
gives exactly ``mjscore score HAND FLAGS --json`` (with ``--vs`` the dispute object),
``POST /api/waits`` that of ``mjscore waits``, errors the CLI's ``{"error": …}``. The
HTTP status says what kind of answer it is (:func:`status_of`): 200, 400 bad input,
422 not a legal win, 413 too large, 500 a bug (never with a traceback).

A ruleset is named in the flags as on the command line (``--rules ID``, ``--vs ID``):
a built-in id, one the server was started with (``mjscore serve --rules my.yaml``), or
the name of a file whose text the request carries in ``"files"`` — never a path on the
server. An uploaded file is untrusted exactly like ``--rules PATH``: the same YAML
limits and CPU clock, and its ``extends:`` may name built-in ids only.

>>> api = Api()
>>> status, out = api.score({"hand": "123m456m789p234s55s", "flags": ["--rules", "hangzhou",
...                                                                    "--self-draw"]})
>>> status, out["payments"]
(200, {'E': 6, 'S': -2, 'W': -2, 'N': -2})
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import ContextError, MjscoreError, NotAWin, Problem, RulesetError
from ..lines.grammar import ScoreArgs, parse
from ..rules.files import MAX_BYTES, is_path, list_builtin
from ..rules.flags import FLAGS, Flag
from ..rules.model import Ruleset
from ..text.lang import LANGS
from .labels import NAMES

# A hand is at most 18 tiles with brackets and offers: a few hundred characters is plenty.
MAX_HAND = 400
MAX_FLAGS = 80
MAX_FLAG_TEXT = 400
MAX_FILES = 2
CACHE_TEXT = 64 * 1024  # an uploaded file larger than this is compiled each time, not kept
UPLOAD_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
# Requests queue for the one scoring thread at most this long before a 503 "busy".
BUSY_WAIT = 15.0


class RequestError(MjscoreError):
    """A request the API cannot read (not the JSON it expects); HTTP 400 unless ``status``.
    ``code`` and ``params`` as every error's (the ``serve.*`` codes of scorer/text/codes.py).

    >>> e = RequestError("serve.hand_too_long", 413, limit=400)
    >>> e.status, e.render("en"), e.render("zh")
    (413, 'hand: longer than 400 characters', '手牌超过 400 个字符')
    """

    kind = "request"

    def __init__(self, code: str, status: int = 400, **params: Any) -> None:
        super().__init__(code, **params)
        self.status = status


def job_lang(job: tuple[Any, ...]) -> str:
    """The language a job's answers are in: its last member when that is zh or en (every
    job of scorer.serve.workers ends with the request's language), else zh.

    >>> job_lang(("get", "/api/flags", "en")), job_lang(("get", "/api/flags"))
    ('en', 'zh')
    """
    lang = job[-1] if job else None
    return lang if isinstance(lang, str) and lang in LANGS else "zh"


def status_of(e: BaseException) -> int:
    """The HTTP status of an error: 422 not a legal win, 400 other bad input, 500 a bug.

    >>> status_of(NotAWin("not a winning hand")), status_of(ContextError("x")), status_of(KeyError())
    (422, 400, 500)
    """
    if isinstance(e, RequestError):
        return e.status
    if isinstance(e, MjscoreError):
        return 422 if e.exit_code == 3 else 400  # the CLI's exit 3 and exit 2
    return 500


def error_body(e: BaseException, lang: str = "zh") -> dict[str, Any]:
    """The CLI's ``{"error": {"kind", "message", …}}`` for ``e``; a bug names only its type.

    >>> error_body(ContextError("lang.bad", "--lang", value="fr"), "en")["error"]["message"]
    '--lang fr: use zh or en'
    >>> error_body(ZeroDivisionError("division by zero"))["error"]["kind"]
    'internal'
    """
    from ..views.jsondata import error_json

    if not isinstance(e, MjscoreError):
        e = RequestError("serve.internal", 500, type=type(e).__name__)
        out = error_json(e, lang)
        out["error"]["kind"] = "internal"
        return out
    out = error_json(e, lang)
    out["error"]["message"] = _one_line(out["error"]["message"])
    return out


def flag_lang(flags: Any, lang: str) -> str:
    """The language a request's flags ask for (``--lang en``, ``--lang=en``), else ``lang``:
    it words the errors found before the flags are parsed too.

    >>> flag_lang(["--self-draw", "--lang", "en"], "zh"), flag_lang("x", "en")
    ('en', 'en')
    """
    if isinstance(flags, list):
        for i, f in enumerate(flags):
            asked = flags[i + 1] if f == "--lang" and i + 1 < len(flags) else (
                f[len("--lang="):] if isinstance(f, str) and f.startswith("--lang=") else None)
            if asked in LANGS:
                return str(asked)
    return lang


def number(x: float) -> int | float:
    """A number of seconds as a message shows it: whole ones without '.0'.

    >>> number(8.0), number(2.5)
    (8, 2.5)
    """
    return int(x) if x == int(x) else x


def _one_line(text: str) -> str:
    # the same escaping as the CLI's messages (scorer.cli.output.one_line; cli is above us)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def flag_json(f: Flag, lang_names: tuple[str, str] | None = None) -> dict[str, Any]:
    """One row of the flag table as the page reads it.

    >>> row = flag_json(FLAGS[0]); row["flag"], row["type"], row["name_zh"], row["name_en"]
    ('--self-draw', 'bool', '自摸', 'Self-drawn')
    """
    from ..text.helps import HELPS

    zh, en = lang_names or NAMES.get(f.field, (f.help, f.help))
    lo, hi = f.bounds() if f.type is int else (None, None)
    # help (English) is the row's, the same as --help's; help_zh is --help's Chinese
    help_zh = HELPS.get(f"help.opt.{f.field}", (f.help, f.help))[0]
    return {"field": f.field, "flag": f.name, "names": list(f.names),
            "type": f.type.__name__, "multiple": f.multiple,
            "default": list(f.default) if isinstance(f.default, tuple) else f.default,
            "min": lo, "max": hi, "always": f.always, "help": f.help, "help_zh": help_zh,
            "name_zh": zh, "name_en": en}


def ruleset_json(rs: Ruleset, lang: str = "zh") -> dict[str, Any]:
    """A ruleset as the page builds its context from: names, the flags it uses (table rows,
    narrowed by the ruleset's defaults and ranges), options and patterns."""
    flags = []
    for f in FLAGS:
        if f.field == "options":
            continue
        key = f.yaml_key
        if not f.always and key not in rs.flags:
            continue
        row = flag_json(f)
        spec = rs.flags.get(key or "")
        if spec is not None:
            if spec.default is not None:
                row["default"] = spec.default
            if spec.minimum is not None:
                row["min"] = spec.minimum
            if spec.maximum is not None:
                row["max"] = spec.maximum
        flags.append(row)
    options = [{"name": o.name, "type": str(o.type), "default": o.default,  # e.g. "int?"
                "values": None if o.values is None else list(o.values),
                "min": o.minimum, "max": o.maximum, "description": o.described(lang)}
               for o in rs.options.values()]
    patterns = [{"id": p.id, "name": p.name, "name_en": p.name_en, "tally": p.tally,
                 "value": getattr(p.value, "src", None)} for p in rs.patterns]
    # the page's keyboard leaves out what the ruleset refuses in a hand (Sichuan: honors)
    honors = not any(getattr(e, "id", None) == "honors" for e in rs.errors)
    labels = {k: {"zh": zh, "en": en} for k, (zh, en) in rs.labels.items()}
    return {"id": rs.id, "name": rs.name, "name_en": rs.name_en, "hand_size": rs.hand_size,
            "wildcard": rs.wildcard is not None, "notes": list(rs.notes_in(lang)),
            "honors": honors, "labels": labels,
            "chows": not any(getattr(e, "id", None) == "chows" for e in rs.errors),
            "flags": flags, "options": options, "patterns": patterns}


class Api:
    """The API's state: the rulesets it offers and a bounded cache of uploaded files.

    ``extra`` are rulesets the server was started with (``mjscore serve --rules PATH``),
    offered by their id (and by the path as given). One request scores at a time: the
    scoring is CPU-bound (one core for Python threads anyway), so taking turns costs
    nothing, and a flood of requests queues (503 "busy" after :data:`BUSY_WAIT` s) instead
    of piling up threads that each hold a hand's work. Each hand of a user ruleset runs
    under its own CPU budget (:mod:`scorer.lang.budget`, per thread).
    """

    def __init__(self, extra: Iterable[tuple[str, Ruleset]] = (), cache: int = 16) -> None:
        self.extra: dict[str, Ruleset] = {}
        for spec, rs in extra:
            self.extra[rs.id] = rs
            self.extra[spec] = rs
        self._uploads: OrderedDict[str, Ruleset] = OrderedDict()
        self._cache = max(1, cache)
        self._lock = threading.Lock()

    @classmethod
    def from_specs(cls, specs: Iterable[str], cache: int = 16) -> Api:
        """An API offering the rulesets ``specs`` name (ids or paths) beside the built-ins,
        as ``mjscore serve --rules SPEC`` does; raises RulesetError for one that does not load.

        >>> Api.from_specs(["mcr"]).extra["mcr"].id
        'mcr'
        """
        from ..rules.load import load_ruleset

        return cls([(spec, load_ruleset(spec)) for spec in specs], cache)

    # -- jobs (what a worker process of the server is asked) -------------------------------
    def handle(self, job: tuple[Any, ...]) -> tuple[int, Any]:
        """Answer one job of :mod:`scorer.serve.workers`: ``("get", path)``, ``("post", path,
        body)``, ``("record", line, files, lang)`` (a sheet's line scored as ``batch`` scores
        it) or ``("round", text, rules, files, lang)`` (a 血战 round settled as ``round``).
        Returns ``(status, object)``; never raises for bad input.

        >>> Api().handle(("get", "/api/nothing", "en"))[1]["error"]["message"]
        'no such endpoint: GET /api/nothing'
        """
        what = job[0] if job else None
        lang = job_lang(job)
        try:
            if what == "get":
                return self.get(job[1], lang)
            if what == "post":
                return self.post(job[1], job[2], lang)
            if what == "record":
                return self.record(job[1], job[2], job[3])
            if what == "round":
                return self.round(job[1], job[2], job[3], job[4])
            raise RequestError("serve.no_job", 500, job=str(what)[:40])
        except Exception as e:  # a bug: named by its type only, never a traceback
            return status_of(e), error_body(e, lang)

    def cpu_exceeded(self, job: tuple[Any, ...], seconds: float) -> tuple[int, Any]:
        """The answer to a job stopped at its CPU limit (a 400: the request asked too much).

        >>> Api().cpu_exceeded(("get", "/", "en"), 8)[1]["error"]["message"]
        'the request ran for more than 8 s of CPU and was stopped'
        """
        e = RequestError("serve.cpu_limit", seconds=number(seconds))
        return e.status, error_body(e, job_lang(job))

    def record(self, line: str, files: dict[str, str], lang: str) -> tuple[int, Any]:
        """A sheet's hand line scored exactly as ``mjscore batch`` scores it
        (:func:`scorer.lines.records.score_record`), its rulesets named by ``files`` or built in.

        >>> status, rec = Api().record("123m456m789p234s55s --self-draw --rules hangzhou", {}, "en")
        >>> status, rec["payments"]["E"], rec["kind"]
        (200, 6, 'hand')
        """
        from ..lines.records import score_record

        rec = score_record(line, (), 1, lang, resolve=lambda spec: self.ruleset(spec, files))
        err = rec.get("error")
        if err is not None:
            status = 422 if err.get("exit") == 3 else 400
            return status, {"error": {k: v for k, v in err.items() if k != "exit"}}
        return 200, rec

    def round(self, text: str, rules: str, files: dict[str, str], lang: str) -> tuple[int, Any]:
        """A 血战 round's events settled as ``mjscore round`` settles them: its JSON, plus
        ``"ledger"``, the record the evening's ledger books (its totals, the seats that won).

        >>> from scorer.table.round import EXAMPLE
        >>> status, out = Api().round(EXAMPLE, "sichuan", {}, "en")
        >>> status, sum(out["ledger"]["payments"].values()), out["ledger"]["winner"]
        (200, 0, [])
        """
        from ..table.round import settle_round
        from ..views.round import round_json

        if len(text) > 64 * 1024:
            raise RequestError("serve.round_too_long", 413, limit_kib=64)
        if rules in files:
            self.ruleset(rules, files)
            raise RequestError("serve.round_builtin")
        result = settle_round(text, rules)
        out = round_json(result, lang)
        won = [s for s, st in result.status.items() if st == "won"]
        out["ledger"] = {"payments": dict(result.totals), "winner": won}
        return 200, out

    # -- rulesets ------------------------------------------------------------------------
    def ruleset(self, spec: str, files: dict[str, str]) -> Ruleset:
        """The ruleset a flag names: uploaded, started with, or built in; never a server path."""
        if spec in files:
            return self.upload(spec, files[spec])
        if spec in self.extra:
            return self.extra[spec]
        if is_path(spec):
            raise RulesetError("serve.reads_no_files", spec=spec[:200], name=Path(spec).name[:64],
                               known=", ".join(list_builtin()))
        from ..rules.load import load_ruleset

        return load_ruleset(spec)  # a built-in id (an unknown id: RulesetError listing them)

    def upload(self, name: str, text: str) -> Ruleset:
        """Compile an uploaded ruleset file (cached by its text, when at most
        :data:`CACHE_TEXT` bytes); raise RulesetError.

        Its ``extends:`` may name a built-in ruleset only: a path would read the server's
        files. A table's house file is a few KiB; a large one compiled into tens of MiB and
        is compiled again when asked again, rather than kept.
        """
        key = hashlib.sha256(f"{name}\0{text}".encode()).hexdigest()
        hit = self._uploads.get(key)
        if hit is not None:
            self._uploads.move_to_end(key)
            return hit
        from ..rules.load import compile_ruleset
        from ..rules.yamlsafe import load

        shown = f"upload/{name}"  # never a built-in's folder: the file is untrusted
        if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
            raise RequestError("serve.upload_too_big", 413, name=name, limit_kib=MAX_BYTES // 1024)
        data = load(text, shown, problems=[])
        parent = data.get("extends") if hasattr(data, "get") else None
        if isinstance(parent, str) and is_path(parent):
            m = getattr(data, "vmarks", {}).get("extends")
            raise RulesetError(Problem(shown, m.line if m is not None else None,
                                       m.column if m is not None else None, "extends",
                                       "serve.extends_builtin_only",
                                       {"parent": parent[:200], "known": ", ".join(list_builtin())}))
        rs = replace(compile_ruleset(text, shown), trusted=False)
        if len(text) > CACHE_TEXT:
            return rs
        self._uploads[key] = rs
        while len(self._uploads) > self._cache:
            self._uploads.popitem(last=False)
        return rs

    def rules_list(self) -> list[dict[str, Any]]:
        """``GET /api/rules``: every ruleset offered, built-ins first."""
        from ..rules.load import load_ruleset

        out, seen = [], set()
        for rs in [load_ruleset(i) for i in list_builtin()] + list(self.extra.values()):
            if rs.id in seen:
                continue
            seen.add(rs.id)
            out.append({"id": rs.id, "name": rs.name, "name_en": rs.name_en,
                        "builtin": rs.trusted,
                        "flags": [f["flag"] for f in ruleset_json(rs)["flags"]]})
        return out

    # -- the endpoints ---------------------------------------------------------------------
    def get(self, path: str, lang: str = "zh") -> tuple[int, Any]:
        """Answer ``GET path``: ``/api/rules``, ``/api/rules/ID``, ``/api/flags`` (errors in
        ``lang``)."""
        try:
            if path == "/api/rules":
                return 200, self.rules_list()
            if path == "/api/flags":
                return 200, [flag_json(f) for f in FLAGS]
            if path.startswith("/api/rules/"):
                rid = path[len("/api/rules/"):]
                if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", rid) or (
                        rid not in self.extra and rid not in list_builtin()):
                    raise RequestError("serve.no_ruleset", 404, id=rid[:64], known=", ".join(
                        r["id"] for r in self.rules_list()))
                return 200, ruleset_json(self.ruleset(rid, {}), lang)
            raise RequestError("serve.no_endpoint", 404, method="GET", path=path[:80])
        except Exception as e:
            return status_of(e), error_body(e, lang)

    def post(self, path: str, body: Any, lang: str = "zh") -> tuple[int, Any]:
        """Answer ``POST path`` with a decoded JSON ``body``, in ``lang`` unless the flags
        name another (``--lang``)."""
        routes: dict[str, Callable[[Any, str], tuple[int, Any]]] = {
            "/api/score": self.score, "/api/waits": self.waits, "/api/dispute": self.dispute,
            "/api/rules": self.rules_upload}
        handler = routes.get(path)
        if handler is None:
            status = 405 if path in ("/api/flags",) or path.startswith("/api/rules/") else 404
            e = RequestError("serve.no_endpoint", status, method="POST", path=path[:80])
            return e.status, error_body(e, lang)
        return handler(body, lang)

    def rules_upload(self, body: Any, lang: str = "zh") -> tuple[int, Any]:
        """``POST /api/rules`` ``{"name": "my.yaml", "text": "..."}``: check an uploaded file and
        describe it like ``GET /api/rules/ID`` (errors name the file, line and key)."""
        try:
            if not isinstance(body, dict):
                raise RequestError("serve.body_object", keys='"name", "text"')
            name, text = body.get("name", "house.yaml"), body.get("text")
            if not isinstance(name, str) or not UPLOAD_NAME.fullmatch(name):
                raise RequestError("serve.upload_name")
            if not isinstance(text, str):
                raise RequestError("serve.upload_text")
            with self._scoring():
                return 200, ruleset_json(self.upload(name, text), lang)
        except Exception as e:
            return status_of(e), error_body(e, lang)

    def score(self, body: Any, lang: str = "zh") -> tuple[int, Any]:
        """``POST /api/score``: the object of ``mjscore score HAND FLAGS --json``."""
        return self._run(body, "score", lang)

    def waits(self, body: Any, lang: str = "zh") -> tuple[int, Any]:
        """``POST /api/waits``: the object of ``mjscore waits HAND FLAGS --json``."""
        return self._run(body, "waits", lang)

    def dispute(self, body: Any, lang: str = "zh") -> tuple[int, Any]:
        """``POST /api/dispute``: the object of ``mjscore score HAND FLAGS --vs … --json``."""
        return self._run(body, "dispute", lang)

    def _run(self, body: Any, what: str, lang: str) -> tuple[int, Any]:
        lang = flag_lang(body.get("flags") if isinstance(body, dict) else None, lang)
        try:
            args, files = self._read(body, lang)
            lang = args.lang
            with self._scoring():
                if what == "waits":
                    return 200, self._waits(args, files)
                if what == "dispute" or args.vs is not None or args.vs_options:
                    if args.vs is None and not args.vs_options:
                        raise ContextError("serve.dispute_needs_vs", "--vs")
                    return 200, self._dispute(args, files)
                return 200, self._score(args, files)
        except Exception as e:
            return status_of(e), error_body(e, lang)

    def _scoring(self) -> _Held:
        if not self._lock.acquire(timeout=BUSY_WAIT):
            raise RequestError("serve.busy", 503)
        return _Held(self._lock)

    def _read(self, body: Any, lang: str = "zh") -> tuple[ScoreArgs, dict[str, str]]:
        """The request's hand and flags, parsed as ``mjscore score`` parses them; in the
        request's language ``lang`` unless the flags name one (``--lang``)."""
        if not isinstance(body, dict):
            raise RequestError("serve.body_object", keys='"hand", "flags", "files"')
        unknown = sorted(set(body) - {"hand", "flags", "files"})
        if unknown:
            raise RequestError("serve.unknown_key", name=unknown[0][:40],
                               keys='"hand", "flags", "files"')
        hand, flags, files = body.get("hand"), body.get("flags", []), body.get("files", {})
        if not isinstance(hand, str):
            raise RequestError("serve.hand_string")
        if len(hand) > MAX_HAND:
            raise RequestError("serve.hand_too_long", 413, limit=MAX_HAND)
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise RequestError("serve.flags_list")
        if len(flags) > MAX_FLAGS or any(len(f) > MAX_FLAG_TEXT for f in flags):
            raise RequestError("serve.flags_too_many", 413, limit=MAX_FLAGS,
                               length=MAX_FLAG_TEXT)
        if not isinstance(files, dict) or len(files) > MAX_FILES or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise RequestError("serve.files", limit=MAX_FILES)
        for name in files:
            if not UPLOAD_NAME.fullmatch(name):
                raise RequestError("serve.file_name", name=name[:64])
        if not any(f == "--lang" or f.startswith("--lang=") for f in flags):
            flags = [*flags, "--lang", lang]  # the request's language (the page's)
        # the hand first, as typed on the command line; "--" keeps a hand that starts with
        # '-' from being read as a flag (the parser then names it as a notation error)
        args = parse([*flags, "--", hand] if hand.startswith("-") else [hand, *flags])
        return args, files

    def _score(self, args: ScoreArgs, files: dict[str, str]) -> dict[str, Any]:
        from ..engine.scoring import score as score_hand
        from ..views.explain import explain_json
        from ..views.jsondata import score_json
        from ..views.pieces import refused

        rs = self.ruleset(args.rules, files)
        try:
            result = score_hand(args.hand, rs, args.context)
        except NotAWin as e:
            # as `score --json`: below a minimum the message names the fans found; a refusal
            # on the wait says why (scorer.views.pieces.refused)
            raise refused(e, args.hand, rs, args.context, args.lang)[1] from None
        out = score_json(result, args.lang)
        if args.explain:
            out["explain"] = explain_json(result, args.lang)
        return out

    def _waits(self, args: ScoreArgs, files: dict[str, str]) -> dict[str, Any]:
        from ..engine.ready import waits
        from ..views.waits import to_json

        unused = [f for f, given in (("--vs", args.vs is not None),
                                     ("--vs-option", bool(args.vs_options)),
                                     ("--explain", args.explain)) if given]
        if unused:  # as mjscore waits refuses them
            raise ContextError("waits.score_flag", unused[0])
        return to_json(waits(args.hand, self.ruleset(args.rules, files), args.context), args.lang)

    def _dispute(self, args: ScoreArgs, files: dict[str, str]) -> dict[str, Any]:
        """As ``mjscore score --vs … --json``: the same :func:`scorer.lines.disputes.dispute_of`, its
        rulesets named by the request (uploads, the server's, built-ins)."""
        from ..lines.disputes import dispute_of
        from ..views.dispute import dispute_json

        return dispute_json(dispute_of(args, lambda spec: self.ruleset(spec, files)), args.lang)


class _Held:
    """A lock already acquired, released at the end of a ``with`` block."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        self.lock.release()
