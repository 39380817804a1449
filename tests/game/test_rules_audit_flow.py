"""Rules audit, play flow (§2–§5, §10 "Deal and phases", "Turns and claims"): rules that had no
test of their own, or only an indirect one (see docs/rules-coverage.md). Each test is named after
the rule it checks."""

import os
import subprocess
import sys

import pytest

import xueliu
from xueliu.game.wall import SplitMix64
from xueliu.rules import Rules

from .conftest import (
    act,
    build_wall,
    events,
    find,
    has,
    kinds,
    last_draw,
    new_game,
    obs_hand,
    play_out,
    play_until,
    tiles,
    transfers,
    waits_of,
    wall_left,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"     # waits 5p only, 平胡 1 fan
KANCHAN_5P = "123m456m789m11p46p"   # waits 5p only, 平胡 1 fan
TANKI_9P = "123m456m789m123p9p"     # waits 9p only, 平胡 1 fan
TANKI_5P_S = "123s456s789s123p5p"   # waits 5p only, 平胡 1 fan


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(TANKI_5P)) == ["5p"]
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    assert waits_of(tiles(TANKI_9P)) == ["9p"]
    assert waits_of(tiles(TANKI_5P_S)) == ["5p"]


# --- §2: a seeded RNG whose stream the project controls -----------------------------------------


def test_the_wall_rng_is_splitmix64_with_its_published_reference_stream():
    # reference outputs of splitmix64.c (Vigna) for the seed 1234567: the same on every platform
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821,
    ]
    # and a seed gives one wall and dice whatever Python's hash() randomisation
    code = "import xueliu; s = xueliu.new_game('xueliu', seed=99); print(s.wall, s.dice)"
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in ("1", "2")}
    state = xueliu.new_game("xueliu", seed=99)
    assert outs == {f"{state.wall} {state.dice}\n"}


# --- §2 / §10: kong_draw_from = "back" -----------------------------------------------------------


def test_kong_replacement_draws_from_the_back_when_kong_draw_from_is_back():
    # a direct kong: the replacement is wall[107], the next live draw is still wall[53]
    sw = build_wall(["9m *", "999m *", "*", "*"], draws=["?", "?"], back=["?"], quiet_distinct=True)
    state = new_game(xl_rules(kong_draw_from="back"), sw)
    act(state, 0, "discard", "9m")
    act(state, 1, "kong", "9m")
    assert last_draw(state, 1) == sw.wall[107]
    assert wall_left(state) == 54
    act(state, 1, "discard", sw.wall[107])
    assert last_draw(state, 2) == sw.wall[53]


def test_after_a_back_replacement_the_live_wall_ends_at_wall_106():
    # the back end is consumed by the replacement: the last regular draw is wall[106], and the
    # hand has drawn 55 tiles in all (54 live + 1 replacement)
    sw = build_wall(["9999s *", "*", "*", "*"], back=["?"], last=["?"], quiet_distinct=True)
    state = new_game(xl_rules(kong_draw_from="back"), sw)
    act(state, 0, "concealed_kong", "9s")
    play_out(state)
    draws = [e for e in events(state) if e["type"] == "tsumo"]
    assert [e["pai"] for e in draws if e["rinshan"]] == [sw.wall[107]]
    plain = [e["pai"] for e in draws if not e["rinshan"]]
    assert plain == sw.wall[53:107]


# --- §3.1 exchange_same_suit = False -----------------------------------------------------------


def test_exchange_same_suit_off_lets_a_seat_pass_three_tiles_of_different_suits():
    sw = build_wall(["1m 5p 9s *", "*", "*", "*"])
    mixed = ("1m", "5p", "9s")
    same = xl_rules(exchange_three=True, exchange_direction="next")
    state = new_game(same, sw)
    assert not any(a.kind == "exchange" and tuple(a.tiles) == mixed for a in state.legal_actions(0))

    state = new_game(same.replace(exchange_same_suit=False), sw)
    before = obs_hand(state, 0)
    choice = {0: find(state, 0, "exchange", tiles=mixed)}
    choice.update({s: state.legal_actions(s)[0] for s in (1, 2, 3)})
    state.step(choice)
    # "next": each seat receives what its next seat gave, so seat 3 receives seat 0's three
    assert tuple(state.observation(3)["exchange"]["received"]) == mixed
    assert tuple(state.observation(0)["exchange"]["given"]) == mixed
    after = list(before)
    for t in mixed:
        after.remove(t)
    got = list(state.observation(0)["exchange"]["received"])
    assert sorted(obs_hand(state, 0)) == sorted(after + got)


# --- §3.2 a seat holding a void-suit tile may not win -------------------------------------------


