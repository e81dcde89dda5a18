"""What scoring a hand gives: the patterns a reading meets (:class:`Hit`), a reading scored
(:class:`Scored`), the outcome of the hand (:class:`Result`) and, for a refusal by a check
that reads the wait, the data the views word it from (:class:`Refusal`).

>>> from scorer.engine.scoring import score
>>> r = score("123m456p789s234sPP", "hangzhou")
>>> isinstance(r, Result), isinstance(r.best, Scored), r.winner
(True, True, 'E')
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..model.hand import Hand
from ..record import dataclass
from ..rules.env import Env
from ..rules.model import Pattern, Ruleset
from ..search.readings import Reading
from .context import Table
from .fields import (
    PaymentChain,
    TileSet,
    WildcardReading,
    decomposition_of,
    payment_chain_of,
    wildcards_of,
)
from .payments import Settlement


@dataclass
class Hit:
    """A pattern that applies to a reading, with its value and how many times it counts."""

    pattern: Pattern
    value: int
    count: int
    replaced_by: str | None = None
    items: tuple[Any, ...] = ()  # what the pattern counted, for patterns with ``each``


@dataclass
class Scored:
    """One reading of the hand, scored: patterns, tallies, headline number and payments."""

    reading: Reading
    hits: list[Hit]
    replaced: list[Hit]
    tallies: dict[str, int]
    score: int
    settlement: Settlement
    env: Env
    wild_substituted: int
    # values added to other tallies by ``also:`` of the patterns used: (tally, pattern, value)
    also: list[tuple[str, Pattern, int]] = field(default_factory=list)
    tie: int = 0  # rank among readings that score alike (higher first), see _rank_ties

    @property
    def payments(self) -> dict[str, int]:
        return self.settlement.payments

    def key(self, winner: str) -> tuple[int, int, int, int]:
        return (self.settlement.payments[winner], self.score, -self.wild_substituted, self.tie)


@dataclass
class Result:
    """The outcome of scoring one hand: the ``ruleset``, the ``hand``, its ``table`` (the
    context checked against both), the ``best`` reading scored (:class:`Scored`) and the
    other ``candidates``; what the hand is made of and how it pays, as data, in
    :attr:`decomposition`, :attr:`wildcards` and :attr:`payment_chain`
    (:mod:`scorer.engine.fields`), each worked out when asked for."""

    ruleset: Ruleset
    hand: Hand
    table: Table
    best: Scored
    candidates: list[Scored] = field(default_factory=list)
    # readings a reading-level not_a_win check ruled out, with its params (for --explain)
    excluded: list[tuple[Reading, dict[str, Any]]] = field(default_factory=list)

    @property
    def payments(self) -> dict[str, int]:
        return self.best.payments

    @property
    def winner(self) -> str:
        return self.table.env["seat"]  # type: ignore[no-any-return]

    @property
    def decomposition(self) -> tuple[TileSet, ...]:
        """The sets and the pair of the winning reading, fixed melds first
        (:class:`~scorer.engine.fields.TileSet`: kind, tiles in notation, concealed or not,
        the tiles wildcards played, the set the winning tile completed).

        >>> from scorer import score, Context
        >>> r = score("[EEE]123m456p789s1p1p", "mcr", Context(self_draw=True))
        >>> [(s.kind, s.text, s.concealed) for s in r.decomposition][:2]
        [('pung', '[EEE]', False), ('chow', '123m', True)]
        >>> [(s.tiles, s.winning) for s in r.decomposition][4]
        (('1p', '1p'), True)
        """
        return decomposition_of(self.best.reading)

    @property
    def wildcards(self) -> tuple[WildcardReading, ...]:
        """Which physical wildcard tile (by its place and character in the hand as typed)
        stood for which tile, and in which set of :attr:`decomposition`; then each
        stand-in (Jinhua's and Xiamen's 白板); () for a hand without
        (:class:`~scorer.engine.fields.WildcardReading`).

        >>> from scorer import score, Context
        >>> r = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True))
        >>> [(w.position, w.tile, w.reads, r.decomposition[w.set].text) for w in r.wildcards]
        [(17, 'P', '9m', '9*9m')]
        """
        return wildcards_of(self.hand, self.best.reading, self.table.wild)

    @property
    def payment_chain(self) -> PaymentChain:
        """How the winning reading's number and payments came about: each pattern applied
        with the tally's running value, the headline score, what each seat owes and the
        final payments (:class:`~scorer.engine.fields.PaymentChain`).

        >>> from scorer import score, Context
        >>> c = score("123m456p789s234sP9m", "hangzhou", Context(self_draw=True)).payment_chain
        >>> [(x.pattern, x.value, x.running) for x in c.steps], c.score
        ([('baotou', 2, 2)], 2)
        >>> [(x.payer, x.amount) for x in c.shares], dict(c.payments)
        ([('S', 4), ('W', 4), ('N', 4)], {'E': 12, 'S': -4, 'W': -4, 'N': -4})
        """
        return payment_chain_of(self.ruleset, self.best)


@dataclass
class Refusal:
    """What a refusal by a check that reads the wait hands to the views, as data: the hand,
    its table, the reading in which the wait fact held (e.g. 暴头's lone 财神), and what the
    hand waited on before its winning tile (:class:`~scorer.engine.waitfacts.WaitFacts`).
    The views word it ("without the winning 9m: … + a lone 财神 — waiting on every tile")
    without scoring anything again."""

    ruleset: Ruleset
    hand: Hand
    table: Table
    reading: Reading
    waits: Any = None

