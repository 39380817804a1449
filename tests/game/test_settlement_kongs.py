"""Kong payments 刮风下雨 (docs/rules.md §7 "Kongs", §10 "Payments").

Concealed kong 2 from each other seat in play; added kong 1 each; direct kong 2 from the discarder
and ``direct_kong_others`` from each other seat. Paid at the declaration (an added kong once nobody
robs it), before the replacement; the discarder of a direct kong first; the other payers in turn
order from the konger. ``kong_settle = "on_win"``: dues fixed at the declaration, collected after
the konger's next win, void without one.
"""

from .conftest import (
    act,
    build_wall,
    new_game,
    play_out,
    tiles,
    transfers,
    waits_of,
    xl_rules,
    xz_rules,
)


def dealer_concealed_kong(rules):
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?"])
    state = new_game(rules, sw)
    act(state, 0, "concealed_kong", "9s")
    return sw, state


def test_concealed_kong_pays_two_from_every_other_seat():
    sw, state = dealer_concealed_kong(xl_rules(refund_kongs=False))
    assert transfers(state) == [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]
    act(state, 0, "discard", sw.draws[0])
    play_out(state)
    assert transfers(state) == [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]


def test_concealed_kong_payers_come_in_turn_order_from_the_konger():
    # seat 2 draws its fourth 7p
    sw = build_wall(["9s *", "*", "777p *", "*"], draws=["?", "7p", "?"])
    state = new_game(xl_rules(refund_kongs=False), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "concealed_kong", "7p")
    assert transfers(state) == [(3, 2, 2, "gang"), (0, 2, 2, "gang"), (1, 2, 2, "gang")]


def direct_kong(rules):
    sw = build_wall(["9m *", "999m *", "*", "*"], draws=["?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "9m")
    assert state.pending() == [1]
    act(state, 1, "kong", "9m")
    return sw, state


def test_direct_kong_discarder_pays_two_and_each_other_seat_one():
    sw, state = direct_kong(xl_rules(refund_kongs=False))
    assert transfers(state) == [(0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang")]
    act(state, 1, "discard", sw.draws[0])
    play_out(state)
    assert transfers(state) == [(0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang")]


def test_direct_kong_others_zero_only_the_discarder_pays():
    _, state = direct_kong(xl_rules(direct_kong_others=0))
    assert transfers(state) == [(0, 1, 2, "gang")]


def test_direct_kong_others_two_every_seat_pays_two():
    _, state = direct_kong(xl_rules(direct_kong_others=2))
    assert transfers(state) == [(0, 1, 2, "gang"), (2, 1, 2, "gang"), (3, 1, 2, "gang")]


def test_direct_kong_in_the_xuezhan_preset_only_the_discarder_pays():
    _, state = direct_kong(xz_rules())
    assert transfers(state) == [(0, 1, 2, "gang")]


def test_added_kong_pays_one_from_every_other_seat():
    # the dealer pengs the 5p seat 1 discards, later draws the fourth 5p and adds it
    sw = build_wall(["55p 9s 8s *", "*", "*", "*"], draws=["5p", "?", "?", "?", "5p", "?"])
    state = new_game(xl_rules(refund_kongs=False), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", "5p")
    assert state.pending() == [0]
    act(state, 0, "peng", "5p")
    act(state, 0, "discard", "8s")
    for seat, i in ((1, 1), (2, 2), (3, 3)):
        act(state, seat, "discard", sw.draws[i])
    assert transfers(state) == []
    act(state, 0, "added_kong", "5p")
    assert transfers(state) == [(1, 0, 1, "gang"), (2, 0, 1, "gang"), (3, 0, 1, "gang")]
    act(state, 0, "discard", sw.draws[5])
    play_out(state)
    assert transfers(state) == [(1, 0, 1, "gang"), (2, 0, 1, "gang"), (3, 0, 1, "gang")]


KONG_THEN_READY = "9999s 123m 456m 78m 55m"  # after the kong of 9s: waits include 6m
READY_WAITS = ["1m", "3m", "4m", "6m", "9m"]


def kong_then_self_draw(rules):
    # the dealer kongs 9s on its first turn, discards the replacement, and self-draws 6m on its
    # next turn: 平胡 1 + 根 1 = 2 fan (×2), + 1 base bonus in the xueliu preset
    assert waits_of(tiles("123m 456m 78m 55m"), kong_melds=["9s"]) == READY_WAITS
    sw = build_wall([KONG_THEN_READY, "*", "*", "*"], draws=["?", "?", "?", "?", "6m"],
                    quiet_avoid=READY_WAITS)
    state = new_game(rules, sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", sw.draws[0])
    for seat in (1, 2, 3):
        act(state, seat, "discard", sw.draws[seat])
    act(state, 0, "hu")
    return state


def test_kong_settle_immediate_pays_at_the_declaration():
    state = play_out(kong_then_self_draw(xl_rules(kong_settle="immediate")))
    assert transfers(state) == [
        (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
        (1, 0, 3, "hu"), (2, 0, 3, "hu"), (3, 0, 3, "hu"),
    ]


def test_kong_settle_on_win_collects_after_the_konger_wins():
    sw = build_wall([KONG_THEN_READY, "*", "*", "*"], draws=["?"], quiet_avoid=READY_WAITS)
    state = new_game(xl_rules(kong_settle="on_win"), sw)
    act(state, 0, "concealed_kong", "9s")
    assert transfers(state) == []
    state = play_out(kong_then_self_draw(xl_rules(kong_settle="on_win")))
    assert transfers(state) == [
        (1, 0, 3, "hu"), (2, 0, 3, "hu"), (3, 0, 3, "hu"),
        (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
    ]


def test_kong_settle_on_win_voids_kong_without_later_win():
    sw, state = dealer_concealed_kong(xl_rules(kong_settle="on_win"))
    act(state, 0, "discard", sw.draws[0])
    play_out(state)
    # nothing was collected, so nothing is refunded either
    assert transfers(state) == []


def test_kong_settle_on_win_payers_that_left_play_pay_nothing():
    # xuezhan: the dealer kongs 9s, discards the replacement 5p, seat 1 wins on it (杠上炮, and
    # 呼叫转移 hands over nothing: nothing was collected) and leaves; the dealer then self-draws
    # 6m: seats 2 and 3 pay the win (2 fan, ×2) and then the kong dues; seat 1 pays nothing
    kanchan = "123m456m789m11p46p"
    assert waits_of(tiles(kanchan)) == ["5p"]
    sw = build_wall([KONG_THEN_READY, kanchan, "*", "*"], draws=["5p", "?", "?", "6m"],
                    quiet_avoid=READY_WAITS)
    state = new_game(xz_rules(kong_settle="on_win"), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", sw.draws[2])
    act(state, 0, "hu")
    play_out(state)
    assert transfers(state) == [
        (0, 1, 2, "hu"),
        (2, 0, 2, "hu"), (3, 0, 2, "hu"),
        (2, 0, 2, "gang"), (3, 0, 2, "gang"),
    ]
