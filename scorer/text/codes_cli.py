"""The command line's own messages that once carried someone else's English, by stable code:
code → (zh, en).

Part of the one catalogue (:data:`scorer.text.codes.CODES` holds these too):

* why the operating system refused a file: an error's ``reason`` parameter names one of
  the words ``reason.*`` (``{reason:word}``), from the error's errno
  (:func:`scorer.errors.os_reason`), never the system's own text, which is English
  whatever the run's language; ``errno`` is its symbolic name (``ENOENT``), said when no
  word fits. The English words are the C library's, as the messages said before;
* the command line's grammar (``usage.*``): what typer's parser refused, read from its
  exception's class and attributes (:mod:`scorer.cli.usage`), never from its English;
* a config file that is not TOML (``toml.*``, said after ``config.syntax``'s place).

>>> CLI_CODES["reason.not_found"]
('没有这个文件或文件夹', 'No such file or directory')
"""

from __future__ import annotations

CLI_CODES: dict[str, tuple[str, str]] = {
    # ---- why a file cannot be read or written: the param `reason` (os_reason)
    "reason.not_found": ("没有这个文件或文件夹", "No such file or directory"),
    "reason.permission": ("没有权限", "Permission denied"),
    "reason.is_dir": ("这是文件夹，不是文件", "Is a directory"),
    "reason.not_dir": ("路径中的一段不是文件夹", "Not a directory"),
    "reason.no_space": ("磁盘上没有空间了", "No space left on device"),
    "reason.quota": ("超出了磁盘配额", "Disk quota exceeded"),
    "reason.too_big": ("文件太大", "File too large"),
    "reason.name_too_long": ("文件名太长", "File name too long"),
    "reason.read_only": ("文件系统是只读的", "Read-only file system"),
    "reason.io": ("输入输出错误", "Input/output error"),
    "reason.loop": ("符号链接的层数太多", "Too many levels of symbolic links"),
    "reason.exists": ("文件已经存在", "File exists"),
    "reason.busy": ("文件正被占用", "Device or resource busy"),
    "reason.in_use": ("地址已被占用", "Address already in use"),
    "reason.no_address": ("这台机器没有这个地址", "Cannot assign requested address"),
    "reason.not_utf8": ("不是 UTF-8 文本", "not UTF-8 text"),
    "reason.bad_name": ("名字里有 NUL 字节", "the name holds a NUL byte"),
    "reason.other": ("系统错误 {errno}", "system error {errno}"),
    "output.cannot_write": ("写不了输出：{reason:word}", "cannot write the output: {reason:word}"),
    # a run stopped by a signal (stop.interrupted, stop.terminated: scorer/text/words.py)
    "output.stopped": ("{stop:word}（{command}）", "{stop:word} ({command})"),
    "stop.aborted": ("已放弃", "aborted"),
    # batch's summary when its output cannot be written (exit 74): how much the output holds
    "output.batch_stopped": ("mjscore batch：写了 {written} 行后停止，{failed} 行失败，每秒 {rate} 手"
                             "（{jobs}）；{held}（已算 {scored} 手）",
                             "mjscore batch: stopped after {written} lines written, {failed} "
                             "failed, {rate} hands/s ({jobs}); {held} ({scored} scored)"),
    "output.held_whole": ("输出里的这 {count} 行都是完整的",
                          "the output holds those {count} lines, each whole"),
    "output.held_cut": ("输出里有这 {count} 行完整的，最后可能还有被截断的一行",
                        "the output holds those {count} whole lines and may end with a cut one"),

    # ---- the ruleset cache not used (a notice after a run that succeeded: scorer.rules.store)
    "cache.unused": ("{cause:error}；规则从各自的文件读取（MJSCORE_NO_CACHE=1 关掉缓存）",
                     "{cause:error}; rulesets are read from their files (MJSCORE_NO_CACHE=1 "
                     "turns the cache off)"),
    "cache.not_absolute": ("{var} 不是绝对路径", "{var} is not an absolute path"),
    "cache.no_folder": ("不知道缓存该放在哪个文件夹（没有设置 HOME，在 Windows 上是 LOCALAPPDATA）",
                        "no cache folder is known (HOME, or LOCALAPPDATA on Windows, is not set)"),
    "cache.cannot_make": ("建不了规则缓存 {path}（{reason:word}）",
                          "cannot make the ruleset cache {path} ({reason:word})"),
    "cache.cannot_write": ("写不了规则缓存 {path}（{reason:word}）",
                           "cannot write the ruleset cache {path} ({reason:word})"),
    "cache.untrusted": ("不用规则缓存 {path}：{trust:word}",
                        "not using the ruleset cache {path}: {trust:word}"),
    "trust.not_dir": ("它不是文件夹（是链接、联接点或文件）",
                      "it is not a directory (a link, a junction or a file)"),
    "trust.other_user": ("它属于另一个用户", "it belongs to another user"),
    "trust.shared": ("同组或其他用户可以使用它（chmod 700 让它只归你用）",
                     "group or others may use it (chmod 700 makes it private)"),

    # ---- the command line's grammar, from typer's exception classes (scorer.cli.usage)
    "usage.no_such_command": ("没有这个命令：{command:q}", "No such command {command:q}"),
    "usage.missing_command": ("缺少命令", "Missing command."),
    "usage.extra_arguments": ("多出来的参数：{extra:q}", "Got unexpected extra argument(s): {extra:q}"),

    # ---- the config file's values (config.bad_value's cause)
    "config.empty": ("值是空的", "the value is empty"),
    "config.choice": ("可以是 {choices:or}", "use {choices:or}"),
    "toml_type.boolean": ("真假值", "a boolean"),
    "toml_type.array": ("数组", "an array"),
    "toml_type.table": ("表", "a table"),
    "toml_type.datetime": ("日期时间", "a date or time"),

    # ---- a config file that is not TOML: config.syntax's problem (at file:line:column)
    "toml.bad_value": ("这里要一个值（引号里的文字、数、true 或 false）",
                       "a value is expected here (a text in quotes, a number, true or false)"),
    "toml.no_equals": ("键的后面要有 '='", "a key must be followed by '='"),
    "toml.bad_key": ("这里要一个键（字母、数字、_ 和 -，或引号里的文字）",
                     "a key is expected here (letters, digits, _ and -, or a text in quotes)"),
    "toml.statement": ("这一行读不下去：写 key = value", "this line does not read: write key = value"),
    "toml.line_end": ("一个值的后面只能是换行（或 # 注释）",
                      "a value must be followed by the end of the line (or a # comment)"),
    "toml.open_string": ("引号没有关上", "a quote is never closed"),
    "toml.open_array": ("'[' 没有用 ']' 关上", "'[' is never closed with ']'"),
    "toml.open_table": ("'{' 没有用 '}' 关上", "'{' is never closed with '}'"),
    "toml.table_end": ("表头要以 ']' 结尾", "a table header must end with ']'"),
    "toml.twice": ("同一个键写了两次", "a key is given twice"),
    "toml.escape": ("文字里的 '\\' 不是合法的转义", "a '\\' in a text is no valid escape"),
    "toml.date": ("不是合法的日期或时间", "not a valid date or time"),
    "toml.char": ("意外的字符 {char:q}", "unexpected character {char:q}"),
    "toml.end": ("文件在这里就结束了", "the file ends here"),
}
