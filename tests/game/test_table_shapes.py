"""Tables of other shapes (docs/rules.md §11.1): 2 and 3 seats, 两房 / 一房 walls, 10- and 7-tile hands.

Each test reads like the sentence of §11.1 it checks; the random-game invariants of every shape
are in test_shape_invariants.py.
"""

import random

import pytest

import xueliu
from xueliu.game.wall import break_point, physical_layout, wall_stacks
from xueliu.rules import Rules

from .conftest import KINDS, greedy_chooser


def three_seats(**knobs):
    return Rules.preset("xuezhan").replace(players=3, player_multipliers=None, **knobs)


def two_seats(**knobs):
    return Rules.preset("xuezhan").replace(players=2, player_multipliers=None, **knobs)


def liangfang(**knobs):
    return Rules.preset("xuezhan").replace(players=3, suits=("p", "s"), declare_void=False,
                                           exchange_three=False, player_multipliers=None, **knobs)


def kinds_of(rules):
    return [t for t in KINDS if t[1] in rules.suits]


def ordered_wall(rules, rng_seed=0):
    wall = [t for t in kinds_of(rules) for _ in range(4)]
    random.Random(rng_seed).shuffle(wall)
    return wall


def play_greedy(rules, seed):
    choose = greedy_chooser(seed, peng_rate=0.2)
    state = xueliu.new_game(rules, seed=seed, dealer=seed % rules.players)
    while not state.is_over:
        state.step({s: choose(state, s) for s in state.pending()})
    return state


# --- the wall -------------------------------------------------------------------------------


def test_a_liangfang_wall_has_72_tiles_of_dots_and_bamboo():
    state = xueliu.new_game(liangfang(), seed=5)
    assert len(state.wall) == 72
    assert {t[1] for t in state.wall} == {"p", "s"}
    assert sorted(state.wall) == sorted(t for t in kinds_of(liangfang()) for _ in range(4))


def test_a_wan_tile_in_a_given_liangfang_wall_is_refused():
    wall = ordered_wall(liangfang())
    wall[10] = "5m"
    with pytest.raises(ValueError, match="5m"):
        xueliu.new_game(liangfang(), wall=wall)


def test_a_yifang_wall_has_36_tiles():
    rules = Rules.preset("erren_yifang")
    state = xueliu.new_game(rules, seed=3)
    assert len(state.wall) == 36 and {t[1] for t in state.wall} == {"m"}


def test_the_physical_wall_of_three_seats_is_split_into_three_walls():
    shape = liangfang().shape
    assert wall_stacks(shape) == (12, 12, 12)  # 36 stacks, evenly
    assert wall_stacks(three_seats().shape) == (18, 18, 18)  # 108 tiles: 54 stacks
    # 四人两房: 72 tiles, 36 stacks, 9 a wall; 两人一房: 18 stacks, 9 a wall
    assert wall_stacks(Rules.preset("siren_liangfang").shape) == (9, 9, 9, 9)
    assert wall_stacks(Rules.preset("erren_yifang").shape) == (9, 9)
    for dealer in range(3):
        layout = physical_layout(dealer, (3, 4), shape)
        assert len(layout) == 72 and len(set(layout)) == 72
        assert {w for w, _, _ in layout} == {0, 1, 2}


def test_an_uneven_split_gives_the_walls_from_the_dealer_one_more_stack_first():
    rules = Rules.preset("xuezhan").replace(players=3, suits=("m",), hand_size=7,
                                            declare_void=False, exchange_three=False)
    assert wall_stacks(rules.shape) == (6, 6, 6)
    rules = Rules.preset("xuezhan").replace(players=4, suits=("m",), hand_size=7,
                                            declare_void=False, exchange_three=False)
    assert wall_stacks(rules.shape) == (5, 5, 4, 4)  # 18 stacks over four walls


def test_the_dice_count_walls_from_the_dealer_modulo_the_seats():
    shape = liangfang().shape
    # 7 counts the dealer as 1: seats 0, 1, 2, 0, 1, 2, 0 -> wall 0, 7 stacks in
    assert break_point(0, (3, 4), shape) == ((0 + 7 - 1) % 3, 7)
    # 12 from dealer 2 is wall (2 + 11) % 3 = 1; its 12 stacks end there: stack 0 of the next wall
    assert break_point(2, (6, 6), shape) == (2, 0)
    state = xueliu.new_game(liangfang(), seed=1, dice=(2, 3), dealer=1)
    assert state.break_point == ((1 + 5 - 1) % 3, 5)


def test_the_four_seat_wall_is_the_seeds_layout():
    assert wall_stacks() == (13, 14, 13, 14)
    assert wall_stacks(Rules.preset("xueliu").shape) == (13, 14, 13, 14)


# --- the deal -------------------------------------------------------------------------------


