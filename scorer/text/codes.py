"""The messages of every error and refusal, by stable code: code → (zh, en).

A code names what went wrong (``notation.no_suit``), never how it is worded: scripts
read it from ``error.code`` in JSON (docs/contract.md lists them all). The parameters
fill the placeholders (see :mod:`scorer.text.render` for ``{name:how}``); where it
happened (``position``, ``file:line:column key``, a batch ``line``) and the did-you-mean
``hint`` are added around the message by the renderer, in one place, so no template
here says "position" or "did you mean". Both languages name the same things: a test
holds every entry to the same placeholders in zh and en.

>>> CODES["notation.no_suit"][1]
'{digit:q} has no suit letter after it'
"""

from __future__ import annotations

from .codes_cli import CLI_CODES
from .codes_engine import ENGINE_CODES
from .codes_lang import LANG_CODES
from .codes_rules import RULES_CODES
from .codes_table import TABLE_CODES

CODES: dict[str, tuple[str, str]] = {
    # ---- the renderer's own pieces
    "prose": ("{text}", "{text}"),  # an error not converted yet (tests/text fail while any is left)
    "hint": ("；是不是 {hint:q}？", "; did you mean {hint:q}?"),
    "where.position": ("第 {n} 个字符：", "position {n}: "),
    "where.line": ("第 {n} 行：", "line {n}: "),
    "where.event": ("第 {n} 件：", "event {n}: "),
    "ruleset.more": ("（另有 {n} 个问题）",
                     " (+{n} more)"),
    "ruleset.invalid": ("规则文件无效", "invalid ruleset"),
    "chain": ("（继承链：{chain}）",
              " (chain: {chain})"),
    "why": ("（{why}）", " ({why})"),

    # ---- finding and reading a ruleset file (exit 2)
    "ruleset.no_builtin": ("没有内置规则 {name:q}{hint}；见 mjscore rules list，或给文件路径{chain}",
                           "no built-in ruleset {name:q}{hint}; see mjscore rules list, or give a "
                           "path{chain}"),
    "ruleset.name_nul": ("读不了规则 {name:q}：名字里有 NUL 字节",
                         "cannot read ruleset {name:q}: the name holds a NUL byte"),
    "ruleset.path_long": ("读不了规则 {name:q}：路径最多 {limit} 字节（这个有 {n}）",
                          "cannot read ruleset {name:q}: a path is at most {limit} bytes (this "
                          "one has {n})"),
    "ruleset.name_long": ("读不了规则 {name:q}：文件名最多 {limit} 字节（这个有 {n}）",
                          "cannot read ruleset {name:q}: a file name is at most {limit} bytes "
                          "(this one has {n})"),
    "ruleset.os_error": ("读不了规则 {name:q}：{reason:word}",
                         "cannot read ruleset {name:q}: {reason:word}"),
    "ruleset.is_folder": ("读不了规则 {name:q}：它是文件夹，不是文件",
                          "cannot read ruleset {name:q}: it is a folder, not a file"),
    "ruleset.not_found": ("找不到规则文件：{name}", "ruleset file not found: {name}"),
    "ruleset.not_found_relative": ("找不到规则文件：{name}（找的是 {path}，相对于继承它的文件）",
                                   "ruleset file not found: {name} (looked for {path}, relative "
                                   "to the file that extends it)"),
    "ruleset.by_id": ("；内置规则用它的 id 指名：extends: {id}",
                      "; a built-in ruleset is named by its id: extends: {id}"),
    "ruleset.too_big": ("{path}：文件超过 512 KiB；拒绝读取", "{path}: file is larger than 512 KiB; refused"),
    "ruleset.not_utf8": ("{path}：不是 UTF-8 文本（第 {byte} 个字节）",
                         "{path}: not UTF-8 text (byte {byte})"),

    # ---- a ruleset's own words: its errors: and not_a_win: checks (the file's message)
    "rule.error": ("{message:rule}", "{message:rule}"),
    "rule.refused": ("{message:rule}", "{message:rule}"),
    "chengbao.refused": ("--chengbao {value}：{message:rule}", "--chengbao {value}: {message:rule}"),
    # ---- not a legal win (exit 3)
    "win.not_complete": ("不是胡牌：凑不成{shapes:shapes}",
                         "not a winning hand: not {shapes:shapes}"),
    "win.no_reading": ("不是胡牌", "not a winning hand"),

    # ---- score --vs: both sides failed
    "vs.no_explain": ("--explain 不能和 --vs / --vs-option 一起用",
                      "--explain does not combine with --vs / --vs-option"),
    "dispute.both_failed": ("A（{a}）：{a_error:error}；B（{b}）：{b_error:error}",
                            "A ({a}): {a_error:error}; B ({b}): {b_error:error}"),
    # ---- the flags of a win (exit 2)
    "seat.unknown": ("{flag} {value}：座位是 E S W N（东南西北）",
                     "{flag} {value}: seats are E S W N (东南西北)"),
    "seat.not_at_table": ("{flag} {value}：{players} 人桌的座位是 {seats}",
                          "{flag} {value}: a {players}-player table has seats {seats}"),
    "table.players": ("{ruleset} 规则给出 {players} 个玩家；只能是 2-4 个",
                      "the {ruleset} ruleset gives {players} players; 2-4 are possible"),
    "from.own_seat": ("--from {value} 是胡牌者自己的座位；自摸用 --self-draw",
                      "--from {value} is the winner's own seat: use --self-draw"),
    "how.missing": ("胡的那张怎么来的？自摸加 --self-draw，点炮加 --from 座位",
                    "won how? --self-draw if drawn, --from SEAT if discarded"),
    "from.robbing_needs": ("--robbing-kong 要 --from 座位：被抢杠的那家",
                           "--robbing-kong needs --from SEAT, whose kong was robbed"),
    "from.discard_needs": ("放铳胡要 --from 座位（谁打的）；自摸加 --self-draw",
                           "a discard win needs --from SEAT; add --self-draw if drawn"),
    # ---- the command line
    "lang.bad": ("--lang {value}：用 zh 或 en", "--lang {value}: use zh or en"),
    "file.cannot_open": ("打不开 {name:q}：{reason:word}", "cannot open {name:q}: {reason:word}"),
    "file.cannot_open_any": ("打不开文件：{reason:word}", "cannot open a file: {reason:word}"),
    "file.name_nul": ("打不开 {name:q}：名字里有 NUL 字节",
                      "cannot open {name:q}: the name holds a NUL byte"),
    "notice.jobs_capped": ("--jobs {asked}：最多用 {cap} 个进程（每个 CPU {times} 个，共 {cpus} 个 CPU）",
                           "--jobs {asked}: capped at {cap} processes ({times} per CPU, {cpus} "
                           "CPUs)"),
    "rules_new.symlink": ("rules new {name}：它是符号链接（指向 {target}），写入会建立或覆盖它指向的文件；"
                          "换个名字，或加 --force",
                          "rules new {name}: it is a symbolic link (to {target}), and writing "
                          "would create or overwrite the file it points to: choose another "
                          "name or add --force"),
    # ---- the configuration file and the environment's defaults (scorer.cli.config)
    "config.missing": ("{var} 指定的配置文件不存在", "the config file {var} names does not exist"),
    "config.unreadable": ("读不了配置文件：{reason:word}",
                          "cannot read the config file: {reason:word}"),
    "config.too_big": ("配置文件超过 {limit} KiB；拒绝读取",
                       "the config file is larger than {limit} KiB; refused"),
    "config.not_utf8": ("配置文件不是 UTF-8 文本", "the config file is not UTF-8 text"),
    "config.syntax": ("不是合法的 TOML：{toml:word}", "not valid TOML: {toml:word}"),
    "config.unknown_key": ("没有这个设置；能设的有：{known}",
                           "no such setting; the settings are: {known}"),
    "config.not_text": ("值要写成文字或数字（这里是{toml_type:word}）",
                        "the value must be a text or a number (this one is {toml_type:word})"),
    "config.bad_value": ("{value:q} 不行：{cause:error}",
                         "{value:q} is not a value here: {cause:error}"),
    "config.bad_env": ("{var}={value:q} 不行：{cause:error}",
                       "{var}={value:q} is not a value here: {cause:error}"),
    # ---- usage: the command line's own grammar (typer's parser and the flag parser word it
    # alike; the English as click's, scorer.cli.usage). A number: scorer.model.numbers.
    "usage.no_such_option": ("没有这个选项：{option}", "No such option: {option}"),
    "usage.no_such_option_near": ("没有这个选项：{option}（相近的选项：{possibilities}）",
                                  "No such option: {option} (Possible options: "
                                  "{possibilities})"),
    "usage.needs_value": ("选项 '{option}' 后面要给一个值", "Option '{option}' requires an argument."),
    "usage.takes_no_value": ("选项 '{option}' 不带值", "Option '{option}' does not take a value."),
    "usage.missing_argument": ("缺少参数 '{param}'", "Missing argument '{param}'."),
    "usage.missing_option": ("缺少选项 '{param}'", "Missing option '{param}'."),
    "usage.not_a_number": ("'{param}' 的值无效：{value:q} 不是整数",
                           "Invalid value for '{param}': {value:q} is not a valid int."),
    "usage.not_a_number_digits": ("'{param}' 的值无效：{value:q} 不是整数（请用数字 0-9 书写）",
                                  "Invalid value for '{param}': {value:q} is not a valid int "
                                  "(write it in digits 0-9)."),
    "usage.number_too_long": ("'{param}' 的值无效：{digits} 位的数不是有效的整数（最多 {limit} 位）",
                              "Invalid value for '{param}': a number of {digits} digits is not "
                              "a valid int (at most {limit} digits)."),
    "usage.text_too_long": ("'{param}' 的值无效：{length} 个字符的文字不是整数",
                            "Invalid value for '{param}': a text of {length} characters is not "
                            "a valid int."),
    "usage.bad_value": ("'{param}' 的值无效", "Invalid value for '{param}'."),
    "usage.help_in_line": ("--help 不是一手牌的选项（见 'mjscore score --help'）",
                           "--help is not a flag of a hand (see 'mjscore score --help')"),
    "usage.facts_json": ("--facts 输出的是 Markdown，不能和 --json 一起用",
                         "--facts prints Markdown; it cannot be given with --json"),
    # any other of click's usage errors: said alike whatever it is (never click's English)
    "usage.error": ("这个命令行读不懂", "the command line cannot be read"),

    # ---- notation: the hand text cannot be read (exit 2)
    "notation.too_long": ("手牌有 {length} 个字符；最多 {limit} 个",
                          "the hand is {length} characters long; a hand is at most {limit}"),
    "notation.zero": ("'0' 不是点数（1-9）；立直的赤五请写 5",
                      "'0' is no tile number (1-9); for a red five write 5"),
    "notation.no_suit": ("{digit:q} 后面没有花色字母", "{digit:q} has no suit letter after it"),
    "notation.suit_no_digits": ("花色字母 {char:q} 前面没有数字",
                                "suit letter {char:q} has no digits before it"),
    "notation.suit_no_digits_honor": ("花色字母 {char:q} 前没有数字；是不是字牌 {letter}（{honor}）？",
                                      "{char:q} has no digits before it; {letter} ({honor})?"),
    "notation.suit_char_no_digits": ("花色 {char:q} 前面没有数字",
                                     "suit {char:q} has no digits before it"),
    "notation.suit_after_suit": ("{char:q} 跟在花色字母后面：是不是字牌 {letter}（{honor}）？",
                                 "{char:q} after a suit letter: did you mean {letter} ({honor})?"),
    "notation.bad_honor_z": ("'{digit}z' 不是字牌（1z-7z 是 E S W N C F P）",
                             "'{digit}z' is not an honor (1z-7z are E S W N C F P)"),
    "notation.upper_after_digits": ("{char:q} 跟在数字后：花色要小写 {lower}（{char} 是{honor}）",
                                    "{char:q} after digits: the suit is {lower} ({char}: {honor})"),
    "notation.suit_upper": ("{char:q}：花色字母要小写：{lower}",
                            "{char:q}: suit letters are lower-case: {lower}"),
    "notation.honor_lower": ("{char:q} 不是牌；字牌用大写：是不是 {letter}（{honor}）？",
                             "{char:q} is no tile; honors are uppercase: {letter} ({honor})?"),
    "notation.red_letter": ("{char:q} 不是牌：红中是 C", "{char:q} is not a tile: the red dragon 中 is C"),
    "notation.green_letter": ("{char:q} 不是牌：发财是 F",
                              "{char:q} is not a tile: the green dragon 发 is F"),
    "notation.dragon_letter": ("{char:q} 不是牌：三元牌是 C（中）、F（发）、P（白）",
                               "{char:q} is no tile: dragons are C (中), F (发), P (白)"),
    "notation.round_brackets": ("{char:q}：副露用方括号，如 [123m] 或 [555p,2]",
                                "{char:q}: melds take square brackets, e.g. [123m]"),
    "notation.comma_outside": ("',' 在副露外：来源写在括号里，如 [555p,2]",
                               "',' outside a meld: an offer goes inside, e.g. [555p,2]"),
    "notation.equals_outside": ("'=' 在副露外：写在括号里，如 [55pP=555p]",
                                "'=' outside a meld: it goes inside, e.g. [55pP=555p]"),
    "notation.separator": ("{char:q} 不是记法的一部分：牌组间不用分隔",
                           "{char:q} is not notation: groups need no separator"),
    "notation.wind_suffix": ("{char:q} 不用写：风牌只写一个字（{wind}）",
                             "{char:q} is not needed: a wind is one character ({wind})"),
    "notation.board_suffix": ("'板' 不用写：白板写作 白（或 P）",
                              "'板' is not needed: 白板 is written 白 (or P)"),
    "notation.red_char": ("{char:q} 不是牌：红中写作 中（或 C）",
                          "{char:q} is not a tile: the red dragon is 中 (or C)"),
    "notation.unexpected_char": ("{what:word}里有意外的字符 {char:q}",
                                 "unexpected character {char:q} in the {what:word}"),
    "notation.flower_in_hand": ("花牌用 --flowers 给出，不写在手牌里",
                                "flowers are given with --flowers, not in the hand"),
    "notation.flower_char": ("{char:q} 是花牌；花牌用 --flowers 给，不写在手牌里",
                             "{char:q} is a flower; give flowers with --flowers"),
    "notation.melds_first": ("副露要写在暗牌前面", "fixed melds must come before the concealed tiles"),
    "notation.nested_meld": ("副露里又有 '['：副露不能嵌套", "'[' inside a meld: melds cannot be nested"),
    "notation.unclosed_meld": ("'[' 没有用 ']' 关上", "'[' is never closed with ']'"),
    "notation.unopened_meld": ("']' 前面没有 '['", "']' without a '[' before it"),
    "notation.no_concealed": ("手牌没有暗牌；最后写的暗牌是胡的那张",
                              "no concealed tiles; the last one is the winning tile"),
    "notation.offer_bad": ("来源 {offer:q}：1 上家、2 对家、3 下家{more:word}",
                           "offer {offer:q}: 1 (上家), 2 (对家), 3 (下家){more:word}"),
    "notation.offer_missing": ("',' 后写来源：1 上家、2 对家、3 下家{more:word}",
                               "',' needs 1, 2 or 3 (上家, 对家, 下家){more:word}"),
    "more.": ("", ""),
    "more.kong": ("；暗杠写 [{body}]", "; 暗杠: [{body}]"),
    "more.seat": ("；放铳者用 --from", "; discarder: --from"),
    "more.relative": ("；{word}家是 {num}", "; {word}家: {num}"),
    "notation.meld_size": ("副露有 3 或 4 张牌，这个有 {n} 张", "a meld has 3 or 4 tiles, this one has {n}"),
    "notation.meld_reading_size": ("副露有 {n} 张牌，'=' 后面的读法却有 {m} 张",
                                   "the meld has {n} tiles but its reading after '=' has {m}"),
    "notation.chow_offer": ("吃只来自上家，不能是 ',{offer}'（{offer_name}）：写 [{written}]",
                            "a chow comes from 上家, not ',{offer}' ({offer_name}): [{written}]"),
    "notation.flowers_long": ("--flowers 是 {digits} 位数：花牌只有 8 张",
                              "--flowers: a {digits}-digit number; there are 8 flowers"),
    "notation.flowers_count": ("--flowers {n}：花牌只有 8 张", "--flowers {n}: there are only 8 flowers"),
    "notation.flower_number": ("没有花牌 {d}（1-4 春夏秋冬，5-8 梅兰竹菊）",
                               "flower {d} does not exist (1-4 春夏秋冬, 5-8 梅兰竹菊)"),
    "notation.flower_f_alone": ("'f' 前面没有花牌号", "'f' has no flower numbers before it"),
    "notation.flower_unexpected": ("--flowers 里的 {char:q}？写数目 0-8，或如 15f、春梅",
                                   "{char:q} in --flowers? write a count 0-8, or e.g. 15f, 春梅"),
    "notation.flower_suffix": ("花牌号要加后缀 'f'（例如 15f）",
                               "flower numbers need the suffix 'f' (e.g. 15f)"),
    "notation.flower_twice": ("花牌 {d}（{name}）写了两次", "flower {d} ({name}) is listed twice"),
    # ---- hand: readable but impossible at the table (exit 2)
    "count.wrong": ("{have} 张{here:word}；胡牌要 {need} 张（每杠加一）",
                    "{have} tiles{here:word}; a win needs {need} (+1 per kong)"),
    "count.wrong_kongs": ("{have} 张{here:word}；{kongs} 个杠时胡牌要 {need} 张",
                          "{have} tiles{here:word}; a win needs {need} with {kongs} kong(s)"),
    "here.": ("", ""),
    "here.at": ("（第 {tile_n} 张）", " (tile {tile_n})"),
    "copies.too_many": ("{tile} 有 {n} 张；只有 {limit} 张在用",
                        "{n} copies of {tile}; only {limit} are in play"),
    "copies.over_four": ("{tile} 有 {n} 张；一种牌只有 4 张", "{n} copies of {tile}; a set has only 4"),
    "suit.not_in_play": ("这桌不用 {tile}（在用的花色：{suits}）",
                         "{tile} is not in play at this table (suits in play: {suits})"),
    "meld.wild_in_meld": ("副露里不能有财神 {wild}{stand:word}", "no wildcard {wild} in a meld{stand:word}"),
    "stand.": ("", ""),
    "stand.white": ("；替它的白板写作 {st}", "; write {st} for its 白板"),
    "stand.tile": ("；替身写作 {st}", "; write its stand-in as {st}"),
    "meld.bad_reading": ("[{meld}] 不能当作 {reading}", "[{meld}] cannot be read as {reading}"),
    "meld.chow_only": ("[{written},{offer}] 只能是吃，不会来自{offer_name}：写 [{written}]",
                       "[{written},{offer}] is a chow, never from {offer_name}: [{written}]"),
    "meld.not_a_set": ("[{meld}] 不是吃、碰或杠", "[{meld}] is not a chow, pung or kong"),

    # ---- mjscore serve's own options (exit 2)
    "serve.port": ("--port {value}：用 0..65535", "--port {value}: use 0..65535"),
    "serve.workers": ("--workers {value}：用 1..64（0：核心数）",
                      "--workers {value}: use 1..64 (0: the number of cores)"),
    "serve.db_open": ("--db {path}：打不开牌桌的数据库：{reason:word}",
                      "--db {path}: cannot open the tables' database: {reason:word}"),
    "serve.db_bad": ("--db {path}：不是牌桌的数据库（{errno}）",
                     "--db {path}: not a tables' database ({errno})"),
    "serve.db_newer": ("--db {path}：牌桌的数据库是更新的 mjscore 写的（结构版本 {have}；"
                       "这个版本最多读 {known}）",
                       "--db {path}: the tables' database is a newer mjscore's (schema {have}; "
                       "this one reads up to {known})"),
    "serve.listen": ("无法在 {host}:{port} 监听：{reason:word}",
                     "cannot listen on {host}:{port}: {reason:word}"),
    # ---- the page's API (mjscore serve): a request it cannot take (400 unless said)
    "serve.body_object": ("请求体要是 JSON 对象 {{keys}}", "the body must be a JSON object {{keys}}"),
    "serve.unknown_key": ("未知的键 {name:q}（可用的键：{keys}）", "unknown key {name:q} (keys: {keys})"),
    "serve.hand_string": ("手牌要写成记法的字符串（例如 '123m456p789s234sP9m'）",
                          "hand: the notation as a string (e.g. '123m456p789s234sP9m')"),
    "serve.hand_too_long": ("手牌超过 {limit} 个字符", "hand: longer than {limit} characters"),
    "serve.flags_list": ('参数要是字符串列表，如 ["--rules", "hangzhou"]',
                         'flags: a list of strings, e.g. ["--rules", "hangzhou"]'),
    "serve.flags_too_many": ("参数最多 {limit} 个，每个少于 {length} 个字符",
                             "flags: at most {limit}, each under {length} characters"),
    "serve.files": ("上传的规则文件最多 {limit} 个，{\"my.yaml\": 文本}",
                    "files: at most {limit} uploaded rulesets, {\"my.yaml\": TEXT}"),
    "serve.file_name": ("上传的 {name:q} 不是单纯的文件名", "files: {name:q} is not a plain file name"),
    "serve.upload_name": ("文件名只能由字母、数字、'.'、'_'、'-' 组成",
                          "name: a file name of letters, digits, '.', '_', '-'"),
    "serve.upload_text": ("规则文件的文本要是字符串", "text: the ruleset file's text, as a string"),
    "serve.upload_too_big": ("{name}：文件超过 {limit_kib} KiB；拒绝读取",
                             "{name}: file is larger than {limit_kib} KiB; refused"),
    "serve.upload_key": ("上传的规则要用 POST /api/rules 回答的键来指名",
                         "upload: the key POST /api/rules answered with"),
    "serve.reads_no_files": ("{spec}：服务器不读文件；请上传文件的文本（\"files\": {\"{name}\": 文本}）"
                             "或指名内置规则（{known}）",
                             "{spec}: the server reads no files; upload the file's text "
                             "(\"files\": {\"{name}\": TEXT}) or name a built-in ruleset ({known})"),
    "serve.extends_builtin_only": ("extends: {parent:q}：上传的文件只能继承内置规则（{known}）",
                                   "extends: {parent:q}: an uploaded file may extend a built-in "
                                   "ruleset only ({known})"),
    "serve.no_ruleset": ("没有规则 {id:q}；提供的有：{known}", "no ruleset {id:q}; offered: {known}"),
    "serve.dispute_needs_vs": ("对比需要在参数里给出 --vs ID 或 --vs-option 键=值",
                               "a dispute needs --vs ID or --vs-option KEY=VALUE"),
    "waits.score_flag": ("{flag} 对听牌没有意义（它属于 score）", "{flag} is for score, not for waits"),
    "serve.round_too_long": ("一局的事件最多 {limit_kib} KiB",
                             "a round is at most {limit_kib} KiB of events"),
    "serve.round_builtin": ("四川一局用内置规则结算（sichuan 或 sichuan-xueliu）",
                            "a round needs a built-in ruleset (sichuan or sichuan-xueliu)"),
    "serve.round_text": ("要给出这一局的事件，每行一件，和局文件一样",
                         "text: the round's events, one a line, as in a round file"),
    "serve.adjust_amounts": ('amounts：每家的分，如 {"Ann": 5, "Bo": -5}（合计为零）',
                             'amounts: points by seat or name, e.g. {"Ann": 5, "Bo": -5}'),
    # ---- the page's API: HTTP itself
    "serve.no_endpoint": ("没有这个接口：{method} {path}", "no such endpoint: {method} {path}"),
    "serve.no_page": ("没有页面 {path}", "no page {path}"),
    "serve.content_type": ("请求要以 Content-Type: application/json 发送",
                           "send the request as Content-Type: application/json"),
    "serve.length_needed": ("请求要有 Content-Length", "the request needs a Content-Length"),
    "serve.body_too_big": ("请求超过 {limit_kib} KiB", "the request is larger than {limit_kib} KiB"),
    "serve.json_deep": ("JSON 嵌套超过 {limit} 层；拒绝读取",
                        "JSON nested deeper than {limit} levels; refused"),
    "serve.not_utf8": ("请求体不是 UTF-8 文本（第 {byte} 个字节）",
                       "the body is not UTF-8 text (byte {byte})"),
    "serve.not_json": ("请求体不是 JSON（第 {at} 个字符）", "the body is not JSON (at character {at})"),
    "serve.host": ("请求的 Host 头不是地址", "the request's Host header is not an address"),
    "serve.internal": ("内部错误（{type}）；请报告这手牌",
                       "internal error ({type}); please report this hand"),
    "serve.no_job": ("没有这种任务 {job:q}", "no such job {job:q}"),
    # ---- the page's API: a busy server (429, 503)
    "serve.connections": ("同时的连接太多；请稍后再试", "too many connections at once; try again"),
    "serve.too_many_requests": ("这台设备同时的请求太多；请等回答",
                                "too many requests at once from this device; wait for answers"),
    "serve.queue_full": ("这台设备同时等着的请求太多；请等回答",
                         "too many waiting requests from this device; wait for answers"),
    "serve.busy": ("服务器正忙；请稍后再试", "the server is busy; try again in a moment"),
    "serve.stopping": ("服务器正在停止", "the server is stopping"),
    "serve.cpu_limit": ("请求用了超过 {seconds} 秒 CPU，已被停止",
                        "the request ran for more than {seconds} s of CPU and was stopped"),
    "serve.overran": ("请求运行超过 {seconds} 秒，已被停止",
                      "the request ran for more than {seconds} s and was stopped"),
    "serve.worker_lost": ("处理请求的进程停止了；请再试一次", "the request stopped its worker; try again"),
    "serve.streams": ("这台设备同时打开的实时记分表太多", "too many live sheets open on this device"),
    # ---- the page's API: the table's score sheet
    "serve.no_table": ("没有这一桌", "no such table"),
    "serve.table_id": ("牌桌的编号是六个字母和数字", "table: a table's id, six letters and digits"),
    "serve.no_line": ("没有第 {n} 行", "no line {n}"),
    "serve.no_hand_line": ("第 {n} 行没有可改的一手牌", "no hand at line {n} to correct"),
    "serve.no_upload": ("没有这个上传的规则文件（它已不再保存）；请重新上传",
                        "no such uploaded ruleset (no longer kept); upload it again"),
    "serve.tables_full": ("已经保存了 {limit} 桌；不能再开",
                          "{limit} tables are kept already; no more can be started"),
    "serve.sheet_full": ("这一桌已记了 {limit} 行；不能再记",
                         "the table holds {limit} lines already; no more can be booked"),
    "serve.conflict": ("另一台手机先改了记分表（第 {version} 版）；请再发一次",
                       "the sheet changed on another phone (version {version}); resend"),
    "serve.version": ("改动要带上记分表当时的版本号（一个数）",
                      "version: the sheet's version of the change (a number)"),
    "serve.seating": ("座位：{error:error}", "seating: {error:error}"),
    "serve.seating_shape": ("座位：{\"E\": \"甲\", \"S\": \"乙\", …} 或 \"甲,乙,丙,丁\"",
                            "seating: {\"E\": \"Ann\", \"S\": \"Bo\", …} or \"Ann,Bo,Cy,Di\""),
    "serve.seating_name": ("每个座位的玩家都要有名字", "seating: each seat's player needs a name"),
    "serve.seating_two": ("至少要两位玩家", "seating: at least two players"),
    "serve.stake": ("每分金额：{error:error}", "stake: {error:error}"),
    "serve.stake_shape": ("每分金额要是一个数，例如 1 或 0.5",
                          "stake: money per point, a number such as 1 or 0.5"),
    "serve.rotate": ("换庄方式是 {values:q} 之一", "rotate: one of {values:q}"),
    "serve.title": ("标题最多 {limit} 个字符", "title: at most {limit} characters"),
    "serve.rules_id": ("规则要用它的 id 指名（GET /api/rules 列出它们）",
                       "rules: a ruleset id (GET /api/rules lists them)"),
    "serve.undone": ("撤销用 true，把这一行记回来用 false",
                     "undone: true to undo the line, false to book it again"),
    "serve.table_flag": ("{flag} 属于这一桌，不属于一手牌",
                         "flags: {flag} belongs to the table, not to a hand"),
    "serve.line_too_long": ("手牌和它的参数超过 {limit} 个字符",
                            "the hand and its flags are longer than {limit} characters"),
    "serve.seat": ("座位是 {seats:or} 之一", "seat: one of {seats:or}"),
    "serve.penalty_amount": ("诈胡付给每位其他玩家的分数（1..{limit}）",
                             "amount: points the false win pays each player (1..{limit})"),
    "serve.export_format": ("导出为 .txt（批量文件）、.json 或 .csv",
                            "export as .txt (the batch file), .json or .csv"),

    "what.hand": ("手牌", "hand"),
    "what.meld": ("副露", "meld"),
    "what.meld reading": ("副露的读法", "meld reading"),
    "what.tile list": ("牌列", "tile list"),

    # ---- a round file (mjscore round): each error names its line (exit 2)
    "round.seat": ("座位 {word:q}：座位是 E S W N 之一", "seat {word:q}: a seat is one of E S W N"),
    "round.seat_after": ("{what} {word:q}：座位是 E S W N 之一",
                         "{what} {word:q}: a seat is one of E S W N"),
    "round.kong_tile": ("杠 {word:q}：数字 1-9 加 m、p 或 s，如 5p 或 5555p",
                        "kong {word:q}: a digit 1-9 and m, p or s, e.g. 5p or 5555p"),
    "round.unreadable": ("读不了这一行：引号没有配对，或行尾是反斜杠",
                         "cannot read the line: an open quote or a final backslash"),
    "round.event_form": ("写 SEAT kong|win|hand …，例如 'S kong 5p from E'",
                         "write SEAT kong|win|hand …, e.g. 'S kong 5p from E'"),
    "round.over": ("这一局已结束：{winners} 已胡（血战到底三家胡即结束）",
                   "the round is over: {winners} have won (3 winners end 血战)"),
    "round.after_hands": ("结束时的手牌之后又有 {what}：'hand' 行放在最后",
                          "a {what} after the final hands: 'hand' lines come last"),
    "round.event": ("{word:q}：事件是 kong、win 或 hand", "{word:q}: an event is kong, win or hand"),
    "round.not_sichuan": ("规则 {ruleset}：不是四川规则（一局要用四川规则）",
                          "rules {ruleset}: not a Sichuan ruleset (rounds need one)"),
    "round.rules_late": ("'rules' 要写在第一个事件之前", "'rules' must come before the first event"),
    "round.rules_form": ("写 'rules ID|PATH [--option KEY=VALUE] [--base N]'",
                         "write 'rules ID|PATH [--option KEY=VALUE] [--base N]'"),
    "round.base": ("--base {value}：从 1 起的整数（数字 0-9）",
                   "--base {value}: a whole number from 1 (digits 0-9)"),
    "round.option_form": ("--option {value:q}：写 KEY=VALUE（例如 cap=16）",
                          "--option {value:q}: write KEY=VALUE (e.g. cap=16)"),
    "round.rules_flag": ("{flag:q}：rules 行只接受 --option 和 --base",
                         "{flag:q}: rules lines take only --option and --base"),
    "round.out": ("{round_role:word} {seat} 在第 {won} 行已胡，已出局（血战到底：胡牌的人不再参与）",
                  "{round_role:word} {seat} won at line {won}: out of the round (血战到底)"),
    "round.kong_form": ("写 'SEAT kong TILE from SEAT|added|concealed'",
                        "write 'SEAT kong TILE from SEAT|added|concealed'"),
    "round.kong_from_form": ("直杠要写放杠的人：'S kong 5p from E'",
                             "a 直杠 names its discarder: 'S kong 5p from E'"),
    "round.kong_own": ("直杠杠的是别人打的牌；自己摸的第四张是 added 或 concealed",
                       "直杠 takes a discard; a drawn 4th tile is added or concealed"),
    "round.kong_how": ("杠 {word:q}：直杠 from SEAT，补杠 added，暗杠 concealed",
                       "kong {word:q}: from SEAT (直杠), added (补杠), concealed (暗杠)"),
    "round.kong_twice": ("{tile} 的杠：{seat} 在第 {kong_line} 行已经杠过，一种牌只有四张",
                         "a kong of {tile}: {seat} made one at line {kong_line}, and there are "
                         "only four"),
    "round.kong_missing": ("{seat} 在第 {kong_line} 行杠了 {tile}，但这手牌只有 {n} 张 {tile}",
                           "{seat} made a kong of {tile} at line {kong_line}, but this hand holds "
                           "{n} {tile}"),
    "round.copies": ("{tile}：{seat} 会有 {n} 张，而别人已亮出 {others} 张；一种牌只有四张",
                     "{tile}: {seat} would hold {n} with {others} shown; only 4 exist"),
    "round.win_seat_flag": ("{flag}：这一行开头已给出座位，谁已出局由这一局决定",
                            "{flag}: the round itself knows who is out"),
    "round.win_flag": ("{flag:q}：胡牌行只接受 --from SEAT、{flags}",
                       "{flag:q}: a win line takes --from SEAT, {flags}"),
    "round.own_discard": ("--from {seat}：不能胡自己打出的牌",
                          "--from {seat}: the winner cannot win on its own discard"),
    "round.robbing": ("--robbing-kong：上一行要是 --from 那家的补杠",
                      "--robbing-kong: the line before must be --from's 补杠"),
    "round.kong_draw": ("--kong-draw：上一行必须是 {seat} 自己的杠",
                        "--kong-draw: the line before must be {seat}'s own kong"),
    "round.after_kong": ("--after-kong：上一行要是 --from 那家的杠",
                         "--after-kong: the line before must be --from's kong"),
    "round.win_form": ("写 'SEAT win HAND --from SEAT|--self-draw [flags]'",
                       "write 'SEAT win HAND --from SEAT|--self-draw [flags]'"),
    "round.robbed_tile": ("--robbing-kong：胡的牌不是被抢的 {tile}",
                          "--robbing-kong: the winning tile is not the robbed {tile}"),
    "round.hand_winner": ("{seat} 在第 {won} 行已胡：查叫不查胡过的人，不用给手牌",
                          "{seat} won at line {won}: 查叫 skips winners; give no hand"),
    "round.hand_twice": ("{seat} 的手牌给了两次（第 {first} 行）",
                         "{seat}'s hand is given twice (line {first})"),
    "round.hand_form": ("写 'SEAT hand TILES'（副露和 13 张牌，不带空格）",
                        "write 'SEAT hand TILES' (its melds and 13 tiles, no spaces)"),
    "round.honors": ("四川麻将用 108 张牌（只有 m p s）：字牌不在其中",
                     "Sichuan plays m p s only (108 tiles): no honors"),
    "round.chows": ("四川麻将不能吃：手里不会有吃来的副露",
                    "no chows in Sichuan (不能吃): a hand holds no chow meld"),
    "round.hand_size": ("{seat} 的手牌有 {n} 张（杠算三张）；最后听牌的手牌是 13 张",
                        "{seat}'s hand has {n} tiles (a kong counts 3); a wait is 13"),
    "round.missing_hands": ("一局结束：{seats} 没有 'SEAT hand' 行（查叫）",
                            "end of round: no 'SEAT hand' line for {seats} (查叫)"),
    "round.empty": ("这一局没有事件（kong、win 或 hand 行）",
                    "the round has no events (kong, win or hand lines)"),
    "round.unbalanced": ("这一局的合计不为零：{totals}", "round totals do not sum to zero: {totals}"),

    # ---- files a command reads (batch, round, standings)
    "file.unreadable": ("读不了 {path}：{reason:word}", "cannot read {path}: {reason:word}"),
    "file.stdin_twice": ("标准输入（-）只能读一次", "standard input (-) can be read once"),
    "file.not_utf8": ("不是 UTF-8 文本", "not UTF-8 text"),
    "round.too_big": ("{path}：超过 1 MiB；一局的文件是每行一个事件",
                      "{path}: over 1 MiB, too big for a round file"),
    "round.two_seatings": ("一局只有一种座位；前面一行写的是 {found}",
                           "a round has one seating; an earlier line named {found}"),
    "batch.format": ("--format {value}：用 jsonl、csv 或 table", "--format {value}: use jsonl, csv or table"),
    "batch.jobs": ("--jobs {value}：至少为 1", "--jobs {value}: use 1 or more"),
    "batch.season_named": ("{path}：写了玩家名字，之前的文件没写",
                           "{path}: names players, unlike earlier files"),
    "batch.season_unnamed": ("{path}：没写玩家名字，之前的文件写了",
                             "{path}: no player names, unlike earlier files"),

    # ---- a ledger's penalty and adjustment lines (scorer.table.penalty; exit 2, or the
    # line not counted in a batch)
    "penalty.offender": ("penalty {who}：错和的人是座位 {seats} 之一（或玩家的名字）",
                         "penalty {who}: the offender is a seat ({seats}) or a name"),
    "penalty.no_amount": ("penalty {who}：罚每家几分？（{ruleset} 没规定；国标 10）",
                          "penalty {who}: how much? (none in {ruleset}; MCR: 10)"),
    "penalty.no_amount_rules": ("penalty {who}：罚每家几分？（没有给规则；国标 10）",
                                "penalty {who}: how much? (no ruleset given; MCR: 10)"),
    "penalty.amount": ("penalty {who} {amount}：罚给每家的分，1 到 {limit} 的整数",
                       "penalty {who} {amount}: points to each other player, 1 to {limit}"),
    "penalty.form": ("写 'penalty WHO [POINTS]'：错和者赔每家（国标默认 10）",
                     "write 'penalty WHO [POINTS]': WHO pays each player (MCR: 10)"),
    "penalty.points": ("{kind} {who} {word:q}：分数是整数（0-9），如 10",
                       "{kind} {who} {word:q}: points are whole numbers (0-9), e.g. 10"),
    "adjust.seat": ("adjust {who}：座位是 E S W N 之一（或玩家的名字）",
                    "adjust {who}: a seat is one of E S W N (or a player's name)"),
    "adjust.amount": ("adjust {who} {amount}：整数分，正负都不超过 {limit}",
                      "adjust {who} {amount}: whole points, at most {limit} either way"),
    "adjust.not_zero": ("这条调整合计不为零（{total}）：调整是在玩家之间挪分",
                        "the adjustment sums to {total}, not 0 (points only move)"),
    "adjust.nothing": ("这条调整什么也没挪：写出每家的分，如 'adjust E +5 S -5'",
                       "the adjustment moves nothing: e.g. 'adjust E +5 S -5'"),
    "adjust.form": ("写成 'adjust E +5 S -5' 这样：至少两家，合计为零",
                    "write it like 'adjust E +5 S -5': two or more players, sum 0"),
    "adjust.twice": ("adjust：{who} 写了两次", "adjust: {who} is named twice"),
    "adjust.points": ("{kind} {who} {word:q}：分数是整数（0-9），如 +5 或 -5",
                      "{kind} {who} {word:q}: points are whole numbers (0-9), e.g. +5"),
    "ledger_line.rules": ("{kind}：--rules 后面要写规则的 id 或路径",
                          "{kind}: --rules needs a ruleset id or path"),
    "ledger_line.flag": ("{kind} 行：{word:q}？这里只接受 --rules ID 和 --players",
                         "{kind} line: {word:q}? only --rules ID and --players here"),
    "ledger_line.not_seated": ("{kind} {who}：不在这桌（{seating}）",
                               "{kind} {who}: not at this table ({seating})"),
    "ledger_line.no_seating": ("{kind} {who}：座位是 E S W N（用名字要先有 --players）",
                               "{kind} {who}: seats are E S W N (names need --players first)"),

    # ---- MCR match standings (mjscore standings; exit 2)
    "standings.players": ("第 {game} 局：{n} 个玩家（{names}）；一局要 {need} 个",
                          "game {game}: {n} players ({names}); a game needs {need}"),
    "standings.no_names": ("第 {game} 局：牌里没有名字；给它一行 '# players:'",
                           "game {game}: no player names; give it a '# players:' line"),
    "standings.loose_line": ("在第一个 '# game:' 之前有一行：每局以一行 '# game:' 开始",
                             "a line before the first '# game:': every game opens with one"),
    "standings.format": ("--format {value}：用 table、json 或 csv",
                         "--format {value}: use table, json or csv"),
    "standings.too_big": ("{path}：超过 {mib} MiB；对局文件是每行一手牌",
                          "{path}: over {mib} MiB, too big for a games file"),

    # ---- a ruleset file's keys added with the ledger and Sichuan's rulings (exit 2)
    "schema.false_win": ("必须是从 1 到 {limit} 的整数分",
                         "must be a whole number of points from 1 to {limit}"),
    "schema.hidden": ("必须是 true 或 false", "must be true or false"),
}


