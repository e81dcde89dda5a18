"""The expression language of rulesets, knowing nothing of mahjong.

* :mod:`.types` — types as small immutable objects (``INT``, ``list_of(GROUP, 6)``)
* :mod:`.ops` — bounded arithmetic on exact integers
* :mod:`.budget` — the CPU budget of one hand, per thread (a ``ContextVar``)
* :mod:`.functions` — the callable functions, one row each
* :mod:`.compiled` — the scope an expression is checked against, and the compiled expression
* :mod:`.compile` — the whitelist compiler: source text -> checked tree of closures
* :mod:`.closures` — the closures of the commonest shapes (``name == 3``, one-loop comprehensions)
* :mod:`.prebuilt` — an expression brought back from the cache: generated code, closures on demand
* :mod:`.codegen` — Python source written from a checked tree, held to an allowlist, compiled
* :mod:`.cost` — the load-time bound on the steps an expression can take
* :mod:`.render` — a formula shown with the values it was computed from

Everything a caller needs is importable from here:

>>> from scorer.lang import Scope, compile_expr
>>> compile_expr("2 ** n", Scope({"n": "int"}))({"n": 3})
8
"""

from . import budget
from .budget import Budget, check, limited, tick
from .compile import compile_expr
from .compiled import Attr, Compiled, Scope
from .cost import MAX_COST
from .errors import EvalError, ExprError
from .functions import FUNCTIONS, Function
from .ops import MAX_BITS, safe_floordiv, safe_mod, safe_mul, safe_pow
from .prebuilt import Prebuilt, prebuilt
from .render import fmt, formula_text
from .types import (
                    ANY,
                    BOOL,
                    GROUP,
                    INT,
                    NONE,
                    STR,
                    TILE,
                    Type,
                    as_type,
                    base,
                    elem_of,
                    is_list,
                    is_numeric,
                    list_of,
                    maybe,
                    parse_type,
)

__all__ = [
                    "ANY",
                    "BOOL",
                    "FUNCTIONS",
                    "GROUP",
                    "INT",
                    "MAX_BITS",
                    "MAX_COST",
                    "NONE",
                    "STR",
                    "TILE",
                    "Attr",
                    "Budget",
                    "Compiled",
                    "EvalError",
                    "ExprError",
                    "Function",
                    "Prebuilt",
                    "Scope",
                    "Type",
                    "as_type",
                    "base",
                    "budget",
                    "check",
                    "compile_expr",
                    "elem_of",
                    "fmt",
                    "formula_text",
                    "is_list",
                    "is_numeric",
                    "limited",
                    "list_of",
                    "maybe",
                    "parse_type",
                    "prebuilt",
                    "safe_floordiv",
                    "safe_mod",
                    "safe_mul",
                    "safe_pow",
                    "tick",
]
