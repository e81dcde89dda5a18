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
    """The outcome of scoring one hand."""

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

