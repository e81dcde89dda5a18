"""The optimiser's plan of a ruleset: what the engine may skip, reuse or unwrap.

A :class:`Plan` is derived from a compiled :class:`~scorer.rules.model.Ruleset` and
kept with it (``rs.plan``): how finely its expressions tell tiles apart (so the
wildcard search can merge readings the ruleset cannot tell apart), whether they care
which group the winning tile completed, the pattern closures unwrapped for the
per-reading loop, the combination families, and whether readings that meet the same
patterns can share their outcome. It also holds the ruleset's caches (the context
checked per set of flags, the settlements per tallies), each bounded, so that they go
when the ruleset goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..lang import GROUP, Compiled
from ..search.combine import TILE_ONLY_ATTRS, Family, predicate
from . import facts as F
from .model import Pattern, Ruleset

K = TypeVar("K")
V = TypeVar("V")

# (pattern, when, value, count, each): the compiled closures, unwrapped
Fast = tuple[tuple[Pattern, Any, Any, Any, Any], ...]


class Memo(Generic[K, V]):
    """A dict with a bound: when it is full it starts again empty (cheap, and a batch
    that needs more entries than the bound refills it with the ones it uses now).

    >>> m: Memo[str, int] = Memo(2)
    >>> m.get_or("a", lambda: 1), m.get_or("a", lambda: 9), len(m)
    (1, 1, 1)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._data: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Forget every value (a benchmark's cold start)."""
        self._data.clear()

    def get(self, key: K) -> V | None:
        """The value stored for key, or None."""
        return self._data.get(key)

    def put(self, key: K, value: V) -> V:
        """Store a value (emptying the memo first if it is full); return the value."""
        if len(self._data) >= self.limit:
            self._data.clear()
        self._data[key] = value
        return value

    def get_or(self, key: K, make: Callable[[], V]) -> V:
        """The value stored for key, made and stored by ``make()`` if there is none."""
        hit = self._data.get(key)
        return hit if hit is not None else self.put(key, make())


@dataclass(frozen=True)
class Plan:
    """How the engine runs one ruleset; built by :meth:`build`, read-only but for its caches."""

    detail: int  # how finely patterns tell tiles apart (facts.detail_level)
    features: frozenset[str]  # at detail 1, which class features (facts.class_features)
    # do the expressions care which group the winning tile completed? (facts.placement_sensitive)
    placement: bool
    fast: Fast  # the closures of the patterns that are not combination patterns
    max_tallies: frozenset[str]  # tallies that take one pattern's value (combine: max)
    payment_names: tuple[str, ...]  # context/hand names the payment rule reads
    # every name the payment expressions read (a cached settlement keeps only these)
    payment_reads: tuple[str, ...]
    reusable: bool  # a reading's outcome depends only on its patterns' values
    families: tuple[Family, ...]  # combination patterns, grouped by list (scorer.search.combine)
    # The caches (not arguments: a plan made by dataclasses.replace starts with empty ones,
    # as what they hold was computed under the other plan):
    # the context checked once per set of flags (scorer.engine.context.resolve)
    tables: Memo[Any, Any] = field(default_factory=lambda: Memo(512), init=False,
                                   compare=False, repr=False)
    # settlements by payment inputs, then by tallies (scorer.engine.scoring)
    # (64 x 256 small entries at most: a cached settlement keeps no readings alive, see
    # scorer.engine.payments.detached)
    settlements: Memo[Any, Memo[Any, Any]] = field(default_factory=lambda: Memo(64),
                                                   init=False, compare=False, repr=False)

    @classmethod
    def build(cls, rs: Ruleset) -> Plan:
        """The plan of a compiled ruleset.

        >>> from scorer.rules.load import load_ruleset
        >>> p = Plan.build(load_ruleset("jinhua"))
        >>> p.detail, sorted(p.features), p.placement
        (1, ['honor', 'suit'], True)
        """
        pay = rs.payment
        reading_exprs: list[Compiled] = []
        for p in rs.patterns:
            reading_exprs += [p.when, p.value] + ([p.count] if p.count else []) + (
                [p.each] if p.each else []) + [c for _, c in p.also]
        reading_exprs += [c.when for c in rs.not_a_win]
        if pay.per_reading:
            reading_exprs += [pay.pays, pay.amount] + [x.value for x in pay.lets]
        # names an expression sees only on a reading (an option or a hand fact of the same
        # name shadows the reading fact)
        reading_only = (set(F.names_at("reading")) - set(F.names_at("context", "hand"))
                        - set(rs.options))
        tally_names = {t.name for t in rs.tallies}
        return cls(
            detail=F.detail_level(reading_exprs),
            features=F.class_features(reading_exprs),
            placement=F.placement_sensitive(reading_exprs),
            fast=tuple((p, p.when.fn, p.value.fn, p.count.fn if p.count else None,
                        p.each.fn if p.each else None)
                       for p in rs.patterns if p.count_once is None),
            max_tallies=frozenset(t.name for t in rs.tallies if t.combine == "max"),
            payment_names=tuple(sorted(
                (set(pay.pays.names) | set(pay.amount.names)
                 | {n for x in pay.lets for n in x.value.names}
                 | (set(pay.chengbao.reverse_factor.names) if pay.chengbao else set()))
                - tally_names - set(F.names_at("payment")) - {x.name for x in pay.lets})),
            payment_reads=tuple(sorted(
                set(pay.pays.names) | set(pay.amount.names)
                | {n for x in pay.lets for n in x.value.names} | {x.name for x in pay.lets})),
            # an `also` value that reads no reading fact is the same on every reading
            reusable=not pay.per_reading and not any(
                set(c.names) & reading_only for p in rs.patterns for _, c in p.also),
            families=families(rs.patterns),
        )


def families(patterns: tuple[Pattern, ...]) -> tuple[Family, ...]:
    """The combination patterns grouped by the list they combine, in the ruleset's order.

    A family whose patterns look only at the sets' tiles (no group comparison, no
    attribute beyond :data:`scorer.search.combine.TILE_ONLY_ATTRS`) is memoised by tiles.

    >>> from scorer.rules.load import load_ruleset
    >>> [f.of for f in families(load_ruleset("mcr").patterns)]  # mcr.yaml combines pungs first
    ['pungs', 'chows']
    """
    fams: dict[str, list[int]] = {}
    for k, p in enumerate(patterns):
        if p.count_once is not None:
            fams.setdefault(p.count_once[0], []).append(k)
    out = []
    for of, idx in fams.items():
        pats = [patterns[k] for k in idx]
        attrs = {a for p in pats for (_, a) in p.when.attrs}
        preds = tuple((p.count_once[1], predicate(p.when.fn, p.count_once[1]))  # type: ignore[index]
                      for p in pats)
        out.append(Family(of, tuple(idx), preds, attrs <= TILE_ONLY_ATTRS
                          and not any(GROUP in p.when.compares for p in pats)))
    return tuple(out)
