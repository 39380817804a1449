"""Random-play speed of the game engine (issues 3 and 7): whole hands, all four seats taking a
uniformly random legal action through the public API (``pending`` / ``legal_actions`` / ``step``),
next to the same loop on the engine as it stood at commit e2892b9 — that commit itself, built from
git into a cached directory and run in a child process (``benchmarks/frozen/``) — in the same run:
the machine is noisy, so the ratio is the figure that compares.

The choices come from a fixed-seed numpy generator drawn once up front, so the timed loop is the
engine plus a list index (``frozen.calls.play_hands``, the one loop both engines run).
``hands_per_second`` in ``extra_info`` is the number of hands in a round divided by the fastest
round (this process, under pytest-benchmark); ``ratio_to_e2892b9`` the current engine's rate over
the old one's, both timed the same way: each in a child process of its own, in alternating
rounds. Targets: >= 1,000 hands a second on one core (issue 3), >= 2x e2892b9 (issue 7).

    python -m pytest benchmarks/test_bench_game.py
    cd benchmarks && python test_bench_game.py    # the same ratio in process time (load-proof)
"""

import json

import pytest

from frozen import BASELINE, fastest_rounds
from frozen.build import commit_site
from frozen.calls import play_hands
from frozen.engine import EngineProcess

HANDS = 200
CHOICES = HANDS * 400


@pytest.fixture(scope="module")
def engines():
    """The current engine and e2892b9's, each in a child process of its own."""
    with EngineProcess(None) as current, EngineProcess(BASELINE) as old:
        yield {"current": current, BASELINE: old}


def test_the_baseline_is_the_commit_built_from_git(engines):
    """The old engine's process imports the package built from e2892b9, not the current one."""
    assert engines[BASELINE].version().startswith(str(commit_site(BASELINE)))
    assert not engines["current"].version().startswith(str(commit_site(BASELINE)))


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_random_play_hands_per_second(benchmark, engines, preset):
    """The current engine under pytest-benchmark; before it, both engines in alternating rounds
    for the ratio (``ratio_to_e2892b9``: how many times faster the current engine is)."""
    for engine in engines.values():
        engine.call("play_hands", preset, 20, CHOICES)  # warm the caches (exchange options, tables)
    best = fastest_rounds(5, {name: lambda e=engine: e.call("timed_play_hands", preset, HANDS,
                                                            CHOICES)["seconds"]
                              for name, engine in engines.items()})
    play_hands(preset, 20, CHOICES)
    steps = benchmark.pedantic(play_hands, args=(preset, HANDS, CHOICES), rounds=5, iterations=1)
    assert steps > HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["hands"] = HANDS
        benchmark.extra_info["steps_per_hand"] = round(steps / HANDS, 1)
        benchmark.extra_info["hands_per_second"] = round(HANDS / stats.stats.min)
        benchmark.extra_info["hands_per_second_e2892b9"] = round(HANDS / best[BASELINE])
        benchmark.extra_info["ratio_to_e2892b9"] = round(best[BASELINE] / best["current"], 2)


def test_both_engines_play_the_same_game(engines):
    """The baseline is the same rules engine: the benchmark compares like with like."""
    assert engines["current"].call("play_hands", "xueliu", 5, 5 * 400) \
        == engines[BASELINE].call("play_hands", "xueliu", 5, 5 * 400)
    new = engines["current"].call("last_action_game", "xuezhan", 20240601)
    assert json.loads(json.dumps(new)) == engines[BASELINE].call("last_action_game", "xuezhan",
                                                                 20240601)


def process_time_rates(preset: str, rounds: int = 7) -> dict:
    """Hands a second of each engine in process time (``time.process_time``: what its process
    ran, not what other processes on a busy machine took), fastest of ``rounds`` alternating
    rounds of ``HANDS`` hands, each engine in a child process of its own."""
    with EngineProcess(None) as current, EngineProcess(BASELINE) as old:
        engines = {"current": current, BASELINE: old}
        for engine in engines.values():
            engine.call("play_hands", preset, 20, CHOICES)
        best = fastest_rounds(rounds, {
            name: lambda e=engine: e.call("timed_play_hands", preset, HANDS,
                                          CHOICES)["process_seconds"]
            for name, engine in engines.items()})
    return {name: HANDS / t for name, t in best.items()}


if __name__ == "__main__":
    for preset in ("xueliu", "xuezhan"):
        rates = process_time_rates(preset)
        print(f"{preset}: current {rates['current']:,.0f} hands/s, {BASELINE} "
              f"{rates[BASELINE]:,.0f} hands/s (process time): "
              f"{rates['current'] / rates[BASELINE]:.2f}x")
