"""The names a player sees for each context flag, in Chinese and English.

The flag table (:data:`scorer.rules.flags.FLAGS`) carries each flag's spelling, type,
range and English help; the page also needs a short name per language. One entry per
row of the table, keyed by its Context field (tests/serve/test_api.py fails when a row
has none, so a flag added to the table is named here too).

>>> NAMES["piao"]
('财飘', 'Wildcard discards (piao)')
"""

from __future__ import annotations

NAMES: dict[str, tuple[str, str]] = {
    "self_draw": ("自摸", "Self-drawn"),
    "discarder": ("放铳者", "Discarded by"),
    "seat": ("和牌者座位", "Winner's seat"),
    "round": ("圈风", "Prevailing wind"),
    "wild": ("财神 / 金", "Wildcard tile"),
    "dealer_streak": ("老庄 / 连庄", "Dealer streak"),
    "kong_draw": ("杠上开花", "Won on a kong replacement"),
    "kongs": ("连杠数", "Kongs in a row"),
    "robbing_kong": ("抢杠", "Robbing a kong"),
    "last_tile": ("海底", "Last tile"),
    "fourth_tile": ("和绝张", "Last copy of the tile"),
    "piao": ("财飘", "Wildcard discards (piao)"),
    "you": ("游金", "You jin level"),
    "ready_at_deal": ("天听", "Ready at the deal"),
    "heavenly": ("天胡", "Heavenly hand"),
    "earthly": ("地胡", "Earthly hand"),
    "human": ("人胡", "Human hand"),
    "flowers": ("花牌", "Flowers"),
    "chengbao": ("承包", "Liability (chengbao)"),
    "base": ("底分", "Base stake"),
    "after_kong": ("杠上炮", "Discard after a kong"),
    "out": ("已和出的座位", "Seats already out"),
    "options": ("选项", "Options"),
}
