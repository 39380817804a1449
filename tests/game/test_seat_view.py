"""``state.view(seat)`` (issue 7 §3): the same information as ``observation(seat)`` — hence nothing
a seat may not see (docs/rules.md §7) — as counts, valid for one moment of the hand."""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu import Rules
from xueliu.bots import RandomBot

from .corpus import random_rules

KIND = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}
MELD_TYPE = {"peng": 0, "kong": 1, "concealed_kong": 2}
MELD_SIZE = {"peng": 3, "kong": 4, "concealed_kong": 4}
SUIT = {None: -1, "m": 0, "p": 1, "s": 2}


def counts(names) -> bytes:
    c = [0] * 27
    for t in names:
        c[KIND[t]] += 1
    return bytes(c)


def seen_by(obs) -> bytes:
    """What the seat sees outside its hand and melds, counted from its observation."""
    c = [0] * 27
    for river in obs["discards"]:
        for t in river:
            c[KIND[t]] += 1
    for t in obs["set_aside"]:
        c[KIND[t]] += 1
    for s, melds in enumerate(obs["melds"]):
        if s != obs["seat"]:
            for m in melds:
                if m["tile"] != "?":
                    c[KIND[m["tile"]]] += MELD_SIZE[m["type"]]
    return bytes(c)


def assert_view_matches_observation(state, seat: int) -> None:
    view = state.view(seat)
    obs = state.observation(seat)
    assert view.seat == seat and view.mode == obs["mode"] and view.rules is state.rules
    assert view.phase == obs["phase"] and view.pending == obs["pending"]
    assert [a.id for a in view.legal_actions] == obs["legal_actions"]
    assert view.hand == counts(obs["hand"])
    assert view.drawn == (-1 if obs["drawn"] is None else KIND[obs["drawn"]])
    assert view.melds == tuple((MELD_TYPE[m["type"]], KIND[m["tile"]])
                               for m in obs["melds"][seat])
    assert view.void == SUIT[obs["void"]]
    assert view.voids == tuple(SUIT[v] for v in obs["voids"])
    assert view.visible == seen_by(obs)
    assert view.turn == obs["turn"]
    claim = obs["claim"]
    assert view.claim == (None if claim is None else
                          (KIND[claim["tile"]], claim["from"], claim["kind"] == "rob"))
    assert view.wall_remaining == obs["wall_remaining"]
    assert list(view.in_play) == obs["in_play"] and list(view.frozen) == obs["frozen"]
    pm = obs["player_multipliers"]
    assert view.multiplier_default == (None if pm is None else pm["default"])
    assert view.observation() == obs


@pytest.mark.parametrize("game", range(10))
def test_every_seat_view_says_what_its_observation_says_at_every_decision(game):
    rng = random.Random(game)
    rules = Rules.preset(["xueliu", "xuezhan"][game % 2]) if game < 4 else random_rules(rng)
    state = xueliu.new_game(rules, seed=game, dealer=game % 4)
    bots = [RandomBot(game * 4 + s) for s in range(4)]
    while not state.is_over:
        for seat in range(4):
            assert_view_matches_observation(state, seat)
        if rng.random() < 0.02:
            state.apply_timeout(state.pending()[0])
            continue
        state.step({s: bots[s].act({}, state.legal_actions(s)) for s in state.pending()})
    for seat in range(4):
        assert_view_matches_observation(state, seat)


def test_a_view_is_of_one_moment():
    state = xueliu.new_game("xueliu", seed=5)
    view = state.view(0)
    assert sum(view.hand) == 14
    state.step({0: state.legal_actions(0)[0]})
    for read in ("hand", "visible", "phase", "legal_actions", "melds", "void", "drawn"):
        with pytest.raises(ValueError, match="earlier moment of the hand"):
            getattr(view, read)
    with pytest.raises(ValueError, match="earlier moment"):
        view.observation()
    assert sum(state.view(0).hand) == 14  # a fresh view reads the hand as it is now


def test_a_view_offers_only_its_own_seat_and_public_facts():
    state = xueliu.new_game("xueliu", seed=6)
    view = state.view(2)
    public = {name for name in dir(view) if not name.startswith("_")}
    assert public == {"seat", "rules", "mode", "phase", "pending", "legal_actions", "hand",
                      "drawn", "melds", "void", "voids", "visible", "turn", "claim",
                      "wall_remaining", "in_play", "frozen", "multiplier_default",
                      "observation", "wild_kinds", "benjin", "meld_wilds"}
    with pytest.raises(ValueError, match="a seat is 0..3"):
        state.view(4)
    with pytest.raises(TypeError, match="a seat is an int"):
        state.view("2")
