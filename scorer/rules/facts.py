"""The vocabulary of ruleset expressions: named facts about the hand, the reading and the win.

Each fact has a name, a type, a level and a one-line description:

* ``context`` facts come from the flags (``self_draw``, ``piao``, ``seat`` …)
* ``hand`` facts depend only on the physical hand (``wild_count``, ``kong_melds``)
* ``reading`` facts depend on one reading (``lone_wild``, ``luxury``, ``sets``)

Facts are computed lazily: :class:`Env` computes a fact the first time an
expression asks for it and keeps it for the rest of that reading. The list is
printed by ``mjscore rules --facts`` and in ``docs/facts.md``.

To add a fact: write a function of the Env and register it with :func:`fact`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..lang import ANY, BOOL, GROUP, INT, STR, TILE, Attr, Type, list_of, maybe
from ..model import tiles as T
from ..model.hand import Hand
from ..record import dataclass
from ..search.decompose import Group, seven_pairs_wait, standard_waits
from ..search.readings import Reading


@dataclass(frozen=True)
class Fact:
    """One name an expression may use: its type, level, description and how it is computed
    (``fn``; None for a value filled in directly); ``eager`` facts are computed for every
    hand by :func:`fill_hand`, the others on first use."""

    name: str
    type: Type
    level: str  # 'context' | 'hand' | 'reading'
    doc: str
    fn: Callable[[Env], Any] | None = None
    eager: bool = False
    # A fused family (see :func:`fuse`): asking for one of its facts computes them all in
    # one pass; ``fn`` still computes this fact alone.
    family: Callable[[Env], dict[str, Any]] | None = None


FACTS: dict[str, Fact] = {}

# Facts that depend on what the hand waited on (the hand without its winning tile): a
# pattern or check whose expression reads one of them gets a "why" line in the report
# (the hand minus the winning tile and its waits, scorer.views.report.why_lines).
WAIT_FACTS = frozenset({"lone_wild", "wait"})


def fact(name: str, typ: Type, level: str, doc: str, eager: bool = False) -> Callable[
        [Callable[[Env], Any]], Callable[[Env], Any]]:
    """Register a computed fact; returns the decorator (which returns the function)."""
    def deco(fn: Callable[[Env], Any]) -> Callable[[Env], Any]:
        FACTS[name] = Fact(name, typ, level, doc, fn, eager)
        return fn
    return deco


def fuse(fn: Callable[[Env], dict[str, Any]], *names: str) -> None:
    """Make the registered facts ``names`` one family: ``fn`` computes all of them in one
    pass (a dict with a value for each), and :class:`Env` stores them all on the first use
    of any. Each fact keeps its own ``fn``, which computes it alone (the same value).

    >>> @fact("_demo_a", INT, "reading", "a")
    ... def _a(env: Env) -> int: return 1
    >>> @fact("_demo_b", INT, "reading", "b")
    ... def _b(env: Env) -> int: return 2
    >>> fuse(lambda env: {"_demo_a": 1, "_demo_b": 2}, "_demo_a", "_demo_b")
    >>> env = Env(__reading__=None)
    >>> env["_demo_b"], dict.get(env, "_demo_a")
    (2, 1)
    >>> del FACTS["_demo_a"], FACTS["_demo_b"]
    """
    for name in names:
        FACTS[name] = replace(FACTS[name], family=fn)  # same place in the registry


def given(name: str, typ: Type, doc: str, level: str = "context") -> None:
    """Register a fact that is filled in directly (context values)."""
    FACTS[name] = Fact(name, typ, level, doc, None)


_ABSENT = object()  # no value (None is one)


class Env(dict[str, Any]):
    """Names visible to an expression; facts are computed on first use.

    ``parent`` holds the hand-level names (context, options, hand facts);
    a reading Env adds ``__reading__`` and computes reading facts.
    """

    __slots__ = ("parent",)

    def __init__(self, parent: Env | None = None, **values: Any) -> None:
        super().__init__(values)
        self.parent = parent

    def __missing__(self, key: str) -> Any:
        parent = self.parent
        if parent is not None:
            # a name the parent holds is its value (a reading's Env need not copy the
            # hand's names, and an option or hand fact shadows a reading fact)
            value = dict.get(parent, key, _ABSENT)
            if value is not _ABSENT:
                self[key] = value
                return value
        f = FACTS.get(key)
        if f is not None and f.fn is not None and (f.level == "reading") == (
            "__reading__" in self
        ):
            if f.family is not None:
                # the whole family at once; a name already here (an option or hand fact
                # of the same name shadows the fact) keeps its value
                for k, v in f.family(self).items():
                    if k not in self and (parent is None or k not in parent):
                        self[k] = v
                return self[key]
            value = f.fn(self)
        elif parent is not None:
            value = parent[key]
        else:
            raise KeyError(key)
        self[key] = value
        return value


# -- context -------------------------------------------------------------------
given("self_draw", BOOL, "the winner drew the winning tile (自摸), incl. a kong replacement")
given("discard", BOOL, "won on another player's tile (放铳/点炮, or a robbed kong)")
given("discarder", maybe(STR), "seat that discarded the winning tile (--from), or none")
given("seat", STR, "the winner's seat: 'E' (dealer) 'S' 'W' 'N'")
given("round", STR, "prevalent wind: 'E' 'S' 'W' 'N'")



@fact("seat_wind", TILE, "context", "the winner's seat wind as a tile", eager=True)
def _seat_wind(env: Env) -> int:
    return 27 + T.SEATS.index(env["seat"])


@fact("round_wind", TILE, "context", "the prevalent wind as a tile", eager=True)
def _round_wind(env: Env) -> int:
    return 27 + T.SEATS.index(env["round"])


@fact("winner_is_dealer", BOOL, "context", "the winner sits E (庄家)", eager=True)
def _winner_is_dealer(env: Env) -> bool:
    return bool(env["seat"] == "E")


given("wild", maybe(TILE), "the --wild tile, or none")
given("dealer_streak", INT, "--dealer-streak (老庄 / 连庄 count)")
given("kong_draw", BOOL, "won on a kong replacement tile (--kong-draw or --kongs)")
given("kongs", INT, "consecutive kongs before the win (--kongs; 1 with --kong-draw alone; 0 otherwise)")
given("robbing_kong", BOOL, "won by robbing a kong (--robbing-kong)")
given("last_tile", BOOL, "won on the last tile of the wall (--last-tile)")
given("fourth_tile", BOOL, "the winning tile is the last copy not yet seen (--fourth-tile)")
given("piao", INT, "consecutive turns the winner discarded a wildcard before the win (--piao)")
given("you", INT, "游金 level claimed with --you (0 when not given)")
given("ready_at_deal", BOOL, "ready at the deal (--ready-at-deal, 天听)")
given("heavenly", BOOL, "--heavenly (天胡 / 三金倒 at the deal)")
given("earthly", BOOL, "--earthly (地胡)")
given("human", BOOL, "--human (人胡)")
given("flowers", INT, "number of flowers (--flowers)")
given("flower_list", list_of(INT, 8),
      "which flowers, 1-8 (春夏秋冬 梅兰竹菊); empty if only a count was given")


@fact("flowers_known", BOOL, "context", "--flowers named which flowers (not just a count)",
      eager=True)
def _flowers_known(env: Env) -> bool:
    return bool(env["flower_list"]) or env["flowers"] == 0


given("base", INT, "--base (底分 / 底注), or the ruleset's default")
given("after_kong", BOOL, "won on the discard that followed the discarder's own kong (--after-kong, 杠上炮)")
given("out", list_of(STR), "seats already out of the round (--out, 血战到底): they neither pay nor win")

# -- payment (per payer) -------------------------------------------------------
given("payer", STR, "the seat paying this share", level="payment")
given("payer_is_dealer", BOOL, "the payer sits E", level="payment")
given("payer_is_discarder", BOOL, "the payer discarded the winning tile", level="payment")
given("score", INT, "the ruleset's headline number for this reading", level="payment")

# -- 承包 relations (per relation A:B) ----------------------------------------
given("a", STR, "承包: the seat that made three 摊 off b", level="chengbao")
given("b", STR, "承包: the seat the three 摊 were made off", level="chengbao")
given("a_is_dealer", BOOL, "承包: a sits E", level="chengbao")
given("b_is_dealer", BOOL, "承包: b sits E", level="chengbao")


# -- hand facts ----------------------------------------------------------------
# Computed by fill_hand() for every hand, before any reading (eager: the payment caches
# and the readings' Envs copy the hand's names as they are).
def _hand(env: Env) -> Hand:
    h: Hand = env["__hand__"]
    return h


def _interp(env: Env) -> Any:
    return env["__interp__"]


given("wild_face", maybe(TILE), "the tile whose copies are wildcards at this table, or none",
      level="hand")  # set with the context's wildcard model (engine.context)


@fact("wild_count", INT, "hand", "wildcard tiles held anywhere in the hand, whatever they stand "
      "for", eager=True)
def _wild_count(env: Env) -> int:
    return int(_interp(env).wild_count)


@fact("kong_melds", INT, "hand", "kongs among the fixed melds", eager=True)
def _kong_melds(env: Env) -> int:
    return _hand(env).kong_count


@fact("melds", INT, "hand", "fixed melds written in brackets (claimed melds and concealed kongs)",
      eager=True)
def _melds(env: Env) -> int:
    return len(_hand(env).melds)


@fact("exposed_melds", INT, "hand", "claimed melds (chow, pung or kong taken from another "
      "player)", eager=True)
def _exposed_melds(env: Env) -> int:
    return sum(1 for m in _hand(env).melds if not m.concealed_kong)


@fact("chow_melds", INT, "hand", "chows among the fixed melds (claimed 吃)", eager=True)
def _chow_melds(env: Env) -> int:
    return sum(1 for m in _hand(env).melds if len(set(m.reading or m.tiles)) == 3)


@fact("concealed_hand", BOOL, "hand", "no claimed melds (门清; concealed kongs allowed)", eager=True)
def _concealed_hand(env: Env) -> bool:
    return all(m.concealed_kong for m in _hand(env).melds)


@fact("hand_tiles", list_of(TILE, 26), "hand", "every physical tile of the hand as written, melds "
      "included", eager=True)
def _hand_tiles(env: Env) -> tuple[int, ...]:
    h = _hand(env)
    return tuple(t for t, _ in h.sources) or (*h.concealed, h.winning)


@fact("physical_quads", INT, "hand", "tile faces held four times among the concealed tiles, as "
      "physical tiles (four wildcards count as one)", eager=True)
def _physical_quads(env: Env) -> int:
    h = _hand(env)
    held = (*h.concealed, h.winning)
    return sum(1 for t in set(held) if held.count(t) == 4)


@fact("concealed_kongs", INT, "hand", "concealed kongs among the fixed melds (暗杠)", eager=True)
def _concealed_kongs(env: Env) -> int:
    return sum(1 for m in _hand(env).melds if m.concealed_kong)


@fact("exposed_kongs", INT, "hand", "claimed kongs among the fixed melds (明杠)", eager=True)
def _exposed_kongs(env: Env) -> int:
    return sum(1 for m in _hand(env).melds if m.is_kong and not m.concealed_kong)


def fill_context(env: Env) -> None:
    """Compute the context facts derived from the flags' own values (``seat_wind`` from
    ``seat``, ``flowers_known`` from the flowers given) into ``env``.

    >>> env = Env(seat="S", round="E", flowers=2, flower_list=())
    >>> fill_context(env)
    >>> env["seat_wind"], env["winner_is_dealer"], env["flowers_known"]
    (28, False, False)
    """
    for f in _EAGER_CONTEXT:
        env[f.name] = f.fn(env)  # type: ignore[misc]


def fill_hand(env: Env, hand: Hand, interp: Any) -> None:
    """Put the hand (and how the table reads it, an ``Interpretation``) into ``env`` with
    every eager hand fact computed; the other hand facts are computed on first use.

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.search.readings import NO_WILD, interpret
    >>> h = parse_hand("[5555p]123m456s789sEE"); env = Env()
    >>> fill_hand(env, h, interpret(h, NO_WILD))
    >>> env["kong_melds"], env["concealed_hand"], env["exposed_melds"]
    (1, True, 0)
    """
    env["__hand__"] = hand
    env["__interp__"] = interp
    dict.update(env, _hand_family(hand, interp.wild_count))


def _hand_family(hand: Hand, wild_count: int) -> dict[str, Any]:
    """Every eager hand fact in one pass over the melds and one count of the concealed
    tiles (each fact's own function computes it alone, the same value)."""
    kongs = concealed_kongs = chows = 0
    for m in hand.melds:
        if len(m.tiles) == 4:
            kongs += 1
            if m.offer == 0:
                concealed_kongs += 1
        if len(set(m.reading or m.tiles)) == 3:
            chows += 1
    held = [0] * T.NUM_KINDS
    for t in hand.concealed:
        held[t] += 1
    held[hand.winning] += 1
    n = len(hand.melds)
    return {
        "wild_count": wild_count, "kong_melds": kongs, "melds": n,
        "exposed_melds": n - concealed_kongs, "chow_melds": chows,
        "concealed_hand": concealed_kongs == n,
        "hand_tiles": tuple(t for t, _ in hand.sources) or (*hand.concealed, hand.winning),
        "physical_quads": held.count(4), "concealed_kongs": concealed_kongs,
        "exposed_kongs": kongs - concealed_kongs,
    }


@fact("win_copies_concealed", INT, "hand",
      "copies of the winning tile among the concealed tiles, the winning tile included")
def _win_copies_concealed(env: Env) -> int:
    h = _hand(env)
    return 1 + h.concealed.count(h.winning)


@fact("win_copies_melds", INT, "hand", "copies of the winning tile shown in the fixed melds")
def _win_copies_melds(env: Env) -> int:
    h = _hand(env)
    return sum(m.tiles.count(h.winning) for m in h.melds)


@fact("nine_gates", BOOL, "hand",
      "no melds, and the concealed tiles without the winning tile are 1112345678999 of one "
      "suit (九莲宝灯: any tile of that suit wins)")
def _nine_gates(env: Env) -> bool:
    h = _hand(env)
    if h.melds or h.winning >= 27:
        return False
    base = h.winning // 9 * 9
    want = tuple(base + k for k in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8))
    return tuple(h.concealed) == want


