"""`mjscore rules`: its sub-commands (list, show, check, new, clear-cache) and the spellings of
earlier releases as their aliases; --yaml, --markdown, --facts, --option, --rules, `new FILE
--from ID`, and the generated pages in docs/ being current."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorer.cli.entry import main
from scorer.rules.load import builtin_path, compile_ruleset, list_builtin, load_ruleset
from scorer.rules.model import Ruleset
from scorer.views.rulespage import facts_markdown, markdown
from scorer.views.rulesyaml import yaml_text
from tests.conftest import ROOT

PLATFORM = ROOT / "examples" / "house" / "hangzhou-platform.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit status, stdout, stderr)."""
    code = 0
    try:
        main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def signature(rs: Ruleset) -> dict[str, object]:
    """Everything that decides how a ruleset scores, as plain values."""
    return {
        "id": rs.id, "name": (rs.name, rs.name_en), "hand_size": rs.hand_size,
        "shapes": rs.shapes, "players": rs.players.src, "suits": rs.suits.src,
        "flags": {k: (f.default, f.minimum, f.maximum) for k, f in rs.flags.items()},
        "options": {k: (o.values, o.default, o.minimum, o.maximum) for k, o in rs.options.items()},
        "wildcard": None if rs.wildcard is None else (rs.wildcard.face.src,
                                                      rs.wildcard.in_play.src),
        "tallies": [(t.name, t.combine, t.label, t.label_en, t.default) for t in rs.tallies],
        "score": rs.score.src, "labels": rs.labels,
        "patterns": [(p.id, p.name, p.name_en, p.tally, p.when.src, p.value.src,
                      p.count.src if p.count else None, sorted(p.replaces),
                      [(t, c.src) for t, c in p.also], p.notes, p.fallback)
                     for p in rs.patterns],
        "errors": [(c.id, c.when.src, c.template) for c in rs.errors],
        "not_a_win": [(c.id, c.on, c.when.src, c.template, c.reason) for c in rs.not_a_win],
        "payment": (rs.payment.pays.src, rs.payment.amount.src,
                    [(x.name, x.value.src) for x in rs.payment.lets],
                    None if rs.payment.chengbao is None else (
                        rs.payment.chengbao.allowed.src, rs.payment.chengbao.message,
                        rs.payment.chengbao.reverse_factor.src)),
        "notes": rs.notes, "house_examples": rs.house_examples,
    }


# ----------------------------------------------------------------------------- docs current
@pytest.mark.parametrize("rid", list_builtin())
def test_rules_page_in_docs_is_current(rid: str) -> None:
    page = ROOT / "docs" / "rules" / f"{rid}.md"
    assert page.is_file(), f"docs/rules/{rid}.md is missing: mjscore rules {rid} --markdown > {page}"
    assert page.read_text(encoding="utf-8") == markdown(load_ruleset(rid)), (
        f"docs/rules/{rid}.md is out of date: run  mjscore rules {rid} --markdown > "
        f"docs/rules/{rid}.md")


def test_every_rules_page_is_a_builtin_and_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
    assert pages == list_builtin()
    for rid in pages:
        assert f"(docs/rules/{rid}.md)" in readme, f"README does not link docs/rules/{rid}.md"


@pytest.mark.parametrize(("lang", "page"), [("en", "facts.md"), ("zh", "facts.zh.md")])
def test_facts_page_is_current(lang: str, page: str) -> None:
    assert (ROOT / "docs" / page).read_text(encoding="utf-8") == facts_markdown(lang), (
        f"docs/{page} is out of date: run  mjscore rules --facts --lang {lang} > docs/{page}")


# ----------------------------------------------------------------------------- --yaml
def test_yaml_of_a_builtin_is_the_file_with_its_comments(capsys) -> None:
    code, out, _ = run(capsys, "rules", "hangzhou", "--yaml")
    assert code == 0
    assert out == builtin_path("hangzhou").read_text(encoding="utf-8").rstrip("\n") + "\n"


@pytest.mark.parametrize("spec", [*list_builtin(), *sorted(
    str(p) for p in (ROOT / "examples" / "house").glob("*.yaml"))])
def test_resolved_yaml_loads_to_the_same_ruleset(tmp_path: Path, spec: str) -> None:
    rs = load_ruleset(spec)
    text = yaml_text(rs, resolved=True)
    again = compile_ruleset(text, str(tmp_path / "resolved.yaml"))
    assert signature(again) == signature(rs)


