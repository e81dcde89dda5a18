"""Every ``--help`` in the run's language, fitting the terminal.

The commands are read from the typer app's own click tree (so a command or option added
later is checked too): for each, ``--help`` under zh and under en exits 0, fits 80 columns
and a narrower ``COLUMNS=60`` (measured with wcwidth, not with the code under test), holds
no English sentence under zh (test_fit's check) and no Chinese under en beyond the names
the English texts gloss on purpose. Every command and visible option has a help text in
the catalogue in both languages. The language is chosen as documented: ``--lang``, then
``MJSCORE_LANG``, then the config file, then the locale. Expected words are written here
by hand.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from wcwidth import wcswidth

from scorer.cli.app import app
from scorer.cli.entry import main
from scorer.cli.helpfmt import HelpCommand, HelpGroup, key_of
from scorer.text.helps import HELPS
from tests.cli.test_fit import english
from tests.helpers.hostile import cli


def _tree() -> Iterator[tuple[tuple[str, ...], Any]]:
    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        yield path, command
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, (*path, name))

    yield from walk(typer.main.get_command(app), ())


TREE = list(_tree())
PATHS = [path for path, _ in TREE]
# the Chinese names the English texts gloss or quote on purpose (a game's own words, the
# seats typed as values): nothing else Chinese may appear under en
GLOSSED = {"东南西北", "上家", "对家", "下家", "财神", "金", "老庄", "连庄", "和绝张", "财飘",
           "游金", "双游", "三游", "天听", "天胡", "三金倒", "地胡", "人胡", "春夏梅", "摊",
           "底分", "底注", "杠上炮", "血战到底", "血流成河", "查花猪", "查大叫", "退税",
           "比赛分", "标准分"}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")


def test_the_tree_is_every_command() -> None:
    # the commands docs/contract.md#options lists: none is left out of these tests
    assert set(PATHS) == {(), ("score",), ("waits",), ("batch",), ("round",), ("standings",),
                          ("serve",), ("config",), ("rules",), ("rules", "list"),
                          ("rules", "show"), ("rules", "check"), ("rules", "new"),
                          ("rules", "clear-cache")}
    for path, command in TREE:  # each writes its help in the run's language
        assert isinstance(command, (HelpCommand, HelpGroup)), path


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "mjscore")
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("columns", [None, "60"])
def test_help_fits_and_speaks_one_language(path: tuple[str, ...], lang: str,
                                           columns: str | None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    limit = int(columns or 80)
    r = cli(*path, "--help", lang=lang)
    assert r.code == 0 and not r.err, (path, r.err)
    head = "用法：mjscore" if lang == "zh" else "Usage: mjscore"
    assert r.out.startswith(head), r.out[:40]
    for line in r.out.splitlines():
        assert wcswidth(line) <= limit, (path, lang, line)
        if lang == "zh":
            assert not english(line, " ".join(path)), (path, line)
        else:
            assert set(CJK.findall(line)) <= GLOSSED, (path, line)


def _params(command: Any) -> list[Any]:
    ctx = command.make_context("mjscore", [], resilient_parsing=True)
    return [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_command_and_option_has_its_text_in_the_catalogue(lang: str) -> None:
    """A command or an option added without its catalogue entry fails here (the help would
    show nothing, or a flag row's English under zh)."""
    missing = []
    for path, command in TREE:
        if key_of(path) not in HELPS:
            missing.append(key_of(path))
        for p in _params(command):
            own, shared = key_of(path, p.name), f"help.opt.{p.name}"
            if own not in HELPS and shared not in HELPS:
                missing.append(own)
    assert not missing, missing
    for key, (zh, en) in HELPS.items():
        assert zh and en, key
        assert CJK.search(zh), (key, zh)  # the Chinese is Chinese
        assert set(CJK.findall(en)) <= GLOSSED, (key, en)
        # the same placeholders in both
        assert re.findall(r"\{\w+\}", zh) == re.findall(r"\{\w+\}", en), key


def test_the_flag_rows_say_in_english_what_the_help_says() -> None:
    """The flag table's own help (``Flag.help``, which the page's API serves) is the
    catalogue's English, word for word: one text, not two that drift."""
    from scorer.rules.flags import FLAGS

    for f in FLAGS:
        assert HELPS[f"help.opt.{f.field}"][1] == f.help, f.field


def _unfold(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_score_help_in_chinese() -> None:
    out = cli("score", "--help", lang="zh").out
    assert out.startswith("用法：mjscore score [选项] ")
    for said in ("参数：", "选项：", "  --self-draw  ", "胡的那张是自摸的。", "圈风。（默认：E）",
                 "-h, --help", "显示这份说明后退出。"):
        assert said in out, said
    flat = _unfold(out)
    # the registry's rulesets, joined as Chinese joins a list; the required hand
    assert "内置的id（hangzhou、jinhua、mcr、mcr-house、sichuan、sichuan-xueliu、xiamen）" in flat
    assert "（最后一张是胡的那张）。（必填）" in flat
    assert "Usage" not in out and "Options" not in out and "default" not in out


def test_score_help_in_english() -> None:
    out = cli("score", "--help", lang="en").out
    assert out.startswith("Usage: mjscore score [OPTIONS] ")
    for said in ("Arguments:", "Options:", "The winning tile was self-drawn.",
                 "Prevalent wind.  [default: E]", "Show this message and exit."):
        assert said in out, said
    assert "a built-in id (hangzhou, jinhua, mcr, mcr-house, sichuan, sichuan-xueliu, " \
        "xiamen)" in " ".join(out.split())


def test_groups_list_their_commands_in_the_language() -> None:
    zh, en = cli("--help", lang="zh").out, cli("--help", lang="en").out
    assert zh.startswith("用法：mjscore [选项] 命令 [参数]...")
    assert en.startswith("Usage: mjscore [OPTIONS] COMMAND [ARGS]...")
    assert "\n命令：\n" in zh and "\nCommands:\n" in en
    assert "  score      算一手牌的分，并说明为什么。\n" in zh
    assert "  score      Score one hand and show why.\n" in en
    rules = cli("rules", "--help", lang="zh").out
    assert "  check        检查规则文件：每个问题单独一行（有问题时退出码是 2）。\n" in rules


def test_batch_help_lists_a_lines_flags_in_the_language() -> None:
    zh, en = cli("batch", "--help", lang="zh").out, cli("batch", "--help", lang="en").out
    assert "每一行可以用的参数" in zh and "  --self-draw            胡的那张是自摸的。\n" in zh
    assert "Flags of each line" in en
    assert "  --self-draw            The winning tile was self-drawn.\n" in en
    assert "--players SEATING" in zh and "--players SEATING" in en
    # batch's own switch pair, its default in the language
    assert "（默认：no-subtotals）" in zh and "[default: no-subtotals]" in en


def test_no_arguments_is_the_apps_help_in_the_language() -> None:
    assert cli(lang="zh").out.startswith("用法：mjscore [选项] 命令")
    assert cli(lang="en").out.startswith("Usage: mjscore [OPTIONS] COMMAND")


@pytest.fixture
def no_config(tmp_path: Path) -> str:
    """An empty config file: no language from it."""
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    return str(empty)


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, config: str, **env: str) -> str:
    """stdout of ``mjscore ARGV`` in this process with only ``env`` and the config file
    ``config`` naming a language."""
    for var in ("MJSCORE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MJSCORE_CONFIG", config)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), \
            contextlib.suppress(SystemExit):
        main(argv)
    return out.getvalue()


