"""Random games for the learning tests: every decision point of hundreds of hands of both presets."""

from __future__ import annotations

import random
from typing import Callable, Iterator, List, Tuple

import pytest

import xueliu

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
