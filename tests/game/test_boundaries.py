"""Issue 7 §6: rules the suite held with one test each, pinned on both sides of each boundary —
海底 on exactly the draw that empties the live wall, 花猪 counting melds, 查大叫 without 门清, the
escape penalty's multipliers — and the settlement report read line by line."""

from __future__ import annotations

import pytest

from xueliu import Rules

from .conftest import (
    act, build_wall, events, find, has, new_game, play_out, play_until, transfers, wall_left,
    waits_of, tiles, xl_rules, xz_rules,
)

TANKI_5P = "123m456m789m123p5p"  # waits 5p only: 平胡 1 fan
QING_5M = "123m345m678m999m5m"   # waits 5m among others: 清一色 3 fan
GEN_WAIT = "111m23m456m789p55p"  # best wait 1m: 平胡 1 + 根 1 = 2 fan (the others 1 fan)
KANCHAN_5P = "123m456m789m11p46p"
PIG = "9m 6p 7s *"


def test_premises():
    assert waits_of(tiles(TANKI_5P)) == ["5p"]
    assert "5m" in waits_of(tiles(QING_5M))
    assert "1m" in waits_of(tiles(GEN_WAIT))


def hora(state) -> dict:
    wins = [e for e in events(state) if e["type"] == "hora"]
    assert len(wins) == 1
    return wins[0]


# -- 海底: the draw that empties the live wall (docs/rules.md §6 haidilaoyue, §10 "Flags") ---------------


def self_draw_near_the_end(rules, from_the_end: int):
    """The 5p that completes a tanki is the ``from_the_end``-th live tile from the end (1: the last
    one); every other 5p is held, so that draw is the first chance to win. Draw i of the live wall
    goes to seat (1 + i) % 4: the last to seat 3, the one before to seat 2."""
    winner = (1 + 55 - from_the_end) % 4
    hands = ["9s 5p *", "5p *", "*", "*"]
    hands[winner] = TANKI_5P
    if winner == 1:
        hands[2] = "5p *"
    last = ["5p"] + ["?"] * (from_the_end - 1)
    state = new_game(rules, build_wall(hands, last=last))
    act(state, 0, "discard", "9s")
    play_until(state, lambda st: winner in st.pending() and has(st, winner, "hu"))
    assert wall_left(state) == from_the_end - 1
    act(state, winner, "hu")
    return play_out(state), winner


def test_a_self_draw_on_the_last_tile_is_haidi():
    state, winner = self_draw_near_the_end(xz_rules(), 1)  # xuezhan: haidi on, no zimo bonus
    win = hora(state)
    assert win["flags"] == ["self_draw", "last_tile"] and win["extras"] == ["haidilaoyue"]
    assert transfers(state) == [(p, winner, 2, "hu") for p in (0, 1, 2)]


@pytest.mark.parametrize("from_the_end", [2, 3])
def test_a_self_draw_before_the_last_tile_is_not_haidi(from_the_end):
    state, winner = self_draw_near_the_end(xz_rules(), from_the_end)
    win = hora(state)
    assert win["flags"] == ["self_draw"] and win["extras"] == []
    others = [p for p in (winner + 1, winner + 2, winner + 3)]
    assert transfers(state) == [(p % 4, winner, 1, "hu") for p in others]


def discard_win_near_the_end(rules, from_the_end: int):
    """Seat 1 waits on 5m (and other tiles, which it lets pass); the seat that draws the
    ``from_the_end``-th live tile from the end draws the last free 5m and discards it."""
    last = ["5m"] + ["?"] * (from_the_end - 1)
    state = new_game(rules, build_wall(["9s 5m *", QING_5M, "*", "*"], last=last))
    act(state, 0, "discard", "9s")
    play_until(state, lambda st: wall_left(st) == from_the_end - 1 and st.phase == "claim"
               and has(st, 1, "hu"))
    assert state.observation(None)["claim"]["tile"] == "5m"
    act(state, 1, "hu")
    return play_out(state), (1 + 55 - from_the_end) % 4


