"""Records and replay (issue 3 contract): ``state.record()`` is JSON-serialisable;
``xueliu.replay(record)`` reproduces the same events and settlement exactly; a record that does
not fit is a clear ``ValueError``."""

import copy
import json
import random

import pytest

import xueliu
from xueliu.rules import Rules

from .conftest import act, build_wall, new_game, play_out, transfers, xl_rules


def random_game(rules="xueliu", seed=1, choice_seed=0, stop_after=None, **kw):
    state = xueliu.new_game(rules, seed=seed, **kw)
    rng = random.Random(choice_seed)
    steps = 0
    while not state.is_over and (stop_after is None or steps < stop_after):
        state.step({s: rng.choice(state.legal_actions(s)) for s in state.pending()})
        steps += 1
    return state


def same_game(a, b):
    assert b.events() == a.events()
    for s in range(4):
        assert b.events(s) == a.events(s)
        assert b.observation(s) == a.observation(s)
    assert b.is_over == a.is_over
    assert b.pending() == a.pending()
    sa, sb = a.settlement(), b.settlement()
    assert [tuple(t) for t in sb.transfers] == [tuple(t) for t in sa.transfers]
    assert sb.net == sa.net
    if a.is_over:
        assert sb.report() == sa.report()


def through_json(rec):
    return json.loads(json.dumps(rec))


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_record_is_json_and_replays_exactly(preset):
    for seed in range(3):
        state = random_game(preset, seed=seed, choice_seed=seed)
        again = xueliu.replay(through_json(state.record()))
        same_game(state, again)


def test_replay_of_a_scripted_wall():
    sw = build_wall(["5p *", "123m456m789m123p5p", "*", "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    again = xueliu.replay(through_json(state.record()))
    same_game(state, again)
    assert transfers(again) == [(0, 1, 1, "hu")]


def test_replay_of_an_unfinished_hand_continues_identically():
    state = random_game("xuezhan", seed=4, stop_after=20)
    assert not state.is_over
    again = xueliu.replay(through_json(state.record()))
    same_game(state, again)
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not state.is_over:
        state.step({s: rng_a.choice(state.legal_actions(s)) for s in state.pending()})
        again.step({s: rng_b.choice(again.legal_actions(s)) for s in again.pending()})
    same_game(state, again)


def test_replay_with_timeouts_escapes_and_coins():
    state = xueliu.new_game("xueliu", seed=7, coins=[500, 40, 300, 1000])
    rng = random.Random(3)
    state.apply_timeout(state.pending()[0])
    state.escape(3)
    n = 0
    while not state.is_over:
        pend = state.pending()
        if n % 7 == 3:
            state.apply_timeout(pend[0])
        else:
            state.step({s: rng.choice(state.legal_actions(s)) for s in pend})
        n += 1
    again = xueliu.replay(through_json(state.record()))
    same_game(state, again)
    assert again.settlement().coins == state.settlement().coins


def test_replay_with_every_knob_changed():
    rules = Rules.preset("xuezhan").replace(
        exchange_direction="opposite", exchange_same_suit=False, kong_draw_from="back",
        pass_blocks_discard_win="not_higher", multiple_winners=False, kong_settle="on_win",
        self_draw_bonus="fan", menqing=True, max_fan=5, base=2, room=3, service_fee=1,
    )
    state = random_game(rules, seed=11, choice_seed=2)
    same_game(state, xueliu.replay(through_json(state.record())))


# --- corrupt records ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good_record():
    return through_json(random_game("xueliu", seed=21, choice_seed=5).record())


def corrupt(rec, how):
    rec = copy.deepcopy(rec)
    how(rec)
    return rec


def _first_action_decision(rec):
    return next(i for i, d in enumerate(rec["decisions"]) if isinstance(d[1], int))


CORRUPTIONS = {
    "not a dict": lambda r: None,
    "wrong format": lambda r: r.__setitem__("format", "mjai"),
    "future version": lambda r: r.__setitem__("version", 999),
    "no rules": lambda r: r.pop("rules"),
    "unknown knob": lambda r: r["rules"].__setitem__("chow", True),
    "bad knob value": lambda r: r["rules"].__setitem__("mode", "riichi"),
    "no seed and no wall": lambda r: (r.__setitem__("seed", None), r.__setitem__("wall", None)),
    "short wall": lambda r: r.__setitem__("wall", ["1m"] * 107),
    "fifth copy in wall": lambda r: r.__setitem__("wall", ["1m"] * 5 + ["2m"] * 103),
    "bad dealer": lambda r: r.__setitem__("dealer", 7),
    "decisions not a list": lambda r: r.__setitem__("decisions", "all of them"),
    "decision of seat 9": lambda r: r["decisions"].insert(0, [9, r["decisions"][0][1]]),
    "illegal action id": lambda r: r["decisions"].__setitem__(
        _first_action_decision(r), [r["decisions"][_first_action_decision(r)][0], 10**6]),
    "malformed decision": lambda r: r["decisions"].insert(0, ["x"]),
    "unknown decision word": lambda r: r["decisions"].insert(0, [0, "resign"]),
    "decision after the end": lambda r: r["decisions"].append(list(r["decisions"][-1])),
    "a decision dropped": lambda r: r["decisions"].pop(),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_records_are_rejected_with_a_value_error(good_record, name):
    if name == "not a dict":
        bad = ["not", "a", "record"]
    else:
        bad = corrupt(good_record, CORRUPTIONS[name])
    with pytest.raises(ValueError):
        xueliu.replay(bad)


def test_a_decision_for_the_wrong_seat_is_rejected():
    state = random_game("xueliu", seed=22, stop_after=0)
    rec = through_json(state.record())
    pend = state.pending()
    other = next(s for s in range(4) if s not in pend) if len(pend) < 4 else None
    if other is None:
        # everyone is pending in the exchange: answer twice for seat 0 instead
        a = state.legal_actions(0)[0].id
        rec["decisions"] = [[0, a], [0, a]]
    else:
        rec["decisions"] = [[other, state.legal_actions(pend[0])[0].id]]
    rec.pop("result", None)
    with pytest.raises(ValueError):
        xueliu.replay(rec)


def test_the_good_record_itself_replays(good_record):
    assert xueliu.replay(good_record).is_over