def dealt(rules, wall, dealer):
    state = xueliu.new_game(rules, wall=wall, dealer=dealer)
    return state, [sorted(state.observation(s)["hand"]) for s in range(rules.players)]


def expected_deal(wall, n, dealer, hand_size):
    """§11.1 read literally: R = hand_size // 4 rounds of takes of 4 from the dealer, then the
    dealer r + 1 and each other seat r."""
    rounds, rest = hand_size // 4, hand_size % 4
    hands = {s: [] for s in range(n)}
    at = 0
    for _ in range(rounds):
        for i in range(n):
            hands[(dealer + i) % n] += wall[at:at + 4]
            at += 4
    hands[dealer] += wall[at:at + rest + 1]
    at += rest + 1
    for i in range(1, n):
        hands[(dealer + i) % n] += wall[at:at + rest]
        at += rest
    return [sorted(hands[s]) for s in range(n)], at


def test_a_ten_tile_deal_is_two_rounds_of_four_then_two_and_three():
    rules = liangfang(hand_size=10)
    wall = ordered_wall(rules, 10)
    state, hands = dealt(rules, wall, dealer=1)
    want, used = expected_deal(wall, 3, 1, 10)
    assert used == 31 == rules.shape.dealt_tiles
    assert hands == want
    assert [len(h) for h in hands] == [10, 11, 10]
    assert state.wall_remaining == 72 - 31


def test_a_seven_tile_deal_is_one_round_of_four_then_three_and_four():
    rules = two_seats(hand_size=7)
    wall = ordered_wall(rules, 7)
    state, hands = dealt(rules, wall, dealer=0)
    want, used = expected_deal(wall, 2, 0, 7)
    assert used == 15 and hands == want
    assert [len(h) for h in hands] == [8, 7]


def test_live_draws_continue_from_the_first_tile_the_deal_left():
    rules = liangfang(hand_size=10)
    wall = ordered_wall(rules, 4)
    state = xueliu.new_game(rules, wall=wall, dealer=2)
    seat = state.pending()[0]
    assert seat == 2
    discard = next(a for a in state.legal_actions(2) if a.kind == "discard")
    state.step({2: discard})
    draws = [e for e in state.events() if e["type"] == "tsumo"]
    if draws:  # nobody claimed: the dealer's next seat drew wall[31]
        assert draws[0]["actor"] == 0 and draws[0]["pai"] == wall[31]


def test_a_back_kong_replacement_takes_the_last_wall_index():
    rules = liangfang(kong_draw_from="back")
    for seed in range(400):
        state = xueliu.new_game(rules, seed=seed)
        wall = state.wall
        rng = random.Random(seed)
        while not state.is_over:
            pend = state.pending()
            acts = {}
            for s in pend:
                legal = state.legal_actions(s)
                kongs = [a for a in legal if "kong" in a.kind]
                acts[s] = kongs[0] if kongs else rng.choice(legal)
            state.step(acts)
            back = [e for e in state.events() if e["type"] == "tsumo" and e["rinshan"]]
            if back:
                assert back[0]["pai"] == wall[71]
                return
    pytest.fail("no kong in 400 hands")


# --- seats ----------------------------------------------------------------------------------


def test_play_passes_to_the_next_of_three_seats():
    state = xueliu.new_game(three_seats(), seed=11, dealer=2)
    order = []
    rng = random.Random(0)
    while not state.is_over and len(order) < 12:
        state.step({s: rng.choice(state.legal_actions(s)) for s in state.pending()})
    order = [e["actor"] for e in state.events() if e["type"] == "tsumo" and not e["rinshan"]]
    assert set(order) <= {0, 1, 2}
    assert order[0] == 0  # the dealer 2 discards first, then (2 + 1) % 3 draws


def test_a_seat_beyond_the_table_is_a_value_error():
    state = xueliu.new_game(three_seats(), seed=1)
    for call in (lambda: state.legal_actions(3), lambda: state.view(3), lambda: state.hand(3),
                 lambda: state.observation(3), lambda: state.events(3)):
        with pytest.raises(ValueError, match="0..2"):
            call()
    with pytest.raises(ValueError):
        xueliu.new_game(three_seats(), seed=1, dealer=3)
    with pytest.raises(ValueError, match="3 non-negative ints"):
        xueliu.new_game(three_seats(), seed=1, coins=[100] * 4)


def test_per_seat_lists_have_one_entry_per_seat():
    state = xueliu.new_game(two_seats(), seed=2, coins=[500, 500])
    obs = state.observation(0)
    for key in ("voids", "melds", "discards", "wins", "in_play", "frozen", "auto_play",
                "hand_sizes", "net", "coins"):
        assert len(obs[key]) == 2, key
    assert len(state.observation(None)["hands"]) == 2
    assert len(state.events()[0]["tehais"]) == 2
    view = state.view(1)
    assert len(view.voids) == len(view.in_play) == 2
    assert len(state.settlement().net) == len(state.settlement().kong_income) == 2