# -- reading facts -------------------------------------------------------------
def _reading(env: Env) -> Reading:
    r: Reading = env["__reading__"]
    return r


@fact("shape", STR, "reading", "the shape of this reading: 'standard', 'seven_pairs', "
      "'thirteen_orphans', …")
def _shape(env: Env) -> str:
    return _reading(env).shape


@fact("standard", BOOL, "reading", "a pair plus sets (the usual winning shape)")
def _standard(env: Env) -> bool:
    return _reading(env).shape == "standard"


@fact("seven_pairs", BOOL, "reading", "seven pairs (七对)")
def _seven_pairs(env: Env) -> bool:
    return _reading(env).shape == "seven_pairs"


@fact("groups", list_of(GROUP, 14), "reading", "every group of the reading, fixed melds included")
def _groups(env: Env) -> tuple[Group, ...]:
    return _reading(env).groups


@fact("sets", list_of(GROUP, 6), "reading", "the chows, pungs and kongs of the reading")
def _sets(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind in ("chow", "pung", "kong"))


@fact("pairs", list_of(GROUP, 7), "reading", "the pairs of the reading (one, or seven)")
def _pairs(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "pair")


@fact("chows", list_of(GROUP, 6), "reading", "the chows (顺子)")
def _chows(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "chow")