def test_the_language_is_chosen_as_documented(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path, no_config: str) -> None:
    en, zh = "Usage: mjscore score", "用法：mjscore score"
    # --lang wins, wherever it is on the line and however it is written
    assert _run(["score", "--lang", "en", "--help"], monkeypatch, no_config).startswith(en)
    assert _run(["score", "--help", "--lang=en"], monkeypatch, no_config,
                MJSCORE_LANG="zh").startswith(en)
    assert _run(["rules", "show", "--lang", "zh", "-h"], monkeypatch, no_config,
                MJSCORE_LANG="en").startswith("用法：mjscore rules show")
    # then MJSCORE_LANG, over the locale
    assert _run(["score", "--help"], monkeypatch, no_config, MJSCORE_LANG="en",
                LANG="zh_CN.UTF-8").startswith(en)
    # then the config file's lang, over the locale
    config = tmp_path / "config.toml"
    config.write_text('lang = "en"\n', encoding="utf-8")
    assert _run(["score", "--help"], monkeypatch, str(config),
                LANG="zh_CN.UTF-8").startswith(en)
    # then the locale: zh* is Chinese, another language English
    assert _run(["score", "--help"], monkeypatch, no_config, LANG="zh_CN.UTF-8").startswith(zh)
    assert _run(["score", "--help"], monkeypatch, no_config, LC_ALL="en_GB.UTF-8",
                LANG="zh_CN.UTF-8").startswith(en)
    # and with none of them, Chinese
    assert _run(["score", "--help"], monkeypatch, no_config).startswith(zh)
    # a --lang that is no language leaves the choice to the rest
    assert _run(["score", "--lang", "fr", "--help"], monkeypatch, no_config,
                MJSCORE_LANG="en").startswith(en)


def test_shell_completion_describes_in_the_language(monkeypatch: pytest.MonkeyPatch,
                                                    no_config: str) -> None:
    """zsh shows each option's help beside it: the same catalogue text."""
    asked = {"_MJSCORE_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "mjscore score --self"}
    zh = _run([], monkeypatch, no_config, MJSCORE_LANG="zh", **asked)
    en = _run([], monkeypatch, no_config, MJSCORE_LANG="en", **asked)
    assert '"--self-draw":"胡的那张是自摸的。"' in zh
    assert '"--self-draw":"The winning tile was self-drawn."' in en


def test_the_readme_shows_what_rules_help_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "80")
    for head, lang in (("$ mjscore rules --help\n", "zh"),
                       ("$ MJSCORE_LANG=en mjscore rules --help\n", "en")):
        shown = readme[readme.index(head) + len(head):].split("```")[0]
        assert cli("rules", "--help", lang=lang).out == shown, lang
