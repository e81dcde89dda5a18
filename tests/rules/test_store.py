"""The ruleset store's document entries and folder (scorer.rules.store): what it stores reads back as
the YAML reader's own document, and it is never trusted more than the files themselves —
a directory or entry that is not this user's and private is not used, a changed or
damaged entry is ignored and rewritten, any change to a file of the chain misses, and a
user who cannot write the directory scores as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import scorer
from scorer.rules import store
from scorer.rules.files import builtin_path, list_builtin
from scorer.rules.inherit import read_merged
from scorer.rules.load import compile_ruleset, load_ruleset
from scorer.rules.yamlsafe import YList, YMap


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache home of this test's own; returns the cache directory (not created).

    The built entries (tests/rules/test_store_built.py) are written but never
    read here, so that every load goes through the document entries this file tests.
    """
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path / "xdg" / "mjscore"))
    monkeypatch.delenv("MJSCORE_NO_CACHE", raising=False)
    monkeypatch.setattr(store, "read_built", lambda file, text: None)
    return tmp_path / "xdg" / "mjscore"


def entries(d: Path) -> list[Path]:
    return sorted(d.glob("*.json")) if d.is_dir() else []


def same(a: Any, b: Any) -> bool:
    """Equal values *and* equal positions (marks, value marks, list origins) throughout."""
    if isinstance(a, YMap) or isinstance(b, YMap):
        return (type(a) is type(b) is YMap and a.mark == b.mark and a.marks == b.marks
                and a.vmarks == b.vmarks and list(a) == list(b)
                and all(same(a[k], b[k]) for k in a))
    if isinstance(a, YList) or isinstance(b, YList):
        return (type(a) is type(b) is YList and a.mark == b.mark and a.marks == b.marks
                and getattr(a, "origins", None) == getattr(b, "origins", None)
                and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True)))
    return type(a) is type(b) and a == b


