"""The game engine with wild tiles (docs/rules.md §12): what tables without wilds pay for them, and
how fast the wild-tile rooms play.

1. ``test_no_wild_play_against_pre_wild_engine``: random play and greedy self-play at the
   ``xueliu`` and ``xuezhan`` presets, this tree against main as it stood before the engine played
   wilds (1f82eb7), built from git (``frozen/``), each engine in a child process of its own, in
   alternating rounds, in process seconds (a busy machine's other processes do not count).
   ``extra_info["ratio_to_pre_wild"]`` is this tree's time over 1f82eb7's: 1.00 or less is "no
   speed lost" (the games are the same: both engines are asked to agree).
2. ``test_wild_rooms_beside_the_default``: random play and greedy self-play in ``yaoji`` and
   ``hongzhong`` beside the default preset, in this process, alternating, in process seconds;
   ``extra_info["ratio_to_default"]`` is the wild room's time per hand over the default's.

Nothing asserts a time: the machine is noisy, so only ratios from one run compare.

    python -m pytest benchmarks/test_bench_wild_game.py
"""

from __future__ import annotations

import time

import pytest

from frozen import fastest_rounds
from frozen.calls import play_hands, self_play
from frozen.engine import EngineProcess

PRE_WILD_ENGINE = "1f82eb7"
HANDS = 200
CHOICES = HANDS * 400
SELF_PLAY_HANDS = 60


@pytest.fixture(scope="module")
def engines():
    with EngineProcess(None) as current, EngineProcess(PRE_WILD_ENGINE) as old:
        yield {"current": current, PRE_WILD_ENGINE: old}


def _timed(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


@pytest.mark.parametrize("loop", ["random", "greedy"])
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_no_wild_play_against_pre_wild_engine(benchmark, engines, preset, loop):
    if loop == "random":
        call, args = "timed_play_hands", (preset, HANDS, CHOICES)
        same = [e.call("play_hands", preset, 20, CHOICES) for e in engines.values()]
    else:
        call, args = "cpu_self_play", ("greedy", preset, SELF_PLAY_HANDS)
        same = [e.call("self_play", "greedy", preset, 20) for e in engines.values()]
    assert same[0] == same[1], "the two engines play different games"

    def seconds(engine):
        out = engine.call(call, *args)
        return out["process_seconds"] if isinstance(out, dict) else out

    best = fastest_rounds(5, {name: lambda e=engine: seconds(e) for name, engine in engines.items()})
    if loop == "random":
        benchmark.pedantic(play_hands, args=(preset, HANDS, CHOICES), rounds=3, iterations=1)
    else:
        benchmark.pedantic(self_play, args=("greedy", preset, SELF_PLAY_HANDS), rounds=3,
                           iterations=1)
    benchmark.extra_info["ratio_to_pre_wild"] = round(best["current"] / best[PRE_WILD_ENGINE], 3)


@pytest.mark.parametrize("loop", ["random", "greedy"])
@pytest.mark.parametrize("preset", ["yaoji", "hongzhong"])
def test_wild_rooms_beside_the_default(benchmark, preset, loop):
    if loop == "random":
        runs = {name: (lambda p=name: _timed(play_hands, p, HANDS, CHOICES))
                for name in (preset, "xueliu")}
        per_hand = HANDS
    else:
        runs = {name: (lambda p=name: _timed(self_play, "greedy", p, SELF_PLAY_HANDS))
                for name in (preset, "xueliu")}
        per_hand = SELF_PLAY_HANDS
    for run in runs.values():
        run()  # warm the tables and caches of both
    best = fastest_rounds(5, runs)
    benchmark.pedantic(runs[preset], rounds=3, iterations=1)
    benchmark.extra_info["hands_per_second"] = round(per_hand / best[preset])
    benchmark.extra_info["hands_per_second_default"] = round(per_hand / best["xueliu"])
    benchmark.extra_info["ratio_to_default"] = round(best[preset] / best["xueliu"], 3)
