"""血战到底 (docs/rules.md §5 "mode = xuezhan", §4 last tiles and 天胡/地胡, §10): a winner leaves play;
the hand ends at the third win; the last-N forced win; heavenly and earthly wins."""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    kinds,
    last_draw,
    new_game,
    obs_melds,
    play_out,
    play_until,
    tiles,
    transfers,
    waits_of,
    wall_left,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"
KANCHAN_5P = "123m456m789m11p46p"
TANKI_5P_S = "123s456s789s123p5p"   # waits 5p
TANKI_9P = "123m456m789m123p9p"     # waits 9p
TANKI_9P_S = "123s456s789s123p9p"   # waits 9p


def test_premises_of_the_hands_used_here():
    for hand, wait in ((TANKI_5P, "5p"), (KANCHAN_5P, "5p"), (TANKI_5P_S, "5p"),
                       (TANKI_9P, "9p"), (TANKI_9P_S, "9p")):
        assert waits_of(tiles(hand)) == [wait]


def test_xuezhan_winner_leaves_play_no_turns_and_no_claims():
    sw = build_wall(["5p *", KANCHAN_5P, "*", "*"], draws=["?", "?", "5p", "?"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "discard", sw.draws[0])
    act(state, 3, "discard", sw.draws[1])
    # the dealer discards another 5p: seat 1 has left and is not asked; seat 2 draws next
    act(state, 0, "discard", "5p")
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[3])
    assert state.observation(0)["in_play"] == [True, False, True, True]


def test_xuezhan_kong_after_a_win_is_paid_only_by_seats_in_play():
    sw = build_wall(["5p *", KANCHAN_5P, "9999s *", "*"], draws=["?"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "concealed_kong", "9s")
    assert transfers(state) == [(0, 1, 1, "hu"), (3, 2, 2, "gang"), (0, 2, 2, "gang")]


def test_xuezhan_ends_at_the_third_win():
    # two win on the dealer's 5p (the third seat passes), the third self-draws at once:
    # the hand ends there, with no end checks (the dealer, a flower pig, pays no penalty),
    # and the service fee is still taken
    sw = build_wall(["5p 6p 9m 7s *", TANKI_5P, KANCHAN_5P, TANKI_5P_S], draws=["5p"])
    rules = xz_rules(heavenly_earthly=False, service_fee=2)
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 2, 3]
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "hu"), 3: find(state, 3, "pass")})
    assert state.pending() == [3]
    act(state, 3, "hu")
    assert state.is_over
    assert wall_left(state) == 54
    assert transfers(state) == [
        (0, 1, 1, "hu"), (0, 2, 1, "hu"),
        (0, 3, 1, "hu"),
        (0, None, 2, "fee"), (1, None, 2, "fee"), (2, None, 2, "fee"), (3, None, 2, "fee"),
    ]


