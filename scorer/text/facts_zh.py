"""The vocabulary page in Chinese (``mjscore rules --facts --lang zh``): what every fact,
attribute of a tile or group, and function of a ruleset's expressions means, and the
page's own headings and paragraphs.

The English meanings stay where the names are defined (``.doc`` of
:data:`scorer.rules.facts.FACTS` and its attributes, ``.help`` of
:data:`scorer.lang.FUNCTIONS`): this module is their Chinese, name → text, one table per
kind of name (tests/text/test_facts_zh.py holds every name to an entry, so a fact added
without its Chinese fails). The page's own words are :data:`PAGE`, key → (zh, en), as in
:data:`scorer.text.words.WORDS`. Identifiers, expression syntax and tile notation are
written as they are.

>>> FACTS["self_draw"]
'和牌者自己摸到和的那张（自摸），含杠上开花的补牌'
>>> PAGE["level.hand"][0]
'整手牌'
"""

from __future__ import annotations

# the facts, by name (scorer.rules.facts.FACTS)
FACTS: dict[str, str] = {
    # ---- the win's context
    "self_draw": "和牌者自己摸到和的那张（自摸），含杠上开花的补牌",
    "discard": "和别人打出的牌（放铳/点炮，或抢杠）",
    "discarder": "打出和张的座位（--from），没有则为 none",
    "seat": "和牌者的座位：'E'（庄家）'S' 'W' 'N'",
    "round": "圈风：'E' 'S' 'W' 'N'",
    "seat_wind": "和牌者的门风，作为一张牌",
    "round_wind": "圈风，作为一张牌",
    "winner_is_dealer": "和牌者坐东（庄家）",
    "wild": "--wild 给的牌，没有则为 none",
    "dealer_streak": "--dealer-streak（老庄/连庄的次数）",
    "kong_draw": "和在杠后的补牌上（--kong-draw 或 --kongs）",
    "kongs": "和牌前连续开杠的次数（--kongs；只给 --kong-draw 时为 1；否则为 0）",
    "robbing_kong": "抢杠和（--robbing-kong）",
    "last_tile": "和的是牌墙最后一张（海底，--last-tile）",
    "fourth_tile": "和张是场上还没见过的最后一张（和绝张，--fourth-tile）",
    "piao": "和牌前和牌者连续打出财神的轮数（飘财，--piao）",
    "you": "--you 报的游金级数（没给为 0）",
    "ready_at_deal": "起手就听牌（天听，--ready-at-deal）",
    "heavenly": "--heavenly（天胡/起手三金倒）",
    "earthly": "--earthly（地胡）",
    "human": "--human（人胡）",
    "flowers": "花牌张数（--flowers）",
    "flower_list": "哪几张花，1-8（春夏秋冬 梅兰竹菊）；只给了张数时为空",
    "flowers_known": "--flowers 写明了是哪几张花（不只是张数）",
    "base": "--base（底分/底注），没给则用规则的默认值",
    "after_kong": "和的是放铳者自己开杠后打出的那张（杠上炮，--after-kong）",
    "out": "本局已经和牌离场的座位（--out，血战到底）：既不付也不和",
    # ---- payment
    "payer": "付这一份的座位",
    "payer_is_dealer": "付分者坐东（庄家）",
    "payer_is_discarder": "付分者就是放铳者",
    "score": "规则给这种拆法的总分（标题上的分数）",
    # ---- chengbao
    "a": "承包：吃碰 b 三摊的座位",
    "b": "承包：被 a 吃碰三摊的座位",
    "a_is_dealer": "承包：a 坐东（庄家）",
    "b_is_dealer": "承包：b 坐东（庄家）",
    # ---- the hand
    "wild_face": "本桌当财神用的那种牌，没有则为 none",
    "wild_count": "整手牌里的财神张数，不论当什么用",
    "kong_melds": "副露（括号里的牌组）中的杠数",
    "melds": "括号里写的副露数（吃碰杠来的牌组和暗杠）",
    "exposed_melds": "吃、碰、杠别人的牌得来的副露数",
    "chow_melds": "副露中的顺子数（吃来的）",
    "concealed_hand": "没有吃碰明杠（门前清；暗杠可以）",
    "hand_tiles": "手牌照写的每一张实牌，副露也算",
    "physical_quads": "暗牌中四张齐的牌种数，按实牌算（四张财神算一种）",
    "concealed_kongs": "副露中的暗杠数",
    "exposed_kongs": "副露中的明杠数",
    "win_copies_concealed": "暗牌中和张那种牌的张数，和张本身也算",
    "win_copies_melds": "副露中和张那种牌的张数",
    "nine_gates": "没有副露，去掉和张后的暗牌是同一门的 1112345678999"
                  "（九莲宝灯：这一门哪张都能和）",
    # ---- one reading
    "shape": "这种拆法的牌型：'standard'、'seven_pairs'、'thirteen_orphans' 等",
    "standard": "一对将加若干面子（普通和牌型）",
    "seven_pairs": "七对",
    "groups": "这种拆法的每一组牌，副露也算",
    "sets": "这种拆法的顺子、刻子和杠",
    "pairs": "这种拆法的对子（一对，或七对）",
    "chows": "顺子",
    "pungs": "刻子和杠",
    "kongs_held": "杠",
    "tiles": "这种拆法读出的每一张牌（杠算四张）",
    "win_group": "和张凑成的那一组",
    "win_tile": "这种拆法把和张读成的牌",
    "win_wild": "和张是财神",
    "lone_wild": "和张与单吊的一张财神成对：去掉和张后，手牌是整副面子（或六对）"
                 "加一张财神（爆头/游金/七客）",
    "luxury": "七对中四张相同的牌算两对的个数（豪华），按财神替换后算",
    "wild_substituted": "当别的牌用的财神张数",
    "wild_as_self": "当本身用的财神张数（不算替换）",
    "suits": "数牌的花色（'m'、'p'、's'），不重复",
    "honor_tiles": "字牌张数（风牌和箭牌）",
    "suited_tiles": "数牌张数",
    "pair": "只有一对将的拆法里的那对将（普通牌型、组合龙、十三幺），否则为 none",
    "concealed_pungs": "暗牌组成的刻子和杠（暗刻；暗杠也算）。点炮和时，和张所在的刻子"
                       "算明刻，除非同一拆法里和张也能读作一副暗顺子的一张",
    "wait": "只听这一张时怎么听的：'edge'（边张，和张在一副暗顺子的一头，如 12 听 3），"
            "否则 'closed'（嵌张，在中间），否则 'single'（单吊，和张与单张成对）；"
            "听不止一张或都不是时为 'none'。“只听一张”看组合龙以外、去掉和张的暗牌："
            "按将加面子算，13 张时也按七对算。只有普通牌型和组合龙的拆法有听法，"
            "有财神时没有",
    "has_wind": "牌里有风牌",
    "has_dragon": "牌里有箭牌",
    "all_honors": "全是风牌和箭牌（字一色）",
    "all_terminals": "全是数牌的 1 和 9（清幺九）",
    "all_yaojiu": "全是数牌的 1、9 或字牌（幺九牌）",
    "all_simples": "全是数牌的 2-8（断幺）",
    "all_green": "全是条子的 2、3、4、6、8 和发财 F（绿一色）",
    "all_reversible": "每张牌倒过来都一样：1234589p、245689s、P（推不倒）",
    "min_number": "数牌中最小的点数（没有数牌为 0）",
    "max_number": "数牌中最大的点数（没有数牌为 0）",
    "quads": "按拆法读，四张齐的牌种数（杠也算；四归一是 quads 减去杠数）",
}

