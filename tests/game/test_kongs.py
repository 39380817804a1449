"""Kong flow (docs/rules.md §2, §4, §10): replacement draws, which kongs can be made when, robbing, and no
kong on an empty wall. Payments are in test_settlement_kongs.py."""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    kinds,
    last_draw,
    new_game,
    play_until,
    transfers,
    xl_rules,
)

KANCHAN_5P = "123m456m789m11p46p"


def test_kong_draw_from_front_takes_the_next_live_tile():
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?", "?"], back=["?"], quiet_distinct=True)
    state = new_game(xl_rules(kong_draw_from="front"), sw)
    act(state, 0, "concealed_kong", "9s")
    assert has(state, 0, "discard", sw.draws[0])
    assert not has(state, 0, "discard", sw.back[0])
    act(state, 0, "discard", sw.draws[0])
    assert has(state, 1, "discard", sw.draws[1])


def test_kong_draw_from_back_takes_wall_107_then_106():
    sw = build_wall(["9999s 8888s *", "*", "*", "*"], draws=["?"], back=["?", "?"], quiet_distinct=True)
    assert sw.wall[107] == sw.back[0] and sw.wall[106] == sw.back[1]
    state = new_game(xl_rules(kong_draw_from="back"), sw)
    act(state, 0, "concealed_kong", "9s")
    assert has(state, 0, "discard", sw.back[0])
    act(state, 0, "concealed_kong", "8s")
    assert has(state, 0, "discard", sw.back[1])
    act(state, 0, "discard", sw.back[0])
    # live draws still start at wall[53]
    assert state.pending() == [1]
    assert has(state, 1, "discard", sw.draws[0])


def test_dealer_first_turn_offers_concealed_kongs_and_discards_only():
    sw = build_wall(["9999s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    assert state.pending() == [0]
    assert kinds(state, 0) == {"discard", "concealed_kong"}


def test_added_kong_with_a_held_copy_of_a_pengd_kind_on_a_later_turn():
    # seat 2 holds three 5p, pengs the dealer's 5p with two of them and keeps the third
    sw = build_wall(["5p *", "*", "555p 9s *", "*"], draws=["?", "?", "?", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert kinds(state, 2) == {"kong", "peng", "pass"}
    act(state, 2, "peng", "5p")
    assert not has(state, 2, "added_kong")        # after a peng: discard only
    act(state, 2, "discard", "9s")
    for seat, i in ((3, 0), (0, 1), (1, 2)):
        act(state, seat, "discard", sw.draws[i])
    assert has(state, 2, "added_kong", "5p")
    act(state, 2, "added_kong", "5p")
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]


def test_concealed_kong_cannot_be_robbed():
    # seat 1 waits on 5p, the dealer kongs four 5p: nobody is asked
    sw = build_wall(["5555p *", KANCHAN_5P, "*", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "concealed_kong", "5p")
    assert state.pending() == [0]
    assert has(state, 0, "discard", sw.draws[0])


def test_direct_kong_cannot_be_robbed():
    sw = build_wall(["5p *", KANCHAN_5P, "555p *", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "kong", "5p")})
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[0])


def robbed(rules=None):
    # seat 2 pengs the dealer's 5p, later adds the fourth 5p; seat 1 (嵌张 5p) may rob it
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", "*"], draws=["?", "?", "?", "5p", "?"])
    state = new_game(rules or xl_rules(), sw)
    act(state, 0, "discard", "5p")
    answers = {2: find(state, 2, "peng", "5p")}
    if 1 in state.pending():  # not at a minimum fan above 平胡's
        answers[1] = find(state, 1, "pass")
    state.step(answers)
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    return sw, state


def test_an_added_kong_opens_a_robbing_window_for_seats_that_can_win():
    _, state = robbed()
    assert state.pending() == [1]
    assert kinds(state, 1) == {"hu", "pass"}
    # nothing is paid while the kong may still be robbed
    assert transfers(state) == []


def test_robbed_kong_no_replacement_and_the_konger_draws_after_the_winner():
    sw, state = robbed()
    act(state, 1, "hu")
    # the konger counts as the discarder; after its winner (seat 1) comes seat 2 itself, which
    # draws the next live tile, not a replacement: wall[53 + 4]
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[4])
    # the peng stays a peng: seat 2 may not add to it again (the tile is gone)
    assert not has(state, 2, "added_kong", "5p")


def test_unrobbed_added_kong_is_paid_and_replaced():
    sw, state = robbed()
    act(state, 1, "pass")
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[4])


def test_no_kong_when_the_wall_is_empty():
    # seat 3 holds three 9s and draws the fourth as the very last tile: no concealed kong
    sw = build_wall(["8s *", "*", "*", "999s *"], last=["9s"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "8s")
    play_until(state, lambda st: st.pending() == [3] and last_draw(st, 3) == "9s")
    assert has(state, 3, "discard", "9s")
    assert not has(state, 3, "concealed_kong")
    act(state, 3, "discard", "9s")
    assert state.is_over


def test_final_discard_offers_only_hu_then_the_hand_ends():
    # seat 1 holds three 5p (no peng, no kong on the last discard); seat 2 waits on 5p
    sw = build_wall(["8s *", "555p *", KANCHAN_5P, "*"], last=["5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "8s")
    play_until(state, lambda st: st.pending() == [3] and has(st, 3, "discard", "5p"))
    act(state, 3, "discard", "5p")
    assert state.pending() == [2]
    assert kinds(state, 2) == {"hu", "pass"}
    act(state, 2, "pass")
    assert state.is_over


def test_two_seats_may_rob_one_added_kong():
    # seats 1 and 3 both wait on 5p; seat 2 adds its fourth 5p: both rob it, each paid by the
    # konger (平胡 1 + 抢杠胡 1 = 2 fan), in turn order from the konger; seat 0 draws next
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", KANCHAN_5P], draws=["?", "?", "?", "5p", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "5p"), 3: find(state, 3, "pass")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    assert state.pending() == [1, 3]
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert transfers(state) == [(2, 3, 2, "hu"), (2, 1, 2, "hu")]
    assert state.pending() == [2]


def test_room_scales_kong_payments():
    sw = build_wall(["9m *", "999m *", "*", "*"], draws=["?"])
    state = new_game(xl_rules(room=3), sw)
    act(state, 0, "discard", "9m")
    act(state, 1, "kong", "9m")
    assert transfers(state) == [(0, 1, 6, "gang"), (2, 1, 3, "gang"), (3, 1, 3, "gang")]
