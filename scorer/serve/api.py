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

from ..errors import ContextError, MjscoreError, NotAWin, RulesetError
from ..lines.grammar import ScoreArgs, parse
from ..rules.files import MAX_BYTES, is_path, list_builtin
from ..rules.flags import FLAGS, Flag
from ..rules.model import Ruleset
from .labels import NAMES

# A hand is at most 18 tiles with brackets and offers: a few hundred characters is plenty.
MAX_HAND = 400
MAX_FLAGS = 80
MAX_FLAG_TEXT = 400
MAX_FILES = 2
UPLOAD_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
# Requests queue for the one scoring thread at most this long before a 503 "busy".
BUSY_WAIT = 15.0


class RequestError(MjscoreError):
    """A request the API cannot read (not the JSON it expects); HTTP 400 unless ``status``."""

    kind = "request"

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


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

    if isinstance(e, MjscoreError):
        out = error_json(e, lang)
        out["error"]["message"] = _one_line(out["error"]["message"])
        return out
    return {"error": {"kind": "internal", "message": f"internal error ({type(e).__name__}); "
                      "please report this hand"}}


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
    zh, en = lang_names or NAMES.get(f.field, (f.help, f.help))
    lo, hi = f.bounds() if f.type is int else (None, None)
    return {"field": f.field, "flag": f.name, "names": list(f.names),
            "type": f.type.__name__, "multiple": f.multiple,
            "default": list(f.default) if isinstance(f.default, tuple) else f.default,
            "min": lo, "max": hi, "always": f.always, "help": f.help,
            "name_zh": zh, "name_en": en}


