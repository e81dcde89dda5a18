"""The messages of a ruleset file's problems, by stable code: code → (zh, en).

Part of the one catalogue (:data:`scorer.text.codes.CODES` holds these too): reading the
YAML (``yaml.*``), ``extends:`` and ``remove:`` (``extends.*``, ``remove.*``) and the
layout and values of the sections (``schema.*``). Where a problem is (``file:line:column
key``) and the did-you-mean ``hint`` are said around the message by the renderer.

>>> RULES_CODES["schema.unknown_key"][1]
'unknown key {name:q}'
"""

from __future__ import annotations

RULES_CODES: dict[str, tuple[str, str]] = {
    # ---- reading the YAML text (scorer.rules.yamlsafe)
    "yaml.too_big": ("文件超过 {limit} 字节", "file is larger than {limit} bytes"),
    "yaml.invalid": ("不是有效的 YAML：{error}", "invalid YAML: {error}"),
    # what PyYAML could not read, by kind (scorer.rules.yamlproblems); yaml.invalid keeps
    # PyYAML's own words only for a kind not listed there
    "yaml.mapping_here": ("这里不能有 ': '（键后面的冒号）：值里有 ': ' 的话，给值加上引号",
                          "a ': ' (the colon after a key) is not allowed here: quote a value "
                          "that holds ': '"),
    "yaml.tab": ("缩进里有制表符：YAML 只用空格缩进",
                 "a tab in the indentation: YAML indents with spaces only"),
    "yaml.bad_char": ("{char:q} 不能开始一个 YAML 值（缩进用空格，不用制表符；以它开头的值要加引号）",
                      "{char:q} cannot start a YAML value (indent with spaces, not tabs; "
                      "quote a value that starts with it)"),
    "yaml.no_colon": ("这一行既不是 'key: value' 也不是 '- item'：键后面少了 ':'",
                      "this line is neither 'key: value' nor '- item': the key has no ':'"),
    "yaml.undefined_alias": ("别名 *{name} 没有对应的锚点 &{name}",
                             "the alias *{name} has no anchor &{name}"),
    "yaml.open_quote": ("这个引号没有配对：到文件结束都没有找到另一个引号",
                        "this quote is never closed: no matching quote before the end of the "
                        "file"),
    "yaml.escape": ("双引号里的转义（反斜杠）无效：反斜杠写成 \\\\，或者改用单引号",
                    "an unknown escape (a backslash) in double quotes: write a backslash as "
                    "\\\\, or use single quotes"),
    "yaml.open_list": ("这个 '[' 列表没有用 ']' 结束（或者它的项没有用 ',' 分开）",
                       "this '[' list is not closed with ']' (or its items are not separated "
                       "by ',')"),
    "yaml.open_map": ("这个 '{' 映射没有用 '}' 结束（或者它的项没有用 ',' 分开）",
                      "this '{' mapping is not closed with '}' (or its entries are not "
                      "separated by ',')"),
    "yaml.indent": ("缩进和上面的键对不齐（或者一个值后面还有别的东西）",
                    "the indentation does not line up with the keys above (or something "
                    "follows a value on its line)"),
    "yaml.no_value": ("这里少了一个值（多了一个 ']'、'}' 或 ','？）",
                      "a value is missing here (a stray ']', '}' or ','?)"),
    "yaml.dash_here": ("这里不能有列表项 '-'：它的缩进和上面的键对不齐",
                       "a list item '-' is not allowed here: its indentation does not line "
                       "up with the keys above"),
    "yaml.anchor_twice": ("同一个锚点 & 定义了两次", "an anchor & is defined twice"),
    "yaml.anchor_name": ("锚点 & 或别名 * 后面要有名字", "an anchor & or an alias * needs a name"),
    "yaml.documents": ("规则文件是一个 YAML 文档：这里又开始了一个（---）",
                       "a ruleset file is one YAML document: another begins here (---)"),
    "yaml.block_scalar": ("| 或 > 后面在同一行只能有缩进数字、+ 或 -",
                          "after | or > only an indentation digit, + or - may follow on its "
                          "line"),
    "yaml.tag_open": ("这个标签（!）写得不完整", "this tag (!) is not complete"),
    "yaml.directive": ("未知的 YAML 指令（%）", "an unknown YAML directive (%)"),
    "yaml.control_char": ("文件里有控制字符 {char}：YAML 不允许",
                          "the file holds the control character {char}: YAML does not allow it"),
    "yaml.too_deep": ("YAML 嵌套太深", "YAML nested too deeply"),
    "yaml.bomb": ("超过 {limit} 个值（别名展开炸弹？）；拒绝读取",
                  "more than {limit} values (an alias-expansion bomb?); refused"),
    "yaml.nested": ("嵌套超过 {limit} 层", "nested more than {limit} levels"),
    "yaml.brackets": ("括号嵌套超过 {limit} 层", "nested more than {limit} levels of brackets"),
    "yaml.tag": ("不允许 YAML 标签 {tag}", "YAML tag {tag} is not allowed"),
    "yaml.items": ("{n} 项；规则文件的一个列表或映射最多 {limit} 项；拒绝读取",
                   "{n} items; at most {limit} in one list or mapping of a ruleset; refused"),
    "yaml.text_budget": ("展开别名后文件的文字超过 {limit} 个字符（每用一次别名就再读一次）；拒绝读取",
                         "the file's text with its aliases expanded is more than {limit} "
                         "characters (an alias is read again at every use); refused"),
    "yaml.long_number": ("数字超过 {limit} 位", "number with more than {limit} digits"),
    "yaml.not_whole": ("{value:q}：规则文件里的数字都是整数",
                       "{value:q}: numbers in rulesets are whole numbers"),
    "yaml.key_not_word": ("键必须是普通的词", "keys must be plain words"),
    "yaml.merge_key": ("不支持 YAML 合并键（<<）", "YAML merge keys (<<) are not supported"),
    "yaml.key_twice": ("这个键写了两次", "key given twice"),

    # ---- extends: and remove: (scorer.rules.inherit)
    "ruleset.not_mapping": ("规则文件必须是键的映射", "a ruleset file must be a mapping of keys"),
    "ruleset.not_compiled": ("规则编译不了", "the ruleset could not be compiled"),
    "inherited_by": ("（被 {by} 继承）", " (inherited by {by})"),
    "remove.needs_extends": ("remove: 去掉继承来的条目；它需要 extends:（作为起点的规则）",
                             "remove: drops inherited entries; it needs extends: (the ruleset "
                             "to start from)"),
    "extends.missing": ("给出作为起点的规则：内置规则的 id（如 hangzhou），或 YAML 文件的路径"
                        "（相对于这个文件）",
                        "give the ruleset to start from: a built-in id (e.g. hangzhou) or a "
                        "path to a YAML file, relative to this file"),
    "extends.not_text": ("必须是内置规则的 id（如 hangzhou），或 YAML 文件的路径（相对于这个文件）",
                         "must be a built-in ruleset id (e.g. hangzhou) or a path to a YAML "
                         "file, relative to this file"),
    "extends.not_yaml": ("{name:q}：extends 指名的是内置规则的 id 或 .yaml/.yml 文件",
                         "{name:q}: extends names a built-in ruleset id or a .yaml/.yml file"),
    "extends.too_deep": ("extends 超过 {limit} 层（继承链：{names}）",
                         "more than {limit} levels of extends (chain: {names})"),
    "extends.cycle": ("extends 绕回了自己：{names}", "extends itself in a cycle: {names}"),
    "extends.no_pattern": ("没有可改的继承牌型 {id:q}：新牌型需要 when:（以及 name、value）",
                           "no inherited pattern {id:q} to change: a new pattern needs when: "
                           "(and name, value)"),
    "remove.not_list": ("必须是继承来的 id 的列表，如 [qingqidui, gangkai]",
                        "must be a list of inherited ids, e.g. [qingqidui, gangkai]"),
    "remove.not_text": ("必须是一个继承来的条目的 id（文字）",
                        "must be the id of an inherited entry (text)"),
    "remove.unknown": ("没有 id 为 {id:q} 的继承牌型、errors 或 not_a_win 条目",
                       "no inherited pattern, error or not_a_win with id {id:q}"),

    # ---- the layout of the sections (scorer.rules.sections, reader)
    "schema.unknown_key": ("未知的键 {name:q}", "unknown key {name:q}"),
    "schema.too_many": ("{n} 个条目（连同继承来的）；最多 {limit} 个；拒绝读取",
                        "{n} entries (with what this ruleset extends); at most {limit}; "
                        "refused"),
    "schema.expr_budget": ("这个规则的表达式（连同继承来的）共超过 {limit} 个字符；拒绝读取",
                           "the expressions of this ruleset (with what it extends) are more "
                           "than {limit} characters in all; refused"),
    "schema.missing": ("缺少", "missing"),
    "schema.not_number": ("必须是数，这个表达式给出的是 {type}",
                          "must be a number, this expression gives a {type}"),
    "schema.not_bool": ("必须是 true 或 false", "must be true or false"),
    "schema.not_text": ("必须是文字", "must be text"),
    "schema.not_texts": ("必须是文字，或映射 {zh: ..., en: ...}",
                         "must be text, or a mapping {zh: ..., en: ...}"),
    "schema.not_whole": ("必须是整数", "must be a whole number"),
    "schema.not_a_number": ("必须是数", "must be a number"),
    "schema.tooling_moved": ("{name:q} 现在放在 tooling: 下（tooling: {{name}: ...}）；"
                             "写在顶层也仍然可以",
                             "{name:q} now belongs under tooling: (tooling: {{name}: ...}); "
                             "the top-level spelling still works"),
    "section.house_examples": ("必须是 {title, yaml} 的列表", "must be a list of {title, yaml}"),
    "section.house_example": ("必须是含 title 和 yaml 的映射", "must be a mapping with title and yaml"),
    "section.options": ("必须是映射 名字: {...}", "must be a mapping name: {...}"),
    "section.option": ("必须是含 values/default/description 的映射",
                       "must be a mapping with values/default/description"),
    "section.option_name": ("选项名只用小写字母、数字和 _",
                            "option names use lowercase letters, digits and _"),
    "section.context_flag": ("必须是映射（default/min/max）", "must be a mapping (default/min/max)"),
    "section.tallies": ("必须是映射 名字: {combine}", "must be a mapping name: {combine}"),
    "section.tally": ("必须是含 combine: 的映射", "must be a mapping with combine:"),
    "section.mapping": ("必须是映射", "must be a mapping"),
    "section.labels": ("必须是映射 名字: 显示名", "must be a mapping name: label"),
    "section.checks": ("必须是 {when, message} 的列表", "must be a list of {when, message}"),
    "section.check": ("必须是含 when 和 message 的映射", "must be a mapping with when and message"),
    "section.patterns": ("必须是牌型的列表", "must be a list of patterns"),
    "section.pattern": ("必须是映射（id、name、when、value）",
                        "must be a mapping (id, name, when, value)"),
    "section.tiers": ("必须是 {when, name, name_en} 的列表",
                      "must be a list of {when, name, name_en}"),
    "section.tier": ("必须是含 name 的映射（以及 when、name_en）",
                     "must be a mapping with name (and when, name_en)"),
    "section.also": ("必须是映射 计数: 值", "must be a mapping tally: value"),
    "section.ties": ("必须是映射 {order: sets, prefer: [...]}",
                     "must be a mapping {order: sets, prefer: [...]}"),
    "section.count_once": ("必须是映射 {of: chows, sets: 2}", "must be a mapping {of: chows, sets: 2}"),
    "section.tooling": ("必须是映射（self_draw_default、ties、house_examples）",
                        "must be a mapping (self_draw_default, ties, house_examples)"),
    "section.payment": ("必须是含 amount 的映射（以及 pays、let、chengbao）",
                        "must be a mapping with amount (and pays, let, chengbao)"),
    "section.lets": ("必须是映射 名字: {label, value}", "must be a mapping name: {label, value}"),
    "section.chengbao": ("必须是映射（allowed、message、reverse_factor）",
                         "must be a mapping (allowed, message, reverse_factor)"),

    # ---- the values of the sections (scorer.rules.schema*)
    "schema.bad_id": ("只用字母、数字、'-' 和 '_'", "use letters, digits, '-' and '_' only"),
    "schema.hand_size": ("必须是像 14 或 17 这样的整数（一对加若干三张的组）",
                         "must be a whole number like 14 or 17 (a pair plus sets of three)"),
    "schema.shape_size": ("{shape} 是 {size:or} 张牌的牌型；这个规则的 hand_size 是 {hand_size}",
                          "{shape} is a {size:or}-tile shape; this ruleset's hand_size is "
                          "{hand_size}"),
    "schema.option_is_fact": ("{name:q} 已经是一个事实的名字；换个名字",
                              "{name:q} is already the name of a fact; choose another name"),
    "schema.suits": ("必须给出花色字母的列表，这里给出的是 {type}",
                     "must give a list of suit letters, this gives a {type}"),
    "schema.robbing_kong": ("必须是 'discard' 或 'self_draw'", "must be 'discard' or 'self_draw'"),
    "schema.house_budget": ("没有读：house examples 里一共超过 {limit} 个值",
                            "not read: the house examples hold more than {limit} values in all"),
    "schema.house_not_keys": ("必须是 YAML 的键，加到继承这个规则的文件里",
                              "must be YAML keys to add to a file that extends this ruleset"),
    "schema.needs_flag": ("用了 {name:q}，它需要在 context: 下列出开关 {flag:q}"
                          "（在 'context:' 下面加一行 '  {flag}:'）",
                          "uses {name:q}, which needs the flag {flag:q} listed under context: "
                          "(a line '  {flag}:' below 'context:')"),
    "schema.one_of": ("必须是这些之一：{allowed}", "must be one of: {allowed}"),
    "schema.placeholder": ("{{name}} 在这里不是一个名字（占位符指名一个值，如 {min_fan}）",
                           "{{name}} is not a name here (placeholders name a value, e.g. "
                           "{min_fan})"),
    "schema.let_taken": ("{name:q} 已经是一个名字；换个名字", "{name:q} is already a name; choose another"),
    "schema.shapes": ("必须是这些的列表：{known}", "must be a list of: {known}"),
    "schema.shape_missing": ("缺少（牌型名）", "missing (a shape name)"),
    "schema.unknown_shape": ("未知的牌型 {name:q}", "unknown shape {name:q}"),
    "schema.option_values": ("必须是非空的列表，由词、数、true/false 或 none 组成",
                             "must be a non-empty list of words, numbers, true/false or none"),
    "schema.option_default": ("必须是这些值之一（{values}）", "must be one of the values ({values})"),
    "schema.option_range": ("给出 values: [...]，或整数的 default 加 min/max",
                            "give values: [...] or a whole-number default with min/max"),
    "schema.context": ("必须列出用到的开关", "must list the flags used"),
    "schema.unknown_flag": ("未知的 context 开关 {name:q}", "unknown context flag {name:q}"),
    "schema.unknown_flag_always": ("未知的 context 开关 {name:q}（它总是可用，不用列出）",
                                   "unknown context flag {name:q} (always accepted, no need "
                                   "to list)"),
    "schema.outside_game": ("{value} 超出了这个开关在游戏里的范围 {low}..{high}",
                            "{value} is outside the game's range {low}..{high}"),
    "schema.min_over_max": ("min {min} 大于 max {max}", "min {min} is more than max {max}"),
    "schema.default_outside": ("{value} 超出了这个开关的范围 {low}..{high}",
                               "{value} is outside the flag's range {low}..{high}"),
    "schema.wildcard_face": ("必须给出一张牌（如 wild 或 'P'），这里给出的是 {type}",
                             "must give a tile (e.g. wild, or 'P'), this gives a {type}"),
    "schema.stand_in_tile": ("{value:q} 不是一张牌（写成 5p、3m、7s、E、C、1z、东 这样）",
                             "{value:q} is not a tile (write e.g. 5p, 3m, 7s, E, C, 1z, 东)"),
    "schema.stand_in_scope": ("必须是 'all' 或 'melds'", "must be 'all' or 'melds'"),
    "schema.stand_in_shapes": ("必须是牌型的列表（{known}）", "must be a list of shapes ({known})"),
    "schema.id_twice": ("id {id:q} 用了两次（另见 patterns[{other}]）",
                        "id {id:q} is used twice (also patterns[{other}])"),
    "schema.unknown_tally": ("未知的计数 {name:q}", "unknown tally {name:q}"),
    "schema.once_no_count": ("组合牌型只算一次（count_once:，套算一次）；去掉 {name}",
                             "a combination pattern is counted once (count_once:, 套算一次); "
                             "remove {name}"),
    "schema.count_and_each": ("count 和 each 只给一个（each 数它的项）",
                              "give count or each, not both (each counts its items)"),
    "schema.each_not_list": ("必须给出列表（如 [g for g in pungs if g.dragon]），这里给出的是 {type}",
                             "must give a list (e.g. [g for g in pungs if g.dragon]), this "
                             "gives a {type}"),
    "schema.pattern_ids": ("必须是牌型 id 的列表", "must be a list of pattern ids"),
    "schema.no_pattern": ("没有 id 为 {id:q} 的牌型", "no pattern with id {id:q}"),
    "schema.tier_name": ("{{name}} 不是牌型能用的数（写 {fact} 或 {fact:alt0|alt1|...}）",
                         "{{name}} is not a number a pattern can use (write {fact} or "
                         "{fact:alt0|alt1|...})"),
    "schema.tie_order": ("必须是 'found' 或 'sets'", "must be 'found' or 'sets'"),
    "schema.count_once_twice": ("只给 count_once（combine 是它的旧写法）",
                                "give count_once only (combine is its old spelling)"),
    "schema.count_once_renamed": ("组合牌型的 'combine:' 现在写作 'count_once:'（套算一次）；旧写法仍可用",
                                  "a combination pattern's 'combine:' is now spelt 'count_once:' "
                                  "(套算一次); the old spelling still works"),
    "schema.count_once_of": ("必须指名一个牌组的列表：{lists}", "must name a list of groups: {lists}"),
    "schema.count_once_sets": ("必须是从 2 到 {limit} 的整数", "must be a whole number from 2 to {limit}"),
    "schema.each_of_missing": ("缺少：of: 指名其中之一：{lists}", "missing: of: names one of {lists}"),
    "schema.each_of": ("{name:q} 不是牌组或牌的列表{hint}；of: 指名其中之一：{lists}",
                       "{name:q} is not a list of groups or tiles{hint}; of: names one of "
                       "{lists}"),
    "schema.not_attribute": ("{name:q} 不是 {kind} 的属性", "{name:q} is not an attribute of a {kind}"),
    "schema.each_kind": ("这里不能匹配 {type}；把 each: 写成表达式",
                         "a {type} cannot be matched here; write each: as an expression"),
}
