"""The ``xueliu`` command (issue 4), run as a subprocess the way a person runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import xueliu
import xueliu.cli


def run(*args: str, stdin: str = "", timeout: float = 300, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], input=stdin, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout)


def assert_clean_error(p: subprocess.CompletedProcess, *needles: str) -> None:
    """A non-zero exit with one line on stderr naming the problem, and no traceback."""
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "error" in lines[0]
    for n in needles:
        assert n in lines[0], lines[0]


# -- analyze ---------------------------------------------------------------------------------------


def test_analyze_a_ready_hand_lists_its_waits_with_their_fan():
    p = run("analyze", "12334577m23345p")
    assert p.returncode == 0, p.stderr
    assert "Hand    12334577万 23345筒" in p.stdout
    assert "Shanten 0 — ready (听牌) on 2 kinds, 7 tiles left" in p.stdout
    rows = {line.split()[0]: line for line in p.stdout.splitlines() if line.startswith("  ")}
    assert rows["1筒"].split()[1] == "4" and "平胡" in rows["1筒"]
    assert rows["4筒"].split()[1] == "3"  # one 4p is in the hand


def test_analyze_counts_visible_tiles_out_of_the_remaining():
    p = run("analyze", "12334577m23345p", "--visible", "1p1p4p")
    assert p.returncode == 0, p.stderr
    assert "4 tiles left" in p.stdout
    assert "Seen    114筒" in p.stdout


def test_analyze_a_hand_one_tile_over_prints_the_discard_table():
    p = run("analyze", "12345678m22p4566p")
    assert p.returncode == 0, p.stderr
    assert "查听 — 1 discard leaves the hand ready" in p.stdout
    lines = p.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("6筒"))
    assert lines[first].split()[:5] == ["6筒", "0", "10", "3万", "3"]
    assert lines[first + 1].split()[:2] == ["6万", "3"]
    assert lines[first + 2].split()[:2] == ["9万", "4"]
    assert "进张" in p.stdout  # the discards that are not ready show their improving tiles


def test_analyze_a_complete_hand_breaks_its_fan_down_with_chinese_names():
    p = run("analyze", "11112345678999m")
    assert p.returncode == 0, p.stderr
    assert "Complete hand (胡牌)" in p.stdout
    assert "清一色 3 + 根 ×1 = 4 番 ×8" in p.stdout
    assert "qingyise" in p.stdout and "gen ×1" in p.stdout


def test_analyze_with_melds_and_the_xuezhan_preset():
    p = run("analyze", "55p(2222m)(5555m)(8888m)(2222p)", "--preset", "xuezhan")
    assert p.returncode == 0, p.stderr
    assert "将对 4 + 根 ×4 = 8 番 ×128" in p.stdout


def test_analyze_respects_the_void():
    p = run("analyze", "12334577m23345p", "--void", "s")
    assert p.returncode == 0 and "Shanten 0" in p.stdout
    p = run("analyze", "12334577m23345p", "--void", "筒")
    assert p.returncode == 0 and "Shanten 0" not in p.stdout


def test_analyze_lists_only_void_suit_discards_while_void_tiles_are_held():
    # docs/rules.md §4: with 6s and 9s in the hand and 条 declared void, only they may be discarded.
    p = run("analyze", "23588m3346678p69s", "--void", "s")
    assert p.returncode == 0, p.stderr
    rows = [line.split() for line in p.stdout.splitlines()
            if line.startswith("  ") and "进张" in line]
    assert [r[0] for r in rows] == ["6条", "9条"]


def test_analyze_table_shows_the_cores_jinzhang_in_its_order():
    options = xueliu.best_discards("1357m2468p1359s99s")
    p = run("analyze", "1357m2468p1359s99s")
    assert p.returncode == 0, p.stderr
    rows = [line.split() for line in p.stdout.splitlines() if "进张" in line and line.startswith("  ")]
    assert [(r[0], int(r[1]), int(r[2]), int(r[4])) for r in rows] == [
        (xueliu.cli.tile_text(o.discard), o.shanten, o.jinzhang_total, len(o.jinzhang))
        for o in options]


def test_analyze_a_hand_one_from_ready_lists_its_jinzhang():
    p = run("analyze", "1357m2468p1359s9s")
    assert p.returncode == 0, p.stderr
    jz = xueliu.jinzhang("1357m2468p1359s9s")
    line = next(line for line in p.stdout.splitlines() if line.startswith("进张"))
    assert line.startswith(f"进张    {len(jz)} kinds, {sum(n for _, n in jz)} tiles left: ")
    assert line.split(": ")[1].split() == [f"{xueliu.cli.tile_text(t)}×{n}" for t, n in jz]


def _json(*args: str) -> dict:
    p = run("analyze", *args, "--json")
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.strip().splitlines()) == 1  # one JSON object on one line
    return json.loads(p.stdout)


def _as_json(value):
    """A Python result the way docs/analyze-json.md says --json writes it."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {name: _as_json(getattr(value, name)) for name in value._fields}
    if isinstance(value, (tuple, list)):
        return [_as_json(v) for v in value]
    return value


