"""The observation-dict encoder (python/xueliu/learn/encoders.py, the definition of ``obs_v1``:
a function of ``state.observation(seat)`` alone) and the native encoder that reads the hand in
progress (``_core.encode_obs_v1`` through python/xueliu/learn/view_encoding.py) are two
implementations of one tensor. tests/learn/test_view_encoding.py compares them over random play;
here they are compared for every seat at the rare moments random play seldom reaches: the
抢杠胡 window (the robbed tile on view, out of the konger's hand), the steps after a 血流 win
(a frozen hand, its set-aside tile, a second win on it, one discard won by two seats), 倒倒胡's
and 血战's ended hands, four-seat tables of other shapes (两房, 10-tile hands) — and, at tables of
2 and 3 seats, which the native encoder does not take, the refusal that names the table, while a
game state there is encoded by the dict path, as its observation is."""

from __future__ import annotations

import random

import numpy as np
import pytest

import xueliu
from xueliu.learn import encoder
from xueliu.learn.view_encoding import obs_v1_of_states, oracle_extra_from_states
from xueliu.rules import Rules

from .conftest import act, build_wall, find, greedy_chooser, new_game, xl_rules
from .test_kongs import KANCHAN_5P, robbed

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")


def native(enc, state: xueliu.GameState, seat: int, picks=()) -> np.ndarray:
    x = np.full((1, *enc.shape), 7, np.float32)  # every value is written
    obs_v1_of_states([state], [seat], [picks], x)
    if enc is ORACLE:
        oracle_extra_from_states([state], [seat], x)
    return x[0]


def by_dict(enc, state: xueliu.GameState, seat: int, picks=()) -> np.ndarray:
    if enc is OBS:
        return OBS.encode(state.observation(seat), picks=picks)
    rows: list = []
    enc._rows(state, seat, picks, rows)
    return enc._copy(rows, np.empty(enc.shape, enc.dtype))


def assert_twins_agree(state: xueliu.GameState, where: str) -> None:
    for seat in range(state.seats):
        for enc in (OBS, ORACLE):
            a, b = native(enc, state, seat), by_dict(enc, state, seat)
            if not np.array_equal(a, b):
                rows = sorted({enc.channels[i] for i in np.argwhere(a != b)[:, 0]})
                raise AssertionError(f"{where}: seat {seat}, {enc.name} differs in {rows}")


def channel(enc, x: np.ndarray, name: str) -> np.ndarray:
    return x[enc.channels.index(name)]


def test_the_robbing_window_is_encoded_alike_for_every_seat():
    _, state = robbed()
    assert state.phase == "claim" and state.observation(None)["claim"]["kind"] == "rob"
    assert_twins_agree(state, "抢杠胡 window")
    x = native(OBS, state, 1)
    assert channel(OBS, x, "claim_is_rob").all() and channel(OBS, x, "phase_claim").all()
    five_p = xueliu.tiles.tile_index("5p")
    assert channel(OBS, x, "claim_tile")[five_p] == 1
    assert channel(OBS, x, "visible_4")[five_p] == 1  # peng 3 + the tile being robbed
    act(state, 1, "hu")  # robbed: seat 1's hand is frozen, the 5p set aside
    assert_twins_agree(state, "after the robbing win")


def test_two_robbers_and_the_turns_after_a_xueliu_win_are_encoded_alike():
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", KANCHAN_5P],
                    draws=["?", "?", "?", "5p"] + ["?"] * 12)
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "5p"),
                3: find(state, 3, "pass")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    assert_twins_agree(state, "a window two seats may rob")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    steps = 0
    while not state.is_over and steps < 40:  # frozen hands draw and discard automatically
        assert_twins_agree(state, f"step {steps} after two robbing wins")
        (q,) = state.pending()
        state.step({q: state.legal_actions(q)[0]})
        steps += 1
    assert steps >= 10


def states_after_wins(rules: Rules, hands: int, seed: str):
    """Every decision of greedy hands from the first win on, and each ended hand."""
    for index in range(hands):
        choose = greedy_chooser(f"{seed}-{index}", peng_rate=0.3)
        state = xueliu.new_game(rules, seed=index, dealer=index % rules.players)
        while not state.is_over:
            if state.settlement().wins:
                yield state
            state.step({q: choose(state, q) for q in state.pending()})
        yield state


@pytest.mark.parametrize("table", ["xueliu", "xuezhan", "daodaohu", "siren_liangfang",
                                   "xueliu_10_tiles"])
def test_every_decision_after_a_win_is_encoded_alike(table):
    rules = (Rules.preset("xueliu").replace(hand_size=10, seven_pairs=False)
             if table == "xueliu_10_tiles" else Rules.preset(table))
    rng = random.Random(table)
    compared = ended = 0
    for state in states_after_wins(rules, 8, table):
        if state.is_over or rng.random() < 0.3:
            assert_twins_agree(state, f"{table}, {len(state.settlement().wins)} wins")
            compared += 1
            ended += state.is_over
    assert ended == 8 and compared >= (8 if rules.mode == "daodaohu" else 20)


@pytest.mark.parametrize("preset", ["sanren_liangfang", "sanren_sanfang", "erren_yifang"])
def test_at_two_and_three_seats_the_native_encoder_refuses_and_states_take_the_dict_path(preset):
    rules = Rules.preset(preset)
    checked = 0
    for state in states_after_wins(rules, 6, preset):
        for seat in range(rules.players):
            with pytest.raises(ValueError, match="_hands"):
                native(OBS, state, seat)
            from_state = OBS.encode(state, seat)
            assert np.array_equal(from_state, OBS.encode(state.observation(seat)))
            batch = OBS.encode_batch([state, state], [seat, seat])
            assert np.array_equal(batch[0], from_state) and np.array_equal(batch[1], from_state)
            checked += 1
    assert checked > 10
