"""Speed of simulation with bots (issue 4 target: greedy self-play >= 300 hands a second per worker).

Each figure is whole hands through the public path ``xueliu simulate`` uses
(:func:`xueliu.simulate.simulate`: new_game, observation, legal_actions, bot, step, settlement),
with ``hands_per_second`` (fastest round) and ``hands_per_second_per_worker`` in ``extra_info``.
The random self-play figure is there for comparison with the game issue's benchmark. Nothing
here asserts a time; ``python -m pytest benchmarks/test_bench_bots.py`` prints the table.
"""

import pytest

from xueliu.simulate import simulate

GREEDY = ["greedy", "greedy", "greedy", "greedy"]
RANDOM = ["random", "random", "random", "random"]
README = ["greedy", "random", "random", "random"]


def _run(benchmark, games: int, workers: int, rounds: int = 3, **kwargs):
    """Time ``simulate(games, workers=workers, **kwargs)``; put the rates into extra_info."""
    summary = benchmark.pedantic(simulate, args=(games,), kwargs=dict(workers=workers, **kwargs),
                                 rounds=rounds, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        rate = games / stats.stats.min
        benchmark.extra_info["hands"] = games
        benchmark.extra_info["workers"] = workers
        benchmark.extra_info["hands_per_second"] = round(rate, 1)
        benchmark.extra_info["hands_per_second_per_worker"] = round(rate / workers, 1)
    return summary


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_greedy_self_play_one_worker(benchmark, preset):
    summary = _run(benchmark, 200, 1, bots=GREEDY, rules=preset, seed=1)
    assert summary.bots[0].seat_hands == 4 * 200


def test_greedy_self_play_two_workers(benchmark):
    summary = _run(benchmark, 400, 2, bots=GREEDY, seed=1)
    assert summary.bots[0].seat_hands == 4 * 400


def test_random_self_play_one_worker(benchmark):
    summary = _run(benchmark, 200, 1, bots=RANDOM, seed=1)
    assert summary.bots[0].seat_hands == 4 * 200


def test_readme_strength_run_two_workers(benchmark):
    """The shape of the README's strength table: greedy + 3 random, duplicate, two workers."""
    summary = _run(benchmark, 800, 2, rounds=2, bots=README, seed=0, duplicate=True)
    assert summary.bots[0].mean > 0
