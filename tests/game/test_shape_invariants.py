"""The engine's invariants at every legal table shape of docs/rules.md §11.1 (players × suits × hand_size):

- after every step every tile of the wall is accounted for, kind by kind (hands, melds, discards
  nobody claimed, tiles set aside, the live wall): ``wall_tiles`` tiles, four of each kind in play;
- transfers between seats sum to zero (house income aside), and per-seat lists have n entries;
- a state that is not over has a pending seat with a legal action;
- ``xueliu.replay(state.record())`` reproduces the hand;
- no seat's observation or event stream holds what it may not see.

Seats play random legal actions (some greedily, so that wins and kongs happen). 300 hands per
shape by default; ``--soak`` (or ``XUELIU_SOAK=1``) plays 10,000.
"""

import collections
import json
import random

import pytest

import xueliu
from xueliu.rules import KNOBS

from .conftest import SOAK_GAMES, check_observation, check_seat_events, greedy_chooser, soak_enabled
from .test_invariants import random_rules

CI_GAMES = 300
MAX_STEPS = 3000


def legal_shapes():
    out = []
    for players in (2, 3, 4):
        for suits in (("m", "p", "s"), ("p", "s"), ("m",)):
            for hand_size in (13, 10, 7):
                if players * hand_size + 1 > 36 * len(suits):
                    continue  # the deal needs more tiles than the wall holds
                if (players, suits, hand_size) == (4, ("m", "p", "s"), 13):
                    continue  # the default table: test_invariants.py
                out.append((players, suits, hand_size))
    return out


def shape_rules(rng, players, suits, hand_size):
    """Every knob the four-seat invariants vary (test_invariants.random_rules: the same values,
    drawn the same way, from either preset), then the shape, the values only some shapes have
    and a random mix of the §11.2 / §11.3 knobs."""
    rules = random_rules(rng, rng.choice(["xueliu", "xuezhan"]))
    knobs = dict(players=players, suits=suits, hand_size=hand_size,
                 next_dealer=rng.choice(["dice", "rotate", "first_winner", "first_winner_next"]))
    if players == 3 and rules.exchange_direction == "opposite":  # no seat across at three
        knobs["exchange_direction"] = rng.choice(["dice", "random", "next", "previous"])
    if len(suits) < 3:
        knobs["declare_void"] = False  # 缺一门 always holds: no 定缺 (docs/rules.md §11.1)
    # A random mix of the §11.2 / §11.3 flow and scoring knobs, each off its default a third of
    # the time, so every shape is also played with the regional rules mixed.
    for knob, values in SECTION11_KNOBS.items():
        if rng.random() < 1 / 3:
            knobs[knob] = rng.choice(values)
    return rules.replace(**knobs)


SECTION11_KNOBS = {
    "mode": ["daodaohu"],
    "self_draw_only": [True],
    "min_fan_discard_win": [2, 3],
    "rob_kong": [False],
    "added_kong_payment": ["fresh_only"],
    "jingoudiao": ["additive", False],
    "jiang_patterns": [True],
    "heavenly_earthly": ["additive", False],
    "earthly_win": ["first_discard", "either"],
    "kaertiao": [True],
    "single_wait": [True],
    "call_transfer": ["split", "single_only", False],
    "exchange_count": [4],
}
"""The §11.2 / §11.3 knobs :func:`shape_rules` mixes in, with their values off the default."""


def check_tiles(state):
    full = state.observation(None)
    shape = state.rules.shape
    counts = collections.Counter(full["wall"])
    for river in full["discards"]:
        counts.update(river)
    counts.update(full["set_aside"])
    claim = full["claim"]
    if claim is not None and claim["kind"] == "rob":
        counts[claim["tile"]] += 1  # out of the konger's hand, not yet a meld
    for s in range(shape.players):
        counts.update(full["hands"][s])
        size = len(full["hands"][s])
        for m in state.observation(s)["melds"][s]:
            counts[m["tile"]] += 3 if m["type"] == "peng" else 4
            size += 3
        assert size in (shape.hand_size, shape.hand_size + 1) or (claim and claim["kind"] == "rob")
    in_play = {t for t in counts if counts[t]}
    assert all(t[1] in shape.suits for t in in_play), "a tile of a suit not in play"
    assert sum(counts.values()) == shape.wall_tiles
    assert all(counts[t] == 4 for t in in_play) and len(in_play) == len(shape.kinds)


def check_money(state):
    n = state.seats
    s = state.settlement()
    net = [0] * n
    house = 0
    for t in s.transfers:
        assert t.payer in range(n) and t.amount > 0
        if t.payee is None:
            house += t.amount
        else:
            assert t.payee in range(n) and t.payee != t.payer
            net[t.payee] += t.amount
        net[t.payer] -= t.amount
    assert s.net == net and sum(net) + house == 0


