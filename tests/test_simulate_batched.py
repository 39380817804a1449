"""simulate and arena decide a worker's neural seats together (simulate/batched.py) and still play
exactly the hands they played one decision at a time: the same rows, ``--out`` lines, tables and
arena figures for any bots, preset, ``--duplicate`` and worker count; the batch's rows are the
one-row decisions to the bit (bots/neural_rows.py); a bot that raises stops the run with the same
error either way."""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Tuple

import numpy as np
import pytest

import xueliu.arena.run as arena_run
import xueliu.simulate.batched as batched
import xueliu.simulate.run as simulate_run
from xueliu.arena import arena
from xueliu.arena.report import format_table, to_json
from xueliu.bots import GreedyBot, NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import DEFAULT_WEIGHTS, save_network
from xueliu.bots.neural_play import POLICY, play_batched
from xueliu.bots.neural_rows import choose_rows, forward_rows
from xueliu.errors import BotError
from xueliu.game import new_game
from xueliu.rules import Rules
from xueliu.simulate import simulate
from xueliu.simulate.play import Config, hand_seed, play_one, play_sequential

ROOT = Path(__file__).resolve().parent.parent
RANDOM_PROGRAM = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


class FirstLegalBot:
    """A ``module:Class`` bot: hands with one are played one at a time (it might keep state)."""

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[0]


def _one_at_a_time(items: Sequence[Tuple[Config, int]]) -> Iterator[Dict[str, Any]]:
    return (play_one(cfg, i) for cfg, i in items)


@contextlib.contextmanager
def one_at_a_time() -> Iterator[None]:
    """Within the block, simulate and arena (one worker) play hand after hand, as before."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(simulate_run, "play_hands", _one_at_a_time)
        mp.setattr(arena_run, "play_hands", _one_at_a_time)
        yield


def _run(games: int, bots: Sequence[str], preset: str, duplicate: bool,
         workers: int = 1) -> Tuple[str, str]:
    out = io.StringIO()
    summary = simulate(games, bots=bots, rules=preset, seed=11, duplicate=duplicate, out=out,
                       workers=workers)
    return out.getvalue(), summary.format()


@pytest.fixture(scope="module")
def other_weights(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The shipped weights under another path: a second network, batched apart."""
    path = tmp_path_factory.mktemp("weights") / "copy.npz"
    shutil.copy(DEFAULT_WEIGHTS, path)
    return f"neural:{path}"


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
@pytest.mark.parametrize("duplicate", [False, True])
def test_simulate_plays_the_hands_it_played_one_decision_at_a_time(preset, duplicate,
                                                                   other_weights):
    bots = ["neural", "expert", other_weights, "greedy"]
    with one_at_a_time():
        expected = _run(24, bots, preset, duplicate)
    assert _run(24, bots, preset, duplicate) == expected
    assert _run(24, bots, preset, duplicate, workers=2) == expected


def test_rows_are_the_same_however_the_hands_are_cut_into_chunks():
    cfg = Config(Rules.preset("xuezhan").to_dict(), ("neural",) * 4, 3, False, True)
    expected = play_sequential(cfg, 0, 10)
    assert batched.run_chunk(cfg, 0, 10) == expected
    assert batched.run_chunk(cfg, 0, 4) + batched.run_chunk(cfg, 4, 10) == expected


@pytest.mark.parametrize("other", ["tests.test_simulate_batched:FirstLegalBot", RANDOM_PROGRAM])
def test_hands_with_a_class_or_a_program_go_one_by_one_to_the_same_results(other):
    bots = ["neural", other, "neural", "random"]
    with one_at_a_time():
        expected = _run(8, bots, "xueliu", True)
    assert _run(8, bots, "xueliu", True) == expected


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_the_arena_gives_the_figures_it_gave_one_decision_at_a_time(preset):
    def figures() -> Tuple[Any, str]:
        result = arena(["neural", "expert"], 3, rules=preset, reference="greedy", seed=5)
        return to_json(result), format_table(result)

    with one_at_a_time():
        expected = figures()
    assert figures() == expected