def forced_self_draw(rules):
    # every other 5p is held; seat 1 draws the last one as the 53rd live draw (2 tiles remain)
    sw = build_wall(["9s 5p *", TANKI_5P, "5p *", "*"], last=["5p", "?", "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "9s")
    return play_out(state)


def test_forced_win_in_last_four_tiles():
    # seat 1 is never asked: play_out would decline the win if it were
    state = forced_self_draw(xz_rules(forced_win_last_n=4))
    assert transfers(state) == [(2, 1, 1, "hu"), (3, 1, 1, "hu"), (0, 1, 1, "hu")]


def test_without_forced_win_the_seat_may_decline_on_the_last_tiles():
    # seat 1 declines and ends ready: the others pay it 查大叫 instead
    state = forced_self_draw(xz_rules(forced_win_last_n=0))
    assert transfers(state) == [(0, 1, 1, "chadajiao"), (2, 1, 1, "chadajiao"), (3, 1, 1, "chadajiao")]


def test_forced_win_applies_in_xueliu_too():
    state = forced_self_draw(xl_rules(forced_win_last_n=4))
    assert transfers(state) == [(2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]


def test_forced_win_takes_a_discard_win_on_the_last_tile_without_asking():
    # seat 3 draws the last tile, 5p, and discards it; seat 1 wins on it automatically
    sw = build_wall(["9s 5p *", TANKI_5P, "5p *", "*"], last=["5p"])
    state = new_game(xz_rules(forced_win_last_n=4, haidi=False), sw)
    act(state, 0, "discard", "9s")
    play_out(state)
    assert transfers(state) == [(3, 1, 1, "hu")]


def test_forced_win_does_not_apply_before_the_last_tiles():
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xz_rules(forced_win_last_n=4, heavenly_earthly=False), sw)
    act(state, 0, "discard", "9s")
    assert state.pending() == [1]
    assert "hu" in kinds(state, 1)


def test_heavenly_win_on_the_dealers_fourteen():
    # xuezhan preset: 天胡 6 fan (×32) from each other seat, no self-draw bonus
    sw = build_wall(["123m456m789m123p55p", "*", "*", "*"], draws=["?"])
    state = new_game(xz_rules(), sw)
    assert "hu" in kinds(state, 0)
    act(state, 0, "hu")
    assert transfers(state) == [(1, 0, 32, "hu"), (2, 0, 32, "hu"), (3, 0, 32, "hu")]
    assert state.pending() == [1]


def test_earthly_win_on_the_first_draw():
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "hu")
    assert transfers(state) == [(2, 1, 32, "hu"), (3, 1, 32, "hu"), (0, 1, 32, "hu")]


def test_earthly_win_needs_that_nobody_has_made_a_peng_yet():
    sw = build_wall(["5p *", "*", "55p 9s *", TANKI_9P], draws=["9p"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "9s")
    act(state, 3, "hu")
    assert transfers(state) == [(0, 3, 1, "hu"), (1, 3, 1, "hu"), (2, 3, 1, "hu")]


def test_earthly_win_not_spoiled_by_an_earlier_win():
    sw = build_wall(["5p *", TANKI_5P, TANKI_9P_S, "*"], draws=["9p"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "hu")
    assert transfers(state) == [(0, 1, 1, "hu"), (3, 2, 32, "hu"), (0, 2, 32, "hu")]


def test_heavenly_earthly_off_scores_a_first_draw_win_plainly():
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xz_rules(heavenly_earthly=False), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "hu")
    assert transfers(state) == [(2, 1, 1, "hu"), (3, 1, 1, "hu"), (0, 1, 1, "hu")]


def test_forced_win_means_nobody_else_is_asked_in_that_window():
    # seat 1 draws 5p with two tiles left and discards it; seat 2 must win on it, and seat 3,
    # which could peng it, is not asked
    sw = build_wall(["9s *", "*", TANKI_5P, "55p *"], last=["5p", "?", "?"])
    state = new_game(xz_rules(forced_win_last_n=4), sw)
    act(state, 0, "discard", "9s")
    play_until(state, lambda st: st.pending() == [1] and last_draw(st, 1) == "5p")
    assert wall_left(state) == 2
    act(state, 1, "discard", "5p")
    assert transfers(state) == [(1, 2, 1, "hu")]
    # no peng: seat 3 is simply next to draw
    assert state.pending() == [3] and wall_left(state) == 1
    assert obs_melds(state, 3) == []


def test_forced_win_starts_once_fewer_than_n_tiles_remain():
    # seat 3 draws its 5p leaving exactly 4 tiles: not yet forced, it is asked
    sw = build_wall(["9s *", "5p *", "5p *", TANKI_5P], last=["5p", "?", "?", "?", "?"])
    state = new_game(xz_rules(forced_win_last_n=4), sw)
    act(state, 0, "discard", "9s")
    play_until(state, lambda st: st.pending() == [3] and last_draw(st, 3) == "5p")
    assert wall_left(state) == 4
    assert "hu" in kinds(state, 3)


def test_forced_win_with_three_tiles_left():
    # the dealer draws its 5p leaving 3 tiles: the win is taken for it
    sw = build_wall(["9s 123m456m789m123p5p", "5p *", "5p *", "*"], last=["5p", "?", "?", "?"])
    state = new_game(xz_rules(forced_win_last_n=4), sw)
    act(state, 0, "discard", "9s")
    play_out(state)
    assert transfers(state) == [(1, 0, 1, "hu"), (2, 0, 1, "hu"), (3, 0, 1, "hu")]
