"""Invariants over many random games (issue 3 "Tests"), both presets and random knob combinations:

- after every step all 108 tiles are accounted for, kind by kind: each seat's own view of its
  hand and melds, the discards nobody claimed, the tiles set aside, and the live wall (known
  because we shuffle it ourselves and pass it in);
- transfers between seats sum to zero (house income aside), each well-formed;
- a state that is not over has a pending seat, and every pending seat a legal action;
- every game ends within a bounded number of steps;
- ``xueliu.replay(state.record())`` reproduces the events and the settlement exactly;
- no seat's observation or event stream holds a tile that seat may not see;
- illegal actions, wrong seats and wrong types are rejected and change nothing.

Seats choose uniformly random legal actions from a seeded ``random.Random`` (some seats play
greedily so that wins, kongs and their payments happen often; some games time out or escape).
By default a few hundred games per preset; ``pytest tests/game --soak`` (or ``XUELIU_SOAK=1``)
plays 10,000 per preset.
"""

import collections
import json
import random

import pytest

import xueliu
from xueliu.game import Action
from xueliu.rules import Rules

from .conftest import (
    KINDS,
    SOAK_GAMES,
    check_observation,
    check_seat_events,
    greedy_chooser,
    soak_enabled,
)

REASONS = {"hu", "gang", "hujiaozhuanyi", "huazhu", "chadajiao", "tuishui", "fee", "escape"}
CI_GAMES = 1500
MAX_STEPS = 3000


def random_rules(rng: random.Random, preset: str) -> Rules:
    """The preset with a random half of the knobs set to random values."""
    choices = {
        "exchange_three": [True, False],
        "exchange_direction": ["dice", "random", "next", "opposite", "previous"],
        "exchange_same_suit": [True, False],
        "declare_void": [True, False],
        "player_multipliers": [None, {"allowed": (2, 4, 8), "default": 8}, {"allowed": (1, 2), "default": 1}],
        "kong_draw_from": ["front", "back"],
        "pass_blocks_discard_win": ["off", "not_higher", "any"],
        "forced_win_last_n": [0, 4, 9],
        "multiple_winners": [True, False],
        "post_win_kongs": [frozenset(), frozenset({"concealed", "direct"}), frozenset({"added"}),
                           frozenset({"concealed", "direct", "added"})],
        "next_dealer": ["dice", "first_winner", "rotate"],
        "seven_pairs": [True, False],
        "jingoudiao": [True, False],
        "heavenly_earthly": [True, False],
        "haidi": [True, False],
        "self_draw_bonus": ["base", "none", "fan"],
        "menqing": [True, False],
        "gen_counts": ["all_fours", "kongs_only", "none"],
        "duanyaojiu": [True, False],
        "yitiaolong": [True, False],
        "jiaxinwu": [True, False],
        "haidipao": [True, False],
        "direct_kong_others": [0, 1, 2],
        "kong_settle": ["immediate", "on_win"],
        "call_transfer": [True, False, "split", "single_only"],
        "pig_penalty": [16, 5],
        "pig_payees": ["unwon_non_pig", "all_non_pig"],
        "ready_check_payees": ["unwon", "all"],
        "dead_waits_ready": [True, False],
        "refund_kongs": [True, False],
        "dian_gang_hua": ["self_draw", "discarder"],
        "escape_penalty": [3, 32],
        "base": [1, 2],
        "room": [1, 3],
        "service_fee": [0, 2],
        "mode": ["xueliu", "xuezhan"],
    }
    knobs = {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.5}
    if rng.random() < 0.3:
        cap = rng.choice([2, 4, 6])
        knobs["max_fan"] = cap
        if rng.random() < 0.5:
            knobs["multipliers"] = tuple(range(1, cap + 1))
    if rng.random() < 0.2:
        knobs["fan_table"] = {"pinghu": 2, "qingyise": 4}
    return Rules.preset(preset).replace(**knobs)


class Game:
    """One random game with its own wall and the bookkeeping the invariants need."""

    def __init__(self, preset: str, index: int, vary_rules: bool):
        self.rng = rng = random.Random(f"{preset}-{index}")
        self.rules = random_rules(rng, preset) if vary_rules else Rules.preset(preset)
        wall = [t for t in KINDS for _ in range(4)]
        rng.shuffle(wall)
        self.wall = wall
        coins = None
        if rng.random() < 0.3 or self.rules.base == "auto":
            coins = [rng.choice([0, 3, 20, 200, 5000]) for _ in range(4)]
        if rng.random() < 0.15 and coins is not None:
            self.rules = self.rules.replace(base="auto")
        self.coins = coins
        self.state = xueliu.new_game(self.rules, wall=wall, seed=index, dealer=rng.randrange(4), coins=coins)
        self.policy = {s: (greedy_chooser(rng.randrange(1 << 30)) if rng.random() < 0.35 else None)
                       for s in range(4)}
        self.timeout_rate = rng.choice([0.0, 0.0, 0.02])
        self.escape_at = rng.randrange(200) if rng.random() < 0.1 else None
        self.steps = 0

    def choose(self, seat):
        pol = self.policy[seat]
        if pol is not None:
            return pol(self.state, seat)
        return self.rng.choice(self.state.legal_actions(seat))

    def advance(self):
        st = self.state
        pend = st.pending()
        if self.escape_at is not None and self.steps == self.escape_at:
            st.escape(self.rng.randrange(4))
        elif self.timeout_rate and self.rng.random() < self.timeout_rate:
            st.apply_timeout(self.rng.choice(pend))
        else:
            # a server may send any subset of the answers; the window resolves with the last
            some = [s for s in pend if self.rng.random() < 0.7] or pend[:1]
            st.step({s: self.choose(s) for s in some})
        self.steps += 1


