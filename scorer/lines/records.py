"""One line of a hand file scored into its record: a pure function of text.

:func:`score_record` reads a line (a hand and its flags, exactly as on the command line),
scores it and returns the record ``score --json`` prints, or an error record that keeps
the line as typed: it never raises for bad input. It is the unit of work of
:mod:`scorer.lines.pool`, which runs it in this process or in worker processes, and of any
engine that can map a Python function over strings::

    >>> rec = score_record("123m456p789s234sP9m --self-draw", ["--rules", "hangzhou"])
    >>> rec["best"]["score"], rec["payments"]["E"]
    (2, 12)

Not compiled (setup.py): compiled, what a line cost beside its scoring did not change.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.scoring import score
from ..errors import MjscoreError, NotationError
from ..memo import Memo
from ..model.tiles import narrow
from ..rules.files import is_path
from ..rules.load import load_ruleset
from ..rules.model import Ruleset
from ..views.jsondata import error_json, to_json
from ..views.jsontext import BODY, error_record, json_body, jsonl_line
from ..views.rows import record_text, table_rows
from .grammar import ArgvError, ScoreArgs, parse
from .reader import MAX_LINE, LongLine
from .rounds import ROUND, round_record

# the first word of a line that books a penalty or an adjustment (scorer.table.penalty.KINDS)
LEDGER_KINDS = ("penalty", "adjust")

__all__ = ["PLAYERS_FLAG", "RUN_ONLY", "Packed", "Record", "ledger_fields", "players_header",
           "score_record", "seated", "split_line", "typed_hand", "valid_header"]


@dataclass
class Record:
    """The outcome of one input line: ``data`` is the JSON of ``score --json`` plus ``line``;
    ``text`` is the line already rendered in the requested output format (if any)."""

    line: int
    data: dict[str, Any]
    text: str = ""

    @property
    def ok(self) -> bool:
        return "error" not in self.data

    @property
    def error(self) -> str | None:
        err = self.data.get("error")
        return None if err is None else str(err["message"])


def split_line(text: str) -> list[str] | None:
    """Split one line like a shell; None for a blank or comment line.

    >>> split_line("123m456p789s234sP9m --self-draw  # 暴头")
    ['123m456p789s234sP9m', '--self-draw']
    >>> split_line("   # only a comment") is None
    True
    """
    if _PLAIN_LINE.fullmatch(text):
        # no quote, escape or comment, only the whitespace shlex splits on: what shlex
        # would give, without its character-by-character reader
        return text.split() or None
    argv = shlex.split(text, comments=True)
    return argv or None


# A line shlex would split like str.split: printable ASCII without quotes, backslashes
# or '#', separated by spaces and tabs (str.split also splits on \x0b, \x0c, \x1c-\x1f and
# non-ASCII spaces, where shlex does not).
_PLAIN_LINE = re.compile(r"[ \t!$-&(-\[\]-~]*")


# Flags of a batch line that are not flags of `score`: who sat where (a per-line seating).
PLAYERS_FLAG = "--players"
# Flags of the whole batch run, refused on a line (they cannot change from line to line).
RUN_ONLY = ("--stake", "--totals", "--format", "--jobs", "--progress", "--no-progress")
# An argument that may be one of those (or --players): the others are kept as they are
_BATCH_FLAG = re.compile("|".join(re.escape(f) for f in (PLAYERS_FLAG, *RUN_ONLY)))
# A comment line that sets the seating for the lines after it: `# players: E=Ann,S=Bo,...`
PLAYERS_HEADER = "players:"


def players_header(text: str) -> str | None:
    """The seating a ``# players: SPEC`` comment line sets, or None for any other line. A
    Chinese input method's full-width ``＃ players： 甲，乙`` is read as its ASCII
    (:func:`scorer.model.tiles.narrow`).

    >>> players_header("# players: E=Ann,S=Bo,W=Cy,N=Di")
    'E=Ann,S=Bo,W=Cy,N=Di'
    >>> players_header("# players： 甲，乙，丙，丁")
    '甲,乙,丙,丁'
    >>> players_header("# a comment") is None
    True
    """
    body = narrow(text).strip()
    if not body.startswith("#"):
        return None
    body = body[1:].strip()
    if not body.lower().startswith(PLAYERS_HEADER):
        return None
    return body[len(PLAYERS_HEADER):].strip()


def _take_players(argv: list[str], offset: int = 0
                  ) -> tuple[list[str], str | None, Sequence[int]]:
    """``argv`` without its ``--players SPEC`` (the last one given counts), that SPEC, and
    the 1-based place in ``argv`` of each argument kept (to name a mistake's argument as the
    line has it). A mistake's argument is its place plus ``offset``.

    >>> _take_players(["11m", "--players", "Ann,Bo", "--self-draw"])
    (['11m', '--self-draw'], 'Ann,Bo', [1, 4])
    """
    if _BATCH_FLAG.search(" ".join(argv)) is None:
        # (most lines: no argument is --players or a flag of the run, so all are kept; one
        # search of the joined line finds every argument that starts with one, and at worst
        # more, which the loop below looks at one by one)
        return argv, None, range(1, len(argv) + 1)
    out: list[str] = []
    places: list[int] = []
    spec: str | None = None
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out += argv[i:]
            places += range(i + 1, len(argv) + 1)
            break
        name, eq, value = tok.partition("=")
        if name == PLAYERS_FLAG:
            if not eq:
                if i + 1 >= len(argv):
                    raise ArgvError("usage.needs_value", PLAYERS_FLAG, offset + i + 1,
                                    option=PLAYERS_FLAG)
                value = argv[i + 1]
                i += 1
            spec = value
        elif name in RUN_ONLY:
            raise ArgvError("batch.run_only", name, offset + i + 1)
        else:
            out.append(tok)
            places.append(i + 1)
        i += 1
    return out, spec, places


def typed_hand(argv: Sequence[str]) -> str:
    """The hand as the line typed it: its first argument that is not a flag or a flag's value
    (``""`` if there is none). Used for failed lines, whose hand could not be normalised.

    >>> typed_hand(["--rules", "mcr", "123m5p8", "--self-draw"])
    '123m5p8'
    """
    takes_value = _takes_value()
    skip = False
    for tok in argv:
        if skip:
            skip = False
        elif tok.startswith("--"):
            skip = tok in takes_value
        elif not tok.startswith("-") or len(tok) == 1:
            return tok
    return ""


_MEMO_TAKES_VALUE: Memo[Any, frozenset[str]] = Memo(1, "lines.records._takes_value")


def _takes_value() -> frozenset[str]:
    """The flags of a line that take a value (worked out once: every failed line asks)."""
    key = ()
    hit = _MEMO_TAKES_VALUE.get(key)
    if hit is None:
        hit = _MEMO_TAKES_VALUE.put(key, _compute_takes_value())
    return hit


def _compute_takes_value() -> frozenset[str]:
    from .grammar import OPTIONS

    return frozenset({n for f in OPTIONS if not f.switch for n in f.names} | {PLAYERS_FLAG})


def _check_text(text: str) -> None:
    """Refuse a line too long to be read, or one that is not UTF-8 (NotationError at the
    character where it goes wrong); returns None."""
    if isinstance(text, LongLine):  # cut short at reading (read_lines): never read whole
        raise NotationError("line.too_big", MAX_LINE + 1, size=f"{text.size:,}", limit=MAX_LINE)
    if len(text) > MAX_LINE:
        # where it becomes too long, like a long hand
        raise NotationError("line.too_long", MAX_LINE + 1, n=len(text), limit=MAX_LINE)
    bad = None if text.isascii() else next(  # (an ASCII line holds no lone surrogate)
        (i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff"), None)
    if bad is not None:
        raise NotationError("line.not_utf8", bad + 1)


def _header_record(text: str, line: int) -> dict[str, Any] | None:
    """The record of a ``# players:`` line (its seating checked: LedgerError), or None for
    any other line."""
    header = players_header(text) if _hash(text) else None
    if header is None:
        return None
    from ..table.ledger import parse_players

    parse_players(header, "# players")  # a LedgerError names the header and the position
    return {"line": line, "skip": True, "players_header": header}


def _parsed(argv: list[str], lang: str) -> ScoreArgs:
    """A line's arguments (the batch's flags first; ``lang`` the batch's language, for a
    line without ``--lang``); a line left without a ruleset says where to give one
    (ArgvError)."""
    try:
        return parse(argv, lang)
    except ArgvError as e:
        if e.flag == "--rules" and e.code == "usage.missing_option":
            raise ArgvError("batch.no_rules", "--rules") from None
        raise


def score_record(text: str, defaults: Sequence[str] = (), line: int = 0,
                 lang: str = "zh", players: str | None = None, encoded: bool = False,
                 resolve: Callable[[str], Ruleset] | None = None) -> dict[Any, Any]:
    """Score one line (hand + flags); return the JSON record, or ``{"error": ...}``.

    ``defaults`` are flags that apply to every line (given to ``batch`` itself);
    the line's own flags come after them and so override single-valued ones.
    ``players`` is the seating in force for this line (from a ``# players:`` line above
    it); a ``--players`` of the line overrides it, and it overrides one in ``defaults``.
    A record of a hand has ``"kind": "hand"``, one with ``--vs`` is a dispute
    (``"kind": "dispute"``, :func:`scorer.views.dispute.dispute_json` plus the payment
    differences); with a seating, ``"players": {"E": "Ann", ...}``. A blank or comment
    line gives ``{"skip": True}``. Never raises for bad input: every failure becomes an
    error record, which keeps the line as typed (``"input"``, ``"input_hand"``).

    With ``encoded`` (a batch writing JSON lines), the members of a scored hand's result
    (and of a refused win's found hand) come already encoded, as one
    :class:`~scorer.views.jsontext.Body` under the key :data:`~scorer.views.jsontext.BODY`:
    :func:`~scorer.views.jsontext.jsonl_line` writes the record, byte for byte the JSON
    line of the plain one, and :func:`ledger_fields` reads it.

    >>> rec = score_record("123m456p789s234sP9m --self-draw --players Ann,Bo,Cy,Di",
    ...                    ["--rules", "hangzhou"])
    >>> rec["kind"], rec["unit"], rec["players"]["S"], rec["payments"]["S"]
    ('hand', '番', 'Bo', -4)
    """
    rec: dict[Any, Any]
    argv: list[str] | None = None
    base: Sequence[str] = defaults
    places: Sequence[int] = ()
    seating: dict[str, str] | None = None
    try:
        _check_text(text)
        # what a Chinese input method types (＃ ： ， －－from　Ｓ) read as its ASCII: one
        # character for one, so every position in it is the line's as typed
        plain = narrow(text)
        header = _header_record(plain, line)
        if header is not None:
            return header
        try:
            argv = split_line(plain)
        except ValueError:  # an unclosed quote, a backslash at the end (shlex's only two)
            raise NotationError("line.unsplittable") from None
        if argv is None:
            return {"line": line, "skip": True}
        base, spec_default = _defaults(tuple(defaults))
        own, spec_line, places = _take_players(argv, len(base))
        spec = spec_line if spec_line is not None else (
            players if players is not None else spec_default)
        seating = dict(_seating(spec)) if spec is not None else None
        if own and own[0] in (*LEDGER_KINDS, ROUND):  # a penalty, an adjustment, a round
            rec = round_record(own, _base_rules(base), lang) if own[0] == ROUND else \
                _ledger_record(own, base, seating, resolve)
            if seating is not None:
                rec["players"] = seating
            rec["line"] = line
            return rec
        args = _parsed([*base, *own], lang)
        if args.vs is not None or args.vs_options:
            rec = _dispute_record(args, lang, resolve)
        else:
            result = score(args.hand, (resolve or _ruleset)(args.rules), args.context)
            unit = result.ruleset.label("score", lang)
            if encoded:
                rec = {"kind": "hand", BODY: json_body(result, lang), "unit": unit}
            else:
                rec = {"kind": "hand", **to_json(result, lang), "unit": unit}
        if seating is not None:
            rec["players"] = seating
    except MjscoreError as e:
        if encoded:  # (its error member worded and encoded once: views.jsontext)
            rec = error_record(e, lang, exit=True)
        else:
            rec = error_json(e, lang)
            rec["error"]["exit"] = e.exit_code
        argument = getattr(e, "argument", 0) - len(base)
        if argument > 0 and argv is not None:
            # which argument of the line (after the batch's own flags) is wrong, counted
            # as the line has it (with its --players); a plain dict (an encoded member's
            # text would no longer be its JSON)
            rec["error"] = {**rec["error"], "argument": places[argument - 1]
                            if argument <= len(places) else argument}
        rec["kind"] = argv[0] if argv and argv[0] in (*LEDGER_KINDS, ROUND) else "dispute" if (
            argv and any(a.partition("=")[0] in ("--vs", "--vs-option") for a in argv)) else "hand"
        _keep_input(rec, text, argv)
        if rec["kind"] in (*LEDGER_KINDS, ROUND) and argv:  # no hand: the line as typed
            rec["input_hand"] = " ".join(argv)
        if seating is not None:  # who sat at the hand that could not be scored
            rec["players"] = seating
    except Exception as e:  # a bug must not stop the batch: report it on its line
        rec = {"kind": "hand", "error": {"kind": "internal", "message": "internal error: "
                                         f"{type(e).__name__}: {e}", "exit": 70}}
        _keep_input(rec, text, argv)
    rec["line"] = line
    return rec


_MEMO_DEFAULTS: Memo[Any, tuple[tuple[str, ...], str | None]] = Memo(64, "lines.records._defaults")


def _defaults(defaults: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """The batch's own flags without their ``--players``, and that seating: the same for
    every line of a run, so split once.

    >>> _defaults(("--rules", "mcr", "--players", "Ann,Bo"))
    (('--rules', 'mcr'), 'Ann,Bo')
    """
    key = defaults
    hit = _MEMO_DEFAULTS.get(key)
    if hit is None:
        hit = _MEMO_DEFAULTS.put(key, _compute_defaults(defaults))
    return hit


def _compute_defaults(defaults: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    flags, spec, _ = _take_players(list(defaults))
    return tuple(flags), spec


# built-in rulesets by id (a path is never kept: an edited file is seen at once)
_BUILTIN: Memo[str, Ruleset] = Memo(64, "lines.records._ruleset")


def _ruleset(spec: str) -> Ruleset | str:
    """The ruleset a line names: a built-in id is loaded once per process (its file is
    part of the installed program, and looking at it again cost 11 µs a line); a path is
    left to :func:`~scorer.rules.load.load_ruleset`, which sees an edited file at once.

    >>> _ruleset("mcr").id, _ruleset("my.yaml")
    ('mcr', 'my.yaml')
    """
    hit = _BUILTIN.get(spec)
    if hit is not None:
        return hit
    if is_path(spec):
        return spec
    rs = load_ruleset(spec)  # an unknown id raises here, as score() would
    if rs.trusted:
        _BUILTIN.put(spec, rs)
    return rs


_MEMO_SEATING: Memo[Any, tuple[tuple[str, str], ...]] = Memo(256, "lines.records._seating")


def _seating(spec: str) -> tuple[tuple[str, str], ...]:
    """A seating read once per text (a file repeats the same few): its (seat, name) pairs."""
    key = spec
    hit = _MEMO_SEATING.get(key)
    if hit is None:
        hit = _MEMO_SEATING.put(key, _compute_seating(spec))
    return hit


def _compute_seating(spec: str) -> tuple[tuple[str, str], ...]:
    from ..table.ledger import parse_players

    return tuple(parse_players(spec).items())


def _keep_input(rec: dict[Any, Any], text: str, argv: Sequence[str] | None) -> None:
    """A failed line keeps what was typed: the line, and its hand as typed."""
    # a byte that was not UTF-8 (a lone surrogate here) is shown as U+FFFD, so the record
    # stays writable as UTF-8
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    rec["input"] = text[:MAX_LINE]
    plain = narrow(text[:MAX_LINE])
    if argv is None:
        try:
            argv = split_line(plain) or []
        except ValueError:
            argv = plain.split()
    hand = typed_hand(argv)
    at = plain.find(hand) if hand and plain != text[:MAX_LINE] else -1
    # the hand as typed (width forms and all), where the line read it narrowed
    rec["input_hand"] = text[at:at + len(hand)] if at >= 0 else hand


def _base_rules(base: Sequence[str]) -> str | None:
    """The batch's own ``--rules`` (the last one), or None.

    >>> _base_rules(["--rules", "mcr", "--rules=sichuan"]), _base_rules([])
    ('sichuan', None)
    """
    rules = None
    for k, tok in enumerate(base):
        name, eq, value = tok.partition("=")
        if name == "--rules":
            rules = value if eq else (base[k + 1] if k + 1 < len(base) else None)
    return rules


def _ledger_record(argv: list[str], base: Sequence[str], seating: dict[str, str] | None,
                   resolve: Callable[[str], Ruleset] | None = None) -> dict[str, Any]:
    """A ``penalty`` or ``adjust`` line's record (:func:`scorer.table.penalty.ledger_line`),
    with the batch's own ``--rules`` (the last one) for a penalty that gives no amount."""
    from ..table.penalty import ledger_line

    rules = _base_rules(base)

    def load(spec: str) -> Ruleset:
        rs = (resolve or _ruleset)(spec)
        return rs if isinstance(rs, Ruleset) else load_ruleset(rs)

    rec = ledger_line(argv, seating, rules, load)
    rec["input"] = " ".join(argv)
    return rec


def _dispute_record(args: Any, lang: str, resolve: Callable[[str], Ruleset] | None = None
                    ) -> dict[str, Any]:
    """A ``--vs`` line: both sides (as ``score --vs --json``), the rows that differ and each
    seat's payment difference B − A; raises the error when neither side scores."""
    from ..views.dispute import dispute_json
    from .disputes import dispute_of

    d = dispute_of(args) if resolve is None else dispute_of(args, resolve)
    rec: dict[str, Any] = {"kind": "dispute", **dispute_json(d, lang)}
    # each side's unit beside the sides, which stay exactly what `score --vs --json` prints
    rec["units"] = {k: side.ruleset.label("score", lang) for k, side in (("a", d.a), ("b", d.b))
                    if side.ruleset is not None}
    pa, pb = rec["a"].get("payments"), rec["b"].get("payments")
    if "error" not in rec["a"] and "error" not in rec["b"] and pa and pb:
        rec["payment_differences"] = {s: pb.get(s, 0) - pa.get(s, 0)
                                      for s in ("E", "S", "W", "N") if s in pa or s in pb}
    rec["ruleset"] = rec["a"].get("ruleset", d.a.spec)
    rec["hand"] = rec["a"].get("hand", rec["b"].get("hand", args.hand))
    return rec


def seated(lines: Iterable[tuple[int, str]], players: str | None = None
           ) -> Iterator[tuple[int, str, str | None]]:
    """Each numbered line with the seating a ``# players:`` line above it set (or
    ``players``, the starting one): ``(number, text, seating)``. Reads nothing but the
    comment lines, so it is cheap to run in the process that reads the file.

    >>> list(seated([(1, "# players: Ann,Bo,Cy,Di"), (2, "11m --rules mcr")]))
    [(1, '# players: Ann,Bo,Cy,Di', None), (2, '11m --rules mcr', 'Ann,Bo,Cy,Di')]
    """
    current = players
    for n, text in lines:
        spec = valid_header(text)
        yield n, text, current
        if spec is not None:
            current = spec


def valid_header(text: str) -> str | None:
    """The seating a ``# players:`` line sets for the lines after it: its SPEC when the
    seating is valid, else None (any other line; a seating that does not read, which that
    line's own record reports, leaves the one in force).

    >>> valid_header("# players: Ann,Bo,Cy,Di"), valid_header("# players: Ann,Ann")
    ('Ann,Bo,Cy,Di', None)
    """
    spec = players_header(text) if _hash(text) else None
    if spec is None:
        return None
    from ..table.ledger import LedgerError, parse_players

    try:
        parse_players(spec)
    except LedgerError:
        return None
    return spec


def _hash(text: str) -> bool:
    """Whether a line may be a ``#`` comment (``＃`` typed full width too): a header's cheap test.

    >>> _hash("＃ players： 甲，乙"), _hash("11m --rules mcr")
    (True, False)
    """
    return "#" in text or "＃" in text


def ledger_fields(rec: Mapping[Any, Any]) -> dict[str, Any]:
    """What the ledger reads of a record (payments, winner, players; for a dispute the same
    of each side), so a worker process can send back little more than its rendered text.
    An encoded record's (``score_record(..., encoded=True)``) are its Body's ``fields``.

    >>> ledger_fields({"line": 2, "payments": {"E": 2, "S": -2}, "best": {}, "winner": "E"})
    {'line': 2, 'payments': {'E': 2, 'S': -2}, 'winner': 'E'}
    """
    body = rec.get(BODY)
    if body is not None:
        rec = {**rec, **body.fields}
    keep = ("line", "error", "payments", "winner", "players", "skip", "kind", "penalty")
    out = {k: rec[k] for k in keep if k in rec}
    err = out.get("error")
    if err is not None and type(err) is not dict:  # (an encoded member: a plain dict to send)
        out["error"] = dict(err)
    for side in ("a", "b"):
        if isinstance(rec.get(side), Mapping):
            out[side] = {k: rec[side][k] for k in ("error", "payments", "winner", "players")
                         if k in rec[side]}
    return out


def _score_chunk(chunk: list[tuple[int, str, str | None]], defaults: Sequence[str], lang: str,
                 fmt: str | None = None) -> list[Record]:
    """Score and (in the worker, where it runs in parallel) render a chunk of lines."""
    out = []
    encoded = fmt == "jsonl"  # written here: no record of it is needed but the text
    for n, text, players in chunk:
        rec = score_record(text, defaults, n, lang, players, encoded)
        if rec.get("skip"):
            continue
        r = Record(n, rec)
        if encoded:
            r.text = jsonl_line(rec)
        elif fmt == "csv":
            r.text = record_text(rec, fmt, lang)
        if fmt is not None:
            # keep only what the parent needs: what the ledger reads, and a table's rows
            r.data = ledger_fields(rec)
            if fmt == "table":
                r.data["rows"] = table_rows(rec, lang)
        out.append(r)
    return out


# A chunk's records as a worker sends them: the line numbers, data and texts as three lists
# (a list of Record objects pickles each one's class and field dict: a third more time)
Packed = tuple[list[int], list[dict[str, Any]], list[str]]


def _score_packed(chunk: list[tuple[int, str, str | None]], defaults: Sequence[str], lang: str,
                  fmt: str | None = None) -> Packed:
    """:func:`_score_chunk`'s records, packed to be sent to the parent (:func:`_unpacked`)."""
    recs = _score_chunk(chunk, defaults, lang, fmt)
    return [r.line for r in recs], [r.data for r in recs], [r.text for r in recs]


def _unpacked(packed: Packed) -> Iterator[Record]:
    """The records of a packed chunk, in order.

    >>> [(r.line, r.ok) for r in _unpacked(_score_packed([(1, "# a comment", None),
    ...                                                    (2, "11m --rules mcr", None)], [],
    ...                                                   "en", "jsonl"))]
    [(2, False)]
    """
    return map(Record, *packed)
