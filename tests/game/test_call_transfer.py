"""呼叫转移 call transfer (docs/rules.md §7, §10 "Payments"): on 杠上炮 the konger hands the winner the
amount actually collected for that kong; several winners each get that amount; under
``kong_settle = "on_win"`` nothing was collected, so nothing moves; a handed-over kong is never
refunded. Order: win payments, then call transfers.

Scenario: the dealer kongs 9s on its first turn (2 from each of three seats = 6 collected), draws
the replacement 5p and discards it; ``123m456m789m11p46p`` wins on it: 平胡 1 + 杠上炮 1 = 2 fan.
"""

from .conftest import (
    act,
    build_wall,
    find,
    new_game,
    play_out,
    tiles,
    transfers,
    waits_of,
    xl_rules,
    xz_rules,
)

KANCHAN_5P = "123m456m789m11p46p"
KONG_GAIN = [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]


def kong_then_discard(rules, winners=(1,)):
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    hands = ["9999s *", "*", "*", "*"]
    for w in winners:
        hands[w] = KANCHAN_5P
    sw = build_wall(hands, draws=["5p"])
    state = new_game(rules, sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    assert state.pending() == sorted(winners)
    state.step({w: find(state, w, "hu") for w in winners})
    return state


def test_call_transfer_hands_the_kong_income_to_the_winner():
    state = play_out(kong_then_discard(xl_rules()))
    # the konger (never ready afterwards) refunds nothing: the kong was handed over
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu"), (0, 1, 6, "hujiaozhuanyi")]


def test_call_transfer_with_two_winners_pays_each():
    state = play_out(kong_then_discard(xl_rules(), winners=(1, 3)))
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "hu"), (0, 3, 2, "hu"),
        (0, 1, 6, "hujiaozhuanyi"), (0, 3, 6, "hujiaozhuanyi"),
    ]


def test_call_transfer_off_the_konger_keeps_the_income_until_the_refund():
    state = play_out(kong_then_discard(xl_rules(call_transfer=False)))
    # the dealer ends not ready: 退税 returns the kong income to each payer
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "hu"),
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


def test_call_transfer_under_kong_settle_on_win_moves_nothing():
    state = play_out(kong_then_discard(xl_rules(kong_settle="on_win")))
    assert transfers(state) == [(0, 1, 2, "hu")]


