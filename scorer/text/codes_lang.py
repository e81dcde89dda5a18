"""The messages of a ruleset's expressions, by stable code: code → (zh, en).

Part of the one catalogue (:data:`scorer.text.codes.CODES` holds these too): an
expression that does not compile (``expr.*``: reported at its file:line:column key) and
one that fails while scoring (``eval.*``: named by where it is written, the ``place``).

>>> LANG_CODES["expr.empty"][1]
'empty expression'
"""

from __future__ import annotations

LANG_CODES: dict[str, tuple[str, str]] = {
    # ---- compiling an expression (a problem of the ruleset file)
    "expr.not_text": ("要一个表达式（文字或数），这里是 {kind}",
                      "expected an expression (text or number), got {kind}"),
    "expr.too_long": ("表达式有 {n} 个字符；最多 {limit} 个",
                      "expression is {n} characters long; the limit is {limit}"),
    "expr.empty": ("空的表达式", "empty expression"),
    "expr.syntax": ("语法错误：这里的 {found:q} 读不下去", "syntax error: cannot go on at {found:q}"),
    "expr.syntax_end": ("语法错误：表达式提前结束了", "syntax error: the expression ends too early"),
    "expr.unclosed": ("语法错误：{bracket:q} 没有配对的右括号", "syntax error: {bracket:q} is never closed"),
    "expr.unmatched": ("语法错误：{bracket:q} 前面没有配对的左括号",
                       "syntax error: {bracket:q} closes nothing before it"),
    "expr.open_quote": ("语法错误：引号没有配对", "syntax error: a quote is never closed"),
    "expr.write_instead": ("语法错误：规则表达式不写 {found:q}，要写 {write:q}",
                           "syntax error: a ruleset expression does not write {found:q}; "
                           "write {write:q}"),
    "expr.too_deep": ("表达式嵌套太深", "expression is nested too deeply"),
    "expr.cost": ("这个表达式求值最多可能要 {cost} 步（它的循环相乘）；最多 {limit} 步",
                  "this expression may take up to {cost} steps to evaluate (its loops "
                  "multiply); the limit is {limit}"),
    "expr.too_many_parts": ("表达式超过 {limit} 个部分", "expression has more than {limit} parts"),
    "expr.nested": ("表达式嵌套超过 {limit} 层", "expression is nested more than {limit} levels deep"),
    "expr.not_allowed": ("规则表达式里不允许 {construct:word}",
                         "{construct:word} is not allowed in a ruleset expression"),
    "expr.cannot_compute": ("算不出来（{what}）", "cannot compute it ({what})"),
    "expr.divide_zero": ("算不出来：除以零", "cannot compute it: a division by zero"),
    "expr.folded_bits": ("这个表达式的常数加起来超过 {limit} 位（为限制内存而拒绝）",
                         "the constants of this expression add up to more than {limit} bits "
                         "(refused to keep memory bounded)"),
    "expr.big_number": ("数大于 2**{limit}", "number larger than 2**{limit}"),
    "expr.constant": ("不允许 {kind} 常数（数都是整数）",
                      "{kind} constants are not allowed (numbers are whole numbers)"),
    "expr.unknown_name": ("未知的名字 {name:q}", "unknown name {name:q}"),
    "expr.unknown_in_once": ("未知的名字 {name:q}（组合牌型只看得到牌组 {sets}）",
                             "unknown name {name:q} (a combination pattern sees only the sets "
                             "{sets})"),
    "expr.operator": ("不允许运算符 {op}", "operator {op} is not allowed"),
    "expr.operator_use": ("不允许运算符 {op}（要写 {use}：{use:word}）",
                          "operator {op} is not allowed (write {use}: {use:word})"),
    "use.//": ("整数除法", "whole-number division"),
    "use.**": ("乘方", "powers"),
    "expr.join_text": ("不允许拼接文字", "joining strings is not allowed"),
    "expr.arith_type": ("算术要的是数，这里是 {type}", "arithmetic needs numbers, this is a {type}"),
    "expr.comparison": ("不允许这种比较", "this comparison is not allowed"),
    "expr.is_none": ("'is' 只能用作 'is None' / 'is not None'",
                     "'is' may only be used as 'is None' / 'is not None'"),
    "expr.in_type": ("'in' 的右边要是列表，这里是 {type}",
                     "'in' needs a list on its right, this is a {type}"),
    "expr.compare_types": ("不能比较 {a} 和 {b}", "cannot compare a {a} with a {b}"),
    "expr.compare_groups": ("牌组只能用 == 和 != 比较", "groups can only be compared with == and !="),
    "expr.branches": ("两个分支的类型必须相同，这里是 {a} 和 {b}",
                      "both branches must have one type, got {a} and {b}"),
    "expr.index_type": ("只有列表能取下标，这里是 {type}", "only lists can be indexed, this is a {type}"),
    "expr.slice": ("不允许切片", "slices are not allowed"),
    "expr.index_number": ("列表的下标必须是数", "a list index must be a number"),
    "expr.no_attributes": ("{type} 没有属性", "a {type} has no attributes"),
    "expr.no_attribute": ("{type} 没有属性 {name:q}", "a {type} has no attribute {name:q}"),
    "expr.loops": ("最多只能嵌套 {limit} 层 'for'", "at most {limit} nested 'for' are allowed"),
    "expr.async": ("不允许异步推导式", "async comprehensions are not allowed"),
    "expr.loop_variable": ("循环变量必须是一个名字", "a loop variable must be a single name"),
    "expr.loop_name_taken": ("{name:q} 已经是规则里的名字；换一个循环变量",
                             "{name:q} is already a name in rulesets; pick another loop "
                             "variable"),
    "expr.loop_over": ("只能在列表上循环，这里是 {type}", "can only loop over a list, this is a {type}"),
    "expr.call": ("只能调用列出的函数（{functions}）",
                  "only the listed functions can be called ({functions})"),
    "expr.unknown_function": ("未知的函数 {name:q}", "unknown function {name:q}"),
    "expr.keywords": ("{name}() 不带关键字参数", "{name}() takes no keyword arguments"),
    "expr.tile_arg": ("tile() 接受一个加引号的牌名，如 tile('P')",
                      "tile() takes one tile name in quotes, e.g. tile('P')"),
    "expr.needs_args": ("{name}() 需要参数", "{name}() needs arguments"),
    "expr.needs_numbers": ("{name}() 要的是数，这里是 {type}", "{name}() needs numbers, this is a {type}"),
    "expr.one_number": ("{name}() 接受一个数", "{name}() takes one number"),
    "expr.one_list": ("{name}() 接受一个列表", "{name}() takes one list"),
    "expr.needs_list": ("{name}() 要的是列表，这里是 {type}", "{name}() needs a list, this is a {type}"),
    "expr.list_numbers": ("{name}() 要的是数", "{name}() needs numbers"),
    "expr.any_reading_level": ("any_reading() 只能用在整手牌的检查里",
                               "any_reading() can only be used in hand-level checks"),
    "expr.any_reading_args": ("any_reading() 接受一个条件", "any_reading() takes one condition"),
    "construct.Lambda": ("lambda", "lambda"),
    "construct.NamedExpr": ("':=' 赋值", "':=' assignment"),
    "construct.Await": ("await", "await"),
    "construct.Yield": ("yield", "yield"),
    "construct.YieldFrom": ("yield", "yield"),
    "construct.JoinedStr": ("f 字符串", "an f-string"),
    "construct.FormattedValue": ("f 字符串", "an f-string"),
    "construct.Dict": ("字典", "a dict"),
    "construct.Set": ("集合", "a set"),
    "construct.DictComp": ("字典推导式", "a dict comprehension"),
    "construct.SetComp": ("集合推导式", "a set comprehension"),
    "construct.Starred": ("'*' 解包", "'*' unpacking"),
    "construct.Slice": ("切片", "a slice"),

    # ---- evaluating an expression while scoring (exit 2, named by its place)
    "eval.python": ("表达式出错：{error}", "{error}"),
    "eval.not_whole": ("{src:q} 给出 {value}，不是整数", "{src:q} gave {value}, not a whole number"),
    "eval.below": ("{src:q} 给出 {value}；它至少要是 {minimum}",
                   "{src:q} gave {value}; it must be at least {minimum}"),
    "eval.cpu": ("规则的表达式在这手牌上用了超过 {limit} 秒 CPU，已停止（循环做的事太多？）",
                 "the ruleset's expressions ran for more than {limit} s of CPU on this hand "
                 "and were stopped (a loop that does too much work?)"),
    "eval.index": ("下标 {index} 超出了 {n} 项的列表", "index {index} is outside a list of {n}"),
    "eval.empty": ("{name}() 的列表是空的", "{name}() of an empty list"),
    "eval.too_big": ("数大于 2**{limit}（为限制内存而拒绝）",
                     "a number larger than 2**{limit} (refused to keep memory bounded)"),
    "eval.negative_power": ("{a} ** {b} 的指数是负数：结果必须是整数",
                            "negative exponent in {a} ** {b}: results must be whole numbers"),
    "eval.power_big": ("{a} ** {b} 大于 2**{limit}（为限制内存而拒绝）",
                       "{a} ** {b} is larger than 2**{limit} (refused to keep memory bounded)"),
    "eval.div_zero": ("{a} {op} {b} 除以零", "division by zero in {a} {op} {b}"),
    # the list in brackets, as the expression wrote it: a bare "1" would not say it was one
    # item of the suits' list
    "eval.suits": ("给出了未知的花色 [{bad}]；花色是 'm' 'p' 's'",
                   "gave unknown suits [{bad}]; suits are 'm' 'p' 's'"),
    "eval.face": ("给出 {value}，不是一张牌", "gave {value}, not a tile"),
    "eval.negative_share": ("payment.amount 给 {payer} 算出 {amount}；付分不能是负数",
                            "payment.amount gave {amount} for {payer}; a share cannot be "
                            "negative"),
    "eval.in_play": ("给出 {value}；一种牌在场上有 0 到 4 张",
                     "gave {value}; a tile has 0 to 4 copies in play"),
}
