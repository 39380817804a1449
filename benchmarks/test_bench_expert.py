"""Speed of ExpertBot self-play (issue 9 target: >= 100 hands a second per worker).

Whole hands through the path ``xueliu simulate`` uses (:func:`xueliu.simulate.simulate`), four
``expert`` bots, one worker. Greedy self-play over the same hands is timed in the same test, so
``ratio_to_greedy`` in ``extra_info`` compares the two on the same machine at the same moment (the
machines these run on are shared and noisy; the ratio is the figure to compare across runs).
Nothing here asserts a time: ``python -m pytest benchmarks/test_bench_expert.py`` prints the table.
"""

import time

import pytest

from xueliu.simulate import simulate

HANDS = 200
ROUNDS = 3


def _greedy_rate(preset: str) -> float:
    """Greedy self-play hands a second over the same hands (fastest of ``ROUNDS``)."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        simulate(HANDS, bots=["greedy"] * 4, rules=preset, seed=1)
        best = min(best, time.perf_counter() - start)
    return HANDS / best


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_expert_self_play_one_worker(benchmark, preset):
    summary = benchmark.pedantic(simulate, args=(HANDS,),
                                 kwargs=dict(bots=["expert"] * 4, rules=preset, seed=1),
                                 rounds=ROUNDS, iterations=1)
    assert summary.bots[0].seat_hands == 4 * HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable: nothing was timed
        return
    rate = HANDS / stats.stats.min
    greedy = _greedy_rate(preset)
    benchmark.extra_info["hands"] = HANDS
    benchmark.extra_info["workers"] = 1
    benchmark.extra_info["hands_per_second"] = round(rate, 1)
    benchmark.extra_info["hands_per_second_per_worker"] = round(rate, 1)
    benchmark.extra_info["greedy_hands_per_second"] = round(greedy, 1)
    benchmark.extra_info["ratio_to_greedy"] = round(rate / greedy, 3)
