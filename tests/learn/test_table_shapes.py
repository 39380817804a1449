"""Learning at every table of docs/rules.md §11.4: the environments have one agent per seat, the checkers
pass, obs_v1 keeps its array with empty places and absent suits zero, masks offer no tile of a
suit not in play, and a seat's tensor is blind to what it may not see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import xueliu
from xueliu.bots import NeuralBot
from xueliu.bots.neural_net import UntrainedRulesError
from xueliu.envs import SingleSeatEnv, VectorEnv, parallel_env, pettingzoo_env
from xueliu.learn import EXCHANGE_PICK, NUM_ACTIONS, encoder, masks_from_states

from hidden_twins import same_view_states, twin_hands

PRESETS = ["sanren_liangfang", "sanren_sanfang", "siren_liangfang", "erren_yifang", "daodaohu"]


def table(preset: str) -> xueliu.Rules:
    """The rules of a §11.4 preset's table, as the preset has them."""
    return xueliu.Rules.preset(preset)
OBS = encoder("obs_v1")
PLACES = ("self", "next", "across", "prev")


def _decisions(preset: str, games: int):
    rng = random.Random(preset)
    for g in range(games):
        rules = table(preset)
        state = xueliu.new_game(rules, seed=g, dealer=g % rules.players)
        while not state.is_over:
            yield state
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})


@pytest.mark.parametrize("preset", PRESETS)
def test_the_pettingzoo_checkers_pass_with_one_agent_per_seat(preset):
    n = table(preset).players
    env = pettingzoo_env(rules=table(preset))
    assert env.possible_agents == [f"player_{q}" for q in range(n)]
    api_test(env, num_cycles=300)
    penv = parallel_env(rules=table(preset))
    assert penv.possible_agents == [f"player_{q}" for q in range(n)]
    parallel_api_test(penv, num_cycles=300)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_gymnasium_checker_passes_against_the_other_seats_bots(preset):
    n = table(preset).players
    env = SingleSeatEnv(opponents=["random"] * (n - 1), rules=table(preset))
    check_env(env)
    obs, info = env.reset(seed=4)
    assert info["seat"] in range(n) and obs["observation"].shape == OBS.shape
    with pytest.raises(ValueError, match=f"{n - 1} other seats"):
        SingleSeatEnv(opponents=["random"] * n, rules=table(preset))
    with pytest.raises(ValueError, match="seat is 0"):
        SingleSeatEnv(rules=table(preset), seat=n)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_vector_env_plays_whole_hands_of_the_table(preset):
    envs = VectorEnv(3, rules=table(preset), opponents=None)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
        obs, rewards, terms, _, _ = envs.step(actions)
        ended += int(terms.sum())
    assert ended > 0 and obs["observation"].shape == (3, *OBS.shape)


@pytest.mark.parametrize("preset", PRESETS)
def test_obs_v1_leaves_empty_places_and_absent_suits_zero(preset):
    shape = table(preset).shape
    absent = [k for k in range(27) if k not in shape.kinds]
    empty = [PLACES[r] for r, d in enumerate(shape.places) if d is None]
    for state in _decisions(preset, 4):
        for seat in range(shape.players):
            x = OBS.encode(state.observation(seat))
            assert x.shape == OBS.shape
            for name in OBS.channels:
                if name.endswith(tuple(empty)) or any(f"_{p}_" in name for p in empty):
                    assert not x[OBS.channels.index(name)].any(), name
            tile_planes = [i for i, (n, d) in enumerate(OBS.channel_docs)
                           if d.startswith("tile plane")]
            assert not x[tile_planes][:, absent].any()
            # the seats present: every one has concealed tiles, so its hand_size bar is not empty
            for r, d in enumerate(shape.places):
                assert x[OBS.channels.index(f"hand_size_{PLACES[r]}")].any() == (d is not None)


@pytest.mark.parametrize("preset", PRESETS)
def test_masks_never_offer_a_tile_of_a_suit_not_in_play(preset):
    shape = table(preset).shape
    absent = [k for k in range(27) if k not in shape.kinds]
    bad = [base + k for base in (0, 27, 54, 81, 108, EXCHANGE_PICK) for k in absent]
    for state in _decisions(preset, 4):
        seats = list(state.pending())
        masks = masks_from_states([state] * len(seats), seats)
        assert masks.shape == (len(seats), NUM_ACTIONS) and masks.any(axis=1).all()
        assert not masks[:, bad].any()
        if not shape.declare_void_possible:
            assert not masks[:, 137:140].any()


@pytest.mark.parametrize("variant", ["live_wall", "other_hands"])
@pytest.mark.parametrize("preset", PRESETS)
def test_obs_v1_is_blind_to_hidden_tiles_at_every_table(preset, variant):
    """Two hands that differ only in hidden tiles — two tiles swapped deep in the live wall, or
    between another seat's hand and a third seat's hand (with two seats: the live wall), played
    with the same decisions: wherever the seat's observation is the same, so is obs_v1."""
    rng = random.Random(11)
    compared = 0
    for a, b, seat in twin_hands(table(preset), variant, 20, rng):
        for _ in same_view_states(a, b, seat, rng):
            oa, ob = a.observation(seat), b.observation(seat)
            assert np.array_equal(OBS.encode(a, seat), OBS.encode(b, seat))
            assert np.array_equal(OBS.encode(oa), OBS.encode(ob))
            compared += 1
    assert compared > 50


def test_the_native_and_dict_paths_agree_at_every_table():
    for preset in PRESETS:
        n = table(preset).players
        for state in _decisions(preset, 2):
            seats = list(range(n))
            batch = OBS.encode_batch([state] * n, seats)
            for q in seats:
                assert np.array_equal(batch[q], OBS.encode(state.observation(q)))


@pytest.mark.parametrize("preset", PRESETS)
def test_the_neural_bot_refuses_a_table_it_was_not_trained_for(preset):
    with pytest.raises(UntrainedRulesError, match="trained for the presets"):
        NeuralBot().start_hand(0, table(preset), 0)
