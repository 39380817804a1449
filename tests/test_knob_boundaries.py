"""Validation and arithmetic at their boundaries (issue 48, kind 5).

A check that holds on the values a test happens to use can still be wrong one step away: a bool
is an int to Python (``True == 1``), 1 % of 199 coins is 1.99, and a range ends somewhere. Each
test here stands on such an edge, and each was seen to fail on a copy of the code broken there
(docs/guarantees.md, "Boundaries").
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import xueliu
from xueliu import Match, Rules
from xueliu.bots import GreedyBot, bot_seed, play_hand
from xueliu.rules.values import MAX_TABLE_FAN

FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
PROBES = (0, 1, 2, 3, 4, 7, 10, 13, 63)


def _takes_a_plain_int(name: str) -> bool:
    """Whether the knob's own check accepts some plain int: an int knob, found from the code
    (its check in xueliu.rules.values), not from a list kept by hand."""
    check = FIELDS[name].metadata["check"]
    for value in PROBES:
        try:
            check(name, value)
        except ValueError:
            continue
        return True
    return False


INT_KNOBS = tuple(name for name in FIELDS if _takes_a_plain_int(name))
BOOL_KNOBS = tuple(name for name, f in FIELDS.items() if f.type == "bool")
# What an int needs beside it to be a valid table (docs/rules.md §12.5: 无鸡 and 四鸡 need wilds).
COMPANIONS = {"no_wild_bonus": {"wild_kinds": ("1s",)}, "four_wilds": {"wild_kinds": ("1s",)}}


def test_the_int_knobs_are_found_from_the_code():
    # The probe finds every knob whose value is an int (docs/rules.md §3–§12), and no other.
    assert set(INT_KNOBS) == {
        "players", "hand_size", "exchange_count", "forced_win_last_n", "min_fan_discard_win",
        "max_fan", "direct_kong_others", "pig_penalty", "escape_penalty", "base", "room",
        "service_fee", "extra_wilds", "no_wild_bonus", "four_wilds"}
    assert not set(INT_KNOBS) & set(BOOL_KNOBS) and len(BOOL_KNOBS) >= 15


def _refused(make, knob, value):
    with pytest.raises(ValueError) as caught:
        make()
    message = str(caught.value)
    assert f"knob {knob!r}" in message and repr(value) in message, message


@pytest.mark.parametrize("knob", INT_KNOBS)
@pytest.mark.parametrize("value", [True, False])
def test_a_bool_is_refused_for_every_int_knob(knob, value):
    # Refused by the constructor, by replace, and from JSON's true/false (from_dict)...
    _refused(lambda: Rules(**{knob: value}), knob, value)
    _refused(lambda: Rules().replace(**{knob: value}), knob, value)
    _refused(lambda: Rules.from_dict(json.loads(json.dumps({knob: value}))), knob, value)
    # ...for being a bool: the int it equals is taken wherever it is in range, so the refusal
    # above is not the range's.
    try:
        FIELDS[knob].metadata["check"](knob, int(value))
    except ValueError:
        return  # e.g. players=1: out of range as an int too
    assert getattr(Rules(**COMPANIONS.get(knob, {})).replace(**{knob: int(value)}), knob) \
        == int(value)


def test_max_fan_true_is_not_a_cap_of_one():
    with pytest.raises(ValueError, match="knob 'max_fan': True"):
        Rules(max_fan=True)
    assert Rules(max_fan=1).max_fan == 1 and Rules(max_fan=None).max_fan is None


@pytest.mark.parametrize("knob", BOOL_KNOBS)
@pytest.mark.parametrize("value", [0, 1])
def test_an_int_is_refused_for_every_bool_knob(knob, value):
    _refused(lambda: Rules().replace(**{knob: value}), knob, value)


def test_bools_are_refused_inside_the_int_tables_too():
    for bad in ({"pinghu": True}, {"qingyise": False}):
        with pytest.raises(ValueError, match="knob 'fan_table'"):
            Rules(fan_table=bad)
    for bad in ([1, True], [True] * 20, [1, 2, False]):
        with pytest.raises(ValueError, match="knob 'multipliers'"):
            Rules(multipliers=bad + [1] * 20)
    for bad in ({"allowed": [True, 2], "default": 2}, {"allowed": [1, 2], "default": True}):
        with pytest.raises(ValueError, match="knob 'player_multipliers'"):
            Rules(player_multipliers=bad)
    # The ints they stand for are fine.
    assert Rules(fan_table={"pinghu": 1}).fan_table["pinghu"] == 1
    assert Rules(player_multipliers={"allowed": [1, 2], "default": 1}).player_multipliers


@pytest.mark.parametrize("knob,lowest", [
    ("forced_win_last_n", 0), ("min_fan_discard_win", 1), ("max_fan", 1),
    ("direct_kong_others", 0), ("pig_penalty", 0), ("escape_penalty", 0), ("base", 1),
    ("room", 1), ("service_fee", 0)])
def test_each_int_knob_takes_its_lowest_value_and_refuses_the_one_below(knob, lowest):
    assert getattr(Rules().replace(**{knob: lowest}), knob) == lowest
    _refused(lambda: Rules().replace(**{knob: lowest - 1}), knob, lowest - 1)


@pytest.mark.parametrize("knob,allowed", [("players", (2, 3, 4)), ("hand_size", (7, 10, 13)),
                                          ("exchange_count", (3, 4))])
def test_the_shape_knobs_take_exactly_their_values(knob, allowed):
    for value in range(0, 16):
        if value in allowed:
            assert getattr(Rules(**{knob: value}), knob) == value
        else:
            _refused(lambda: Rules(**{knob: value}), knob, value)


def test_the_table_ranges_end_where_they_say():
    assert Rules(fan_table={"pinghu": MAX_TABLE_FAN}, max_fan=63).fan_table["pinghu"] == 1000
    for fan in (0, MAX_TABLE_FAN + 1):
        with pytest.raises(ValueError, match="knob 'fan_table'"):
            Rules(fan_table={"pinghu": fan})
    top = 2 ** 63 - 1
    assert Rules(multipliers=[0] + [top] * 40).multipliers[1] == top
    for bad in (-1, 2 ** 63):
        with pytest.raises(ValueError, match="knob 'multipliers'"):
            Rules(multipliers=[1, bad] + [1] * 40)
    # Without a multipliers table 2 ** (fan - 1) must fit in 64 bits: a reachable 63 fan is fine,
    # 64 is refused.
    big = {"qingyise": 100}
    assert Rules(fan_table=big, max_fan=63).highest_fan() == 63
    with pytest.raises(ValueError, match="64 bits"):
        Rules(fan_table=big, max_fan=64)


# -- base="auto": 1 % of the smallest stack, floored (docs/rules.md §7) -----------------------------

AUTO = Rules(base="auto")


@pytest.mark.parametrize("coins,base", [
    ([150, 1000, 1000, 1000], 1),    # 1.5: rounding would make it 2
    ([199, 1000, 1000, 1000], 1),    # 1.99: rounding would make it 2
    ([1000, 1000, 250, 1000], 2),    # 2.5
    ([1000, 1000, 1000, 350], 3),    # 3.5: rounding (half to even or up) would make it 4
    ([1000, 299, 5000, 300], 2),     # the smallest stack, not the first, largest or mean
    ([100, 100, 100, 100], 1),
    ([99, 500, 500, 500], 1),        # below 1: never a stake of 0
    ([0, 500, 500, 500], 1),
    ([12_399, 20_000, 30_000, 40_000], 123),
])
def test_base_auto_is_one_percent_of_the_smallest_stack_floored(coins, base):
    assert xueliu.new_game(AUTO, seed=1, coins=coins).base == base


def test_base_auto_stakes_what_the_same_base_given_as_a_number_stakes():
    coins = [199, 10_000, 10_000, 10_000]
    for seed in range(3):
        auto = play_hand(xueliu.new_game(AUTO, seed=seed, coins=coins), [GreedyBot()] * 4)
        one = play_hand(xueliu.new_game(Rules(base=1), seed=seed, coins=coins),
                        [GreedyBot()] * 4)
        assert auto.settlement().base == 1
        assert auto.settlement().net == one.settlement().net


def test_base_auto_in_a_match_is_taken_from_the_stacks_at_each_deal():
    match = Match(AUTO, seed=7, coins=[250, 5_000, 5_000, 5_000])
    bases = []
    for _ in range(4):
        state = match.next_hand()
        assert state.base == max(1, min(match.coins) // 100)  # the stacks this hand starts with
        bases.append(state.base)
        play_hand(state, [GreedyBot()] * 4)
    assert bases[0] == 2
    with pytest.raises(ValueError, match="needs coins"):
        Match(AUTO, seed=1)
    with pytest.raises(ValueError, match="needs coins"):
        xueliu.new_game(AUTO, seed=1)


# -- the other arguments users pass: bools are not ints anywhere ---------------------------------

def test_new_game_and_match_refuse_bools_for_their_ints():
    with pytest.raises(TypeError):
        xueliu.new_game(seed=True)
    with pytest.raises(TypeError):
        xueliu.new_game(seed=1, dealer=True)
    for coins in ([True, 1000, 1000, 1000], [1000, 1000, 1000, False]):
        with pytest.raises(ValueError, match="coins"):
            xueliu.new_game(seed=1, coins=coins)
        with pytest.raises(ValueError, match="coins"):
            Match(seed=1, coins=coins)
    with pytest.raises(ValueError, match="dice"):
        xueliu.new_game(seed=1, dice=(True, 3))
    with pytest.raises(TypeError):
        Match(seed=False)
    # ...and each range ends where it says.
    assert xueliu.new_game(seed=1, dealer=3).dealer == 3
    for dealer in (-1, 4):
        with pytest.raises(ValueError, match="dealer"):
            xueliu.new_game(seed=1, dealer=dealer)
    for dice in ((0, 3), (3, 7)):
        with pytest.raises(ValueError, match="dice"):
            xueliu.new_game(seed=1, dice=dice)
    assert xueliu.new_game(seed=1, dice=(1, 6)).dice == (1, 6)
    with pytest.raises(ValueError, match="coins"):
        xueliu.new_game(seed=1, coins=[-1, 0, 0, 0])
    assert xueliu.new_game(seed=1, coins=[0, 0, 0, 0]).base == 1


def test_bot_seeds_and_reviews_refuse_bools():
    for args in ((True, 0, 0), (0, False, 0), (0, 0, True)):
        with pytest.raises(TypeError):
            bot_seed(*args)
    from xueliu.review import review_record

    record = play_hand(xueliu.new_game(seed=2), [GreedyBot()] * 4).record()
    with pytest.raises(TypeError):
        review_record(record, True)
    for seat in (-1, 4):
        with pytest.raises(ValueError, match="seat"):
            review_record(record, seat)


def test_simulate_and_arena_refuse_bools_for_their_counts():
    from xueliu.arena import arena
    from xueliu.simulate import simulate

    bots = ("random",) * 4
    for kwargs in (dict(games=True), dict(games=4, workers=True), dict(games=4, seed=True),
                   dict(games=4, bot_timeout=True), dict(games=4, bot_observation=1)):
        games = kwargs.pop("games")
        with pytest.raises((ValueError, TypeError)):
            simulate(games, bots=bots, **kwargs)
    for kwargs in (dict(walls=True), dict(walls=1, workers=True), dict(walls=1, seed=False),
                   dict(walls=1, bot_timeout=True)):
        with pytest.raises(ValueError):
            arena(["random"], **kwargs)
    # One hand, one wall, seed 0 and a worker are all fine.
    assert simulate(1, bots=bots, seed=0, workers=1).bots[0].seat_hands == 4
    assert arena(["random"], 1, seed=0, workers=1, rules="erren_yifang").lines[0].hands == 2
