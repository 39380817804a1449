"""Speed of the learning interfaces (issue 8): ``obs_v1`` encoding (targets ≤ 10 µs per observation
single, ≤ 3 µs in ``encode_batch``: of game states, the native fast path, next to the same states
by the observation-dict path), the vector environment with random opponents (≥ 10,000
learner steps a second on one core, next to the plain random-play hand rate of the same run), and a
``cmd:`` bot's cost per decision over the pipe (≤ 100 µs, the random example bot; the program's
start-up, once a run, is measured apart).

Each figure is from the fastest round and goes into ``benchmark.extra_info``; the module prints
them together at its end. Nothing asserts a time. Run:
``python -m pytest benchmarks/test_bench_learn.py``.
"""

from __future__ import annotations

import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

import xueliu
from xueliu.envs import VectorEnv
from xueliu.learn import encoder, mask_from_observation
from xueliu.simulate import simulate

EXAMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "random_bot.py"
FIGURES: Dict[str, str] = {}
PLAIN: Dict[str, float] = {}
FAST: Dict[str, float] = {}
GAMES = 60
BATCH = 256
VECTOR_ENVS = 64
VECTOR_STEPS = 150


def _fastest(benchmark: Any) -> float:
    stats = getattr(benchmark, "stats", None)
    return float(stats.stats.min) if stats is not None else float("nan")


def _us_per_observation(benchmark: Any, run: Any, n: int) -> float:
    """Times ``run`` (5 rounds) and records its fastest round per observation (``n`` of them)."""
    benchmark.pedantic(run, rounds=5, iterations=1)
    us = _fastest(benchmark) / n * 1e6
    benchmark.extra_info["us_per_observation"] = round(us, 2)
    return us


@pytest.fixture(scope="module", autouse=True)
def _print_figures(request: pytest.FixtureRequest):
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not FIGURES:
        return
    with capture.global_and_fixture_disabled():  # teardown output is captured otherwise
        reporter.write_line("")
        reporter.write_line("xueliu learning figures (fastest round; the machine's load varies)")
        for label, value in FIGURES.items():
            reporter.write_line(f"  {label:<66} {value}")


@pytest.fixture(scope="module")
def observations() -> List[Dict[str, Any]]:
    """The observation of the deciding seat at every decision of random hands of both presets."""
    rng = random.Random(1)
    out = []
    for g in range(GAMES):
        state = xueliu.new_game("xueliu" if g % 2 else "xuezhan", seed=g)
        while not state.is_over:
            pending = state.pending()
            out.append(state.observation(pending[0]))
            state.step({q: rng.choice(state.legal_actions(q)) for q in pending})
    return out


def test_obs_v1_encode_single(benchmark, observations):
    enc = encoder("obs_v1")
    out = np.zeros(enc.shape, enc.dtype)

    def run():
        for o in observations:
            enc.encode(o, out=out)
    us = _us_per_observation(benchmark, run, len(observations))
    FIGURES["obs_v1 encode, one observation dict"] = f"{us:.2f} us"


def test_obs_v1_encode_batch(benchmark, observations):
    enc = encoder("obs_v1")
    n = len(observations) // BATCH * BATCH
    out = np.zeros((BATCH, *enc.shape), enc.dtype)

    def run():
        for i in range(0, n, BATCH):
            enc.encode_batch(observations[i:i + BATCH], out=out)
    us = _us_per_observation(benchmark, run, n)
    FIGURES[f"obs_v1 encode_batch of {BATCH} observation dicts, per observation"] = f"{us:.2f} us"


@pytest.fixture(scope="module")
def live_states() -> List[Any]:
    """``4 * BATCH`` hands of both presets, each stopped at a random decision: (state, the seat
    deciding), as a vector env holds them. The fast path reads live states, not dicts."""
    rng = random.Random(3)
    out = []
    for g in range(4 * BATCH):
        state = xueliu.new_game("xueliu" if g % 2 else "xuezhan", seed=g)
        for _ in range(rng.randrange(120)):
            if state.is_over:
                break
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
        if state.is_over:
            state = xueliu.new_game("xueliu", seed=100_000 + g)
        out.append((state, state.pending()[0]))
    return out


def _batches(live: List[Any]) -> List[Any]:
    return [([s for s, _ in live[i:i + BATCH]], [q for _, q in live[i:i + BATCH]])
            for i in range(0, len(live), BATCH)]


