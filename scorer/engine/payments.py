"""Who pays the winner how much: the ruleset's payment rule, 承包, and the zero-sum check.

Each payer's share is the ruleset's ``amount`` (when ``pays`` holds), computed
with the named intermediate values of ``let`` so the report can show the chain.
承包 relations then move shares: with A:B (A made three 摊 off B), when A wins
B pays every share; when B wins A pays every share × the reverse factor; each
relation involving the winner applies on its own and nobody else pays.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import field

from ..errors import MjscoreError
from ..record import record
from ..rules.facts import Env
from ..rules.model import Ruleset


class PaymentError(MjscoreError):
    """The payments of a hand do not balance: a bug, reported as an internal error."""

    kind = "internal"
    exit_code = 70


@record
class Share:
    """One payer's share before 承包: the env it was computed in, for the chain."""

    payer: str
    amount: int
    pays: bool
    env: Env
    lets: dict[str, int] = field(default_factory=dict)


@record
class Settlement:
    """The final payments (winner positive, payers negative, summing to zero)."""

    payments: dict[str, int]
    shares: list[Share]
    chengbao: list[tuple[str, str, str, int]]  # (a, b, who pays, amount)

    @property
    def won(self) -> int:
        return max(self.payments.values(), default=0)


def detached(s: Settlement, names: Iterable[str]) -> Settlement:
    """A copy of ``s`` whose shares keep only the values of ``names`` (what the payment
    expressions read), not the chain of environments back to the hand and its readings.

    A cached settlement is shared by later hands: holding the first hand's readings alive
    through ``Share.env.parent`` made 1,000 lines of one hand with different ``--base`` peak
    at 1.4 GB. Returns the copy; ``s`` is unchanged.
    """
    keep = tuple(names)
    shares = []
    for sh in s.shares:
        flat = Env()
        for n in keep:
            with contextlib.suppress(Exception):  # a name this payer's branch never read
                flat[n] = sh.env[n]
        shares.append(Share(sh.payer, sh.amount, sh.pays, flat, dict(sh.lets)))
    return Settlement(dict(s.payments), shares, list(s.chengbao))


def settle(rs: Ruleset, parent: Env, seats: tuple[str, ...], winner: str,
           discarder: str | None, relations: tuple[tuple[str, str], ...],
           tallies: dict[str, int], score: int) -> Settlement:
    """Compute every seat's payment for one scored reading."""
    pay = rs.payment
    shares: list[Share] = []
    for payer in seats:
        if payer == winner:
            continue
        env = Env(parent, payer=payer, payer_is_dealer=payer == "E",
                  payer_is_discarder=payer == discarder, score=score, **tallies)
        lets: dict[str, int] = {}
        for let in pay.lets:
            v = let.value.number(env)
            env[let.name] = v
            lets[let.name] = v
        pays = bool(pay.pays(env))
        amount = pay.amount.number(env) if pays else 0
        if amount < 0:
            raise pay.amount.fail("eval.negative_share", amount=amount, payer=payer)
        shares.append(Share(payer, amount, pays, env, lets))

    owed = {s.payer: s.amount for s in shares}
    moves: list[tuple[str, str, str, int]] = []
    involved = [(a, b) for a, b in relations if winner in (a, b)]
    if involved and rs.payment.chengbao is not None:
        total = sum(owed.values())
        owed = {s: 0 for s in owed}
        for a, b in involved:
            cenv = Env(parent, a=a, b=b, a_is_dealer=a == "E", b_is_dealer=b == "E")
            if a == winner:
                owed[b] += total
                moves.append((a, b, b, total))
            else:
                factor = rs.payment.chengbao.reverse_factor.number(cenv, minimum=0)
                owed[a] += total * factor
                moves.append((a, b, a, total * factor))
    payments = {s: 0 for s in "ESWN"}
    for s, v in owed.items():
        payments[s] -= v
    payments[winner] = sum(owed.values())
    # Payments are exact integers and balance by construction (the winner receives what
    # the others owe); checked anyway, as an error rather than an assert that -O removes.
    if sum(payments.values()) != 0:  # pragma: no cover - unreachable by construction
        raise PaymentError("payment.not_zero", payments=str(payments))
    return Settlement(payments, shares, moves)
