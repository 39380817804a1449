"""House rules from the command line (issue 47): ``--rules FILE.json`` and ``--knob NAME=VALUE`` on
top of ``--preset`` reach the game of every command that plays or reads hands, records carry
them, and options that name no valid rules are ``Rules.replace``'s own error on one line, exit
code 2, nothing run."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any, Dict, List

import pytest

import xueliu
from xueliu import Rules
from xueliu.cli import main
from xueliu.cli.common import parse_knob


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", timeout=600)


def replace_error(**knobs: Any) -> str:
    """What ``Rules.replace`` says about these knobs."""
    with pytest.raises(ValueError) as e:
        Rules.preset("xueliu").replace(**knobs)
    return str(e.value)


def fans(record: Dict[str, Any]) -> List[int]:
    """The fan of every win of a record's hand."""
    return [e["fan"] for e in xueliu.replay(record).events() if e["type"] == "hora"]


def simulate_lines(tmp_path, *options: str) -> List[Dict[str, Any]]:
    out = tmp_path / "hands.jsonl"
    assert main(["simulate", "--games", "8", "--seed", "3", "--no-progress", "--out", str(out),
                 *options]) == 0
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


# -- the knob's value ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, knob", [
    ("max_fan=6", ("max_fan", 6)),
    ("max_fan=null", ("max_fan", None)),
    ("max_fan=None", ("max_fan", None)),
    ("menqing=true", ("menqing", True)),
    ("menqing=False", ("menqing", False)),
    ('post_win_kongs=["added"]', ("post_win_kongs", ["added"])),
    ('fan_table={"qingyise": 4}', ("fan_table", {"qingyise": 4})),
    ("mode=xuezhan", ("mode", "xuezhan")),          # a bare word is the string
    ('mode="xuezhan"', ("mode", "xuezhan")),
    ("base=auto", ("base", "auto")),
    (" max_fan =6", ("max_fan", 6)),
])
def test_a_knobs_value_is_json_or_else_the_word_as_written(text, knob):
    assert parse_knob(text) == knob


# -- simulate --------------------------------------------------------------------------------------


def test_simulate_max_fan_1_caps_every_win_and_the_lines_carry_the_rules(tmp_path, capsys):
    plain = simulate_lines(tmp_path)
    assert max(f for line in plain for f in fans(line["record"])) > 1  # the cap changes these
    capped = simulate_lines(tmp_path, "--knob", "max_fan=1")
    wins = [f for line in capped for f in fans(line["record"])]
    assert wins and set(wins) == {1}
    expected = Rules.preset("xueliu").replace(max_fan=1)
    for line in capped:
        assert Rules.from_dict(line["record"]["rules"]) == expected
    p = run("replay", str(tmp_path / "hands.jsonl"), "--line", "2")  # replay reads them
    assert p.returncode == 0 and "— hand over" in p.stdout, p.stderr


def test_simulate_at_a_three_seat_table_made_of_knobs(tmp_path):
    lines = simulate_lines(tmp_path, "--knob", "players=3", "--knob", 'suits=["p","s"]',
                           "--knob", "declare_void=false")
    for line in lines:
        assert len(line["seats"]) == 3 and len(line["net"]) == 3
        rules = Rules.from_dict(line["record"]["rules"])
        assert (rules.players, rules.suits, rules.declare_void) == (3, ("p", "s"), False)


def test_preset_then_the_file_then_the_knobs(tmp_path):
    house = tmp_path / "house.json"
    house.write_text(json.dumps({"max_fan": 3, "menqing": True}), "utf-8")
    lines = simulate_lines(tmp_path, "--preset", "xuezhan", "--rules", str(house),
                           "--knob", "max_fan=2")
    assert Rules.from_dict(lines[0]["record"]["rules"]) == \
        Rules.preset("xuezhan").replace(max_fan=2, menqing=True)


def test_a_file_that_rules_to_dict_wrote_is_those_rules(tmp_path):
    rules = Rules.preset("sanren_liangfang").replace(max_fan=2, haidi=True)
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_dict()), "utf-8")
    lines = simulate_lines(tmp_path, "--rules", str(path))
    assert Rules.from_dict(lines[0]["record"]["rules"]) == rules
    assert len(lines[0]["seats"]) == 3


# -- the errors: Rules.replace's words, one line, exit 2, nothing run -------------------------------