def test_obs_v1_encode_single_state(benchmark, live_states):
    """``encode(state, seat)``, one at a time: what an in-process bot does (the native path)."""
    enc = encoder("obs_v1")
    out = np.zeros(enc.shape, enc.dtype)

    def run():
        for state, seat in live_states:
            enc.encode(state, seat, out=out)
    us = _us_per_observation(benchmark, run, len(live_states))
    FIGURES["obs_v1 encode, one game state (target <= 10 us)"] = f"{us:.2f} us"


@pytest.mark.parametrize("name", ["obs_v1", "oracle_v1"])
def test_encode_batch_of_states_fast_path(benchmark, live_states, name):
    """``encode_batch(states, seats)``: the native fast path, read from the hands in progress."""
    enc = encoder(name)
    out = np.zeros((BATCH, *enc.shape), enc.dtype)
    batches = _batches(live_states)

    def run():
        for states, seats in batches:
            enc.encode_batch(states, seats, out=out)
    us = _us_per_observation(benchmark, run, len(live_states))
    FAST[name] = us
    target = " (target <= 3 us)" if name == "obs_v1" else ""
    FIGURES[f"{name} encode_batch of {BATCH} states, fast path, per observation{target}"] = \
        f"{us:.2f} us"


@pytest.mark.parametrize("name", ["obs_v1", "oracle_v1"])
def test_encode_batch_of_states_observation_path(benchmark, live_states, name):
    """The same states through the observation-dict path (what ``encode_batch`` of states did
    before the fast path): ``state.observation(seat)`` then the plain-Python rows."""
    enc = encoder(name)
    out = np.zeros((BATCH, *enc.shape), enc.dtype)
    batches = _batches(live_states)

    def run():
        for states, seats in batches:
            if enc.from_observation:
                enc.encode_batch([s.observation(q) for s, q in zip(states, seats)], out=out)
            else:
                for i, (s, q) in enumerate(zip(states, seats)):
                    enc.encode(s, q, out=out[i])
    us = _us_per_observation(benchmark, run, len(live_states))
    ratio = f", {us / FAST[name]:.1f}x the fast path" if name in FAST else ""
    FIGURES[f"  {name} the same states by the observation-dict path"] = f"{us:.2f} us{ratio}"


def test_action_mask_from_observation(benchmark, observations):
    out = np.zeros(175, np.bool_)

    def run():
        for o in observations:
            mask_from_observation(o, out=out)
    benchmark.pedantic(run, rounds=5, iterations=1)
    us = _fastest(benchmark) / len(observations) * 1e6
    FIGURES["action mask from an observation dict"] = f"{us:.2f} us"


def _random_play(hands: int, observe: bool) -> int:
    """Plays ``hands`` random hands; with ``observe``, builds the deciding seats' observations
    as a bot loop does. Returns the number of decisions."""
    rng = random.Random(2)
    decisions = 0
    for g in range(hands):
        state = xueliu.new_game("xueliu", seed=g)
        while not state.is_over:
            answers = {}
            for q in state.pending():
                if observe:
                    state.observation(q)
                answers[q] = rng.choice(state.legal_actions(q))
                decisions += 1
            state.step(answers)
    return decisions


def test_random_play_hands(benchmark):
    """The plain engine loop with random choices: the hand rate the vector env is compared to."""
    hands = 300
    decisions = benchmark.pedantic(_random_play, args=(hands, False), rounds=3, iterations=1)
    t = _fastest(benchmark)
    PLAIN["seconds"] = t
    benchmark.extra_info["hands_per_second"] = round(hands / t, 1)
    FIGURES["random play, hands/s (engine loop, no observations)"] = f"{hands / t:,.0f}"
    FIGURES["random play, decisions/s"] = f"{decisions / t:,.0f}"


def test_random_play_with_observations(benchmark):
    """The same loop building each decider's observation dict: the difference is the engine's
    cost of ``state.observation(seat)`` on a fresh step (what an encoder must start from)."""
    hands = 300
    decisions = benchmark.pedantic(_random_play, args=(hands, True), rounds=3, iterations=1)
    t = _fastest(benchmark)
    FIGURES["random play building every observation, hands/s"] = f"{hands / t:,.0f}"
    if "seconds" in PLAIN:
        us = (t - PLAIN["seconds"]) / decisions * 1e6
        benchmark.extra_info["observation_us"] = round(us, 2)
        FIGURES["  engine: state.observation(seat) on a fresh step (the difference)"] = \
            f"{us:.2f} us"