@fact("pungs", list_of(GROUP, 6), "reading", "the pungs and kongs (刻子/杠)")
def _pungs(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind in ("pung", "kong"))


@fact("kongs_held", list_of(GROUP, 6), "reading", "the kongs (杠)")
def _kongs_held(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "kong")


@fact("tiles", list_of(TILE, 26), "reading", "every tile of the reading as read (kongs give four)")
def _tiles(env: Env) -> tuple[int, ...]:
    return tuple(t for g in _reading(env).groups for t in g.tiles)


@fact("win_group", maybe(GROUP), "reading", "the group the winning tile completed")
def _win_group(env: Env) -> Group | None:
    return _reading(env).win_group


@fact("win_tile", maybe(TILE), "reading", "the winning tile as read in this reading")
def _win_tile(env: Env) -> int | None:
    r = _reading(env)
    g = r.win_group
    if g is None:
        return None
    if r.win_wild:
        return g.wild[0]
    if r.win_natural is not None:
        return r.win_natural
    return env["__win_natural__"]  # type: ignore[no-any-return]


@fact("win_wild", BOOL, "reading", "the winning tile is a wildcard")
def _win_wild(env: Env) -> bool:
    return _reading(env).win_wild


@fact("lone_wild", BOOL, "reading",
      "the winning tile pairs a lone wildcard: the hand minus the winning tile is complete "
      "sets (or six pairs) plus one wildcard (爆头 / 游金 / 七客)")
def _lone_wild(env: Env) -> bool:
    r = _reading(env)
    g = r.win_group
    if g is None or g.kind != "pair":
        return False
    # the partner of the winning tile must be a joker: two jokers if the winner is one
    return len(g.wild) >= (2 if r.win_wild else 1)


@fact("luxury", INT, "reading",
      "seven pairs: groups of four identical tiles counted as two pairs (豪华), after "
      "wildcard substitution")
