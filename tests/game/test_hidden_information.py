"""Hidden information (docs/rules.md §7): a seat sees its own hand and draws, every discard and exposed
meld, the count of tiles left and public declarations once revealed — never other seats' hands,
draws, exchange picks (but for what it gave and received), void or multiplier choices before the
reveal, or the kind of a concealed kong. Checked by *invariance*: two games that differ only in
something seat s may not see must look the same to s, observation and event stream alike."""

import random

import pytest

import xueliu
from xueliu.rules import Rules

from .conftest import (
    act,
    build_wall,
    check_observation,
    check_seat_events,
    events,
    find,
    xl_rules,
)


def view(state, seat):
    return state.observation(seat), state.events(seat)


def same_view(a, b, seats):
    for s in seats:
        assert view(a, s) == view(b, s), f"seat {s} can tell the two games apart"


def differs(a, b, seat):
    assert view(a, seat) != view(b, seat)


def swapped(wall, i, j):
    assert wall[i] != wall[j]
    w = list(wall)
    w[i], w[j] = w[j], w[i]
    return w


def game(rules, wall, seed=1, dealer=0):
    # the same seed for both games: the dice are public and come from the seed
    return xueliu.new_game(rules, wall=wall, seed=seed, dealer=dealer)


def test_other_seats_hands_are_hidden():
    sw = build_wall(["9s *", "*", "*", "*"])
    # wall[4] is dealt to seat 1; wall[100] is far in the live wall
    j = next(j for j in range(90, 108) if sw.wall[j] != sw.wall[4])
    a = game(xl_rules(), sw.wall)
    b = game(xl_rules(), swapped(sw.wall, 4, j))
    same_view(a, b, [0, 2, 3])
    differs(a, b, 1)


def test_other_seats_draws_are_hidden():
    sw = build_wall(["9s *", "*", "*", "*"], draws=["?"])
    j = next(j for j in range(90, 108) if sw.wall[j] != sw.wall[53] and sw.wall[j] != "9s")
    a = game(xl_rules(), sw.wall)
    b = game(xl_rules(), swapped(sw.wall, 53, j))
    for st in (a, b):
        act(st, 0, "discard", "9s")
        assert st.pending() == [1]
    same_view(a, b, [0, 2, 3])
    differs(a, b, 1)


def exchange_rules():
    return xl_rules(exchange_three=True, exchange_direction="next")


def two_exchanges(seed=3):
    """Games where seat 1 gives a different triple; seat 1 gives to seat 0 ("next")."""
    a = xueliu.new_game(exchange_rules(), seed=seed)
    b = xueliu.new_game(exchange_rules(), seed=seed)
    options = a.legal_actions(1)
    return a, b, options[0], options[-1]


def test_exchange_picks_are_hidden_before_the_exchange():
    a, b, x, y = two_exchanges()
    a.step({1: x})
    b.step({1: y})
    same_view(a, b, [0, 2, 3])


def test_exchange_picks_are_hidden_except_given_and_received():
    a, b, x, y = two_exchanges()
    others = {s: a.legal_actions(s)[0] for s in (0, 2, 3)}
    a.step({1: x, **others})
    b.step({1: y, **others})
    # seat 0 received seat 1's pick; seats 2 and 3 neither gave to nor received from seat 1
    same_view(a, b, [2, 3])
    differs(a, b, 0)


def test_void_choices_are_hidden_until_revealed():
    rules = xl_rules(declare_void=True)
    a = xueliu.new_game(rules, seed=5)
    b = xueliu.new_game(rules, seed=5)
    a.step({1: find(a, 1, "void", suit="m")})
    b.step({1: find(b, 1, "void", suit="s")})
    same_view(a, b, [0, 2, 3])
    rest = {s: find(a, s, "void", suit="p") for s in (0, 2, 3)}
    a.step(rest)
    b.step(rest)
    differs(a, b, 0)  # revealed together once all have chosen


def test_multiplier_choices_are_hidden_until_revealed():
    rules = Rules.preset("xuezhan").replace(exchange_three=False, declare_void=False)
    a = xueliu.new_game(rules, seed=6)
    b = xueliu.new_game(rules, seed=6)
    a.step({2: find(a, 2, "multiplier", value=2)})
    b.step({2: find(b, 2, "multiplier", value=8)})
    same_view(a, b, [0, 1, 3])


def relabel(wall, x, y):
    return [y if t == x else x if t == y else t for t in wall]


def test_the_kind_of_a_concealed_kong_is_hidden():
    # the dealer holds four 9s; all four 8s lie at the end of the wall. Relabelling 8s <-> 9s
    # gives a game where the dealer kongs 8s instead: nobody else can tell
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?"], last=["8s"] * 4)
    a = game(xl_rules(), sw.wall)
    b = game(xl_rules(), relabel(sw.wall, "8s", "9s"))
    act(a, 0, "concealed_kong", "9s")
    act(b, 0, "concealed_kong", "8s")
    same_view(a, b, [1, 2, 3])
    act(a, 0, "discard", sw.draws[0])
    act(b, 0, "discard", sw.draws[0])
    same_view(a, b, [1, 2, 3])
    differs(a, b, 0)


def test_exposed_melds_and_discards_are_public():
    sw = build_wall(["5p *", "*", "55p 9s *", "*"])
    state = game(xl_rules(), sw.wall)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", "9s")
    for s in range(4):
        obs = state.observation(s)
        assert [(m["type"], m["tile"]) for m in obs["melds"][2]] == [("peng", "5p")]
        assert obs["discards"][2] == ["9s"]


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_event_streams_and_observations_mask_exactly_the_hidden_parts(preset):
    for seed in range(6):
        state = xueliu.new_game(preset, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.step({s: rng.choice(state.legal_actions(s)) for s in state.pending()})
            full = events(state)
            for s in range(4):
                check_seat_events(full, state.events(s), s)
                check_observation(state, s)
