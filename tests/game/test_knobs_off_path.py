"""docs/rules.md §11 knobs off their main path: 过手杠 (``added_kong_payment = "fresh_only"``) when a
concealed kong and its replacement draw come between the turn's draw and the added kong; 起胡番
(``min_fan_discard_win``) with 抢杠胡's +1 counting toward it; ``dead_waits_ready`` off at tables
of 2 and 3 seats; redeals and the likely-hands prior at table shapes the prior was not measured
on (refused, naming the table); and a uniform redeal at every shape (which needs no prior)."""

from __future__ import annotations

import collections
import random
from typing import Dict, List, Sequence

import numpy as np
import pytest

import xueliu
from xueliu.game import likely_hands
from xueliu.game.redeal import redealt
from xueliu.rules import Rules

from .conftest import (KINDS, _junk, act, build_wall, find, has, kinds, new_game, peng_5p_then_round,
                       tiles, transfers, waits_of, xl_rules)
from .test_kongs import KANCHAN_5P, robbed



# --- 过手杠: a concealed kong and its replacement between the draw and the added kong ---------

def peng_then_later_turn(rules, seat_2: str, draws: Sequence[str], back: Sequence[str]):
    """Seat 2 pengs the dealer's 5p and discards 1m; seats 3, 0, 1 discard their draws; seat 2
    then draws ``draws[3]`` on its turn (``back``: its replacement draws)."""
    sw = build_wall(["5p *", "*", seat_2, "*"], draws=draws, back=back, quiet_distinct=True)
    state = peng_5p_then_round(rules, sw, "1m")
    assert state.pending() == [2]
    return sw, state


CONCEALED_8S = [(3, 2, 2, "gang"), (0, 2, 2, "gang"), (1, 2, 2, "gang")]
ADDED_5P = [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]


@pytest.mark.parametrize("payment", ["always", "fresh_only"])
def test_an_added_kong_of_the_turns_live_draw_made_after_a_concealed_kong_is_fresh(payment):
    # seat 2 draws the fourth 5p, kongs its four 8s, draws the replacement, then adds the 5p
    rules = xl_rules(added_kong_payment=payment, kong_draw_from="back")
    _, state = peng_then_later_turn(rules, "55p 8888s 1m *", ["?", "?", "?", "5p"], ["?"])
    act(state, 2, "concealed_kong", "8s")
    act(state, 2, "added_kong", "5p")
    assert transfers(state) == CONCEALED_8S + ADDED_5P  # fresh: paid under either value


@pytest.mark.parametrize("payment", ["always", "fresh_only"])
def test_an_added_kong_of_a_held_copy_made_after_a_concealed_kong_is_not_fresh(payment):
    # seat 2 kept its third 5p from the peng; this turn draws a quiet tile, kongs 8s, adds 5p
    rules = xl_rules(added_kong_payment=payment, kong_draw_from="back")
    _, state = peng_then_later_turn(rules, "555p 8888s 1m *", ["?", "?", "?", "?"], ["?"])
    act(state, 2, "concealed_kong", "8s")
    act(state, 2, "added_kong", "5p")
    assert ("kong", "5p") in [(m["type"], m["tile"]) for m in state.observation(2)["melds"][2]]
    assert transfers(state) == CONCEALED_8S + (ADDED_5P if payment == "always" else [])
    assert state.pending() == [2]  # its replacement draw came all the same


def test_a_tile_fresh_on_an_earlier_turn_is_not_fresh_on_a_later_one():
    # turn A: seat 2 draws its fourth 9s, kongs, and the replacement is the fourth 5p (fresh then:
    # it could add it now); it keeps the 5p. Turn B: it kongs its four 8s and adds the 5p after
    # that replacement: the 5p came from turn A, so the added kong pays nothing
    rules = xl_rules(added_kong_payment="fresh_only", kong_draw_from="back")
    sw, state = peng_then_later_turn(rules, "55p 999s 8888s 1m *",
                                     ["?", "?", "?", "9s", "?", "?", "?", "?"], ["5p", "?"])
    act(state, 2, "concealed_kong", "9s")
    assert has(state, 2, "added_kong", "5p")
    junk = [t for t in state.observation(2)["hand"] if t not in ("5p", "8s")]
    act(state, 2, "discard", junk[0])
    for seat, i in ((3, 4), (0, 5), (1, 6)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 2, "concealed_kong", "8s")
    before = len(transfers(state))
    act(state, 2, "added_kong", "5p")
    assert transfers(state)[before:] == []


