"""The messages of the flags of a win and of scoring, by stable code: code → (zh, en).

Part of the one catalogue (:data:`scorer.text.codes.CODES` holds these too): the
``--option`` values (``option.*``), the flags that contradict the hand, each other or the
ruleset (``flags.*``, ``kongs.*``, ``out.*``, ``chengbao.*``, ``range.*``) and the
limits of a ruleset's expressions while scoring (``eval.*``).

>>> ENGINE_CODES["out.twice"][1]
'--out {value}: a seat is given twice'
"""

from __future__ import annotations

ENGINE_CODES: dict[str, tuple[str, str]] = {
    # ---- a seat said from a player's place (上家/下家/对家) where there is nobody to say it from
    "seat.relative": ("{flag} {value}：没有可参照的人，请写 E S W N",
                      "{flag} {value}: nobody to count from; write E S W N"),
    "seat.relative_here": ("{value}：这里没有可参照的人，请写 E S W N（东南西北）",
                           "{value}: nobody to count it from here; write E S W N"),
    "seat.no_opposite": ("{flag} {value}：{players} 人桌没有对家",
                         "{flag} {value}: a {players}-player table has no 对家"),
    # ---- --option KEY=VALUE
    "option.none": ("{flag} {option}：{ruleset} 规则没有选项",
                    "{flag} {option}: the {ruleset} ruleset has no options"),
    # the did-you-mean at the end, where every other message has it (not "?;" mid-sentence)
    # the options and their values are listed by 'rules show', not here: an error is one
    # line, and the did-you-mean names the closest
    "option.unknown": ("{flag} {option}：没有这个选项（见 mjscore rules show {ruleset}）",
                       "{flag} {option}: no such option (see mjscore rules show {ruleset})"),
    "option.bad_value": ("{flag} {name}={value}：可用的值是 {values}",
                         "{flag} {name}={value}: valid values are {values}"),
    "option.not_whole": ("{flag} {name}={value}：要一个整数（数字 0-9）",
                         "{flag} {name}={value}: expected a whole number (digits 0-9)"),
    "option.range": ("{flag} {name}={value}：必须在 {min} 到 {max} 之间",
                     "{flag} {name}={value}: must be between {min} and {max}"),
    # ---- flags that contradict the hand
    "kongs.too_few": ("{said} 需要 {n} 个杠；这手牌亮出 {have} 个（杠：{melds}）",
                      "{said} needs {n} kong meld(s); the hand shows {have} (kongs: {melds})"),
    "kongs.none_shown": ("{said} 需要 {n} 个杠；这手牌亮出 {have} 个（杠：无）",
                         "{said} needs {n} kong meld(s); the hand shows {have} (none)"),
    "flags.fixed_meld": ("{flag}：起手时不会有副露 {meld}", "{flag}: {meld} cannot be claimed at the deal"),
    "flags.robbed_copy": ("--robbing-kong 与手牌矛盾：手里还有一张 {tile}",
                          "--robbing-kong contradicts the hand: it holds another {tile}"),
    "flags.fourth_copy": ("--fourth-tile（和绝张）与手牌矛盾：暗牌里还有一张 {tile}",
                          "--fourth-tile (和绝张): the hand holds another {tile}"),
    # ---- --out (血战: players already out of the round)
    "out.twice": ("--out {value}：有座位给了两次", "--out {value}: a seat is given twice"),
    "out.winner": ("--out {value}：胡牌者 {seat} 已经出局，不能再胡",
                   "--out {value}: the winner {seat} is already out of the round"),
    "out.discarder": ("--out {value}：放铳者 {seat} 已经出局，不会再打牌",
                      "--out {value}: the discarder {seat} is already out of the round"),
    "out.nobody": ("--out {value}：局里没有人剩下来付分",
                   "--out {value}: nobody is left in the round to pay"),
    # ---- flags that contradict each other (the flag table's implies/excludes)
    "flags.contradict": ("{one} 和 {other} 互相矛盾：{conflict:word}",
                         "{one} and {other} contradict each other: {conflict:word}"),
    "flags.contradict_implied": ("{one} 和 {other} 互相矛盾：{by} 说的是{state:word}，而{conflict:word}",
                                 "{one} and {other} contradict each other: {by} states "
                                 "{state:word}, and {conflict:word}"),
    "flags.contradict_implied2": ("{one} 和 {other} 互相矛盾：{by} 说的是{state:word}，{by2} 说的是"
                                  "{state2:word}，而{conflict:word}",
                                  "{one} and {other} contradict each other: {by} states "
                                  "{state:word}, and {by2} states {state2:word}, and "
                                  "{conflict:word}"),
    "flags.unused": ("{flag} 在 {ruleset} 规则里没有意义", "{flag} has no meaning in the {ruleset} ruleset"),
    "range.pinned": ("{flag} {value}：在 {ruleset} 规则里必须是 {lo}",
                     "{flag} {value}: {ruleset} allows only {lo}"),
    "range.at_most": ("{flag} {value}：{ruleset}最多算 {hi}{unit}",
                      "{flag} {value}: {ruleset} counts at most {hi}{unit}"),
    "range.at_least": ("{flag} {value}：{ruleset}最少算 {lo}{unit}",
                       "{flag} {value}: {ruleset} counts at least {lo}{unit}"),
    "wild.not_tile": ("--wild {value}：{error:error}", "--wild {value}: {error:error}"),
    "flowers.bad": ("--flowers {value}：{error:error}", "--flowers {value}: {error:error}"),
    "piao.no_wild": ("--piao 需要有财神的规则（财飘是打出财神）",
                     "--piao needs a wildcard rule (财飘 is discarding a wildcard)"),
    "chengbao.syntax": ("--chengbao {value}：写作 A:B（A 吃碰了 B 的三摊）",
                        "--chengbao {value}: write A:B (A made three 摊 off B)"),
    "chengbao.self": ("--chengbao {value}：不能自己承包自己",
                      "--chengbao {value}: a player cannot 承包 himself"),
    "chengbao.twice": ("--chengbao {value} 给了两次", "--chengbao {value} is given twice"),
    # ---- waits
    "waits.count": ("{have} 张；听牌要 {need} 张（每杠加一）{leave:word}",
                    "{have} tiles; waits take {need} (+1/kong){leave:word}"),
    "waits.count_kongs": ("{have} 张；{kongs} 个杠时听牌要 {need} 张{leave:word}",
                          "{have} tiles; waits take {need} ({kongs} kongs){leave:word}"),
    "leave.out": ("；去掉胡的那张", "; drop the winning tile"),
    "leave.keep": ("", ""),
    "waits.budget": ("规则的表达式算听牌超过 {limit} 秒 CPU，已停止",
                     "the ruleset took over {limit} s of CPU on these waits; stopped"),
    "tile.unknown": ("{text:q} 不是牌（例如写 5p、3m、7s、E、C、1z、东）",
                     "{text:q} is not a tile (write e.g. 5p, 3m, 7s, E, C, 1z, 东)"),
    # ---- settling
    "payment.not_zero": ("付分加起来不为零：{payments}", "payments do not sum to zero: {payments}"),
}

