"""The catalogue's help texts: every word ``mjscore … --help`` prints, key → (zh, en).

Beside :data:`scorer.text.words.WORDS` and kept apart from
:data:`scorer.text.catalogue.CATALOGUE`: only a run that goes through typer (``--help``, a
command other than a well-formed ``score``/``waits``/``batch`` line) reads them, so the
fast ``score`` path never loads this module. :mod:`scorer.cli.helpfmt` gives each command
and option its text by key:

* ``help.PATH`` — a command's description (``PATH`` its words after ``mjscore``, joined by
  dots: ``help.score``, ``help.rules.show``; the app itself ``help.mjscore``);
  ``help.PATH.short`` — its line in its group's list of commands, where the description
  is long;
* ``help.PATH.PARAM`` — an option or argument of that command (``PARAM`` its Python name,
  as typer names it: ``help.rules.show.as_yaml``), else ``help.opt.PARAM``, shared by
  every command that has it (``--lang``, ``--json``, ``-h/--help``, and the flags of the
  flag table, which ``score``, ``waits`` and ``batch``'s list of a line's flags share);
* ``help.usage`` … ``help.required`` — the words of the page itself.

Flags, metavars, tile notation, ruleset ids and environment variables stay as they are in
both languages; the English texts gloss a Chinese term where the game has no English word
for it (``天听``, ``财飘``). ``{rulesets}`` is filled with the registry's ids.

>>> help_text("help.opt.self_draw", "zh"), help_text("help.opt.self_draw", "en")
('胡的那张是自摸的。', 'The winning tile was self-drawn.')
"""

from __future__ import annotations

from typing import Any

