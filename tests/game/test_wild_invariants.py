"""Invariants over random games with wild tiles (docs/rules.md §12): every wild preset, and random
mixes of the §12 knobs with the flow knobs of §10–§11.

After every step:
- every physical tile is accounted for, kind by kind (红中 included): the hands, the melds with
  their wilds, the discards, the tiles set aside, the live wall, the face-up 本金 and an added
  kong's tile waiting to be robbed;
- transfers between seats sum to zero (house income aside);
- a state that is not over has a pending seat, and every pending seat a legal action;
- under ``wild_discard = "forbidden"`` a wild is offered as a discard only to a seat holding
  nothing else, with no 胡 offered; a dead wild discard opens no claim window;
- no seat's observation shows another seat's concealed tiles (wilds included) or the wilds of
  another seat's concealed kong, and every seat sees the 本金.
At the end every seat's event stream is the whole stream with exactly the hidden parts masked,
and ``xueliu.replay(state.record())`` reproduces the game. ``--soak`` plays ten times as many.
"""

from __future__ import annotations

import collections
import json
import random
from typing import Any, Dict, List, Optional

import pytest

import xueliu
from xueliu.game import Action
from xueliu.rules import WILD_PRESET_NAMES, Rules

from .conftest import check_seat_events, soak_enabled

PHYSICAL = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + ["7z"]
GAMES_PER_PRESET = 120
MIXED_GAMES = 300
MAX_STEPS = 4000


def random_wild_rules(rng: random.Random) -> Rules:
    """A wild preset with random §12 knobs and random flow knobs."""
    base = Rules.preset(rng.choice(WILD_PRESET_NAMES))
    knobs: Dict[str, Any] = {}
    wild_kinds = rng.choice([("1s",), ("1s", "1p"), ("1m", "1s", "1p"), "benjin", "benjin_plus",
                             (), base.wild_kinds])
    extra = 0 if isinstance(wild_kinds, str) else rng.choice([0, 4, 8, 12])
    if wild_kinds == () and extra == 0:
        extra = 4
    knobs.update(wild_kinds=wild_kinds, extra_wilds=extra)
    choices = {
        "wild_discard": ["forbidden", "dead"],
        "soft_peng": ["off", "one", "two"],
        "soft_kong": [True, False],
        "swap_back": [True, False],
        "four_wilds": [None, 3, "cap"],
        "no_wild_bonus": [0, 1, 3],
        "wild_gen": ["fours", "natural", "per_wild"],
        "soft_kong_pay": ["same", "hard_double"],
        "wild_fifth_copy": [True, False],
        "mode": ["xueliu", "xuezhan", "daodaohu"],
        "exchange_three": [True, False],
        "declare_void": [True, False],
        "kong_draw_from": ["front", "back"],
        "pass_blocks_discard_win": ["off", "not_higher", "any"],
        "forced_win_last_n": [0, 4, 9],
        "multiple_winners": [True, False],
        "post_win_kongs": [frozenset(), frozenset({"concealed", "direct", "added"})],
        "heavenly_earthly": [True, False],
        "added_kong_payment": ["always", "fresh_only"],
        "kong_settle": ["immediate", "on_win"],
        "self_draw_only": [True, False],
        "dead_waits_ready": [True, False],
    }
    for k, v in choices.items():
        if rng.random() < 0.5:
            knobs[k] = rng.choice(v)
    if knobs.get("four_wilds", base.four_wilds) == "cap" and base.max_fan is None:
        knobs["max_fan"] = 5
    rules = base.replace(**knobs)
    if rules.multipliers is not None and len(rules.multipliers) < rules.highest_fan():
        rules = rules.replace(multipliers=None)
    return rules


def greedy(rng: random.Random):
    """Wins when it can, melds now and then, else discards at random among the discards that keep
    the hand's shanten lowest (read with the hand calls under the table's wild set)."""

    def choose(state, seat):
        legal = state.legal_actions(seat)
        kinds = collections.defaultdict(list)
        for a in legal:
            kinds[a.kind].append(a)
        if "hu" in kinds:
            return kinds["hu"][0]
        for k in ("kong", "concealed_kong", "added_kong", "swap_back", "peng"):
            if k in kinds and rng.random() < 0.5:
                return rng.choice(kinds[k])
        if "discard" not in kinds:
            return rng.choice(legal)
        obs = state.observation(seat)
        best, score = [], None
        for a in kinds["discard"]:
            hand = list(obs["hand"])
            hand.remove(a.tile)
            try:
                sh = xueliu.shanten(hand_text(hand, obs["melds"][seat]), void=obs["void"],
                                    rules=state.rules, benjin=state.benjin)
            except ValueError:
                sh = 99
            if score is None or sh < score:
                best, score = [a], sh
            elif sh == score:
                best.append(a)
        return rng.choice(best)

    return choose


def hand_text(hand: List[str], melds: List[Dict[str, Any]]) -> str:
    text = "".join(hand)
    for m in melds:
        size = 3 if m["type"] == "peng" else 4
        wilds = m.get("wilds") or []
        tile = m["tile"]
        inner = tile[0] * (size - len(wilds)) + tile[1] + "".join(wilds)
        text += f"[{inner}]" if m["type"] == "concealed_kong" else f"({inner})"
    return text