# --- before play ----------------------------------------------------------------------------


def test_two_players_exchange_with_each_other():
    for direction in ("next", "opposite", "previous", "dice", "random"):
        state = xueliu.new_game(two_seats(exchange_direction=direction), seed=4)
        assert state.phase == "exchange"
        picks = {s: state.legal_actions(s)[0] for s in (0, 1)}
        state.step(picks)
        ex = next(e for e in state.events() if e["type"] == "huansanzhang")
        assert ex["received"][0] == ex["given"][1] and ex["received"][1] == ex["given"][0]


def test_three_players_exchange_next_or_previous_by_the_die():
    seen = set()
    for seed in range(40):
        state = xueliu.new_game(three_seats(exchange_direction="dice"), seed=seed)
        state.step({s: state.legal_actions(s)[0] for s in range(3)})
        ex = next(e for e in state.events() if e["type"] == "huansanzhang")
        want = "next" if ex["die"] <= 3 else "previous"
        assert ex["direction"] == want
        shift = 1 if want == "next" else 2
        for s in range(3):
            assert ex["received"][s] == ex["given"][(s + shift) % 3]
        seen.add(want)
    assert seen == {"next", "previous"}


def test_random_exchange_with_three_players_is_next_or_previous():
    got = set()
    for seed in range(40):
        state = xueliu.new_game(three_seats(exchange_direction="random"), seed=seed)
        state.step({s: state.legal_actions(s)[0] for s in range(3)})
        got.add(next(e for e in state.events() if e["type"] == "huansanzhang")["direction"])
    assert got == {"next", "previous"}


def test_without_three_suits_there_is_no_void_phase_and_nobody_is_a_flower_pig():
    for seed in range(60):
        state = play_greedy(liangfang(), seed)
        assert all(e["type"] != "dingque" for e in state.events())
        checks = state.settlement().end_checks
        if checks is not None:
            assert not any(c["pig"] for c in checks)


# --- the end and matches ----------------------------------------------------------------------


def test_three_player_xuezhan_ends_at_the_second_win():
    ended = 0
    for seed in range(200):
        state = play_greedy(three_seats(), seed)
        s = state.settlement()
        winners = {w.seat for w in s.wins}
        if s.end_reason == "two_wins":
            ended += 1
            assert len(winners) == 2
        else:
            assert s.end_reason == "wall_exhausted" and len(winners) < 2
    assert ended, "no 3-seat hand ended on its second win in 200 greedy hands"


def test_two_player_xuezhan_ends_at_the_first_win():
    for seed in range(60):
        state = play_greedy(two_seats(), seed)
        s = state.settlement()
        if s.wins:
            assert s.end_reason == "one_win" and len(s.wins) == 1
            return
    pytest.fail("no win in 60 greedy 2-seat hands")


def test_a_three_player_xueliu_hand_goes_on_after_two_winners():
    rules = Rules.preset("xueliu").replace(players=3)
    for seed in range(100):
        state = play_greedy(rules, seed)
        if len({w.seat for w in state.settlement().wins}) >= 2:
            assert state.settlement().end_reason == "wall_exhausted"
            return
    pytest.fail("no xueliu hand with two winners")


def test_the_deal_rotates_over_three_seats():
    m = xueliu.Match(three_seats(next_dealer="rotate"), seed=9)
    rng = random.Random(1)
    dealers = []
    for _ in range(5):
        state = m.next_hand()
        dealers.append(state.dealer)
        while not state.is_over:
            state.step({s: rng.choice(state.legal_actions(s)) for s in state.pending()})
    assert dealers == [0, 1, 2, 0, 1]
    assert len(m.totals) == 3


def test_dice_dealer_counts_seats_modulo_the_table():
    m = xueliu.Match(two_seats(next_dealer="dice"), seed=3, coins=[1000, 1000])
    rng = random.Random(2)
    for _ in range(6):
        state = m.next_hand()
        assert state.dealer in (0, 1)
        while not state.is_over:
            state.step({s: rng.choice(state.legal_actions(s)) for s in state.pending()})
    assert len(m.coins) == 2 and sum(m.coins) <= 2000


def test_a_record_replays_under_its_own_shape():
    import json
    for rules in (liangfang(hand_size=10), two_seats(hand_size=7), three_seats()):
        state = play_greedy(rules, 7)
        again = xueliu.replay(json.loads(json.dumps(state.record())))
        assert again.rules == rules and again.events() == state.events()
        assert again.settlement().net == state.settlement().net


def test_an_action_naming_a_tile_of_a_suit_not_in_play_is_refused():
    from xueliu.game import Action
    state = xueliu.new_game(liangfang(), seed=8)
    dealer = state.pending()[0]
    before = state.record()
    with pytest.raises(ValueError, match="not legal"):
        state.step({dealer: Action("discard", "5m")})
    assert state.record() == before