def test_resolved_yaml_marks_what_is_inherited(capsys) -> None:
    code, out, _ = run(capsys, "rules", str(PLATFORM), "--yaml")
    assert code == 0
    hz = builtin_path("hangzhou").read_text(encoding="utf-8").split("\n")
    kong_line = hz.index("  kong_draw:") + 1  # where the built-in writes it
    lines = out.split("\n")
    # inherited from the built-in: marked with its place; changed by the house file: not marked
    assert f"  kong_draw:  # ← rulesets/hangzhou.yaml:{kong_line}" in lines
    assert "  dealer_streak: {default: 3, min: 3, max: 3}" in lines
    assert "  - id: sibai" in lines
    assert not any(line.startswith("extends:") or line.startswith("remove:") for line in lines)


def test_yaml_with_options_sets_the_defaults(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "rules", "hangzhou", "--yaml", "--option", "cap=128")
    assert code == 0
    rs = compile_ruleset(out, str(tmp_path / "x.yaml"))
    assert rs.options["cap"].default == 128 and rs.options["discard_win"].default is False


# ----------------------------------------------------------------------------- --markdown
def test_markdown_page_shows_patterns_options_and_notes(capsys) -> None:
    code, out, _ = run(capsys, "rules", str(PLATFORM), "--markdown")
    assert code == 0
    assert out.startswith("# 杭州麻将（平台版） Hangzhou (online platform) (`hangzhou-platform`)")
    assert "Extends: `hangzhou.yaml`" in out
    assert ("| `qidui` | 七对 | Seven pairs | fan | `2 ** (1 + physical_quads)` | "
            "`seven_pairs` |") in out
    assert "- **番** (fan, `fan`): the values of every pattern that applies are multiplied" in out
    assert "| `cap` | none, 64, 128, 256 | `none` |" in out
    assert "| `--dealer-streak` | 3 | 3..3 |" in out
    assert "- Ruling (mjscore): 暴头 ×2 also applies to seven pairs" in out


def test_markdown_with_an_option(capsys) -> None:
    code, out, _ = run(capsys, "rules", "--rules", "hangzhou", "--markdown", "--option",
                       "discard_win=true")
    assert code == 0
    assert "| `discard_win` | false, true | `true` |" in out


# ----------------------------------------------------------------------------- --option, --rules
def test_unknown_option_points_to_the_list_and_names_the_closest(capsys) -> None:
    # one line of a terminal: the whole list is 'rules show', the closest is named
    code, _, err = run(capsys, "rules", "hangzhou", "--option", "capp=128", "--lang", "en")
    assert code == 2
    assert err == ("mjscore: --option capp: no such option (see mjscore rules show "
                   "hangzhou); did you mean 'cap'?\n")


def test_unknown_option_value_lists_the_valid_ones(capsys) -> None:
    code, _, err = run(capsys, "rules", "hangzhou", "--option", "cap=100", "--lang", "en")
    assert (code, err) == (2, "mjscore: --option cap=100: valid values are none, 64, 128, 256\n")
    code, _, err = run(capsys, "score", "123m456m789p234s55s", "--rules", "hangzhou",
                       "--option", "players=5", "--lang", "en")
    assert (code, err) == (2, "mjscore: --option players=5: valid values are 4, 3, 2\n")
    code, _, err = run(capsys, "score", "123m456m789p234s55s", "--rules", "hangzhou",
                       "--option", "cap", "--lang", "en")
    assert (code, err) == (2, "mjscore: --option cap: write KEY=VALUE (e.g. cap=128)\n")


def test_rules_option_is_the_same_flag_as_the_argument(capsys) -> None:
    a = run(capsys, "rules", str(PLATFORM))
    b = run(capsys, "rules", "--rules", str(PLATFORM))
    assert a == b and a[0] == 0
    code, _, err = run(capsys, "rules", "hangzhou", "--rules", "mcr-nothing", "--lang", "en")
    assert code == 2 and "two rulesets given" in err


def test_option_shown_as_default(capsys) -> None:
    code, out, _ = run(capsys, "rules", "hangzhou", "--option", "cap=128")
    assert code == 0
    [row] = [line for line in out.split("\n") if line.startswith("cap ")]
    assert row.split()[:6] == ["cap", "none,", "64,", "128,", "256", "128"]


