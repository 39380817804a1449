"""血流成河 after a win (docs/rules.md §5 "When a win ends the seat's play", §10 "xueliu frozen hand"):
nobody leaves; the winning tile is set aside; the concealed hand is frozen; on its turn a winner
may win again or kong as ``post_win_kongs`` allows when the waits stay the same, otherwise its
drawn tile is discarded for it; it may win again on discards, never peng."""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    kinds,
    new_game,
    obs_discards,
    obs_hand,
    play_out,
    tiles,
    transfers,
    waits_of,
    wall_left,
    xl_rules,
)

KANCHAN_5P = "123m456m789m11p46p"
KONG_OK = "111m456m789m11p46p"      # waits 5p; a kong of 1m keeps the waits {5p}
KONG_CHANGES = "1113m456m789m555p"  # waits 2m 3m 6m 9m; a kong of 1m leaves 3m 6m 9m


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(KONG_OK)) == ["5p"]
    assert waits_of(tiles("456m789m11p46p"), kong_melds=["1m"]) == ["5p"]
    assert waits_of(tiles(KONG_CHANGES)) == ["2m", "3m", "6m", "9m"]
    assert waits_of(tiles("3m456m789m555p"), kong_melds=["1m"]) == ["3m", "6m", "9m"]


def won_on_the_first_discard(rules, hand=KANCHAN_5P, tile="5p", draws=()):
    """The dealer discards ``tile``, seat 1 wins on it; returns (sw, state)."""
    sw = build_wall([f"{tile} *", hand, "*", "*"], draws=list(draws))
    state = new_game(rules, sw)
    act(state, 0, "discard", tile)
    act(state, 1, "hu")
    return sw, state


def round_to_seat_1(state, sw, start=0):
    """Seats 2, 3 and 0 discard what they draw (draws[start..start+2])."""
    for seat, i in ((2, start), (3, start + 1), (0, start + 2)):
        act(state, seat, "discard", sw.draws[i])


def test_winning_tile_is_set_aside_and_the_hand_stays():
    sw, state = won_on_the_first_discard(xl_rules())
    assert state.observation(2)["set_aside"] == ["5p"]
    assert obs_hand(state, 1) == sorted(tiles(KANCHAN_5P), key=lambda t: ("mps".index(t[1]), t[0]))
    assert not state.is_over


def test_frozen_hand_discards_drawn_tile_automatically():
    sw, state = won_on_the_first_discard(xl_rules(), draws=["?", "?", "?", "?", "?"])
    round_to_seat_1(state, sw)
    # seat 1 drew draws[3], cannot win or kong with it: it is discarded for it, seat 2 is next
    assert state.pending() == [2]
    assert obs_discards(state, 2, 1)[-1] == sw.draws[3]
    assert obs_hand(state, 1) == sorted(tiles(KANCHAN_5P), key=lambda t: ("mps".index(t[1]), t[0]))


def test_frozen_hand_is_asked_when_the_drawn_tile_wins_and_never_to_pass():
    sw, state = won_on_the_first_discard(xl_rules(), draws=["?", "?", "?", "5p"])
    round_to_seat_1(state, sw)
    assert state.pending() == [1]
    assert kinds(state, 1) == {"hu", "discard"}
    assert {a.tile for a in state.legal_actions(1) if a.kind == "discard"} == {"5p"}


def test_frozen_hand_wins_again_by_self_draw():
    sw, state = won_on_the_first_discard(xl_rules(), draws=["?", "?", "?", "5p"])
    round_to_seat_1(state, sw)
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]


def test_frozen_hand_wins_again_on_a_discard():
    sw, state = won_on_the_first_discard(xl_rules(), draws=["5p"])
    act(state, 2, "discard", "5p")
    assert state.pending() == [1]
    assert kinds(state, 1) == {"hu", "pass"}
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 1, 1, "hu")]


def test_frozen_hand_never_pengs():
    # the frozen hand holds 11p; seat 2 discards 1p: seat 1 is not asked
    sw, state = won_on_the_first_discard(xl_rules(), draws=["1p"])
    act(state, 2, "discard", "1p")
    assert 1 not in state.pending()


def test_post_win_concealed_kong_allowed_when_the_waits_stay():
    sw, state = won_on_the_first_discard(xl_rules(), hand=KONG_OK, draws=["?", "?", "?", "1m", "?"])
    round_to_seat_1(state, sw)
    assert state.pending() == [1]
    assert kinds(state, 1) == {"concealed_kong", "discard"}
    act(state, 1, "concealed_kong", "1m")
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang")]


def test_post_win_kong_not_offered_when_it_changes_the_waits():
    # the kong of 1m would drop the 2m wait: the drawn 1m is discarded automatically
    sw, state = won_on_the_first_discard(xl_rules(), hand=KONG_CHANGES, tile="3m",
                                         draws=["?", "?", "?", "1m", "?"])
    round_to_seat_1(state, sw)
    assert 1 not in state.pending()
    assert obs_discards(state, 2, 1)[-1] == "1m"