def test_a_win_on_the_discard_after_the_last_tile_is_haidipao():
    state, discarder = discard_win_near_the_end(xl_rules(haidipao=True), 1)
    win = hora(state)
    assert win["flags"] == ["last_tile"] and win["extras"] == ["haidipao"]
    assert transfers(state) == [(discarder, 1, 8, "hu")]  # 清一色 3 + 海底炮 1 = 4 fan


@pytest.mark.parametrize("from_the_end", [2, 4])  # (the 3rd from the end is seat 1's own draw)
def test_a_win_on_a_discard_before_the_last_tile_is_not_haidipao(from_the_end):
    state, discarder = discard_win_near_the_end(xl_rules(haidipao=True), from_the_end)
    win = hora(state)
    assert win["flags"] == [] and win["extras"] == []
    assert transfers(state) == [(discarder, 1, 4, "hu")]


# -- 花猪: concealed tiles and melds together span three suits (docs/rules.md §7, §10) -------------------


def peng_then_play_out(hands, pengs, draws=()):
    """The dealer discards each tile of ``pengs`` in turn (the first from its hand, the next as it
    draws them); seat 1 pengs it and sheds the given tile; the hand is then played out with
    nobody winning."""
    state = new_game(xl_rules(), build_wall(hands, draws=draws))
    for i, (tile, shed) in enumerate(pengs):
        if i:
            play_until(state, lambda st: st.pending() == [0] and has(st, 0, "discard", tile))
        act(state, 0, "discard", tile)
        act(state, 1, "peng", tile)
        act(state, 1, "discard", shed)
    return play_out(state)


def pig_transfers(state):
    return [t for t in transfers(state) if t[3] == "huazhu"]


def test_a_peng_of_the_third_suit_makes_a_two_suit_hand_a_flower_pig():
    state = peng_then_play_out(["5s *", "55s 1m3m4m7m9m 1p2p5p6p8p9p", "*", "*"], [("5s", "1m")])
    assert state.settlement().end_checks[1]["pig"] is True
    assert pig_transfers(state) == [(1, 0, 16, "huazhu"), (1, 2, 16, "huazhu"), (1, 3, 16, "huazhu")]


def test_a_peng_of_a_suit_already_held_leaves_a_two_suit_hand_no_pig():
    state = peng_then_play_out(["5m *", "55m 1m3m4m7m9m 1p2p5p6p8p9p", "*", "*"], [("5m", "1m")])
    assert state.settlement().end_checks[1]["pig"] is False
    assert pig_transfers(state) == []


def test_one_concealed_suit_with_pengs_of_the_two_others_is_a_flower_pig():
    state = peng_then_play_out(["5s *", "55s 55p 1m2m3m4m6m7m8m9m9m", "*", "*"],
                               [("5s", "9m"), ("5p", "9m")], draws=["?", "?", "5p"])
    check = state.settlement().end_checks[1]
    assert check["pig"] is True and check["ready"] is False
    assert pig_transfers(state) == [(1, 0, 16, "huazhu"), (1, 2, 16, "huazhu"), (1, 3, 16, "huazhu")]


# -- 查大叫 scores without 门清 and the optional fans (docs/rules.md §7, §10 "End of hand") ----------------


@pytest.mark.parametrize("knobs", [{}, {"menqing": True}, {"menqing": True, "duanyaojiu": True}])
def test_the_ready_check_fan_does_not_count_menqing(knobs):
    state = play_out(new_game(xl_rules(**knobs), build_wall(["9s *", "*", "*", GEN_WAIT])))
    check = state.settlement().end_checks[3]
    assert (check["ready"], check["best_fan"], check["best_multiplier"]) == (True, 2, 2)
    assert transfers(state) == [(p, 3, 2, "chadajiao") for p in (0, 1, 2)]


