"""Claims on a discard (docs/rules.md §4, §10 "Turns and claims"): who is asked, what beats what, who
draws next, and 过水 (``pass_blocks_discard_win``)."""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    kinds,
    new_game,
    play_out,
    tiles,
    transfers,
    waits_of,
    xl_rules,
)

TANKI_5P = "123m456m789m123p5p"
KANCHAN_5P = "123m456m789m11p46p"


def test_no_chow_ever():
    # seat 1 holds 1m 2m 4m 5m around the dealer's 3m: no claim at all, it just draws
    sw = build_wall(["3m *", "1245m *", "*", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    for s in range(4):
        assert all(a.kind != "chow" for a in state.legal_actions(s))
    act(state, 0, "discard", "3m")
    assert state.pending() == [1]
    assert "pass" not in kinds(state, 1)
    assert has(state, 1, "discard", sw.draws[0])


def test_claim_window_asks_only_seats_with_an_option():
    sw = build_wall(["5p *", "*", "55p *", "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [2]
    assert kinds(state, 2) == {"peng", "pass"}


def test_everyone_passes_then_the_next_seat_draws():
    sw = build_wall(["5p *", "*", "55p *", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "pass")
    assert state.pending() == [1]
    assert has(state, 1, "discard", sw.draws[0])


def test_after_peng_the_claimer_may_only_discard_and_play_continues_after_it():
    # seat 2 holds four 9s: after the peng it may still only discard
    sw = build_wall(["5p *", "*", "55p 9999s *", "*"], draws=["?", "?", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    assert state.pending() == [2]
    assert kinds(state, 2) == {"discard"}
    act(state, 2, "discard", "9s")
    # seat 1 was skipped: seat 3 draws next
    assert state.pending() == [3]
    assert has(state, 3, "discard", sw.draws[0])


def test_a_concealed_kong_of_any_four_held_on_a_later_turn():
    sw = build_wall(["9s *", "*", "5555p *", "*"], draws=["?", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    assert has(state, 2, "concealed_kong", "5p")


def test_direct_kong_draws_a_replacement_then_continues_the_turn():
    sw = build_wall(["9m *", "999m *", "*", "*"], draws=["?", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9m")
    assert kinds(state, 1) == {"kong", "peng", "pass"}
    act(state, 1, "kong", "9m")
    assert state.pending() == [1]
    assert has(state, 1, "discard", sw.draws[0])
    act(state, 1, "discard", sw.draws[0])
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[1])


def test_win_beats_peng():
    sw = build_wall(["5p *", TANKI_5P, "55p *", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 2]
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "peng", "5p")})
    assert transfers(state) == [(0, 1, 1, "hu")]
    # no peng: seat 2 (after the winner) draws
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[0])


def test_win_beats_kong():
    sw = build_wall(["5p *", KANCHAN_5P, "555p *", "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "kong", "5p")})
    assert transfers(state) == [(0, 1, 1, "hu")]
    play_out(state)
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_step_accepts_a_subset_of_the_pending_seats():
    sw = build_wall(["5p *", TANKI_5P, "55p *", "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    # seat 2 has answered and leaves pending; nothing resolves until seat 1 answers
    assert state.pending() == [1]
    assert transfers(state) == []
    act(state, 1, "hu")
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_after_a_discard_win_the_seat_after_the_winner_draws():
    # seat 2 wins on the dealer's discard: seat 3 draws next, seat 1 is skipped
    sw = build_wall(["5p *", "*", TANKI_5P, "*"], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "hu")
    assert state.pending() == [3]
    assert has(state, 3, "discard", sw.draws[0])


def test_after_several_winners_the_seat_after_the_last_winner_in_turn_order_draws():
    sw = build_wall(["5p *", TANKI_5P, "*", KANCHAN_5P], draws=["?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert transfers(state) == [(0, 1, 1, "hu"), (0, 3, 1, "hu")]
    assert state.pending() == [0]
    assert has(state, 0, "discard", sw.draws[0])


def test_after_a_self_draw_the_seat_after_the_winner_draws():
    sw = build_wall(["9s *", "*", TANKI_5P, "*"], draws=["?", "5p", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "hu")
    assert state.pending() == [3]
    assert has(state, 3, "discard", sw.draws[2])


def test_multiple_winners_off_the_first_in_turn_order_from_the_discarder_takes_it():
    # seat 2 discards 5p; seats 3 and 1 both answer hu; seat 3 is first from seat 2
    sw = build_wall(["9s *", TANKI_5P, "5p *", KANCHAN_5P], draws=["?", "?", "?"])
    state = new_game(xl_rules(multiple_winners=False), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert transfers(state) == [(2, 3, 1, "hu")]
    # the seat after the winner (seat 0) draws next
    assert state.pending() == [0]
    assert has(state, 0, "discard", sw.draws[2])


def test_multiple_winners_on_all_take_it():
    sw = build_wall(["9s *", TANKI_5P, "5p *", KANCHAN_5P], draws=["?", "?"])
    state = new_game(xl_rules(multiple_winners=True), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert transfers(state) == [(2, 3, 1, "hu"), (2, 1, 1, "hu")]


# --- 过水 pass_blocks_discard_win -------------------------------------------------------------

GEN_WAIT = "111m23m456m789p55p"  # waits 1m (平胡 + 根: 2 fan), 4m, 7m, 5p (1 fan)


def passed_on_4m(block, next_discard):
    """Seat 2 passes a win on the dealer's 4m; seat 1 then draws and discards ``next_discard``."""
    assert waits_of(tiles(GEN_WAIT)) == ["1m", "4m", "7m", "5p"]
    sw = build_wall(["4m *", "*", GEN_WAIT, "*"], draws=[next_discard, "?"])
    state = new_game(xl_rules(pass_blocks_discard_win=block), sw)
    act(state, 0, "discard", "4m")
    assert state.pending() == [2]
    act(state, 2, "pass")
    act(state, 1, "discard", next_discard)
    return sw, state


def test_pass_blocks_discard_win_off_offers_the_next_win():
    _, state = passed_on_4m("off", "7m")
    assert state.pending() == [2]
    assert kinds(state, 2) == {"hu", "pass"}


def test_pass_blocks_discard_win_not_higher_blocks_a_win_worth_the_same():
    sw, state = passed_on_4m("not_higher", "7m")
    # no claim window for seat 2: it is simply its turn, with its draw
    assert state.pending() == [2]
    assert "hu" not in kinds(state, 2) and has(state, 2, "discard", sw.draws[1])


def test_pass_blocks_discard_win_not_higher_allows_a_higher_win():
    _, state = passed_on_4m("not_higher", "1m")
    assert "hu" in kinds(state, 2)
    act(state, 2, "hu")
    assert transfers(state) == [(1, 2, 2, "hu")]


def test_pass_blocks_discard_win_any_blocks_even_a_higher_win():
    _, state = passed_on_4m("any", "1m")
    # seat 2 may still kong or peng the 1m, but not win on it
    assert state.pending() == [2]
    assert "hu" not in kinds(state, 2)
    assert {"kong", "peng", "pass"} <= kinds(state, 2)


def test_pass_blocks_discard_win_not_higher_until_own_draw():
    # after passing, seat 2's own draw lifts the block: seat 3's 7m is offered again
    sw = build_wall(["4m *", "*", GEN_WAIT, "*"], draws=["?", "?", "7m"])
    state = new_game(xl_rules(pass_blocks_discard_win="not_higher"), sw)
    act(state, 0, "discard", "4m")
    act(state, 2, "pass")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "7m")
    assert state.pending() == [2]
    assert "hu" in kinds(state, 2)


PENG_AND_WAIT = "23m456m789m111p55p"  # waits 1m 4m 7m (1 fan each); 55p can be pengd


def test_pass_block_is_not_lifted_by_a_peng():
    assert waits_of(tiles("23m456m789m11p"), melds=["5p"]) == ["1m", "4m", "7m"]
    sw = build_wall(["1m *", "5p *", PENG_AND_WAIT, "*"], draws=["?", "4m"])
    state = new_game(xl_rules(pass_blocks_discard_win="not_higher"), sw)
    act(state, 0, "discard", "1m")
    act(state, 2, "pass")
    act(state, 1, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "1p")
    act(state, 3, "discard", "4m")
    # still blocked: the dealer simply draws
    assert state.pending() == [0]


def test_pass_block_is_lifted_by_a_replacement_draw():
    assert waits_of(tiles("23m456m789m55p"), kong_melds=["1p"]) == ["1m", "4m", "7m"]
    sw = build_wall(["1m *", "*", PENG_AND_WAIT, "*"], draws=["1p", "?", "4m"])
    state = new_game(xl_rules(pass_blocks_discard_win="not_higher"), sw)
    act(state, 0, "discard", "1m")
    act(state, 2, "pass")
    act(state, 1, "discard", "1p")
    act(state, 2, "kong", "1p")
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "4m")
    assert state.pending() == [2]
    assert "hu" in kinds(state, 2)


def test_pass_block_never_blocks_a_self_draw():
    sw = build_wall(["4m *", "*", GEN_WAIT, "*"], draws=["?", "7m"])
    state = new_game(xl_rules(pass_blocks_discard_win="any"), sw)
    act(state, 0, "discard", "4m")
    act(state, 2, "pass")
    act(state, 1, "discard", sw.draws[0])
    assert "hu" in kinds(state, 2)


def test_pass_block_compares_capped_fans():
    # with max_fan 1 the 1m win (平胡 + 根 = 2 fan) is capped to 1: no higher than the 4m passed
    _, state = passed_on_4m_with(xl_rules(pass_blocks_discard_win="not_higher", max_fan=1), "1m")
    assert "hu" not in kinds(state, 2)


def passed_on_4m_with(rules, next_discard):
    sw = build_wall(["4m *", "*", GEN_WAIT, "*"], draws=[next_discard, "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "4m")
    act(state, 2, "pass")
    act(state, 1, "discard", next_discard)
    return sw, state


ROB_THEN_WAIT = "56m123p456p789p11p"  # waits 4m 7m, 平胡 1 fan each; robbing the 4m: 2 fan


def rob_passed(block):
    # seat 1 lets the dealer's 4m go (seat 2 pengs it), draws (lifting that), then lets seat 2's
    # added 4m go too; seat 3 then discards 7m before seat 1 draws again
    assert waits_of(tiles(ROB_THEN_WAIT)) == ["4m", "7m"]
    sw = build_wall(["4m *", ROB_THEN_WAIT, "44m 9s *", "*"], draws=["?", "?", "?", "4m", "?", "7m"])
    state = new_game(xl_rules(pass_blocks_discard_win=block), sw)
    act(state, 0, "discard", "4m")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "4m")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "4m")
    assert state.pending() == [1]
    act(state, 1, "pass")
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]
    act(state, 2, "discard", sw.draws[4])
    act(state, 3, "discard", "7m")
    return state


def test_passing_a_robbing_win_blocks_too():
    assert rob_passed("not_higher").pending() == [0]


def test_passing_a_robbing_win_blocks_nothing_when_the_knob_is_off():
    state = rob_passed("off")
    assert state.pending() == [1] and "hu" in kinds(state, 1)
