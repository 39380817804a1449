"""More docs/rules.md §11 knobs off their main path, in scripted hands: a ``"split"`` 呼叫转移 when
the konger's coins cannot cover the kong income it hands over (docs/rules.md §7 "Coins", §10
"Payments": win payments first, then call transfers, each cut to what the payer holds, a zero
transfer not recorded); 点杠花 paid by the discarder (``dian_gang_hua = "discarder"``) at tables of
3 and 2 seats; and ``multiple_winners`` off on a robbed kong (抢杠胡) at 3 seats, where only the
first robber in turn order from the konger wins (docs/rules.md §4, §10 "Turns and claims")."""

from __future__ import annotations

import pytest

from .conftest import (act, build_wall, find, kinds, new_game, play_out, tiles,
                       transfers, waits_of, xl_rules)
from .test_knobs_off_path import shaped_wall

KANCHAN_5P = "123m456m789m11p46p"  # 平胡, waits 5p alone
KONG_GAIN = [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]


# --- call_transfer = "split" when the konger's coins run out ------------------------------------

def split_gangshangpao(coins):
    """The dealer kongs its four 9s (2 from each seat with the coins), discards the replacement
    5p, and seats 1 and 3 (嵌张 5p) both win on it: 平胡 + 杠上炮 = 2 fan, 2 units each."""
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    sw = build_wall(["9999s *", KANCHAN_5P, "*", KANCHAN_5P], draws=["5p"])
    state = new_game(xl_rules(call_transfer="split"), sw, coins=coins)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 3]
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    return play_out(state)


@pytest.mark.parametrize("coins, handed", [
    # 0 + 6 collected − 4 for the wins = 2 left: seat 1's share of 3 is cut to 2, seat 3's to 0
    ([0, 100, 100, 100], [(0, 1, 2, "hujiaozhuanyi")]),
    # 3 + 6 − 4 = 5 left: seat 1 gets its 3 in full, seat 3's 3 is cut to 2
    ([3, 100, 100, 100], [(0, 1, 3, "hujiaozhuanyi"), (0, 3, 2, "hujiaozhuanyi")]),
])
def test_a_split_call_transfer_is_paid_after_the_wins_and_cut_to_what_the_konger_has_left(
        coins, handed):
    state = split_gangshangpao(coins)
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu"), (0, 3, 2, "hu")] + handed
    after = state.settlement().coins
    assert after[0] == 0 and sum(after) == sum(coins)
    # the kong was handed over: it is never refunded, though the konger ends not ready
    assert not any(t[3] == "tuishui" for t in transfers(state))


def test_a_split_call_transfer_of_a_konger_emptied_by_the_wins_hands_over_nothing():
    # seats 1 and 3 have no coins: the kong collects 2 (from seat 2), the dealer pays it to seat 1
    # for its win and has nothing left for seat 3's win or for either share of the split
    state = split_gangshangpao([0, 0, 100, 0])
    assert transfers(state) == [(2, 0, 2, "gang"), (0, 1, 2, "hu")]
    assert [w.seat for w in state.settlement().wins] == [1, 3]
    assert state.settlement().coins == [0, 2, 98, 0]


# --- walls for tables of 3 and 2 seats ----------------------------------------------------------


# --- dian_gang_hua = "discarder" at 3 and 2 seats ------------------------------------------------

GANG_HAND = "999m 123m 456p 11p 78p"  # kong of 9m, then the replacement 6p completes: 3 fan


def dian_gang_hua_at(players: int, payment: str):
    """Seat 1 kongs a 9m discarded by the dealer (2 seats) or by seat 2 (3 seats), and wins on
    the replacement 6p (平胡 + 根 + 杠上花: 3 fan, 4 units; the self-draw base bonus makes 5)."""
    rules = xl_rules(players=players, dian_gang_hua=payment)
    if players == 2:  # the dealer is the seat before seat 1: it discards the 9m on its opening
        state, _ = shaped_wall(rules, {0: "9m *", 1: GANG_HAND}, ["6p"])
        act(state, 0, "discard", "9m")
    else:  # the dealer opens with 1s, seat 1 discards its quiet draw, seat 2 its 9m
        state, _ = shaped_wall(rules, {0: "1s *", 1: GANG_HAND, 2: "9m *"}, ["?", "?", "6p"])
        act(state, 0, "discard", "1s")
        assert not kinds(state, 1) & {"hu", "concealed_kong", "added_kong"}
        (drawn,) = [t for t in state.observation(1)["hand"] if t not in tiles(GANG_HAND)]
        act(state, 1, "discard", drawn)
        assert not kinds(state, 2) & {"hu", "concealed_kong", "added_kong"}
        act(state, 2, "discard", "9m")
    assert state.pending() == [1]
    act(state, 1, "kong", "9m")
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert (win.seat, win.source, win.fan_result.fan) == (1, "self_draw", 3)
    assert "kong_replacement" in win.flags
    return state


