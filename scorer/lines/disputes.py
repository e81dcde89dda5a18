"""The dispute a command line asks for: ``score HAND --rules A --vs B`` (or
``--vs-option``), a batch ``--vs`` line, the page's ``POST /api/dispute``.

The two sides are scored and compared by :func:`scorer.table.dispute.dispute`; this module
reads them from the parsed line (:class:`~scorer.lines.grammar.ScoreArgs`), and the views
word the result (:mod:`scorer.views.dispute`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.context import parse_options
from ..errors import ContextError
from ..rules.load import load_ruleset
from ..rules.model import Ruleset
from ..table.dispute import Dispute, dispute, vs_context
from .grammar import ScoreArgs

__all__ = ["dispute_of"]


def dispute_of(args: ScoreArgs, load: Callable[[str], Ruleset] = load_ruleset) -> Dispute:
    """The dispute that ``score HAND --rules A --vs B`` (or ``--vs-option``) asks for.

    Returns the :class:`Dispute` with each side's ``spec`` as written; raises when neither
    side scored (:meth:`Dispute.raise_if_both_failed`), when ``--explain`` is given, and for
    a bad ``--vs-option`` (naming that flag). ``load`` turns a ``--rules``/``--vs`` value into
    a ruleset: :func:`load_ruleset` for the CLI and batch, the server's own for uploads.
    ``score --vs``, a batch ``--vs`` line and ``POST /api/score`` all come here.

    >>> from scorer.lines.grammar import parse
    >>> d = dispute_of(parse(["1111m2222m3333p55s", "--rules", "hangzhou", "--self-draw",
    ...                       "--vs-option", "cap=64", "--dealer-streak", "3"]))
    >>> d.a.spec, d.b.spec, d.b.result.payments["E"] if d.b.result else None
    ('hangzhou', 'hangzhou', 192)
    """
    if args.explain:
        raise ContextError("vs.no_explain", "--explain")
    rs_a = load(args.rules)
    rs_b = load(args.vs) if args.vs is not None else rs_a
    parse_options(rs_b, args.vs_options, "--vs-option")  # its mistakes name --vs-option
    d = dispute(args.hand, rs_a, args.context, rs_b,
                vs_context(args.context, rs_a, rs_b, args.vs_options))
    d.a.spec, d.b.spec = args.rules, args.vs if args.vs is not None else args.rules
    d.raise_if_both_failed()
    return d