@pytest.mark.parametrize("menqing, amount", [(False, 2), (True, 4)])
def test_menqing_does_count_for_a_real_win_with_the_same_hand(menqing, amount):
    state = new_game(xl_rules(menqing=menqing), build_wall(["1m *", "*", "*", GEN_WAIT]))
    act(state, 0, "discard", "1m")
    act(state, 3, "hu")  # 平胡 1 + 根 1 (+ 门清 1)
    assert transfers(state)[0] == (0, 3, amount, "hu")


# -- the escape penalty: escape_penalty x base x room x the escaper's multiplier ---------------


def escape_transfers(state):
    return [t for t in transfers(state) if t[3] == "escape"]


@pytest.mark.parametrize("knobs, amount", [
    ({}, 32 * 8),                        # before any choice: the knob's default, 8
    ({"room": 2, "base": 3}, 32 * 8 * 6),
    ({"escape_penalty": 5}, 5 * 8),
])
def test_an_escape_before_the_multipliers_are_revealed_pays_at_the_default(knobs, amount):
    state = new_game(Rules.preset("xuezhan").replace(**knobs), build_wall(["9s *", "*", "*", "*"]))
    assert state.phase == "exchange"
    state.escape(1)
    assert escape_transfers(state) == [(1, None, amount, "escape")]


def multipliers_phase(**knobs):
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8}, **knobs)
    state = new_game(rules, build_wall(["9s *", "*", "*", "*"]))
    assert state.phase == "multiplier"
    return state


def test_a_choice_not_yet_revealed_does_not_count_the_default_does():
    state = multipliers_phase()
    state.step({1: find(state, 1, "multiplier", value=2)})
    state.escape(1)
    assert escape_transfers(state) == [(1, None, 32 * 8, "escape")]


@pytest.mark.parametrize("own, others, amount", [(2, 8, 32 * 2), (8, 2, 32 * 8), (4, 4, 32 * 4)])
def test_after_the_reveal_only_the_escapers_own_multiplier_counts(own, others, amount):
    state = multipliers_phase()
    state.step({s: find(state, s, "multiplier", value=own if s == 1 else others)
                for s in range(4)})
    state.escape(1)
    assert escape_transfers(state) == [(1, None, amount, "escape")]


def test_every_factor_of_the_escape_penalty_multiplies():
    state = multipliers_phase(escape_penalty=5, base=2, room=3)
    state.step({s: find(state, s, "multiplier", value=4) for s in range(4)})
    state.escape(2)
    assert escape_transfers(state) == [(2, None, 5 * 2 * 3 * 4, "escape")]


def test_the_escape_penalty_is_cut_to_the_coins_the_seat_holds():
    rules = Rules.preset("xuezhan")
    state = new_game(rules, build_wall(["9s *", "*", "*", "*"]), coins=[1000, 100, 1000, 1000])
    state.escape(1)
    assert escape_transfers(state) == [(1, None, 100, "escape")]
    assert state.coins[1] == 0


# -- the settlement report, line by line (docs/rules.md §7 详细结算 / 个人结算) -----------------------------


