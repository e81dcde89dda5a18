"""What a ruleset's expressions can see of the tiles: the analysis the optimiser runs.

From the names and attributes the compiled expressions read (``Compiled.names``,
``attrs``, ``compares``), :mod:`scorer.rules.plan` decides how much work a hand needs:
how finely wildcards must be read (:func:`detail_level`, and at level 1
:func:`class_features`), and whether the winning tile must be placed in every group it
could complete (:func:`placement_sensitive`). The vocabulary read here is the one of
:mod:`scorer.rules.facts`; nothing here computes a fact.
"""

from __future__ import annotations

from typing import Any

from ..lang import ANY, GROUP, TILE

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
