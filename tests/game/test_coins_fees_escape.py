"""Coins, bankruptcy, ``base = "auto"``, the service fee and escapes (docs/rules.md §7 "Coins", "Escape",
§10 "Payments")."""

import pytest

import xueliu

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

QING_5M = "123m345m678m999m5m"      # 清一色 3 fan on 5m (×4)
KANCHAN_5M = "123p456p789p11m46m"   # 平胡 1 fan on 5m
TANKI_5P = "123m456m789m123p5p"     # 平胡 1 fan on 5p


def test_premises_of_the_hands_used_here():
    assert "5m" in waits_of(tiles(QING_5M))
    assert waits_of(tiles(KANCHAN_5M)) == ["5m"]
    assert waits_of(tiles(TANKI_5P)) == ["5p"]


def discard_win(rules, coins, hands=("5m *", QING_5M, "*", "*"), winners=(1,)):
    sw = build_wall(list(hands))
    state = new_game(rules, sw, coins=coins)
    act(state, 0, "discard", "5m" if "5m" in hands[0] else "5p")
    state.step({w: next(a for a in state.legal_actions(w) if a.kind == "hu") for w in winners})
    return play_out(state)


def test_bankrupt_payer_pays_what_it_has():
    state = discard_win(xl_rules(), coins=[1, 100, 100, 100])
    assert transfers(state) == [(0, 1, 1, "hu")]
    s = state.settlement()
    assert s.net == [-1, 1, 0, 0]
    assert s.coins == [0, 101, 100, 100]


def test_bankrupt_payer_pays_winners_in_turn_order_and_zero_is_not_recorded():
    hands = ("5m *", QING_5M, "*", KANCHAN_5M)
    state = discard_win(xl_rules(), coins=[4, 100, 100, 100], hands=hands, winners=(1, 3))
    assert transfers(state) == [(0, 1, 4, "hu")]
    state = discard_win(xl_rules(), coins=[5, 100, 100, 100], hands=hands, winners=(1, 3))
    assert transfers(state) == [(0, 1, 4, "hu"), (0, 3, 1, "hu")]


def test_coins_move_with_every_transfer():
    # seat 1 starts with nothing and ends with what it won
    state = discard_win(xl_rules(), coins=[10, 0, 0, 0])
    assert transfers(state) == [(0, 1, 4, "hu")]
    assert state.settlement().coins == [6, 4, 0, 0]


def test_base_auto_uses_smallest_stack():
    # 1% of the smallest stack (250) = 2 per unit
    hands = ("5p *", TANKI_5P, "*", "*")
    state = discard_win(xl_rules(base="auto"), coins=[1000, 250, 5000, 700], hands=hands)
    assert transfers(state) == [(0, 1, 2, "hu")]


def test_base_auto_is_at_least_one():
    hands = ("5p *", TANKI_5P, "*", "*")
    state = discard_win(xl_rules(base="auto"), coins=[1000, 50, 5000, 700], hands=hands)
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_base_auto_needs_coins():
    with pytest.raises(ValueError):
        xueliu.new_game(xl_rules(base="auto"), seed=1)


def test_service_fee_is_taken_from_each_seat_at_the_end_unscaled():
    # a flower pig pays first; the fee comes last, in seat order, not scaled by base or room
    sw = build_wall(["9s *", "*", "9m 6p 7s *", "*"])
    state = new_game(xl_rules(service_fee=3, base=2, room=5), sw)
    play_out(state)
    pig = 16 * 2 * 5
    assert transfers(state) == [
        (2, 0, pig, "huazhu"), (2, 1, pig, "huazhu"), (2, 3, pig, "huazhu"),
        (0, None, 3, "fee"), (1, None, 3, "fee"), (2, None, 3, "fee"), (3, None, 3, "fee"),
    ]
    assert sum(state.settlement().net) == -12


def test_service_fee_is_cut_to_the_coins_a_seat_has():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(service_fee=3), sw, coins=[2, 100, 0, 100])
    play_out(state)
    assert transfers(state) == [(0, None, 2, "fee"), (1, None, 3, "fee"), (3, None, 3, "fee")]


def test_escape_penalty_is_paid_to_the_house():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    state.escape(2)
    assert transfers(state) == [(2, None, 3, "escape")]


def test_escape_penalty_knob_and_base():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xz_rules(base=2), sw)
    state.escape(3)
    assert transfers(state) == [(3, None, 64, "escape")]


def test_escaped_seat_is_auto_played_to_the_end_and_never_pending():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    state.escape(2)
    seen = set()
    play_out(state, on_step=lambda st: seen.update(st.pending()))
    assert 2 not in seen
    assert state.is_over
    assert transfers(state) == [(2, None, 3, "escape")]


def test_escape_of_the_pending_seat_moves_play_on():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    state.escape(0)
    assert 0 not in state.pending()
    assert state.pending()  # someone else decides now


def test_an_escaped_seat_still_takes_its_wins():
    # auto-play takes the default actions, and a win is the default when it is available
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(), sw)
    state.escape(1)
    act(state, 0, "discard", "9s")
    assert transfers(state) == [(1, None, 3, "escape"), (2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]
