"""地胡 by ``earthly_win`` (docs/rules.md §4, §6.1, §11.3): ``"first_draw"`` (the default: a non-dealer's
self-draw on its first draw), ``"first_discard"`` (a non-dealer's win on the hand's first discard,
the dealer's on its opening turn, before any peng or kong; every winner of that discard scores it;
never a robbing win; after a 血流 天胡 there is no such discard; a self-drawn 地胡 is not counted) or
``"either"``. Under ``heavenly_earthly`` base 地胡 is a 6-fan base, under ``"additive"`` +2; without
the knob there is no 地胡 at all."""

import json
import random

import pytest

import xueliu
from xueliu.rules import Rules

from .conftest import act, build_wall, find, has, kinds, new_game, tiles, transfers, waits_of
from .conftest import xl_rules, xz_rules
from .test_kongs import robbed
from .test_shape_invariants import play_to_end

TANKI_5P = "123m456m789m123p5p"     # 平胡, waits 5p
TANKI_5P_S = "123s456s789s123p5p"   # 平胡, waits 5p
KANCHAN_5P = "123m456m789m11p46p"   # 平胡, waits 5p
TANKI_9P = "123m456m789m123p9p"     # 平胡, waits 9p
TANKI_9P_S = "123s456s789s123p9p"   # 平胡, waits 9p
FIRST_DISCARD = xz_rules(earthly_win="first_discard")  # 血战, heavenly_earthly base (6 fan)


def hu_transfers(state):
    return [t for t in transfers(state) if t[3] == "hu"]


def first_discard_5p(rules, seat_1=TANKI_5P, seat_2="*"):
    """The dealer opens by discarding 5p; seat 1 (and seat 2, if scripted so) wait on it."""
    sw = build_wall(["5p *", seat_1, seat_2, "*"], draws=["?", "?", "?", "?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    return sw, state


def test_premises_of_the_hands_used_here():
    for hand, wait in ((TANKI_5P, "5p"), (TANKI_5P_S, "5p"), (KANCHAN_5P, "5p"),
                       (TANKI_9P, "9p"), (TANKI_9P_S, "9p")):
        assert waits_of(tiles(hand)) == [wait]


def test_the_engine_plays_every_earthly_win_value():
    for value in ("first_draw", "first_discard", "either"):
        state = xueliu.new_game(Rules.preset("xuezhan").replace(earthly_win=value), seed=3)
        assert state.rules.earthly_win == value and state.pending()


# -- the first discard ---------------------------------------------------------------------------

def test_a_win_on_the_dealers_first_discard_is_earthly_under_first_discard():
    _, state = first_discard_5p(FIRST_DISCARD)
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "discard" and win.from_seat == 0
    assert "earthly" in win.flags
    assert win.fan_result.base == "dihu" and win.fan_result.fan == 6
    assert hu_transfers(state) == [(0, 1, 32, "hu")]


def test_the_same_win_is_plain_under_the_default_first_draw():
    _, state = first_discard_5p(xz_rules())
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert "earthly" not in win.flags and win.fan_result.base == "pinghu"
    assert hu_transfers(state) == [(0, 1, 1, "hu")]


def test_every_winner_of_that_first_discard_scores_earthly():
    _, state = first_discard_5p(FIRST_DISCARD, seat_2=TANKI_5P_S)
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "hu")})
    wins = state.settlement().wins
    assert [w.seat for w in wins] == [1, 2]
    assert all("earthly" in w.flags and w.fan_result.fan == 6 for w in wins)
    assert hu_transfers(state) == [(0, 1, 32, "hu"), (0, 2, 32, "hu")]


def test_a_win_beats_a_peng_of_the_first_discard_and_is_still_earthly():
    # seat 2 asks to peng the 5p; the win comes first, and no peng was made before it
    _, state = first_discard_5p(FIRST_DISCARD, seat_2="55p *")
    assert has(state, 2, "peng", "5p")
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "peng", "5p")})
    (win,) = state.settlement().wins
    assert "earthly" in win.flags and hu_transfers(state) == [(0, 1, 32, "hu")]