@pytest.mark.parametrize("void, may_win", [("p", False), ("s", True)])
def test_a_seat_holding_a_tile_of_its_void_suit_may_not_win(void, may_win):
    # seat 1's 13 tiles wait on 5p; declaring p void (legal: all three suits always are) leaves
    # it holding p tiles, so the dealer's 5p offers it nothing
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(Rules.preset("xueliu").replace(exchange_three=False), sw)
    free = {s: next(u for u in "mps" if all(t[-1] != u for t in sw.hands[s])) for s in (0, 2, 3)}
    state.step({0: find(state, 0, "void", suit=free[0]), 1: find(state, 1, "void", suit=void),
                2: find(state, 2, "void", suit=free[2]), 3: find(state, 3, "void", suit=free[3])})
    act(state, 0, "discard", "5p")
    assert (1 in state.pending() and has(state, 1, "hu")) == may_win
    if not may_win:
        # nor by self-draw: it draws the last 5p and may only shed its void tiles
        assert state.pending() == [1]
        assert "hu" not in kinds(state, 1)
        assert {a.tile[-1] for a in state.legal_actions(1)} == {"p"}


# --- §4 / §10: no kong when the wall is empty ----------------------------------------------------


def test_no_added_kong_when_the_wall_is_empty():
    # seat 1 pengs seat 3's 5p and draws the fourth 5p as the very last live tile: no added kong
    sw = build_wall(["8s *", "55p 9s *", "*", "*"], draws=["?", "?", "5p"], last=["5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "8s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "5p")
    act(state, 1, "peng", "5p")
    act(state, 1, "discard", "9s")
    play_until(state, lambda st: st.pending() == [1] and last_draw(st, 1) == "5p")
    assert wall_left(state) == 0
    assert has(state, 1, "discard", "5p")
    assert not has(state, 1, "added_kong")
    act(state, 1, "discard", "5p")
    assert state.is_over


# --- §4 / §10: multiple_winners off also picks among robbers -------------------------------------


def test_multiple_winners_off_only_the_first_robber_in_turn_order_from_the_konger_wins():
    # seats 1 and 3 both rob seat 2's added 5p; from the konger (seat 2) seat 3 comes first
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", KANCHAN_5P], draws=["?", "?", "?", "5p", "?"])
    state = new_game(xl_rules(multiple_winners=False), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "5p"), 3: find(state, 3, "pass")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    # 平胡 1 + 抢杠胡 1 = 2 fan from the konger, to seat 3 alone; seat 0 (after seat 3) draws
    assert transfers(state) == [(2, 3, 2, "hu")]
    assert state.pending() == [0]
    assert has(state, 0, "discard", sw.draws[4])


# --- §4 / §10: 过水 ------------------------------------------------------------------------------

GEN_WAIT = "111m23m456m789p55p"  # waits 1m (2 fan), 4m, 7m, 5p (1 fan each)


def test_pass_block_any_is_lifted_by_the_seats_own_draw():
    sw = build_wall(["4m *", "*", GEN_WAIT, "*"], draws=["?", "?", "7m"])
    state = new_game(xl_rules(pass_blocks_discard_win="any"), sw)
    act(state, 0, "discard", "4m")
    act(state, 2, "pass")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "7m")
    assert state.pending() == [2]
    assert "hu" in kinds(state, 2)


PENG_AND_WAIT = "23m456m789m111p55p"  # waits 1m 4m 7m (1 fan each); 111p can be konged


@pytest.mark.parametrize("block", ["any", "not_higher"])
def test_pass_block_is_lifted_by_a_replacement_draw_under_both_block_rules(block):
    assert waits_of(tiles("23m456m789m55p"), kong_melds=["1p"]) == ["1m", "4m", "7m"]
    sw = build_wall(["1m *", "*", PENG_AND_WAIT, "*"], draws=["1p", "?", "4m"])
    state = new_game(xl_rules(pass_blocks_discard_win=block), sw)
    act(state, 0, "discard", "1m")
    act(state, 2, "pass")
    act(state, 1, "discard", "1p")
    act(state, 2, "kong", "1p")
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "4m")
    assert state.pending() == [2]
    assert "hu" in kinds(state, 2)


SHANPON = "123m456m789m55p77p"  # waits 5p and 7p (平胡 1 fan each); 55p can be pengd


@pytest.mark.parametrize("block, offered", [("off", True), ("not_higher", False), ("any", False)])
def test_answering_peng_to_an_offered_discard_win_blocks_like_a_pass(block, offered):
    # seat 2 is offered hu on the dealer's 5p and pengs instead; it keeps 7p as a single wait
    # (平胡 1 fan, not higher) and seat 3 discards 7p before seat 2 draws again
    assert waits_of(tiles("123m456m789m7p"), melds=["5p"]) == ["7p"]
    sw = build_wall(["5p *", "*", SHANPON, "*"], draws=["7p", "?"])
    state = new_game(xl_rules(pass_blocks_discard_win=block), sw)
    act(state, 0, "discard", "5p")
    assert kinds(state, 2) == {"hu", "peng", "pass"}
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "7p")
    act(state, 3, "discard", "7p")
    if offered:
        assert state.pending() == [2] and "hu" in kinds(state, 2)
    else:
        assert state.pending() == [0]
        assert has(state, 0, "discard", sw.draws[1])