def test_post_win_kongs_empty_offers_no_kong():
    sw, state = won_on_the_first_discard(xl_rules(post_win_kongs=frozenset()), hand=KONG_OK,
                                         draws=["?", "?", "?", "1m", "?"])
    round_to_seat_1(state, sw)
    assert 1 not in state.pending()
    assert obs_discards(state, 2, 1)[-1] == "1m"


def test_post_win_direct_kong_allowed_when_the_waits_stay():
    sw, state = won_on_the_first_discard(xl_rules(), hand=KONG_OK, draws=["1m", "?"])
    act(state, 2, "discard", "1m")
    assert state.pending() == [1]
    assert kinds(state, 1) == {"kong", "pass"}
    act(state, 1, "kong", "1m")
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 1, 2, "gang"), (3, 1, 1, "gang"), (0, 1, 1, "gang")]


def test_post_win_direct_kong_not_offered_without_the_knob():
    sw, state = won_on_the_first_discard(xl_rules(post_win_kongs=frozenset({"concealed"})),
                                         hand=KONG_OK, draws=["1m", "?"])
    act(state, 2, "discard", "1m")
    assert 1 not in state.pending()


def test_each_win_is_scored_on_the_hand_as_it_stands():
    # first win: 平胡 1 fan; after a post-win kong of 1m, the replacement 5p wins with
    # 平胡 1 + 根 1 + 杠上花 1 = 3 fan (×4) + 1 base bonus
    sw, state = won_on_the_first_discard(xl_rules(), hand=KONG_OK, draws=["?", "?", "?", "1m", "5p"])
    round_to_seat_1(state, sw)
    act(state, 1, "concealed_kong", "1m")
    assert state.pending() == [1]
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [
        (0, 1, 1, "hu"),
        (2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang"),
        (2, 1, 5, "hu"), (3, 1, 5, "hu"), (0, 1, 5, "hu"),
    ]


PENG_THEN_TANKI = "55p 9s 123m 456m 789m 4p"  # pengs 5p, discards 9s, then waits on 4p alone


def pengd_then_won(rules, robber=False):
    """Seat 1 pengs the dealer's 5p, wins on seat 2's 4p, later draws the fourth 5p."""
    assert waits_of(tiles("123m456m789m4p"), melds=["5p"]) == ["4p"]
    hands = ["5p *", PENG_THEN_TANKI, "*", KANCHAN_5P if robber else "*"]
    sw = build_wall(hands, draws=["4p", "?", "?", "?", "5p", "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    if robber:
        state.step({1: find(state, 1, "peng", "5p"), 3: find(state, 3, "pass")})
    else:
        act(state, 1, "peng", "5p")
    act(state, 1, "discard", "9s")
    act(state, 2, "discard", "4p")
    act(state, 1, "hu")
    for seat, i in ((2, 1), (3, 2), (0, 3)):
        act(state, seat, "discard", sw.draws[i])
    return sw, state


def test_post_win_added_kong_not_offered_by_default():
    sw, state = pengd_then_won(xl_rules())
    assert 1 not in state.pending()
    assert obs_discards(state, 2, 1)[-1] == "5p"


def test_post_win_added_kong_offered_when_allowed():
    sw, state = pengd_then_won(xl_rules(post_win_kongs=frozenset({"added"})))
    assert state.pending() == [1]
    assert kinds(state, 1) == {"added_kong", "discard"}
    act(state, 1, "added_kong", "5p")
    assert transfers(state) == [(2, 1, 1, "hu"), (2, 1, 1, "gang"), (3, 1, 1, "gang"), (0, 1, 1, "gang")]


def test_a_xueliu_winners_added_kong_may_be_robbed():
    sw, state = pengd_then_won(xl_rules(post_win_kongs=frozenset({"added"})), robber=True)
    act(state, 1, "added_kong", "5p")
    assert state.pending() == [3]
    act(state, 3, "hu")
    # 平胡 1 + 抢杠胡 1 = 2 fan, paid by the konger (a winner itself)
    assert transfers(state) == [(2, 1, 1, "hu"), (1, 3, 2, "hu")]


def test_xueliu_heavenly_win_play_continues_with_the_next_seat():
    # 天胡 with the knob on: 6 fan (×32) + 1 base bonus from each; the highest tile is set aside
    sw = build_wall(["123m456m789m123p55p", "*", "*", "*"], draws=["?"])
    state = new_game(xl_rules(heavenly_earthly=True), sw)
    assert "hu" in kinds(state, 0)
    act(state, 0, "hu")
    assert transfers(state) == [(1, 0, 33, "hu"), (2, 0, 33, "hu"), (3, 0, 33, "hu")]
    assert state.observation(1)["set_aside"] == ["5p"]
    assert state.pending() == [1]
    assert has(state, 1, "discard", sw.draws[0])


def test_xueliu_ends_only_when_the_wall_is_exhausted():
    sw, state = won_on_the_first_discard(xl_rules(), draws=["5p", "?", "?", "?", "5p"])
    act(state, 2, "discard", "5p")
    act(state, 1, "hu")
    assert not state.is_over
    play_out(state)
    assert state.is_over and wall_left(state) == 0
