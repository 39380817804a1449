"""Twins the engine keeps for speed, held to their definitions over random hands of random rules
at every table shape:

- a win is paid at the fan the engine scores straight from the core (``HandData._evaluate``);
  the definition is the public ``xueliu.evaluate`` of the win's hand, void, tile and flags
  (docs/rules.md §6, §6.1);
- a 查大叫 seat's best fan is the best, over its waits, of a discard win with no flags and 门清,
  the optional fans, 卡二条 and 卡边吊 off (docs/rules.md §10, §11.3) — ``xueliu.evaluate`` again;
- the copies of each kind every seat can see are kept three ways: counted as play goes
  (``_seen``, which the seat views and the native hooks read), recounted at the end for
  ``dead_waits_ready`` (``end_of_hand.public_counts``), and readable from each seat's observation
  (discards, set-aside tiles, the others' exposed melds): the three agree after every step;
- a seat view (``state.view``, read from the hand's fields) says what the seat's observation
  says, field for field (tests/game/test_seat_view.py at the four-seat table; here at every
  shape).
"""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu.game.end_of_hand import exposed_counts, public_counts

from .conftest import greedy_chooser, notation
from .test_invariants import random_rules
from .test_seat_view import assert_view_matches_observation, seen_by
from .test_shape_invariants import legal_shapes, shape_rules

FLAG_ARGS = {"self_draw": "self_draw", "kong_replacement": "kong_replacement",
             "after_kong_discard": "after_kong_discard", "robbed_kong": "robbed_kong",
             "last_tile": "last_tile", "heavenly": "heavenly", "earthly": "earthly"}
DAJIAO_OFF = dict(menqing=False, duanyaojiu=False, yitiaolong=False, jiaxinwu=False,
                  haidipao=False, kaertiao=False, single_wait=False)


def tables():
    """Four-seat rules as the four-seat invariants draw them, and every other shape's."""
    out = []
    rng = random.Random("twins")
    for i in range(6):
        out.append((f"four seats {i}", random_rules(rng, rng.choice(["xueliu", "xuezhan"]))))
    for players, suits, hand_size in legal_shapes():
        rng = random.Random(f"twins{players}{suits}{hand_size}")
        out.append((f"{players} seats {''.join(suits)} {hand_size}",
                    shape_rules(rng, players, suits, hand_size)))
    return out


TABLES = tables()


def void_of(state, seat: int):
    v = state._void[seat]
    return None if v < 0 else "mps"[v]


def check_sight(state, views: bool) -> None:
    seen = list(state._seen)
    assert public_counts(state) == seen, "public_counts and _seen differ"
    if views:
        for seat in range(state.seats):
            assert_view_matches_observation(state, seat)  # every field, not the counts alone
            own = exposed_counts(state, seat)
            assert list(state.view(seat).visible) == [a - b for a, b in zip(seen, own)]
            assert list(seen_by(state.observation(seat))) == list(state.view(seat).visible)


def check_wins(state) -> int:
    for w in state.settlement().wins:
        flags = {FLAG_ARGS[f]: True for f in w.flags}
        want = xueliu.evaluate(w.hand, void=void_of(state, w.seat), win_tile=w.tile,
                               rules=state.rules, **flags)
        assert w.fan_result == want, (w.to_dict(), want)
    return len(state.settlement().wins)


def check_dajiao(state) -> int:
    checks = state.settlement().end_checks
    if checks is None:
        return 0
    scoring = state.rules.replace(**DAJIAO_OFF)
    full = state.observation(None)
    ready = 0
    for c in checks:
        s = c["seat"]
        if not c["ready"]:
            assert c["best_fan"] is None
            continue
        ready += 1
        concealed = full["hands"][s]
        melds = [(m["type"], m["tile"]) for m in state.observation(s)["melds"][s]]
        results = [xueliu.evaluate(notation(concealed + [w], melds), void=void_of(state, s),
                                   rules=scoring) for w in c["waits"]]
        best = max(results, key=lambda r: r.multiplier)
        assert (c["best_fan"], c["best_multiplier"]) == (best.fan, best.multiplier), (s, c)
    return ready


@pytest.mark.parametrize("name, rules", TABLES, ids=[n for n, _ in TABLES])
def test_wins_dajiao_and_what_each_seat_sees_agree_with_their_definitions(name, rules):
    wins = ready = 0
    for index in range(20):
        rng = random.Random(f"{name}-{index}")
        state = xueliu.new_game(rules, seed=index, dealer=index % rules.players)
        choose = {s: greedy_chooser(rng.randrange(1 << 30), 0.3) for s in range(rules.players)}
        while not state.is_over:
            check_sight(state, views=rng.random() < 0.2)
            state.step({q: choose[q](state, q) for q in state.pending()})
        check_sight(state, views=True)
        wins += check_wins(state)
        ready += check_dajiao(state)
    assert wins > 0 and wins + ready > 3, (wins, ready)


def test_robbing_and_gangshangpao_wins_are_paid_at_their_evaluated_fan():
    from .conftest import act, build_wall, new_game, xl_rules
    from .test_kongs import robbed

    _, state = robbed()
    check_sight(state, views=True)  # the tile being robbed is in nobody's count yet
    act(state, 1, "hu")
    check_sight(state, views=True)
    assert check_wins(state) == 1 and "robbed_kong" in state.settlement().wins[0].flags
    sw = build_wall(["9999s 5p *", "123m456m789m123p5p", "*", "*"], draws=["?"], back=["?"])
    state = new_game(xl_rules(kong_draw_from="back"), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert check_wins(state) == 1 and "after_kong_discard" in state.settlement().wins[0].flags
