"""Dispute mode: `mjscore score HAND --rules A --vs B` / `--vs-option KEY=VALUE`.

Expected values are worked by hand from docs/rulings.md (Hangzhou) and from
examples/house/hangzhou-platform.yaml (番 = hand type × 2^c × 2 if four 白板 × 2 if 暴头;
the dealer always at 3 老庄: 庄闲分 8 dealer–idle, 1 idle–idle).
"""

from __future__ import annotations

import json
from pathlib import Path

from scorer.engine.context import Context
from scorer.table.dispute import dispute
from tests.cli.test_app import run
from tests.conftest import ROOT

PLATFORM = str(ROOT / "examples" / "house" / "hangzhou-platform.yaml")
BIG = "1111m2222m3333p55s"  # seven pairs, three 豪华, no 财神


def test_same_ruleset_with_another_option() -> None:
    code, out, err = run("score", BIG, "--rules", "hangzhou", "--self-draw", "--dealer-streak",
                         "3", "--vs-option", "cap=64", "--json")
    assert code == 0, err
    data = json.loads(out)
    # why: 清七对 2^(2+3) = 32 番 on both sides; dealer wins at 3 老庄: each idle player pays
    # 8 × 32 = 256; with 封顶 64 each pays 64
    assert data["a"]["payments"] == {"E": 768, "S": -256, "W": -256, "N": -256}
    assert data["b"]["payments"] == {"E": 192, "S": -64, "W": -64, "N": -64}
    assert data["a"]["best"]["score"] == data["b"]["best"]["score"] == 32
    assert data["b"]["options"] == {"cap": "64"} and data["a"]["options"] == {}
    assert data["differences"] == ["payment", "payments"]


def test_human_output_shows_same_rows_once_and_both_sides_where_they_differ() -> None:
    code, out, _ = run("score", BIG, "--rules", "hangzhou", "--self-draw", "--dealer-streak",
                       "3", "--vs-option", "cap=64", "--lang", "en")
    assert code == 0
    lines = out.split("\n")
    assert lines[0] == "A = hangzhou (杭州麻将 Hangzhou)"
    assert lines[1] == "B = hangzhou (杭州麻将 Hangzhou) with cap=64"
    assert "patterns        same: Seven pairs without wildcards 32" in lines
    assert any(line.startswith("payment       ≠ A: base 1 × dealer factor 8 × fan 32 = 256 "
                               "from each of S, W, N")
               for line in lines)
    # seat, A, B, B − A: the dealer receives 768 under A and 192 under B
    assert [line.split() for line in lines if line.startswith("E (dealer)")] == [
        ["E", "(dealer)", "+768", "+192", "-576"]]


def test_vs_a_house_file_carries_the_options_it_has() -> None:
    code, out, _ = run("score", BIG, "--rules", "hangzhou", "--self-draw", "--dealer-streak",
                       "3", "--option", "cap=64", "--vs", PLATFORM, "--json")
    # --dealer-streak 3 is the platform's only value; cap=64 exists on both sides
    assert code == 0
    data = json.loads(out)
    assert data["b"]["options"] == {"cap": "64"}
    # why: A 清七对 32; B 七对 2^(1+3) = 16 (three physical quads); 8 × 32 = 256 and 8 × 16 =
    # 128 are both capped at 64: the same payments for different reasons
    assert [data[s]["best"]["score"] for s in "ab"] == [32, 16]
    assert data["a"]["payments"] == data["b"]["payments"] == {"E": 192, "S": -64, "W": -64,
                                                              "N": -64}
    assert data["differences"] == ["patterns", "chain", "score", "payment"]