def play_to_end(state, rng, greedy_share, timeouts, deep, escape_at=None, partial=False):
    """Plays ``state`` out: each seat greedy with probability ``greedy_share`` (else uniformly
    random), a pending seat timing out with probability ``timeouts`` a step, a random seat
    escaping at step ``escape_at``, and with ``partial`` a random part of a joint decision's
    answers sent at a time (as a server may); someone can always act, the hand ends, and tiles
    and money hold at the end (after every step when ``deep``)."""
    greedy = {s: greedy_chooser(rng.randrange(1 << 30), 0.3) if rng.random() < greedy_share
              else None for s in range(state.seats)}
    steps = 0
    while not state.is_over:
        assert steps < MAX_STEPS, "the game does not end"
        pend = state.pending()
        assert pend and all(state.legal_actions(s) for s in pend), "nobody can act"
        if steps == escape_at:
            state.escape(rng.randrange(state.seats))
        elif timeouts and rng.random() < timeouts:
            state.apply_timeout(rng.choice(pend))
        else:
            some = ([s for s in pend if rng.random() < 0.7] or pend[:1]) if partial else pend
            state.step({s: greedy[s](state, s) if greedy[s] else rng.choice(state.legal_actions(s))
                        for s in some})
        steps += 1
        if deep:
            check_tiles(state)
            check_money(state)
    check_tiles(state)
    check_money(state)


def play_checked(players, suits, hand_size, index, deep):
    rng = random.Random(f"{players}{suits}{hand_size}-{index}")
    rules = shape_rules(rng, players, suits, hand_size)
    coins = [rng.choice([0, 3, 20, 500]) for _ in range(players)] if rng.random() < 0.3 else None
    if coins is not None and rng.random() < 0.15:
        rules = rules.replace(base="auto")  # 1% of the smallest stack, as test_invariants
    state = xueliu.new_game(rules, seed=index, dealer=rng.randrange(players), coins=coins)
    escape_at = rng.randrange(200) if rng.random() < 0.1 else None
    play_to_end(state, rng, greedy_share=0.4, timeouts=0.01, deep=deep, escape_at=escape_at,
                partial=True)
    end = state.settlement().end_reason
    wins = state.settlement().wins
    if rules.mode == "xuezhan" and end != "wall_exhausted":
        assert len({w.seat for w in wins}) == players - 1
    if rules.mode == "daodaohu":  # one self-draw or the winners of one discard, then the end
        assert len({(w.source, w.tile, w.from_seat) for w in wins}) <= 1
        assert (end == "first_win") == bool(wins)
    for w in wins:
        assert w.source == "self_draw" or (not rules.self_draw_only
                                           and w.fan_result.fan >= rules.min_fan_discard_win)
    full = state.events()
    for s in range(players):
        check_seat_events(full, state.events(s), s)
        check_observation(state, s)
    again = xueliu.replay(json.loads(json.dumps(state.record())))
    assert again.events() == full and again.settlement().net == state.settlement().net


@pytest.mark.soak
@pytest.mark.parametrize("players,suits,hand_size", legal_shapes())
def test_random_games_of_every_shape_keep_every_invariant(request, players, suits, hand_size):
    n = SOAK_GAMES if soak_enabled(request.config) else CI_GAMES
    for i in range(n):
        play_checked(players, suits, hand_size, i, deep=(i % 20 == 0))


def knob_values(rules):
    """Each knob's value as comparable text (a §11 knob at its default: ``"default"``)."""
    d = rules.to_dict()
    return {k: json.dumps(d.get(k, "default"), sort_keys=True) for k in KNOBS}


def test_the_shapes_vary_every_knob_the_four_seat_invariants_vary():
    """Every value the four-seat invariants give a knob (test_invariants.random_rules, the rooms
    of test_flow_knob_invariants) some table shape here is played with as well."""
    from .test_flow_knob_invariants import ROOMS

    four = collections.defaultdict(set)
    rng = random.Random(0)
    for _ in range(600):
        for k, v in knob_values(random_rules(rng, rng.choice(["xueliu", "xuezhan"]))).items():
            four[k].add(v)
    for rules in ROOMS.values():
        for k, v in knob_values(rules).items():
            four[k].add(v)
    shaped = collections.defaultdict(set)
    for players, suits, hand_size in legal_shapes():
        for index in range(CI_GAMES // 5):
            rng = random.Random(f"{players}{suits}{hand_size}-{index}")
            for k, v in knob_values(shape_rules(rng, players, suits, hand_size)).items():
                shaped[k].add(v)
    missing = {k: sorted(four[k] - shaped[k]) for k in four
               if len(four[k]) > 1 and k not in ("players", "suits", "hand_size")
               and four[k] - shaped[k]}
    assert not missing, missing