def test_under_additive_the_first_discard_earthly_adds_two_to_the_hand():
    _, state = first_discard_5p(xz_rules(heavenly_earthly="additive",
                                         earthly_win="first_discard"))
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.fan_result.base == "pinghu" and "dihu" in win.fan_result.extras
    assert win.fan_result.fan == 3 and hu_transfers(state) == [(0, 1, 4, "hu")]


def test_without_heavenly_earthly_the_first_discard_scores_no_earthly():
    _, state = first_discard_5p(xz_rules(heavenly_earthly=False, earthly_win="first_discard"))
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert "earthly" not in win.flags and win.fan_result.fan == 1


def test_the_earthly_fan_counts_toward_min_fan_discard_win():
    # 平胡 1 + 地胡 2 = 3: offered at 起胡番 3 on the first discard, not without 地胡
    rules = xz_rules(heavenly_earthly="additive", min_fan_discard_win=3)
    _, state = first_discard_5p(rules.replace(earthly_win="first_discard"))
    assert kinds(state, 1) == {"hu", "pass"}
    act(state, 1, "hu")
    assert state.settlement().wins[0].fan_result.fan == 3
    _, state = first_discard_5p(rules)
    assert state.pending() == [1] and not has(state, 1, "hu")  # seat 1 simply draws


# -- only that discard ---------------------------------------------------------------------------