def house(tmp_path: Path) -> tuple[Path, Path]:
    """A two-file chain: child.yaml extends parent.yaml extends hangzhou."""
    parent = tmp_path / "parent.yaml"
    parent.write_text("extends: hangzhou\npatterns:\n  - id: baotou\n    value: 4\n",
                      encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nid: child\n", encoding="utf-8")
    return child, parent


def load_file(p: Path) -> Any:
    return compile_ruleset(p.read_text(encoding="utf-8"), str(p))


@pytest.mark.parametrize("rid", list_builtin())
def test_an_entry_reads_back_as_the_yaml_readers_document(home: Path, rid: str) -> None:
    path = builtin_path(rid)
    text = path.read_text(encoding="utf-8")
    data, chain = read_merged(text, str(path))
    store.write_document(str(path), text, data, chain)
    assert len(entries(home)) == 1
    hit = store.read_document(str(path), text)
    assert hit is not None
    assert same(hit[0], data) and hit[1] == chain


def test_a_house_chain_reads_back_with_its_merge_positions(home: Path, tmp_path: Path) -> None:
    child, _ = house(tmp_path)
    text = child.read_text(encoding="utf-8")
    data, chain = read_merged(text, str(child))
    assert len(chain) == 3
    store.write_document(str(child), text, data, chain)
    hit = store.read_document(str(child), text)
    assert hit is not None and same(hit[0], data) and hit[1] == chain


def test_the_directory_is_made_private_and_entries_private(home: Path) -> None:
    load_file(builtin_path("mcr"))
    assert home.is_dir() and (home.stat().st_mode & 0o777) == 0o700
    [entry] = entries(home)
    assert entry.stat().st_mode & 0o077 == 0 and entry.stat().st_uid == os.getuid()


def hit_after_load(p: Path) -> bool:
    text = p.read_text(encoding="utf-8")
    return store.read_document(str(p), text) is not None


@pytest.mark.parametrize("mode", [0o755, 0o770, 0o701, 0o707])
def test_a_directory_open_to_others_is_neither_read_nor_written(home: Path, mode: int) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    assert hit_after_load(mcr)
    home.chmod(mode)
    assert not hit_after_load(mcr)  # refused before any entry is read
    for e in entries(home):
        e.unlink()
    rs = load_file(mcr)  # still scores
    assert rs.id == "mcr" and entries(home) == []  # and nothing written there


def test_a_directory_of_another_user_is_refused(home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    assert hit_after_load(mcr)
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)  # the directory is now not ours
    assert not hit_after_load(mcr)
    for e in entries(home):
        e.unlink()
    load_file(mcr)
    assert entries(home) == []


def test_a_symlinked_directory_is_refused(home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    home.parent.mkdir(parents=True)
    home.symlink_to(elsewhere)
    load_file(builtin_path("mcr"))
    assert entries(elsewhere) == [] and not hit_after_load(builtin_path("mcr"))


def test_an_entry_others_may_write_is_refused(home: Path) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    [entry] = entries(home)
    entry.chmod(0o622)
    assert not hit_after_load(mcr)
    entry.chmod(0o600)
    assert hit_after_load(mcr)


def test_an_entry_that_is_a_symlink_is_not_followed(home: Path, tmp_path: Path) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    [entry] = entries(home)
    target = tmp_path / "target.json"
    entry.rename(target)
    entry.symlink_to(target)
    assert not hit_after_load(mcr)


def tamper(entry: Path, change: Any) -> None:
    doc = json.loads(entry.read_text(encoding="utf-8"))
    change(doc)
    entry.write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize("how", ["value", "truncated", "garbage", "node", "deep", "empty"])
def test_a_damaged_entry_is_ignored_and_rewritten(home: Path, how: str) -> None:
    hz = builtin_path("hangzhou")
    text = hz.read_text(encoding="utf-8")
    expected, _ = read_merged(text, str(hz))
    load_file(hz)
    [entry] = entries(home)
    if how == "value":  # valid JSON, one value changed: the checksum no longer matches
        tamper(entry, lambda d: d["data"]["k"].__setitem__(0, ["id", None, None, "evil"]))
    elif how == "truncated":
        entry.write_bytes(entry.read_bytes()[:1000])
    elif how == "garbage":
        entry.write_bytes(b"\x80\x81 not json")
    elif how == "node":  # a form the decoder does not know, its checksum made to match
        def node(d: dict[str, Any]) -> None:
            d["data"] = {"__reduce__": "os.system", "args": ["echo hacked"]}
            d["digest"] = store.digest(json.dumps(d["data"]).encode())
        tamper(entry, node)
    elif how == "deep":  # nested beyond the JSON reader's recursion limit
        entry.write_text('{"format": 1, "data": ' + "[" * 100_000 + "]" * 100_000 + "}")
    else:
        entry.write_bytes(b"")
    assert store.read_document(str(hz), text) is None
    rs = load_file(hz)  # scores from the file, and the entry is written again
    assert rs.id == "hangzhou"
    hit = store.read_document(str(hz), text)
    assert hit is not None and same(hit[0], expected)


def test_an_oversized_entry_is_not_read(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    monkeypatch.setattr(store, "MAX_ENTRY_BYTES", 1000)
    assert not hit_after_load(mcr)


def baotou(rs: Any) -> Any:
    """The 番 of README's 暴头 hand (a lone 财神 waiting on any tile) under ``rs``."""
    return scorer.score("123m456p789s234sP9m", rs, scorer.Context(self_draw=True, seat="S")
                        ).best.score


def test_any_change_in_the_chain_misses(home: Path, tmp_path: Path) -> None:
    child, parent = house(tmp_path)
    assert baotou(load_file(child)) == 4
    assert hit_after_load(child)
    # the parent changes, the child does not: the child's entry must not be used
    parent.write_text(parent.read_text(encoding="utf-8").replace("value: 4", "value: 8"),
                      encoding="utf-8")
    assert not hit_after_load(child)
    assert baotou(load_file(child)) == 8
    assert hit_after_load(child)
    # the top file changes
    child.write_text("extends: parent.yaml\nid: child2\n", encoding="utf-8")
    assert not hit_after_load(child)
    assert load_file(child).id == "child2"


def test_another_version_misses(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    assert hit_after_load(mcr)
    monkeypatch.setattr(scorer, "__version__", "99.0")
    assert not hit_after_load(mcr)


def test_a_change_to_the_reading_code_misses(home: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    mcr = builtin_path("mcr")
    load_file(mcr)
    assert hit_after_load(mcr)
    monkeypatch.setattr(store, "_readers_digest", lambda: "another reader")
    assert not hit_after_load(mcr)


def test_no_cache_env_turns_it_off(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJSCORE_NO_CACHE", "1")
    load_file(builtin_path("mcr"))
    assert not home.exists()
    monkeypatch.setenv("MJSCORE_NO_CACHE", "0")
    load_file(builtin_path("mcr"))
    assert len(entries(home)) == 1


def test_a_ruleset_with_problems_is_not_cached(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: hangzhou\npatterns:\n  - id: x\n    when: self_drawn\n",
                   encoding="utf-8")
    with pytest.raises(scorer.RulesetError):
        load_file(bad)
    assert entries(home) == []


def mjscore(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=60)


HAND = ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw", "--piao", "2",
        "--seat", "W", "--json"]


def test_a_user_who_cannot_write_the_cache_scores_the_same(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")  # blocked/mjscore can never be made
    plain = mjscore(*HAND, env={"MJSCORE_NO_CACHE": "1", "MJSCORE_LANG": "en"})
    out = mjscore(*HAND, env={"MJSCORE_CACHE_DIR": str(blocked / "mjscore"),
                              "MJSCORE_LANG": "en"})
    assert plain.returncode == out.returncode == 0
    assert out.stdout == plain.stdout and plain.stderr == ""
    assert out.stderr == (f"mjscore: cannot make the ruleset cache {blocked / 'mjscore'} (Not a "
                          "directory); rulesets are read from their files (MJSCORE_NO_CACHE=1 "
                          "turns the cache off)\n")
    # in Chinese, every word (the system's reason too: reason.not_dir, not its strerror)
    zh = mjscore(*HAND, env={"MJSCORE_CACHE_DIR": str(blocked / "mjscore"),
                             "MJSCORE_LANG": "zh"})
    assert zh.stderr == (f"mjscore: 建不了规则缓存 {blocked / 'mjscore'}（路径中的一段不是文件夹）；"
                         "规则从各自的文件读取（MJSCORE_NO_CACHE=1 关掉缓存）\n")
    assert json.loads(out.stdout)["payments"] == {"E": -16, "S": -8, "W": 32, "N": -8}


def test_a_cached_start_scores_the_same_without_reading_yaml(tmp_path: Path) -> None:
    env = {"MJSCORE_CACHE_DIR": str(tmp_path / "mjscore")}
    first = mjscore(*HAND, env=env)
    second = mjscore(*HAND, env=env)
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout
    probe = ("import sys; from scorer.rules.load import load_ruleset; load_ruleset('hangzhou');"
             " print('yaml' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, **env}, timeout=60)
    assert run.stdout.strip() == "False"


def test_clear_cache(home: Path) -> None:
    for rid in ("mcr", "hangzhou"):
        load_file(builtin_path(rid))
    assert len(entries(home)) == 2
    out = mjscore("rules", "--clear-cache", "--lang", "en", env={"MJSCORE_CACHE_DIR": str(home)})
    assert out.returncode == 0 and out.stdout.startswith("removed 2 cached rulesets")
    assert entries(home) == [] and list(home.glob("*.built")) == [] and home.is_dir()
    bad = mjscore("rules", "mcr", "--clear-cache", "--lang", "en",
                  env={"MJSCORE_CACHE_DIR": str(home)})
    assert bad.returncode == 2 and "--clear-cache takes nothing else" in bad.stderr


def test_old_entries_are_pruned(home: Path, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_ENTRIES", 3)
    f = tmp_path / "mine.yaml"
    for i in range(5):  # five edits of one house file: five keys
        f.write_text(f"extends: hangzhou\nid: mine{i}\n", encoding="utf-8")
        load_file(f)
    assert len(entries(home)) == 3
    assert hit_after_load(f)  # the newest stays


def test_load_ruleset_uses_the_cache(home: Path, tmp_path: Path) -> None:
    child, _ = house(tmp_path)
    load_ruleset(str(child))
    assert hit_after_load(child)