def test_the_report_of_kongs_call_transfer_pig_refunds_and_fee_reads_exactly():
    sw = build_wall(["9999s 8888s *", KANCHAN_5P, PIG, "*"], draws=["?", "5p"])
    state = new_game(xl_rules(service_fee=1), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "concealed_kong", "8s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    kong = "杠 kong (seat 0 concealed kong)"
    refund = "退税 refund (seat 0 refunds kong income)"
    pig = "花猪 flower pig (seat 2 is a flower pig)"
    fee = "-1 to the house: 服务费 service fee"
    win = "胡 win (win 1: 5p discard of seat 0 to seat 1, 2 fan)"
    handed = "呼叫转移 call transfer (win 1: seat 0's kong income handed to seat 1)"
    assert state.settlement().report().splitlines() == [
        "详细结算 Detailed settlement — 血流成河 xueliu, dealer seat 0, base 1, ended: wall exhausted",
        "",
        "Seat 0 (dealer): net +13",
        "  胡 wins: -2",
        "  杠 kongs (刮风下雨): +12",
        "  呼叫转移 call transfers: -6",
        "  花猪 flower pig: +16",
        "  退税 kong refunds: -6",
        "  服务费 service fee: -1",
        "  查叫 end check: not ready",
        "",
        "Seat 1: net +5",
        "  Win 1: 5p 点炮 on seat 0's discard — 平胡 1 + 杠上炮 1 = 2 番 ×2 (pinghu) [123456789m11456p]",
        "  胡 wins: +2",
        "  杠 kongs (刮风下雨): -4",
        "  呼叫转移 call transfers: +6",
        "  退税 kong refunds: +2",
        "  服务费 service fee: -1",
        "",
        "Seat 2: net -35",
        "  杠 kongs (刮风下雨): -4",
        "  花猪 flower pig: -32",
        "  退税 kong refunds: +2",
        "  服务费 service fee: -1",
        "  查花猪 end check: flower pig (holds three suits)",
        "",
        "Seat 3: net +13",
        "  杠 kongs (刮风下雨): -4",
        "  花猪 flower pig: +16",
        "  退税 kong refunds: +2",
        "  服务费 service fee: -1",
        "  查叫 end check: not ready",
        "",
        "个人结算 Personal settlement",
        "Seat 0:",
        *[f"  +2 from seat {p}: {kong}" for p in (1, 2, 3)],
        *[f"  +2 from seat {p}: {kong}" for p in (1, 2, 3)],
        f"  -2 to seat 1: {win}",
        f"  -6 to seat 1: {handed}",
        f"  +16 from seat 2: {pig}",
        *[f"  -2 to seat {p}: {refund}" for p in (1, 2, 3)],
        f"  {fee}",
        "  net +13",
        "Seat 1:",
        f"  -2 to seat 0: {kong}",
        f"  -2 to seat 0: {kong}",
        f"  +2 from seat 0: {win}",
        f"  +6 from seat 0: {handed}",
        f"  +2 from seat 0: {refund}",
        f"  {fee}",
        "  net +5",
        "Seat 2:",
        f"  -2 to seat 0: {kong}",
        f"  -2 to seat 0: {kong}",
        f"  -16 to seat 0: {pig}",
        f"  -16 to seat 3: {pig}",
        f"  +2 from seat 0: {refund}",
        f"  {fee}",
        "  net -35",
        "Seat 3:",
        f"  -2 to seat 0: {kong}",
        f"  -2 to seat 0: {kong}",
        f"  +16 from seat 2: {pig}",
        f"  +2 from seat 0: {refund}",
        f"  {fee}",
        "  net +13",
    ]


# -- 查大叫 leaves out 卡二条 and 卡边吊 too (docs/rules.md §11.3: a wait scored as a discard win, no flags) --

KA_2S = "123p456p789p13s55p"  # waits 2s only: the middle of 123s, and one wait


def test_a_real_win_on_the_middle_2s_scores_kaertiao_and_kabiandiao():
    rules = xl_rules(kaertiao=True, single_wait=True)
    state = new_game(rules, build_wall(["2s *", "*", "*", KA_2S]))
    act(state, 0, "discard", "2s")
    act(state, 3, "hu")  # 平胡 1 + 卡二条 1 + 卡边吊 1
    assert transfers(state)[0] == (0, 3, 4, "hu")


def test_the_ready_check_does_not_count_kaertiao_or_kabiandiao():
    rules = xl_rules(kaertiao=True, single_wait=True)
    state = play_out(new_game(rules, build_wall(["9s *", "*", "*", KA_2S], quiet_avoid=["2s"])))
    check = state.settlement().end_checks[3]
    assert (check["ready"], check["best_fan"], check["best_multiplier"]) == (True, 1, 1)
    assert transfers(state) == [(p, 3, 1, "chadajiao") for p in (0, 1, 2)]
