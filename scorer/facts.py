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
from dataclasses import dataclass
from typing import Any

from . import tiles as T
from .decompose import Group
from .expr import BOOL, GROUP, INT, STR, TILE, Attr, list_of
from .readings import Reading


@dataclass(frozen=True)
class Fact:
    name: str
    type: str
    level: str  # 'context' | 'hand' | 'reading'
    doc: str
    fn: Callable[[Env], Any] | None = None


FACTS: dict[str, Fact] = {}


def fact(name: str, typ: str, level: str, doc: str) -> Callable[[Callable[[Env], Any]],
                                                                 Callable[[Env], Any]]:
    """Register a computed fact."""
    def deco(fn: Callable[[Env], Any]) -> Callable[[Env], Any]:
        FACTS[name] = Fact(name, typ, level, doc, fn)
        return fn
    return deco


def given(name: str, typ: str, doc: str, level: str = "context") -> None:
    """Register a fact that is filled in directly (context values)."""
    FACTS[name] = Fact(name, typ, level, doc, None)


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
        f = FACTS.get(key)
        if f is not None and f.fn is not None and (f.level == "reading") == (
            "__reading__" in self
        ):
            value = f.fn(self)
        elif self.parent is not None:
            value = self.parent[key]
        else:
            raise KeyError(key)
        self[key] = value
        return value


# -- context -------------------------------------------------------------------
given("self_draw", BOOL, "the winner drew the winning tile (自摸), incl. a kong replacement")
given("discard", BOOL, "won on another player's tile (放铳/点炮, or a robbed kong)")
given("discarder", STR + "?", "seat that discarded the winning tile (--from), or none")
given("seat", STR, "the winner's seat: 'E' (dealer) 'S' 'W' 'N'")
given("round", STR, "prevalent wind: 'E' 'S' 'W' 'N'")
given("seat_wind", TILE, "the winner's seat wind as a tile")
given("round_wind", TILE, "the prevalent wind as a tile")
given("winner_is_dealer", BOOL, "the winner sits E (庄家)")
given("wild", TILE + "?", "the --wild tile, or none")
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
given("flower_list", list_of(INT), "which flowers, 1-8 (春夏秋冬 梅兰竹菊); empty if only a count was given")
given("flowers_known", BOOL, "--flowers named which flowers (not just a count)")
given("base", INT, "--base (底分 / 底注), or the ruleset's default")

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
given("wild_face", TILE + "?", "the tile whose copies are wildcards at this table, or none",
      level="hand")
given("wild_count", INT, "wildcard tiles held anywhere in the hand, whatever they stand for",
      level="hand")
given("kong_melds", INT, "kongs among the fixed melds", level="hand")
given("melds", INT, "fixed melds written in brackets (claimed melds and concealed kongs)",
      level="hand")
given("exposed_melds", INT, "claimed melds (chow, pung or kong taken from another player)",
      level="hand")
given("concealed_hand", BOOL, "no claimed melds (门清; concealed kongs allowed)", level="hand")
given("hand_tiles", list_of(TILE), "every physical tile of the hand as written, melds included",
      level="hand")
given("physical_quads", INT,
      "tile faces held four times among the concealed tiles, as physical tiles "
      "(four wildcards count as one)", level="hand")


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


@fact("groups", list_of(GROUP), "reading", "every group of the reading, fixed melds included")
def _groups(env: Env) -> tuple[Group, ...]:
    return _reading(env).groups


@fact("sets", list_of(GROUP), "reading", "the chows, pungs and kongs of the reading")
def _sets(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind in ("chow", "pung", "kong"))


@fact("pairs", list_of(GROUP), "reading", "the pairs of the reading (one, or seven)")
def _pairs(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "pair")


@fact("chows", list_of(GROUP), "reading", "the chows (顺子)")
def _chows(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "chow")


@fact("pungs", list_of(GROUP), "reading", "the pungs and kongs (刻子/杠)")
def _pungs(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind in ("pung", "kong"))


@fact("kongs_held", list_of(GROUP), "reading", "the kongs (杠)")
def _kongs_held(env: Env) -> tuple[Group, ...]:
    return tuple(g for g in _reading(env).groups if g.kind == "kong")


@fact("tiles", list_of(TILE), "reading", "every tile of the reading as read (kongs give four)")
def _tiles(env: Env) -> tuple[int, ...]:
    return tuple(t for g in _reading(env).groups for t in g.tiles)


@fact("win_group", GROUP + "?", "reading", "the group the winning tile completed")
def _win_group(env: Env) -> Group | None:
    return _reading(env).win_group


@fact("win_tile", TILE + "?", "reading", "the winning tile as read in this reading")
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


@fact("suits", list_of(STR), "reading", "the suits ('m','p','s') of the suited tiles, without repeats")
def _suits(env: Env) -> tuple[str, ...]:
    return tuple(sorted({T.SUITS[t // 9] for t in env["tiles"] if t < 27}))


@fact("honor_tiles", INT, "reading", "number of honor tiles (winds and dragons)")
def _honor_tiles(env: Env) -> int:
    return sum(1 for t in env["tiles"] if t >= 27)


@fact("suited_tiles", INT, "reading", "number of suited tiles")
def _suited_tiles(env: Env) -> int:
    return sum(1 for t in env["tiles"] if t < 27)


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


def _g_first(g: Group) -> int:
    return g.tiles[0]


GROUP_ATTRS: dict[str, Attr] = {
    "kind": Attr(STR, lambda g: g.kind, "'pair' 'chow' 'pung' 'kong' 'single' 'knit'"),
    "tiles": Attr(list_of(TILE), lambda g: g.tiles, "its tiles as read"),
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
    "terminal": Attr(BOOL, lambda g: any(T.is_terminal(t) for t in g.tiles), "holds a 1 or 9"),
    "yaojiu": Attr(BOOL, lambda g: any(t >= 27 or t % 9 in (0, 8) for t in g.tiles),
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
NAME_DETAIL = {"suits": 1, "honor_tiles": 1, "suited_tiles": 1}


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

    >>> from scorer.expr import compile_expr, Scope
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
    granularity (see :func:`scorer.readings.free_candidates`): a ruleset that
    never looks at suits does not need 34 readings of a wildcard pair.
    """
    level = 0
    for c in exprs:
        for key in c.attrs:
            level = max(level, ATTR_DETAIL.get(key, 0))
        for name in c.names:
            level = max(level, NAME_DETAIL.get(name, 0))
        if c.compares & {TILE, GROUP, "any"}:
            level = 2
    return level


def coerce_tile(text: str) -> int:
    """Turn a tile name in an expression ('E', '5p') into a tile."""
    return T.parse_tile(text)


def names_at(*levels: str) -> dict[str, str]:
    """Name -> type for every fact at the given levels."""
    return {f.name: f.type for f in FACTS.values() if f.level in levels}
