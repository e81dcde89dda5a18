"""Which physical tile stood for which slot of a reading: wildcards and stand-ins.

A reading (:class:`~scorer.search.readings.Reading`) says which logical tiles of its groups
were played by wildcards (``Group.wild``) and, in a ruleset with a stand-in (Jinhua's and
Xiamen's 白板), which natural copies of the wildcard's face there are; the hand
(:class:`~scorer.model.hand.Hand`) says where each physical tile was typed. This module
matches the two: the physical tiles in the order written go to the slots of their meld,
the winning tile (written last) to the group it completed, the others to the concealed
slots in order. The views show the result (the report's ``Wildcard:`` line and ``*``/``~``
marks, the JSON's ``wildcard_detail`` and ``stand_ins``); nothing here is worded.

>>> from scorer.model import tiles as T
>>> from scorer.model.notation import parse_hand
>>> from scorer.search.decompose import Group
>>> from scorer.search.readings import Reading
>>> g = (Group("chow", (0, 1, 2), (1,)), Group("pair", (8, 8)))
>>> [s.reads for s in wildcard_slots(parse_hand("1mC3m9m9m"), Reading("standard", g, 1, False),
...                                  face=T.parse_tile("C"))]
[1]
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from ..model.hand import Hand
from .readings import Reading

__all__ = ["Slot", "stand_in_slots", "wildcard_slots"]


class Slot(NamedTuple):
    """One physical tile and what it stood for: ``nth`` (its index among the tiles as typed),
    ``position`` (its character in the hand text), ``tile`` (what it shows), ``reads``
    (what it played: ``tile`` itself when it counted as itself) and ``group`` (the index
    of the reading's group it sits in, -1 when no slot was left for it)."""

    nth: int
    position: int
    tile: int
    reads: int
    group: int

    @property
    def as_self(self) -> bool:
        """True when the tile counted as itself (a wildcard playing its own face)."""
        return self.reads == self.tile


def wildcard_slots(hand: Hand, reading: Reading, face: int | None) -> list[Slot]:
    """What each physical wildcard tile (a copy of ``face``) stands for in ``reading``, in
    the order typed; [] when the table has no wildcard or the hand holds none.

    Physical wildcards are matched to the groups' wildcard slots in the order written;
    the winning tile (written last) goes to the group it completed.
    """
    if face is None:
        return []
    # physical wildcard tiles in the order written, with their index among all tiles
    phys = [(i, pos) for i, (x, pos) in enumerate(hand.sources) if x == face]
    if not phys:  # (most hands: nothing to match)
        return []
    meld_slots: dict[int, list[tuple[int, int]]] = defaultdict(list)
    concealed_slots: list[tuple[int, int]] = []
    win_slot: tuple[int, int] | None = None
    for k, g in enumerate(reading.groups):
        if not g.wild:  # (no slot to add)
            continue
        wild = [(w, k) for w in g.wild]
        if g.meld >= 0:
            meld_slots[g.meld].extend(wild)
            continue
        if k == reading.win and reading.win_wild:
            win_slot = wild.pop(0)
        concealed_slots.extend(wild)
    out = []
    meld_of_pos = {m.position: i for i, m in enumerate(hand.melds)}
    last = len(hand.sources) - 1
    taken = 0  # concealed slots handed out, in order
    for i, pos in phys:
        slot: tuple[int, int] | None
        if pos in meld_of_pos:
            slots = meld_slots[meld_of_pos[pos]]
            slot = slots.pop(0) if slots else None
        elif i == last and win_slot is not None:
            slot = win_slot
        elif taken < len(concealed_slots):
            slot = concealed_slots[taken]
            taken += 1
        else:
            slot = None
        reads, group = slot if slot is not None else (face, -1)
        out.append(Slot(i, pos, face, reads, group))
    return out


def stand_in_slots(hand: Hand, reading: Reading, face: int | None,
                   stand_in: int | None) -> list[Slot]:
    """What each physical stand-in tile (a copy of ``stand_in``, Jinhua's and Xiamen's
    白板) is in ``reading``: the wildcard's ``face``, or the tile itself where a shape lets
    it count as itself; [] when the table has no stand-in or the hand holds none.

    A stand-in is an ordinary copy of the wildcard's face: every natural copy of the face
    in a reading is a stand-in (the face's own copies are wildcards), matched to the
    physical stand-ins in the order written, the winning tile to the group it completed.
    """
    st = stand_in
    if st is None or face is None or st == face:
        return []
    phys = [(i, pos) for i, (x, pos) in enumerate(hand.sources) if x == st]
    if not phys:
        return []
    meld_of_pos = {m.position: i for i, m in enumerate(hand.melds)}
    # the reading's slots for a stand-in: a natural copy of the face, or of the stand-in
    meld_slots: dict[int, list[tuple[int, int]]] = defaultdict(list)
    concealed_slots: list[tuple[int, int]] = []
    win_slot: tuple[int, int] | None = None
    for k, g in enumerate(reading.groups):
        nat = [x for x in g.naturals if x in (face, st)]
        slots = [(x, k) for x in nat]
        if g.meld >= 0:
            meld_slots[g.meld].extend(slots)
            continue
        if (k == reading.win and not reading.win_wild and hand.winning == st
                and reading.win_natural in (face, st) and reading.win_natural in nat):
            win_slot = (reading.win_natural, k)
            slots.remove(win_slot)
        concealed_slots.extend(slots)
    total = len(hand.sources)
    out = []
    for i, pos in phys:
        slot: tuple[int, int] | None
        if pos in meld_of_pos:
            ms = meld_slots[meld_of_pos[pos]]
            slot = ms.pop(0) if ms else None
        elif i == total - 1 and win_slot is not None:
            slot = win_slot
        else:
            # a stand-in as itself (七风's 白板) before one read as the face
            slot = None
            for j, sl in enumerate(concealed_slots):
                if sl[0] == st:
                    slot = concealed_slots.pop(j)
                    break
            if slot is None and concealed_slots:
                slot = concealed_slots.pop(0)
        reads, group = slot if slot is not None else (face, -1)
        out.append(Slot(i, pos, st, reads, group))
    return out


def marked_counts(slots: list[Slot]) -> dict[int, int]:
    """How many stand-ins played the face in each group (by the group's index).

    >>> marked_counts([Slot(0, 1, 31, 2, 0), Slot(1, 2, 31, 31, 1), Slot(2, 3, 31, 2, 0)])
    {0: 2}
    """
    out: dict[int, int] = {}
    for s in slots:
        if not s.as_self and s.group >= 0:
            out[s.group] = out.get(s.group, 0) + 1
    return out

