"""Speed of simulation with bots (issue 4 target: greedy self-play >= 300 hands a second per worker;
issue 7: >= 2x the loop of commit e2892b9).

Most figures are whole hands through the public path ``xueliu simulate`` uses
(:func:`xueliu.simulate.simulate`: new_game, the bots through ``play_hand``, step, settlement),
with ``hands_per_second`` (fastest round) and ``hands_per_second_per_worker`` in ``extra_info``.
``test_self_play_against_e2892b9`` plays the same hands with ``play_hand`` on the current engine
and bots and on those of commit e2892b9 (built from git, run in a child process:
``benchmarks/frozen/``), each engine in a child process of its own, in alternating rounds, and
puts the ratio in ``ratio_to_e2892b9``. Nothing here asserts a time;
``python -m pytest benchmarks/test_bench_bots.py`` prints the table.
"""

import pytest

from frozen import BASELINE, fastest_rounds
from frozen.calls import self_play
from frozen.engine import EngineProcess
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


SELF_PLAY_HANDS = 100


@pytest.fixture(scope="module")
def engines():
    """The current engine and e2892b9's, each in a child process of its own."""
    with EngineProcess(None) as current, EngineProcess(BASELINE) as old:
        yield {"current": current, BASELINE: old}


@pytest.mark.parametrize("bot", ["greedy", "random"])
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_self_play_against_e2892b9(benchmark, engines, preset, bot):
    for engine in engines.values():
        engine.call("self_play", bot, preset, 10)  # warm the caches
    assert engines["current"].call("self_play", bot, preset, 20) \
        == engines[BASELINE].call("self_play", bot, preset, 20)
    best = fastest_rounds(3, {name: lambda e=engine: e.call("timed_self_play", bot, preset,
                                                            SELF_PLAY_HANDS)
                              for name, engine in engines.items()})
    benchmark.pedantic(self_play, args=(bot, preset, SELF_PLAY_HANDS), rounds=3, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["hands"] = SELF_PLAY_HANDS
        benchmark.extra_info["hands_per_second"] = round(SELF_PLAY_HANDS / stats.stats.min)
        benchmark.extra_info["hands_per_second_e2892b9"] = round(SELF_PLAY_HANDS / best[BASELINE])
        benchmark.extra_info["ratio_to_e2892b9"] = round(best[BASELINE] / best["current"], 2)