def test_a_later_discard_is_not_earthly():
    # the dealer's 9s interests nobody; seat 1's first discard, 5p, is not the dealer's
    sw = build_wall(["9s *", "5p *", TANKI_5P_S, "*"], draws=["?", "?"])
    state = new_game(FIRST_DISCARD, sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", "5p")
    act(state, 2, "hu")
    (win,) = state.settlement().wins
    assert "earthly" not in win.flags and hu_transfers(state) == [(1, 2, 1, "hu")]


def test_a_peng_before_the_win_voids_earthly():
    # the first discard is peng'd: the discard won after it comes after a peng
    sw = build_wall(["5p *", "*", "55p 9p *", TANKI_9P], draws=["?"])
    state = new_game(FIRST_DISCARD, sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "9p")
    act(state, 3, "hu")
    (win,) = state.settlement().wins
    assert "earthly" not in win.flags and hu_transfers(state) == [(2, 3, 1, "hu")]


def test_a_concealed_kong_on_the_dealers_opening_turn_voids_earthly():
    # the dealer's kong comes before its first discard: that discard is a 杠上炮, not a 地胡
    sw = build_wall(["9999s 5p *", TANKI_5P, "*", "*"], draws=["?"], back=["?"])
    state = new_game(FIRST_DISCARD.replace(kong_draw_from="back"), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert "earthly" not in win.flags and "after_kong_discard" in win.flags
    assert win.fan_result.base == "pinghu" and win.fan_result.fan == 2


def test_robbing_is_never_earthly():
    # seat 2 pengs the dealer's 5p (seat 1 passes its 地胡 on it) and later adds the fourth 5p,
    # which seat 1 robs (the robbing scene of test_kongs.py)
    _, state = robbed(xz_rules(earthly_win="either"))
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "robbed_kong" and "earthly" not in win.flags
    assert win.fan_result.base == "pinghu" and win.fan_result.fan == 2


def test_after_a_xueliu_heavenly_win_the_dealers_next_discard_is_not_earthly():
    # 天胡, then everyone draws and discards; the frozen dealer's drawn 9p goes out automatically
    rules = xl_rules(heavenly_earthly=True, earthly_win="first_discard")
    sw = build_wall(["123m456m789m123p55p", TANKI_9P_S, "*", "*"], draws=["?", "?", "?", "9p"])
    state = new_game(rules, sw)
    act(state, 0, "hu")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", sw.draws[1])
    act(state, 3, "discard", sw.draws[2])
    assert kinds(state, 1) == {"hu", "pass"}  # on the dealer's 9p
    act(state, 1, "hu")
    heavenly, win = state.settlement().wins
    assert "heavenly" in heavenly.flags and heavenly.fan_result.base == "tianhu"
    assert win.from_seat == 0 and "earthly" not in win.flags and win.fan_result.fan == 1


# -- self-draws ----------------------------------------------------------------------------------

def test_a_first_draw_self_draw_is_not_earthly_under_first_discard():
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(FIRST_DISCARD, sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "self_draw" and "earthly" not in win.flags
    assert hu_transfers(state) == [(2, 1, 1, "hu"), (3, 1, 1, "hu"), (0, 1, 1, "hu")]


def test_either_counts_both():
    # seat 1 wins the dealer's 5p (地胡 on the discard), seat 2 self-draws 9p on its first draw
    sw = build_wall(["5p *", TANKI_5P, TANKI_9P_S, "*"], draws=["9p"])
    state = new_game(xz_rules(earthly_win="either"), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    act(state, 2, "hu")
    discard, self_draw = state.settlement().wins
    assert discard.source == "discard" and "earthly" in discard.flags
    assert self_draw.source == "self_draw" and "earthly" in self_draw.flags
    assert hu_transfers(state) == [(0, 1, 32, "hu"), (3, 2, 32, "hu"), (0, 2, 32, "hu")]


def test_the_earthly_flag_travels_in_the_record():
    _, state = first_discard_5p(FIRST_DISCARD, seat_2=TANKI_5P_S)
    state.step({1: find(state, 1, "hu"), 2: find(state, 2, "hu")})
    again = xueliu.replay(json.loads(json.dumps(state.record())))
    assert [w.flags for w in again.settlement().wins] == [w.flags for w in state.settlement().wins]
    assert again.settlement().net == state.settlement().net


# -- random play ---------------------------------------------------------------------------------

HANDS = 50  # per room, twice: dealt at random, and from an opening that may win on the first discard
DEEP = 10  # the first hands check tiles and money after every step
ROOMS = {
    f"{mode}_{value}_{stack}": Rules.preset(mode).replace(heavenly_earthly=stack,
                                                          earthly_win=value)
    for mode, value, stack in (("xueliu", "first_discard", True),
                               ("xuezhan", "first_discard", "additive"),
                               ("xuezhan", "either", True),
                               ("xueliu", "either", "additive"))
}


def opening(rules, rng, i):
    """A hand whose dealer opens with 5p, which seats 1 and 2 may win or peng (random deals
    hardly ever make a first-discard 地胡); exchange, void and multipliers off, so the script holds."""
    sw = build_wall(["5p *", rng.choice([TANKI_5P, KANCHAN_5P, "*"]),
                     rng.choice([TANKI_5P_S, "55p *", "*"]), "*"], seed=i)
    state = new_game(rules.replace(exchange_three=False, declare_void=False,
                                   player_multipliers=None), sw)
    act(state, 0, "discard", "5p")
    return state


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_random_play_under_earthly_win_keeps_every_invariant(name):
    rules = ROOMS[name]
    earthly = 0
    for i in range(2 * HANDS):
        rng = random.Random(f"earthly-{name}-{i}")
        if i % 2:
            state = opening(rules, rng, i)
        else:
            state = xueliu.new_game(rules, seed=i, dealer=rng.randrange(rules.players))
        play_to_end(state, rng, greedy_share=0.6, timeouts=0.01, deep=i < DEEP)
        again = xueliu.replay(json.loads(json.dumps(state.record())))
        assert again.events() == state.events()
        assert again.settlement().net == state.settlement().net
        wins = state.settlement().wins
        for w in wins:
            if "earthly" in w.flags:
                earthly += 1
                assert w.source != "robbed_kong" and w.seat != state.dealer
                if rules.heavenly_earthly is True:  # a 6-fan base, or a hand pattern above it
                    assert w.fan_result.base_fan >= 6
                else:
                    assert "dihu" in w.fan_result.extras
                if w.source == "discard":
                    # the dealer's opening discard: its winners are the hand's first wins
                    assert w.from_seat == state.dealer
                    assert w.winners == tuple(x.seat for x in wins[:len(w.winners)])
                else:
                    assert rules.earthly_win == "either"
    assert earthly  # the openings made some