# a tile's attributes (scorer.rules.facts.TILE_ATTRS)
TILE_ATTRS: dict[str, str] = {
    "name": "简写：'5p'、'E'",
    "suit": "'m' 'p' 's'，字牌为 'z'",
    "number": "1-9（数牌）；E S W N C F P 为 1-7",
    "honor": "字牌（风牌或箭牌）",
    "wind": "风牌 E S W N",
    "dragon": "箭牌 C F P",
    "terminal": "数牌的 1 或 9（老头牌）",
    "simple": "数牌的 2-8（中张）",
    "yaojiu": "数牌的 1、9 或字牌（幺九）",
}

# a group's attributes (scorer.rules.facts.GROUP_ATTRS)
GROUP_ATTRS: dict[str, str] = {
    "kind": "种类：'pair'（对子）'chow'（顺子）'pung'（刻子）'kong'（杠）'single'（单张）"
            "'knit'（组合龙的一段）",
    "tiles": "组里读出的牌",
    "tile": "组里第一张（最小的）牌",
    "suit": "'m' 'p' 's' 或 'z'",
    "number": "第一张牌的点数",
    "pair": "对子（将）",
    "chow": "顺子",
    "pung": "刻子或杠",
    "kong": "杠",
    "honor": "字牌组成",
    "wind": "风牌组成",
    "dragon": "箭牌组成",
    "suited": "数牌组成",
    "terminal": "含 1 或 9",
    "yaojiu": "含数牌的 1、9 或字牌",
    "exposed": "吃碰明杠来的副露",
    "melded": "写成固定副露（吃碰杠来的，或暗杠）",
    "concealed": "不是吃碰来的，而且（刻子）不是靠别人打出的和张凑成的",
    "wilds": "组里的财神张数",
    "wilds_as_self": "组里当本身用的财神张数",
    "has_win": "和张凑成了这一组",
}

