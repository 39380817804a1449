"""Simulate, the arena and the CLI at every table shape (docs/rules.md §11.1), and the bots' legal games
at hand-made shapes beside the presets of tests/test_bots_shapes.py: 2/3 seats, 两房/一房 walls,
10-/7-tile hands; duplicate play rotates through the table's own n seatings."""

from __future__ import annotations

import io
import json
from typing import Any, Callable

import pytest

import xueliu
from xueliu.bots import AutoPlayBot, ExpertBot, GreedyBot, RandomBot
from xueliu.bots.lifecycle import play_hand
from xueliu.cli import main
from xueliu.rules import Rules
from xueliu.simulate import simulate

SHAPES = {
    "3 seats 两房": Rules.preset("xuezhan").replace(
        players=3, suits=("p", "s"), declare_void=False, exchange_three=False),
    "2 seats 一房 7 tiles": Rules.preset("xuezhan").replace(
        players=2, suits=("m",), hand_size=7, declare_void=False, exchange_three=False),
    "4 seats 两房 10 tiles": Rules.preset("xuezhan").replace(
        players=4, suits=("p", "s"), hand_size=10, declare_void=False, exchange_three=False),
    "siren_liangfang": Rules.preset("siren_liangfang"),
    "erren_yifang": Rules.preset("erren_yifang"),
    "daodaohu": Rules.preset("daodaohu"),
}
BOTS: dict[str, Callable[[], Any]] = {"random": RandomBot, "autoplay": AutoPlayBot,
                                      "greedy": GreedyBot, "expert": ExpertBot}


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("bot", list(BOTS))
def test_every_bot_plays_twenty_legal_hands_at_every_shape(shape: str, bot: str) -> None:
    rules = SHAPES[shape]
    for seed in range(20):
        state = xueliu.new_game(rules, seed=seed)
        # play_hand's state.step raises ValueError on any illegal action
        play_hand(state, [BOTS[bot]() for _ in range(rules.players)])
        assert state.is_over
        assert sum(state.settlement().net) == 0


def test_simulate_cli_plays_a_two_seat_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "erren_yifang", "--games", "20", "--bots",
                 "random,random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "20 hands (20 walls), preset erren_yifang" in out
    row = next(line for line in out.splitlines() if line.startswith("random "))
    assert row.split()[1] == "40"  # two seats × 20 hands


def test_simulate_cli_plays_the_daodaohu_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "daodaohu", "--games", "12", "--bots",
                 "random,greedy,expert,greedy", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "12 hands (12 walls), preset daodaohu" in out


def test_simulate_names_the_preset_equal_rules_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    summary = simulate(4, bots=("random",) * 4, rules=Rules.preset("daodaohu"))
    assert "preset daodaohu" in summary.format()


def test_simulate_cli_wants_one_bot_per_seat_of_the_preset(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "erren_yifang", "--games", "4", "--bots",
                 "random,random,random,random", "--no-progress"]) != 0
    assert "--bots needs 2 comma-separated bots" in capsys.readouterr().err


def test_a_three_seat_duplicate_simulate_plays_each_wall_in_three_seatings() -> None:
    rules = SHAPES["3 seats 两房"]
    out = io.StringIO()
    summary = simulate(9, bots=("random", "greedy", "expert"), rules=rules, duplicate=True,
                       out=out)
    rows = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["wall"] for r in rows] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [r["seats"] for r in rows[:3]] == [["random", "greedy", "expert"],
                                              ["greedy", "expert", "random"],
                                              ["expert", "random", "greedy"]]
    assert len({r["seed"] for r in rows[:3]}) == 1  # the same wall three times
    assert "duplicate: 3 walls × 3 seatings" in summary.format()
    assert all(b.seat_hands == 9 for b in summary.bots)
    with pytest.raises(ValueError, match="multiple of 3"):
        simulate(4, bots=("random", "greedy", "expert"), rules=rules, duplicate=True)


def test_a_two_seat_arena_plays_each_wall_in_two_seatings() -> None:
    from xueliu.arena import arena

    result = arena(["random", "greedy"], 4, rules="erren_yifang")
    assert result.players == 2
    assert all(line.hands == 8 for line in result.lines)  # 4 walls × 2 seatings


def test_analyze_reads_hand_size_and_suits_from_the_preset(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "1p2p3p4p5p6p7p8p9p1s", "--preset", "siren_liangfang"]) == 0
    assert "10 concealed" in capsys.readouterr().out
    assert main(["analyze", "1m2m3m4p5p6p7p8p9p1s", "--preset", "siren_liangfang"]) != 0
    assert "tile 1m is not in play" in capsys.readouterr().err


def test_simulate_cli_picks_one_default_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "sanren_liangfang", "--games", "3",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()
            if line.startswith(("greedy ", "random "))}
    assert rows == {"greedy": "6", "random": "3"}  # greedy,greedy,random: 3 hands each seat


def test_the_expert_beats_two_random_bots_at_sanren_liangfang() -> None:
    from xueliu.arena import arena, format_table

    result = arena(["expert"], 20, rules="sanren_liangfang", reference="random", seed=17)
    line = result.lines[0]
    assert line.hands == 60  # 20 walls × 3 seatings
    assert line.score.interval is not None and line.score.interval[0] > 0
    table = format_table(result)
    assert "each in one seat against two random; 20 walls × 3 seatings" in table
    assert "total over their 3 seatings" in table
