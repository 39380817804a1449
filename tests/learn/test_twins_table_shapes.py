"""The learning layer's twins at the tables of docs/rules.md §11.4 (2, 3 and 4 seats, 两房, 一房,
10- and 7-tile hands), where the four-seat tests (test_action_space.py, test_envs.py) do not go:

- the masks read from the hands in progress (``masks_from_states``, what the vector environment
  uses) are the masks read from the observation dicts (``masks_from_observations``, the
  definition), partial exchange picks included;
- the vector environment (hands stepped together, encoded from the states) steps to the same
  observations, masks, rewards and ends as single-seat environments stepped one by one.
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

import xueliu
from xueliu.envs import SingleSeatEnv, VectorEnv
from xueliu.learn import masks_from_observations, masks_from_states

from .conftest import step_alike

PRESETS = ["sanren_liangfang", "sanren_sanfang", "siren_liangfang", "erren_yifang", "daodaohu"]
KIND = {xueliu.tile_name(k): k for k in range(27)}


def tables():
    out = {name: xueliu.Rules.preset(name) for name in PRESETS}
    # exchange and void at three and two seats (the presets of those tables have neither)
    out["three_seats_exchange_four"] = xueliu.Rules.preset("xueliu").replace(
        players=3, exchange_count=4)
    out["two_seats_multipliers"] = xueliu.Rules.preset("xuezhan").replace(players=2)
    return out


TABLES = tables()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_masks_from_states_are_the_masks_from_observations_at_every_table(name):
    rules = TABLES[name]
    rng = random.Random(name)
    compared = picked = 0
    for g in range(12):
        state = xueliu.new_game(rules, seed=g, dealer=g % rules.players)
        while not state.is_over:
            for seat in state.pending():
                picks = ()
                legal = state.legal_actions(seat)
                if legal[0].kind == "exchange":  # some kinds of a legal exchange already picked
                    tiles = rng.choice(legal).tiles
                    picks = tuple(KIND[t] for t in tiles[:rng.randrange(len(tiles))])
                    picked += bool(picks)
                got = masks_from_states([state, state], [seat, seat], [picks, ()])
                want = masks_from_observations([state.observation(seat)] * 2, [picks, ()])
                assert np.array_equal(got, want), (name, state.phase, seat)
                compared += 1
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
    assert compared > 200
    assert picked > 0 or not rules.exchange_three


@pytest.mark.parametrize("name", ["sanren_liangfang", "erren_yifang", "two_seats_multipliers",
                                  "three_seats_exchange_four"])
def test_a_vector_env_steps_as_single_envs_one_by_one_at_every_table(name):
    rules = TABLES[name]
    n = 3
    kwargs = dict(opponents=["random"] + ["greedy"] * (rules.players - 2), rules=rules,
                  reward="transfers")
    ours = VectorEnv(n, autoreset_mode="next_step", **kwargs)
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleSeatEnv(**kwargs) for _ in range(n)],
        autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)
    ends = step_alike(ours, theirs, seed=20, rng=random.Random(name), steps=250)
    assert ends >= n
    ours.close()
    theirs.close()