# What a whole-number flag counts, in a range error (a ruleset's label of the field first)
UNITS: dict[str, tuple[str, str]] = {
    "unit.dealer_streak": ("连庄", "连庄"),
    "unit.kongs": ("连杠", "consecutive kongs"),
    "unit.piao": ("次财飘", "turns of 财飘"),
    "unit.you": ("游（1 游金、2 双游、3 三游）", "游 (1 游金, 2 双游, 3 三游)"),
    "unit.base": ("底", "底"),
}
ENGINE_CODES.update(UNITS)

# Why two flags cannot both hold (flags.contradict*: {conflict:word}), and what a flag
# states when it implies another ({state:word}; a flag without a word here is named as typed)
CONFLICT_WORDS: dict[str, tuple[str, str]] = {
    "state.self_draw": ("自摸", "a self-drawn win"),
    "state.kong_draw": ("杠上开花", "a win on a kong replacement"),
    "conflict.discarder+self_draw": ("自摸的牌没有放铳者", "a self-drawn tile has no discarder"),
    "conflict.robbing_kong+self_draw": ("抢杠的牌来自别人的杠，不是从牌墙摸的",
                                        "the robbed tile comes from another player's kong, "
                                        "not from the wall"),
    "conflict.after_kong+self_draw": ("杠上炮是胡别人打的牌", "杠上炮 is won on a discard"),
    "conflict.kong_draw+robbing_kong": ("抢来的牌不是杠后补的牌",
                                        "a robbed tile is not a kong replacement"),
    "conflict.after_kong+kong_draw": ("杠上炮胡的是放铳者打的牌，不是补的牌",
                                      "杠上炮 is won on the discarder's tile, not on a "
                                      "replacement"),
    "conflict.after_kong+robbing_kong": ("杠上炮胡的是打出的牌，不是抢杠",
                                         "杠上炮 is won on a discard, not on a robbed kong"),
    "conflict.last_tile+robbing_kong": ("牌墙最后一张时不会有人开杠",
                                        "no kong is declared on the last tile of the wall"),
    "conflict.earthly+heavenly": ("胡牌要么在起手的牌上，要么在庄家第一张打出的牌上，不会两者都是",
                                  "a win is on the dealt tiles or on the dealer's first "
                                  "discard, not both"),
    "conflict.heavenly+human": ("天胡和人胡是不同玩家的第一次胡",
                                "天胡 and 人胡 are different players' first wins"),
    "conflict.earthly+human": ("地胡和人胡是第一圈里不同的胡",
                               "地胡 and 人胡 are different first-round wins"),
    "conflict.other": ("开关表规定它们不能同时成立", "the flag table rules them out together"),
}
_FIRST = {"heavenly": ("起手的牌上的胡", "a win on the dealt tiles"),
          "earthly": ("庄家第一张打出的牌上的胡", "a win on the dealer's first discard"),
          "human": ("第一圈里的胡", "a win within the first go-round")}
_LATE = {"last_tile": ("不在牌墙的最后一张上", "is not on the last tile of the wall"),
         "kong_draw": ("在任何人开杠之前", "comes before any kong is declared"),
         "robbing_kong": ("在任何人开杠之前", "comes before any kong is declared"),
         "ready_at_deal": ("不给起手报听（天听）的手留后来的胡",
                           "leaves no later win for a hand declared ready at the deal (天听)")}
for _f, (_fzh, _fen) in _FIRST.items():
    for _l, (_lzh, _len) in _LATE.items():
        CONFLICT_WORDS["conflict." + "+".join(sorted((_f, _l)))] = (f"{_fzh}{_lzh}",
                                                                     f"{_fen} {_len}")
ENGINE_CODES.update(CONFLICT_WORDS)