def _luxury(env: Env) -> int:
    r = _reading(env)
    if r.shape != "seven_pairs":
        return 0
    c = Counter(g.tiles[0] for g in r.groups if g.kind == "pair")
    return sum(n // 2 for n in c.values())


@fact("wild_substituted", INT, "reading", "wildcards read as a tile other than their own face")
def _wild_sub(env: Env) -> int:
    face = env["wild_face"]
    return sum(1 for g in _reading(env).groups for w in g.wild if w != face)


@fact("wild_as_self", INT, "reading", "wildcards read as their own face (not a substitution)")
def _wild_self(env: Env) -> int:
    face = env["wild_face"]
    return sum(1 for g in _reading(env).groups for w in g.wild if w == face)


@fact("suits", list_of(STR, 3), "reading", "the suits ('m','p','s') of the suited tiles, without repeats")
def _suits(env: Env) -> tuple[str, ...]:
    return _profile(env, "suits")  # type: ignore[no-any-return]


@fact("honor_tiles", INT, "reading", "number of honor tiles (winds and dragons)")
def _honor_tiles(env: Env) -> int:
    return _profile(env, "honor_tiles")  # type: ignore[no-any-return]


@fact("suited_tiles", INT, "reading", "number of suited tiles")
def _suited_tiles(env: Env) -> int:
    return _profile(env, "suited_tiles")  # type: ignore[no-any-return]


@fact("pair", maybe(GROUP), "reading", "the pair of a reading with exactly one pair (the "
      "standard shape, a knitted straight, thirteen orphans), else none")
def _pair(env: Env) -> Group | None:
    found = None
    for g in _reading(env).groups:
        if g.kind == "pair":
            if found is not None:
                return None
            found = g
    return found


def _reading_family(env: Env) -> dict[str, Any]:
    """The reading's shape, its winning group and its wildcards, in one pass (the facts of
    the same names: shape, standard, seven_pairs, groups, win_group, win_tile, win_wild,
    lone_wild, luxury, wild_substituted, wild_as_self): :func:`reading_facts` of the
    reading in ``env``."""
    return reading_facts(_reading(env), env["wild_face"], env.get("__win_natural__"))


_new_env = dict.__new__


def child_env(parent: Env, r: Reading, win_natural: int | None) -> Env:
    """A reading's Env under the hand's ``parent``: ``Env(parent, __reading__=r)``, with
    ``__win_natural__`` when the hand's winning tile is natural, made without the keyword
    arguments of ``Env()`` (the engine makes one per reading).

    >>> from scorer.model.notation import parse_hand
    >>> from scorer.search.readings import NO_WILD, interpret, readings
    >>> h = parse_hand("123m456p789s234s99m")
    >>> r = readings(interpret(h, NO_WILD), NO_WILD, ("standard",), 4, True)[0]
    >>> e = child_env(Env(x=1), r, 5)
    >>> sorted(e), e["x"], e["__reading__"] is r  # the parent's names read through
    (['__reading__', '__win_natural__'], 1, True)
    """
    env = _new_env(Env)  # (Env(parent) passes its keyword arguments through: twice the time)
    env.parent = parent
    env["__reading__"] = r
    if win_natural is not None:
        env["__win_natural__"] = win_natural
    return env


def fill_reading(env: Env, r: Reading, face: int | None, win_natural: int | None) -> None:
    """Put :func:`reading_facts` into ``env`` (the caller knows no name of the hand's
    shadows one of them); returns None."""
    dict.update(env, zip(READING_ORDER, reading_values(r, face, win_natural), strict=True))


def reading_facts(r: Reading, face: int | None, win_natural: int | None) -> dict[str, Any]:
    """The facts of :func:`_reading_family` of reading ``r`` at a table whose wildcard face
    is ``face``, the hand's natural winning tile being ``win_natural`` (the engine fills
    them into each reading's Env at once, see :data:`READING_FAMILY`).

    >>> from scorer.search.decompose import Group
    >>> g = Group("pair", (4, 4), (4, 4), has_win=True)  # two wildcards read as 5m
    >>> r = Reading("standard", (Group("chow", (0, 1, 2)), g), 1, True)
    >>> f = reading_facts(r, 33, None)  # the winning wildcard pairs the other: 暴头
    >>> f["lone_wild"], f["wild_as_self"], f["wild_substituted"], f["win_tile"]
    (True, 0, 2, 4)
    """
    return dict(zip(READING_ORDER, reading_values(r, face, win_natural), strict=True))


def reading_values(r: Reading, face: int | None, win_natural: int | None) -> tuple[Any, ...]:
    """The values of :func:`reading_facts`, in the order of :data:`READING_ORDER` (the
    engine keys a reading by some of them without making the dict).

    >>> from scorer.search.decompose import Group
    >>> r = Reading("seven_pairs", tuple(Group("pair", (t, t)) for t in (0, 0, 1, 2, 3, 4, 5)), -1,
    ...             False)
    >>> v = reading_values(r, None, None)
    >>> v[READING_ORDER.index("luxury")], v[READING_ORDER.index("seven_pairs")]  # 1111m
    (1, True)
    """
    shape = r.shape
    groups = r.groups
    n = own = 0
    for group in groups:
        w = group.wild
        if w:
            n += len(w)
            own += w.count(face)
    win_wild = r.win_wild
    g = groups[r.win] if r.win >= 0 else None
    win_tile: int | None
    if g is None:
        win_tile = None
    elif win_wild:
        win_tile = g.wild[0]
    elif r.win_natural is not None:
        win_tile = r.win_natural
    else:
        win_tile = win_natural
    luxury = 0
    seven = shape == "seven_pairs"
    if seven:
        c = Counter(p.tiles[0] for p in groups if p.kind == "pair")
        luxury = sum(k // 2 for k in c.values())
    return (shape, shape == "standard", luxury, seven, groups, g, win_tile, win_wild,
            g is not None and g.kind == "pair" and len(g.wild) >= (2 if win_wild else 1),
            n - own, own)


# the names of reading_values(), in order
READING_ORDER = ("shape", "standard", "luxury", "seven_pairs", "groups", "win_group",
                 "win_tile", "win_wild", "lone_wild", "wild_substituted", "wild_as_self")


def _lists_family(env: Env) -> dict[str, Any]:
    """The reading's groups sorted by kind, and its tiles, in one pass (the facts sets,
    pairs, chows, pungs, kongs_held, tiles, pair): :func:`lists_facts` of its groups."""
    return lists_facts(_reading(env).groups)


def lists_facts(groups: tuple[Group, ...]) -> dict[str, Any]:
    """The facts of :func:`_lists_family` of a reading's ``groups`` (the engine fills them
    into each reading's Env at once where its ruleset reads them, see :data:`LISTS_FAMILY`).

    >>> f = lists_facts((Group("chow", (0, 1, 2)), Group("pung", (9, 9, 9)), Group("pair", (4, 4))))
    >>> len(f["sets"]), f["pair"].tiles, f["tiles"]
    (2, (4, 4), (0, 1, 2, 9, 9, 9, 4, 4))
    """
    sets: list[Group] = []
    pairs: list[Group] = []
    chows: list[Group] = []
    pungs: list[Group] = []
    kongs: list[Group] = []
    tiles: list[int] = []
    for g in groups:
        k = g.kind
        if k == "pair":
            pairs.append(g)
        elif k == "chow":
            sets.append(g)
            chows.append(g)
        elif k == "pung":
            sets.append(g)
            pungs.append(g)
        elif k == "kong":
            sets.append(g)
            pungs.append(g)
            kongs.append(g)
        tiles += g.tiles
    return {"sets": tuple(sets), "pairs": tuple(pairs), "chows": tuple(chows),
            "pungs": tuple(pungs), "kongs_held": tuple(kongs), "tiles": tuple(tiles),
            "pair": pairs[0] if len(pairs) == 1 else None}


# the facts of reading_facts(), which the engine fills into every reading's Env at once
# where no name of the hand's shadows one of them
READING_FAMILY = frozenset(READING_ORDER)
fuse(_reading_family, *sorted(READING_FAMILY))
LISTS_FAMILY = frozenset({"sets", "pairs", "chows", "pungs", "kongs_held", "tiles", "pair"})
fuse(_lists_family, *sorted(LISTS_FAMILY))


@fact("concealed_pungs", INT, "reading",
      "pungs and kongs made of concealed tiles (暗刻; concealed kongs count). On a discard "
      "win a pung of the winning tile counts as claimed, unless the winning tile can also be "
      "read as part of a concealed chow of the same reading")
def _concealed_pungs(env: Env) -> int:
    r = _reading(env)
    n = sum(1 for g in r.groups if g.kind in ("pung", "kong") and not g.exposed)
    if env["self_draw"]:
        return n
    if r.win_wild:  # the winning tile is where the reading put it
        return n - sum(1 for g in r.groups if g.has_win and g.kind == "pung" and g.meld < 0)
    w = env["win_tile"]
    concealed = [g for g in r.groups if g.meld < 0]
    if any(g.kind == "pung" and g.tiles[0] == w for g in concealed) and not any(
            g.kind == "chow" and w in g.tiles for g in concealed):
        n -= 1
    return n


@fact("wait", STR, "reading",
      "how the winning tile was waited on, when the hand waited on that tile only: 'edge' "
      "(it completes a concealed chow at one end, e.g. 12 waiting 3), else 'closed' (in the "
      "middle), else 'single' (it pairs a lone tile); 'none' when the hand waited on more "
      "than one tile or it fits none of these. 'Only one tile' is judged on the concealed "
      "tiles outside a knitted straight, without the winning tile: as a pair and sets, and "
      "with 13 tiles also as seven pairs. Only standard and knitted-straight readings, and "
      "never with wildcards, have a wait")
def _wait(env: Env) -> str:
    r = _reading(env)
    if r.shape not in ("standard", "knitted_straight") or r.win_wild or env["wild_count"]:
        return "none"
    w = env["win_tile"]
    edge = closed = single = False
    pung = other_pair = False
    counts = [0] * T.NUM_KINDS
    sets = 0
    for g in r.groups:
        if g.meld >= 0 or g.kind == "knit":
            continue
        for t in g.tiles:
            counts[t] += 1
        if g.kind == "pair":
            if g.tiles[0] == w:
                single = True
            else:
                other_pair = True
            continue
        sets += 1
        if g.kind == "chow" and w in g.tiles:
            if g.tiles[1] == w:
                closed = True
            else:
                edge = True
                # a two-sided wait: the tile beyond the chow's other end completes it too
                if (w == g.tiles[0] and w % 9 <= 5) or (w == g.tiles[2] and w % 9 >= 3):
                    return "none"
        elif g.kind == "pung" and g.tiles[0] == w:
            pung = True
    if not (edge or closed or single):
        return "none"
    if pung and other_pair:  # waited on two pairs (双碰): the other pair's tile wins too
        return "none"
    counts[w] -= 1
    key = tuple(counts)
    mask = standard_waits(key, sets)
    if sum(key) == 13:
        mask |= seven_pairs_wait(key)
    if mask & (mask - 1):  # more than one tile
        return "none"
    return "edge" if edge else "closed" if closed else "single"


# Tiles of the kinds below (indices, see scorer.model.tiles).
GREEN_TILES = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 bamboo and green dragon (绿一色)
REVERSIBLE_TILES = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})  # 推不倒


