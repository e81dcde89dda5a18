"""``@record``: a :func:`dataclasses.dataclass` that costs a fifth as much to define.

Python 3.11's ``@dataclass(frozen=True)`` compiles six functions from generated source
for every class (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``): 1.0–1.4 ms a class, and the 41 dataclasses a ``mjscore score`` imports
were 50 ms of its 160 ms cold start (docs/speed.md). ``@record`` takes the same
arguments and makes the same class — a real dataclass (``fields``, ``replace``,
``asdict``, pickling and ``match`` work) with the same ``__init__``, equality, hash,
repr and frozenness — but compiles ``__init__`` alone; the other methods are shared
ones, the same for every record class, reading the class's fields.

Type checkers see :func:`dataclasses.dataclass` itself. The modules mypyc compiles
(setup.py ``COMPILED``) declare their classes with this module's ``dataclass``, which is
``record`` to Python and :func:`dataclasses.dataclass` to mypy and mypyc: mypyc builds
those classes natively and, at import, calls the decorator on each to have its dunder
methods made, which ``record`` does as for any class, except that a native class (no
instance ``__dict__``) is frozen by the standard decorator's own ``__setattr__`` and
``__delattr__``. ``Hand`` and ``Meld``, made per hand, keep
:func:`dataclasses.dataclass` (a frozen record's ``__init__`` sets each field through the
shared ``__setattr__``, about 0.6 µs more per instance).

Frozenness differs in one invisible way: the shared ``__setattr__`` lets ``__init__``
set each field once (a frozen dataclass's ``__init__`` goes around its ``__setattr__``);
after that, assigning or deleting any attribute raises
:class:`dataclasses.FrozenInstanceError`, as for a frozen dataclass.

>>> @record(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> p = Point(1)
>>> p, p == Point(1, 0), hash(p) == hash(Point(1)), replace(p, y=2)
(Point(x=1, y=0), True, True, Point(x=1, y=2))
>>> p.x = 2
Traceback (most recent call last):
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import dataclasses
import reprlib
from dataclasses import replace as replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass", "record"]

_FrozenError = dataclasses.FrozenInstanceError


def _getter(names: tuple[str, ...]) -> Any:
    """A function giving the tuple of ``names``' values of an object (``()`` for none)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)  # a tuple already


def _frozen(cls: type) -> tuple[Any, Any]:
    """The ``__setattr__`` and ``__delattr__`` of a frozen record class ``cls``."""
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if name in fields:
            if name in self.__dict__:
                raise _FrozenError(f"cannot assign to field {name!r}")
            self.__dict__[name] = value  # __init__ setting it, once
        elif type(self) is cls:
            raise _FrozenError(f"cannot assign to field {name!r}")
        else:  # a plain subclass's own attribute, as a frozen dataclass allows
            object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise _FrozenError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    return __setattr__, __delattr__


def _methods(cls: type, frozen: bool, eq: bool, repr_: bool) -> None:
    """Give a dataclass made with ``eq=False, repr=False`` the equality, hash and repr it
    would have had with the arguments given; a method the class defines stays, as with
    ``@dataclass``."""
    fields = dataclasses.fields(cls)
    own = cls.__dict__
    if eq:
        if "__eq__" not in own:
            key = _getter(tuple(f.name for f in fields if f.compare))

            def __eq__(self: Any, other: Any) -> Any:
                if other.__class__ is self.__class__:
                    return key(self) == key(other)
                return NotImplemented

            cls.__eq__ = __eq__  # type: ignore[method-assign,assignment]
        # dataclasses' rule: a __hash__ written in the class stays (a class that writes
        # only __eq__ has __hash__ = None put there by Python, which does not count)
        explicit = own.get("__hash__") is not None
        if frozen and not explicit:
            hkey = _getter(tuple(f.name for f in fields
                                 if (f.compare if f.hash is None else f.hash)))

            def __hash__(self: Any) -> int:
                return hash(hkey(self))

            cls.__hash__ = __hash__  # type: ignore[method-assign,assignment]
        elif not frozen and not explicit:
            cls.__hash__ = None  # type: ignore[assignment]  # as a mutable dataclass
    if repr_ and "__repr__" not in own:
        shown = tuple(f.name for f in fields if f.repr)

        @reprlib.recursive_repr()
        def __repr__(self: Any) -> str:
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
            return f"{self.__class__.__qualname__}({inner})"

        cls.__repr__ = __repr__  # type: ignore[method-assign,assignment]
    if frozen and not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        cls.__setattr__, cls.__delattr__ = _frozen(cls)  # type: ignore[method-assign]


def _record(cls: Any = None, /, *, frozen: bool = False, eq: bool = True, repr: bool = True,
            **kwargs: Any) -> Any:
    if kwargs.get("slots") or kwargs.get("order") or kwargs.get("unsafe_hash"):
        # what the shared methods do not cover: the standard decorator, at its cost
        std = dataclasses.dataclass(frozen=frozen, eq=eq, repr=repr, **kwargs)
        return std if cls is None else std(cls)

    def wrap(c: type) -> Any:
        # A class mypyc built (native: its instances have no __dict__ for the shared
        # __setattr__ to read) is frozen by the standard decorator's own two methods.
        native = "__mypyc_attrs__" in c.__dict__
        out: Any = dataclasses.dataclass(c, frozen=frozen and native, eq=False, repr=False,
                                         **kwargs)
        _methods(out, frozen, eq, repr)
        return out

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import dataclass as record
else:
    record = dataclass = _record