class WildGame:
    def __init__(self, index: int, rules: Optional[Rules], preset: Optional[str] = None):
        self.rng = rng = random.Random(f"wild-{preset}-{index}")
        self.rules = rules if rules is not None else random_wild_rules(rng)
        self.state = xueliu.new_game(self.rules, seed=index, dealer=rng.randrange(4))
        self.policy = {s: greedy(random.Random(rng.random())) if rng.random() < 0.6 else None
                       for s in range(4)}
        self.timeout_rate = rng.choice([0.0, 0.0, 0.03])
        self.steps = 0

    def advance(self) -> None:
        st = self.state
        pend = st.pending()
        if self.timeout_rate and self.rng.random() < self.timeout_rate:
            st.apply_timeout(self.rng.choice(pend))
        else:
            some = [s for s in pend if self.rng.random() < 0.7] or pend[:1]
            answers = {}
            for s in some:
                pol = self.policy[s]
                answers[s] = pol(st, s) if pol else self.rng.choice(st.legal_actions(s))
            st.step(answers)
        self.steps += 1


def check_tiles(state) -> None:
    """Every physical tile of the wall set, kind by kind."""
    obs = state.observation(None)
    counts = collections.Counter(obs["wall"])
    for o in range(state.seats):
        counts.update(obs["hands"][o])
        counts.update(obs["discards"][o])
        for m in obs["melds"][o]:
            size = 3 if m["type"] in ("peng",) else 4
            wilds = m["wilds"]
            counts[m["tile"]] += size - len(wilds)
            counts.update(wilds)
    counts.update(obs["set_aside"])
    if obs["wilds"]["benjin"] is not None:
        counts[obs["wilds"]["benjin"]] += 1
    last = next((e for e in reversed(state.events()) if e["type"] != "pay"), None)
    if last is not None and last["type"] == "kakan" and not state.is_over:
        counts[last["pai"]] += 1  # an added kong waiting to be robbed
    rules = state.rules
    for name in PHYSICAL:
        k = PHYSICAL.index(name)
        if name == "7z":
            want = rules.extra_wilds
        else:
            want = 4 if "mps"[k // 9] in rules.suits else 0
        assert counts[name] == want, f"{counts[name]} of {name}, the wall set holds {want}"


def check_money(state) -> None:
    s = state.settlement()
    net = [0] * state.seats
    house = 0
    for t in s.transfers:
        assert isinstance(t.amount, int) and t.amount > 0, t
        if t.payee is None:
            house += t.amount
        else:
            assert t.payee != t.payer
            net[t.payee] += t.amount
        net[t.payer] -= t.amount
    assert s.net == net and sum(net) + house == 0


def check_pending_and_discards(state) -> None:
    pend = state.pending()
    if state.is_over:
        assert pend == []
        return
    assert pend, "a state that is not over has nobody to decide"
    wilds = set(state.wild_kinds)
    for s in pend:
        legal = state.legal_actions(s)
        assert legal, f"pending seat {s} has no legal action"
        assert len({a.id for a in legal}) == len(legal)
        for a in legal:
            assert Action.from_id(a.id) is a
        if state.rules.wild_discard == "forbidden":
            wild_discards = [a for a in legal if a.kind == "discard" and a.tile in wilds]
            if wild_discards:
                hand = state.observation(s)["hand"]
                assert all(t in wilds for t in hand), "a wild discard offered beside naturals"
                assert all(a.kind != "hu" for a in legal), "a wild discard offered beside a 胡"


def check_sight(state) -> None:
    full = state.observation(None)
    for s in range(state.seats):
        obs = state.observation(s)
        json.dumps(obs)
        assert obs["hand"] == full["hands"][s]
        assert "hands" not in obs and "wall" not in obs
        assert obs["wilds"] == full["wilds"], "the wild kinds and the 本金 are public"
        for o in range(state.seats):
            for m in obs["melds"][o]:
                if m["type"] == "concealed_kong" and o != s:
                    assert m["tile"] == "?" and m["wilds"] is None


def check_dead_discards(state) -> None:
    """A discarded wild opens no claim window: the next event is the next seat's draw (or the end)."""
    events = [e for e in state.events() if e["type"] != "pay"]
    wilds = set(state.wild_kinds)
    for e, nxt in zip(events, events[1:]):
        if e["type"] == "dahai" and e["pai"] in wilds:
            assert nxt["type"] in ("tsumo", "end_checks", "end_hand"), (e, nxt)


def play_checked(game: WildGame, deep: bool) -> None:
    st = game.state
    check_pending_and_discards(st)
    while not st.is_over:
        assert game.steps < MAX_STEPS, "the game does not end"
        game.advance()
        check_pending_and_discards(st)
        check_tiles(st)
        check_money(st)
        if deep:
            check_sight(st)
    check_sight(st)
    check_dead_discards(st)
    full = st.events()
    for s in range(st.seats):
        check_seat_events(full, st.events(s), s)
    rec = json.loads(json.dumps(st.record()))
    again = xueliu.replay(rec)
    assert again.events() == full
    assert again.settlement().net == st.settlement().net


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_random_games_of_every_wild_preset_keep_every_invariant(request, preset):
    n = GAMES_PER_PRESET * (10 if soak_enabled(request.config) else 1)
    seen = collections.Counter()
    for i in range(n):
        game = WildGame(i, Rules.preset(preset), preset)
        play_checked(game, deep=i % 10 == 0)
        for e in game.state.events():
            seen[e["type"]] += 1
    assert seen["hora"] > n / 2, "the greedy seats should win often"
    assert seen["pon"], "no peng in all those games"


def test_random_mixes_of_the_wild_knobs_keep_every_invariant(request):
    n = MIXED_GAMES * (10 if soak_enabled(request.config) else 1)
    seen = collections.Counter()
    for i in range(n):
        game = WildGame(i, None)
        play_checked(game, deep=i % 10 == 0)
        for e in game.state.events():
            seen[e["type"]] += 1
            if e["type"] == "hora":
                seen["base " + e["base"]] += 1
    for t in ("ti", "benjin", "kakan", "daiminkan", "ankan", "base siji"):
        assert seen[t], f"no {t} in {n} random games: the mixes should reach it"
