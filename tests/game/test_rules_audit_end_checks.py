"""Rules audit, end of hand (§5 "Tile counting", §7 "At the end of the game", §10 "End of hand"):
``dead_waits_ready`` counts from the seat's own view (own tiles, discards, exposed melds, set-aside
winning tiles), the 大叫 fan is the best over all waits (dead ones included), and xuezhan winners
still receive end payments."""

import pytest

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

GEN_WAIT = "111m23m456m789p55p"        # waits 1m (平胡 + 根 = 2 fan), 4m, 7m, 5p (1 fan)
KANCHAN_5P = "123m456m789m11p46p"      # waits 5p only, 平胡 1 fan
KANCHAN_5P_S = "123s456s789s11p46p"    # waits 5p only, 平胡 1 fan
SHANPON = "123m456m789m55p77p"         # waits 5p and 7p, 平胡 1 fan each


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(GEN_WAIT)) == ["1m", "4m", "7m", "5p"]
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    assert waits_of(tiles(KANCHAN_5P_S)) == ["5p"]
    assert waits_of(tiles(SHANPON)) == ["5p", "7p"]


@pytest.mark.parametrize("dead_waits_ready", [True, False])
def test_dajiao_fan_is_the_best_over_all_waits_dead_ones_included(dead_waits_ready):
    # seat 3 holds three 1m and lets the fourth go: its 2-fan wait is dead, yet 查大叫 still pays
    # the best over all waits (2 fan, ×2); with the knob off it is still ready (4m 7m 5p live)
    sw = build_wall(["1m *", "*", "*", GEN_WAIT])
    state = new_game(xl_rules(dead_waits_ready=dead_waits_ready), sw)
    act(state, 0, "discard", "1m")
    act(state, 3, "pass")
    play_out(state)
    assert transfers(state) == [(0, 3, 2, "chadajiao"), (1, 3, 2, "chadajiao"), (2, 3, 2, "chadajiao")]
    assert state.settlement().end_checks[3]["best_fan"] == 2


def own_copies_dead(rules):
    # seat 3 holds 55p and 77p; the other two 5p and two 7p are all discarded (it lets them go)
    sw = build_wall(["5p 7p *", "*", "*", SHANPON], draws=["5p", "7p", "?", "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 3, "pass")
    act(state, 1, "discard", "5p")
    act(state, 3, "pass")
    act(state, 2, "discard", "7p")
    act(state, 3, "pass")
    act(state, 3, "discard", sw.draws[2])
    act(state, 0, "discard", "7p")
    act(state, 3, "pass")
    return play_out(state)


def test_dead_waits_ready_off_counts_the_seats_own_copies_of_a_wait():
    # remaining(t) = 4 - own(t) - visible(t): 4 - 2 - 2 = 0 for both waits
    assert transfers(own_copies_dead(xl_rules(dead_waits_ready=False))) == []
    assert transfers(own_copies_dead(xl_rules())) == [
        (0, 3, 1, "chadajiao"), (1, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao"),
    ]


def peng_and_set_aside_dead(rules):
    # seat 2 pengs the dealer's 5p (seats 1 and 3 let it go); seat 1 wins on the fourth 5p
    # (seat 3 lets it go too): three 5p in a peng and one set aside, all visible to seat 3
    sw = build_wall(["5p *", KANCHAN_5P_S, "55p 9s *", KANCHAN_5P], draws=["?", "5p"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "5p"), 3: find(state, 3, "pass")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "pass")})
    return play_out(state)


def test_dead_waits_ready_off_counts_exposed_melds_and_set_aside_winning_tiles():
    assert transfers(peng_and_set_aside_dead(xl_rules(dead_waits_ready=False))) == [(0, 1, 1, "hu")]
    assert transfers(peng_and_set_aside_dead(xl_rules())) == [
        (0, 1, 1, "hu"), (0, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao"),
    ]


def test_xuezhan_winner_receives_dajiao_under_ready_check_payees_all():
    # xuezhan: seat 1 wins on the dealer's 5p and leaves; its hand stays ready on 5p (1 fan).
    # With ready_check_payees "all" the seats that never won pay it 查大叫; it pays nothing
    sw = build_wall(["5p *", KANCHAN_5P, "*", "*"])
    state = new_game(xz_rules(ready_check_payees="all"), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [
        (0, 1, 1, "hu"),
        (0, 1, 1, "chadajiao"), (2, 1, 1, "chadajiao"), (3, 1, 1, "chadajiao"),
    ]