# a ruleset file's problems, the flags of a win: tables of their own (codes_rules, codes_engine)
CODES.update(RULES_CODES)
CODES.update(ENGINE_CODES)
CODES.update(LANG_CODES)
CODES.update(TABLE_CODES)
CODES.update(CLI_CODES)

# Keys of CODES that are pieces of messages, not codes an error carries.
PIECES = ("prose", "hint", "chain", "why", "where.", "what.", "more.", "here.", "stand.",
          "inherited_by", "unit.", "state.", "conflict.", "leave.", "construct.", "use.",
          "reason.", "toml.", "toml_type.", "output.", "trust.", "stop.")


def codes() -> list[str]:
    """The codes an error or a refusal may carry (``error.code`` in JSON), sorted.

    >>> "notation.no_suit" in codes(), "hint" in codes()
    (True, False)
    """
    return sorted(c for c in CODES if not c.startswith(PIECES) and c != "ruleset.by_id")


def markdown() -> str:
    """The table of codes docs/contract.md#codes holds (tests/text/test_codes.py compares).

    >>> markdown().splitlines()[0]
    '| code | message (en) |'
    """
    rows = ["| code | message (en) |", "| --- | --- |"]
    for c in codes():
        rows.append(f"| `{c}` | {CODES[c][1].replace('|', '/')} |")
    return "\n".join(rows) + "\n"