def test_one_side_not_a_win() -> None:
    # The platform's dealer is always at 3 老庄, so 庄闲放铳 works there at any time.
    d = dispute("123m456m789p234s55s", "hangzhou",
                Context(discarder="S", options=(("discard_win", "true"),)), PLATFORM,
                Context(discarder="S", options=(("discard_win", "true"),)))
    assert d.a.result is None and d.a.error is not None
    assert d.a.error.message == "放铳 is allowed only at 3 老庄 (--dealer-streak 3)"
    assert d.b.result is not None
    # why: 平胡 1 番 on S's discard; only the discarder pays: 庄闲分 8 × 1 = 8
    assert d.b.result.payments == {"E": 8, "S": -8, "W": 0, "N": 0}
    assert d.differences[0] == "result"
    code, out, _ = run("score", "123m456m789p234s55s", "--rules", "hangzhou", "--from", "S",
                       "--option", "discard_win=true", "--vs", PLATFORM)
    assert code == 0
    assert "结果 ≠ A: 算不出：只有 3 老庄时才许放铳（--dealer-streak 3）" in out
    code, out, _ = run("score", "123m456m789p234s55s", "--rules", "hangzhou", "--from", "S",
                       "--option", "discard_win=true", "--vs", PLATFORM, "--lang", "en")
    # folded to the page's 80 columns, the continuation under the text
    assert ("result        ≠ A: not scored: 放铳 is allowed only at 3 老庄 (--dealer-streak\n"
            "                     3)\n") in out


def test_both_sides_fail() -> None:
    same = run("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--from", "S",
               "--vs", PLATFORM)
    assert same[0] == 3 and same[2].startswith("mjscore: 不许放铳：自摸加 --self-draw")
    code, out, err = run("score", "123m456m789p234s55s", "--rules", "hangzhou", "--from", "S",
                         "--dealer-streak", "1", "--vs", PLATFORM, "--lang", "en")
    assert (code, out) == (2, "")
    assert err == ("mjscore: A (hangzhou): no discard wins: --self-draw, or --option "
                   f"discard_win=true; B ({PLATFORM}): --dealer-streak 1: hangzhou-platform "
                   "allows only 3\n")


