"""The parts of a ruleset file that judge a win and settle it: ``errors:`` and
``not_a_win:`` checks, and the payment with its ``let`` chain and 承包 (read by
:class:`CheckSections`, a part of :class:`scorer.rules.schema.Compiler`).
"""

from __future__ import annotations

from typing import Any

from ..lang import INT, TILE, Scope
from ..lang.types import Type
from . import facts as F
from .model import PLACEHOLDER, Check, Chengbao, Let, Payment
from .reader import Reader
from .sections import CHECKS, CHENGBAO, LETS, PAYMENT
from .yamlsafe import YMap


class CheckSections(Reader):
    """``errors:``, ``not_a_win:`` and ``payment:``."""

    def checks(self, raw: Any, key: str, scope: Scope, default_on: str,
               allow_on: tuple[str, ...], scopes: dict[str, Scope] | None = None) -> tuple[
            Check, ...]:
        """``errors:`` / ``not_a_win:``: each {when, message}, checked ``on`` hand, reading or result."""
        out = []
        for i, path, item in self.entries(raw, CHECKS, key) or ():
            on = item.get("on", default_on)
            if on not in allow_on:
                self.problem(self.mark_of(item, "on"), f"{path}.on", "schema.one_of",
                             allowed=list(allow_on))
                continue
            sc = (scopes or {}).get(on, scope)
            when = self.expr(item, "when", f"{path}.when", sc)
            message, message_en = self.texts(item, "message", f"{path}.message", required=True)
            for name in PLACEHOLDER.findall(message + message_en):
                if name not in sc.names:
                    self.problem(self.mark_of(item, "message"), f"{path}.message",
                                 "schema.placeholder", name=name)
            if when is not None:
                out.append(Check(str(item.get("id", f"{key}{i}")), when, message, on,
                                 str(item.get("reason", "illegal")), message_en))
        return tuple(out)


    def payment(self, raw: Any, names: dict[str, Type], opt_scope: Scope) -> Payment | None:
        """``payment:``: pays, amount, the ``let`` chain and 承包; None if it has a problem."""
        raw = self.mapping(raw, PAYMENT, "payment")
        if raw is None:
            return None
        lets: list[Let] = []
        scope_names = dict(names)
        let_raw = raw.get("let")
        for lname, path, spec in self.entries(let_raw, LETS, "payment.let",
                                              self.mark_of(raw, "let")) or ():
            if lname in scope_names:
                self.problem(self.key_mark(let_raw, lname), path, "schema.let_taken",
                             name=lname)
                continue
            let_scope = Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile})
            if isinstance(spec, YMap):
                c = self.expr(spec, "value", f"{path}.value", let_scope, "number")
                label = str(spec.get("label", lname))
                label_en = str(spec.get("label_en", label))
            else:
                c = self.expr(let_raw, lname, path, let_scope, "number")
                label = label_en = lname
            if c is not None:
                lets.append(Let(lname, label, label_en, c))
                scope_names[lname] = INT
        scope = Scope(scope_names, F.ATTRS, {TILE: F.coerce_tile})
        pays = self.expr(raw, "pays", "payment.pays", scope, default=True)
        amount = self.expr(raw, "amount", "payment.amount", scope, "number")
        cb: Chengbao | None = None
        cb_raw = self.mapping(raw.get("chengbao"), CHENGBAO, "payment.chengbao",
                              self.mark_of(raw, "chengbao"))
        if cb_raw is not None:
            cb_scope = Scope({**opt_scope.names, **F.names_at("chengbao")}, F.ATTRS,
                             {TILE: F.coerce_tile})
            allowed = self.expr(cb_raw, "allowed", "payment.chengbao.allowed", cb_scope,
                                default=True)
            rf = self.expr(cb_raw, "reverse_factor", "payment.chengbao.reverse_factor",
                           cb_scope, "number", default=2)
            msg, msg_en = self.texts(cb_raw, "message", "payment.chengbao.message")
            if not msg:
                msg, msg_en = "这里不适用承包", "承包 does not apply here"
            if allowed is not None and rf is not None:
                cb = Chengbao(allowed, msg, rf, msg_en)
        if pays is None or amount is None:
            return None
        used = set(pays.names) | set(amount.names)
        for let in lets:
            used |= set(let.value.names)
        reading_level = set(F.names_at("reading"))
        needs = bool(used & {"payer_is_discarder", "discarder"})
        return Payment(pays, amount, tuple(lets), cb, needs, bool(used & reading_level))
