"""The play of wild tiles, one scenario per rule of docs/rules.md §12.3 (and §12.1's 本金, §12.2's
wins and 查大叫 as the engine plays them)."""

from __future__ import annotations

import pytest

import xueliu
from xueliu.rules import Rules

from .conftest import act, events, find, has, kinds
from .wild_script import room, wild_game


def pass_claims(state) -> None:
    """Every seat asked in an open claim window passes."""
    while state.phase == "claim":
        state.step({s: find(state, s, "pass") for s in state.pending()})


def discard_drawn(state, seat: int) -> None:
    """``seat`` discards the tile it just drew; nobody claims it."""
    act(state, seat, "discard", state.observation(seat)["drawn"])
    pass_claims(state)


def last(state, type_: str) -> dict:
    return [e for e in events(state) if e["type"] == type_][-1]


# ---- before play ---------------------------------------------------------------------------


def test_a_wild_is_never_exchanged():
    rules = Rules.preset("yaoji").replace(exchange_three=True)
    offered = 0
    for seed in range(30):
        state = xueliu.new_game(rules, seed=seed)
        if state.phase != "exchange":
            continue
        for seat in state.pending():
            for a in state.legal_actions(seat):
                assert "1s" not in a.tiles, f"seed {seed}: {a} gives a 幺鸡"
                offered += 1
            state.apply_timeout(seat)  # the timeout default gives natural tiles too
        ex = last(state, "huansanzhang")
        assert all("1s" not in given for given in ex["given"])
    assert offered


def test_the_exchange_is_skipped_when_a_seat_holds_fewer_natural_tiles_than_it_gives():
    rules = room("yaoji", wild_kinds=("1m", "1s", "1p"), exchange_three=True)
    state = wild_game(rules, ["*", "1111m1111p111s2m3m", "*", "*"])
    assert [e["type"] for e in events(state)][:2] == ["start_hand", "huansanzhang_skipped"]
    assert state.phase == "turn" and state.pending() == [0]


