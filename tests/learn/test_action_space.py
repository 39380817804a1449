"""The fixed action space: at every decision of hundreds of random hands the mask is true exactly
for the legal choices, every masked index converts to a legal action, and the exchange's three
chained picks reach exactly the legal exchanges."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import xueliu
from xueliu.learn import (
    EXCHANGE_PICK, MULTIPLIER_SLOT, MULTIPLIER_SLOTS, NUM_ACTIONS, action_mask, describe_index,
    mask_from_observation, masks_from_observations, masks_from_states, to_action,
)

from .conftest import GAMES_PER_PRESET, decisions, masked

KIND = {xueliu.tile_name(k): k for k in range(27)}
# The documented table (docs/learning.md), written out independently of the engine's ids.
TILE_BASE = {"discard": 0, "peng": 27, "kong": 54, "concealed_kong": 81, "added_kong": 108}


def expected_index(action: xueliu.Action, allowed_values) -> int:
    if action.kind in TILE_BASE:
        return TILE_BASE[action.kind] + KIND[action.tile]
    if action.kind == "hu":
        return 135
    if action.kind == "pass":
        return 136
    if action.kind == "void":
        return 137 + "mps".index(action.suit)
    if action.kind == "multiplier":
        return MULTIPLIER_SLOT + sorted(allowed_values).index(action.value)
    raise AssertionError(f"no single index for {action!r}")


def test_the_action_space_is_one_fixed_size():
    assert NUM_ACTIONS == 140 + 27 + MULTIPLIER_SLOTS == 175
    assert EXCHANGE_PICK == 140 and MULTIPLIER_SLOT == 167
    names = {describe_index(i) for i in range(NUM_ACTIONS)}
    assert len(names) == NUM_ACTIONS
    assert describe_index(13) == "discard 5p" and describe_index(140) == "exchange pick 1m"


def test_mask_is_exactly_the_legal_actions_at_every_decision(preset):
    seen = set()
    for state, seat in decisions(preset, GAMES_PER_PRESET):
        legal = state.legal_actions(seat)
        mask = action_mask(state, seat)
        assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
        obs = state.observation(seat)
        assert np.array_equal(mask_from_observation(obs), mask)
        if legal[0].kind == "exchange":
            continue  # the picks: test below
        allowed = [a.value for a in legal if a.kind == "multiplier"]
        want = sorted(expected_index(a, allowed) for a in legal)
        assert len(set(want)) == len(legal)  # one index per legal action
        assert masked(mask) == want
        for i in want:
            assert to_action(state, seat, i) in legal
        seen.update(a.kind for a in legal)
    kinds = {"discard", "peng", "hu", "pass", "void", "concealed_kong", "kong"}
    if preset == "xuezhan":
        kinds.add("multiplier")
    assert kinds <= seen  # the random hands reached every common kind of decision


def test_masked_picks_chain_to_exactly_the_legal_exchanges(preset):
    rng = random.Random(5)
    checked = 0
    for state, seat in decisions(preset, 40):
        legal = state.legal_actions(seat)
        if legal[0].kind != "exchange":
            continue
        triples = {tuple(KIND[t] for t in a.tiles): a for a in legal}
        # Every ordering of every legal triple is allowed pick by pick and ends in that action.
        for kinds, action in triples.items():
            for order in set(itertools.permutations(kinds)):
                for n in range(3):
                    assert action_mask(state, seat, picks=order[:n])[EXCHANGE_PICK + order[n]]
                assert to_action(state, seat, EXCHANGE_PICK + order[2], picks=order[:2]) is action
        # Random masked chains always end in a legal exchange; a first pick allows only kinds
        # some legal exchange holds.
        first = masked(action_mask(state, seat))
        assert {i - EXCHANGE_PICK for i in first} == {k for t in triples for k in t}
        for _ in range(10):
            picks = []
            for _ in range(2):
                picks.append(rng.choice(masked(action_mask(state, seat, picks=picks)))
                             - EXCHANGE_PICK)
            last = rng.choice(masked(action_mask(state, seat, picks=picks)))
            assert to_action(state, seat, last, picks=picks) in legal
        checked += 1
    assert checked >= 4 * 40


def test_multiplier_slots_follow_the_allowed_values():
    rules = xueliu.Rules.preset("xueliu").replace(player_multipliers={"allowed": (4, 1, 2),
                                                                      "default": 1})
    state = xueliu.new_game(rules, seed=3)
    while state.phase != "multiplier":
        state.step({q: state.legal_actions(q)[0] for q in state.pending()})
    mask = action_mask(state, 0)
    assert masked(mask) == [MULTIPLIER_SLOT, MULTIPLIER_SLOT + 1, MULTIPLIER_SLOT + 2]
    assert [to_action(state, 0, MULTIPLIER_SLOT + i).value for i in range(3)] == [1, 2, 4]


def test_not_pending_means_an_empty_mask():
    state = xueliu.new_game("xueliu", seed=2)
    state.step({0: state.legal_actions(0)[0]})
    assert not action_mask(state, 0).any()  # answered: no longer pending
    assert action_mask(state, 1).any()


def test_masks_from_states_are_the_masks_from_observations(preset):
    """What the vector environment uses (no observation dict): the same masks at every decision
    of random hands (multiplier slots and partial exchange picks included), and the same net."""
    rng = random.Random(4)
    for state, seat in decisions(preset, 40, seed=9):
        picks = ()
        legal = state.legal_actions(seat)
        if legal[0].kind == "exchange":  # one or two kinds of a legal exchange already picked
            picks = tuple(KIND[t] for t in rng.choice(legal).tiles[:rng.randrange(3)])
        got = masks_from_states([state, state], [seat, seat], [picks, ()])
        want = masks_from_observations([state.observation(seat)] * 2, [picks, ()])
        assert np.array_equal(got, want)
        assert state.net == state.observation(seat)["net"]


def test_masks_from_states_refuses_mismatched_lengths():
    state = xueliu.new_game("xueliu", seed=2)
    with pytest.raises(ValueError):
        masks_from_states([state], [0, 1])
    with pytest.raises(ValueError):
        masks_from_states([state], [0], picks=[(), ()])


def test_out_arrays_are_filled_in_place():
    state = xueliu.new_game("xueliu", seed=2)
    out = np.zeros(NUM_ACTIONS, np.bool_)
    assert action_mask(state, 1, out=out) is out and out.any()
    batch = np.zeros((2, NUM_ACTIONS), np.bool_)
    obs = [state.observation(1), state.observation(2)]
    assert masks_from_observations(obs, out=batch) is batch
    assert np.array_equal(batch[1], action_mask(state, 2))


@pytest.mark.parametrize("index, picks, error", [
    (-1, (), ValueError), (NUM_ACTIONS, (), ValueError), (1.5, (), TypeError),
    (True, (), TypeError), (0, (), ValueError),  # a discard during the exchange
    (EXCHANGE_PICK, (), ValueError),  # an exchange pick completes only the third
    (EXCHANGE_PICK, (0, 1, 2), ValueError), (EXCHANGE_PICK, (27,), ValueError),
    (EXCHANGE_PICK, "ab", TypeError), (MULTIPLIER_SLOT, (), ValueError),
])
def test_bad_indices_and_picks_are_refused(index, picks, error):
    state = xueliu.new_game("xueliu", seed=1)
    with pytest.raises(error):
        to_action(state, 0, index, picks=picks)


def test_an_illegal_triple_is_refused_and_picks_outside_the_exchange_too():
    state = xueliu.new_game("xueliu", seed=1)  # seat 0 holds 2m 2m 7m, no 1m
    with pytest.raises(ValueError, match="not legal"):
        to_action(state, 0, EXCHANGE_PICK + 0, picks=(1, 1))
    while state.phase == "exchange":
        state.step({q: state.legal_actions(q)[0] for q in state.pending()})
    with pytest.raises(ValueError, match="not choosing an exchange"):
        action_mask(state, 0, picks=(1,))