def test_on_win_settlement_of_a_kong_that_is_not_fresh_collects_nothing_at_the_win():
    rules = xl_rules(added_kong_payment="fresh_only", kong_draw_from="back", kong_settle="on_win")
    _, state = peng_then_later_turn(rules, "555p 8888s 1m *", ["?", "?", "?", "?"], ["?"])
    act(state, 2, "concealed_kong", "8s")
    act(state, 2, "added_kong", "5p")
    assert transfers(state) == []
    kongs = {(k.how, k.kind): k for k in state._kongs}
    assert kongs[("added", 13)].dues == [] and kongs[("concealed", 25)].dues != []


# --- 起胡番 with 抢杠胡 ---------------------------------------------------------------------------

def test_robbing_a_kong_adds_the_fan_that_reaches_the_minimum():
    # 平胡 is 1 fan: the dealer's 5p is not offered at a minimum of 2; robbing the kong is 2
    rules = xl_rules(min_fan_discard_win=2, pass_blocks_discard_win="any")
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", "*"], draws=["?"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [2] and not has(state, 2, "hu")
    _, state = robbed(rules)
    assert state.pending() == [1] and kinds(state, 1) == {"hu", "pass"}
    act(state, 1, "hu")
    (win,) = state.settlement().wins
    assert win.source == "robbed_kong" and win.fan_result.fan == 2
    assert "qiangganghu" in win.fan_result.extras
    assert transfers(state) == [(2, 1, 2, "hu")]


def test_robbing_below_the_minimum_is_not_offered_and_the_kong_is_made_and_paid():
    rules = xl_rules(min_fan_discard_win=3, pass_blocks_discard_win="any")
    sw, state = robbed(rules)
    assert state.pending() == [2] and has(state, 2, "discard", sw.draws[4])
    assert transfers(state) == [(3, 2, 1, "gang"), (0, 2, 1, "gang"), (1, 2, 1, "gang")]
    assert state._pass_block[1] is None  # a win never offered is no pass for 过水


# --- dead_waits_ready at 2 and 3 seats ---------------------------------------------------------

def deal_plan(n: int, hand_size: int, dealer: int) -> Dict[int, List[int]]:
    """docs/rules.md §11.1: the wall indices each seat is dealt (takes of 4 round-robin from the
    dealer, then the dealer ``r + 1`` tiles and the others ``r``)."""
    rounds, r = hand_size // 4, hand_size % 4
    got: Dict[int, List[int]] = {s: [] for s in range(n)}
    i = 0
    for take in range(rounds * n):
        got[(dealer + take) % n] += range(i, i + 4)
        i += 4
    for j in range(n):
        s = (dealer + j) % n
        take = r + 1 if j == 0 else r
        got[s] += range(i, i + take)
        i += take
    return got


def shaped_wall(rules: Rules, hands: Dict[int, str], draws: Sequence[str], seed: int = 0):
    """A wall for ``rules``' table (dealer 0) dealing ``hands`` (junk around each ``"*"``) and
    drawing ``draws`` first (``"?"``: a tile of a kind no draw names, held by no scripted hand);
    the rest of the live wall is every tile left, shuffled."""
    shape = rules.shape
    n, size = shape.players, shape.hand_size
    rng = random.Random(seed)
    named = [t for t in draws if t != "?"]
    scripted = {t for s in range(n) for t in tiles(hands[s].replace("*", ""))}
    used: collections.Counter = collections.Counter(named)
    dealt: Dict[int, List[str]] = {s: tiles(hands[s].replace("*", "")) for s in range(n)}
    for s in range(n):
        used.update(dealt[s])
    for s in range(n):
        need = size + (s == 0) - len(dealt[s])
        if need:
            junk = _junk(rng, need, dealt[s], used, s == 0, set(named))
            used.update(junk)
            dealt[s] = dealt[s] + junk
    rest = [t for t in KINDS if t[1] in shape.suits for _ in range(4 - used[t])]
    rng.shuffle(rest)
    live = []
    for t in draws:
        if t == "?":
            t = next(q for q in reversed(rest) if q not in named and q not in scripted)
            rest.remove(t)
        live.append(t)
    wall: List[str] = [""] * shape.wall_tiles
    for s, idxs in deal_plan(n, size, 0).items():
        assert len(idxs) == len(dealt[s])
        for i, t in zip(idxs, dealt[s]):
            wall[i] = t
    wall[shape.dealt_tiles:] = live + rest
    assert collections.Counter(wall) == collections.Counter(
        {t: 4 for t in KINDS if t[1] in shape.suits})
    state = xueliu.new_game(rules, wall=wall)
    for s in range(n):
        assert sorted(state.observation(s)["hand"]) == sorted(dealt[s])
    return state, dealt


