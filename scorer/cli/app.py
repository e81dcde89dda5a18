"""The ``mjscore`` command: a thin layer over the library.

Each command parses its flags, calls one library function and renders the
result with :mod:`scorer.views.report`. Every error is one line on stderr with a
documented exit status (never a traceback):

* 0 — scored
* 1 — ``batch``: at least one line failed
* 2 — bad input: hand notation, impossible hand, bad flag, bad ruleset
* 3 — the hand is not a legal win (the message says why)
* 70 — an internal error (a bug: please report it with the hand)
* 141 — the output pipe was closed by its reader (``mjscore ... | head``)
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from typing import NoReturn

import typer

from ..engine.context import Context

app = typer.Typer(
    name="mjscore",
    help="Score Chinese mahjong hands: Hangzhou, Jinhua, Xiamen and Chinese Official (MCR).",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EXIT_INTERNAL = 70


def one_line(text: str) -> str:
    r"""Make a message one printable line: line breaks and control characters are escaped.

    Messages echo what the user typed (``--option cap=...``, a ruleset's ``message:``), so
    a newline or a terminal escape sequence in it must not break the one-line contract.

    >>> one_line("bad\nvalue\x1b[31m")
    'bad\\nvalue\\x1b[31m'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def dumps(obj: object) -> str:
    """JSON text for stdout: UTF-8 when stdout can take it, else \\uXXXX escapes (valid JSON).

    >>> dumps({"name": "自摸"}) in ('{"name": "自摸"}', '{"name": "\\\\u81ea\\\\u6478"}')
    True
    """
    try:
        "自摸×🀄".encode(sys.stdout.encoding or "utf-8")
        utf8 = True
    except (UnicodeEncodeError, LookupError):
        utf8 = False
    return json.dumps(obj, ensure_ascii=not utf8)


def _fail(e: Exception, as_json: bool = False, lang: str = "zh") -> NoReturn:
    from ..errors import MjscoreError
    from ..views.report import error_json

    if isinstance(e, BrokenPipeError):
        _pipe_closed()
    if isinstance(e, MjscoreError):
        if as_json:
            out = error_json(e, lang)
            out["error"]["message"] = one_line(out["error"]["message"])
            print(dumps(out))
        print(f"mjscore: {one_line(e.message)}", file=sys.stderr)
        raise SystemExit(e.exit_code)
    if as_json:
        print(dumps({"error": {"kind": "internal", "message": one_line(repr(e))}}))
    print(f"mjscore: internal error: {type(e).__name__}: {one_line(str(e))} "
          "(please report this hand)", file=sys.stderr)
    raise SystemExit(EXIT_INTERNAL)


def _pipe_closed() -> NoReturn:
    """The reader went away (`mjscore ... | head`): stop quietly, as Unix tools do."""
    with contextlib.suppress(OSError, ValueError):  # (no real stdout under tests)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise SystemExit(141)


def _options(values: list[str] | None) -> tuple[tuple[str, str], ...]:
    from ..errors import ContextError

    out = []
    for v in values or []:
        if "=" not in v:
            raise ContextError(f"--option {v}: write KEY=VALUE (e.g. cap=128)", "--option")
        k, _, val = v.partition("=")
        out.append((k.strip(), val.strip()))
    return tuple(out)


def build_context(*, self_draw: bool = False, from_: str | None = None, seat: str = "E",
                  round_: str = "E", wild: str | None = None, dealer_streak: int | None = None,
                  kong_draw: bool = False, kongs: int | None = None, robbing_kong: bool = False,
                  last_tile: bool = False, fourth_tile: bool = False, piao: int | None = None,
                  you: int | None = None, ready_at_deal: bool = False, heavenly: bool = False,
                  earthly: bool = False, human: bool = False, flowers: str | None = None,
                  chengbao: list[str] | None = None, base: int | None = None,
                  option: list[str] | None = None, after_kong: bool = False,
                  out: str | list[str] | None = None) -> Context:
    """The Context for the score flags (shared by ``score`` and ``batch``)."""
    return Context(
        self_draw=self_draw, discarder=from_, seat=seat, round=round_, wild=wild,
        dealer_streak=dealer_streak, kong_draw=kong_draw, kongs=kongs,
        robbing_kong=robbing_kong, last_tile=last_tile, fourth_tile=fourth_tile, piao=piao,
        you=you, ready_at_deal=ready_at_deal, heavenly=heavenly, earthly=earthly, human=human,
        flowers=flowers, chengbao=tuple(chengbao or ()), base=base, options=_options(option),
        after_kong=after_kong,
        out=tuple(c for c in "".join(out or ()) if c not in ", "),
    )


@app.command()
def score(
    hand: str = typer.Argument(..., help="The hand, e.g. '[EEE][123m]55p789s23p4p' "
                               "(the last tile is the winning tile)."),
    rules: str = typer.Option(..., "--rules", help="Ruleset: hangzhou, jinhua, xiamen, mcr, "
                              "or a path to a YAML file."),
    self_draw: bool = typer.Option(False, "--self-draw", help="The winning tile was self-drawn."),
    from_: str | None = typer.Option(None, "--from", help="Seat that discarded the winning "
                                     "tile (E S W N)."),
    seat: str = typer.Option("E", "--seat", help="The winner's seat; E is the dealer."),
    round_: str = typer.Option("E", "--round", help="Prevalent wind."),
    wild: str | None = typer.Option(None, "--wild", help="Wildcard face (财神 / 金), e.g. 3m."),
    dealer_streak: int | None = typer.Option(None, "--dealer-streak",
                                             help="老庄 / 连庄 count."),
    kong_draw: bool = typer.Option(False, "--kong-draw", help="Won on a kong replacement."),
    kongs: int | None = typer.Option(None, "--kongs", help="Consecutive kongs before the win."),
    robbing_kong: bool = typer.Option(False, "--robbing-kong", help="Won by robbing a kong."),
    last_tile: bool = typer.Option(False, "--last-tile", help="Won on the last tile."),
    fourth_tile: bool = typer.Option(False, "--fourth-tile", help="和绝张: the last copy."),
    piao: int | None = typer.Option(None, "--piao", help="财飘: consecutive wildcard discards."),
    you: int | None = typer.Option(None, "--you", help="游金 level: 1, 2 (双游), 3 (三游)."),
    ready_at_deal: bool = typer.Option(False, "--ready-at-deal", help="天听."),
    heavenly: bool = typer.Option(False, "--heavenly", help="天胡 / 三金倒 at the deal."),
    earthly: bool = typer.Option(False, "--earthly", help="地胡."),
    human: bool = typer.Option(False, "--human", help="人胡."),
    flowers: str | None = typer.Option(None, "--flowers", help="A count 0-8, or which: "
                                       "1258f / 春夏梅."),
    chengbao: list[str] | None = typer.Option(None, "--chengbao", help="A:B — A made three "
                                              "摊 off B (repeatable)."),
    base: int | None = typer.Option(None, "--base", help="底分 / 底注."),
    option: list[str] | None = typer.Option(None, "--option", help="Ruleset option "
                                            "KEY=VALUE (repeatable), e.g. cap=128."),
    after_kong: bool = typer.Option(False, "--after-kong", help="杠上炮: won on the discard "
                                    "after the discarder's own kong."),
    out_seats: list[str] | None = typer.Option(None, "--out", help="Seats already out of "
                                         "the round (血战到底), e.g. S,W."),
    vs: str | None = typer.Option(None, "--vs", help="Dispute mode: also score under this "
                                  "ruleset (id or path) and show where the results differ."),
    vs_option: list[str] | None = typer.Option(None, "--vs-option", help="Dispute mode: "
                                               "option KEY=VALUE for the --vs side (without "
                                               "--vs: the same ruleset with this option)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    explain: bool = typer.Option(False, "--explain", help="List every reading considered."),
    lang: str = typer.Option("zh", "--lang", help="Pattern names: zh or en."),
    no_unicode: bool = typer.Option(False, "--no-unicode", help="Do not print Unicode tiles."),
) -> None:
    """Score one hand and show why: reading, wildcards, patterns, chain, payments."""
    try:
        from ..engine.scoring import score as score_hand
        from ..errors import ContextError
        from ..views.report import human as render_human
        from ..views.report import to_json

        if lang not in ("zh", "en"):
            raise ContextError(f"--lang {lang}: use zh or en", "--lang")
        ctx = build_context(
            self_draw=self_draw, from_=from_, seat=seat, round_=round_, wild=wild,
            dealer_streak=dealer_streak, kong_draw=kong_draw, kongs=kongs,
            robbing_kong=robbing_kong, last_tile=last_tile, fourth_tile=fourth_tile, piao=piao,
            you=you, ready_at_deal=ready_at_deal, heavenly=heavenly, earthly=earthly,
            human=human, flowers=flowers, chengbao=chengbao, base=base, option=option,
            after_kong=after_kong, out=out_seats)
        if vs is not None or vs_option:
            if explain:
                raise ContextError("--explain does not combine with --vs / --vs-option",
                                   "--explain")
            _dispute(hand, rules, ctx, vs, _options(vs_option), as_json, lang)
            return
        result = score_hand(hand, rules, ctx)
        if as_json:
            out = to_json(result, lang)
            if explain:
                from ..views.report import explain_json
                out["explain"] = explain_json(result, lang)
            print(dumps(out))
        else:
            print(render_human(result, lang=lang, explain=explain, unicode=not no_unicode))
    except SystemExit:
        raise
    except Exception as e:  # every error becomes one line and an exit status
        _fail(e, as_json, lang)


def _dispute(hand: str, rules: str, ctx: Context, vs: str | None,
             vs_options: tuple[tuple[str, str], ...], as_json: bool, lang: str) -> None:
    """Score under both sides and print the comparison (exit 0 if at least one side scored)."""
    from ..dispute import dispute, dispute_json, dispute_text, vs_context
    from ..errors import MjscoreError
    from ..rules.ruleset import load_ruleset

    rs_a = load_ruleset(rules)
    rs_b = load_ruleset(vs) if vs is not None else rs_a
    d = dispute(hand, rs_a, ctx, rs_b, vs_context(ctx, rs_a, rs_b, vs_options))
    d.a.spec, d.b.spec = rules, vs if vs is not None else rules
    if d.a.error is not None and d.b.error is not None:
        ea, eb = d.a.error, d.b.error
        if ea.message == eb.message:
            raise ea
        err = MjscoreError(f"A ({d.a.spec}): {ea.message}; B ({d.b.spec}): {eb.message}")
        err.exit_code = 2 if 2 in (ea.exit_code, eb.exit_code) else ea.exit_code
        err.kind = ea.kind if ea.kind == eb.kind else "error"
        raise err
    if as_json:
        print(json.dumps(dispute_json(d, lang), ensure_ascii=False))
    else:
        print(dispute_text(d, lang))


@app.command()
def rules(
    ruleset: str | None = typer.Argument(None, help="A ruleset id or path to show; omit to "
                                         "list them; 'check FILE...' to validate files; "
                                         "'new FILE --from ID' to start a house-rule file."),
    files: list[str] | None = typer.Argument(None, help="With 'check': the YAML files; with "
                                             "'new': the file to write."),
    rules_opt: str | None = typer.Option(None, "--rules", help="The ruleset to show (id or "
                                         "path), instead of the argument."),
    option: list[str] | None = typer.Option(None, "--option", help="Show the ruleset with "
                                            "this option value as its default, KEY=VALUE "
                                            "(repeatable)."),
    as_yaml: bool = typer.Option(False, "--yaml", help="Print the full YAML (a file that "
                                 "extends another: resolved, inherited parts marked)."),
    resolved: bool = typer.Option(False, "--resolved", help="With --yaml: resolve even a "
                                  "file that extends nothing (no comments kept)."),
    as_markdown: bool = typer.Option(False, "--markdown", help="Print a readable rules page "
                                     "(Markdown)."),
    from_: str | None = typer.Option(None, "--from", help="With 'new': the ruleset to extend "
                                     "(id or path)."),
    force: bool = typer.Option(False, "--force", help="With 'new': overwrite FILE."),
    facts: bool = typer.Option(False, "--facts", help="List what conditions and values can "
                               "use: facts, attributes, functions (Markdown)."),
    lang: str = typer.Option("zh", "--lang", help="Names: zh or en."),
) -> None:
    """List the rulesets, show one (--yaml, --markdown), 'check FILE...', or 'new FILE --from ID'."""
    try:
        from ..errors import ContextError

        if ruleset == "check":
            if rules_opt or as_yaml or as_markdown or from_ or option:
                raise ContextError("rules check takes only files: mjscore rules check FILE...")
            raise SystemExit(_rules_check(files or []))
        if ruleset == "new":
            if not files or len(files) != 1:
                raise ContextError("rules new needs one file to write: mjscore rules new "
                                   "my.yaml --from hangzhou")
            parent = from_ or rules_opt
            if parent is None:
                raise ContextError("rules new needs --from ID (the ruleset to extend, a "
                                   "built-in id or a path)")
            _rules_new(files[0], parent, _options(option), force)
            return
        if from_ or force:
            raise ContextError("--from and --force belong to 'mjscore rules new FILE --from ID'")
        if files:
            raise ContextError(f"unexpected argument(s) after the ruleset: {' '.join(files)}")
        if ruleset and rules_opt and ruleset != rules_opt:
            raise ContextError(f"two rulesets given: {ruleset} and --rules {rules_opt}")
        spec = ruleset or rules_opt
        if facts:
            if spec or as_yaml or as_markdown or option:
                raise ContextError("--facts takes no ruleset: mjscore rules --facts")
            from ..views.rulesview import facts_markdown

            print(facts_markdown(), end="")
            return
        if as_yaml and as_markdown:
            raise ContextError("--yaml and --markdown: choose one")
        from ..views.rulesview import list_text, markdown, show_text, with_options, yaml_text

        if spec is None:
            if as_yaml or as_markdown or option:
                raise ContextError("--yaml, --markdown and --option need a ruleset: "
                                   "mjscore rules ID --markdown")
            print(list_text())
            return
        from ..rules.ruleset import load_ruleset

        rs = with_options(load_ruleset(spec), _options(option))
        if as_yaml:
            print(yaml_text(rs, resolved=resolved or bool(option)), end="")
        elif as_markdown:
            print(markdown(rs), end="")
        else:
            print(show_text(rs, lang))
    except SystemExit:
        raise
    except Exception as e:
        _fail(e)


def _rules_new(target: str, parent: str, pairs: tuple[tuple[str, str], ...],
               force: bool) -> None:
    """Write a starter house-rule file that extends ``parent``; it must load as written."""
    import os
    from pathlib import Path

    from ..errors import ContextError
    from ..rules.ruleset import _is_path, compile_ruleset, load_ruleset
    from ..views.rulesview import starter

    out = Path(target)
    if not target.endswith((".yaml", ".yml")):
        raise ContextError(f"rules new {target}: the file name must end in .yaml")
    if out.exists() and not force:
        raise ContextError(f"rules new {target}: the file exists; choose another name or add "
                           "--force to overwrite it")
    rs = load_ruleset(parent)
    spec = parent
    if _is_path(parent):
        # extends: is relative to the new file's folder
        spec = os.path.relpath(Path(parent).resolve(), out.resolve().parent).replace(os.sep, "/")
    text = starter(rs, target, spec, pairs)
    compile_ruleset(text, str(out))  # never write a file that does not load
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise ContextError(f"rules new {target}: cannot write: {e.strerror}") from None
    print(f"wrote {target}: extends {spec}. Edit it, then: mjscore rules check {target}")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def batch(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A file with one hand and its flags per line, or - "
                               "for standard input."),
    fmt: str = typer.Option("jsonl", "--format", help="jsonl, csv or table."),
    jobs: int | None = typer.Option(None, "--jobs", help="Processes (default: all cores for "
                                    "large files)."),
    progress: bool | None = typer.Option(None, "--progress/--no-progress",
                                         help="Progress on stderr (default: when it is a "
                                         "terminal and the file is large)."),
    lang: str = typer.Option("zh", "--lang", help="Pattern names: zh or en."),
) -> None:
    """Score many hands. Other flags (--rules, --option, ...) apply to every line; a line's
    own flags override them. Exit 1 if any line failed."""
    try:
        raise SystemExit(_batch(file, fmt, jobs, progress, lang, list(ctx.args)))
    except SystemExit:
        raise
    except Exception as e:
        _fail(e)


def _batch(file: str, fmt: str, jobs: int | None, progress: bool | None, lang: str,
           defaults: list[str]) -> int:
    import os
    import time

    from ..batch import csv_row, csv_text, read_lines, score_many
    from ..errors import ContextError

    if fmt not in ("jsonl", "csv", "table"):
        raise ContextError(f"--format {fmt}: use jsonl, csv or table", "--format")
    if jobs is not None and not 1 <= jobs <= 256:
        raise ContextError(f"--jobs {jobs}: use 1 to 256", "--jobs")
    # The flags given to batch itself must parse as score flags (checked once, up front).
    probe = parse_score_args(["1m", *defaults])
    if any(not a.startswith("-") for a in defaults) and probe.get("hand") != "1m":
        raise ContextError("batch takes the hands from the file; other arguments must be flags")
    if file == "-":
        stream = sys.stdin.buffer
        size = None
    else:
        try:
            stream = open(file, "rb")  # noqa: SIM115 - closed below
        except OSError as e:
            raise ContextError(f"cannot read {file}: {e.strerror}") from None
        size = os.fstat(stream.fileno()).st_size
    if jobs is None:
        # a process pool costs ~0.1 s to start: only worth it for a large file
        jobs = (os.cpu_count() or 1) if size is None or size > 64 * 1024 else 1
    show = progress if progress is not None else (sys.stderr.isatty() and (size or 0) > 1 << 20)
    out = sys.stdout
    failed = total = 0
    start = last = time.perf_counter()
    table_rows: list[list[object]] = []
    if fmt == "csv":
        from ..batch import CSV_FIELDS
        out.write(csv_text(CSV_FIELDS))
    try:
        for rec in score_many(read_lines(stream), defaults, jobs=jobs, lang=lang, fmt=fmt):
            total += 1
            if not rec.ok:
                failed += 1
                print(f"line {rec.line}: {rec.error}", file=sys.stderr)
            if fmt != "table":
                out.write(rec.text)
            else:
                table_rows.append(csv_row(rec))
                if len(table_rows) >= 1000:
                    _table_block(table_rows)
            if show and time.perf_counter() - last > 0.25:
                last = time.perf_counter()
                rate = total / max(last - start, 1e-9)
                print(f"\r{total:,} lines, {failed:,} failed, {rate:,.0f} hands/s",
                      end="", file=sys.stderr, flush=True)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if table_rows:
        _table_block(table_rows)
    out.flush()
    elapsed = max(time.perf_counter() - start, 1e-9)
    if show:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    print(f"mjscore batch: {total:,} lines, {failed:,} failed, {total / elapsed:,.0f} hands/s "
          f"({jobs} job{'s' if jobs != 1 else ''})", file=sys.stderr)
    return 1 if failed else 0


def _table_block(rows: list[list[object]]) -> None:
    from tabulate import tabulate

    from ..batch import CSV_FIELDS

    print(tabulate(rows, headers=CSV_FIELDS, tablefmt="simple"))
    rows.clear()


def _rules_check(files: list[str]) -> int:
    """Validate ruleset files and print every problem; exit status 0 if all are valid, else 2."""
    from ..errors import ContextError, RulesetError
    from ..rules.ruleset import _locate, compile_ruleset

    if not files:
        raise ContextError("rules check needs at least one ruleset file")
    status = 0
    for f in files:
        try:
            path, text = _locate(f, None, [])
            rs = compile_ruleset(text, str(path))
        except RulesetError as e:
            status = 2
            for p in e.problems:
                print(str(p))
            print(f"{f}: {len(e.problems)} problem(s)", file=sys.stderr)
            continue
        print(f"{f}: ok — {rs.id} ({rs.name_en}), {len(rs.patterns)} patterns")
    return status


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app, turning usage errors into one line and exit 2."""
    args = sys.argv[1:] if argv is None else argv
    for stream in (sys.stdout, sys.stderr):
        # a terminal or pipe that cannot show Chinese (LANG=C, PYTHONIOENCODING=ascii) gets
        # \uXXXX escapes instead of a UnicodeEncodeError
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    # A short-lived process that allocates many small objects: collect garbage less often,
    # and never rescan what was loaded at start-up (the compiled rulesets, the modules).
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    try:
        app(args=args, prog_name="mjscore", standalone_mode=False)
        sys.stdout.flush()  # so a closed pipe is noticed here, not at interpreter exit
    except BrokenPipeError:
        _pipe_closed()
    except typer.Exit as e:
        raise SystemExit(e.exit_code) from None
    except typer.Abort:
        print("mjscore: aborted", file=sys.stderr)
        raise SystemExit(130) from None
    except typer.TyperException as e:  # usage errors of the vendored click
        if type(e).__name__ == "NoArgsIsHelpError":
            ctx = getattr(e, "ctx", None)
            print(ctx.get_help() if ctx is not None else "mjscore --help")
            raise SystemExit(0) from None
        fmt = getattr(e, "format_message", None)
        msg = (fmt() if callable(fmt) else str(e)).replace("\n", " ")
        ctx = getattr(e, "ctx", None)
        where = f" (mjscore {ctx.info_name} --help)" if ctx is not None and ctx.info_name and \
            ctx.info_name != "mjscore" else " (mjscore --help)"
        if args and args[0] == "score" and "--json" in args:
            # a script that asked for JSON gets the error as JSON, like any other error
            print(dumps({"error": {"kind": "usage", "message": one_line(msg)}}))
        print(f"mjscore: {one_line(msg)}{where}", file=sys.stderr)
        raise SystemExit(2) from None
    except SystemExit:
        raise
    except Exception as e:  # pragma: no cover - last line of defence
        _fail(e)




_SCORE_CMD = None


def parse_score_args(argv: list[str]) -> dict[str, object]:
    """Parse ``HAND --flag ...`` exactly as ``mjscore score`` would; return its parameters.

    Raises :class:`~scorer.errors.ContextError` with click's one-line message on a bad flag.

    >>> p = parse_score_args(["123m456p789s234sPP", "--rules", "hangzhou", "--self-draw"])
    >>> p["hand"], p["rules"], p["self_draw"]
    ('123m456p789s234sPP', 'hangzhou', True)
    """
    # Lines of a batch file share their flags: parse each distinct flag set once. The key
    # is the argv with the hand replaced by a placeholder, so the result is exactly what
    # click gives for this argv.
    for i, tok in enumerate(argv):
        if tok.startswith("-"):
            continue
        key = (*argv[:i], _HAND, *argv[i + 1:])
        cached = _PARSED.get(key)
        if cached is not None:
            return {**cached, "hand": tok}
    params = _parse_score_args(argv)
    hand = params.get("hand")
    if isinstance(hand, str) and argv.count(hand) == 1 and len(_PARSED) < 4096:
        i = argv.index(hand)
        key = (*argv[:i], _HAND, *argv[i + 1:])
        _PARSED[key] = params
    return params


_HAND = "\x00hand"
_PARSED: dict[tuple[str, ...], dict[str, object]] = {}


def _parse_score_args(argv: list[str]) -> dict[str, object]:
    global _SCORE_CMD
    from ..errors import ContextError

    if _SCORE_CMD is None:
        group = typer.main.get_command(app)
        _SCORE_CMD = group.commands["score"]  # type: ignore[attr-defined]
    try:
        ctx = _SCORE_CMD.make_context("score", list(argv), resilient_parsing=False)
    except typer.TyperException as e:
        fmt = getattr(e, "format_message", None)
        raise ContextError((fmt() if callable(fmt) else str(e)).replace("\n", " ")) from None
    return dict(ctx.params)


def context_from_params(p: dict[str, object]) -> Context:
    """Build the Context from parsed score parameters."""
    keys = ("self_draw", "from_", "seat", "round_", "wild", "dealer_streak", "kong_draw",
            "kongs", "robbing_kong", "last_tile", "fourth_tile", "piao", "you", "ready_at_deal",
            "heavenly", "earthly", "human", "flowers", "chengbao", "base", "option",
            "after_kong")
    return build_context(**{k: p[k] for k in keys if k in p},  # type: ignore[arg-type]
                         out=p.get("out_seats"))  # type: ignore[arg-type]


from .roundcmd import round_cmd  # noqa: E402  (the round command lives in its own file)

app.command("round")(round_cmd)
