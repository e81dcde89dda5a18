"""Random valid winning hands for any ruleset in rulesets/, as hypothesis strategies.

Reusable by any test::

    from hypothesis import given
    from tests.helpers.handgen import winning_hands

    @given(winning_hands("hangzhou"))
    def test_something(g):
        result = g.score()            # or run_line(g.line, g.rules)

How a hand is made (everything is read from the ruleset, nothing is per-ruleset code):

1. A *setup* is a way of setting the table found by trying flags on the ruleset
   (:func:`setups`): no flags, ``--wild TILE``, and each non-default option value,
   alone and with ``--wild``. A setup is kept if a plain hand scores under it (or is
   refused only as "not a win"), which gives its wildcard model (face, copies in play,
   stand-in tile), suits in play and seats.
2. A *logical* hand is built in one of the ruleset's shapes this generator knows
   (``standard``: a pair and ``sets`` sets, some of them fixed melds, kongs included;
   ``seven_pairs``; ``thirteen_orphans``): no tile is used more than four times.
3. It is written *physically*: any tile may be written as a wildcard (at most
   ``in_play`` of them, not inside melds when the ruleset forbids it), a copy of the
   wildcard's face may be written as the stand-in tile where the ruleset says it is an
   ordinary copy; no physical tile appears more than four times.
4. The winning tile is one of the concealed tiles, written last; the flags add
   ``--self-draw`` or ``--from SEAT`` and a seat at the table.

The hand is a legal *shape* by construction, so a ruleset may still refuse it as not a
legal win (a minimum, a discard rule): :meth:`GenHand.score` then raises NotAWin.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hypothesis import assume
from hypothesis import strategies as st

from scorer.cli.app import context_from_params, parse_score_args
from scorer.engine.context import resolve
from scorer.engine.result import Result
from scorer.engine.scoring import score
from scorer.errors import MjscoreError, NotAWin
from scorer.model import tiles as T
from scorer.model.hand import format_tiles
from scorer.model.notation import parse_hand
from scorer.rules.load import load_ruleset
from scorer.rules.model import Ruleset
from scorer.search.readings import WildSpec

ROOT = Path(__file__).resolve().parents[2]
KNOWN_SHAPES = ("standard", "seven_pairs", "thirteen_orphans")
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SUIT_TILES = {s: tuple(range(9 * i, 9 * i + 9)) for i, s in enumerate(T.SUITS)}


def ruleset_ids() -> list[str]:
    """Every ruleset in rulesets/ (the harnesses run over all of them)."""
    return sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


# ----------------------------------------------------------------------------- setups
@dataclass(frozen=True)
class Setup:
    """A ruleset with one way of setting the table, and what the table is then."""

    rules: str
    flags: tuple[str, ...]
    ruleset: Ruleset = field(repr=False, compare=False)
    spec: WildSpec = field(repr=False, compare=False)
    suits: tuple[str, ...] = ("m", "p", "s")
    seats: tuple[str, ...] = tuple(T.SEATS)
    honors: bool = True  # honor tiles are in play (not in Sichuan's 108 tiles)
    chow_melds: bool = True  # a claimed chow may be shown (not in Sichuan: 不能吃)

    @property
    def wild(self) -> bool:
        return self.spec.face is not None

    def tiles_in_play(self) -> list[int]:
        """Tiles that may be used naturally (a stand-in tile always reads as the face)."""
        out = [t for t in range(T.NUM_KINDS)
               if (t >= 27 and self.honors) or (t < 27 and T.SUITS[t // 9] in self.suits)]
        if self.wild and self.spec.stand_in is not None and self.spec.stand_in != self.spec.face:
            out = [t for t in out if t != self.spec.stand_in]
        return out


def _simple_hand(rs: Ruleset, suits: tuple[str, ...]) -> str:
    """A plain winning hand of the ruleset's size: chows in the first suit(s) and a pair."""
    chows = [s * 9 + o for s in range(3) if T.SUITS[s] in suits for o in (0, 3, 6)]
    groups = [format_tiles((t, t + 1, t + 2)) for t in chows[: rs.sets]]
    pair_tile = chows[0] + 1
    return "".join(groups) + format_tiles((pair_tile,)) + format_tiles((pair_tile,))


