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


def _report(benchmark, games: int, workers: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    rate = games / stats.stats.min
    benchmark.extra_info["hands"] = games
    benchmark.extra_info["workers"] = workers
    benchmark.extra_info["hands_per_second"] = round(rate, 1)
    benchmark.extra_info["hands_per_second_per_worker"] = round(rate / workers, 1)


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_greedy_self_play_one_worker(benchmark, preset):
    games = 200
    summary = benchmark.pedantic(simulate, args=(games,),
                                 kwargs=dict(bots=GREEDY, rules=preset, seed=1, workers=1),
                                 rounds=3, iterations=1)
    _report(benchmark, games, 1)
    assert summary.bots[0].seat_hands == 4 * games


def test_greedy_self_play_two_workers(benchmark):
    games = 400
    summary = benchmark.pedantic(simulate, args=(games,),
                                 kwargs=dict(bots=GREEDY, seed=1, workers=2),
                                 rounds=3, iterations=1)
    _report(benchmark, games, 2)
    assert summary.bots[0].seat_hands == 4 * games


def test_random_self_play_one_worker(benchmark):
    games = 200
    summary = benchmark.pedantic(simulate, args=(games,),
                                 kwargs=dict(bots=RANDOM, seed=1, workers=1),
                                 rounds=3, iterations=1)
    _report(benchmark, games, 1)
    assert summary.bots[0].seat_hands == 4 * games


def test_readme_strength_run_two_workers(benchmark):
    """The shape of the README's strength table: greedy + 3 random, duplicate, two workers."""
    games = 800
    summary = benchmark.pedantic(simulate, args=(games,),
                                 kwargs=dict(bots=README, seed=0, workers=2, duplicate=True),
                                 rounds=2, iterations=1)
    _report(benchmark, games, 2)
    assert summary.bots[0].mean > 0
