"""Timeouts and auto-play (docs/rules.md §8): the default action of each decision, and two timeouts in a
row switch the seat to auto-play (托管), after which it is never pending."""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    new_game,
    obs_discards,
    play_out,
    transfers,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"


def test_exchange_timeout_gives_the_three_highest_tiles_of_the_shortest_suit_with_three():
    # seat 1: m 4, p 3, s 6 -> the 3 p; seat 2: m 2, p 5, s 6 -> the 3 highest p;
    # seat 3: m 1, p 2, s 10 -> s (the only suit with three)
    hands = ["*", "1234m 789p 123456s", "29m 13579p 234678s", "5m 46p 1122334455s"]
    sw = build_wall(hands)
    state = new_game(xl_rules(exchange_three=True, exchange_direction="next"), sw)
    for s in range(4):
        state.apply_timeout(s)
    given = {s: state.observation(s)["exchange"]["given"] for s in range(4)}
    assert given[1] == ["7p", "8p", "9p"]
    assert given[2] == ["5p", "7p", "9p"]
    assert given[3] == ["4s", "5s", "5s"]


def test_void_timeout_picks_the_suit_with_fewest_tiles_ties_to_the_lower_suit():
    hands = ["*", "1234m 5678p 12345s", "12345m 789p 23456s", "1234m 56789p 1234s"]
    sw = build_wall(hands)
    state = new_game(xl_rules(declare_void=True), sw)
    for s in range(4):
        state.apply_timeout(s)
    voids = state.observation(0)["voids"]
    assert voids[1:] == ["m", "p", "m"]


def test_multiplier_timeout_takes_the_default():
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8}, heavenly_earthly=False)
    sw = build_wall(["5p *", TANKI_5P, "*", "*"])
    state = new_game(rules, sw)
    for s in range(4):
        state.apply_timeout(s)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert transfers(state) == [(0, 1, 64, "hu")]


def test_turn_timeout_discards_the_tile_just_drawn():
    sw = build_wall(["9s *", "*", "*", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    state.apply_timeout(1)
    assert obs_discards(state, 0, 1) == [sw.draws[0]]


def test_turn_timeout_under_the_void_rule_discards_the_highest_legal_tile():
    # seat 1 declares void p while holding 2p 6p; the drawn tile (not p) may not go: 6p does
    sw = build_wall(["9s *", "26p *", "*", "*"], draws=["?"])
    state = new_game(xl_rules(declare_void=True), sw)
    free = {s: next(u for u in "mps" if all(t[-1] != u for t in sw.hands[s])) for s in (0, 2, 3)}
    state.step({0: find(state, 0, "void", suit=free[0]), 1: find(state, 1, "void", suit="p"),
                2: find(state, 2, "void", suit=free[2]), 3: find(state, 3, "void", suit=free[3])})
    act(state, 0, "discard", "9s")
    held_p = sorted((t for t in sw.hands[1] if t.endswith("p")), key=lambda t: t[0])
    assert sw.draws[0][-1] != "p"
    state.apply_timeout(1)
    assert obs_discards(state, 0, 1) == [held_p[-1]]


def test_claim_timeout_passes():
    sw = build_wall(["5p *", "*", "55p *", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [2]
    state.apply_timeout(2)
    assert state.pending() == [1]
    assert has(state, 1, "discard", sw.draws[0])


def test_timeout_takes_a_win_on_a_discard():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.apply_timeout(1)
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_timeout_takes_a_self_draw_win():
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    state.apply_timeout(1)
    assert transfers(state) == [(2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]


def test_two_timeouts_in_a_row_switch_the_seat_to_auto_play():
    sw = build_wall(["9s *", "*", "*", "*"], draws=["?"] * 5)
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    state.apply_timeout(1)
    for seat, i in ((2, 1), (3, 2), (0, 3)):
        act(state, seat, "discard", sw.draws[i])
    state.apply_timeout(1)
    seen = set()
    play_out(state, on_step=lambda st: seen.update(st.pending()))
    assert 1 not in seen
    assert state.is_over


def test_an_answer_between_two_timeouts_keeps_the_seat_in_control():
    sw = build_wall(["9s *", "*", "*", "*"], draws=["?"] * 9)
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    state.apply_timeout(1)
    for seat, i in ((2, 1), (3, 2), (0, 3)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 1, "discard", sw.draws[4])
    for seat, i in ((2, 5), (3, 6), (0, 7)):
        act(state, seat, "discard", sw.draws[i])
    state.apply_timeout(1)
    # seat 1 will be asked again on its next turn
    seen = []
    play_out(state, on_step=lambda st: seen.extend(st.pending()))
    assert 1 in seen


def test_dealer_first_turn_timeout_discards_something():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    state.apply_timeout(0)
    assert len(obs_discards(state, 1, 0)) == 1
    assert 0 not in state.pending()