def _accepts(rules: str, hand: str, flags: tuple[str, ...]) -> bool:
    """Whether the table takes a hand at all (a win or not a win, but no input error)."""
    try:
        p = parse_score_args([hand, "--rules", rules, "--self-draw", *flags])
        score(str(p["hand"]), str(p["rules"]), context_from_params(p))
    except NotAWin:
        return True
    except MjscoreError:
        return False
    return True


def _try(rules: str, flags: tuple[str, ...]) -> Setup | None:
    rs = load_ruleset(rules)
    for suits in (("m", "p", "s"), ("m", "p")):
        line = [_simple_hand(rs, suits), "--rules", rules, "--self-draw", *flags]
        try:
            p = parse_score_args(line)
            ctx = context_from_params(p)
            score(str(p["hand"]), rs, ctx)
        except NotAWin:
            pass
        except MjscoreError:
            continue
        table = resolve(rs, ctx, parse_hand(str(p["hand"])))
        hand = _simple_hand(rs, suits)
        honors = _accepts(rules, hand[:-4] + "EE", flags)
        chows = _accepts(rules, f"[{hand[:3]}{hand[3]},1]{hand[4:]}", flags)
        return Setup(rules, flags, rs, table.wild, table.suits, table.seats, honors, chows)
    return None


@cache
def setups(rules: str) -> tuple[Setup, ...]:
    """The ways of setting the table that work: each option value, plain and with wildcards.

    Every non-default option value is tried alone (with and without ``--wild``); pairs
    of them are kept only when they make a table no single one makes (e.g. Hangzhou's
    no_bamboo needs players=2).
    """
    rs = load_ruleset(rules)
    singles: list[tuple[str, ...]] = []
    for name, spec in rs.options.items():
        for v in spec.values or ():
            if v != spec.default:
                shown = "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
                singles.append(("--option", f"{name}={shown}"))
    wilds: list[tuple[str, ...]] = [()]
    if "wild" in rs.flags:
        wilds += [("--wild", w) for w in ("5m", "E", "P", "9s")]
    found: list[Setup] = []
    keys: set[tuple[object, ...]] = set()

    def key(s: Setup) -> tuple[object, ...]:
        return (s.spec.face, s.spec.in_play, s.spec.stand_in, s.suits, s.seats)

    for of in [(), *singles]:
        for wf in wilds:
            s = _try(rules, of + wf)
            if s is not None:
                found.append(s)
                keys.add(key(s))
    for i, a in enumerate(singles):
        for b in singles[i + 1:]:
            if a[1].split("=")[0] == b[1].split("=")[0]:
                continue
            for wf in wilds:
                s = _try(rules, a + b + wf)
                if s is not None and key(s) not in keys:
                    found.append(s)
                    keys.add(key(s))
    assert found, f"no setup of {rules} scores a plain hand"
    return tuple(found)


# ----------------------------------------------------------------------------- hands
@dataclass(frozen=True)
class Meld:
    tiles: tuple[int, ...]  # physical, in written order
    offer: int
    reading: tuple[int, ...] | None  # written after '=' (logical), or None


@dataclass(frozen=True)
class GenHand:
    """A generated hand: its setup, melds, concealed tiles (written order) and winning tile."""

    setup: Setup
    melds: tuple[Meld, ...]
    concealed: tuple[int, ...]
    winning: int
    flags: tuple[str, ...]
    shape: str

    @property
    def rules(self) -> str:
        return self.setup.rules

    @property
    def text(self) -> str:
        return render(self.melds, self.concealed, self.winning)

    @property
    def line(self) -> str:
        """Hand and flags as on the command line (without --rules)."""
        return shlex.join([self.text, *self.setup.flags, *self.flags])

    @property
    def argv(self) -> list[str]:
        return ["score", self.text, "--rules", self.rules, *self.setup.flags, *self.flags]

    @property
    def physical(self) -> tuple[int, ...]:
        """Every physical tile in written order (melds first, winning tile last)."""
        return tuple(t for m in self.melds for t in m.tiles) + self.concealed + (self.winning,)

    def score(self) -> Result:
        p = parse_score_args([self.text, "--rules", self.rules, *self.setup.flags, *self.flags])
        return score(str(p["hand"]), self.setup.ruleset, context_from_params(p))

    def won(self) -> Result | None:
        """The hand's result, or None when the ruleset refuses it (a minimum, a rule of
        the win): the hands a test of results takes."""
        try:
            return self.score()
        except MjscoreError:
            return None

    def with_physical(self, tiles: tuple[int, ...]) -> GenHand:
        """The same hand with every physical tile replaced (same written order)."""
        out, k = [], 0
        for m in self.melds:
            out.append(Meld(tiles[k:k + len(m.tiles)], m.offer, m.reading))
            k += len(m.tiles)
        conc = tiles[k:-1]
        return GenHand(self.setup, tuple(out), tuple(conc), tiles[-1], self.flags, self.shape)