# ----------------------------------------------------------------------------- rules new
def test_new_writes_a_starter_that_loads(capsys, tmp_path: Path) -> None:
    target = tmp_path / "our table.yaml"
    code, out, _ = run(capsys, "rules", "new", str(target), "--from", "hangzhou", "--lang", "en")
    assert code == 0 and out.startswith(f"wrote {target}: extends hangzhou.")
    text = target.read_text(encoding="utf-8")
    assert "\nextends: hangzhou\nid: our-table\n" in text
    rs = load_ruleset(str(target))
    base = load_ruleset("hangzhou")
    assert rs.id == "our-table" and signature(rs)["patterns"] == signature(base)["patterns"]
    # the common house changes are there, commented out
    assert "# 封顶 128: 庄闲分 × 番 capped at 128 for each payer (cap 128)\n# options:\n" \
           "#   cap: {default: 128}\n" in text
    # and every pattern, ready to change
    assert "#   - {id: qidui, value: 2 ** (1 + luxury)}    # 七对子 Seven pairs; when: " \
           "seven_pairs\n" in text


def test_new_refuses_to_overwrite(capsys, tmp_path: Path) -> None:
    target = tmp_path / "t.yaml"
    target.write_text("keep me\n", encoding="utf-8")
    code, _, err = run(capsys, "rules", "new", str(target), "--from", "hangzhou", "--lang", "en")
    assert code == 2 and ": exists; use another name" in err
    assert target.read_text(encoding="utf-8") == "keep me\n"
    code, _, _ = run(capsys, "rules", "new", str(target), "--from", "hangzhou", "--force")
    assert code == 0 and load_ruleset(str(target)).id == "t"


def test_new_with_options_and_from_a_file(capsys, tmp_path: Path) -> None:
    sub = tmp_path / "mine"
    sub.mkdir()
    target = sub / "plat128.yaml"
    code, _, _ = run(capsys, "rules", "new", str(target), "--from", str(PLATFORM), "--option",
                     "cap=128")
    assert code == 0
    text = target.read_text(encoding="utf-8")
    # extends: is a path relative to the new file
    rel = re.search(r"^extends: (.*)$", text, re.M)
    assert rel is not None and (sub / rel.group(1)).resolve() == PLATFORM.resolve()
    rs = load_ruleset(str(target))
    assert rs.options["cap"].default == 128 and rs.chain[1:] == ("hangzhou-platform.yaml",
                                                                  "hangzhou.yaml")


def test_new_needs_from_and_one_file(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "rules", "new", str(tmp_path / "a.yaml"))
    assert code == 2 and "--from ID" in err
    code, _, err = run(capsys, "rules", "new", str(tmp_path / "a.txt"), "--from", "hangzhou",
                       "--lang", "en")
    assert code == 2 and "must end in .yaml" in err
    code, _, err = run(capsys, "rules", "new", str(tmp_path / "a.yaml"), "--from", "hangzou",
                       "--lang", "en")
    assert code == 2 and "did you mean 'hangzhou'" in err
    code, _, err = run(capsys, "rules", "new", str(tmp_path / "a.yaml"), "--from", "hangzou")
    assert code == 2 and "是不是 'hangzhou'" in err


@pytest.mark.parametrize("rid", list_builtin())
def test_every_house_example_loads_and_changes_the_ruleset(rid: str, tmp_path: Path) -> None:
    base = load_ruleset(rid)
    for i, ex in enumerate(base.house_examples):
        f = tmp_path / f"ex{i}.yaml"
        f.write_text(f"extends: {rid}\nid: {rid}\n" + ex.yaml, encoding="utf-8")
        rs = load_ruleset(str(f))
        assert signature(rs) != signature(base), f"{ex.title}: changes nothing"


def test_facts_flag(capsys) -> None:
    code, out, _ = run(capsys, "rules", "--facts", "--lang", "en")
    assert code == 0 and "- `physical_quads` (int): " in out and "- `.pung` (bool): " in out
    code, out, _ = run(capsys, "rules", "--facts", "--lang", "zh")
    assert code == 0 and "- `physical_quads`（int）：暗牌中" in out and "- `.pung`（bool）：刻子或杠" in out