def test_wilds_never_count_as_tiles_of_the_void_suit():
    rules = room("yaoji", declare_void=True)
    state = wild_game(rules, ["123456789m234p1s1s", "*", "*", "*"])
    act(state, 0, "void", suit="s")
    for seat in (1, 2, 3):
        state.step({seat: state.legal_actions(seat)[0]})
    discards = {a.tile for a in state.legal_actions(0) if a.kind == "discard"}
    # holding 幺鸡 is no void tile: the seat is free to discard any natural tile, and no wild
    assert discards == {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p"}


# ---- discarding a wild ---------------------------------------------------------------------


def test_under_forbidden_a_wild_is_no_legal_discard():
    state = wild_game(room("yaoji"), ["1s1s*", "*", "*", "*"])
    assert not has(state, 0, "discard", "1s")


def test_a_dead_wild_discard_opens_no_claim_window():
    # hongzhong: wild_discard = "dead"; seat 2 is ready, so it would win on any wild it drew
    state = wild_game(room("hongzhong"), ["7z*", "*", "123456789m1122p", "*"])
    act(state, 0, "discard", "7z")
    assert state.phase == "turn" and state.turn == 1
    assert [e["type"] for e in events(state)][-2:] == ["dahai", "tsumo"]


def test_a_ready_hand_wins_on_a_drawn_wild():
    state = wild_game(room("yaoji"), ["*", "123456789m1122p", "*", "*"], draws=["1s"])
    discard_drawn_dealer = state.legal_actions(0)[0]
    state.step({0: discard_drawn_dealer})
    pass_claims(state)
    assert state.pending() == [1] and has(state, 1, "hu")
    act(state, 1, "hu")
    win = last(state, "hora")
    assert win["pai"] == "1s" and win["source"] == "self_draw"


# ---- soft melds ----------------------------------------------------------------------------


def test_fei_one_natural_tile_and_a_wild_peng_a_discard():
    state = wild_game(room("yaoji"), ["5m*", "*", "5m1s*", "1s1s*"])
    act(state, 0, "discard", "5m")
    assert has(state, 2, "peng", "5m")
    assert 3 not in state.pending(), "soft_peng 'one' needs a natural tile"
    act(state, 2, "peng", "5m")
    pon = last(state, "pon")
    assert pon["consumed"] == ["5m", "1s"] and pon["pai"] == "5m"
    for seat in range(4):  # a soft meld's wilds are public
        assert state.observation(seat)["melds"][2] == [
            {"type": "peng", "tile": "5m", "from": 0, "wilds": ["1s"]}]


def test_under_two_a_pair_of_wilds_pengs_any_discard_of_a_kind_the_seat_may_peng():
    state = wild_game(room("leshan"), ["5m*", "*", "*", "1s1s*"])
    act(state, 0, "discard", "5m")
    act(state, 3, "peng", "5m")
    assert last(state, "pon")["consumed"] == ["1s", "1s"]


def test_a_natural_peng_beats_a_soft_peng_of_the_same_discard():
    state = wild_game(room("yaoji"), ["5m*", "5m1s*", "*", "5m5m*"])
    act(state, 0, "discard", "5m")
    assert state.pending() == [1, 3]
    state.step({1: find(state, 1, "peng", "5m"), 3: find(state, 3, "peng", "5m")})
    pon = last(state, "pon")
    assert pon["actor"] == 3 and pon["consumed"] == ["5m", "5m"]


def test_a_kong_beats_a_peng_of_the_same_discard():
    state = wild_game(room("leshan"), ["5m*", "5m5m*", "5m1s1s*", "*"])
    act(state, 0, "discard", "5m")
    state.step({1: find(state, 1, "peng", "5m"), 2: find(state, 2, "kong", "5m")})
    kong = last(state, "daiminkan")
    assert kong["actor"] == 2 and kong["consumed"] == ["5m", "1s", "1s"]


def test_a_meld_takes_as_few_wilds_as_it_can_and_the_lowest_kind_first():
    rules = room("yaoji", wild_kinds=("1m", "1s", "1p"))
    state = wild_game(rules, ["5m*", "*", "5m1s1p*", "*"])
    act(state, 0, "discard", "5m")
    act(state, 2, "peng", "5m")
    assert last(state, "pon")["consumed"] == ["5m", "1p"]  # 1筒 (kind 9) before 1条 (kind 18)
    assert sorted(state.observation(2)["hand"]).count("1s") == 1


def test_a_soft_concealed_kong_counts_wilds_and_is_hidden_from_the_others():
    state = wild_game(room("yaoji"), ["555m1s*", "*", "*", "*"])
    act(state, 0, "concealed_kong", "5m")
    mine = [e for e in events(state, 0) if e["type"] == "ankan"][0]
    theirs = [e for e in events(state, 1) if e["type"] == "ankan"][0]
    assert mine["consumed"] == ["5m", "5m", "5m", "1s"] and theirs["consumed"] == ["?"] * 4
    assert state.observation(1)["melds"][0] == [
        {"type": "concealed_kong", "tile": "?", "from": None, "wilds": None}]


def test_without_soft_kong_no_kong_holds_a_wild():
    state = wild_game(room("yaoji", soft_kong=False), ["555m1s*", "*", "*", "*"])
    assert not has(state, 0, "concealed_kong")


# ---- 提, robbing, 四鸡, kong pay -------------------------------------------------------------


def test_ti_puts_the_natural_tile_into_the_meld_and_takes_the_wild_back():
    state = wild_game(room("yaoji"), ["5m*", "*", "5m1s*", "*"], draws=["9p", "8p", "7p", "5m"])
    act(state, 0, "discard", "5m")
    act(state, 2, "peng", "5m")
    assert not has(state, 2, "swap_back"), "no 提 right after a peng"
    state.step({2: [a for a in state.legal_actions(2) if a.kind == "discard"][0]})
    pass_claims(state)
    for seat in (3, 0, 1):
        discard_drawn(state, seat)
    assert state.observation(2)["drawn"] == "5m"
    act(state, 2, "swap_back", "5m")
    ti = last(state, "ti")
    assert ti == {"type": "ti", "actor": 2, "pai": "5m", "wild": "1s"}
    obs = state.observation(2)
    assert obs["melds"][2][0]["wilds"] == [] and "1s" in obs["hand"] and "5m" not in obs["hand"]
    assert obs["drawn"] == "1s", "the wild taken back counts as the drawn tile"
    assert not has(state, 2, "swap_back")


def test_the_robber_of_a_soft_added_kong_wins_on_the_wild():
    state = wild_game(room("leshan"), ["5m*", "5m5m1s*", "123456789m1122p", "*"],
                      draws=["9p", "8p", "7p", "6p"])
    act(state, 0, "discard", "5m")
    act(state, 1, "peng", "5m")
    state.step({1: [a for a in state.legal_actions(1) if a.kind == "discard"][0]})
    pass_claims(state)
    for seat in (2, 3, 0):
        discard_drawn(state, seat)
    act(state, 1, "added_kong", "5m")
    kakan = last(state, "kakan")
    assert kakan["pai"] == "1s" and kakan["consumed"] == ["5m", "5m", "5m"]
    assert has(state, 2, "hu")  # every ready hand wins on a robbed wild (the others pass)
    state.step({s: find(state, s, "hu" if s == 2 else "pass") for s in state.pending()})
    win = last(state, "hora")
    assert win["pai"] == "1s" and win["source"] == "robbed_kong" and win["actor"] == 2


def test_four_wilds_is_a_hu_whatever_the_rest_of_the_hand_scored_as_siji():
    # ten natural singles that no reading of four wilds completes
    state = wild_game(room("yaoji"), ["*", "2589m258p258s1s1s1s", "*", "*"], draws=["1s"])
    state.step({0: [a for a in state.legal_actions(0) if a.kind == "discard"][0]})
    pass_claims(state)
    assert has(state, 1, "hu")
    act(state, 1, "hu")
    win = last(state, "hora")
    assert win["base"] == "siji" and win["fan"] == 4 and win["pai"] == "1s"  # the cap
    assert all(e["payee"] == 1 for e in events(state) if e["type"] == "pay")


def test_hard_double_pays_twice_for_a_kong_without_wilds():
    rules = room("yaoji", soft_kong_pay="hard_double")
    hard = wild_game(rules, ["5555m*", "*", "*", "*"])
    act(hard, 0, "concealed_kong", "5m")
    soft = wild_game(rules, ["555m1s*", "*", "*", "*"])
    act(soft, 0, "concealed_kong", "5m")
    assert hard.net[0] == 2 * soft.net[0] > 0


# ---- 本金, the frozen seat, 查大叫, what each seat sees ------------------------------------------


def test_the_benjin_is_turned_up_after_the_deal_and_its_neighbours_are_wild():
    state = wild_game(room("yibin"), ["*", "*", "*", "*"], back=["5p"])
    assert state.benjin == "5p" and state.wild_kinds == ["4p", "6p"]
    assert [e["type"] for e in events(state)][:2] == ["start_hand", "benjin"]
    assert last(state, "benjin") == {"type": "benjin", "pai": "5p"}
    for seat in range(4):
        obs = state.observation(seat)
        assert obs["wilds"] == {"kinds": ["4p", "6p"], "benjin": "5p", "in_wall": 8}
        assert obs["wall_remaining"] == 108 - 53 - 1  # the 本金 is out of play


def test_a_frozen_xueliu_seat_that_draws_a_wild_under_forbidden_has_hu_and_no_discard():
    rules = room("yaoji", mode="xueliu")
    state = wild_game(rules, ["1p*", "123456789m1122p", "*", "*"], draws=["9p", "8p", "7p", "1s"])
    act(state, 0, "discard", "1p")
    act(state, 1, "hu")
    for seat in (2, 3, 0):
        discard_drawn(state, seat)
    assert state.pending() == [1] and kinds(state, 1) == {"hu"}


def test_chadajiao_counts_the_wild_wait_of_a_ready_seat():
    rules = room("yaoji", forced_win_last_n=0)
    state = wild_game(rules, ["*", "*", "123456789m1122p", "*"])
    while not state.is_over:  # nobody wins: every seat passes and discards what it drew
        seat = state.pending()[0]
        legal = state.legal_actions(seat)
        pick = next((a for a in legal if a.kind == "pass"), None)
        if pick is None:
            drawn = state.observation(seat)["drawn"]
            pick = next((a for a in legal if a.kind == "discard" and a.tile == drawn),
                        next(a for a in legal if a.kind == "discard"))
        state.step({seat: pick})
    check = state.settlement().end_checks[2]
    assert check["ready"] and "wild" in check["waits"] and check["best_fan"] >= 1


def test_concealed_wilds_are_seen_only_by_their_owner():
    state = wild_game(room("hongzhong"), ["7z7z*", "*", "*", "*"])
    assert state.observation(0)["hand"].count("7z") == 2
    start = events(state, 1)[0]
    assert start["tehais"][0] == ["?"] * 14
    with pytest.raises(ValueError, match="hand_text"):
        state.hand(0)
    assert state.hand_text(0).count("7") >= 2


def test_a_seat_holding_nothing_but_wilds_and_no_hu_discards_a_wild_under_forbidden():
    # Twelve 红中 and wild_discard "forbidden": after its peng, seat 1 holds eleven wilds and
    # nothing else, and a peng opens no 胡, so a wild is its discard (as under "dead").
    rules = room("hongzhong", extra_wilds=12, wild_discard="forbidden")
    state = wild_game(rules, ["5m*", "55m77777777777z", "*", "*"])
    act(state, 0, "discard", "5m")
    act(state, 1, "peng", "5m")
    assert [a.tile for a in state.legal_actions(1)] == ["7z"]
    act(state, 1, "discard", "7z")
    assert state.phase == "turn" and state.turn == 2  # a dead discard: the next seat draws


def test_a_seat_never_makes_a_second_meld_of_a_kind_it_has_a_meld_of():
    state = wild_game(room("leshan"), ["5m*", "*", "5m1s1s1s*", "*"], draws=["5m"])
    act(state, 0, "discard", "5m")
    act(state, 2, "peng", "5m")  # 飞: its 5m and one 幺鸡; two wilds are left
    state.step({2: [a for a in state.legal_actions(2) if a.kind == "discard"][0]})
    pass_claims(state)
    act(state, 3, "discard", "5m")  # two wilds could peng it under "two", but 5m is melded
    assert not has(state, 2, "peng") and not has(state, 2, "kong")