def _tile_counts(env: Env) -> dict[int, int]:
    """How many of each tile the reading holds, melds included (kongs count four).

    Computed once per reading; once per hand at a table without wildcards, as every
    reading then has the hand's own tiles (counted from the hand, melds included)."""
    holder: Env = env.parent if (env.parent is not None and env["wild_face"] is None) else env
    counts: dict[int, int] | None = holder.get("__counts__")
    if counts is not None:
        return counts
    counts = {}
    if holder is env:
        for t in env["tiles"]:
            counts[t] = counts.get(t, 0) + 1
    else:
        h = holder["__hand__"]
        for t in (*h.concealed, h.winning):
            counts[t] = counts.get(t, 0) + 1
        for m in h.melds:
            for t in m.tiles:
                counts[t] = counts.get(t, 0) + 1
    holder["__counts__"] = counts
    return counts


# Each profile fact from the tile counts; computed only when an expression asks for it
# (a ruleset that reads `suits` alone does not pay for `all_green`).
_PROFILE: dict[str, Callable[[dict[int, int]], Any]] = {
    "suits": lambda c: tuple(sorted({T.SUITS[t // 9] for t in c if t < 27})),
    "honor_tiles": lambda c: sum(n for t, n in c.items() if t >= 27),
    "suited_tiles": lambda c: sum(n for t, n in c.items() if t < 27),
    "has_wind": lambda c: any(27 <= t <= 30 for t in c),
    "has_dragon": lambda c: any(t >= 31 for t in c),
    "all_honors": lambda c: all(t >= 27 for t in c),
    "all_terminals": lambda c: all(t < 27 and t % 9 in (0, 8) for t in c),
    "all_yaojiu": lambda c: all(t >= 27 or t % 9 in (0, 8) for t in c),
    "all_simples": lambda c: all(t < 27 and t % 9 not in (0, 8) for t in c),
    "all_green": lambda c: all(t in GREEN_TILES for t in c),
    "all_reversible": lambda c: all(t in REVERSIBLE_TILES for t in c),
    "min_number": lambda c: min((t % 9 + 1 for t in c if t < 27), default=0),
    "max_number": lambda c: max((t % 9 + 1 for t in c if t < 27), default=0),
    "quads": lambda c: sum(1 for n in c.values() if n == 4),
}


# the profile facts, each computed from the reading's tiles
PROFILE_NAMES = frozenset(_PROFILE)


def _profile_holder(env: Env) -> Env:
    """Where a reading's tile profile is kept: the hand's Env at a table without
    wildcards (every reading then holds the hand's own tiles), else the reading's."""
    return env.parent if (env.parent is not None and env["wild_face"] is None) else env


def _profile(env: Env, name: str) -> Any:
    """One profile fact of the reading's tiles, computed alone by its scan of the counts
    (the fused family :func:`_profile_family` gives the same value with the others)."""
    holder = _profile_holder(env)
    key = "__profile_" + name
    if key in holder:
        return holder[key]
    value = _PROFILE[name](_tile_counts(env))
    holder[key] = value
    return value


def _mask_of(tiles: frozenset[int] | range) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


# Classes of tiles as 34-bit masks (bit t for tile t): a reading's profile is its own mask
# of the kinds it holds tested against these, instead of one scan of its tiles per fact.
_SUIT_MASKS = tuple(_mask_of(range(9 * s, 9 * s + 9)) for s in range(3))
_SUITED = _SUIT_MASKS[0] | _SUIT_MASKS[1] | _SUIT_MASKS[2]
_HONORS = _mask_of(range(27, 34))
_WINDS = _mask_of(range(27, 31))
_DRAGONS = _mask_of(range(31, 34))
_TERMINALS = _mask_of(frozenset({0, 8, 9, 17, 18, 26}))
_SIMPLES = _SUITED & ~_TERMINALS
_YAOJIU = _TERMINALS | _HONORS
_GREEN = _mask_of(GREEN_TILES)
_REVERSIBLE = _mask_of(REVERSIBLE_TILES)
# the suits held, by which of the three suit masks the reading meets (bit s for suit s)
_SUITS_BY_BITS = tuple(tuple(T.SUITS[s] for s in range(3) if bits >> s & 1) for bits in range(8))


def _profile_tiles(env: Env, holder: Env) -> tuple[int, ...]:
    """Every tile of the reading, as read (from the hand itself when ``holder`` is the
    hand's Env: then every reading holds the hand's own tiles)."""
    if holder is env:
        tiles: tuple[int, ...] = env["tiles"]
        return tiles
    h: Hand = holder["__hand__"]
    return (*h.concealed, h.winning, *(t for m in h.melds for t in m.tiles))


def _profile_family(env: Env) -> dict[str, Any]:
    """The tile-profile facts that depend only on which kinds the reading holds (suits,
    has_wind, …, all_reversible, min_number, max_number): one 34-bit mask of those kinds
    tested against class masks."""
    holder = _profile_holder(env)
    got: dict[str, Any] | None = holder.get("__profile__")
    if got is not None:
        return got
    tiles = _profile_tiles(env, holder)
    got = _PROFILES.get(tiles)  # the readings of a hand mostly hold the same tiles
    if got is not None:
        holder["__profile__"] = got
        return got
    mask = 0
    for t in set(tiles):
        mask |= 1 << t
    suited = mask & _SUITED
    # the numbers held in any suit, as bits 0-8 (number n at bit n-1)
    numbers = (suited | suited >> 9 | suited >> 18) & 0x1FF
    got = {
        "suits": _SUITS_BY_BITS[bool(mask & _SUIT_MASKS[0]) | bool(mask & _SUIT_MASKS[1]) << 1
                                | bool(mask & _SUIT_MASKS[2]) << 2],
        "has_wind": bool(mask & _WINDS),
        "has_dragon": bool(mask & _DRAGONS),
        "all_honors": not mask & ~_HONORS,
        "all_terminals": not mask & ~_TERMINALS,
        "all_yaojiu": not mask & ~_YAOJIU,
        "all_simples": not mask & ~_SIMPLES,
        "all_green": not mask & ~_GREEN,
        "all_reversible": not mask & ~_REVERSIBLE,
        "min_number": (numbers & -numbers).bit_length(),
        "max_number": numbers.bit_length(),
    }
    _remember(_PROFILES, tiles, got)
    holder["__profile__"] = got
    return got


# The tile-profile families by the reading's tiles as read (in group order), shared by
# every reading and hand that holds them: read-only dicts, emptied when full
_PROFILES: dict[tuple[int, ...], dict[str, Any]] = {}
_COUNTS: dict[tuple[int, ...], dict[str, Any]] = {}
PROFILES_SIZE = 4096


def _remember(memo: dict[tuple[int, ...], dict[str, Any]], tiles: tuple[int, ...],
              got: dict[str, Any]) -> None:
    if len(memo) >= PROFILES_SIZE:
        memo.clear()
    memo[tiles] = got


def _count_family(env: Env) -> dict[str, Any]:
    """The tile-profile facts that count tiles (honor_tiles, suited_tiles, quads), from one
    count of the reading's tiles."""
    holder = _profile_holder(env)
    got: dict[str, Any] | None = holder.get("__profile_counts__")
    if got is not None:
        return got
    tiles = _profile_tiles(env, holder)
    got = _COUNTS.get(tiles)
    if got is not None:
        holder["__profile_counts__"] = got
        return got
    counts = [0] * T.NUM_KINDS
    honors = 0
    for t in tiles:
        counts[t] += 1
        if t >= 27:
            honors += 1
    got = {"honor_tiles": honors, "suited_tiles": len(tiles) - honors,
           "quads": counts.count(4)}
    _remember(_COUNTS, tiles, got)
    holder["__profile_counts__"] = got
    return got


def _profile_fact(name: str, typ: Type, doc: str) -> None:
    FACTS[name] = Fact(name, typ, "reading", doc, _Profiled(name))


class _Profiled:
    """A profile fact computed alone (:func:`_profile`); a class, not a closure, so that the
    compiled build can take it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, env: Env) -> Any:
        return _profile(env, self.name)


_profile_fact("has_wind", BOOL, "the tiles include a wind")
_profile_fact("has_dragon", BOOL, "the tiles include a dragon")
_profile_fact("all_honors", BOOL, "every tile is a wind or dragon (字一色)")
_profile_fact("all_terminals", BOOL, "every tile is a suited 1 or 9 (清幺九)")
_profile_fact("all_yaojiu", BOOL, "every tile is a terminal or an honor (幺九牌)")
_profile_fact("all_simples", BOOL, "every tile is a suited 2-8 (断幺)")
_profile_fact("all_green", BOOL, "every tile is 2, 3, 4, 6 or 8 bamboo or the green dragon F "
              "(绿一色)")
_profile_fact("all_reversible", BOOL, "every tile looks the same upside down: 1234589p, "
              "245689s, P (推不倒)")
_profile_fact("min_number", INT, "the lowest number among the suited tiles (0 if none)")
_profile_fact("max_number", INT, "the highest number among the suited tiles (0 if none)")
_profile_fact("quads", INT, "tile kinds held four times, as read (a kong counts; 四归一 is "
              "quads minus kongs)")


# the 14 profile facts in two families: a ruleset that reads only `suits` (Jinhua) does
# not count tiles, one that reads only `honor_tiles` builds no mask
_COUNTED = ("honor_tiles", "suited_tiles", "quads")
fuse(_profile_family, *(n for n in _PROFILE if n not in _COUNTED))
fuse(_count_family, *_COUNTED)


# -- attributes of tiles and groups --------------------------------------------
TILE_ATTRS: dict[str, Attr] = {
    "name": Attr(STR, T.name, "short name: '5p', 'E'"),
    "suit": Attr(STR, T.suit_of, "'m' 'p' 's', or 'z' for honors"),
    "number": Attr(INT, T.number_of, "1-9 (suited); 1-7 for E S W N C F P"),
    "honor": Attr(BOOL, T.is_honor, "wind or dragon"),
    "wind": Attr(BOOL, T.is_wind, "E S W N"),
    "dragon": Attr(BOOL, T.is_dragon, "C F P"),
    "terminal": Attr(BOOL, T.is_terminal, "suited 1 or 9"),
    "simple": Attr(BOOL, lambda t: t < 27 and t % 9 not in (0, 8), "suited 2-8"),
    "yaojiu": Attr(BOOL, lambda t: t >= 27 or t % 9 in (0, 8), "terminal or honor (幺九)"),
}


_TERMINAL_SET = frozenset(t for t in range(27) if t % 9 in (0, 8))
_YAOJIU_SET = _TERMINAL_SET | frozenset(range(27, 34))


def _g_first(g: Group) -> int:
    return g.tiles[0]


GROUP_ATTRS: dict[str, Attr] = {
    "kind": Attr(STR, lambda g: g.kind, "'pair' 'chow' 'pung' 'kong' 'single' 'knit'"),
    "tiles": Attr(list_of(TILE, 4), lambda g: g.tiles, "its tiles as read"),
    "tile": Attr(TILE, _g_first, "its first (lowest) tile"),
    "suit": Attr(STR, lambda g: T.suit_of(g.tiles[0]), "'m' 'p' 's' or 'z'"),
    "number": Attr(INT, lambda g: T.number_of(g.tiles[0]), "number of its first tile"),
    "pair": Attr(BOOL, lambda g: g.kind == "pair", "a pair"),
    "chow": Attr(BOOL, lambda g: g.kind == "chow", "a chow (顺子)"),
    "pung": Attr(BOOL, lambda g: g.kind in ("pung", "kong"), "a pung or kong (刻子)"),
    "kong": Attr(BOOL, lambda g: g.kind == "kong", "a kong (杠)"),
    "honor": Attr(BOOL, lambda g: g.tiles[0] >= 27, "made of an honor tile"),
    "wind": Attr(BOOL, lambda g: T.is_wind(g.tiles[0]), "made of a wind"),
    "dragon": Attr(BOOL, lambda g: T.is_dragon(g.tiles[0]), "made of a dragon"),
    "suited": Attr(BOOL, lambda g: g.tiles[0] < 27, "made of suited tiles"),
    # (set tests, not a scan per tile: MCR asks these of every group of every reading)
    "terminal": Attr(BOOL, lambda g: not _TERMINAL_SET.isdisjoint(g.tiles), "holds a 1 or 9"),
    "yaojiu": Attr(BOOL, lambda g: not _YAOJIU_SET.isdisjoint(g.tiles),
                   "holds a terminal or honor"),
    "exposed": Attr(BOOL, lambda g: g.exposed, "a claimed meld"),
    "melded": Attr(BOOL, lambda g: g.meld >= 0, "written as a fixed meld (claimed, or a concealed kong)"),
    "concealed": Attr(BOOL, lambda g: g.concealed,
                      "not claimed, and (for a pung) not completed by a discarded winning tile"),
    "wilds": Attr(INT, lambda g: len(g.wild), "wildcards in the group"),
    "wilds_as_self": Attr(INT, lambda g, env: g.wild.count(env["wild_face"]),
                          "wildcards in the group read as their own face", env=True),
    "has_win": Attr(BOOL, lambda g: g.has_win, "the winning tile completed this group"),
}

ATTRS = {TILE: TILE_ATTRS, GROUP: GROUP_ATTRS}

# How much of a tile's identity an attribute reveals (see detail_level): 0 nothing beyond
# kind and wildcard facts, 1 its class (suit, honor, wind/dragon, terminal), 2 the tile itself.
ATTR_DETAIL = {
    (GROUP, "suit"): 1, (GROUP, "honor"): 1, (GROUP, "wind"): 1, (GROUP, "dragon"): 1,
    (GROUP, "suited"): 1, (GROUP, "terminal"): 1, (GROUP, "yaojiu"): 1,
    (GROUP, "tile"): 2, (GROUP, "tiles"): 2, (GROUP, "number"): 2,
    (TILE, "suit"): 1, (TILE, "honor"): 1, (TILE, "wind"): 1, (TILE, "dragon"): 1,
    (TILE, "terminal"): 1, (TILE, "simple"): 1, (TILE, "yaojiu"): 1,
    (TILE, "name"): 2, (TILE, "number"): 2,
}
NAME_DETAIL = {"suits": 1, "honor_tiles": 1, "suited_tiles": 1, "has_wind": 1, "has_dragon": 1,
               "all_honors": 1, "all_terminals": 1, "all_yaojiu": 1, "all_simples": 1,
               "all_green": 2, "all_reversible": 2, "min_number": 2, "max_number": 2,
               "quads": 2, "concealed_pungs": 2, "wait": 2}

# What makes an expression depend on *which* group the winning tile completed: a ruleset
# that uses none of these is scored with the winning tile placed once per decomposition
# (readings(place_once=True)), since every placement would score the same.
PLACEMENT_NAMES = frozenset({"win_group", "lone_wild"})
PLACEMENT_ATTRS = frozenset({(GROUP, "has_win"), (GROUP, "concealed")})


def placement_sensitive(exprs: list[Any]) -> bool:
    """True if any expression can tell where the winning tile was placed.

    Comparing groups (``g == win_group``, ``distinct(groups)``) counts as sensitive, since
    the placed group differs from its unplaced twin.
    """
    return any(c.names & PLACEMENT_NAMES or c.attrs & PLACEMENT_ATTRS or GROUP in c.compares
               for c in exprs)


# Which features of a tile's class a detail-1 attribute or name reveals: 'honor' (honor or
# suited), 'suit' (m p s or honor), 'wind' (wind or dragon), 'terminal' (1/9 or 2-8). The
# shapes judged by kind of tile (十三不靠, 乱风) fill wildcards with every valid tile and keep
# one fill per combination of these features (see readings.tile_codes). A detail-1 entry
# missing here counts as revealing every feature, so forgetting one is only slower.
ALL_FEATURES = frozenset({"honor", "suit", "wind", "terminal"})
ATTR_FEATURES = {
    (GROUP, "suit"): {"suit"}, (GROUP, "honor"): {"honor"}, (GROUP, "suited"): {"honor"},
    (GROUP, "wind"): {"wind", "honor"}, (GROUP, "dragon"): {"wind", "honor"},
    (GROUP, "terminal"): {"terminal"}, (GROUP, "yaojiu"): {"terminal", "honor"},
    (TILE, "suit"): {"suit"}, (TILE, "honor"): {"honor"}, (TILE, "wind"): {"wind", "honor"},
    (TILE, "dragon"): {"wind", "honor"}, (TILE, "terminal"): {"terminal"},
    (TILE, "simple"): {"terminal", "honor"}, (TILE, "yaojiu"): {"terminal", "honor"},
}
NAME_FEATURES = {"suits": {"suit"}, "honor_tiles": {"honor"}, "suited_tiles": {"honor"}}


def class_features(exprs: list[Any]) -> frozenset[str]:
    """Which features of a tile's class the expressions can see (for detail level 1).

    >>> from scorer.lang import compile_expr, Scope
    >>> sorted(class_features([compile_expr("len(suits) == 1", Scope({"suits": "list[str]"}))]))
    ['suit']
    """
    out: set[str] = set()
    for c in exprs:
        for key in c.attrs:
            if ATTR_DETAIL.get(key, 0) == 1:
                out |= ATTR_FEATURES.get(key, ALL_FEATURES)
        for name in c.names:
            if NAME_DETAIL.get(name, 0) == 1:
                out |= NAME_FEATURES.get(name, ALL_FEATURES)
    return frozenset(out)


def detail_level(exprs: list[Any]) -> int:
    """How finely a ruleset's expressions can tell tiles apart: 0, 1 or 2.

    The reading of a group made only of wildcards is enumerated up to this
    granularity (see :func:`scorer.search.readings.free_candidates`): a ruleset that
    never looks at suits does not need 34 readings of a wildcard pair.
    """
    level = 0
    for c in exprs:
        for key in c.attrs:
            level = max(level, ATTR_DETAIL.get(key, 0))
        for name in c.names:
            level = max(level, NAME_DETAIL.get(name, 0))
        if c.compares & {TILE, GROUP, ANY}:
            level = 2
    return level


def coerce_tile(text: str) -> int:
    """Turn a tile name in an expression ('E', '5p') into a tile."""
    return T.parse_tile(text)


def names_at(*levels: str) -> dict[str, Type]:
    """Name -> type for every fact at the given levels."""
    return {f.name: f.type for f in FACTS.values() if f.level in levels}


# the facts fill_context() and fill_hand() compute, in declaration order (fill_hand all at
# once, by _hand_family)
_EAGER_CONTEXT = tuple(f for f in FACTS.values() if f.level == "context" and f.eager)
EAGER_HAND = tuple(f for f in FACTS.values() if f.level == "hand" and f.eager)
