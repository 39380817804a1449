"""Speed of the smaller tables (issue 17): random play and greedy self-play in hands a second for
三人两房 (``sanren_liangfang``: 3 seats, 72 tiles of 筒 and 条) and 四人两房 (``siren_liangfang``),
beside the default table (``xueliu``: 4 seats, 108 tiles) in the same run: each test alternates
rounds of the preset and of the default table (the machine is noisy, so only a ratio from one
run compares) and puts both rates and ``ratio_to_default`` (preset / default) in ``extra_info``.

Random play is frozen/calls.py's loop (every pending seat picks uniformly among its legal
actions, the choices read from a fixed-seed list; seeds SEED + h) with the dealer rotating over
the table's own seats; greedy self-play is ``play_hand`` with a GreedyBot in every seat, as
frozen/calls.py's ``self_play`` does for four. Nothing here asserts a time.

    python -m pytest benchmarks/test_bench_shapes.py
"""

from __future__ import annotations

import time
from typing import Callable

import pytest

import xueliu
from frozen import fastest_rounds
from frozen.calls import play_hands
from xueliu import bots

DEFAULT = "xueliu"
SHAPES = ["sanren_liangfang", "siren_liangfang"]
RANDOM_HANDS = 200
GREEDY_HANDS = 50
CHOICES = RANDOM_HANDS * 400


def random_play(preset: str, hands: int) -> int:
    """``hands`` hands of uniformly random legal actions (frozen/calls.py's loop, the dealer
    rotating over the table's own seats); returns the steps taken."""
    return play_hands(preset, hands, CHOICES, xueliu.Rules.preset(preset).shape.players)


def greedy_self_play(preset: str, hands: int) -> int:
    """``hands`` hands of a GreedyBot in every seat through ``play_hand``; returns the wins."""
    rules = xueliu.Rules.preset(preset)
    seats = rules.shape.players
    wins = 0
    for h in range(hands):
        table = [bots.GreedyBot(rules=rules) for _ in range(seats)]
        state = bots.play_hand(xueliu.new_game(rules, seed=1000 + h, dealer=h % seats), table)
        wins += len(state.settlement().wins)
    return wins


LOOPS: dict[str, tuple[Callable[[str, int], int], int]] = {
    "random_play": (random_play, RANDOM_HANDS),
    "greedy_self_play": (greedy_self_play, GREEDY_HANDS),
}


def _seconds(loop: Callable[[str, int], int], preset: str, hands: int) -> float:
    start = time.perf_counter()
    loop(preset, hands)
    return time.perf_counter() - start


@pytest.mark.parametrize("preset", SHAPES)
@pytest.mark.parametrize("loop_name", list(LOOPS))
def test_hands_per_second_beside_the_default_table(benchmark, loop_name, preset):
    loop, hands = LOOPS[loop_name]
    for name in (DEFAULT, preset):
        loop(name, 5)  # warm the caches (tables, exchange options)
    best = fastest_rounds(3, {name: lambda n=name: _seconds(loop, n, hands)
                              for name in (DEFAULT, preset)})
    result = benchmark.pedantic(loop, args=(preset, hands), rounds=1, iterations=1)
    assert result > 0
    rates = {name: hands / seconds for name, seconds in best.items()}
    benchmark.extra_info["hands"] = hands
    benchmark.extra_info["hands_per_second"] = round(rates[preset])
    benchmark.extra_info["hands_per_second_default"] = round(rates[DEFAULT])
    benchmark.extra_info["ratio_to_default"] = round(rates[preset] / rates[DEFAULT], 3)
