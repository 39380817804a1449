"""Issue 7 §5: the dice never come from hidden tiles (``new_game(dice=...)``, fresh entropy kept in
the record), and ids and seats out of range are errors, not empty answers."""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu import Action, Rules
from xueliu.game.actions import EXCHANGE4_END, MAX_MULTIPLIER, MULTIPLIER_BASE, NUM_ACTIONS
from xueliu.game.wall import SplitMix64, break_point, seed_from_tiles

KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def a_wall(seed: int) -> list:
    wall = [t for t in KINDS for _ in range(4)]
    random.Random(seed).shuffle(wall)
    return wall


def play_out(state) -> None:
    while not state.is_over:
        seat = state.pending()[0]
        state.step({seat: state.legal_actions(seat)[-1]})


# -- dice ---------------------------------------------------------------------------------------


def test_given_dice_are_the_dice_of_the_hand_and_set_the_break():
    state = xueliu.new_game("xueliu", wall=a_wall(1), dealer=2, dice=(6, 5))
    assert state.dice == (6, 5)
    assert state.break_point == break_point(2, (6, 5))
    start = state.events()[0]
    assert start["dice"] == [6, 5] and start["break"] == {"wall": (2 + 11 - 1) % 4, "stack": 11}


def test_given_dice_are_recorded_and_replayed():
    state = xueliu.new_game("xuezhan", wall=a_wall(2), dice=[1, 2])
    play_out(state)
    rec = state.record()
    assert rec["dice"] == [1, 2] and rec["wall"] == state.wall and isinstance(rec["seed"], int)
    again = xueliu.replay(rec)
    assert again.dice == (1, 2) and again.events() == state.events()
    assert again.record() == rec


def test_a_seed_rolls_the_dice_and_then_no_dice_key_is_recorded():
    wall = a_wall(6)
    assert xueliu.new_game("xueliu", seed=77).dice == xueliu.new_game("xueliu", seed=77).dice
    assert xueliu.new_game("xueliu", seed=77, wall=wall).dice \
        == xueliu.new_game("xueliu", seed=77, wall=wall).dice
    assert "dice" not in xueliu.new_game("xueliu", seed=77).record()
    assert "dice" not in xueliu.new_game("xueliu", seed=77, wall=wall).record()


def test_without_seed_or_dice_the_dice_do_not_follow_the_wall():
    """The same (hidden) wall dealt again and again: the dice vary, so they tell nothing about
    it. (All 40 equal would happen with probability 36**-39.)"""
    wall = a_wall(3)
    states = [xueliu.new_game("xueliu", wall=wall) for _ in range(40)]
    assert len({s.dice for s in states}) > 1
    for s in states[:5]:  # each keeps the seed that rolled them, so replay rolls them again
        again = xueliu.replay(s.record())
        assert again.dice == s.dice and again.events() == s.events()


def test_the_exchange_direction_does_not_follow_the_wall_either():
    wall = a_wall(4)
    rules = Rules.preset("xuezhan")  # exchange_direction = "random"
    directions = set()
    for _ in range(40):
        state = xueliu.new_game(rules, wall=wall)
        for seat in state.pending():
            state.step({seat: state.legal_actions(seat)[0]})
        directions.add(state.events()[1]["direction"])
    assert len(directions) > 1


def test_a_record_without_seed_or_dice_replays_with_the_dice_it_was_played_with():
    """Records written before dice= existed hold a wall and no seed; their dice came from a hash
    of the wall, and replay keeps them (the recorded corpus holds such records too)."""
    wall = a_wall(5)
    rec = xueliu.new_game("xueliu", wall=wall).record()
    rec = {**rec, "seed": None, "result": None}
    rng = SplitMix64(seed_from_tiles([KINDS.index(t) for t in wall]))
    state = xueliu.replay(rec)
    assert state.dice == (rng.die(), rng.die())
    assert state.record()["seed"] is None


@pytest.mark.parametrize("dice, error", [
    ((0, 3), ValueError), ((1, 7), ValueError), ((3,), ValueError), ((1, 2, 3), ValueError),
    ((True, 2), ValueError), ((1.0, 2), ValueError), ("34", TypeError), (34, TypeError),
])
def test_bad_dice_are_refused(dice, error):
    with pytest.raises(error, match="dice must be two ints 1..6"):
        xueliu.new_game("xueliu", seed=1, dice=dice)


# -- ids and seats -----------------------------------------------------------------------------


def test_action_ids_outside_the_action_space_are_value_errors():
    for bad in (10**9, NUM_ACTIONS, -1, -10**9):
        with pytest.raises(ValueError, match="no action has id"):
            Action.from_id(bad)
    # The largest multiplier ends its block; the four-tile exchanges (换四张) follow it.
    assert Action.from_id(MULTIPLIER_BASE + MAX_MULTIPLIER - 1) == Action("multiplier",
                                                                         value=MAX_MULTIPLIER)
    assert Action.from_id(EXCHANGE4_END - 1) == Action("exchange", tiles=("9s",) * 4)
    # The wild-tile actions (docs/rules.md §12.3) follow: the 红中 discard, then 提 by kind.
    assert Action.from_id(EXCHANGE4_END) == Action("discard", "7z")
    assert Action.from_id(NUM_ACTIONS - 1) == Action("swap_back", "9s")
    assert Action.from_id(MULTIPLIER_BASE).value == 1
    with pytest.raises(ValueError, match="multiplier action needs an int value 1..1024"):
        Action("multiplier", value=MAX_MULTIPLIER + 1)


def test_a_step_with_an_id_outside_the_action_space_changes_nothing():
    state = xueliu.new_game("xueliu", seed=3)
    before = state.observation(None)
    with pytest.raises(ValueError, match="no action has id 1000000000"):
        state.step({0: 10**9})
    assert state.observation(None) == before and state.record()["decisions"] == []


def test_player_multipliers_beyond_the_action_space_are_refused_up_front():
    rules = Rules.preset("xuezhan").replace(
        player_multipliers={"allowed": (2, MAX_MULTIPLIER * 2), "default": 2})
    with pytest.raises(ValueError, match="player_multipliers allows 2048"):
        xueliu.new_game(rules, seed=1)
    top = Rules.preset("xuezhan").replace(
        player_multipliers={"allowed": (1, MAX_MULTIPLIER), "default": 1})
    state = xueliu.new_game(top, seed=1)
    while state.phase != "multiplier":
        seat = state.pending()[0]
        state.step({seat: state.legal_actions(seat)[0]})
    assert Action("multiplier", value=MAX_MULTIPLIER) in state.legal_actions(state.pending()[0])


@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_legal_actions_of_a_seat_outside_the_table_is_a_value_error(seat):
    state = xueliu.new_game("xueliu", seed=4)
    with pytest.raises(ValueError, match="a seat is 0..3"):
        state.legal_actions(seat)


def test_legal_actions_of_a_seat_that_is_not_pending_is_empty_and_wrong_types_are_type_errors():
    state = xueliu.new_game(Rules.preset("xueliu").replace(exchange_three=False,
                                                           declare_void=False), seed=4)
    assert state.pending() == [0]
    assert state.legal_actions(1) == [] and state.legal_actions(0)
    import numpy as np
    assert state.legal_actions(np.int64(0)) == state.legal_actions(0)
    for bad in ("0", 0.0, True, None):
        with pytest.raises(TypeError, match="a seat is an int"):
            state.legal_actions(bad)
