"""``xueliu analyze`` and :func:`xueliu.analysis.analyze` with wild tiles (docs/rules.md §12): the
hand as held, the wild a wait of its own, the 本金 from ``--benjin``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import xueliu
from xueliu.analysis import analyze, as_json


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True,
                          text=True, timeout=300)


def test_analyze_a_ready_yaoji_hand_lists_the_wild_among_its_waits():
    p = run("analyze", "--preset", "yaoji", "1s1s23456m789p55p4p")
    assert p.returncode == 0, p.stderr
    assert "wilds 1条" in p.stdout and "wild 听用" in p.stdout
    result = analyze("1s1s23456m789p55p4p", rules="yaoji")
    assert [w.tile for w in result["waits"]][-1] == "wild"
    assert [w.tile for w in result["waits"]][:-1] == xueliu.waits("1s1s23456m789p55p4p",
                                                                 rules="yaoji")
    wild = result["waits"][-1]
    assert wild.remaining == 2  # four 幺鸡, two held
    assert wild.discard_win == xueliu.evaluate("1s1s1s23456m789p55p4p", rules="yaoji",
                                               win_tile="1s")


def test_analyze_json_of_a_hongzhong_win():
    p = run("analyze", "--preset", "hongzhong", "123456789m55p46p7z", "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got == as_json(analyze("123456789m55p46p7z", rules="hongzhong"))
    assert got["fan"]["base"] == "pinghu" and got["fan"]["gen"] == 1  # per_wild: one 根 a wild


def test_analyze_takes_the_benjin():
    p = run("analyze", "--preset", "yibin", "--benjin", "9s", "123456789m55p4p8s")
    assert p.returncode == 0, p.stderr
    assert "本金 9条" in p.stdout and "wilds 1条 8条" in p.stdout
    p = run("analyze", "--preset", "yibin", "123456789m55p4p8s")
    assert p.returncode != 0 and "本金" in p.stderr and "Traceback" not in p.stderr


def test_analyze_a_yaoji_hand_one_over_prints_the_discard_table_with_the_wild():
    result = analyze("1s123456m789p55p47p", rules="yaoji")
    assert result["discards"] == xueliu.best_discards("1s123456m789p55p47p", rules="yaoji")
    assert any(w.tile == "wild" for o in result["discards"] for w in o.waits)


def test_the_wild_presets_are_offered_to_analyze_and_every_other_command():
    assert run("analyze", "--preset", "luzhou_gui", "123456789m55p4p7z").returncode == 0
    p = run("simulate", "--preset", "yaoji", "--games", "1", "--no-progress")
    assert p.returncode == 0, p.stderr


def test_a_hand_without_wilds_analyses_as_before_under_a_wild_preset():
    assert analyze("12334577m23345p", rules="yaoji")["shanten"] == 0
    with pytest.raises(ValueError, match="extra_wilds"):
        analyze("1233457m23345p7z", rules="yaoji")
