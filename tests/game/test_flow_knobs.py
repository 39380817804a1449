"""The §11.2 flow knobs of the claim window: 只能自摸 (``self_draw_only``), ``rob_kong`` off and
起胡番 (``min_fan_discard_win``). A win that is not offered is no claim at all: with nothing else
to claim the next seat draws, and a self-draw is never restricted."""

from .conftest import act, build_wall, has, kinds, new_game, transfers, xl_rules
from .test_kongs import KANCHAN_5P, robbed

TANKI_5P = "123m456m789m123p5p"  # 平胡, waiting on 5p alone


def test_self_draw_only_offers_no_discard_win():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(self_draw_only=True), sw)
    act(state, 0, "discard", "5p")
    # no claim window: seat 1 simply draws its turn
    assert state.pending() == [1]
    assert not has(state, 1, "pass")
    assert not state.settlement().wins


def test_self_draw_only_still_wins_by_self_draw():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(self_draw_only=True), sw)
    act(state, 0, "discard", "5p")
    assert has(state, 1, "hu")
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.seat == 1 and win.source == "self_draw"


def test_without_self_draw_only_the_same_discard_is_offered():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert kinds(state, 1) == {"hu", "pass"}


def test_self_draw_only_opens_no_robbing_window():
    # test_kongs.robbed's scenario; seat 1 is not asked about the first 5p either
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", "*"], draws=["?", "?", "?", "5p", "?"])
    state = new_game(xl_rules(self_draw_only=True), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    assert state.pending() == [2]
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]


def test_an_added_kong_cannot_be_robbed_without_rob_kong():
    sw, state = robbed(xl_rules(rob_kong=False))
    # the kong is made at once: paid and replaced, seat 1 is never asked
    assert state.pending() == [2]
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]
    assert has(state, 2, "discard", sw.draws[4])


def test_a_pinghu_discard_win_is_not_offered_below_the_minimum_fan_but_a_gangshangpao_pinghu_is():
    rules = xl_rules(min_fan_discard_win=2, kong_draw_from="back")
    plain = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["?"])
    state = new_game(rules, plain)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1] and not has(state, 1, "hu")  # 平胡 alone: 1 fan < 2
    after_kong = build_wall(["9999s 5p *", TANKI_5P, "*", "*"], draws=["?"], back=["?"])
    state = new_game(rules, after_kong)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    assert kinds(state, 1) == {"hu", "pass"}  # 杠上炮 adds a fan: 2
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "discard" and win.fan_result.fan >= 2


def test_a_self_drawn_pinghu_wins_below_the_minimum_fan():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(min_fan_discard_win=3), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "self_draw"


def test_a_win_not_offered_below_the_minimum_fan_is_no_pass_for_guoshui():
    # 过水 "any" would block seat 1 after a passed win; the 平胡 it was never offered is no pass
    rules = xl_rules(min_fan_discard_win=2, pass_blocks_discard_win="any", kong_draw_from="back")
    sw = build_wall(["5p *", TANKI_5P, "9999s 5p *", "*"], draws=["?", "?"], back=["?"],
                    quiet_distinct=True)
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1]
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "concealed_kong", "9s")
    act(state, 2, "discard", "5p")
    assert kinds(state, 1) == {"hu", "pass"}  # 杠上炮 平胡, 2 fan, and no block
