"""The types of the expression language, as small immutable objects.

A type is a base kind (``int``, ``bool``, ``str``, ``none``, ``any``, ``tile``,
``group``, or ``list`` with an element type), optionally marked *optional* (``tile?``:
a tile or none). A list type may also carry the largest number of items it can
hold (``size``), declared by whoever provides the list (the rules layer, through the
scope); the cost bound reads it. The size is not part of a type's identity: a list
of at most 6 groups and a list of groups compare equal.

The text form is the one rulesets and docs show: ``str(list_of(GROUP)) == 'list[group]'``.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any


class Type:
    """One type: ``kind`` (a base name, or ``'list'``), ``elem`` for a list, ``optional``.

    Immutable, compared and hashed by ``kind``, ``elem`` and ``optional`` (not ``size``).
    Written out rather than a frozen slots dataclass, which builds its class twice at
    import (about 1 ms of every start) for four fields.

    >>> str(Type("list", elem=Type("tile"))), str(Type("tile", optional=True))
    ('list[tile]', 'tile?')
    >>> Type("list", Type("group"), size=6) == Type("list", Type("group"))
    True
    """

    __slots__ = ("elem", "kind", "optional", "size")
    kind: str
    elem: Type | None
    optional: bool
    size: int | None  # most items a list can hold

    def __init__(self, kind: str, elem: Type | None = None, optional: bool = False,
                 size: int | None = None) -> None:
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "elem", elem)
        setter(self, "optional", optional)
        setter(self, "size", size)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Type):
            return NotImplemented
        return (self.kind == other.kind and self.elem == other.elem
                and self.optional == other.optional)

    def __hash__(self) -> int:
        return hash((self.kind, self.elem, self.optional))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Type, (self.kind, self.elem, self.optional, self.size))

    def __str__(self) -> str:
        text = f"list[{self.elem}]" if self.elem is not None else self.kind
        return text + "?" if self.optional else text

    def __repr__(self) -> str:
        return f"Type({str(self)!r})"


INT, BOOL, STR, NONE, ANY, TILE, GROUP = (Type(k) for k in
                                          ("int", "bool", "str", "none", "any", "tile", "group"))
_NAMED = {str(t): t for t in (INT, BOOL, STR, NONE, ANY, TILE, GROUP)}


def parse_type(text: str) -> Type:
    """Return the type written ``text`` (``'int?'``, ``'list[group]'``); ValueError if none.

    >>> parse_type("list[tile]") == list_of(TILE), parse_type("int?") == maybe(INT)
    (True, True)
    """
    t = text.strip()
    if t.endswith("?"):
        return maybe(parse_type(t[:-1]))
    if t.startswith("list[") and t.endswith("]"):
        return list_of(parse_type(t[5:-1]))
    if t in _NAMED:
        return _NAMED[t]
    # another name is a runtime type of the vocabulary (e.g. 'seat'); it has no attributes
    # unless the scope gives it some
    if t.isidentifier():
        return Type(t)
    raise ValueError(f"not a type: {text!r}")


def as_type(t: Type | str) -> Type:
    """Return ``t`` as a :class:`Type`, reading it if it is written as text.

    >>> as_type("bool") is BOOL
    True
    """
    return t if isinstance(t, Type) else parse_type(t)


def list_of(t: Type | str, size: int | None = None) -> Type:
    """Return the list type of ``t``, holding at most ``size`` items if given.

    >>> str(list_of(GROUP)), list_of(GROUP, 6).size
    ('list[group]', 6)
    """
    return Type("list", as_type(t), size=size)


def elem_of(t: Type | str) -> Type | None:
    """Return the element type of a list type (optional or not), or None for other types.

    >>> elem_of(list_of(TILE)) == TILE, elem_of(INT)
    (True, None)
    """
    return as_type(t).elem


def is_list(t: Type | str) -> bool:
    """Return whether ``t`` is a list type (optional or not).

    >>> is_list(list_of(INT)), is_list(TILE)
    (True, False)
    """
    return as_type(t).elem is not None


def base(t: Type | str) -> Type:
    """Return ``t`` without the optional marker: ``base(maybe(TILE)) == TILE``.

    >>> str(base("tile?"))
    'tile'
    """
    t = as_type(t)
    return Type(t.kind, t.elem, False, t.size) if t.optional else t


def maybe(t: Type | str) -> Type:
    """Return the optional version of ``t`` (``tile`` -> ``tile?``); ``none`` stays ``none``.

    >>> str(maybe(TILE)), str(maybe(maybe(INT)))
    ('tile?', 'int?')
    """
    t = as_type(t)
    return t if t.optional or t == NONE else Type(t.kind, t.elem, True, t.size)


def is_numeric(t: Type | str) -> bool:
    """Return whether values of ``t`` take part in arithmetic (int, bool, any).

    >>> is_numeric(BOOL), is_numeric("int?"), is_numeric(STR)
    (True, True, False)
    """
    return base(t) in (INT, BOOL, ANY)