def test_analyze_json_of_a_ready_hand_is_shanten_waits_and_jinzhang():
    data = _json("12334577m23345p", "--visible", "1p")
    assert set(data) == {"shanten", "waits", "jinzhang", "jinzhang_total"}
    assert data["shanten"] == 0
    assert [w["tile"] for w in data["waits"]] == xueliu.waits("12334577m23345p")
    one_p = data["waits"][0]
    assert set(one_p) == set(xueliu.WaitOption._fields)
    assert one_p["remaining"] == 3  # four 1p, one in sight
    assert one_p["discard_win"] == _as_json(xueliu.evaluate("12334577m123345p", win_tile="1p"))
    assert one_p["self_draw"] == _as_json(xueliu.evaluate("12334577m123345p", win_tile="1p",
                                                          self_draw=True))
    assert data["jinzhang"] == [["1p", 3], ["4p", 3]] and data["jinzhang_total"] == 6


def test_analyze_json_of_a_hand_one_tile_over_is_every_discard_option():
    data = _json("12345678m22p4566p", "--visible", "3m3m9m", "--preset", "xuezhan")
    options = xueliu.best_discards("12345678m22p4566p", visible="339m", rules="xuezhan")
    assert set(data) == {"shanten", "discards"}
    assert data["discards"] == _as_json(options)
    assert set(data["discards"][0]) == set(xueliu.DiscardOption._fields)
    assert "jinzhang" in data["discards"][-1] and data["discards"][-1]["jinzhang_total"] >= 0


def test_analyze_json_of_a_complete_hand_is_its_fan():
    data = _json("11112345678999m", "--preset", "xuezhan")
    assert data == {"shanten": -1,
                    "fan": _as_json(xueliu.evaluate("11112345678999m", rules="xuezhan")),
                    "self_draw": _as_json(xueliu.evaluate("11112345678999m", self_draw=True,
                                                          rules="xuezhan"))}
    assert data["fan"]["base"] == "jiulianbaodeng" and data["fan"]["base_name"] == "九莲宝灯"


def test_analyze_json_errors_stay_one_line_on_stderr():
    p = run("analyze", "11111m", "--json")
    assert_clean_error(p, "fifth copy")
    assert p.stdout == ""


def test_version_prints_the_package_version():
    p = run("--version")
    assert p.returncode == 0
    assert p.stdout.strip() == f"xueliu {xueliu.__version__}"


@pytest.mark.parametrize("args, needle", [
    (["analyze", "12345"], "no suit"),
    (["analyze", "1234567m22p456p"], "12 concealed tiles"),
    (["analyze", "11111m"], "fifth copy"),
    (["analyze", "12334577m23345p", "--void", "x"], "--void"),
    (["analyze", "12334577m23345p", "--visible", "4p4p4p4p"], "--visible: 5 copies of 4p"),
])
def test_analyze_bad_input_is_one_clear_line(args, needle):
    assert_clean_error(run(*args), needle)


# -- simulate --------------------------------------------------------------------------------------


