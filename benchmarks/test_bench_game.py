"""Random-play speed of the game engine (issue 3): whole hands, all four seats taking a uniformly
random legal action through the public API (``pending`` / ``legal_actions`` / ``step``).

The choices come from a fixed-seed numpy generator drawn once up front, so the timed loop is the
engine plus a list index. ``hands_per_second`` in ``extra_info`` is the number of hands in a
round divided by the fastest round. Target: >= 1,000 a second on one core.

    python -m pytest benchmarks/test_bench_game.py
"""

import numpy as np
import pytest

import xueliu

HANDS = 200
SEED = 20240601


def play_hands(preset: str, uniforms: list, hands: int = HANDS) -> int:
    """Plays ``hands`` hands with uniformly random legal actions; returns the steps taken."""
    i = 0
    steps = 0
    for h in range(hands):
        state = xueliu.new_game(preset, seed=SEED + h, dealer=h % 4)
        while not state.is_over:
            choice = {}
            for seat in state.pending():
                legal = state.legal_actions(seat)
                choice[seat] = legal[int(uniforms[i] * len(legal))]
                i += 1
            state.step(choice)
            steps += 1
    return steps


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_random_play_hands_per_second(benchmark, preset):
    uniforms = np.random.default_rng(SEED).random(HANDS * 400).tolist()
    play_hands(preset, uniforms, 20)  # warm the caches (exchange options, tables)
    steps = benchmark.pedantic(play_hands, args=(preset, uniforms), rounds=5, iterations=1)
    best = benchmark.stats.stats.min
    benchmark.extra_info["hands"] = HANDS
    benchmark.extra_info["steps_per_hand"] = round(steps / HANDS, 1)
    benchmark.extra_info["hands_per_second"] = round(HANDS / best)
    assert steps > HANDS
