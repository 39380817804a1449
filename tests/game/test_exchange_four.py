"""换四张 (docs/rules.md §11.1 knob ``exchange_count = 4``): each seat gives four tiles instead of three,
of one suit with ``exchange_same_suit``; a seat with no suit holding four (a 7-tile hand) may give
any four; the timeout gives the four highest tiles of the shortest suit holding four (if none, the
hand's four highest). Four-tile exchanges have their own action ids after the multipliers, so no
earlier id moved; the learning space asks them as four single-tile picks."""

from __future__ import annotations

import collections
import itertools
import json
import random
from typing import Dict, List, Sequence

import pytest

import xueliu
from xueliu import Action
from xueliu.game.actions import (EXCHANGE4_BASE, EXCHANGE4_END, MAX_MULTIPLIER, MULTIPLIER_BASE, NUM_ACTIONS,
                                 exchange_kinds, quadruple_index)
from xueliu.learn import EXCHANGE_PICK, action_mask, to_action
from xueliu.rules import Rules

from .conftest import KIND, check_observation, check_seat_events, events, obs_hand
from .test_shape_invariants import play_to_end

HUANSIZHANG = Rules.preset("xueliu").replace(exchange_count=4, exchange_direction="next")


def deal_wall(rules: Rules, hands: Dict[int, str], dealer: int = 0, seed: int = 0) -> List[str]:
    """A wall (draw order) that deals ``hands[seat]`` (tile text: ``hand_size`` tiles, one more
    for the dealer) to the seats named, by the table's deal plan (docs/rules.md §11.1: takes of four
    round-robin from the dealer, then the rest); every other tile in a seeded shuffle."""
    shape = rules.shape
    at: Dict[int, List[int]] = {s: [] for s in range(shape.players)}
    pos = 0
    for offset, take in shape.deal_plan:
        at[(dealer + offset) % shape.players] += range(pos, pos + take)
        pos += take
    pool = collections.Counter({xueliu.tiles.TILE_NAMES[k]: 4 for k in shape.kinds})
    wall: List[str] = [""] * shape.wall_tiles
    for s, text in hands.items():
        ts = _tiles(text)
        assert len(ts) == len(at[s]), f"seat {s}: {len(ts)} tiles, the deal gives {len(at[s])}"
        for i, t in zip(at[s], ts):
            wall[i] = t
            pool[t] -= 1
            assert pool[t] >= 0, f"a fifth {t}"
    left = list(pool.elements())
    random.Random(seed).shuffle(left)
    return [t if t else left.pop() for t in wall]


def _tiles(text: str) -> List[str]:
    """``"123m45p"`` as tile names, in the order written."""
    out: List[str] = []
    digits: List[str] = []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
        else:
            out += [d + ch for d in digits]
            digits = []
    return out


def sorted_tiles(ts: Sequence[str]) -> List[str]:
    return sorted(ts, key=KIND.__getitem__)


def fours_of(hand: Sequence[str], same_suit: bool) -> List[tuple]:
    """Every sorted multiset of four tiles of ``hand`` (of one suit when ``same_suit`` and some
    suit holds four), in lexicographic order of kinds: what docs/rules.md §11.1 lets a seat give."""
    counts = collections.Counter(hand)
    kinds = sorted(counts, key=KIND.__getitem__)
    fits = [u for u in "mps" if sum(c for t, c in counts.items() if t[1] == u) >= 4]
    out = []
    for combo in itertools.combinations_with_replacement(kinds, 4):
        if any(combo.count(t) > counts[t] for t in combo):
            continue
        if same_suit and fits and (len({t[1] for t in combo}) > 1 or combo[0][1] not in fits):
            continue
        out.append(combo)
    return out


def exchange_all(state: xueliu.GameState, choose=lambda legal: legal[0]) -> Dict[int, List[str]]:
    """Every seat gives ``choose(its legal exchanges)``; returns what each gave."""
    picks = {s: choose(state.legal_actions(s)) for s in range(state.seats)}
    state.step(picks)
    return {s: list(a.tiles) for s, a in picks.items()}