def test_simulate_prints_the_summary_and_writes_one_json_line_per_hand(tmp_path):
    out = tmp_path / "hands.jsonl"
    p = run("simulate", "--games", "8", "--duplicate", "--bots", "greedy,random,random,random",
            "--seed", "3", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "xueliu simulate: 8 hands (duplicate: 2 walls × 4 seatings), preset xueliu, seed 3" in p.stdout
    header = next(line for line in p.stdout.splitlines() if line.startswith("bot"))
    for col in ("mean/hand", "95% interval", "win rate", "fan/win", "花猪", "查大叫"):
        assert col in header
    rows = {line.split()[0]: line.split() for line in p.stdout.splitlines()
            if line.split() and line.split()[0] in ("greedy", "random")}
    assert rows["greedy"][1] == "8" and rows["random"][1] == "24"
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 8
    for i, line in enumerate(lines):
        assert line["seats"] == [["greedy", "random", "random", "random"][(s + i) % 4]
                                 for s in range(4)]
        assert len(line["net"]) == 4
        assert xueliu.replay(line["record"]).settlement().net == line["net"]
    # A duplicate wall is the same wall four times.
    assert len({line["seed"] for line in lines[:4]}) == 1
    greedy_total = sum(line["net"][line["seats"].index("greedy")] for line in lines)
    assert f"{greedy_total / 8:+.2f}" == rows["greedy"][2]


def test_simulate_gives_the_same_results_for_any_number_of_workers(tmp_path):
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        p = run("simulate", "--games", "24", "--bots", "greedy,random,autoplay,random",
                "--preset", "xuezhan", "--seed", "9", "--workers", workers, "--out", str(out))
        assert p.returncode == 0, p.stderr
        outs.append((p.stdout, out.read_text(encoding="utf-8")))
    assert outs[0] == outs[1]
    assert "preset xuezhan" in outs[0][0]


def test_simulate_pits_a_bot_of_your_own_against_the_built_in_ones(tmp_path):
    (tmp_path / "mybot.py").write_text(
        "class FirstChoiceBot:\n"
        "    def act(self, observation, legal_actions):\n"
        "        return legal_actions[0]\n", encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    p = run("simulate", "--games", "4", "--duplicate", "--workers", "2",
            "--bots", "mybot:FirstChoiceBot,greedy,random,random", env=env)
    assert p.returncode == 0, p.stderr
    row = next(line.split() for line in p.stdout.splitlines()
               if line.startswith("mybot:FirstChoiceBot"))
    assert row[1] == "4"


def test_simulate_reports_its_speed_on_stderr():
    p = run("simulate", "--games", "4", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "4 hands in" in p.stderr and "hands/s" in p.stderr


@pytest.mark.parametrize("args, needle", [
    (["--games", "0"], "--games"),
    (["--games", "6", "--duplicate"], "multiple of 4"),
    (["--games", "4", "--bots", "greedy,random"], "needs 4 comma-separated"),
    (["--games", "4", "--bots", "greedy,random,random,smart"], "unknown bot 'smart'"),
    (["--games", "4", "--workers", "0"], "--workers"),
    (["--games", "4", "--out", "/nonexistent-dir/x.jsonl"], "cannot write"),
    (["--games", "many"], "invalid int"),
    (["--games", "4", "--preset", "riichi"], "invalid choice"),
])
def test_simulate_bad_arguments_are_one_clear_line(args, needle):
    assert_clean_error(run("simulate", *args), needle)


# -- play ------------------------------------------------------------------------------------------


def test_play_a_whole_hand_from_stdin_ends_with_the_settlement_report():
    p = run("play", "--seed", "5", stdin="0\n" * 400)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "you are seat 0" in out
    assert "your hand: " in out and "换三张 give" in out and "定缺 void" in out
    assert "打 discard" in out
    assert "— hand over" in out
    assert "详细结算 Detailed settlement" in out and "个人结算 Personal settlement" in out


def test_play_accepts_a_tile_name_and_rejects_nonsense():
    p = run("play", "--seed", "5", "--preset", "xuezhan", stdin="x\n" + "0\n" * 400)
    assert p.returncode == 0, p.stderr
    assert "not a choice: 'x'" in p.stdout
    assert "详细结算" in p.stdout


def test_play_writes_a_record_that_replay_and_review_read(tmp_path):
    out = tmp_path / "hand.json"
    p = run("play", "--seed", "5", "--out", str(out), stdin="0\n" * 400)
    assert p.returncode == 0, p.stderr
    record = json.loads(out.read_text("utf-8"))
    assert xueliu.replay(record).record() == record  # the hand exactly as it was played
    p = run("replay", str(out))
    assert p.returncode == 0 and "— hand over" in p.stdout, p.stderr
    p = run("review", str(out), "--seat", "0", "--json")
    assert p.returncode == 0, p.stderr
    assert 0.0 <= json.loads(p.stdout)["agreement"] <= 1.0


def test_play_stops_cleanly_when_input_ends():
    assert_clean_error(run("play", "--seed", "5", stdin="0\n0\n"), "input ended")


# -- replay ----------------------------------------------------------------------------------------


def test_replay_a_simulate_line_prints_events_and_settlement(tmp_path):
    out = tmp_path / "h.jsonl"
    assert run("simulate", "--games", "3", "--seed", "1", "--out", str(out)).returncode == 0
    p = run("replay", str(out), "--line", "1")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("— new hand: xueliu")
    assert "定缺 voids:" in p.stdout and "— hand over" in p.stdout
    assert "详细结算" in p.stdout
    line = json.loads(out.read_text(encoding="utf-8").splitlines()[1])
    assert line["hand"] == 1  # --line counts from 0, as the "hand" field does
    assert f"net {line['net'][0]:+d}" in p.stdout

    rec = tmp_path / "record.json"
    rec.write_text(json.dumps(line["record"]), encoding="utf-8")
    q = run("replay", str(rec), "--seat", "2")
    assert q.returncode == 0, q.stderr
    assert "you gave" in q.stdout


def test_replay_line_n_is_hand_n_of_a_simulate_file(tmp_path):
    """One convention: --line N, the "hand" field and a bot error's "hand N" all count from 0,
    so the hand an error message names is the line to replay; the default is line 0."""
    out = tmp_path / "h.jsonl"
    assert run("simulate", "--games", "3", "--seed", "4", "--out", str(out)).returncode == 0
    rows = [json.loads(text) for text in out.read_text(encoding="utf-8").splitlines()]
    assert [row["hand"] for row in rows] == [0, 1, 2]
    for n, row in enumerate(rows):
        p = run("replay", str(out), "--line", str(n))
        assert p.returncode == 0, p.stderr
        assert f"net {row['net'][0]:+d}" in p.stdout
        assert p.stdout == run("replay", str(out), "--line", str(row["hand"])).stdout
    assert run("replay", str(out)).stdout == run("replay", str(out), "--line", "0").stdout
    assert_clean_error(run("replay", str(out), "--line", "3"), "3 lines", "0..2", "out of range")
    assert_clean_error(run("replay", str(out), "--line", "-1"), "negative")


def test_replay_a_record_that_does_not_fit_is_a_clear_error(tmp_path):
    out = tmp_path / "h.jsonl"
    assert run("simulate", "--games", "1", "--seed", "2", "--out", str(out)).returncode == 0
    record = json.loads(out.read_text(encoding="utf-8"))["record"]
    record["decisions"][5][1] = 3790  # an exchange id in the middle of play
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert_clean_error(run("replay", str(bad)), "does not replay")
    assert_clean_error(run("replay", str(tmp_path / "missing.json")), "cannot read")
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    assert_clean_error(run("replay", str(tmp_path / "junk.json")), "not JSON")


# -- the entry point ---------------------------------------------------------------------------------


def test_main_is_the_console_entry_point(capsys):
    from importlib.metadata import entry_points

    from xueliu.cli import main

    found = entry_points()
    # Select the group by hand: entry_points(group=...) is 3.10+, and this form works everywhere.
    group = (found.select(group="console_scripts") if hasattr(found, "select")
             else found.get("console_scripts", []))
    scripts = {ep.name: ep.value for ep in group}
    assert scripts.get("xueliu") == "xueliu.cli:main"
    assert main(["analyze", "11112345678999m"]) == 0
    assert "清一色" in capsys.readouterr().out


def test_no_command_is_a_usage_error():
    p = run()
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "required" in p.stderr


# -- every preset: analyze and play read the table's shape (docs/rules.md §11) ----------------------------


def test_analyze_takes_the_hand_size_and_suits_of_the_preset():
    p = run("analyze", "1234567p1355s", "--preset", "siren_liangfang")  # 10 + 1 tiles: 查听
    assert p.returncode == 0, p.stderr
    assert "preset siren_liangfang" in p.stdout and "2条" in p.stdout
    assert_clean_error(run("analyze", "1234567m1355s", "--preset", "siren_liangfang"),
                       "1m is not in play")
    assert_clean_error(run("analyze", "123456789p1355s", "--preset", "siren_liangfang"),
                       "10 - 3k")


def test_play_a_two_seat_erren_yifang_hand_against_one_bot():
    p = run("play", "--seed", "3", "--preset", "erren_yifang", stdin="0\n" * 400)
    assert p.returncode == 0, p.stderr
    assert "you are seat 0" in p.stdout and "— hand over" in p.stdout
    assert "Seat 2" not in p.stdout and "定缺 void" not in p.stdout
    assert_clean_error(run("play", "--seed", "3", "--preset", "erren_yifang", "--seat", "2"),
                       "--seat must be 0..1")


def test_replay_takes_only_a_seat_of_the_records_table(tmp_path):
    out = tmp_path / "three.jsonl"
    assert run("simulate", "--games", "1", "--seed", "2", "--preset", "sanren_liangfang",
               "--out", str(out)).returncode == 0
    p = run("replay", str(out), "--seat", "2")
    assert p.returncode == 0, p.stderr
    assert_clean_error(run("replay", str(out), "--seat", "3"),
                       "--seat must be 0..2: the record's table has 3 seats")