def play_discarding(state, until=lambda state: False):
    """The dealer discards its 5p on its first turn; then every seat discards the tile it just
    drew and passes every claim, so no hand changes; to the end, or until ``until(state)``."""
    while not state.is_over and not until(state):
        pend = state.pending()
        if state.phase == "claim":
            state.step({q: find(state, q, "pass") for q in pend})
            continue
        (q,) = pend
        tile = "5p" if state._drawn < 0 else xueliu.tiles.TILE_NAMES[state._drawn]
        state.step({q: find(state, q, "discard", tile)})
    return state


TANKI_5P = "123m456m789m123p5p"  # 平胡, waits 5p alone
# The live draws of the dealer (seat 0, after the dealer's opening discard: seats 1, 2, …, 0)
DEALERS_DRAWS = {2: ["?", "5p", "?", "5p"], 3: ["?", "?", "5p", "?", "?", "5p"]}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("dead_waits_ready", [True, False])
def test_a_wait_every_copy_of_which_is_on_view_is_ready_only_with_dead_waits_ready(
        players, dead_waits_ready):
    # seat 1 waits on 5p alone; the dealer discards a 5p it holds and the two it draws
    rules = xl_rules(players=players, dead_waits_ready=dead_waits_ready)
    assert waits_of(tiles(TANKI_5P)) == ["5p"]
    state, _ = shaped_wall(rules, {0: "5p *", 1: TANKI_5P, 2: "*"}, DEALERS_DRAWS[players])
    play_discarding(state)
    checks = state.settlement().end_checks
    assert checks is not None and state.settlement().end_reason == "wall_exhausted"
    assert checks[1]["waits"] == ["5p"] and checks[1]["ready"] == dead_waits_ready
    owed = [(s, 1, 1, "chadajiao") for s in range(players) if s != 1]
    assert transfers(state) == (owed if dead_waits_ready else [])


@pytest.mark.parametrize("players", [2, 3])
def test_a_wait_with_a_copy_left_unseen_stays_ready_without_dead_waits_ready(players):
    # the dealer keeps one of its two 5p: one copy is still hidden from seat 1's view
    rules = xl_rules(players=players, dead_waits_ready=False)
    draws = DEALERS_DRAWS[players][:-1] + ["?"]
    state, _ = shaped_wall(rules, {0: "55p *", 1: TANKI_5P, 2: "*"}, draws)
    play_discarding(state)
    assert state.settlement().end_checks[1]["ready"]
    assert transfers(state) == [(s, 1, 1, "chadajiao") for s in range(players) if s != 1]


# --- redeals and the prior at table shapes it was not measured on -------------------------------

UNMEASURED = {
    "xueliu at three seats": Rules.preset("xueliu").replace(players=3),
    "xuezhan at two seats": Rules.preset("xuezhan").replace(players=2, player_multipliers=None),
    "xueliu with two suits": Rules.preset("xueliu").replace(suits=("p", "s"), declare_void=False,
                                                             exchange_three=False),
    "xuezhan with 10-tile hands": Rules.preset("xuezhan").replace(hand_size=10),
    "daodaohu": Rules.preset("daodaohu"),
    **{name: Rules.preset(name) for name in ("sanren_liangfang", "sanren_sanfang",
                                             "siren_liangfang", "erren_yifang")},
}


def own_turn(rules: Rules) -> xueliu.GameState:
    """A hand at a turn decision of the seat on turn, some way into the wall."""
    for seed in range(20):
        rng = random.Random(seed)
        state = xueliu.new_game(rules, seed=seed)
        while not state.is_over:
            pend = state.pending()
            if state.phase == "turn" and pend == [state.turn] and state.wall_remaining \
                    < rules.shape.wall_tiles - rules.shape.dealt_tiles - 4:
                return state
            state.step({q: rng.choice(state.legal_actions(q)) for q in pend})
    raise AssertionError("no hand reached a turn decision")


