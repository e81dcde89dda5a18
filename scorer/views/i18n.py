"""The one home of the words the views print: a message catalogue, key → (zh, en).

Every label, header, role, table heading and connective of the human report, the
``rules`` pages, ``--explain``, ``--vs`` and the batch table comes from here, so a
report under ``--lang zh`` has no English label left and ``--lang en`` no Chinese one
(pattern names and a ruleset's own labels are the ruleset's, in both languages).

``--lang`` defaults to ``zh`` (:data:`DEFAULT_LANG`), whatever the locale: the regional
games are played and argued in Chinese, and a report that changed with the machine's
locale would make batch files and scripts give different text on different machines.

>>> t("from_each", "en", payers="S, N"), t("from_each", "zh", payers="S, N")
(' from each of S, N', '，S, N 各付')
"""

from __future__ import annotations

from typing import Any

DEFAULT_LANG = "zh"

MESSAGES: dict[str, tuple[str, str]] = {
    # ---- the score report: heading
    "winner_line": ("{name} — {seat} 胡（{role}），{how}", "{name} — winner {seat} ({role}), {how}"),
    "dealer": ("庄家", "dealer"),
    "idle": ("闲家", "idle"),
    "self_drawn": ("自摸", "self-drawn"),
    "on_discard_of": ("{seat} 放铳", "on {seat}'s discard"),
    "on_a_discard": ("点炮", "on a discard"),
    "robbing_of": ("抢 {seat} 的杠", "robbing {seat}'s kong"),
    "robbing_a_kong": ("抢杠", "robbing a kong"),
    "counts_as_self_drawn": ("（算自摸）", " (counts as self-drawn)"),
    # ---- the score report: line heads (padded to one width per language)
    "head_hand": ("手牌：", "Hand:"),
    "head_sorted": ("理牌：", "Sorted:"),
    "head_tiles": ("牌面：", "Tiles:"),
    "head_options": ("选项：", "Options:"),
    "head_flowers": ("花牌：", "Flowers:"),
    "head_reading": ("拆牌：", "Reading:"),
    "head_legend": ("记号：", "Legend:"),
    "head_wildcard": ("财神：", "Wildcard:"),
    "head_stand_in": ("替身：", "Stand-in:"),
    "head_why": ("为何：", "Why:"),
    "head_pattern": ("番种：", "Pattern:"),
    "head_replaced": ("被替：", "Replaced:"),
    "head_payment": ("付分：", "Payment:"),
    # ---- the reading and its legend
    "shape_standard": ("标准型", "standard"),
    "shape_seven_pairs": ("七对", "seven pairs"),
    "shape_thirteen_orphans": ("十三幺", "thirteen orphans"),
    "shape_as_held": ("按手牌", "as held"),
    "shape_gapped_honors": ("十三不靠", "gapped honors"),
    "shape_all_honors": ("全字", "all honors"),
    "shape_honors_knitted": ("全不靠", "honors and knitted"),
    "shape_knitted_straight": ("组合龙", "knitted straight"),
    "legend_wild": ("{mark} = 财神（{face}）", "{mark} = wildcard ({face})"),
    "legend_stand_in": ("{mark} = {tile} 替身，当 {face} 用", "{mark} = {tile} standing in for {face}"),
    "legend_win": ("{mark} = 胡的那张", "{mark} = completed by the winning tile"),
    "itself": ("本身", "itself"),
    "reads_itself": ("{tile}（本身）", "{tile} (itself)"),
    "reads_as": ("{tile} 当 {reads}", "{tile} as {reads}"),
    # ---- why lines (patterns that hinge on the wait)
    "why_without": ("去掉胡的 {tile}，剩 {rest}", "without the winning {tile}: {rest}"),
    "why_lone": ("+ 单独一张{tile}", "+ a lone {tile}"),
    "why_names": ("{names}：{why}", "{names}: {why}"),
    "why_any": ("听任意牌", "waiting on every tile"),
    "why_tiles": ("听 {tiles}", "waiting on {tiles}"),
    "why_one": ("只听 {tile}", "waiting on {tile} only"),
    "why_not_ready": ("未听牌", "not ready"),
    "why_refused": ("{name} 不算：{reason}", "no {name}: {reason}"),
    "why_discard": ("点炮胡不算", "not on a discard"),
    # ---- tiers
    "tier": ("{tier}", "{tier}"),
    # ---- payments
    "from_one": ("，{payer} 付", " from {payer}"),
    "from_each": ("，{payers} 各付", " from each of {payers}"),
    "discarder": ("放铳", "discarder"),
    "chengbao": ("承包 {a}:{b} → {who} 付 {amount}", "承包 {a}:{b} → {who} pays {amount}"),
    "dao_chengbao": ("倒承包 {a}:{b} → {who} 付 {amount}",
                     "倒承包 {a}:{b} → {who} pays {amount}"),
    "replaced_by": ("{name}（被 {by} 替代）", "{name} (by {by})"),
    # ---- the seat table
    "col_seat": ("座位", "seat"),
    "col_role": ("角色", "role"),
    "col_points": ("分数", "points"),
    "role_winner": ("胡家", "winner"),
    "role_pays": ("付", "pays"),
    "role_none": ("—", "—"),
    "seat_dealer": ("{seat}（庄）", "{seat} (dealer)"),
    # ---- --explain
    "explain_head": ("考虑过的拆法（{n} 种不同，由高到低）：",
                     "Readings considered ({n} distinct, best first):"),
    "explain_more": ("……另有 {k} 种（--explain-top {total} 全部列出）",
                     "… and {k} more (--explain-top {total} lists them all)"),
    "col_num": ("#", "#"),
    "col_shape": ("牌型", "shape"),
    "col_reading": ("拆牌", "reading"),
    "col_patterns": ("番种", "patterns"),
    "col_score": ("分", "score"),
    "col_winner": ("胡家得", "winner"),
    "col_why_lost": ("为何没选", "why not chosen"),
    "lost_best": ("最佳", "best"),
    "lost_lower": ("分低（{score} < {best}）", "lower ({score} < {best})"),
    "lost_pays": ("得分少（{gets} < {best}）", "pays less ({gets} < {best})"),
    "lost_tie": ("同分，排后", "equal, listed later"),
    "lost_excluded": ("规则不许：{msg}", "ruled out: {msg}"),
    "or": ("或", "or"),
    # ---- --vs
    "vs_same_result": ("两边结果一样。", "Both rulesets give the same result."),
    "vs_same": ("相同：", "same: "),
    "vs_with": ("，选项 {opts}", " with {opts}"),
    "vs_ignored": ("；不用：{flags}（此处无意义）", "; ignored: {flags} (no meaning here)"),
    "vs_row_result": ("结果", "result"),
    "vs_row_decomposition": ("拆牌", "decomposition"),
    "vs_row_wildcards": ("财神", "wildcards"),
    "vs_row_patterns": ("番种", "patterns"),
    "vs_row_chain": ("算法", "chain"),
    "vs_row_score": ("分", "score"),
    "vs_row_payment": ("付分", "payment"),
    "vs_scored": ("算出", "scored"),
    "vs_not_scored": ("算不出：{msg}", "not scored: {msg}"),
    "vs_not_a_win": ("不能胡：{msg}", "not a legal win: {msg}"),
    "vs_none": ("无", "none"),
    # ---- rules pages
    "rules_extends": ("继承：{chain}", "extends: {chain}"),
    "rules_hand": ("手牌 {n} 张；牌型：{shapes}", "hand: {n} tiles; shapes: {shapes}"),
    "rules_when": ("{shape}（条件 {cond}）", "{shape} (when {cond})"),
    "rules_tallies": ("计分：{tallies}；总分：{score}", "tallies: {tallies}; headline: {score}"),
    "rules_only_if_nothing": ("（别无番时才算）", " (only if nothing else counts)"),
    "rules_each_of": ("每个 {x}", "each of {x}"),
    "rules_flags": ("局面旗标：{flags}", "context flags: {flags}"),
    "rules_flags_none": ("只有 --seat --round --from --self-draw",
                         "none beyond --seat --round --from --self-draw"),
    "rules_default": ("（默认 {v}）", " (default {v})"),
    "rules_notes": ("说明：", "notes:"),
    "rules_suits": ("花色：{suits}", "suits: {suits}"),
    "rules_wildcard": ("财神：{text}", "wildcard: {text}"),
    "rules_payment": ("付分：{text}", "payment: {text}"),
    "rules_full": ("（完整条件见 --markdown 或 --yaml）",
                   "(full conditions: --markdown or --yaml)"),
    "col_id": ("id", "id"),
    "col_name": ("名称", "name"),
    "col_english": ("英文", "English"),
    "col_tally": ("计入", "tally"),
    "col_value": ("值", "value"),
    "col_when": ("条件", "when"),
    "col_replaces": ("替代", "replaces"),
    "col_tiers": ("分级", "tiers"),
    "col_option": ("选项", "option"),
    "col_values": ("取值", "values"),
    "col_default": ("默认", "default"),
    "col_meaning": ("含义", "meaning"),
    "col_patterns_n": ("番种数", "patterns"),
    "col_tiles": ("张数", "tiles"),
    "combine_max": ("取最大", "max"),
    "combine_sum": ("相加", "sum"),
    "combine_product": ("相乘", "product"),
    "list_hint": ("看一套：mjscore rules ID（--yaml 完整 YAML，--markdown 规则页；也可给自己的 "
                  "YAML 文件路径）\n自己定规则：mjscore rules new my.yaml --from ID",
                  "Show one with: mjscore rules ID   (--yaml: the full YAML, --markdown: a "
                  "rules page; or a path to your own YAML file)\nStart your own: mjscore "
                  "rules new my.yaml --from ID"),
    # ---- mjscore waits (views/waits.py)
    "waits_title": ("{seat}（{role}）听什么牌", "what {seat} ({role}) waits on"),
    "waits_dealer": ("庄家", "dealer"),
    "waits_idle": ("闲家", "idle"),
    "waits_hand": ("手牌：", "Hand:   "),
    "waits_waits": ("听牌：", "Waits:  "),
    "waits_held": ("已绝：", "Dead:   "),
    "waits_held_text": ("{tiles}（四张都在手里，听不到）", "{tiles} (every copy is in the hand)"),
    "waits_skipped": ("不算：", "Skipped:"),
    "waits_any": ("任意牌", "any tile"),
    "waits_any_other": ("其余任意牌", "any other tile"),
    "waits_faces": ("（{n} 种）", " ({n} faces)"),
    "waits_self_draw": ("自摸", "self-drawn"),
    "waits_discard": ("{seat} 放铳", "{seat}'s discard"),
    "waits_any_discard": ("任何人放铳", "any discard"),
    "waits_no_win": ("不能胡 [{n}]", "not a win [{n}]"),
    "waits_not_ready": ("未听牌", "not ready"),
    "waits_tile": ("牌", "tile"),
    "waits_how": ("方式", "how"),
    "waits_patterns": ("番种", "patterns"),
    "waits_score": ("分", "score"),
    "waits_notes": ("说明：", "Notes:"),
    "waits_how_self_draw": ("自摸", "self-drawn"),
    "waits_how_discard": ("放铳", "on a discard"),
    # ---- batch table (views/rows.py)
    "col_line": ("行", "line"),
    "col_hand": ("手牌", "hand"),
    "col_ruleset": ("规则", "ruleset"),
    "col_error": ("错误", "error"),
    # ---- the evening's totals (views/ledger.py)
    "totals_of": ("共 {n} {noun}的合计，按{by}", "Totals of {n} {noun}, per {by}"),
    "noun_hand": ("盘", "hand"),
    "noun_hands": ("盘", "hands"),
    "noun_round": ("局", "round"),
    "noun_rounds": ("局", "rounds"),
    "at_stake": ("，每分 {stake}", ", at {stake} a point"),
    "seats_rotate": ("（没有给玩家名字：座位随坐庄轮转，一个座位不是一个人）",
                     "(no player names were given; seats rotate as the deal passes, so a "
                     "seat is not one person)"),
    "not_counted_1": ("不计：1 行出错（{lines}）", "Not counted: 1 failed line ({lines})"),
    "not_counted_n": ("不计：{n} 行出错（{lines}）", "Not counted: {n} failed lines ({lines})"),
    "disputed_booked": ("有争议的行按其第一个规则计：{lines}",
                        "Disputed lines booked under their first ruleset: {lines}"),
    "penalties_booked": ("错和罚分（不算盘数）：{lines}",
                         "Penalties (false wins, not hands) booked: {lines}"),
    "adjustments_booked": ("调整（不算盘数）：{lines}", "Adjustments (not hands) booked: {lines}"),
    "col_penalties": ("错和", "false wins"),
    "penalty_row": ("错和：{seat} 付每家 {amount}", "false win: {seat} pays {amount} to each"),
    "adjust_row": ("调整", "adjustment"),
    "subtotals_of": ("{file} 的小计：", "Subtotals of {file}:"),
    "season_of": ("{n} 个文件合计（同名即同一人）：", "The {n} files together (a name is one person "
                  "throughout):"),
    "game_head": ("第 {n} 局：{name}", "Game {n}: {name}"),
    "game_where": ("（{file}，第 {line} 行）", " ({file}, line {line})"),
    "game_file": ("（{file}）", " ({file})"),
    "standings_head": ("{n} 局后的排名（按标准分，再按比赛分）",
                       "Standings after {n} games (by standard points, then match points)"),
    "standings_head_1": ("1 局后的排名（按标准分，再按比赛分）",
                         "Standings after 1 game (by standard points, then match points)"),
    "col_match": ("比赛分", "match points"),
    "col_place": ("名次", "place"),
    "col_standard": ("标准分", "standard points"),
    "col_games": ("局数", "games"),
    "col_player": ("玩家", "player"),
    "col_won": ("赢", "won"),
    "col_lost": ("输", "lost"),
    "col_net": ("净", "net"),
    "col_hands_won": ("胡牌盘数", "hands won"),
    "col_wins": ("胡牌次数", "wins"),
    "settle_nothing": ("结算：谁也不欠谁。", "To settle: nobody owes anything."),
    "settle_1": ("结算（1 笔）：", "To settle (1 transfer):"),
    "settle_n": ("结算（{n} 笔）：", "To settle ({n} transfers):"),
    "pays_to": ("{payer} 付给 {payee} {amount}", "{payer} pays {payee} {amount}"),
}