def test_flags_one_side_has_no_use_for_are_left_out_there(tmp_path: Path) -> None:
    house = tmp_path / "haidi.yaml"
    house.write_text("extends: hangzhou\ncontext:\n  last_tile:\npatterns:\n  - id: haidi\n"
                     "    when: last_tile and self_draw\n    value: 4\n", encoding="utf-8")
    code, out, _ = run("score", "123m456m789p234s55s", "--rules", str(house), "--self-draw",
                       "--last-tile", "--vs", "hangzhou", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["b"]["ignored_flags"] == ["--last-tile"] and data["a"]["ignored_flags"] == []
    # why: 海底 4 against 自摸 1; dealer wins: each pays 2 × 4 = 8 against 2 × 1 = 2
    assert (data["a"]["payments"]["E"], data["b"]["payments"]["E"]) == (24, 6)


def test_bad_hand_and_bad_combinations() -> None:
    code, out, err = run("score", "123m456m789p234s55", "--rules", "hangzhou", "--vs", PLATFORM)
    assert code == 2 and out == "" and err.startswith("mjscore: 第 18 个字符：")
    code, _, err = run("score", BIG, "--rules", "hangzhou", "--vs", PLATFORM, "--explain")
    assert code == 2 and "--explain 不能和 --vs" in err
    code, _, err = run("score", BIG, "--rules", "hangzhou", "--vs-option", "cap=63",
                         "--lang", "en")
    # the mistake is in --vs-option, and the message says so
    assert code == 2 and err == "mjscore: --vs-option cap=63: valid values are none, 64, 128, 256\n"
    code, _, err = run("score", BIG, "--rules", "hangzhou", "--vs", "nowhere.yaml")
    assert code == 2 and "找不到规则文件：nowhere.yaml" in err


def test_a_batch_line_with_dispute_flags_is_a_dispute_record(tmp_path: Path) -> None:
    # batch takes --vs / --vs-option on a line (issue: a file of disputed hands): the record
    # is what `score --vs --json` prints for that line, of kind "dispute"
    f = tmp_path / "hands.txt"
    f.write_text(f"{BIG} --vs-option cap=64\n", encoding="utf-8")
    code, out, _ = run("batch", str(f), "--rules", "hangzhou")
    assert code == 0
    rec = json.loads(out)
    _, alone, _ = run("score", *BIG.split(), "--rules", "hangzhou", "--vs-option", "cap=64",
                      "--json")
    assert rec["kind"] == "dispute" and rec["line"] == 1
    assert {k: rec[k] for k in ("a", "b", "differences")} == json.loads(alone)


def test_a_side_below_a_minimum_still_shows_what_it_found() -> None:
    house = str(ROOT / "examples" / "house" / "mcr-no-minimum.yaml")
    hand = "[123m,1][789p,1]345sNNN5p5p"
    code, out, _ = run("score", hand, "--from", "N", "--seat", "S", "--rules", house,
                       "--vs", "mcr", "--json")
    assert code == 0
    data = json.loads(out)
    # why (fans: PyMahjongGB): 幺九刻 1 + 单钓将 1 = 2 fan; without a minimum N pays 8 + 2,
    # E and W 8 each; standard MCR refuses it below 8 fan
    assert data["a"]["payments"] == {"E": -8, "S": 26, "W": -8, "N": -10}
    assert data["b"]["error"]["reason"] == "below_minimum"
    assert [p["id"] for p in data["b"]["best"]["patterns"]] == [
        "pung_of_terminals_or_honors", "single_wait"]
    assert data["differences"] == ["result", "payment", "payments"]
    code, out, _ = run("score", hand, "--from", "N", "--seat", "S", "--rules", house,
                       "--vs", "mcr", "--lang", "en")
    assert "                B: not a legal win: below 8 fan: 2 without flowers" \
        in out.split("\n")
    code, out, _ = run("score", hand, "--from", "N", "--seat", "S", "--rules", house,
                       "--vs", "mcr")
    assert "       B: 不能胡：不够 8 番起和：不算花牌只有 2 番" in out.split("\n")
    assert "番种   相同：幺九刻 1, 单钓将 1" in out.split("\n")


def test_patterns_are_compared_by_id_not_by_name(tmp_path: Path) -> None:
    # the same 暴头 under a house file that only spells it 爆头: the hands score alike
    # (暴头 2 番, the dealer self-draws: 庄闲分 2 × 2 = 4 from each of three), so no row differs
    house = tmp_path / "spelling.yaml"
    house.write_text("extends: hangzhou\nid: spelling\npatterns:\n"
                     "  - {id: baotou, name: 爆头}\n", encoding="utf-8")
    d = dispute("123m456p789s234sP9m", "hangzhou", Context(self_draw=True), str(house),
                Context(self_draw=True))
    assert d.differences == []
    assert [h.pattern.name for h in d.b.result.best.hits] == ["爆头"]  # type: ignore[union-attr]
    assert d.a.result is not None and d.a.result.payments == {"E": 12, "S": -4, "W": -4,
                                                              "N": -4}


def test_human_output_in_chinese() -> None:
    code, out, _ = run("score", BIG, "--rules", "hangzhou", "--self-draw", "--dealer-streak",
                       "3", "--vs-option", "cap=64")
    assert code == 0
    lines = out.split("\n")
    assert lines[1] == "B = hangzhou (杭州麻将)，选项 cap=64"  # the Chinese name alone
    assert "番种   相同：清七对 32" in lines
    assert "付分 ≠ A: 底分 1 × 庄闲分 8 × 番 32 = 256，S, W, N 各付" in lines
    assert "       B: 底分 1 × min(庄闲分 8 × 番 32, 封顶 64) = 64，S, W, N 各付" in lines
    assert [line.split() for line in lines if line.startswith("E（庄）")] == [
        ["E（庄）", "+768", "+192", "-576"]]