# the functions (scorer.lang.FUNCTIONS): the call as written, then its meaning
FUNCTIONS: dict[str, str] = {
    "len": "len(list) -> int：项数",
    "count": "count(items) -> int：为真的项数，如 count(g for g in sets if g.pung)",
    "any": "any(items) -> bool：有一项为真",
    "all": "all(items) -> bool：每项都为真",
    "sum": "sum(numbers) -> int：总和",
    "min": "min(a, b, ...) 或 min(numbers) -> int：最小值",
    "max": "max(a, b, ...) 或 max(numbers) -> int：最大值",
    "abs": "abs(n) -> int：绝对值",
    "distinct": "distinct(items) -> list：去掉重复的项，保持原顺序",
    "sorted": "sorted(items) -> list：从小到大排好",
    "tile": "tile('5p') -> tile：一张牌的常量",
    "any_reading": "any_reading(condition) -> bool：这手牌有一种拆法满足条件即为真"
                   "（只用于整手牌一级的检查）",
}

# the page's own words, key → (zh, en)
PAGE: dict[str, tuple[str, str]] = {
    "title": ("# 规则的条件和取值能用什么",
              "# What a ruleset's conditions and values can use"),
    "generated": ("> 由 `mjscore rules --facts` 生成；请勿手改。",
                  "> Generated by `mjscore rules --facts`; do not edit by hand."),
    "intro": ("条件（`when:`）和取值（`value:`）都是表达式，写法像 Python：有 "
              "`and or not`、`== != < <= > >=`、`in`、`+ - * // % **`、`a if c else b`、"
              "`count(g for g in sets if g.pung)`，牌的常量写成字符串（`'5p'`、`'E'`）。"
              "数都是整数。",
              "Conditions (`when:`) and values (`value:`) are expressions: Python-like, "
              "with `and or not`, `== != < <= > >=`, `in`, `+ - * // % **`, "
              "`a if c else b`, `count(g for g in sets if g.pung)`, tile constants as "
              "text (`'5p'`, `'E'`). Numbers are whole numbers."),
    "level.context": ("和牌的场合（旗标和选项）",
                      "The win's context (flags and options)"),
    "level.context.text": ("来自命令行的旗标；每个表达式都能用，规则的选项也能按名字用。"
                           "由旗标给的事实（如 `last_tile` 由 `--last-tile` 给）要在规则的 "
                           "`context:` 里列出那个旗标。",
                           "From the command-line flags; every expression can use them, and "
                           "a ruleset's options by their names. A fact fed by a flag (e.g. "
                           "`last_tile` by `--last-tile`) needs that flag listed under the "
                           "ruleset's `context:`."),
    "level.hand": ("整手牌", "The hand"),
    "level.hand.text": ("实际的手牌，不论选了哪种拆法。",
                        "The physical hand, whatever reading is chosen."),
    "level.reading": ("手牌的一种拆法", "One reading of the hand"),
    "level.reading.text": ("一种拆牌，每张财神各定了当什么用：番种和拆法一级的 "
                           "not_a_win 检查看的是这些。",
                           "One decomposition with one assignment of every wildcard: "
                           "patterns and reading-level not_a_win checks see these."),
    "level.payment": ("付分（每个付分者）", "Payment (per payer)"),
    "level.payment.text": ("只在 `payment` 里能用：`pays`、`amount` 和 `let` 的值；"
                           "计分项的名字（如 `fan`）也能用。",
                           "Only in payment: pays, amount and let values; the tally names "
                           "(e.g. fan) are there too."),
    "level.chengbao": ("承包关系", "承包 relations"),
    "level.chengbao.text": ("只在 `payment.chengbao.allowed` 和 `reverse_factor` 里能用。",
                            "Only in payment.chengbao.allowed and reverse_factor."),
    "attrs.tile": ("牌的属性（`x.attr`）", "Attributes of a tile (`x.attr`)"),
    "attrs.group": ("一组牌的属性（`x.attr`）", "Attributes of a group (`x.attr`)"),
    "functions": ("函数", "Functions"),
}
