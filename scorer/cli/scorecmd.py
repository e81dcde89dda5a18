"""``mjscore score HAND [flags]``: score one hand and show why.

:func:`run` takes the parsed command line (:class:`scorer.lines.grammar.ScoreArgs`) and prints the
report, the JSON or the dispute. It imports no typer: :func:`scorer.cli.entry.main` calls
it straight from :func:`scorer.lines.grammar.parse` when the command line is a well-formed
``score``, and the typer command calls it with what typer parsed.
"""

from __future__ import annotations

from ..lines.grammar import ScoreArgs
from .output import dumps


def run(args: ScoreArgs) -> None:
    """Print the result of ``args`` (report, JSON or dispute); raise MjscoreError if refused.

    Returns nothing: the text goes to stdout. A hand that does not win raises
    :class:`scorer.errors.NotAWin` after printing what the report says of it.
    """
    if args.vs is not None or args.vs_options:
        dispute(args)
        return
    from ..engine.scoring import score as score_hand
    from ..errors import NotAWin
    from ..views.explain import explain_json
    from ..views.jsondata import score_json
    from ..views.pieces import refused
    from ..views.report import human

    try:
        result = score_hand(args.hand, args.rules, args.context)
    except NotAWin as e:
        # below a minimum the message names the fans found; a refusal on the wait, why
        text, err = refused(e, args.hand, args.rules, args.context, args.lang)
        if text and not args.as_json:
            print(text)
        raise err from None
    if not args.as_json:
        print(human(result, lang=args.lang, explain=args.explain, unicode=args.unicode,
                    top=args.explain_top))
        return
    out = score_json(result, args.lang)
    if args.explain:
        out["explain"] = explain_json(result, args.lang)
    print(dumps(out))


def dispute(args: ScoreArgs) -> None:
    """Score under both sides and print the comparison (exit 0 if at least one side scored)."""
    from ..lines.disputes import dispute_of
    from ..views.dispute import dispute_json, dispute_text

    d, lang = dispute_of(args), args.lang
    if args.as_json:
        import json

        print(json.dumps(dispute_json(d, lang), ensure_ascii=False))
    else:
        print(dispute_text(d, lang))