# --- the invariants ---------------------------------------------------------------------------


def check_pending(state):
    pend = state.pending()
    if state.is_over:
        assert pend == []
        return
    assert pend, "a state that is not over has nobody to decide"
    assert pend == sorted(set(pend))
    for s in pend:
        legal = state.legal_actions(s)
        assert legal, f"pending seat {s} has no legal action"
        ids = [a.id for a in legal]
        assert len(ids) == len(set(ids)), "an action is listed twice"
        for a in legal:
            assert Action.from_id(a.id) == a


class TileTrail:
    """What the events so far say of the tiles' whereabouts: the draws from the front and from the
    back of the wall, the discards nobody claimed (the river), and the last event that is not a
    payment. Fed each step's new events in order (``events(since=...)``: a tail renders as the
    tail of the whole list), it reads each event once, as a walk over the whole list would."""

    def __init__(self, back: bool):
        self.back = back
        self.n_front = self.n_back = 0
        self.river = []
        self.discard_open = self.discard_won = False
        self.robbing = None
        self.last = None

    def feed(self, events):
        for e in events:
            t = e["type"]
            if t == "pay":
                continue
            self.last = e
            if t == "tsumo":
                if e.get("rinshan") and self.back:
                    self.n_back += 1
                else:
                    self.n_front += 1
                self.discard_open = False
                self.robbing = None
            elif t == "dahai":
                self.river.append(e["pai"])
                self.discard_open, self.discard_won = True, False
                self.robbing = None
            elif t in ("pon", "daiminkan"):
                assert self.discard_open and self.river[-1] == e["pai"], \
                    f"claimed tile is not the last discard: {e}"
                self.river.pop()
                self.discard_open = False
            elif t == "kakan":
                self.robbing = e["pai"]
                self.discard_open = False
            elif t == "hora":
                if e["actor"] != e["target"] and self.discard_open and not self.discard_won:
                    assert self.river[-1] == e["pai"]
                    self.river.pop()
                    self.discard_won = True
                if e["actor"] != e["target"] and self.robbing is not None:
                    pass  # the robbed tile is set aside; it left the konger's hand at kakan
            elif t in ("ankan",):
                self.discard_open = False
                self.robbing = None


def check_tiles(game, trail):
    """All 108 tiles, kind by kind: hands + melds + unclaimed discards + set aside + live wall."""
    st = game.state
    live = game.wall[53 + trail.n_front: 108 - trail.n_back]
    views = [st.observation(s) for s in range(4)]
    obs0 = views[0]
    assert len(live) == obs0["wall_remaining"], "live wall count disagrees with the draws"
    counts = collections.Counter(live)
    counts.update(trail.river)
    counts.update(obs0["set_aside"])
    for s, obs in enumerate(views):
        counts.update(obs["hand"])
        n = len(obs["hand"])
        for m in obs["melds"][s]:
            size = 3 if m["type"] == "peng" else 4
            counts[m["tile"]] += size
            n += 3
        assert n in (13, 14), f"seat {s} holds {n} tiles (counting a meld as 3)"
    # an added kong waiting to be robbed: its tile is on the table, out of hand and meld
    last = trail.last
    if last is not None and last["type"] == "kakan" and not st.is_over:
        counts[last["pai"]] += 1
    bad = {k: counts[k] for k in KINDS if counts[k] != 4}
    assert not bad, f"tiles unaccounted for (kind: count): {bad}"
    assert sum(counts.values()) == 108


def check_money(state, coins):
    s = state.settlement()
    net = [0, 0, 0, 0]
    house = 0
    for t in s.transfers:
        assert t.reason in REASONS, t
        assert isinstance(t.amount, int) and t.amount > 0, t
        assert t.payer in (0, 1, 2, 3), t
        if t.reason in ("fee", "escape"):
            assert t.payee is None, t
            house += t.amount
        else:
            assert t.payee in (0, 1, 2, 3) and t.payee != t.payer, t
            net[t.payee] += t.amount
        net[t.payer] -= t.amount
    assert s.net == net
    assert sum(net) + house == 0, "transfers between seats do not sum to zero"
    if coins is not None:
        assert s.coins == [c + n for c, n in zip(coins, net)]
        assert all(c >= 0 for c in s.coins), "a payer went below zero"