@pytest.mark.parametrize("name", sorted(UNMEASURED))
def test_the_prior_and_a_likely_redeal_refuse_a_table_it_was_not_measured_on(name):
    rules = UNMEASURED[name]
    with pytest.raises(ValueError, match="prior for the table shapes") as refused:
        likely_hands.ratios_for(rules)
    message = str(refused.value)
    assert f"{rules.players} players" in message and f"{rules.hand_size}-tile" in message
    assert "".join(rules.suits) in message and repr(rules.mode) in message
    state = own_turn(rules)
    seat = state.pending()[0]
    before = state.record(), [bytes(h) for h in state._hands]
    with pytest.raises(ValueError, match="prior for the table shapes"):
        redealt(state, seat, 1, hands="likely")
    assert (state.record(), [bytes(h) for h in state._hands]) == before


@pytest.mark.parametrize("preset", sorted(likely_hands.PRESETS))
def test_the_prior_serves_its_table_whatever_the_knobs_that_keep_the_shape(preset):
    rules = Rules.preset(preset).replace(seven_pairs=False, kong_draw_from="back",
                                         min_fan_discard_win=2)
    assert likely_hands.ratios_for(rules) is likely_hands.ratios_for(Rules.preset(preset))


@pytest.mark.parametrize("name", sorted(UNMEASURED))
def test_a_uniform_redeal_at_any_shape_moves_only_hidden_tiles_of_the_suits_in_play(name):
    rules = UNMEASURED[name]
    state = own_turn(rules)
    seat = state.pending()[0]
    twin = redealt(state, seat, 7)
    assert twin.observation(seat) == state.observation(seat)
    hidden = collections.Counter()
    again = collections.Counter()
    for q in range(rules.players):
        if q != seat:
            hidden.update(dict(enumerate(state._hands[q])))
            again.update(dict(enumerate(twin._hands[q])))
            assert sum(twin._hands[q]) == sum(state._hands[q])
    hidden.update(state._wall[state._front:state._back + 1])
    again.update(twin._wall[twin._front:twin._back + 1])
    assert +hidden == +again
    assert all(KINDS[k][1] in rules.suits for k in +again)
    while not twin.is_over:  # and it plays to its end
        twin.step({q: twin.legal_actions(q)[0] for q in twin.pending()})
    assert sum(twin.settlement().net) + sum(
        t.amount for t in twin.settlement().transfers if t.payee is None) == 0


def test_measuring_a_prior_needs_a_table_of_four_with_voids_declared():
    from xueliu.train import hand_prior

    for name in ("sanren_sanfang", "siren_liangfang", "erren_yifang"):
        with pytest.raises(ValueError, match="four seats"):
            hand_prior.measure(name, 4, 0)
    real, dealt = hand_prior.measure("xuezhan", 1, 0)
    assert real.sum() == dealt.sum() > 0 and np.all(real >= 0)


# --- forced_win_last_n takes only the wins the claim-window knobs allow -------------------------

def forced_window(rules):
    """Seat 1 waits on 5p alone (平胡). The dealer opens with a 5p; in the last four live tiles
    seat 0 draws and discards a 5p, then seat 1 draws the last 5p (dealer 0: the live draws go
    to seats 1, 2, 3, 0, …; the 52nd of 55 is seat 0's). Everyone else discards what it draws."""
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], last=["5p", "5p", "?", "?"])
    return play_discarding(new_game(rules, sw), until=lambda state: bool(state.settlement().wins))


def test_a_forced_last_tiles_win_is_taken_on_the_discard_when_it_is_allowed():
    state = forced_window(xl_rules(forced_win_last_n=4))
    (win,) = state.settlement().wins
    assert (win.seat, win.source, win.from_seat) == (1, "discard", 0)


@pytest.mark.parametrize("knob", [dict(min_fan_discard_win=2), dict(self_draw_only=True)])
def test_forced_last_tiles_take_no_discard_win_the_knobs_forbid_but_the_self_draw(knob):
    state = forced_window(xl_rules(forced_win_last_n=4, **knob))
    (win,) = state.settlement().wins
    assert (win.seat, win.source) == (1, "self_draw")  # taken for it: nobody was asked
    assert state._pass_block[1] is None
