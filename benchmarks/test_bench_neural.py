"""Speed of NeuralBot (issue 18 targets: four NeuralBots >= 300 hands a second on one core with
batched decisions; one decision for one seat <= 1 ms).

``test_four_neural_bots_batched`` plays whole hands of four NeuralBots through
:func:`xueliu.bots.neural_play.play_batched` (every pending seat of 256 hands in flight decided in
one forward pass a step) and, in the same test, four ExpertBots over the same hands through
``simulate``'s path, so ``ratio_to_expert`` in ``extra_info`` compares the two at the same moment
on the same (shared, noisy) machine. ``test_four_neural_bots_through_simulate`` times what
``xueliu simulate --bots neural,neural,neural,neural --workers 1`` runs (issue 47: simulate
batches its neural seats, :mod:`xueliu.simulate.batched`; the target is 3 times four experts'
hands/s on the same walls, in the same run). ``test_one_decision`` times ``act_view`` for one seat. Nothing
here asserts a time: ``python -m pytest benchmarks/test_bench_neural.py`` prints the table (set
``OPENBLAS_NUM_THREADS=1`` for the one-core figure). ``XUELIU_BENCH_WEIGHTS=path.npz`` times
another weights file (a run of ``xueliu train``) instead of the shipped one.
"""

import os
import time

import pytest

from xueliu.bots import NeuralBot
from xueliu.bots.neural_play import POLICY, play_batched
from xueliu.game import new_game
from xueliu.simulate import simulate
from xueliu.simulate.play import hand_seed

HANDS = 256
WEIGHTS = os.environ.get("XUELIU_BENCH_WEIGHTS") or None
ROUNDS = 3


def _fastest(play) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        play()
        best = min(best, time.perf_counter() - start)
    return HANDS / best


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_four_neural_bots_batched(benchmark, preset):
    bot = NeuralBot(weights=WEIGHTS)

    def play() -> list:
        states = [new_game(preset, seed=hand_seed(1, i), dealer=i % 4) for i in range(HANDS)]
        play_batched(states, [[POLICY] * 4] * HANDS, bot.choose)
        return states

    states = benchmark.pedantic(play, rounds=ROUNDS, iterations=1)
    assert all(s.is_over for s in states)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        rate = HANDS / stats.stats.min
        expert = _fastest(lambda: simulate(HANDS, bots=["expert"] * 4, rules=preset, seed=1))
        benchmark.extra_info["hands"] = HANDS
        benchmark.extra_info["hands_per_second"] = round(rate, 1)
        benchmark.extra_info["expert_hands_per_second"] = round(expert, 1)
        benchmark.extra_info["ratio_to_expert"] = round(rate / expert, 2)


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_four_neural_bots_through_simulate(benchmark, preset):
    neural = f"neural:{WEIGHTS}" if WEIGHTS else "neural"
    experts: list = []

    def expert_round() -> None:  # before each neural round, untimed by the benchmark: the two
        start = time.perf_counter()  # alternate, so a busy spell of the machine slows both
        simulate(HANDS, bots=["expert"] * 4, rules=preset, seed=1)
        experts.append(time.perf_counter() - start)

    summary = benchmark.pedantic(lambda: simulate(HANDS, bots=[neural] * 4, rules=preset, seed=1),
                                 setup=expert_round, rounds=ROUNDS, iterations=1)
    assert summary.games == HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        rate = HANDS / stats.stats.min
        expert = HANDS / min(experts)
        benchmark.extra_info["hands"] = HANDS
        benchmark.extra_info["hands_per_second"] = round(rate, 1)
        benchmark.extra_info["expert_hands_per_second"] = round(expert, 1)
        benchmark.extra_info["ratio_to_expert"] = round(rate / expert, 2)


def test_one_decision(benchmark):
    bot = NeuralBot(weights=WEIGHTS)
    state = new_game("xueliu", seed=3)
    while state.phase != "turn" or not state.pending():  # the first discard of the hand
        state.step({q: state.legal_actions(q)[0] for q in state.pending()})
    seat = state.pending()[0]
    legal = state.legal_actions(seat)
    action = benchmark(lambda: bot.act_view(state.view(seat), legal))
    assert action in legal
