"""deal_in_costs (点炮的代价): on every turn of random hands, for every kind the seat holds, the
cost it names is what a copy of the hand pays in ``hu`` transfers when that kind is discarded
and every seat offered ``hu`` takes it — across the rooms whose knobs change who may win
(只能自摸, 起胡番, 过水, 血战's leaving winners, three-player tables)."""

import copy
import random

import pytest

import xueliu
from xueliu.bots import make_bot, start_hand_for
from xueliu.game.deal_in_costs import deal_in_costs
from xueliu.rules import Rules
from xueliu.tiles import tile_index

ROOMS = {
    "xueliu": Rules.preset("xueliu"),
    "xuezhan": Rules.preset("xuezhan"),
    "self_draw_only": Rules.preset("xueliu").replace(self_draw_only=True),
    "min_fan_2_pass_block": Rules.preset("xueliu").replace(
        min_fan_discard_win=2, pass_blocks_discard_win="not_higher"),
    "pass_block_any": Rules.preset("xuezhan").replace(pass_blocks_discard_win="any"),
    "sanren_liangfang": Rules.preset("sanren_liangfang"),
}


def paid_by_discarding(state: xueliu.GameState, seat: int, kind: str) -> int:
    """What ``seat`` pays in ``hu`` transfers when a copy of the hand discards ``kind`` and every
    seat offered ``hu`` takes it."""
    trial = copy.deepcopy(state)
    before = len(trial.settlement().transfers)
    trial.step({seat: xueliu.Action("discard", kind)})
    if trial.phase == "claim":
        answers = {}
        for s in trial.pending():
            legal = trial.legal_actions(s)
            hu = [a for a in legal if a.kind == "hu"]
            answers[s] = hu[0] if hu else next(a for a in legal if a.kind == "pass")
        if answers:
            trial.step(answers)
    # Only the wins on this discard: play may go on to a forced self-draw (强制胡) at the end.
    new = trial.settlement().transfers[before:]
    return sum(t.amount for t in new
               if t.reason == "hu" and t.payer == seat and f"discard of seat {seat}" in t.detail)


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_each_kinds_cost_is_what_discarding_it_pays(room: str) -> None:
    rules = ROOMS[room]
    rng = random.Random(room)
    checked = paid = 0
    for index in range(12):
        state = xueliu.new_game(rules, seed=index, dealer=index % rules.players)
        bots = [make_bot("greedy", seed=index * 7 + s, rules=rules) for s in range(rules.players)]
        for s, bot in enumerate(bots):
            start_hand_for(bot, s, rules, index * 7 + s)
        while not state.is_over:
            if state.phase == "turn" and rng.random() < 0.5:
                seat = state.turn
                costs = deal_in_costs(state)
                held = {a.tile for a in state.legal_actions(seat) if a.kind == "discard"}
                for kind in sorted(held):
                    k = tile_index(kind)
                    assert costs[k] == paid_by_discarding(state, seat, kind), (room, index, kind)
                    checked += 1
                    paid += costs[k] > 0
                counts = state.hand(seat).counts
                assert all(costs[k] == 0 for k in range(27) if not counts[k])
            answers = {s: bots[s].act_view(state.view(s), state.legal_actions(s))
                       for s in state.pending()}
            state.step(answers)
    assert checked > 300
    if not rules.self_draw_only:
        assert paid > 0  # the check saw discards that deal in, not only safe ones
    else:
        assert paid == 0


def test_outside_a_turn_it_refuses() -> None:
    state = xueliu.new_game("xueliu", seed=1)  # the exchange comes first
    with pytest.raises(ValueError, match="not on a turn"):
        deal_in_costs(state)
