"""The messages of the ledger, the seating and the stake, and of a batch line that cannot
be read, by stable code: code → (zh, en).

Part of the one catalogue (:data:`scorer.text.codes.CODES` holds these too). A seating
written as text (``--players``, a ``# players:`` line, the page's seating) names the
character position in it (``at``) and how it was given (``src``: ``--players``,
``# players``); a seating given as a record's mapping names the seat (``players S``).

>>> TABLE_CODES["players.not_seat"][1]
'{src} position {at}: {seat:q} is not a seat (E S W N)'
"""

from __future__ import annotations

TABLE_CODES: dict[str, tuple[str, str]] = {
    # ---- a seating written as text: --players SPEC, '# players: SPEC' (exit 2)
    "players.mixed": ("{src} 的第 {at} 个字符：都写 SEAT=NAME，或只写名字",
                      "{src} position {at}: all SEAT=NAME, or names in order"),
    "players.too_many": ("{src} 的第 {at} 个字符：超过 {n} 个座位",
                         "{src} position {at}: more than {n} seats"),
    "players.not_seat": ("{src} 的第 {at} 个字符：{seat:q} 不是座位（E S W N）",
                         "{src} position {at}: {seat:q} is not a seat (E S W N)"),
    "players.relative": ("{src} 的第 {at} 个字符：{seat:q}？请写 E S W N",
                         "{src} position {at}: {seat:q}? write E S W N"),
    "players.seat_twice": ("{src} 的第 {at} 个字符：座位 {seat} 写了两次",
                           "{src} position {at}: seat {seat} is named twice"),
    "players.no_name": ("{src} 的第 {at} 个字符：玩家要有名字",
                        "{src} position {at}: a player needs a name"),
    "players.name_long": ("{src} 的第 {at} 个字符：名字最多 {limit} 个字符",
                          "{src} position {at}: names: at most {limit} characters"),
    "players.twice": ("{src}：{name} 同时坐在 {first} 和 {second}",
                      "{src}: {name} sits at both {first} and {second}"),
    # ---- a seating given as a record's mapping (players: {E: Ann, ...})
    "players.map_type": ("players：{type} 不是座位到名字的对应表",
                         "players: {type} is not a mapping of seat to name"),
    "players.map_seat": ("players：{seat:q} 不是座位（E S W N）",
                         "players: {seat:q} is not a seat (E S W N)"),
    "players.map_no_name": ("players {seat}：玩家要有名字", "players {seat}: a player needs a name"),
    "players.map_name_long": ("players {seat}：名字是最多 {limit} 个字符的可打印文字",
                              "players {seat}: a name is at most {limit} printable characters"),

    # ---- the stake (--stake, a table's stake; exit 2)
    "stake.not_number": ("--stake {value}：不是数", "--stake {value}: not a number"),
    "stake.too_long": ("--stake：有 {n} 个字符；最多 {limit} 个",
                       "--stake: {n} characters long; at most {limit}"),
    "stake.not_decimal": ("--stake {value}：不是十进制数（写成 2 或 0.5 这样）",
                          "--stake {value}: not a decimal number (like 2 or 0.5)"),
    "stake.not_finite": ("--stake {value}：不是有限的数", "--stake {value}: not a finite number"),
    "stake.range": ("--stake {value}：超出范围（1e-{exp} 到 1e{exp}）",
                    "--stake {value}: out of range (1e-{exp} to 1e{exp})"),
    "stake.not_positive": ("--stake {value}：必须大于 0", "--stake {value}: must be more than 0"),
    "stake.not_exact": ("--stake {value}：不是精确的十进制数（写成 0.33 这样）",
                        "--stake {value}: not an exact decimal (write it like 0.33)"),

    # ---- booking records in the ledger (batch totals, the page's sheet; exit 2)
    "ledger.merge_mixed": ("按玩家记的账不能和按座位记的账合并",
                           "cannot merge a ledger by player with a ledger by seat"),
    "ledger.few_seatings": ("座位比记录少", "fewer seatings than records"),
    "ledger.named_late": ("这手写了玩家名字，前面的没有",
                          "this hand names players, earlier ones do not"),
    "ledger.unnamed_late": ("这手没写玩家名字，前面的写了",
                            "this hand names no players, earlier ones do"),
    "ledger.winner_unnamed": ("座位 {seat} 赢了 {amount}，却没有玩家名字",
                              "seat {seat} won {amount} but has no player name"),
    "ledger.payer_unnamed": ("座位 {seat} 付了 {amount}，却没有玩家名字",
                             "seat {seat} paid {amount} but has no player name"),
    "ledger.nets": ("净额合计不为零（{total}）", "the nets do not sum to zero ({total})"),
    "ledger.record_type": ("一条记录是带 'payments' 的对应表，不是 {type}",
                           "a record is a mapping with 'payments', not {type}"),
    "ledger.no_payments": ("这条记录没有 payments（{example}）",
                           "the record has no payments ({example})"),
    "ledger.pay_seat": ("payments：{seat:q} 不是座位（E S W N）",
                        "payments: {seat:q} is not a seat (E S W N)"),
    "ledger.pay_amount": ("payments {seat}：{amount} 不是整数分",
                          "payments {seat}: {amount} is not a whole number of points"),
    "ledger.pay_sum": ("payments 合计不为零（{total}）", "payments do not sum to zero ({total})"),
    "ledger.winner": ("winner：{winner} 不是座位（E S W N）",
                      "winner: {winner} is not a seat (E S W N)"),

    # ---- a line of a batch file that cannot be read (the line not counted; exit 1)
    "line.too_big": ("这一行有 {size} 字节；最多 {limit} 个字符",
                     "the line is {size} bytes long; at most {limit} characters"),
    "line.too_long": ("这一行有 {n} 个字符；最多 {limit} 个",
                      "the line is {n} characters long; at most {limit}"),
    "line.not_utf8": ("这一行不是 UTF-8 文本（有一个不是 UTF-8 的字节）",
                      "the line is not UTF-8 text (a byte that is not UTF-8)"),
    "line.unsplittable": ("读不了这一行：引号没有配对，或行尾是反斜杠",
                          "cannot split the line: open quote or final backslash"),
    "batch.run_only": ("{flag} 对整个 batch 有效，不能写在一行里",
                       "{flag} is for the whole batch, not for one line"),
    "batch.no_rules": ("这一行没有规则：给这一行或 batch 加 --rules ID",
                       "no ruleset for this line: add --rules ID to it or to batch"),
    "batch.argument": ("batch 从文件里读牌；其他参数必须是选项",
                       "batch reads the hands from the file; give only flags"),
    # ---- flags of a line or of score
    "flag.pairs": ("{flag} {value}：写成 KEY=VALUE（例如 cap=128）",
                   "{flag} {value}: write KEY=VALUE (e.g. cap=128)"),
    "explain_top.range": ("--explain-top {value}：至少为 1 的整数",
                          "--explain-top {value}: must be a whole number of at least 1"),

    # ---- mjscore rules (list, show, check, new, --clear-cache; exit 2)
    "rules.facts_alone": ("--facts 不接受规则：mjscore rules --facts",
                          "--facts takes no ruleset: mjscore rules --facts"),
    "rules.extra_args": ("多余的参数：{args}", "unexpected argument(s): {args}"),
    "rules.extra_after": ("规则后面有多余的参数：{args}",
                          "unexpected argument(s) after the ruleset: {args}"),
    "rules.new_only": ("--from 和 --force 是 'mjscore rules new FILE --from ID' 的选项",
                       "--from and --force belong to 'mjscore rules new FILE --from ID'"),
    "rules.two": ("给了两个规则：{first} 和 --rules {second}",
                  "two rulesets given: {first} and --rules {second}"),
    "rules.one_format": ("--yaml、--markdown 和 --json：只能选一个",
                         "--yaml, --markdown and --json: choose one"),
    "rules.needs_id": ("--yaml、--markdown 和 --option 要给一个规则：mjscore rules ID --markdown",
                       "--yaml, --markdown and --option need a ruleset: mjscore rules ID "
                       "--markdown"),
    "rules.clear_alone": ("--clear-cache 不接受别的参数：mjscore rules --clear-cache",
                          "--clear-cache takes nothing else: mjscore rules --clear-cache"),
    "rules_check.no_file": ("rules check 至少要一个规则文件",
                            "rules check needs at least one ruleset file"),
    "rules_new.one_file": ("rules new 要一个文件：mjscore rules new my.yaml --from hangzhou",
                           "rules new needs one file: mjscore rules new my.yaml --from hangzhou"),
    "rules_new.from": ("rules new 要 --from ID（内置规则的 id 或路径）",
                       "rules new needs --from ID (a built-in id or a path)"),
    "rules_new.suffix": ("rules new {name}：文件名必须以 .yaml 结尾",
                         "rules new {name}: the file name must end in .yaml"),
    "rules_new.exists": ("rules new {name}：已存在；换个名字，或加 --force",
                         "rules new {name}: exists; use another name or --force"),
    "rules_new.write": ("rules new {name}：写不了：{reason:word}",
                        "rules new {name}: cannot write: {reason:word}"),
}