def test_facts_with_json_is_refused_as_json(capsys) -> None:
    # the vocabulary is a Markdown page: --json gets the error object, not Markdown
    import json

    code, out, _ = run(capsys, "rules", "list", "--facts", "--json", "--lang", "en")
    error = json.loads(out)["error"]
    assert code == 2 and error["code"] == "usage.facts_json"
    assert error["message"] == "--facts prints Markdown; it cannot be given with --json"


@pytest.mark.parametrize("rid", list_builtin())
def test_new_from_every_builtin_loads_and_scores_like_it(capsys, tmp_path: Path,
                                                         rid: str) -> None:
    target = tmp_path / f"{rid}-house.yaml"
    code, _, err = run(capsys, "rules", "new", str(target), "--from", rid)
    assert code == 0, err
    rs, base = load_ruleset(str(target)), load_ruleset(rid)
    sig, want = signature(rs), signature(base)
    assert (sig.pop("id"), sig.pop("name")) == (f"{rid}-house", (
        f"{base.name}（{rid}-house）", f"{base.name_en} ({rid}-house)"))
    want.pop("id"), want.pop("name")
    assert sig == want
    text = target.read_text(encoding="utf-8")
    for ex in base.house_examples:  # every common change is offered, commented out
        assert f"# {ex.title}\n" in text


# -- the sub-commands, and the spellings of earlier releases as their aliases -------------
@pytest.mark.parametrize(("new", "old"), [
    (["rules", "list"], ["rules"]),
    (["rules", "list", "--lang", "en"], ["rules", "--lang", "en"]),
    (["rules", "show", "hangzhou"], ["rules", "hangzhou"]),
    (["rules", "show", "mcr", "--lang", "en"], ["rules", "--rules", "mcr", "--lang", "en"]),
    (["rules", "show", "jinhua", "--markdown"], ["rules", "jinhua", "--markdown"]),
    (["rules", "show", "hangzhou", "--yaml", "--option", "cap=128"],
     ["rules", "hangzhou", "--yaml", "--option", "cap=128"]),
    (["rules", "list", "--facts"], ["rules", "--facts"]),
])
def test_a_sub_command_prints_what_its_old_spelling_prints(capsys, new: list[str],
                                                           old: list[str]) -> None:
    got = run(capsys, *new)
    assert got[0] == 0 and got[1]
    assert got == run(capsys, *old)


def test_the_group_lists_its_sub_commands(capsys) -> None:
    code, out, _ = run(capsys, "rules", "--help")
    assert code == 0
    for command in ("list", "show", "check", "new", "clear-cache"):
        assert re.search(rf"^\s*│?\s*{command}\s", out, re.M), (command, out)


def test_show_without_a_ruleset_and_list_with_one_are_refused(capsys) -> None:
    code, _, err = run(capsys, "rules", "show", "--lang", "en")
    assert code == 2 and "need a ruleset" in err
    code, _, err = run(capsys, "rules", "list", "hangzhou", "--lang", "en")
    assert code == 2 and "unexpected argument(s): hangzhou" in err


def test_check_and_new_as_sub_commands(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # the temporary folder's path is long: no fold
    target = tmp_path / "mine.yaml"
    code, out, _ = run(capsys, "rules", "new", str(target), "--from", "hangzhou")
    assert code == 0 and target.is_file() and "mjscore rules check" in out
    code, out, _ = run(capsys, "rules", "check", str(target), "--lang", "en")
    assert code == 0 and out.startswith(f"{target}: ok — ")


def test_clear_cache_as_a_sub_command(capsys, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path))
    code, out, _ = run(capsys, "rules", "clear-cache", "--lang", "en")
    assert code == 0 and out.startswith("removed 0 cached rulesets from ")
    code, out, _ = run(capsys, "rules", "clear-cache", "--lang", "zh")
    assert code == 0 and out == f"已从 {tmp_path} 删除 0 个缓存的规则\n"
    code, _, err = run(capsys, "rules", "clear-cache", "mcr", "--lang", "en")
    assert code == 2 and "--clear-cache takes nothing else" in err


