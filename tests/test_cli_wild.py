"""The commands at the wild-tile rooms of docs/rules.md §12: `simulate`, `play`, `replay` and
`review` take `--preset yaoji` and its kin and say what is wild."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from xueliu.rules import WILD_PRESET_NAMES


def xueliu(*args: str, stdin: str = "") -> str:
    p = subprocess.run([sys.executable, "-m", "xueliu", *args], input=stdin, capture_output=True,
                       text=True, encoding="utf-8", timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_simulate_plays_every_wild_preset_and_names_it(preset, tmp_path):
    out = tmp_path / "hands.jsonl"
    text = xueliu("simulate", "--preset", preset, "--games", "8", "--no-progress",
                  "--bots", "greedy,autoplay,random,greedy", "--out", str(out))
    assert f"preset {preset}," in text.splitlines()[0]
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 8
    record = json.loads(lines[0])["record"]
    assert record["rules"].get("wild_kinds") or record["rules"].get("extra_wilds")
    shown = xueliu("replay", str(out), "--line", "0")
    if preset == "yibin":
        assert "本金 turned up" in shown
    review = xueliu("review", str(out), "--line", "0", "--seat", "0")
    assert "Result: seat 0 net" in review


def test_play_shows_the_wild_tiles_and_the_benjin():
    text = xueliu("play", "--preset", "yibin", "--seed", "4", stdin="1\n" * 300)
    assert "本金 turned up: 9筒" in text
    assert "wild tiles: 1筒 8筒 (本金 9筒 turned up)" in text


def test_play_writes_red_dragons_and_offers_their_discard():
    text = xueliu("play", "--preset", "hongzhong", "--seed", "4", stdin="1\n" * 300)
    assert "wild tiles: 红中" in text
    assert "红中×2" in text and "打 discard 红中" in text