def test_dian_gang_hua_at_three_seats_is_paid_by_the_discarder_alone_not_the_seat_before():
    # seat 2 discarded the 9m: it pays the kong's 2 and the win's 4 (no base bonus); seat 0, the
    # seat before the winner, pays only its 1 for the direct kong
    state = dian_gang_hua_at(3, "discarder")
    assert transfers(state) == [(2, 1, 2, "gang"), (0, 1, 1, "gang"), (2, 1, 4, "hu")]


def test_dian_gang_hua_at_three_seats_as_a_self_draw_is_paid_by_both_others():
    state = dian_gang_hua_at(3, "self_draw")
    assert transfers(state) == [(2, 1, 2, "gang"), (0, 1, 1, "gang"),
                                (2, 1, 5, "hu"), (0, 1, 5, "hu")]


@pytest.mark.parametrize("payment, amount", [("discarder", 4), ("self_draw", 5)])
def test_dian_gang_hua_at_two_seats_differs_only_by_the_base_bonus(payment, amount):
    # the discarder is the only other seat: "discarder" pays the self-draw fan without 自摸加底
    state = dian_gang_hua_at(2, payment)
    assert transfers(state) == [(0, 1, 2, "gang"), (0, 1, amount, "hu")]


# --- multiple_winners off on a robbed kong at 3 seats --------------------------------------------

def robbed_at_three(multiple_winners: bool):
    """Dealer 0 (嵌张 5p after discarding a 5p) and seat 2 (嵌张 5p) both wait on 5p; seat 1 pengs
    the dealer's 5p (seat 2 passes the win), later draws the fourth 5p and adds it: seats 2 and
    0 both answer 胡 to rob it."""
    rules = xl_rules(players=3, multiple_winners=multiple_winners)
    state, _ = shaped_wall(rules, {0: "5p " + KANCHAN_5P, 1: "55p 9s *", 2: KANCHAN_5P},
                           ["?", "?", "5p"])
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "peng", "5p"), 2: find(state, 2, "pass")})
    act(state, 1, "discard", "9s")
    for q in (2, 0):
        (drawn,) = [t for t in state.observation(q)["hand"] if t not in tiles(KANCHAN_5P)]
        act(state, q, "discard", drawn)
    act(state, 1, "added_kong", "5p")
    assert state.pending() == [0, 2]
    state.step({0: find(state, 0, "hu"), 2: find(state, 2, "hu")})
    return state


def test_without_multiple_winners_the_first_robber_from_the_konger_wins_at_three_seats():
    # turn order from the konger (seat 1) is 2, then 0: seat 2 robs, though seat 0 answered 胡 too
    state = robbed_at_three(False)
    (win,) = state.settlement().wins
    assert (win.seat, win.source, win.from_seat, win.fan_result.fan) == (2, "robbed_kong", 1, 2)
    assert transfers(state) == [(1, 2, 2, "hu")]  # the konger pays; no kong is paid
    assert ("peng", "5p") in [(m["type"], m["tile"]) for m in state.observation(1)["melds"][1]]
    assert state.pending() == [0]  # the next seat after the winner draws: seat 0, not a winner
    assert not state._frozen[0] and state._frozen[2]


def test_with_multiple_winners_both_robbers_win_at_three_seats():
    state = robbed_at_three(True)
    assert [w.seat for w in state.settlement().wins] == [2, 0]
    assert transfers(state) == [(1, 2, 2, "hu"), (1, 0, 2, "hu")]