def render(melds: tuple[Meld, ...], concealed: tuple[int, ...], winning: int) -> str:
    parts = []
    for m in melds:
        body = format_tiles(m.tiles)
        if m.reading is not None:
            body += "=" + format_tiles(m.reading)
        if m.offer:
            body += f",{m.offer}"
        parts.append(f"[{body}]")
    return "".join(parts) + format_tiles((*concealed, winning))


def _limits(s: Setup, only: tuple[int, ...] | None = None) -> list[int]:
    """How many logical copies of each tile a hand may use (``only``: just these tiles).

    Four, except the wildcard's face when every copy of it must be a wildcard (no
    stand-in tile to write it with): then the copies in play.
    """
    lim = [4 if t in s.tiles_in_play() and (only is None or t in only) else 0
           for t in range(T.NUM_KINDS)]
    spec = s.spec
    if spec.face is not None and (spec.stand_in is None or spec.stand_in == spec.face
                                  or spec.stand_in_scope != "all"):
        lim[spec.face] = min(lim[spec.face] or 4, spec.in_play)
    return lim


@st.composite
def _logical_standard(draw: st.DrawFn, s: Setup, lim: list[int]) -> tuple[
        list[tuple[str, tuple[int, ...]]], list[tuple[int, ...]]]:
    """Melds as (kind, tiles) (kongs only among them) and the concealed groups + pair."""
    tiles = [t for t in range(T.NUM_KINDS) if lim[t]]
    starts = [t for t in tiles if t < 27 and t % 9 <= 6 and lim[t + 1] and lim[t + 2]]
    counts = [0] * T.NUM_KINDS
    n_melds = draw(st.integers(0, s.ruleset.sets))
    melds: list[tuple[str, tuple[int, ...]]] = []
    concealed: list[tuple[int, ...]] = []
    for i in range(s.ruleset.sets):
        chow_ok = starts and (s.chow_melds or i >= n_melds)
        kinds = (["chow"] if chow_ok else []) + ["pung"] + (["kong"] if i < n_melds else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "chow":
            t0 = draw(st.sampled_from(starts))
            group: tuple[int, ...] = (t0, t0 + 1, t0 + 2)
        else:
            t0 = draw(st.sampled_from(tiles))
            group = (t0,) * (3 if kind == "pung" else 4)
        assume(all(counts[t] + group.count(t) <= lim[t] for t in set(group)))
        for t in group:
            counts[t] += 1
        (melds.append((kind, group)) if i < n_melds else concealed.append(group))
    pair = draw(st.sampled_from([t for t in tiles if counts[t] + 2 <= lim[t]]))
    return melds, [*concealed, (pair, pair)]


@st.composite
def winning_hands(draw: st.DrawFn, rules: str | None = None, wild: bool | None = None,
                  shapes: tuple[str, ...] | None = None,
                  only: tuple[int, ...] | None = None) -> GenHand:
    """A random valid winning hand (a legal shape) for ``rules`` (any ruleset if None).

    ``wild=True`` keeps setups with a wildcard, ``False`` those without; ``shapes``
    limits the shapes; ``only`` limits the tiles the hand is read as (wildcards may still
    be written for them), e.g. ``only=ONE_SUIT`` for 清一色-type hands.
    """
    rid = rules or draw(st.sampled_from(ruleset_ids()))
    choices = [s for s in setups(rid) if wild is None or s.wild == wild]
    if not choices:
        raise ValueError(f"{rid} has no setup with wild={wild}")
    s = draw(st.sampled_from(choices))
    can = [sh for sh in s.ruleset.shapes if sh in KNOWN_SHAPES and (shapes is None or sh in shapes)]
    shape = draw(st.sampled_from(can))
    lim = _limits(s, only)
    tiles = [t for t in range(T.NUM_KINDS) if lim[t]]
    assume(tiles)
    meld_groups: list[tuple[str, tuple[int, ...]]] = []
    concealed_groups: list[tuple[int, ...]] = []
    if shape == "standard":
        meld_groups, concealed_groups = draw(_logical_standard(s, lim))
    elif shape == "seven_pairs":
        pair_tiles = draw(st.lists(st.sampled_from(tiles), min_size=7, max_size=7))
        assume(all(2 * pair_tiles.count(t) <= lim[t] for t in pair_tiles))
        concealed_groups = [(t, t) for t in pair_tiles]
    else:  # thirteen orphans
        orphans = [t for t in ORPHANS if lim[t]]
        assume(len(orphans) == 13)
        extra = draw(st.sampled_from([t for t in orphans if lim[t] >= 2]))
        concealed_groups = [(t,) for t in orphans] + [(extra,)]

    # physical writing: wildcards and stand-ins
    spec = s.spec
    logical_melds = [g for _, g in meld_groups]
    logical_conc = [t for g in concealed_groups for t in g]
    flat = [t for g in logical_melds for t in g] + logical_conc
    in_meld = [True] * sum(len(g) for g in logical_melds) + [False] * len(logical_conc)
    phys = list(flat)
    if spec.face is not None:
        face = spec.face
        jokers = 0
        for i, t in enumerate(flat):
            if t != face:
                continue
            # a logical copy of the face: a wildcard used as itself, or the stand-in tile
            # where the ruleset makes it an ordinary copy of the face
            stand = spec.stand_in is not None and spec.stand_in != face and (
                spec.stand_in_scope == "all" or in_meld[i])
            joker_ok = jokers < spec.in_play and (spec.in_melds or not in_meld[i])
            if stand and (not joker_ok or draw(st.booleans())):
                phys[i] = spec.stand_in  # type: ignore[call-overload]
            else:
                assume(joker_ok)
                jokers += 1
        slots = [i for i in range(len(flat))
                 if phys[i] != face and flat[i] == phys[i] and (spec.in_melds or not in_meld[i])]
        n = draw(st.integers(0, min(spec.in_play - jokers, len(slots))))
        for i in (draw(st.lists(st.sampled_from(slots), min_size=n, max_size=n, unique=True))
                  if n else []):
            phys[i] = face
    assume(all(phys.count(t) <= 4 for t in set(phys)))

    # melds with offers (a kong without an offer is concealed); sometimes '=reading'
    melds, k = [], 0
    for kind, g in meld_groups:
        # a meld's tiles are written sorted, so the i-th tile written is the i-th of
        # Hand.sources (which lists a meld's tiles sorted)
        ptiles = tuple(sorted(phys[k:k + len(g)]))
        k += len(g)
        # a chow is claimed from 上家 only (docs/rulings.md#common-chow-offer; other offers: input error)
        offer = 1 if kind == "chow" else draw(st.integers(0 if kind == "kong" else 1, 3))
        reading = g if ptiles != g and draw(st.booleans()) else None
        melds.append(Meld(ptiles, offer, reading))
    conc_phys = phys[k:]
    order = draw(st.permutations(range(len(conc_phys))))
    conc_phys = [conc_phys[i] for i in order]
    # the winning tile is written last
    win_at = draw(st.integers(0, len(conc_phys) - 1))
    win_p = conc_phys.pop(win_at)
    seat = draw(st.sampled_from(s.seats))
    flags: list[str] = ["--seat", seat]
    others = [x for x in s.seats if x != seat]
    if others and draw(st.integers(0, 3)) == 0:
        flags += ["--from", draw(st.sampled_from(others))]
    else:
        flags.append("--self-draw")
    return GenHand(s, tuple(melds), tuple(conc_phys), win_p, tuple(flags), shape)