HELPS: dict[str, tuple[str, str]] = {
    # ---- the page's own words
    "help.usage": ("用法：", "Usage: "),
    "help.arguments": ("参数：", "Arguments:"),
    "help.options": ("选项：", "Options:"),
    "help.commands": ("命令：", "Commands:"),
    "help.options_metavar": ("[选项]", "[OPTIONS]"),
    "help.command_metavar": ("命令 [参数]...", "COMMAND [ARGS]..."),
    "help.default": ("（默认：{value}）", "[default: {value}]"),
    "help.required": ("（必填）", "[required]"),
    # ---- mjscore
    "help.mjscore": ("给中国麻将的牌算分，并说明为什么这样算。规则都写成数据：内置的有 "
                     "{rulesets}，也可以用你自己写的 YAML 文件。默认设置见 mjscore config。",
                     "Score Chinese mahjong hands and show why, under rulesets written as "
                     "data: {rulesets} are built in, or your own YAML file. Defaults: "
                     "mjscore config."),
    "help.mjscore.version": ("显示版本号后退出。", "Print the version and exit."),
    "help.opt.install_completion": ("为当前的 shell 装上命令补全。",
                                    "Install completion for the current shell."),
    "help.opt.show_completion": ("显示当前 shell 的补全脚本，可以复制下来自己装。",
                                 "Show completion for the current shell, to copy it or "
                                 "customize the installation."),
    "help.opt.help": ("显示这份说明后退出。", "Show this message and exit."),
    # ---- score and waits (their flags are the flag table's: help.opt.FIELD below)
    "help.score": ("算一手牌的分，并说明为什么：怎么拆、财神当什么、算了哪些番、番数怎么"
                   "算出来、谁付多少。",
                   "Score one hand and show why: reading, wildcards, patterns, chain, "
                   "payments."),
    "help.score.short": ("算一手牌的分，并说明为什么。", "Score one hand and show why."),
    "help.waits": ("差一张就胡的牌在听什么：每一张能胡的牌都算出分来（参数和 score 一样）。",
                   "What a hand one tile short waits on: every completing tile, scored "
                   "(takes the score flags)."),
    "help.waits.short": ("差一张就胡的牌听哪几张，每张各算多少分。",
                         "What a hand one tile short waits on, each tile scored."),
    "help.opt.hand": ("手牌，例如 '[EEE][123m]55p789s23p4p'（最后一张是胡的那张）。",
                      "The hand, e.g. '[EEE][123m]55p789s23p4p' (the last tile is the "
                      "winning tile)."),
    "help.opt.rules": ("规则：内置的 id（{rulesets}）或 YAML 文件的路径（默认："
                       "$MJSCORE_RULES，其次是配置文件里的 rules）。",
                       "Ruleset: a built-in id ({rulesets}) or a path to a YAML file "
                       "(default: $MJSCORE_RULES, else the config file's rules)."),
    "help.opt.self_draw": ("胡的那张是自摸的。", "The winning tile was self-drawn."),
    "help.opt.discarder": ("谁放的铳：E S W N（东南西北），或者从胡牌的人看过去的上家/对家/"
                           "下家。",
                           "Seat that discarded the winning tile: E S W N (东南西北), or "
                           "上家/对家/下家 seen from the winner (上家 = the seat before it "
                           "in turn)."),
    "help.opt.seat": ("胡牌的人坐哪里，E S W N（东南西北）；E 是庄家。",
                      "The winner's seat, E S W N (东南西北); E is the dealer."),
    "help.opt.round": ("圈风。", "Prevalent wind."),
    "help.opt.wild": ("财神（金）是哪张牌，例如 3m。", "Wildcard face (财神 / 金), e.g. 3m."),
    "help.opt.dealer_streak": ("老庄 / 连庄的次数。", "老庄 / 连庄 count (the dealer's streak)."),
    "help.opt.kong_draw": ("杠上开花：胡的是开杠后补上来的牌。", "Won on a kong replacement."),
    "help.opt.kongs": ("胡之前连着开了几个杠。", "Consecutive kongs before the win."),
    "help.opt.robbing_kong": ("抢杠胡。", "Won by robbing a kong."),
    "help.opt.last_tile": ("胡的是最后一张牌（海底）。", "Won on the last tile."),
    "help.opt.fourth_tile": ("和绝张：胡的是这张牌的最后一张。", "和绝张: the last copy."),
    "help.opt.piao": ("财飘：连着打出财神的次数。", "财飘: consecutive wildcard discards."),
    "help.opt.you": ("游金的级别：1、2（双游）、3（三游）。", "游金 level: 1, 2 (双游), 3 (三游)."),
    "help.opt.ready_at_deal": ("天听：起手就听牌。", "天听: ready at the deal."),
    "help.opt.heavenly": ("天胡 / 三金倒：起手就胡。", "天胡 / 三金倒 at the deal."),
    "help.opt.earthly": ("地胡。", "地胡 (the earthly win)."),
    "help.opt.human": ("人胡。", "人胡 (the human win)."),
    "help.opt.flowers": ("花牌：张数 0-8，或者是哪几张：1258f / 春夏梅。",
                         "A count 0-8, or which: 1258f / 春夏梅."),
    "help.opt.chengbao": ("A:B — A 吃碰了 B 的三摊，B 承包（可重复）。",
                          "A:B — A made three 摊 off B (repeatable)."),
    "help.opt.base": ("底分 / 底注。", "底分 / 底注 (the base stake)."),
    "help.opt.after_kong": ("杠上炮：放铳的人自己刚开过杠，胡的是他杠后打出的那张。",
                            "杠上炮: won on the discard after the discarder's own kong."),
    "help.opt.out": ("已经胡牌出局的座位（血战到底），例如 S,W 或 上家,对家（可重复）。",
                     "Seats already out of the round (血战到底), e.g. S,W or 上家,对家 "
                     "(repeatable)."),
    "help.opt.options": ("规则选项 KEY=VALUE（可重复），例如 cap=128。",
                         "Ruleset option KEY=VALUE (repeatable), e.g. cap=128."),
    "help.opt.vs": ("争议模式：再按这个规则（id 或路径）算一遍，列出两边算得不一样的地方。",
                    "Dispute mode: also score under this ruleset (id or path) and show where "
                    "the results differ."),
    "help.opt.vs_options": ("争议模式：--vs 那一边的规则选项 KEY=VALUE（不给 --vs 时：同一个"
                            "规则加上这个选项；可重复）。",
                            "Dispute mode: option KEY=VALUE for the --vs side (without --vs: "
                            "the same ruleset with this option; repeatable)."),
    "help.opt.as_json": ("以 JSON 输出结果。", "Print the result as JSON."),
    "help.opt.explain": ("列出考虑过的拆法，好的在前（默认前 10 种；要别的数目用 "
                         "--explain-top N）。",
                         "List the readings considered, best first (the best 10; "
                         "--explain-top N for another number)."),
    "help.opt.explain_top": ("不管有没有 --explain：列出最好的 N 种不同拆法。",
                             "With or without --explain: list the best N distinct readings "
                             "considered."),
    "help.opt.lang": ("输出、报错和这份说明用的语言：zh 或 en（默认：$MJSCORE_LANG，其次是配置"
                      "文件里的 lang，再其次看系统语言：LC_ALL/LC_MESSAGES/LANG 以 zh 开头就是 "
                      "zh，别的语言是 en；都没有就是 zh）。",
                      "Language of the output, the errors and this help: zh or en (default: "
                      "$MJSCORE_LANG, else the config file's lang, else the locale's: "
                      "LC_ALL/LC_MESSAGES/LANG zh* is zh, another language en; else zh)."),
    "help.opt.no_unicode": ("不显示 Unicode 麻将牌图案。", "Do not print Unicode tiles."),
    # ---- batch
    "help.batch": ("一次算很多手牌，并结算一晚上的输赢（给几个文件就是一整季）。给 batch 的"
                   "其他参数（--rules、--option、--players 等）对每一行都有效；某一行自己写"
                   "的参数优先。有一行出错，退出码就是 1。",
                   "Score many hands, and settle the evening (or, with several files, the "
                   "season). Other flags (--rules, --option, --players, ...) apply to every "
                   "line; a line's own flags override them. Exit 1 if any line failed."),
    "help.batch.short": ("一次算很多手牌，结算一晚上（或一整季）的输赢。",
                         "Score many hands, and settle the evening (or the season)."),
    "help.batch.file": ("一行一手牌（连同它的参数）的文件，- 表示标准输入；后面还可以跟更多"
                        "文件（一整季）。",
                        "A file with one hand and its flags per line, or - for standard "
                        "input; more files may follow it (a season)."),
    "help.batch.fmt": ("jsonl、csv 或 table（默认：$MJSCORE_FORMAT，其次是配置文件里的 "
                       "format，否则 jsonl）。",
                       "jsonl, csv or table (default: $MJSCORE_FORMAT, else the config "
                       "file's format, else jsonl)."),
    "help.batch.jobs": ("用几个进程（默认：文件大时用上所有的核）。",
                        "Processes (default: all cores for large files)."),
    "help.batch.progress": ("在 stderr 上显示进度（默认：stderr 是终端而且文件大的时候）。",
                            "Progress on stderr (default: when it is a terminal and the "
                            "file is large)."),
    "help.batch.totals": ("算完各手牌后，列出每个人的总分（没有 --players 时按座位）和结清这"
                          "些分数的转账（默认：在终端上用 table 格式时，或给了 --stake 时）。",
                          "After the hands, the totals per player (per seat without "
                          "--players) and the transfers that settle them (default: for a "
                          "table on a terminal, or with --stake)."),
    "help.batch.stake": ("总分里一分算多少钱，例如 2 或 0.5（默认：$MJSCORE_STAKE，其次是配"
                         "置文件里的 stake，否则 1；只有这个参数会打开总分）。",
                         "Money per point in the totals, e.g. 2 or 0.5 (default: "
                         "$MJSCORE_STAKE, else the config file's stake, else 1; only this "
                         "flag turns the totals on)."),
    "help.batch.subtotals": ("给了几个文件时（一整季，合起来算总分），每个文件在它的各行之后"
                             "列出自己的小计。",
                             "With several files (a season, totalled together), each file's "
                             "own totals after its lines."),
    "help.batch.as_json": ("batch 本身的错误（文件读不了、参数不对）也以 JSON 对象输出到 "
                           "stdout（每一行自己的错误在那一行的记录里）。",
                           "An error of the batch itself (a file that cannot be read, a bad "
                           "option) also as a JSON object on stdout (each line's error is in "
                           "its record)."),
    "help.batch.totals_csv": ("把总分、转账和 --subtotals 写成一张 CSV 表存到这个文件（同时"
                              "打开总分）；输出里就只有各手牌：配合 --format csv 就是一张表。",
                              "Write the totals, the transfers and --subtotals as one CSV "
                              "table to this file (turns the totals on); the output then "
                              "holds the hands alone: with --format csv, one table."),
    "help.batch.quiet": ("stderr 上不显示汇总和进度（出错的行照样报告）。",
                         "No summary and no progress line on stderr (a failed line is still "
                         "reported)."),
    "help.batch.lines": ("每一行可以用的参数（给 batch 时对每一行都有效；某一行自己写的优先；"
                         "--rules 可以留给各行自己写）：",
                         "Flags of each line (given to batch, they apply to every line; a "
                         "line's own flags override them; --rules may be left to the lines):"),
    "help.batch.players": ("谁坐哪里：E=Ann,S=Bo,W=Cy,N=Di 或 Ann,Bo,Cy,Di（文件里的 "
                           "'# players: ...' 行给它后面的各行定座位）。",
                           "Who sat where: E=Ann,S=Bo,W=Cy,N=Di or Ann,Bo,Cy,Di (a "
                           "'# players: ...' line sets it for the lines after it)."),
    # ---- round
    "help.round": ("结算四川麻将的牌局，血战到底或血流成河（--rules sichuan-xueliu）：杠、胡、"
                   "查花猪、查大叫、退税；谁付给谁、为什么；给几个文件或 --totals 时，列出每个"
                   "人整场的输赢。",
                   "Settle Sichuan rounds, 血战到底 or 血流成河 (--rules sichuan-xueliu): "
                   "kongs, wins, 查花猪, 查大叫, 退税; who paid whom and why; with several "
                   "files or --totals, what each player won and lost over the session."),
    "help.round.short": ("结算四川麻将的牌局：血战到底或血流成河。",
                         "Settle Sichuan rounds, 血战到底 or 血流成河."),
    "help.round.files": ("牌局文件（一行一个事件），- 表示标准输入；几个文件算一场，一起结算。",
                         "Round files (one event a line), or - for stdin; several files are a "
                         "session, settled together."),
    "help.round.rules": ("规则（文件里的 rules 行优先）。",
                         "Ruleset (a 'rules' line in the file overrides it)."),
    "help.round.as_json": ("以 JSON 输出结算。", "Print the settlement as JSON."),
    "help.round.totals": ("算完各局后，列出每个人的总分（没有名字时按座位）和结清这些分数的"
                          "转账（给了几个文件时总会列出）。",
                          "After the rounds, the totals per player (per seat without names) "
                          "and the transfers that settle them (always with several files)."),
    "help.round.stake": ("总分里一分算多少钱，例如 2 或 0.5（默认：$MJSCORE_STAKE，其次是配"
                         "置文件里的，否则 1）。",
                         "Money per point in the totals, e.g. 2 or 0.5 (default: "
                         "$MJSCORE_STAKE, else the config file's, else 1)."),
    "help.round.players": ("谁坐哪里，E=Ann,S=Bo,W=Cy,N=Di 或 Ann,Bo,Cy,Di（文件里的 "
                           "'# players:' 行对那一局优先；默认：$MJSCORE_PLAYERS，其次是配置"
                           "文件里的）。",
                           "Who sat where, E=Ann,S=Bo,W=Cy,N=Di or Ann,Bo,Cy,Di (a "
                           "'# players:' line of a file overrides it for that round; "
                           "default: $MJSCORE_PLAYERS, else the config file's)."),
    # ---- standings
    "help.standings": ("国标麻将比赛的排名：每一局的比赛分（各手牌、罚分和调整）、名次和标准"
                       "分 4/2/1/0（同分平分），再把所有局按标准分、然后按比赛分排名次。有一行"
                       "算不了，退出码就是 1。",
                       "MCR match standings: each game's 比赛分 (its hands, penalties and "
                       "adjustments), places and 标准分 4/2/1/0 (ties share), then the "
                       "standings over all games by 标准分, then 比赛分. Exit 1 if a line "
                       "could not be counted."),
    "help.standings.short": ("国标麻将比赛的排名：比赛分、标准分和总排名。",
                             "MCR match standings: 比赛分, 标准分 and the standings."),
    "help.standings.files": ("对局文件（一个文件一局，或者用 '# game: NAME' 行分成几局），"
                             "- 表示标准输入。",
                             "Files of games (a file is a game, or holds games opened by "
                             "'# game: NAME' lines), or - for standard input."),
    "help.standings.rules": ("各手牌的规则（某一行自己的 --rules 优先）。",
                             "Ruleset of the hands (a line's own --rules overrides it)."),
    "help.standings.players": ("每一局开始时的座位（局里的 '# players:' 行优先；默认："
                               "$MJSCORE_PLAYERS，其次是配置文件里的）。",
                               "The seating each game starts with (its '# players:' lines "
                               "override it; default: $MJSCORE_PLAYERS, else the config "
                               "file's)."),
    "help.standings.fmt": ("table、json 或 csv。", "table, json or csv."),
    "help.standings.as_json": ("等于 --format json。", "The same as --format json."),
    # ---- serve
    "help.serve": ("开一个网页：算分页面、一桌人共用的记分表和 JSON 接口（按 Ctrl-C 停止）。",
                   "Serve the scoring page, the table's shared score sheet and the JSON API "
                   "(until Ctrl-C)."),
    "help.serve.short": ("开算分网页和一桌人共用的记分表。",
                         "Serve the scoring page and the table's score sheet."),
    "help.serve.host": ("监听的地址；用 0.0.0.0 同桌的手机都能连上。",
                        "Address to listen on; 0.0.0.0 lets the phones at the table connect."),
    "help.serve.port": ("端口（0：随便一个空闲的）。", "Port (0: any free one)."),
    "help.serve.rules": ("另外再提供这个规则（内置的 id 或自家的规则文件；可重复）。",
                         "Also offer this ruleset (a built-in id or a house file; "
                         "repeatable)."),
    "help.serve.db": ("存牌桌的 SQLite 文件（默认：数据目录里的 tables.sqlite3）。",
                      "The tables' SQLite file (default: tables.sqlite3 in your data "
                      "folder)."),
    "help.serve.workers": ("算分的进程数（默认：CPU 的核数，至少 2）。",
                           "Scoring processes (default: the number of cores, at least 2)."),
    # ---- config
    "help.config": ("显示正在生效的默认设置，以及每一项是从哪里来的：MJSCORE_RULES、"
                    "MJSCORE_LANG、MJSCORE_PLAYERS、MJSCORE_STAKE、MJSCORE_FORMAT、配置文件"
                    "（系统配置目录里的 config.toml，或 MJSCORE_CONFIG）、内置的默认值。命令行"
                    "参数比这些都优先。",
                    "Show the defaults in force and where each came from: MJSCORE_RULES, "
                    "MJSCORE_LANG, MJSCORE_PLAYERS, MJSCORE_STAKE, MJSCORE_FORMAT, the config "
                    "file (config.toml in the platform's config folder, or MJSCORE_CONFIG), "
                    "the built-in default. A flag wins over all of them."),
    "help.config.short": ("显示正在生效的默认设置，以及每一项是从哪里来的。",
                          "Show the defaults in force and where each came from."),
    "help.config.as_json": ("以 JSON 输出设置。", "Print the settings as JSON."),
    # ---- rules
    "help.rules": ("列出规则、查看一个规则、检查规则文件、新建自家的规则文件。",
                   "List the rulesets, show one, check files, start a house-rule file."),
    "help.rules.list": ("列出内置的规则（或者用 --facts 列出规则表达式里能用的词）。",
                        "List the built-in rulesets (or, with --facts, the vocabulary of "
                        "their expressions)."),
    "help.rules.list.facts": ("改为列出条件和取值里能用的东西：事实、属性、函数（Markdown）。",
                              "List instead what conditions and values can use: facts, "
                              "attributes, functions (Markdown)."),
    "help.rules.list.as_json": ("以 JSON 输出列表（和网页的 GET /api/rules 一样）。",
                                "Print the list as JSON (as the page's GET /api/rules)."),
    "help.rules.show": ("查看一个规则：番种、取值、选项和参数（--yaml、--markdown、--json）。",
                        "Show one ruleset: its patterns, values, options and flags (--yaml, "
                        "--markdown, --json)."),
    "help.rules.show.ruleset": ("规则的 id 或路径。", "A ruleset id or path."),
    "help.rules.show.rules_opt": ("要查看的规则（id 或路径），代替上面的参数。",
                                  "The ruleset to show (id or path), instead of the "
                                  "argument."),
    "help.rules.show.option": ("把这个选项值当作默认值来显示，KEY=VALUE（可重复）。",
                               "Show the ruleset with this option value as its default, "
                               "KEY=VALUE (repeatable)."),
    "help.rules.show.as_yaml": ("输出完整的 YAML（继承了别的文件的：展开，并标出继承来的"
                                "部分）。",
                                "Print the full YAML (a file that extends another: resolved, "
                                "inherited parts marked)."),
    "help.rules.show.resolved": ("配合 --yaml：没有继承别的文件也展开（不保留注释）。",
                                 "With --yaml: resolve even a file that extends nothing (no "
                                 "comments kept)."),
    "help.rules.show.as_markdown": ("输出一份好读的规则说明（Markdown）。",
                                    "Print a readable rules page (Markdown)."),
    "help.rules.show.as_json": ("以 JSON 输出规则（和网页的 GET /api/rules/ID 一样）：名称、"
                                "参数、选项、番种。",
                                "Print the ruleset as JSON (as the page's GET "
                                "/api/rules/ID): names, flags, options, patterns."),
    "help.rules.check": ("检查规则文件：每个问题单独一行（有问题时退出码是 2）。",
                         "Check ruleset files: every problem on a line of its own (exit 2 if "
                         "any)."),
    "help.rules.check.files": ("要检查的 YAML 文件。", "The YAML files."),
    "help.rules.new": ("新建一个继承某个规则的自家规则文件（写好就能直接用）。",
                       "Start a house-rule file that extends a ruleset (it loads as "
                       "written)."),
    "help.rules.new.files": ("要写的文件（.yaml）。", "The file to write (.yaml)."),
    "help.rules.new.from_": ("要继承的规则（id 或路径）。", "The ruleset to extend (id or path)."),
    "help.rules.new.option": ("在新文件里设定这个选项的默认值，KEY=VALUE（可重复）。",
                              "Set this option's default in the new file, KEY=VALUE "
                              "(repeatable)."),
    "help.rules.new.force": ("覆盖已有的 FILE。", "Overwrite FILE."),
    "help.rules.clear-cache": ("删除缓存的已编译规则（MJSCORE_NO_CACHE=1 关掉缓存）。",
                               "Remove the cached built rulesets (MJSCORE_NO_CACHE=1 turns "
                               "the cache off)."),
}


def help_text(key: str, lang: str, **params: Any) -> str:
    """The help text ``key`` in ``lang`` (zh unless ``en``), its placeholders filled from
    ``params`` as every message's are (:func:`scorer.text.render.fill`).

    >>> help_text("help.default", "zh", value="E"), help_text("help.default", "en", value="E")
    ('（默认：E）', '[default: E]')
    """
    from .render import fill

    zh, en = HELPS[key]
    return fill(en if lang == "en" else zh, params, lang)
