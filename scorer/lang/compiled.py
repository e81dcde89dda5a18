"""What an expression is checked against and what checking it gives.

A :class:`Scope` is the vocabulary of the place an expression is used in: its names and
their types, the attributes of those types (:class:`Attr`), the string constants a type
takes. :func:`scorer.lang.compile.compile_expr` checks a text against a scope and returns a
:class:`Compiled`: the evaluator, the type, the names it read and its cost bound.

>>> from scorer.lang.compile import compile_expr
>>> c = compile_expr("n + 1", Scope({"n": "int"}))
>>> isinstance(c, Compiled), c({"n": 2}), sorted(c.names)
(True, 3, ['n'])
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from ..record import record
from .errors import EvalError
from .render import fmt
from .types import Type, as_type

Fn = Callable[[Any], Any]  # an evaluator: env -> value


@record(frozen=True)
class Attr:
    """An attribute of a runtime type: its result type and accessor ``fn(value) -> result``.

    With ``env=True`` the accessor is ``fn(value, env)`` (for attributes that depend on
    the table, such as whether a wildcard reads as its own face). A list-valued
    attribute declares its largest size in its type (``list_of(TILE, 4)``).
    """

    type: Type
    fn: Callable[..., Any]
    doc: str = ""
    env: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", as_type(self.type))


@record
class Scope:
    """What an expression may refer to.

    ``names`` maps each name to its type (a :class:`Type`, or its text ``'int?'``);
    a list type's ``size`` is the most items it can hold, which the cost bound uses.
    ``attrs`` maps a type to its attribute table; ``coerce`` turns a string constant
    into a value of a type (e.g. the string ``'E'`` compared with a tile becomes the
    tile index), raising ValueError if it cannot; ``readings`` says whether
    ``any_reading(...)`` is allowed (hand-level checks) and with which scope its
    argument is compiled.
    """

    names: Mapping[str, Type]
    attrs: Mapping[Type, Mapping[str, Attr]] = field(default_factory=dict)
    coerce: Mapping[Type, Callable[[str], Any]] = field(default_factory=dict)
    readings: Scope | None = None
    # the code of an unknown name's message, and the group names it gives (a combination
    # pattern's condition sees only its sets: expr.unknown_in_once)
    what: str = "expr.unknown_name"
    sets: str = ""

    def __post_init__(self) -> None:
        self.names = {n: as_type(t) for n, t in self.names.items()}
        self.attrs = {as_type(t): a for t, a in self.attrs.items()}
        self.coerce = {as_type(t): c for t, c in self.coerce.items()}


@record
class Compiled:
    """A compiled expression: call it with an environment (a mapping of names)."""

    src: str
    fn: Fn
    type: Type
    names: frozenset[str]
    tree: ast.expr
    node_fns: dict[int, Fn]
    const: bool = False
    attrs: frozenset[tuple[Type, str]] = frozenset()  # (type, attribute) pairs used
    compares: frozenset[Type] = frozenset()  # types compared with == / in (e.g. group)
    cost: int = 0  # worst-case evaluation steps, estimated at load time (see MAX_COST)
    where: str = ""  # 'file:line key' of the expression, set by the ruleset compiler
    # What the code generator (scorer.lang.codegen) reads besides the tree, by id(node):
    # the values folded or coerced at load, the attribute of each attribute node, the
    # ticks per item of each comprehension; and the ticks of one evaluation (0: none)
    consts: Mapping[int, Any] = field(default_factory=dict, repr=False)
    attr_at: Mapping[int, tuple[Attr, bool]] = field(default_factory=dict, repr=False)
    loop_weight: Mapping[int, int] = field(default_factory=dict, repr=False)
    weight: int = 0
    metered: bool = False

    def __call__(self, env: Any) -> Any:
        try:
            return self.fn(env)
        except EvalError as e:
            raise self.fail(e.code, **e.params) from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError,
                OverflowError, MemoryError, RecursionError) as e:
            # Python's own words for what failed (a bug's symptom more than a user's mistake)
            raise self.fail("eval.python", error=f"{type(e).__name__}: {e}") from None

    def fail(self, code: str, **params: Any) -> EvalError:
        """A run-time error (a code and its ``params``) placed where the expression is
        written (its ``place``, once: an inner expression's place is kept).

        >>> tree = ast.parse("1", mode="eval").body
        >>> c = Compiled("1", lambda env: 1, Type("int"), frozenset(), tree, {}, where="my.yaml:3 score")
        >>> str(c.fail("eval.index", index=5, n=2))
        'my.yaml:3 score: index 5 is outside a list of 2'
        """
        if self.where and not params.get("place"):
            params["place"] = self.where
        return EvalError(code, **params)

    def number(self, env: Any, minimum: int | None = None) -> int:
        """Evaluate a value that must be a whole number (``True``/``False`` count as 1/0).

        An expression typed ``int?`` (e.g. an option whose value may be none) can give
        None at run time; that, or a number below ``minimum``, is an :class:`EvalError`
        naming the expression, never a crash further on.

        >>> from scorer.lang.compile import compile_expr
        >>> compile_expr("cap", Scope({"cap": "int?"})).number({"cap": 64})
        64
        """
        v = self(env)
        if not isinstance(v, int):
            raise self.fail("eval.not_whole", src=self.src, value=fmt(v))
        if minimum is not None and v < minimum:
            raise self.fail("eval.below", src=self.src, value=v, minimum=minimum)
        return int(v)