BAD_KNOBS = [
    (["--knob", "maxfan=1"], replace_error(maxfan=1)),
    (["--knob", "max_fan=0"], replace_error(max_fan=0)),
    (["--knob", "mode=xuelu"], replace_error(mode="xuelu")),
    (["--knob", "players=3", "--knob", "suits=[\"p\",\"s\"]"],
     replace_error(players=3, suits=["p", "s"])),
]


@pytest.mark.parametrize("options, message", BAD_KNOBS)
@pytest.mark.parametrize("command", [
    ["simulate", "--games", "4"], ["arena", "--games", "1"], ["play", "--seed", "1"],
    ["analyze", "1234567m1234p55s"], ["serve", "--port", "0"]])
def test_bad_rules_are_rules_replaces_error_and_nothing_runs(command, options, message, tmp_path,
                                                             capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # serve would make its database here
    out = tmp_path / "out.json"
    extra = ["--out", str(out)] if command[0] in ("simulate", "play") else []
    assert main([*command, *extra, *options]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"xueliu {command[0]}: error: {message}\n"
    assert captured.out == ""
    assert list(tmp_path.iterdir()) == []  # no --out file, no database


def test_errors_of_the_options_themselves_are_one_line_exit_2(tmp_path):
    not_json = tmp_path / "bad.json"
    not_json.write_text("{max_fan: 1}", "utf-8")
    a_list = tmp_path / "list.json"
    a_list.write_text("[1]", "utf-8")
    bad_knob = tmp_path / "knob.json"
    bad_knob.write_text('{"max_fan": 0}', "utf-8")
    cases = [
        (["--knob", "max_fan"], "--knob needs NAME=VALUE (e.g. max_fan=6), got 'max_fan'"),
        (["--knob", "=1"], "--knob needs NAME=VALUE"),
        (["--rules", str(tmp_path / "missing.json")], "cannot read it"),
        (["--rules", str(not_json)], "not JSON"),
        (["--rules", str(a_list)], "a JSON object of knobs"),
        (["--rules", str(bad_knob)], replace_error(max_fan=0)),
    ]
    for options, needle in cases:
        p = run("simulate", "--games", "4", *options)
        assert p.returncode == 2, (options, p.stderr)
        assert p.stdout == "" and "Traceback" not in p.stderr
        assert len(p.stderr.splitlines()) == 1 and p.stderr.startswith("xueliu simulate: error: ")
        assert needle in p.stderr, p.stderr


# -- arena, play, analyze, review ------------------------------------------------------------------


def test_arena_plays_under_the_knobs(tmp_path, capsys):
    out = tmp_path / "arena.json"
    assert main(["arena", "--bots", "greedy,random", "--games", "3", "--no-progress",
                 "--knob", "max_fan=1", "--knob", "players=2", "--knob", 'suits=["m"]',
                 "--knob", "hand_size=7", "--knob", "declare_void=false",
                 "--knob", "exchange_three=false", "--json", str(out)]) == 0
    data = json.loads(out.read_text("utf-8"))
    assert data["seatings"] == 2
    assert all(b["hands"] == 2 * 3 for b in data["bots"])
    assert any(b["wins"] for b in data["bots"])
    assert all(b["fan_per_win"] <= 1.0 for b in data["bots"])


def play_answers() -> str:
    return "0\n" * 400


def test_play_under_the_knobs_writes_them_in_its_record_and_review_reads_it(tmp_path, capsys,
                                                                         monkeypatch):
    record_path = tmp_path / "hand.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(play_answers()))
    assert main(["play", "--seed", "3", "--knob", "max_fan=1", "--knob", "self_draw_bonus=fan",
                 "--out", str(record_path)]) == 0
    transcript = capsys.readouterr().out
    assert "xueliu play — xueliu + max_fan=1 + self_draw_bonus=fan, seed 3" in transcript
    record = json.loads(record_path.read_text("utf-8"))
    assert Rules.from_dict(record["rules"]) == \
        Rules.preset("xueliu").replace(max_fan=1, self_draw_bonus="fan")
    assert fans(record) and set(fans(record)) == {1}
    assert main(["review", str(record_path), "--seat", "0", "--json"]) == 0  # the record's rules
    assert json.loads(capsys.readouterr().out)["seat"] == 0


def test_analyze_caps_the_fan_with_the_knob(capsys):
    assert main(["analyze", "11112345678999m", "--knob", "max_fan=2"]) == 0
    out = capsys.readouterr().out
    assert "preset xueliu + max_fan=2" in out
    assert "×2 (capped from 4)" in out
    assert main(["analyze", "11112345678999m"]) == 0
    assert "capped" not in capsys.readouterr().out
