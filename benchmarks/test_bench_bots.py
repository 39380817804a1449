"""Speed of simulation with bots (issue 4 target: greedy self-play >= 300 hands a second per worker;
issue 7: >= 2x the loop of commit e2892b9).

Most figures are whole hands through the public path ``xueliu simulate`` uses
(:func:`xueliu.simulate.simulate`: new_game, the bots through ``play_hand``, step, settlement),
with ``hands_per_second`` (fastest round) and ``hands_per_second_per_worker`` in ``extra_info``.
``test_self_play_against_e2892b9`` plays the same hands with ``play_hand`` on the current engine
and bots and on the copies frozen at e2892b9 (``benchmarks/frozen/``), in alternating rounds, and
puts the ratio in ``ratio_to_e2892b9``. Nothing here asserts a time;
``python -m pytest benchmarks/test_bench_bots.py`` prints the table.
"""

import pytest

import xueliu
from frozen import fastest_rounds
from frozen.xueliu_e2892b9 import bots as frozen_bots
from frozen.xueliu_e2892b9.game import new_game as frozen_new_game
from xueliu import bots as current_bots
from xueliu.bots import bot_seed
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


ENGINES = {"current": (xueliu.new_game, current_bots), "e2892b9": (frozen_new_game, frozen_bots)}
SELF_PLAY_HANDS = 100


def self_play(engine: str, bot: str, preset: str, hands: int = SELF_PLAY_HANDS) -> int:
    """``hands`` hands of four ``bot``s through ``play_hand``, each settled; returns the wins."""
    new_game, bots = ENGINES[engine]
    rules = xueliu.Rules.preset(preset)
    wins = 0
    for h in range(hands):
        if bot == "greedy":
            seats = [bots.GreedyBot(rules=rules) for _ in range(4)]
        else:
            # The seeds the current play_hand reseeds them with (the bot lifecycle), given to
            # the constructors too, so the old engine's play_hand plays the same hands.
            seats = [bots.RandomBot(bot_seed(1000 + h, 0, s)) for s in range(4)]
        state = bots.play_hand(new_game(rules, seed=1000 + h, dealer=h % 4), seats)
        wins += len(state.settlement().wins)
    return wins


@pytest.mark.parametrize("bot", ["greedy", "random"])
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_self_play_against_e2892b9(benchmark, preset, bot):
    for engine in ENGINES:
        self_play(engine, bot, preset, 10)  # warm the caches
    assert self_play("current", bot, preset, 20) == self_play("e2892b9", bot, preset, 20)
    best = fastest_rounds(3, {engine: lambda engine=engine: self_play(engine, bot, preset)
                              for engine in ENGINES})
    benchmark.pedantic(self_play, args=("current", bot, preset), rounds=3, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["hands"] = SELF_PLAY_HANDS
        benchmark.extra_info["hands_per_second"] = round(SELF_PLAY_HANDS / stats.stats.min)
        benchmark.extra_info["hands_per_second_e2892b9"] = round(SELF_PLAY_HANDS / best["e2892b9"])
        benchmark.extra_info["ratio_to_e2892b9"] = round(best["e2892b9"] / best["current"], 2)