def check_received_from(before, given, after, shift: int, n: int) -> None:
    for s in range(n):
        h = collections.Counter(before[s])
        h.subtract(given[s])
        h.update(given[(s + shift) % n])
        assert sorted_tiles(h.elements()) == after[s], f"seat {s}"


# ------------------------------------------------------------------------ the exchange itself

def test_huansizhang_each_seat_gives_four_tiles_of_one_suit():
    state = xueliu.new_game(HUANSIZHANG, seed=11)
    assert state.phase == "exchange" and state.pending() == [0, 1, 2, 3]
    before = {s: obs_hand(state, s) for s in range(4)}
    for s in range(4):
        legal = state.legal_actions(s)
        assert legal and all(a.kind == "exchange" and len(a.tiles) == 4 for a in legal)
        assert all(len({t[1] for t in a.tiles}) == 1 for a in legal), "four of one suit"
        assert [a.tiles for a in legal] == fours_of(before[s], same_suit=True)
        assert all(EXCHANGE4_BASE <= a.id < EXCHANGE4_END for a in legal)
    given = exchange_all(state, lambda legal: legal[len(legal) // 2])
    after = {s: obs_hand(state, s) for s in range(4)}
    check_received_from(before, given, after, shift=1, n=4)  # "next": from the next seat
    ev = next(e for e in events(state) if e["type"] == "huansanzhang")
    assert ev["given"] == [sorted_tiles(given[s]) for s in range(4)]
    assert all(len(r) == 4 for r in ev["received"])
    # Each seat sees its own four given and received, and four hidden tiles of every other seat.
    for s in range(4):
        mine = next(e for e in events(state, s) if e["type"] == "huansanzhang")
        for o in range(4):
            if o == s:
                assert mine["given"][o] == ev["given"][o]
                assert mine["received"][o] == ev["received"][o]
            else:
                assert mine["given"][o] == ["?"] * 4 and mine["received"][o] == ["?"] * 4
        ex = state.observation(s)["exchange"]
        assert ex["given"] == ev["given"][s] and ex["received"] == ev["received"][s]
        check_observation(state, s)
        check_seat_events(events(state), events(state, s), s)
    assert state.phase == "void"


def test_huansizhang_with_exchange_same_suit_off_gives_any_four_tiles():
    state = xueliu.new_game(HUANSIZHANG.replace(exchange_same_suit=False), seed=4)
    for s in range(4):
        legal = state.legal_actions(s)
        assert [a.tiles for a in legal] == fours_of(obs_hand(state, s), same_suit=False)
        assert any(len({t[1] for t in a.tiles}) > 1 for a in legal)


def test_a_three_seat_huansizhang_passes_four_tiles_from_the_previous_seat():
    rules = Rules.preset("sanren_sanfang").replace(
        exchange_three=True, exchange_count=4, exchange_direction="previous")
    state = xueliu.new_game(rules, seed=3)
    assert state.pending() == [0, 1, 2]
    before = {s: obs_hand(state, s) for s in range(3)}
    given = exchange_all(state, lambda legal: legal[-1])
    assert all(len(g) == 4 and len({t[1] for t in g}) == 1 for g in given.values())
    after = {s: obs_hand(state, s) for s in range(3)}
    check_received_from(before, given, after, shift=2, n=3)  # previous of s is s + 2 (mod 3)
    assert [len(h) for h in after.values()] == [14, 13, 13]


def test_a_two_seat_huansizhang_swaps_four_tiles_with_the_other_seat():
    rules = Rules.preset("erren_yifang").replace(exchange_three=True, exchange_count=4)
    state = xueliu.new_game(rules, seed=8)
    before = {s: obs_hand(state, s) for s in range(2)}
    assert [len(h) for h in before.values()] == [8, 7]
    given = exchange_all(state)
    after = {s: obs_hand(state, s) for s in range(2)}
    check_received_from(before, given, after, shift=1, n=2)
    ev = next(e for e in events(state) if e["type"] == "huansanzhang")
    assert ev["direction"] == "next" and ev["received"] == [ev["given"][1], ev["given"][0]]
    assert state.phase == "turn"  # one suit: no 定缺


# ------------------------------------------------------------------------ the timeout default

def test_the_timeout_exchange_of_four_takes_the_highest_tiles_of_the_shortest_suit_of_four():
    # Seat 1: 3 万 (too few to give four), 4 筒, 6 条: the shortest suit holding four is 筒.
    # Seat 2: 4 万 and 4 筒 tie at four: the lower suit, 万.
    wall = deal_wall(HUANSIZHANG, {1: "129m1239p123456s", 2: "1258m3478p23456s"})
    state = xueliu.new_game(HUANSIZHANG, wall=wall)
    assert obs_hand(state, 1) == _tiles("129m1239p123456s")
    assert state.apply_timeout(1).tiles == ("1p", "2p", "3p", "9p")
    assert state.apply_timeout(2).tiles == ("1m", "2m", "5m", "8m")
    # Under 换三张 the same seat 1 would give its three 万.
    three = xueliu.new_game(HUANSIZHANG.replace(exchange_count=3), wall=wall)
    assert three.apply_timeout(1).tiles == ("1m", "2m", "9m")


def test_a_seven_tile_hand_with_no_suit_of_four_may_give_any_four():
    rules = HUANSIZHANG.replace(hand_size=7, declare_void=False)
    wall = deal_wall(rules, {0: "1234m5p678s", 1: "123m45p67s", 2: "5555m1p11s"}, seed=2)
    state = xueliu.new_game(rules, wall=wall)
    hand = obs_hand(state, 1)
    assert hand == _tiles("123m45p67s")  # 3 + 2 + 2: no suit holds four
    legal = state.legal_actions(1)
    assert [a.tiles for a in legal] == [tuple(c) for c in itertools.combinations(hand, 4)]
    assert ("1m", "2m", "4p", "7s") in [a.tiles for a in legal]
    # A seat that holds four of one suit still gives four of one suit.
    assert all(len({t[1] for t in a.tiles}) == 1 for a in state.legal_actions(0))
    assert [a.tiles for a in state.legal_actions(2)] == [("5m",) * 4]  # all four copies
    # The timeout gives the hand's four highest tiles.
    assert state.apply_timeout(1).tiles == ("4p", "5p", "6s", "7s")
    state.step({s: state.legal_actions(s)[0] for s in (0, 2, 3)})
    assert "5m" not in obs_hand(state, 2)
    assert sorted_tiles(obs_hand(state, 1)) == sorted_tiles(_tiles("123m") + ["5m"] * 4)


# ------------------------------------------------------------------------ action ids

def test_the_ids_of_three_tile_exchanges_and_multipliers_are_unchanged():
    assert Action("exchange", tiles=("1m", "1m", "1m")).id == 140
    assert Action("exchange", tiles=("1m", "1m", "2m")).id == 141
    assert Action("exchange", tiles=("9s", "9s", "9s")).id == 3793
    assert Action("multiplier", value=1).id == MULTIPLIER_BASE == 3794
    assert Action("multiplier", value=MAX_MULTIPLIER).id == 3794 + 1024 - 1 == 4817
    assert Action.from_id(3801) == Action("multiplier", value=8)


def test_four_tile_exchanges_are_numbered_after_the_multipliers_in_lexicographic_order():
    assert EXCHANGE4_BASE == 4818
    quadruples = list(itertools.combinations_with_replacement(range(27), 4))
    assert EXCHANGE4_END == 4818 + len(quadruples) == 32223
    assert [exchange_kinds(4818 + i) for i in range(len(quadruples))] == quadruples
    assert [quadruple_index(q) for q in quadruples] == list(range(len(quadruples)))
    assert Action("exchange", tiles=("1m",) * 4).id == 4818
    assert Action("exchange", tiles=("1m", "1m", "1m", "2m")).id == 4819
    assert Action("exchange", tiles=("9s",) * 4).id == EXCHANGE4_END - 1
    for i in (4818, 5000, 20000, EXCHANGE4_END - 1):
        a = Action.from_id(i)
        assert a.kind == "exchange" and a.id == i and len(a.tiles) == 4
        assert tuple(KIND[t] for t in a.tiles) == quadruples[i - 4818] == exchange_kinds(i)
        assert Action("exchange", tiles=tuple(reversed(a.tiles))) is a
        assert eval(repr(a), {"Action": Action}) is a
        assert a.to_dict() == {"kind": "exchange", "tiles": list(a.tiles)}
    with pytest.raises(ValueError, match="no action has id 32251"):
        Action.from_id(NUM_ACTIONS)
    with pytest.raises(ValueError, match="is no exchange"):
        exchange_kinds(EXCHANGE4_END)  # 32223 is the 红中 discard (docs/rules.md §12.3)


# ------------------------------------------------------------------------ bad input

def snapshot(state: xueliu.GameState):
    return (state.pending(), [state.legal_actions(s) for s in range(state.seats)],
            events(state), json.dumps(state.record()), [obs_hand(state, s) for s in range(4)])


def test_an_exchange_of_three_tiles_when_four_are_asked_is_refused_and_changes_nothing():
    state = xueliu.new_game(HUANSIZHANG, seed=11)
    suit = state.legal_actions(0)[0].tiles[0][1]
    three = tuple(t for t in obs_hand(state, 0) if t[1] == suit)[:3]
    before = snapshot(state)
    with pytest.raises(ValueError, match="exchanges 4 tiles"):
        state.step({0: Action("exchange", tiles=three)})
    with pytest.raises(ValueError, match="exchanges 4 tiles"):
        state.step({0: state.legal_actions(0)[0], 1: Action("exchange", tiles=three).id})
    assert snapshot(state) == before
    # And the other way round: four tiles on a 换三张 table.
    default = xueliu.new_game("xueliu", seed=11)
    four = state.legal_actions(0)[0]
    with pytest.raises(ValueError, match="exchanges 3 tiles"):
        default.step({0: four})


def test_a_fifth_copy_or_tiles_the_seat_does_not_hold_are_refused_and_change_nothing():
    state = xueliu.new_game(HUANSIZHANG, seed=11)
    before = snapshot(state)
    with pytest.raises(ValueError, match="three or four tile names"):
        Action("exchange", tiles=("1m",) * 5)
    hand = collections.Counter(obs_hand(state, 0))
    lacking = next(t for t in ("1m", "2m", "3m", "4m", "5m") if hand[t] < 4)
    with pytest.raises(ValueError, match="not legal for seat 0"):
        state.step({0: Action("exchange", tiles=(lacking,) * 4)})
    with pytest.raises(ValueError, match="three or four tile names"):
        Action("exchange", tiles=("1m", "2m", "3m", "1z"))
    assert snapshot(state) == before


# ------------------------------------------------------------------------ learning: four picks

def test_the_learning_mask_chains_four_picks_into_one_exchange():
    state = xueliu.new_game(HUANSIZHANG, seed=11)
    legal = {tuple(KIND[t] for t in a.tiles) for a in state.legal_actions(0)}
    picks: List[int] = []
    for n in range(4):
        mask = action_mask(state, 0, picks=picks)
        allowed = [i - EXCHANGE_PICK for i in range(EXCHANGE_PICK, EXCHANGE_PICK + 27) if mask[i]]
        want = sorted({k for q in legal if _contains(q, picks) for k in _minus(q, picks)})
        assert allowed == want, f"pick {n + 1}"
        assert mask.sum() == len(allowed)  # nothing but picks is allowed
        if n < 3:
            with pytest.raises(ValueError, match="only as pick 4 of 4"):
                to_action(state, 0, EXCHANGE_PICK + allowed[0], picks=picks)
            picks.append(allowed[-1])
    action = to_action(state, 0, EXCHANGE_PICK + allowed[-1], picks=picks)
    assert tuple(KIND[t] for t in action.tiles) == tuple(sorted(picks + [allowed[-1]]))
    assert action in state.legal_actions(0)
    with pytest.raises(ValueError, match="at most three come before the last"):
        action_mask(state, 0, picks=picks + [allowed[-1]])
    # The default table still takes three picks.
    default = xueliu.new_game("xueliu", seed=1)
    assert to_action(default, 0, EXCHANGE_PICK + 6, picks=(1, 1)).tiles == ("2m", "2m", "7m")
    with pytest.raises(ValueError, match="this exchange has 3 picks"):
        action_mask(default, 0, picks=(1, 1, 6))


def test_a_learning_table_asks_each_seat_four_picks_before_the_exchange_is_made():
    from xueliu.envs.table import Table
    from xueliu.learn import encoder

    table = Table(HUANSIZHANG, "final", encoder("obs_v1"))
    state = table.state
    assert state.phase == "exchange"
    gave = {}
    for seat in state.pending():
        for n in range(4):
            mask = table.mask(seat)
            pick = max(i for i in range(EXCHANGE_PICK, EXCHANGE_PICK + 27) if mask[i])
            result = table.answer(seat, pick)
            assert not table.illegal
            assert len(table.picks[seat]) == (n + 1) % 4, "the picks are kept until the fourth"
        gave[seat] = table.answers.get(seat)
        if seat != state.pending()[-1]:
            assert result is None and len(gave[seat].tiles) == 4
    assert result is not None and table.state.phase == "void"
    ev = next(e for e in events(table.state) if e["type"] == "huansanzhang")
    assert all(len(g) == 4 for g in ev["given"])


def _contains(q, picks) -> bool:
    rest = list(q)
    for p in picks:
        if p not in rest:
            return False
        rest.remove(p)
    return True


def _minus(q, picks) -> List[int]:
    rest = list(q)
    for p in picks:
        rest.remove(p)
    return rest


# ------------------------------------------------------------------------ random hands

@pytest.mark.parametrize("players,suits,hand_size", [
    (4, ("m", "p", "s"), 13), (4, ("m", "p", "s"), 7), (3, ("m", "p", "s"), 10),
    (3, ("p", "s"), 13), (2, ("m",), 7), (2, ("p", "s"), 10)])
def test_random_huansizhang_hands_keep_every_invariant(players, suits, hand_size):
    for i in range(25):
        rng = random.Random(f"huansizhang-{players}{suits}{hand_size}-{i}")
        rules = Rules.preset(rng.choice(["xueliu", "xuezhan"])).replace(
            players=players, suits=suits, hand_size=hand_size, exchange_count=4,
            exchange_direction=rng.choice(["dice", "random", "next", "previous"]),
            exchange_same_suit=rng.random() < 0.8,
            declare_void=len(suits) == 3 and rng.random() < 0.7, player_multipliers=None)
        state = xueliu.new_game(rules, seed=i, dealer=rng.randrange(players))
        gave = {s: obs_hand(state, s) for s in range(players)}
        play_to_end(state, rng, greedy_share=0.4, timeouts=0.05, deep=(i % 5 == 0))
        ex = next(e for e in events(state) if e["type"] == "huansanzhang")
        assert all(len(g) == 4 for g in ex["given"]) and all(len(r) == 4 for r in ex["received"])
        for s in range(players):
            assert not collections.Counter(ex["given"][s]) - collections.Counter(gave[s])
            check_seat_events(events(state), events(state, s), s)
            check_observation(state, s)
        again = xueliu.replay(json.loads(json.dumps(state.record())))
        assert again.events() == state.events()
        assert again.settlement().net == state.settlement().net