def test_vector_env_learner_steps(benchmark):
    # copy=False, the fast option: the benchmark keeps no observation from step to step.
    env = VectorEnv(VECTOR_ENVS, opponents=["random"] * 3, rules="xueliu", copy=False)
    rng = np.random.default_rng(0)
    state: Dict[str, Any] = {}

    def setup():
        state["obs"], _ = env.reset(seed=3)
        return (), {}

    def run():
        obs = state["obs"]
        ends = 0
        for _ in range(VECTOR_STEPS):
            masks = obs["action_mask"]
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # a random masked index
            obs, rewards, terminations, truncations, info = env.step(actions)
            ends += int(terminations.sum())
        state["ends"] = ends
    benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
    steps = VECTOR_ENVS * VECTOR_STEPS
    rate = steps / _fastest(benchmark)
    benchmark.extra_info["learner_steps_per_second"] = round(rate, 1)
    benchmark.extra_info["hands_ended"] = state["ends"]
    FIGURES[f"VectorEnv({VECTOR_ENVS}) random opponents, learner steps/s (target >= 10,000)"] = \
        f"{rate:,.0f}"
    FIGURES["  learner steps per hand"] = f"{steps / max(1, state['ends']):.1f}"


def _arena(bots: List[str], games: int = 40) -> xueliu.simulate.Summary:
    return simulate(games, bots=bots, seed=4, duplicate=True)


def test_cmd_bot_cost_per_decision(benchmark):
    """The example bot against three random bots, next to four in-process random bots on the same
    hands: the difference per decision of the program is its cost over the pipe. Each run starts
    the program once (a Python interpreter: tens of milliseconds, a cost per run, not per
    decision), so runs of two lengths are timed and the cost per decision is the slope between
    them, which the start-up cancels out of."""
    program = f"cmd:{sys.executable} {EXAMPLE_BOT}"
    bots = [program, "random", "random", "random"]
    short, long = 40, 160

    def decisions(summary: xueliu.simulate.Summary) -> int:
        return next(b.decisions for b in summary.bots if b.external)

    start = time.perf_counter()
    d_short = decisions(_arena(bots, short))  # (also warms up)
    extra_short = min(_timed(_arena, bots, short) for _ in range(3)) \
        - min(_timed(_arena, ["random"] * 4, short) for _ in range(3))
    summary = benchmark.pedantic(_arena, args=(bots, long), rounds=3, iterations=1)
    d_long = decisions(summary)
    extra_long = _fastest(benchmark) - min(_timed(_arena, ["random"] * 4, long) for _ in range(3))
    cost = (extra_long - extra_short) / (d_long - d_short) * 1e6
    startup = extra_short - cost * 1e-6 * d_short
    benchmark.extra_info["us_per_decision"] = round(cost, 1)
    benchmark.extra_info["startup_ms"] = round(startup * 1e3, 1)
    FIGURES["cmd: example bot, cost per decision over the pipe (target <= 100 us)"] = \
        f"{cost:.0f} us ({d_long - d_short} decisions, {time.perf_counter() - start:.1f} s)"
    FIGURES["  the program's start-up and exit, once a run"] = f"{startup * 1e3:.0f} ms"
    FIGURES["  a run of 40 games all told, per decision of the program"] = \
        f"{extra_short / d_short * 1e6:.0f} us"


_ECHO = ("import sys\n"
         "for line in iter(sys.stdin.readline, ''):\n"
         "    sys.stdout.write('{\"id\": 1}\\n'); sys.stdout.flush()\n")


def test_bare_pipe_round_trip(benchmark):
    """The floor under the ``cmd:`` figure, same run: one request line to a Python program that
    answers every line at once, and its answer read back (poll, as the engine does)."""
    proc = subprocess.Popen([sys.executable, "-c", _ECHO], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    out, back = proc.stdin.fileno(), proc.stdout.fileno()
    os.set_blocking(back, False)
    line = b'{"type":"request","actions":[{"id":3,"kind":"discard","tile":"4m"}]}\n'
    trips = 2000

    def run() -> None:
        for _ in range(trips):
            os.write(out, line)
            got = b""
            while not got.endswith(b"\n"):
                poll = select.poll()
                poll.register(back, select.POLLIN)
                poll.poll(5000)
                try:
                    got += os.read(back, 1 << 16)
                except BlockingIOError:
                    pass
    try:
        run()  # warm up
        benchmark.pedantic(run, rounds=3, iterations=1)
    finally:
        proc.stdin.close()
        proc.wait(timeout=5)
    us = _fastest(benchmark) / trips * 1e6
    FIGURES["  a bare pipe round trip to a Python program, same run"] = f"{us:.0f} us"


def _timed(fn: Any, *args: Any) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t