def test_a_failed_batch_is_decided_seat_by_seat_to_the_same_hands(monkeypatch):
    bots = ["neural", "greedy", "neural", "expert"]
    with one_at_a_time():
        expected = _run(8, bots, "xueliu", False)

    def broken(bot: NeuralBot, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise RuntimeError("no batch today")

    monkeypatch.setattr(batched, "choose_rows", broken)
    assert _run(8, bots, "xueliu", False) == expected


@pytest.mark.parametrize("fails", [[5], [2, 6], [0, 1, 2, 3, 4, 5, 6, 7]])
@pytest.mark.parametrize("who", ["greedy", "neural"])
def test_a_bot_that_raises_stops_the_run_with_the_error_of_one_by_one(monkeypatch,
                                                                      fails, who):
    """Hands interleave, but the error is the earliest failing hand's, at its first failing
    seat: in a failing hand both bots raise from their second decision on."""
    seeds = {hand_seed(4, i) for i in fails}
    calls: Dict[Tuple[int, int], int] = {}

    def wrap(original: Any) -> Any:
        def act_view(self: Any, view: Any, legal: Any) -> Any:
            key = (view._g.seed, view.seat)
            calls[key] = calls.get(key, 0) + 1
            if view._g.seed in seeds and calls[key] > 1:
                raise RuntimeError(f"{type(self).__name__} gives up")
            return original(self, view, legal)
        return act_view

    cls = GreedyBot if who == "greedy" else NeuralBot
    monkeypatch.setattr(cls, "act_view", wrap(cls.act_view))
    if who == "neural":  # a batch that raises is asked again seat by seat, through act_view
        def refused(bot: NeuralBot, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
            raise RuntimeError("batch refused")

        monkeypatch.setattr(batched, "choose_rows", refused)

    def error() -> str:
        calls.clear()
        with pytest.raises(BotError) as e:
            simulate(8, bots=["neural", "greedy", "neural", "greedy"], seed=4)
        return str(e.value)

    with one_at_a_time():
        expected = error()
    assert error() == expected
    assert f"hand {fails[0]}," in expected


# -- the batch's arithmetic: each row as if alone ----------------------------------------------


@pytest.fixture(scope="module")
def decisions() -> List[Tuple[np.ndarray, np.ndarray]]:
    """The (obs_v1, mask) batches of 16 hands of four neural bots, both presets."""
    bot = NeuralBot()
    seen: List[Tuple[np.ndarray, np.ndarray]] = []

    def choose(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.append((x, mask))
        return choose_rows(bot, x, mask)

    for preset in ("xueliu", "xuezhan"):
        states = [new_game(preset, seed=hand_seed(9, i), dealer=i % 4) for i in range(8)]
        play_batched(states, [[POLICY] * 4] * len(states), choose)
    return seen


def test_batched_rows_are_the_one_row_decisions_to_the_bit(decisions):
    """The logits of each row are those of the row alone, bit for bit, and so is every decision,
    close calls (the renamed tables' average) included."""
    bot = NeuralBot()
    net = bot.network
    rows = closes = 0
    for x, mask in decisions:
        logits = forward_rows(net, x)
        got = choose_rows(bot, x, mask)
        for i in range(len(x)):
            assert np.array_equal(logits[i], net.forward(x[i:i + 1])[0])
            assert got[i] == bot.choose(x[i:i + 1], mask[i:i + 1])[0]
        rows += len(x)
        closes += int((masked_argmax(net.forward(x), mask) != got).sum())
    assert rows > 1000
    assert closes > 0  # the views changed some decisions: the close-call path was exercised


def test_a_danger_head_and_inputs_not_0_1_decide_row_by_row_alike(tmp_path, decisions):
    rng = np.random.default_rng(0)
    sizes = [2484, 32, 175 + 27]
    layers = [(rng.standard_normal((a, b)).astype(np.float32) * 0.1,
               rng.standard_normal(b).astype(np.float32)) for a, b in zip(sizes, sizes[1:])]
    path = str(tmp_path / "danger.npz")
    save_network(path, layers, {"xueliu": Rules.preset("xueliu")}, {}, danger_penalty=2.0)
    bot = NeuralBot(weights=path)
    x, mask = max(decisions, key=lambda d: len(d[0]))
    assert len(x) > 8
    logits = forward_rows(bot.network, x)
    for i in range(len(x)):
        assert np.array_equal(logits[i], bot.network.forward(x[i:i + 1])[0])
    half = x * np.float32(0.5)  # not 0/1: the plain product, row by row
    assert forward_rows(bot.network, half) is None
    singles = [bot.choose(half[i:i + 1], mask[i:i + 1])[0] for i in range(len(x))]
    assert list(choose_rows(bot, half, mask)) == singles
