"""The built-in bots at every table shape of docs/rules.md §11.1: legal, finished hands, and the expert's
counts over the tiles of that table (issue 17, layer 4)."""

from __future__ import annotations

import pytest

import xueliu
from xueliu.bots import AutoPlayBot, ExpertBot, GreedyBot, RandomBot, play_hand
from xueliu.bots.expert_view import read_view
from xueliu.rules import Rules

# The rooms of §11.4: their shapes, and daodaohu's one-win flow (docs/rules.md §11.2).
SHAPES = ["sanren_liangfang", "sanren_sanfang", "siren_liangfang", "erren_yifang", "daodaohu"]
BOTS = [RandomBot, AutoPlayBot, GreedyBot, ExpertBot]


def _rules(name: str) -> Rules:
    return Rules.preset(name)


@pytest.mark.parametrize("name", SHAPES)
@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_every_bot_plays_whole_hands_of_every_room_shape(name: str, bot: type) -> None:
    rules = _rules(name)
    for seed in range(3):
        # play_hand makes the engine refuse any action that is not legal (ValueError).
        state = play_hand(xueliu.new_game(rules, seed=seed), [bot() for _ in rules.shape.seats])
        assert state.is_over


def test_a_hand_needs_one_bot_a_seat_of_its_table() -> None:
    rules = _rules("sanren_liangfang")
    with pytest.raises(ValueError, match="needs 3 bots"):
        play_hand(xueliu.new_game(rules, seed=1), [RandomBot() for _ in range(4)])


def test_the_expert_counts_unseen_tiles_of_a_liangfang_wall_as_72_less_what_it_sees() -> None:
    rules = _rules("sanren_liangfang")
    state = xueliu.new_game(rules, seed=4)
    obs = state.observation(0)
    view = read_view(obs, rules.shape)
    assert len(view.seats) == 3 and view.suits == (1, 2)
    assert sum(view.remaining[:9]) == 0  # no 万 in play: none unseen
    assert view.unseen == 72 - len(obs["hand"])
    default = read_view(xueliu.new_game(seed=4).observation(0))
    assert default.unseen == 108 - 14


def test_the_expert_counts_a_discard_win_below_the_minimum_fan_as_worth_nothing() -> None:
    # 起胡番 2 (sanren_liangfang): a 1-fan wait is won only by a self-draw; 只能自摸: every wait
    for rules, floor in ((_rules("sanren_liangfang"), 2.0),
                         (Rules.preset("xueliu").replace(self_draw_only=True), float("inf")),
                         (Rules.preset("xueliu"), 0.0)):
        view = read_view(xueliu.new_game(rules, seed=4).observation(0), rules.shape)
        ctx = ExpertBot(rules=rules)._context(view, rules)
        assert ctx.discard_win_min == floor
        self_draw_only_pay = ctx.hit_pay(0.0, 2.0)
        assert (ctx.hit_pay(1.0, 2.0) == self_draw_only_pay) == (floor > 1.0)
        assert ctx.hit_pay(4.0, 2.0) > self_draw_only_pay or floor == float("inf")


def test_the_expert_expects_a_daodaohu_hand_to_end_at_the_first_win_sooner_than_xuezhan() -> None:
    from xueliu.bots.expert_value import first_win_horizon, game_horizon

    ready = [0.5, 0.2, 0.9]
    first_draws, first_lasts = first_win_horizon(12.0, ready)
    all_draws, all_lasts = game_horizon(12.0, ready)
    # 倒倒胡 ends at the first of the others' wins, 血战 at the last of them
    assert 0.0 < first_draws < all_draws <= 12.0 and 0.0 < first_lasts < all_lasts < 1.0
    assert first_win_horizon(12.0, []) == (12.0, 1.0)  # nobody else to win: the wall decides
