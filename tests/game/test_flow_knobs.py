"""The §11.2 flow knobs of the claim window: 只能自摸 (``self_draw_only``), ``rob_kong`` off and
起胡番 (``min_fan_discard_win``). A win that is not offered is no claim at all: with nothing else
to claim the next seat draws, and a self-draw is never restricted."""

from .conftest import act, build_wall, has, kinds, new_game, peng_5p_then_round, transfers, xl_rules
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


def held_copy_added_kong(rules):
    # test_kongs: seat 2 pengs the dealer's 5p keeping its third 5p, adds it on a later turn
    sw = build_wall(["5p *", "*", "555p 9s *", "*"], draws=["?", "?", "?", "?"])
    state = peng_5p_then_round(rules, sw, "9s")
    act(state, 2, "added_kong", "5p")
    return sw, state


def test_fresh_only_an_added_kong_of_a_held_tile_is_made_but_pays_nothing():
    sw, state = held_copy_added_kong(xl_rules(added_kong_payment="fresh_only"))
    assert transfers(state) == []
    assert ("kong", "5p") in [(m["type"], m["tile"])
                               for m in state.observation(2)["melds"][2]]
    assert state.pending() == [2]  # the replacement draw still comes


def test_fresh_only_an_added_kong_of_the_tile_just_drawn_pays():
    _, state = robbed(xl_rules(added_kong_payment="fresh_only"))
    act(state, 1, "pass")
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]


def test_fresh_only_an_added_kong_of_a_replacement_draw_pays():
    # seat 2 pengs 5p, later draws its fourth 9s: concealed kong, and the replacement is the 5p
    sw = build_wall(["5p *", "*", "55p 999s 8s *", "*"], draws=["?", "?", "?", "9s"], back=["5p"])
    state = new_game(xl_rules(added_kong_payment="fresh_only", kong_draw_from="back"), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "8s")
    for seat, i in ((3, 0), (0, 1), (1, 2)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 2, "concealed_kong", "9s")
    before = len(transfers(state))
    act(state, 2, "added_kong", "5p")
    assert [t for t in transfers(state)[before:]] == [(3, 2, 1, "gang"), (0, 2, 1, "gang"),
                                                       (1, 2, 1, "gang")]
