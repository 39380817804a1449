"""Random legal play with each §11.2 claim-window knob on (只能自摸, rob_kong off, 起胡番, 过手杠 fresh_only) and in
the two fhh-qp rooms that need 起胡番 2: every tile stays accounted for, transfers sum to zero
(house income aside), the record replays, and no win breaks the knob."""

import json
import random

import pytest

import xueliu
from xueliu.rules import Rules

from .test_shape_invariants import play_to_end

HANDS = 200
DEEP = 20  # the first hands check tiles and money after every step

ROOMS = {
    "self_draw_only": Rules.preset("xueliu").replace(self_draw_only=True),
    "no_rob_kong": Rules.preset("xueliu").replace(rob_kong=False),
    "fresh_only": Rules.preset("xueliu").replace(added_kong_payment="fresh_only"),
    "fresh_only_on_win": Rules.preset("xuezhan").replace(added_kong_payment="fresh_only",
                                                         kong_settle="on_win"),
    "min_fan_3": Rules.preset("xueliu").replace(min_fan_discard_win=3,
                                                pass_blocks_discard_win="not_higher"),
    "min_fan_2_xuezhan": Rules.preset("xuezhan").replace(min_fan_discard_win=2),
    "sanren_liangfang": Rules.preset("sanren_liangfang"),
    "sanren_sanfang": Rules.preset("sanren_sanfang"),
}


def play(rules: Rules, index: int, deep: bool) -> xueliu.GameState:
    rng = random.Random(f"flow-{index}")
    state = xueliu.new_game(rules, seed=index, dealer=rng.randrange(rules.players))
    play_to_end(state, rng, greedy_share=0.6, timeouts=0, deep=deep)
    again = xueliu.replay(json.loads(json.dumps(state.record())))
    assert again.events() == state.events() and again.settlement().net == state.settlement().net
    return state


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_random_play_with_a_claim_window_knob_keeps_every_invariant(name):
    rules = ROOMS[name]
    sources = set()
    for i in range(HANDS):
        state = play(rules, i, i < DEEP)
        for w in state.settlement().wins:
            sources.add(w.source)
            if w.source != "self_draw":
                assert not rules.self_draw_only
                assert rules.rob_kong or w.source != "robbed_kong"
                assert w.fan_result.fan >= rules.min_fan_discard_win
    assert "self_draw" in sources
    assert rules.self_draw_only or "discard" in sources