def t(key: str, lang: str = DEFAULT_LANG, **values: Any) -> str:
    """Return the message ``key`` in ``lang`` ('zh' or 'en'; anything else reads as zh),
    placeholders filled.

    >>> t("col_seat", "zh"), t("col_seat", "en")
    ('座位', 'seat')
    """
    zh, en = MESSAGES[key]
    return (en if lang == "en" else zh).format(**values)


def heads(keys: list[str], lang: str, texts: dict[str, str] | None = None) -> dict[str, str]:
    """Return the line heads ``keys`` in ``lang`` (or as ``texts`` gives them), each padded
    to the widest (in terminal columns: a CJK character takes two), so the report's text
    starts in one column.

    >>> heads(["head_hand", "head_payment"], "en")
    {'head_hand': 'Hand:    ', 'head_payment': 'Payment: '}
    """
    texts = {k: t(k, lang) for k in keys} | (texts or {})
    width = max(display_width(x) for x in texts.values()) + 1
    return {k: x + " " * (width - display_width(x)) for k, x in texts.items()}


def display_width(text: str) -> int:
    """Return the columns ``text`` takes in a terminal (wide characters count two).

    >>> display_width("番种"), display_width("abc")
    (4, 3)
    """
    if text.isascii():  # the English report: no need to load wcwidth at start-up
        return len(text)
    known = known_width(text)
    if known is not None:  # the Chinese report's words: no need to load wcwidth either
        return known
    from wcwidth import wcswidth

    w = wcswidth(text)
    # a control character makes wcswidth give up (-1): count what can be counted
    return w if w >= 0 else sum(max(0, wcswidth(c)) for c in text)


# Characters whose width is known without wcwidth (tests/lines/test_records.py holds them to
# wcwidth's): CJK ideographs, CJK punctuation and full-width forms take two columns; a
# few symbols of the reports one.
_WIDE = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0x3000, 0x3029), (0x3030, 0x303E),
         (0xFF01, 0xFF60), (0xFFE0, 0xFFE6))
_NARROW = frozenset("·×—…←→")


def known_width(text: str) -> int | None:
    """The columns ``text`` takes, if every character in it is printable ASCII or of
    :data:`_WIDE` or :data:`_NARROW`; else None (wcwidth then counts).

    >>> known_width("番种：3"), known_width("🀄") is None
    (7, True)
    """
    n = 0
    for ch in text:
        o = ord(ch)
        if 0x20 <= o < 0x7F or ch in _NARROW:
            n += 1
        elif any(lo <= o <= hi for lo, hi in _WIDE):
            n += 2
        else:
            return None
    return n
