"""Rules audit, 血流成河 after a win (§5 "When a win ends the seat's play", §10 "xueliu frozen
hand"): the ``post_win_kongs`` variants and the "waits unchanged" condition for every kind of
kong, and no post-win kong on an empty wall."""

import pytest

from .conftest import (
    act,
    build_wall,
    events,
    find,
    kinds,
    new_game,
    obs_discards,
    play_out,
    tiles,
    transfers,
    waits_of,
    xl_rules,
)

KONG_OK = "111m456m789m11p46p"      # waits 5p; a kong of 1m keeps the waits {5p}
KONG_CHANGES = "1113m456m789m555p"  # waits 2m 3m 6m 9m; a kong of 1m leaves 3m 6m 9m
ADD_CHANGES = "55p 9s 123m 456m 34p 77p"  # pengs 5p, discards 9s: waits 2p 5p (5p is the 4th)


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(KONG_OK)) == ["5p"]
    assert waits_of(tiles(KONG_CHANGES)) == ["2m", "3m", "6m", "9m"]
    assert waits_of(tiles("3m456m789m555p"), kong_melds=["1m"]) == ["3m", "6m", "9m"]
    assert waits_of(tiles("123m456m34p77p"), melds=["5p"]) == ["2p", "5p"]
    assert waits_of(tiles("123m456m34p77p"), kong_melds=["5p"]) == ["2p"]


def test_post_win_direct_kong_not_offered_when_it_changes_the_waits():
    # seat 1 wins on the dealer's 3m; seat 2 then discards 1m: a direct kong would drop the 2m
    # wait, and 1m does not win, so seat 1 is not asked at all
    sw = build_wall(["3m *", KONG_CHANGES, "*", "*"], draws=["1m", "?"])
    state = new_game(xl_rules(post_win_kongs=frozenset({"direct"})), sw)
    act(state, 0, "discard", "3m")
    act(state, 1, "hu")
    act(state, 2, "discard", "1m")
    assert 1 not in state.pending()
    assert transfers(state) == [(0, 1, 1, "hu")]


def added_after_win(rules):
    """Seat 1 pengs the dealer's 5p, wins on seat 2's 2p, and draws the fourth 5p later."""
    sw = build_wall(["5p *", ADD_CHANGES, "*", "*"], draws=["2p", "?", "?", "?", "5p", "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "peng", "5p")
    act(state, 1, "discard", "9s")
    act(state, 2, "discard", "2p")
    act(state, 1, "hu")
    for seat, i in ((2, 1), (3, 2), (0, 3)):
        act(state, seat, "discard", sw.draws[i])
    return sw, state


def test_post_win_added_kong_not_offered_when_it_changes_the_waits():
    # the added kong would drop the 5p wait (a fourth copy held): only hu or the discard
    sw, state = added_after_win(xl_rules(post_win_kongs=frozenset({"added"})))
    assert state.pending() == [1]
    assert kinds(state, 1) == {"hu", "discard"}


@pytest.mark.parametrize(
    "allowed, offered",
    [
        (frozenset({"added", "concealed"}), {"concealed_kong"}),   # seed 001
        (frozenset({"added"}), set()),                            # seed 002
        (frozenset({"concealed", "direct"}), {"concealed_kong"}),  # seed 000
    ],
)
def test_post_win_kongs_offers_exactly_the_kinds_it_lists(allowed, offered):
    # a frozen hand that keeps its waits: a concealed kong of the drawn 1m, and a direct kong of a
    # discarded 1m, are offered exactly when their kind is listed
    sw = build_wall(["5p *", KONG_OK, "*", "*"], draws=["?", "?", "?", "1m", "?"])
    state = new_game(xl_rules(post_win_kongs=allowed), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    for seat, i in ((2, 0), (3, 1), (0, 2)):
        act(state, seat, "discard", sw.draws[i])
    got = kinds(state, 1) - {"discard"} if state.pending() == [1] else set()
    assert got == offered

    sw = build_wall(["5p *", KONG_OK, "*", "*"], draws=["1m", "?"])
    state = new_game(xl_rules(post_win_kongs=allowed), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "discard", "1m")
    assert (1 in state.pending()) == ("direct" in allowed)


def test_no_post_win_kong_when_the_wall_is_empty():
    # seat 3 self-draws 5p on its first draw, then draws the fourth 1m as the very last tile:
    # the kong would keep its waits, but the wall is empty, so the 1m is discarded for it
    sw = build_wall(["9s *", "*", "*", KONG_OK], draws=["?", "?", "5p"], last=["1m"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "hu")
    play_out(state)
    evs = events(state)
    last_tsumo = max(i for i, e in enumerate(evs) if e["type"] == "tsumo")
    assert evs[last_tsumo]["actor"] == 3 and evs[last_tsumo]["pai"] == "1m"
    assert evs[last_tsumo + 1]["type"] == "dahai" and evs[last_tsumo + 1]["auto"]
    assert obs_discards(state, 0, 3)[-1] == "1m"
    # self-draw (1 fan + 1 base bonus from each), and no kong payment ever
    assert transfers(state) == [(0, 3, 2, "hu"), (1, 3, 2, "hu"), (2, 3, 2, "hu")]


def test_post_win_kong_of_a_non_drawn_four_is_never_offered():
    # seat 1 won holding four 1m (never konged); with every kind allowed, drawing another tile
    # offers no kong of the 1m: a frozen hand may kong only the tile it just drew
    hand = "1111m23m456m789p5p"
    assert waits_of(tiles(hand)) == ["5p"]
    sw = build_wall(["5p *", hand, "*", "*"], draws=["?", "?", "?", "?", "?"])
    state = new_game(xl_rules(post_win_kongs=frozenset({"concealed", "direct", "added"})), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    for seat, i in ((2, 0), (3, 1), (0, 2)):
        act(state, seat, "discard", sw.draws[i])
    assert 1 not in state.pending()
    assert obs_discards(state, 2, 1)[-1] == sw.draws[3]


def test_a_frozen_hand_is_never_offered_a_peng_even_when_it_could_kong():
    # post-win direct kong allowed and the waits stay: the claim offers kong or pass, never peng
    sw = build_wall(["5p *", KONG_OK, "*", "*"], draws=["1m"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "discard", "1m")
    assert kinds(state, 1) == {"kong", "pass"}
    state.step({1: find(state, 1, "kong", "1m")})
    assert transfers(state)[1:] == [(2, 1, 2, "gang"), (3, 1, 1, "gang"), (0, 1, 1, "gang")]