# mjscore rules' own errors in both languages, written by hand: (args, code, zh, en)
RULES_ERRORS = [
    (["rules", "list", "hangzhou"], "rules.extra_args", "多余的参数：hangzhou",
     "unexpected argument(s): hangzhou"),
    (["rules", "list", "--facts", "mcr"], "rules.facts_alone",
     "--facts 不接受规则：mjscore rules --facts", "--facts takes no ruleset: mjscore rules --facts"),
    (["rules", "show", "mcr", "x"], "rules.extra_after", "规则后面有多余的参数：x",
     "unexpected argument(s) after the ruleset: x"),
    (["rules", "show", "mcr", "--force"], "rules.new_only",
     "--from 和 --force 是 'mjscore rules new FILE --from ID' 的选项",
     "--from and --force belong to 'mjscore rules new FILE --from ID'"),
    (["rules", "show", "mcr", "--rules", "jinhua"], "rules.two",
     "给了两个规则：mcr 和 --rules jinhua", "two rulesets given: mcr and --rules jinhua"),
    (["rules", "show", "mcr", "--yaml", "--markdown"], "rules.one_format",
     "--yaml、--markdown 和 --json：只能选一个", "--yaml, --markdown and --json: choose one"),
    (["rules", "show"], "rules.needs_id",
     "--yaml、--markdown 和 --option 要给一个规则：mjscore rules ID --markdown",
     "--yaml, --markdown and --option need a ruleset: mjscore rules ID --markdown"),
]


@pytest.mark.parametrize(("args", "code", "zh", "en"), RULES_ERRORS,
                         ids=[c[1] for c in RULES_ERRORS])
def test_rules_errors_are_codes_worded_in_both_languages(args: list[str], code: str, zh: str,
                                                         en: str) -> None:
    from tests.helpers.bilingual import json_error, twins

    z, e = json_error(args, "zh"), json_error(args, "en")
    assert (z["code"], z["message"], e["message"]) == (code, zh, en)
    twins(z, e)


@pytest.mark.parametrize(("args", "zh", "en"), [
    (["rules", "new"], "rules new 要一个文件：mjscore rules new my.yaml --from hangzhou",
     "rules new needs one file: mjscore rules new my.yaml --from hangzhou"),
    (["rules", "new", "a.yaml"], "rules new 要 --from ID（内置规则的 id 或路径）",
     "rules new needs --from ID (a built-in id or a path)"),
    (["rules", "new", "a.txt", "--from", "mcr"], "rules new a.txt：文件名必须以 .yaml 结尾",
     "rules new a.txt: the file name must end in .yaml"),
    (["rules", "check"], "rules check 至少要一个规则文件",
     "rules check needs at least one ruleset file"),
    (["rules", "clear-cache", "mcr"], "--clear-cache 不接受别的参数：mjscore rules --clear-cache",
     "--clear-cache takes nothing else: mjscore rules --clear-cache"),
])
def test_rules_usage_errors_in_both_languages(capsys, args: list[str], zh: str, en: str) -> None:
    from tests.helpers.bilingual import same_things

    said = {lang: run(capsys, *args, "--lang", lang) for lang in ("zh", "en")}
    assert said["zh"] == (2, "", f"mjscore: {zh}\n")
    assert said["en"] == (2, "", f"mjscore: {en}\n")
    same_things(zh, en)


def test_an_inherited_problem_is_said_of_the_file_in_both_languages(capsys,
                                                                    tmp_path: Path) -> None:
    # the file narrows cap's values and leaves hangzhou's default (256) outside them: the
    # problem is hangzhou's line, said at the key of this file that made it one
    from scorer.rules.files import builtin_path

    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: hangzhou\nid: mine\noptions:\n  cap: {values: [64, 128]}\n",
                    encoding="utf-8")
    lines = builtin_path("hangzhou").read_text(encoding="utf-8").splitlines()
    cap = lines.index("  cap:")
    at = next(n for n in range(cap + 1, len(lines)) if "default:" in lines[n]) + 1
    code, out, err = run(capsys, "rules", "check", str(mine), "--lang", "zh")
    assert code == 2 and err == f"{mine}：1 个问题\n"
    assert out == (f"{mine}:4:3 options.cap.default: 必须是这些值之一（64、128）"
                   f"（这个值是 rulesets/hangzhou.yaml:{at} 的）\n")
    code, out, err = run(capsys, "rules", "check", str(mine), "--lang", "en")
    assert code == 2 and err == f"{mine}: 1 problem\n"
    assert out == (f"{mine}:4:3 options.cap.default: must be one of the values (64, 128) "
                   f"(the value is rulesets/hangzhou.yaml:{at}'s)\n")