DUANYAO_WAIT = "234m567m345p66p78p"  # waits 3p, 6p (断幺九: 2 fan with the knob) and 9p (1 fan)


def test_not_higher_compares_with_the_highest_fan_passed_since_the_seats_draw():
    # seat 2 passes 9p (1 fan), then 6p (2 fan: higher, so it was offered), then a second 6p
    # (2 fan) comes before its next draw: not higher than the highest passed, so blocked
    assert waits_of(tiles(DUANYAO_WAIT)) == ["3p", "6p", "9p"]
    sw = build_wall(["9s *", "*", DUANYAO_WAIT, "*"], draws=["?", "?", "9p", "6p", "6p", "?"])
    state = new_game(xl_rules(pass_blocks_discard_win="not_higher", duanyaojiu=True), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", "9p")
    assert "hu" in kinds(state, 2)
    act(state, 2, "pass")
    act(state, 0, "discard", "6p")
    assert state.pending() == [2] and "hu" in kinds(state, 2)
    act(state, 2, "pass")
    act(state, 1, "discard", "6p")
    assert state.pending() == [2]
    assert kinds(state, 2) == {"peng", "pass"}  # it holds 66p: the peng stays, the win does not
    act(state, 2, "pass")
    assert has(state, 2, "discard", sw.draws[5])


# --- §5 / §10: the winning tile is set aside once ------------------------------------------------


def test_several_winners_on_one_discard_set_aside_one_physical_tile():
    sw = build_wall(["5p *", TANKI_5P, "*", KANCHAN_5P])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert transfers(state) == [(0, 1, 1, "hu"), (0, 3, 1, "hu")]
    for seat in range(4):
        assert state.observation(seat)["set_aside"] == ["5p"]
        assert state.observation(seat)["discards"][0] == []


# --- §4 / §10: 天胡 and 地胡 ----------------------------------------------------------------------

HEAVENLY = "123m456m789m99m789s"  # complete; its highest-index tile is 9s


def test_heavenly_win_sets_aside_the_highest_index_tile_and_the_frozen_hand_plays_on():
    # xueliu with the knob: 天胡 6 fan (×32) + 1 base from each; 9s is set aside, so the frozen
    # 13 tiles wait on 6s and 9s, and the dealer wins again on seat 1's 6s (平胡 1 fan)
    assert waits_of(tiles("123m456m789m99m78s")) == ["6s", "9s"]
    sw = build_wall([HEAVENLY, "*", "*", "*"], draws=["6s"])
    state = new_game(xl_rules(heavenly_earthly=True), sw)
    act(state, 0, "hu")
    assert transfers(state) == [(1, 0, 33, "hu"), (2, 0, 33, "hu"), (3, 0, 33, "hu")]
    assert state.observation(2)["set_aside"] == ["9s"]
    assert state.pending() == [1]
    act(state, 1, "discard", "6s")
    assert state.pending() == [0]
    assert kinds(state, 0) == {"hu", "pass"}
    act(state, 0, "hu")
    assert transfers(state)[3:] == [(1, 0, 1, "hu")]


def test_earthly_win_needs_that_nobody_has_made_a_concealed_kong_yet():
    # xuezhan preset (地胡 on): the dealer's concealed kong on its first turn spoils seat 1's
    # first-draw win, which pays as a plain self-draw (1 fan, no base bonus)
    sw = build_wall(["9999s *", TANKI_5P, "*", "*"], draws=["?", "5p"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", sw.draws[0])
    act(state, 1, "hu")
    assert transfers(state) == [
        (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
        (2, 1, 1, "hu"), (3, 1, 1, "hu"), (0, 1, 1, "hu"),
    ]
    assert state.settlement().wins[0].fan_result.base == "pinghu"


def test_earthly_win_needs_that_nobody_has_made_a_direct_kong_yet():
    # seat 1 kongs the dealer's 9m before seat 3 has drawn: seat 3's first-draw win is plain
    sw = build_wall(["9m *", "999m *", "*", TANKI_5P_S], draws=["?", "?", "5p"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "9m")
    act(state, 1, "kong", "9m")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "hu")
    # xuezhan: direct_kong_others 0, so only the discarder paid the kong
    assert transfers(state) == [(0, 1, 2, "gang"), (0, 3, 1, "hu"), (1, 3, 1, "hu"), (2, 3, 1, "hu")]


# --- §5 / §10: who draws next -------------------------------------------------------------------


def test_xuezhan_after_a_discard_win_the_first_seat_in_play_after_the_winner_draws():
    # seat 1 wins on the dealer's 5p and leaves; later the dealer wins on seat 2's 9p: the seat
    # after the dealer (seat 1) has left, so seat 2, the discarder itself, draws next
    sw = build_wall(["5p " + TANKI_9P, KANCHAN_5P, "*", "*"], draws=["9p", "?"])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "discard", "9p")
    assert state.pending() == [0]
    act(state, 0, "hu")
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 0, 1, "hu")]
    assert state.pending() == [2]
    assert has(state, 2, "discard", sw.draws[1])