def check_replay(state):
    rec = json.loads(json.dumps(state.record()))
    again = xueliu.replay(rec)
    assert again.events() == state.events()
    assert [tuple(t) for t in again.settlement().transfers] == [tuple(t) for t in state.settlement().transfers]
    assert again.settlement().net == state.settlement().net
    assert again.is_over == state.is_over
    assert again.pending() == state.pending()


def play_checked(preset, index, vary_rules, deep):
    g = Game(preset, index, vary_rules)
    st = g.state
    check_pending(st)
    trail = TileTrail(st.rules.kong_draw_from == "back")
    seen = st.events()
    trail.feed(seen)
    while not st.is_over:
        assert g.steps < MAX_STEPS, "the game does not end"
        g.advance()
        new = st.events(since=len(seen))
        seen += new
        trail.feed(new)
        check_pending(st)
        check_tiles(g, trail)
        check_money(st, g.coins)
        if deep:
            for s in range(4):
                check_observation(st, s)
    full = st.events()
    assert full == seen, "the events read step by step are not the whole list"
    for s in range(4):
        check_seat_events(full, st.events(s), s)
        check_observation(st, s)
    check_replay(st)
    if g.rng.random() < 0.1:
        st.settlement().report()
    return g


def games_to_play(request):
    return SOAK_GAMES if soak_enabled(request.config) else CI_GAMES


@pytest.mark.soak
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_random_games_keep_every_invariant(request, preset):
    n = games_to_play(request)
    for i in range(n):
        play_checked(preset, i, vary_rules=(i % 4 != 0), deep=(i % 10 == 0))


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_replay_reproduces_unfinished_games(preset):
    for i in range(30):
        g = Game(preset, 10_000 + i, vary_rules=True)
        stop = g.rng.randrange(1, 80)
        while not g.state.is_over and g.steps < stop:
            g.advance()
        check_replay(g.state)


def test_a_seat_that_is_not_pending_has_no_legal_actions():
    # docs/rules.md §10: a seat that has answered a joint decision leaves pending(); it may do nothing
    # more until the decision resolves, so its legal actions are empty (as for any seat not asked)
    for i in range(20):
        g = Game("xueliu", 30_000 + i, vary_rules=False)
        st = g.state
        while not st.is_over:
            for s in range(4):
                if s not in st.pending():
                    assert st.legal_actions(s) == [], f"seat {s} not pending in phase {st.phase}"
            g.advance()


# --- illegal input changes nothing ------------------------------------------------------------


def snapshot(state):
    return (
        json.dumps(state.events()),
        [json.dumps(state.observation(s), sort_keys=True) for s in range(4)],
        state.pending(),
        [(s, [a.id for a in state.legal_actions(s)]) for s in range(4)],
        [tuple(t) for t in state.settlement().transfers],
        json.dumps(state.record(), sort_keys=True),
    )


ALL_ACTIONS = [Action.from_id(i) for i in range(3794)] + [Action("multiplier", value=v) for v in (1, 2, 4, 8, 16)]


def test_illegal_actions_wrong_seats_and_wrong_types_change_nothing():
    rng = random.Random(99)
    tried = collections.Counter()
    for i in range(40):
        g = Game(rng.choice(["xueliu", "xuezhan"]), 20_000 + i, vary_rules=True)
        st = g.state
        while not st.is_over:
            pend = st.pending()
            before = snapshot(st)
            seat = rng.choice(pend)
            legal = set(a.id for a in st.legal_actions(seat))
            bad = rng.choice([a for a in ALL_ACTIONS if a.id not in legal])
            with pytest.raises(ValueError):
                st.step({seat: bad})
            tried["illegal action"] += 1
            others = [s for s in range(4) if s not in pend]
            if others:
                with pytest.raises(ValueError):
                    st.step({rng.choice(others): st.legal_actions(seat)[0]})
                with pytest.raises(ValueError):
                    st.apply_timeout(rng.choice(others))
                tried["seat not pending"] += 1
            if len(pend) > 1:
                # one legal answer and one illegal answer together: nothing is applied
                s2 = next(s for s in pend if s != seat)
                with pytest.raises(ValueError):
                    st.step({s2: st.legal_actions(s2)[0], seat: bad})
                tried["mixed step"] += 1
            with pytest.raises(ValueError):
                st.step({})
            with pytest.raises(ValueError):
                st.step({7: st.legal_actions(seat)[0]})
            with pytest.raises(TypeError):
                st.step({seat: "discard"})
            with pytest.raises(TypeError):
                st.step([(seat, st.legal_actions(seat)[0])])
            assert snapshot(st) == before, "a rejected input changed the state"
            g.advance()
        with pytest.raises(ValueError):
            st.step({0: ALL_ACTIONS[0]})
        with pytest.raises(ValueError):
            st.apply_timeout(0)
    assert tried["illegal action"] and tried["seat not pending"] and tried["mixed step"]
