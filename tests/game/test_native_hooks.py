"""The engine's native hooks (cpp/bindings/bind_engine.cpp) take only what they should: a call
they do not handle changes nothing and leaves ``step`` to check it and raise as always, and they
refuse anything that is not a hand in progress. (That they play the rules exactly is shown by the
recorded corpus, tests/game/test_corpus_replay.py, and the invariants over thousands of hands.)"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import xueliu
from xueliu import _core
from xueliu.game.actions import CONCEALED_KONG, DISCARD, HU, PASS


def on_turn(seed: int = 3) -> xueliu.GameState:
    """A hand at its first discard decision (exchange and void chosen at random)."""
    rng = random.Random(seed)
    state = xueliu.new_game("xueliu", seed=seed)
    while state.phase != "turn":
        state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
    return state


def snapshot(state: xueliu.GameState):
    return (state.observation(None), len(state._decisions), copy.deepcopy(state._legal),
            list(state._pending))


def test_turn_step_leaves_every_other_call_to_step():
    state = on_turn()
    seat = state.pending()[0]
    held = [a for a in state.legal_actions(seat) if a.kind == "discard"]
    not_held = [a for a in DISCARD if a not in state.legal_actions(seat)]
    other = (seat + 1) % 4
    before = snapshot(state)
    for s, action in [(other, held[0]),             # not the seat on turn
                      (seat, not_held[0]),          # a tile it does not hold
                      (seat, PASS), (seat, HU),     # not a discard
                      (seat, CONCEALED_KONG[0]),
                      (np.int64(seat), held[0]),    # not a plain int: step's own path
                      (True if seat == 1 else seat + 4, held[0]),
                      (seat, held[0].id)]:          # an id, not the action
        assert _core.turn_step(state, s, action) == -1
        assert snapshot(state) == before
    with pytest.raises(ValueError):
        state.step({other: held[0]})
    with pytest.raises(ValueError):
        state.step({seat: not_held[0]})
    assert snapshot(state) == before
    state.step({np.int64(seat): held[0]})  # step's own path plays it
    assert state._decisions[-1] == (seat, held[0].id)


def test_turn_step_does_nothing_outside_a_turn():
    state = xueliu.new_game("xueliu", seed=5)  # the exchange
    seat = state.pending()[0]
    before = snapshot(state)
    for action in DISCARD:
        assert _core.turn_step(state, seat, action) == -1
    assert snapshot(state) == before


@pytest.mark.parametrize("call", [
    lambda g: _core.turn_step(g, 0, DISCARD[0]),
    lambda g: _core.turn_discard(g, 0, 0),
    lambda g: _core.turn_draw(g, 0),
])
def test_hooks_refuse_what_is_not_a_hand(call):
    for thing in (None, {}, object(), xueliu.Rules.preset("xueliu")):
        with pytest.raises(TypeError):
            call(thing)


def test_exchange_options_refuses_what_is_not_a_hand():
    for bad in (bytes(27), bytearray(26), [1] * 27, None):
        with pytest.raises(TypeError):
            _core.exchange_options(bad, True)
