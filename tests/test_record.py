"""``@record`` makes the class ``@dataclass`` makes: the same fields, equality, hash, repr,
frozenness, replace, pickling — checked side by side on classes of every shape the
package uses (frozen or not, defaults and factories, fields left out of comparison,
hash or repr, a class with its own ``__eq__``, a subclass)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.record import record


def shapes(deco: Any) -> dict[str, type]:
    """The same classes made with ``deco`` (``dataclasses.dataclass`` or ``record``)."""

    @deco(frozen=True)
    class Frozen:
        a: int
        b: str = "x"
        c: tuple[int, ...] = ()

    @deco(frozen=True)
    class Partial:
        a: int
        memo: list[int] = field(default_factory=list, compare=False, repr=False)
        tag: str = field(default="t", hash=False)
        later: int = field(default=7, init=False)

    @deco
    class Mutable:
        a: int
        b: list[int] = field(default_factory=list)

    @deco(frozen=True, eq=False)
    class Identity:
        a: int

    @deco(frozen=True)
    class OwnEq:
        a: int
        b: int = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, OwnEq) and self.a == other.a

        def __hash__(self) -> int:
            return hash(self.a)

    @deco(frozen=True)
    class Base:
        a: int

    @deco(frozen=True)
    class Child(Base):
        b: int = 1

    return {c.__name__: c for c in (Frozen, Partial, Mutable, Identity, OwnEq, Base, Child)}


STD, REC = shapes(dataclasses.dataclass), shapes(record)
ARGS: dict[str, list[tuple[Any, ...]]] = {
    "Frozen": [(1,), (1, "y"), (2, "x", (1, 2))], "Partial": [(1,), (1, [3]), (1, [], "u")],
    "Mutable": [(1,), (1, [2])], "Identity": [(1,), (2,)], "OwnEq": [(1,), (1, 5)],
    "Base": [(1,), (2,)], "Child": [(1,), (1, 2)],
}


def behaviour(cls: type, args: tuple[Any, ...], other: tuple[Any, ...]) -> dict[str, Any]:
    """What a script can observe of ``cls(*args)`` next to ``cls(*other)``."""
    x, y = cls(*args), cls(*other)
    out: dict[str, Any] = {
        "repr": repr(x).replace(cls.__qualname__, cls.__name__),
        "fields": [(f.name, f.init, f.compare, f.repr, f.hash) for f in dataclasses.fields(x)],
        "eq": x == y, "ne": x != y, "eq_self": x == cls(*args), "eq_other_type": x == args,
        "match_args": getattr(cls, "__match_args__", None),
        "asdict": dataclasses.asdict(x),
        "copied_eq": copy.deepcopy(x) == x and copy.copy(x) == x,  # pickling's __reduce_ex__
    }
    try:
        out["hash_same"] = hash(x) == hash(cls(*args))
    except TypeError as e:
        out["hash_same"] = f"TypeError: {e}"
    for name in ("a", "new_attr"):
        try:
            setattr(x, name, 9)
            out[f"set_{name}"] = getattr(x, name)
        except FrozenInstanceError as e:
            out[f"set_{name}"] = f"frozen: {e}"
        try:
            delattr(x, name)
            out[f"del_{name}"] = "deleted"
        except FrozenInstanceError as e:
            out[f"del_{name}"] = f"frozen: {e}"
        except AttributeError:
            out[f"del_{name}"] = "AttributeError"
    return out


@pytest.mark.parametrize("name", sorted(ARGS))
def test_record_classes_behave_as_dataclasses(name: str) -> None:
    for args in ARGS[name]:
        for other in ARGS[name]:
            assert behaviour(REC[name], args, other) == behaviour(STD[name], args, other)


@pytest.mark.parametrize("name", ["Frozen", "Partial", "Child"])
def test_replace_gives_the_same_object(name: str) -> None:
    for args in ARGS[name]:
        a = dataclasses.replace(REC[name](*args), a=5)
        b = dataclasses.replace(STD[name](*args), a=5)
        assert repr(a).replace("REC", "") == repr(b).replace("STD", "")
        assert a.a == 5 and dataclasses.asdict(a) == dataclasses.asdict(b)


@given(st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3))
def test_equality_and_hash_follow_the_fields(a: int, b: str, c: list[int]) -> None:
    x, y = REC["Frozen"](a, b, tuple(c)), REC["Frozen"](a, b, tuple(c))
    assert x == y and hash(x) == hash(y)
    assert (x == REC["Frozen"](a + 1, b, tuple(c))) is False
    assert hash(x) == hash(STD["Frozen"](a, b, tuple(c)))  # the tuple of the fields


def test_a_recursive_repr_does_not_loop() -> None:
    m, n = REC["Mutable"](1), STD["Mutable"](1)
    m.b.append(m)
    n.b.append(n)
    assert repr(m).endswith("Mutable(a=1, b=[...])") and repr(m) == repr(n)


def test_the_package_records_are_dataclasses() -> None:
    """A ruleset (records all through) pickles, compares and stays frozen."""
    from scorer import load_ruleset
    from scorer.rules.model import Ruleset

    rs = load_ruleset("hangzhou")
    assert dataclasses.is_dataclass(rs) and isinstance(rs, Ruleset)
    with pytest.raises(FrozenInstanceError):
        rs.id = "other"  # type: ignore[misc]
    assert dataclasses.replace(rs, id="x").id == "x" and rs.id == "hangzhou"
    back = pickle.loads(pickle.dumps(rs.tallies))
    assert rs.tallies and back == rs.tallies and repr(back) == repr(rs.tallies)
