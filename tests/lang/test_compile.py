"""The expression language: semantics, load-time checks with columns, and bounds."""

from __future__ import annotations

import pytest

from scorer.lang import EvalError, ExprError, Scope, compile_expr, formula_text

S = Scope({"luxury": "int", "piao": "int", "seven_pairs": "bool", "cap": "int?",
           "sets": "list[int]", "name": "str"})


def ev(src: str, **env: object) -> object:
    base = {"luxury": 1, "piao": 2, "seven_pairs": True, "cap": None, "sets": (1, 2, 3),
            "name": "x"}
    base.update(env)
    return compile_expr(src, S)(base)


def test_arithmetic_and_logic() -> None:
    assert ev("2 ** (1 + luxury + piao)") == 16
    assert ev("7 // 2 + 7 % 2") == 4
    assert ev("1 if seven_pairs and luxury > 0 else 0") == 1
    assert ev("min(8 * 32, cap) if cap else 8 * 32") == 256
    assert ev("min(8 * 32, cap) if cap else 8 * 32", cap=128) == 128
    assert ev("count(s for s in sets if s > 1)") == 2
    assert ev("sum(s * 2 for s in sets)") == 12
    assert ev("any(s == 3 for s in sets) and not all(s == 3 for s in sets)") is True
    assert ev("len(distinct([1, 1, 2]))") == 2
    assert ev("1 < luxury + 1 <= 2") is True
    assert ev("name in ['x', 'y']") is True


@pytest.mark.parametrize("src,col,fragment", [
    ("2 ** (1 + luxary)", 10, "unknown name 'luxary'; did you mean 'luxury'?"),
    ("luxury / 2", 0, "write //: whole-number division"),
    ("luxury.real", 0, "has no attributes"),
    ("__import__('os')", 0, "unknown function '__import__'"),
    ("(lambda: 1)()", 0, "only the listed functions"),
    ("[x for x in range(10)]", 12, "unknown function 'range'"),
    ("name + name", 0, "joining strings is not allowed"),
    ("name * 3", 0, "arithmetic needs numbers"),
    ("1.5 * luxury", 0, "float constants are not allowed"),
    ("2 ** 2 ** 64", 0, "larger than 2**8192"),
    ("1 // 0", 0, "division by zero"),
    ("luxury if", 9, "ends too early"),
    ("luxury luxury", 7, "syntax error"),
    ("{'a': 1}", 0, "a dict is not allowed"),
])
def test_load_time_errors_have_columns(src: str, col: int, fragment: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(src, S)
    assert fragment in info.value.message
    assert info.value.col == col


def test_runtime_bounds() -> None:
    c = compile_expr("2 ** (luxury * 10000)", S)
    with pytest.raises(EvalError, match="larger than"):
        c({"luxury": 1})
    c = compile_expr("piao // (luxury - 1)", S)
    with pytest.raises(EvalError, match="division by zero"):
        c({"luxury": 1, "piao": 2})


def test_render_takes_only_the_branch_used() -> None:
    c = compile_expr("base * (min(zx * fan, cap) if cap else zx * fan)",
                     Scope({"base": "int", "zx": "int", "fan": "int", "cap": "int?"}))
    labels = {"base": "底分", "zx": "庄闲分", "fan": "番", "cap": "封顶"}
    env = {"base": 2, "zx": 8, "fan": 32, "cap": 128}
    assert formula_text(c, env, labels) == "底分 2 × min(庄闲分 8 × 番 32, 封顶 128)"
    env["cap"] = None
    assert formula_text(c, env, labels) == "底分 2 × 庄闲分 8 × 番 32"
