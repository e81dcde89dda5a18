"""The vocabulary of ruleset expressions: named facts about the hand, the reading and the win.

Each fact has a name, a type, a level and a one-line description:

* ``context`` facts come from the flags (``self_draw``, ``piao``, ``seat`` …)
* ``hand`` facts depend only on the physical hand (``wild_count``, ``kong_melds``)
* ``reading`` facts depend on one reading (``lone_wild``, ``luxury``, ``sets``)

Facts are computed lazily: :class:`~scorer.rules.env.Env` computes a fact the first time
an expression asks for it and keeps it for the rest of that reading. The list is
printed by ``mjscore rules --facts`` and in ``docs/facts.md``.

To add a fact: write a function of the Env and register it with
:func:`~scorer.rules.env.fact` (the registry and the Env are :mod:`scorer.rules.env`; the
tile-profile facts are computed in :mod:`scorer.rules.profile`; what the optimiser reads
of the expressions is :mod:`scorer.rules.analysis`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from ..lang import BOOL, GROUP, INT, STR, TILE, Attr, Type, list_of, maybe
from ..model import tiles as T
from ..model.hand import Hand
from ..search.decompose import Group
from ..search.readings import Reading
from ..search.waits import seven_pairs_wait, standard_waits
from . import profile as P
from .env import FACTS as FACTS
from .env import Env as Env
from .env import Fact, fact, given

# Facts that depend on what the hand waited on (the hand without its winning tile): a
# pattern or check whose expression reads one of them gets a "why" line in the report
# (the hand minus the winning tile and its waits, scorer.views.report.why_lines).
WAIT_FACTS = frozenset({"lone_wild", "wait"})


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
    kongs = concealed_kongs = chows = win_melds = 0
    win = hand.winning
    for m in hand.melds:
        win_melds += m.tiles.count(win)
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
        # (MCR's patterns read these on every hand: one Env lookup through each reading's
        # Env to the hand's, then the fact's function, cost more than computing them here)
        "win_copies_concealed": held[win], "win_copies_melds": win_melds,
        "nine_gates": _nine_gates_of(hand),
    }


@fact("win_copies_concealed", INT, "hand",
      "copies of the winning tile among the concealed tiles, the winning tile included",
      eager=True)
def _win_copies_concealed(env: Env) -> int:
    h = _hand(env)
    return 1 + h.concealed.count(h.winning)


@fact("win_copies_melds", INT, "hand", "copies of the winning tile shown in the fixed melds",
      eager=True)
def _win_copies_melds(env: Env) -> int:
    h = _hand(env)
    return sum(m.tiles.count(h.winning) for m in h.melds)


@fact("nine_gates", BOOL, "hand",
      "no melds, and the concealed tiles without the winning tile are 1112345678999 of one "
      "suit (九莲宝灯: any tile of that suit wins)", eager=True)
def _nine_gates(env: Env) -> bool:
    return _nine_gates_of(_hand(env))


def _nine_gates_of(h: Hand) -> bool:
    if h.melds or h.winning >= 27:
        return False
    return tuple(h.concealed) == _NINE_GATES[h.winning // 9]


# 1112345678999 of each suit (tiles sorted)
_NINE_GATES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(9 * s + k for k in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)) for s in range(3))


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
    return P.profile(env, "suits")  # type: ignore[no-any-return]


@fact("honor_tiles", INT, "reading", "number of honor tiles (winds and dragons)")
def _honor_tiles(env: Env) -> int:
    return P.profile(env, "honor_tiles")  # type: ignore[no-any-return]


@fact("suited_tiles", INT, "reading", "number of suited tiles")
def _suited_tiles(env: Env) -> int:
    return P.profile(env, "suited_tiles")  # type: ignore[no-any-return]


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


def fill_reading(env: Env, r: Reading, face: int | None, win_natural: int | None) -> None:
    """Put :func:`reading_facts` into ``env`` (the caller knows no name of the hand's
    shadows one of them); returns None."""
    dict.update(env, zip(READING_ORDER, reading_values(r, face, win_natural), strict=True))


def reading_facts(r: Reading, face: int | None, win_natural: int | None) -> dict[str, Any]:
    """The reading's shape, its winning group and its wildcards, in one pass (the facts
    shape, standard, seven_pairs, groups, win_group, win_tile, win_wild, lone_wild, luxury,
    wild_substituted, wild_as_self), of reading ``r`` at a table whose wildcard face
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


def lists_facts(groups: tuple[Group, ...]) -> dict[str, Any]:
    """A reading's groups sorted by kind, and its tiles, in one pass (the facts sets, pairs,
    chows, pungs, kongs_held, tiles, pair) of a reading's ``groups`` (the engine fills them
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
LISTS_FAMILY = frozenset({"sets", "pairs", "chows", "pungs", "kongs_held", "tiles", "pair"})


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


# -- the tile profile (computed in scorer.rules.profile) ----------------------------
def _profile_fact(name: str, typ: Type, doc: str) -> None:
    FACTS[name] = Fact(name, typ, "reading", doc, P.Profiled(name))


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


PROFILE_NAMES = P.PROFILE_NAMES


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
