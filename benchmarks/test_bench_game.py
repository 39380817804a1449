"""Random-play speed of the game engine (issues 3 and 7): whole hands, all four seats taking a
uniformly random legal action through the public API (``pending`` / ``legal_actions`` / ``step``),
next to the same loop on the engine as it stood at commit e2892b9 (``benchmarks/frozen/``), in the
same run: the machine is shared and noisy, so the ratio is the figure that compares.

The choices come from a fixed-seed numpy generator drawn once up front, so the timed loop is the
engine plus a list index. ``hands_per_second`` in ``extra_info`` is the number of hands in a
round divided by the fastest round; ``ratio_to_e2892b9`` the current engine's rate over the frozen
one's. Targets: >= 1,000 hands a second on one core (issue 3), >= 2x the frozen loop (issue 7).

    python -m pytest benchmarks/test_bench_game.py
    cd benchmarks && python test_bench_game.py    # the same ratio in process time (load-proof)
"""

import time

import numpy as np
import pytest

import xueliu
from frozen import fastest_rounds
from frozen.xueliu_e2892b9.game import new_game as frozen_new_game

HANDS = 200
SEED = 20240601
ENGINES = {"current": xueliu.new_game, "e2892b9": frozen_new_game}


def play_hands(new_game, preset: str, uniforms: list, hands: int = HANDS) -> int:
    """Plays ``hands`` hands with uniformly random legal actions; returns the steps taken."""
    i = 0
    steps = 0
    for h in range(hands):
        state = new_game(preset, seed=SEED + h, dealer=h % 4)
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
    """The current engine under pytest-benchmark; before it, both engines in alternating rounds
    for the ratio (``ratio_to_e2892b9``: how many times faster the current engine is)."""
    uniforms = np.random.default_rng(SEED).random(HANDS * 400).tolist()
    for new_game in ENGINES.values():
        play_hands(new_game, preset, uniforms, 20)  # warm the caches (exchange options, tables)
    best = fastest_rounds(5, {name: lambda new_game=new_game: play_hands(new_game, preset, uniforms)
                              for name, new_game in ENGINES.items()})
    steps = benchmark.pedantic(play_hands, args=(xueliu.new_game, preset, uniforms), rounds=5,
                               iterations=1)
    assert steps > HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["hands"] = HANDS
        benchmark.extra_info["steps_per_hand"] = round(steps / HANDS, 1)
        benchmark.extra_info["hands_per_second"] = round(HANDS / stats.stats.min)
        benchmark.extra_info["hands_per_second_e2892b9"] = round(HANDS / best["e2892b9"])
        benchmark.extra_info["ratio_to_e2892b9"] = round(best["e2892b9"] / best["current"], 2)


def test_both_engines_play_the_same_game():
    """The frozen copy is the same rules engine: the benchmark compares like with like."""
    uniforms = np.random.default_rng(SEED).random(5 * 400).tolist()
    assert play_hands(xueliu.new_game, "xueliu", uniforms, 5) \
        == play_hands(frozen_new_game, "xueliu", uniforms, 5)
    new = xueliu.new_game("xuezhan", seed=SEED)
    old = frozen_new_game("xuezhan", seed=SEED)
    while not new.is_over:
        seat = new.pending()[0]
        new.step({seat: new.legal_actions(seat)[-1]})
        old.step({seat: old.legal_actions(seat)[-1]})
    assert new.events() == old.events()


def process_time_rates(preset: str, rounds: int = 7) -> dict:
    """Hands a second of each engine in process time (``time.process_time``: what this process
    ran, not what other processes on a shared machine took), fastest of ``rounds`` alternating
    rounds of ``HANDS`` hands."""
    uniforms = np.random.default_rng(SEED).random(HANDS * 400).tolist()
    best = {name: float("inf") for name in ENGINES}
    for new_game in ENGINES.values():
        play_hands(new_game, preset, uniforms, 20)
    for _ in range(rounds):
        for name, new_game in ENGINES.items():
            start = time.process_time()
            play_hands(new_game, preset, uniforms)
            best[name] = min(best[name], time.process_time() - start)
    return {name: HANDS / t for name, t in best.items()}


if __name__ == "__main__":
    for preset in ("xueliu", "xuezhan"):
        rates = process_time_rates(preset)
        print(f"{preset}: current {rates['current']:,.0f} hands/s, e2892b9 "
              f"{rates['e2892b9']:,.0f} hands/s (process time): "
              f"{rates['current'] / rates['e2892b9']:.2f}x")