def ruleset_json(rs: Ruleset) -> dict[str, Any]:
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
                "min": o.minimum, "max": o.maximum, "description": o.description}
               for o in rs.options.values()]
    patterns = [{"id": p.id, "name": p.name, "name_en": p.name_en, "tally": p.tally,
                 "value": getattr(p.value, "src", None)} for p in rs.patterns]
    # the page's keyboard leaves out what the ruleset refuses in a hand (Sichuan: honors)
    honors = not any(getattr(e, "id", None) == "honors" for e in rs.errors)
    labels = {k: {"zh": zh, "en": en} for k, (zh, en) in rs.labels.items()}
    return {"id": rs.id, "name": rs.name, "name_en": rs.name_en, "hand_size": rs.hand_size,
            "wildcard": rs.wildcard is not None, "notes": list(rs.notes),
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

        >>> Api().handle(("get", "/api/nothing"))[0]
        404
        """
        what = job[0] if job else None
        try:
            if what == "get":
                return self.get(job[1])
            if what == "post":
                return self.post(job[1], job[2])
            if what == "record":
                return self.record(job[1], job[2], job[3])
            if what == "round":
                return self.round(job[1], job[2], job[3], job[4])
            raise RequestError(f"no such job {what!r}", 500)
        except Exception as e:  # a bug: named by its type only, never a traceback
            return status_of(e), error_body(e)

    def cpu_exceeded(self, job: tuple[Any, ...], seconds: float) -> tuple[int, Any]:
        """The answer to a job stopped at its CPU limit (a 400: the request asked too much).

        >>> Api().cpu_exceeded(("get", "/"), 8)[1]["error"]["message"]
        'the request ran for more than 8 s of CPU and was stopped'
        """
        e = RequestError(f"the request ran for more than {seconds:g} s of CPU and was stopped")
        return e.status, error_body(e)

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
            raise RequestError("a round is at most 64 KiB of events", 413)
        if rules in files:
            self.ruleset(rules, files)
            raise RequestError("a round is settled with a built-in ruleset (sichuan)")
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
            raise RulesetError(f"{spec}: the server reads no files; upload the file's text "
                               "(\"files\": {\"" + Path(spec).name + "\": TEXT}) or name a "
                               "built-in ruleset (" + ", ".join(list_builtin()) + ")")
        from ..rules.load import load_ruleset

        return load_ruleset(spec)  # a built-in id (an unknown id: RulesetError listing them)

    def upload(self, name: str, text: str) -> Ruleset:
        """Compile an uploaded ruleset file (cached by its text); raise RulesetError.

        Its ``extends:`` may name a built-in ruleset only: a path would read the server's
        files.
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
            raise RequestError(f"{name}: file is larger than {MAX_BYTES // 1024} KiB; refused", 413)
        data = load(text, shown, problems=[])
        parent = data.get("extends") if hasattr(data, "get") else None
        if isinstance(parent, str) and is_path(parent):
            m = getattr(data, "vmarks", {}).get("extends")
            at = f":{m.line}:{m.column}" if m is not None else ""
            raise RulesetError(f"{shown}{at} extends: '{parent}': an uploaded file may extend a "
                               "built-in ruleset only (" + ", ".join(list_builtin()) + ")")
        rs = replace(compile_ruleset(text, shown), trusted=False)
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
    def get(self, path: str) -> tuple[int, Any]:
        """Answer ``GET path``: ``/api/rules``, ``/api/rules/ID``, ``/api/flags``."""
        try:
            if path == "/api/rules":
                return 200, self.rules_list()
            if path == "/api/flags":
                return 200, [flag_json(f) for f in FLAGS]
            if path.startswith("/api/rules/"):
                rid = path[len("/api/rules/"):]
                if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", rid):
                    raise RequestError(f"no ruleset '{rid[:64]}'", 404)
                if rid not in self.extra and rid not in list_builtin():
                    raise RequestError(f"no ruleset '{rid}'; offered: "
                                       f"{', '.join(r['id'] for r in self.rules_list())}", 404)
                return 200, ruleset_json(self.ruleset(rid, {}))
            raise RequestError(f"no such endpoint: GET {path[:80]}", 404)
        except Exception as e:
            return status_of(e), error_body(e)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        """Answer ``POST path`` with a decoded JSON ``body``."""
        routes: dict[str, Callable[[Any], tuple[int, Any]]] = {
            "/api/score": self.score, "/api/waits": self.waits, "/api/dispute": self.dispute,
            "/api/rules": self.rules_upload}
        handler = routes.get(path)
        if handler is None:
            status = 405 if path in ("/api/flags",) or path.startswith("/api/rules/") else 404
            e = RequestError(f"no such endpoint: POST {path[:80]}", status)
            return e.status, error_body(e)
        return handler(body)

    def rules_upload(self, body: Any) -> tuple[int, Any]:
        """``POST /api/rules`` ``{"name": "my.yaml", "text": "..."}``: check an uploaded file and
        describe it like ``GET /api/rules/ID`` (errors name the file, line and key)."""
        try:
            if not isinstance(body, dict):
                raise RequestError('the body must be a JSON object {"name": ..., "text": ...}')
            name, text = body.get("name", "house.yaml"), body.get("text")
            if not isinstance(name, str) or not UPLOAD_NAME.fullmatch(name):
                raise RequestError("name: a file name of letters, digits, '.', '_', '-'")
            if not isinstance(text, str):
                raise RequestError("text: the ruleset file's text, as a string")
            with self._scoring():
                return 200, ruleset_json(self.upload(name, text))
        except Exception as e:
            return status_of(e), error_body(e)

    def score(self, body: Any) -> tuple[int, Any]:
        """``POST /api/score``: the object of ``mjscore score HAND FLAGS --json``."""
        return self._run(body, "score")

    def waits(self, body: Any) -> tuple[int, Any]:
        """``POST /api/waits``: the object of ``mjscore waits HAND FLAGS --json``."""
        return self._run(body, "waits")

    def dispute(self, body: Any) -> tuple[int, Any]:
        """``POST /api/dispute``: the object of ``mjscore score HAND FLAGS --vs … --json``."""
        return self._run(body, "dispute")

    def _run(self, body: Any, what: str) -> tuple[int, Any]:
        lang = "zh"
        try:
            args, files = self._read(body)
            lang = args.lang
            with self._scoring():
                if what == "waits":
                    return 200, self._waits(args, files)
                if what == "dispute" or args.vs is not None or args.vs_options:
                    if args.vs is None and not args.vs_options:
                        raise ContextError("a dispute needs --vs ID or --vs-option KEY=VALUE in "
                                           "the flags", "--vs")
                    return 200, self._dispute(args, files)
                return 200, self._score(args, files)
        except Exception as e:
            return status_of(e), error_body(e, lang)

    def _scoring(self) -> _Held:
        if not self._lock.acquire(timeout=BUSY_WAIT):
            raise RequestError("the server is busy; try again in a moment", 503)
        return _Held(self._lock)

    def _read(self, body: Any) -> tuple[ScoreArgs, dict[str, str]]:
        """The request's hand and flags, parsed as ``mjscore score`` parses them."""
        if not isinstance(body, dict):
            raise RequestError('the body must be a JSON object {"hand": ..., "flags": [...]}')
        unknown = sorted(set(body) - {"hand", "flags", "files"})
        if unknown:
            raise RequestError(f"unknown key '{unknown[0][:40]}' (the keys are hand, flags, files)")
        hand, flags, files = body.get("hand"), body.get("flags", []), body.get("files", {})
        if not isinstance(hand, str):
            raise RequestError("hand: the hand's notation, as a string (e.g. '123m456p789s234sP9m')")
        if len(hand) > MAX_HAND:
            raise RequestError(f"hand: longer than {MAX_HAND} characters", 413)
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise RequestError('flags: a list of strings, as on the command line, e.g. '
                               '["--rules", "hangzhou", "--self-draw"]')
        if len(flags) > MAX_FLAGS or any(len(f) > MAX_FLAG_TEXT for f in flags):
            raise RequestError(f"flags: at most {MAX_FLAGS}, each under {MAX_FLAG_TEXT} "
                               "characters", 413)
        if not isinstance(files, dict) or len(files) > MAX_FILES or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise RequestError(f'files: at most {MAX_FILES} uploaded rulesets, {{"my.yaml": TEXT}}')
        for name in files:
            if not UPLOAD_NAME.fullmatch(name):
                raise RequestError(f"files: '{name[:64]}' is not a plain file name (letters, "
                                   "digits, '.', '_', '-')")
        # the hand first, as typed on the command line; "--" keeps a hand that starts with
        # '-' from being read as a flag (the parser then names it as a notation error)
        args = parse([*flags, "--", hand] if hand.startswith("-") else [hand, *flags])
        return args, files

    def _score(self, args: ScoreArgs, files: dict[str, str]) -> dict[str, Any]:
        from ..engine.scoring import score as score_hand
        from ..views.explain import explain_json
        from ..views.jsondata import to_json
        from ..views.pieces import refused

        rs = self.ruleset(args.rules, files)
        try:
            result = score_hand(args.hand, rs, args.context)
        except NotAWin as e:
            # as `score --json`: below a minimum the message names the fans found; a refusal
            # on the wait says why (scorer.views.pieces.refused)
            raise refused(e, args.hand, rs, args.context, args.lang)[1] from None
        out = to_json(result, args.lang)
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
            raise ContextError(f"{unused[0]} has no meaning for waits (it belongs to score)",
                               unused[0])
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