def test_call_transfer_of_a_direct_kong_hands_over_what_the_kong_collected():
    # seat 1 kongs the dealer's 9m (2 + 1 + 1 = 4 collected), discards the replacement 5m,
    # seat 2 (嵌张 5m) wins on it
    kanchan_5m = "123p456p789p11m46m"
    assert waits_of(tiles(kanchan_5m)) == ["5m"]
    sw = build_wall(["9m *", "999m *", kanchan_5m, "*"], draws=["5m"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9m")
    act(state, 1, "kong", "9m")
    act(state, 1, "discard", "5m")
    assert state.pending() == [2]
    act(state, 2, "hu")
    play_out(state)
    assert transfers(state) == [
        (0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang"),
        (1, 2, 2, "hu"),
        (1, 2, 4, "hujiaozhuanyi"),
    ]


def test_call_transfer_hands_over_the_amount_actually_collected_with_multipliers():
    # xuezhan with player multipliers: the kong collects 2 x m[payer] x m[konger] from each;
    # the call transfer hands over that sum, not multiplied again
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8})
    sw = build_wall(["9999s *", KANCHAN_5P, "*", "*"], draws=["5p"])
    state = new_game(rules, sw)
    m = {0: 2, 1: 4, 2: 2, 3: 8}
    state.step({s: find(state, s, "multiplier", value=v) for s, v in m.items()})
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    gains = [(1, 0, 2 * 4 * 2, "gang"), (2, 0, 2 * 2 * 2, "gang"), (3, 0, 2 * 8 * 2, "gang")]
    collected = sum(g[2] for g in gains)
    assert transfers(state) == gains + [(0, 1, 2 * 2 * 4, "hu"), (0, 1, collected, "hujiaozhuanyi")]


def test_call_transfer_hands_over_only_what_was_collected_when_coins_ran_short():
    sw = build_wall(["9999s *", KANCHAN_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(), sw, coins=[100, 1, 100, 100])
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [
        (1, 0, 1, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
        (0, 1, 2, "hu"), (0, 1, 5, "hujiaozhuanyi"),
    ]


def test_gangshangpao_counts_a_frozen_seats_automatic_discard():
    # seat 1 wins, later makes a post-win concealed kong of 1m; its replacement 5s cannot be kept
    # and is discarded for it; seat 2 wins on it: 杠上炮 (2 fan) and the kong's 6 handed over
    frozen = "111m456m789m11p46p"
    waits_5s = "123p456p789p11s46s"
    assert waits_of(tiles(frozen)) == ["5p"] and waits_of(tiles(waits_5s)) == ["5s"]
    sw = build_wall(["5p *", frozen, waits_5s, "*"], draws=["?", "?", "?", "1m", "5s"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    for seat, i in ((2, 0), (3, 1), (0, 2)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 1, "concealed_kong", "1m")
    assert state.pending() == [2]
    act(state, 2, "hu")
    assert transfers(state) == [
        (0, 1, 1, "hu"),
        (2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang"),
        (1, 2, 2, "hu"), (1, 2, 6, "hujiaozhuanyi"),
    ]


def test_call_transfer_of_an_added_kong():
    # the dealer pengs 5p, later adds the fourth (1 from each = 3 collected), discards the
    # replacement 7s; seat 2 (嵌张 7s) wins on it and gets the 3
    kanchan_7s = "123m456m789m11s68s"
    assert waits_of(tiles(kanchan_7s)) == ["7s"]
    sw = build_wall(["55p 9p 8p *", "*", kanchan_7s, "*"], draws=["5p", "?", "?", "?", "5p", "7s"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9p")
    act(state, 1, "discard", "5p")
    act(state, 0, "peng", "5p")
    act(state, 0, "discard", "8p")
    for seat, i in ((1, 1), (2, 2), (3, 3)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 0, "added_kong", "5p")
    act(state, 0, "discard", "7s")
    assert state.pending() == [2]
    act(state, 2, "hu")
    assert transfers(state) == [
        (1, 0, 1, "gang"), (2, 0, 1, "gang"), (3, 0, 1, "gang"),
        (0, 2, 2, "hu"), (0, 2, 3, "hujiaozhuanyi"),
    ]


# docs/rules.md §11.3 `call_transfer`: "split" shares the amount collected among the winners in whole
# units, the remainder to the first winner in turn order from the discarder; "single_only" hands
# nothing over when the 杠上炮 has several winners, so that kong can still be refunded.


def test_a_split_call_transfer_shares_the_kong_income_between_two_winners():
    state = play_out(kong_then_discard(xl_rules(call_transfer="split"), winners=(1, 3)))
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "hu"), (0, 3, 2, "hu"),
        (0, 1, 3, "hujiaozhuanyi"), (0, 3, 3, "hujiaozhuanyi"),
    ]


def test_a_split_call_transfer_gives_the_remainder_to_the_first_winner_from_the_discarder():
    # seat 1 had 1 coin, so the kong collected 1 + 2 + 2 = 5: seat 1 (first after the dealer)
    # gets 3, seat 3 gets 2
    sw = build_wall(["9999s *", KANCHAN_5P, "*", KANCHAN_5P], draws=["5p"])
    state = new_game(xl_rules(call_transfer="split"), sw, coins=[100, 1, 100, 100])
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    play_out(state)
    moved = [t for t in transfers(state) if t[3] == "hujiaozhuanyi"]
    assert moved == [(0, 1, 3, "hujiaozhuanyi"), (0, 3, 2, "hujiaozhuanyi")]


def test_a_split_call_transfer_with_one_winner_hands_over_everything():
    state = play_out(kong_then_discard(xl_rules(call_transfer="split")))
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu"), (0, 1, 6, "hujiaozhuanyi")]


def test_a_single_only_call_transfer_with_one_winner_hands_over_the_income():
    state = play_out(kong_then_discard(xl_rules(call_transfer="single_only")))
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu"), (0, 1, 6, "hujiaozhuanyi")]


def test_a_single_only_call_transfer_with_two_winners_hands_nothing_and_the_kong_is_refunded():
    state = play_out(kong_then_discard(xl_rules(call_transfer="single_only"), winners=(1, 3)))
    # nothing handed over; the dealer ends not ready, so 退税 returns the kong income
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "hu"), (0, 3, 2, "hu"),
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]
