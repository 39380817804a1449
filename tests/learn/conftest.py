"""Random games for the learning tests: every decision point of hundreds of hands of both presets."""

from __future__ import annotations

import random
from typing import Callable, Iterator, List, Optional, Tuple

import numpy as np
import pytest

import xueliu
from xueliu.learn import NUM_ACTIONS

GAMES_PER_PRESET = 150


def random_games(preset: str, games: int, seed: int = 0) -> Iterator[xueliu.GameState]:
    """Hands played by uniformly random legal choices; yields the state before every step."""
    rng = random.Random(f"{preset}:{seed}")
    for g in range(games):
        state = xueliu.new_game(preset, seed=1000 * seed + g, dealer=g % 4)
        while not state.is_over:
            yield state
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})


def decisions(preset: str, games: int, seed: int = 0) -> Iterator[Tuple[xueliu.GameState, int]]:
    """(state, seat) for every pending seat at every decision of ``random_games``."""
    for state in random_games(preset, games, seed):
        for seat in state.pending():
            yield state, seat


@pytest.fixture(params=["xueliu", "xuezhan"])
def preset(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def masked(mask) -> List[int]:  # type: ignore[no-untyped-def]
    return [int(i) for i in mask.nonzero()[0]]


def random_masked_policy(seed: int) -> Callable[..., int]:
    """A policy choosing uniformly among the indices a mask allows."""
    rng = random.Random(seed)

    def act(mask) -> int:  # type: ignore[no-untyped-def]
        return rng.choice(masked(mask))
    return act


def step_alike(ours, theirs, seed: int, rng: random.Random, steps: int,
               also: Optional[Callable[..., None]] = None) -> int:
    """Resets two vector envs of the same envs at ``seed`` and steps both ``steps`` times with the
    same random legal actions (every 50 steps one env's an illegal index): their observations,
    masks, seats, rewards, terminations and truncations agree at every step; ``also(step, ta,
    ia, ib)`` checks more after each step. Returns the number of hands ended."""
    a, ia = ours.reset(seed=seed)
    b, ib = theirs.reset(seed=seed)
    n = len(a["action_mask"])
    ends = 0
    for step in range(steps):
        assert np.array_equal(a["observation"], b["observation"]), step
        assert np.array_equal(a["action_mask"], b["action_mask"]), step
        assert np.array_equal(ia["seat"], ib["seat"])
        actions = [rng.choice(masked(m)) if m.any() else 0 for m in a["action_mask"]]
        if step % 50 == 7:
            actions[step % n] = NUM_ACTIONS - 1  # an illegal index, the same for both
        a, ra, ta, ua, ia = ours.step(np.array(actions))
        b, rb, tb, ub, ib = theirs.step(np.array(actions))
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        if also is not None:
            also(step, ta, ia, ib)
        ends += int(ta.sum())
    return ends
