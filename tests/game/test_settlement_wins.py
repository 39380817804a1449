"""Win payments (docs/rules.md §7 "Win", §10 "Payments"): who pays, how much, in which order.

One unit = base × room × m[payer] × m[payee]; a win is unit × 2**(fan − 1). Hands used here:

- ``123m456m789m123p5p`` waits only on 5p, 平胡 1 fan (×1).
- ``123m456m789m11p46p`` waits only on 5p (嵌张), 平胡 1 fan; the 5p is the middle of 456p.
- ``111m222m333p444p5p`` on 5p: 对对胡 2 fan (×2).
- ``123m345m678m999m5m`` on 5m: 清一色 3 fan (×4), no 根.
"""

from .conftest import (
    act,
    build_wall,
    find,
    has,
    new_game,
    play_out,
    play_until,
    tiles,
    transfers,
    wall_left,
    waits_of,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"
KANCHAN_5P = "123m456m789m11p46p"
DUIDUI_5P = "111m222m333p444p5p"
QING_5M = "123m345m678m999m5m"


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(TANKI_5P)) == ["5p"]
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    assert "5p" in waits_of(tiles(DUIDUI_5P))
    assert "5m" in waits_of(tiles(QING_5M))


def discard_win(rules, winner_hand, tile="5p", winner=1, **kw):
    """The dealer discards ``tile`` at once; ``winner`` wins on it; the hand is played out."""
    hands = ["*"] * 4
    hands[0] = f"{tile} *"
    hands[winner] = winner_hand
    sw = build_wall(hands)
    state = new_game(rules, sw, **kw)
    act(state, 0, "discard", tile)
    assert state.pending() == [winner]
    act(state, winner, "hu")
    return play_out(state)


def test_discard_win_pays_the_discarder_alone():
    state = discard_win(xl_rules(), DUIDUI_5P)
    assert transfers(state) == [(0, 1, 2, "hu")]


def test_win_payment_doubles_with_each_fan():
    state = discard_win(xl_rules(), QING_5M, tile="5m", winner=2)
    assert transfers(state) == [(0, 2, 4, "hu")]


def test_one_fan_win_pays_one_unit():
    state = discard_win(xl_rules(), TANKI_5P, winner=3)
    assert transfers(state) == [(0, 3, 1, "hu")]


def self_draw(rules, winner_hand="123m456m789m123p5p", **kw):
    """The dealer discards a quiet 9s; seat 1 draws 5p and wins by self-draw."""
    sw = build_wall(["9s *", winner_hand, "*", "*"], draws=["5p"])
    state = new_game(rules, sw, **kw)
    act(state, 0, "discard", "9s")
    assert state.pending() == [1]
    act(state, 1, "hu")
    return play_out(state)


def test_self_draw_in_xueliu_all_three_pay_with_the_base_bonus():
    # 平胡 1 fan: 1 unit + 1 unit 自摸加底 from each, payers in turn order from the winner
    state = self_draw(xl_rules())
    assert transfers(state) == [(2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]


def test_self_draw_bonus_none_pays_the_fan_only():
    state = self_draw(xl_rules(self_draw_bonus="none"))
    assert transfers(state) == [(2, 1, 1, "hu"), (3, 1, 1, "hu"), (0, 1, 1, "hu")]


def test_self_draw_bonus_fan_adds_one_fan_instead_of_a_unit():
    # 平胡 1 + 自摸 1 = 2 fan (×2), no base bonus
    state = self_draw(xl_rules(self_draw_bonus="fan"))
    assert transfers(state) == [(2, 1, 2, "hu"), (3, 1, 2, "hu"), (0, 1, 2, "hu")]


def test_self_draw_bonus_fan_and_base_differ_on_a_bigger_hand():
    # 清一色 3 fan: base bonus -> 4 + 1; fan bonus -> 4 fan = 8
    sw = build_wall(["9s *", QING_5M, "*", "*"], draws=["5m"])
    for bonus, each in (("base", 5), ("fan", 8), ("none", 4)):
        state = new_game(xl_rules(self_draw_bonus=bonus), sw)
        act(state, 0, "discard", "9s")
        act(state, 1, "hu")
        play_out(state)
        assert transfers(state) == [(2, 1, each, "hu"), (3, 1, each, "hu"), (0, 1, each, "hu")], bonus


def test_self_draw_in_xuezhan_only_seats_still_in_play_pay():
    # seat 1 wins on the dealer's 5p and leaves; seat 2 then self-draws 5m: seats 3 and 0 pay
    sw = build_wall(["5p *", TANKI_5P, QING_5M, "*"], draws=["5m"])
    state = new_game(xz_rules(heavenly_earthly=False), sw)  # (else seat 2's first draw is 地胡)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert state.pending() == [2]
    act(state, 2, "hu")
    play_out(state)
    assert transfers(state) == [(0, 1, 1, "hu"), (3, 2, 4, "hu"), (0, 2, 4, "hu")]


def test_two_winners_on_one_discard_are_each_paid_in_turn_order_from_the_discarder():
    # seat 2 discards 5p; seats 3 and 1 both win: seat 3 comes first in turn order from seat 2
    sw = build_wall(["9s *", TANKI_5P, "5p *", KANCHAN_5P], draws=["?", "?"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "discard", sw.draws[0])
    act(state, 2, "discard", "5p")
    assert state.pending() == [1, 3]
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    play_out(state)
    assert transfers(state) == [(2, 3, 1, "hu"), (2, 1, 1, "hu")]


def test_robbing_an_added_kong_pays_as_discard_win():
    # seat 2 pengs the dealer's 5p (seat 1 lets it go), later draws the fourth 5p and adds it to
    # the peng; seat 1 robs: 平胡 1 + 抢杠胡 1 = 2 fan, paid by the konger alone; no kong payment
    sw = build_wall(["5p *", KANCHAN_5P, "55p 9s *", "*"], draws=["?", "?", "?", "5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 2]
    state.step({1: find(state, 1, "pass"), 2: find(state, 2, "peng", "5p")})
    act(state, 2, "discard", "9s")
    act(state, 3, "discard", sw.draws[0])
    act(state, 0, "discard", sw.draws[1])
    act(state, 1, "discard", sw.draws[2])
    act(state, 2, "added_kong", "5p")
    assert state.pending() == [1]
    act(state, 1, "hu")
    assert transfers(state) == [(2, 1, 2, "hu")]
    play_out(state)
    assert transfers(state) == [(2, 1, 2, "hu")]


GANG_HAND = "999m 123m 456p 11p 78p"  # kong of 9m, then 6p (or 3p, 9p) completes


def test_self_draw_on_a_kong_replacement_scores_gangshanghua():
    # seat 1 draws the fourth 9m, kongs (2 from each), the replacement 6p wins:
    # 平胡 1 + 根 1 (the kong) + 杠上花 1 = 3 fan (×4), + 1 base bonus from each payer
    assert waits_of(tiles("123m 456p 11p 78p"), kong_melds=["9m"]) == ["3p", "6p", "9p"]
    sw = build_wall(["9s *", GANG_HAND, "*", "*"], draws=["9m", "6p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "concealed_kong", "9m")
    assert state.pending() == [1]
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [
        (2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang"),
        (2, 1, 5, "hu"), (3, 1, 5, "hu"), (0, 1, 5, "hu"),
    ]


def dian_gang_hua(rules):
    # the dealer discards 9m; seat 1 kongs it (direct) and wins on the replacement 6p
    sw = build_wall(["9m *", GANG_HAND, "*", "*"], draws=["6p"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "9m")
    assert state.pending() == [1]
    act(state, 1, "kong", "9m")
    assert state.pending() == [1]
    act(state, 1, "hu")
    return play_out(state)


def test_dian_gang_hua_self_draw_pays_as_a_self_draw():
    state = dian_gang_hua(xl_rules(dian_gang_hua="self_draw"))
    assert transfers(state) == [
        (0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang"),
        (2, 1, 5, "hu"), (3, 1, 5, "hu"), (0, 1, 5, "hu"),
    ]


def test_dian_gang_hua_discarder_pays_alone_without_base_bonus():
    state = dian_gang_hua(xl_rules(dian_gang_hua="discarder"))
    assert transfers(state) == [
        (0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang"),
        (0, 1, 4, "hu"),
    ]


def test_dian_gang_hua_in_the_xuezhan_preset():
    # xuezhan: direct_kong_others 0, dian_gang_hua "discarder", no self-draw bonus
    state = dian_gang_hua(xz_rules())
    assert transfers(state) == [(0, 1, 2, "gang"), (0, 1, 4, "hu")]


def test_player_multipliers_scale_every_payment():
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8}, heavenly_earthly=False)
    sw = build_wall(["5p *", TANKI_5P, QING_5M, "*"], draws=["5m"])
    state = new_game(rules, sw)
    assert state.pending() == [0, 1, 2, 3]
    assert {a.value for a in state.legal_actions(0) if a.kind == "multiplier"} == {2, 4, 8}
    chosen = {0: 2, 1: 4, 2: 8, 3: 4}
    state.step({s: find(state, s, "multiplier", value=v) for s, v in chosen.items()})
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")            # 1 fan: 1 x m0 2 x m1 4 = 8
    act(state, 2, "hu")            # 3 fan self-draw: 4 x m[payer] x 8, seats 3 and 0
    play_out(state)
    assert transfers(state) == [(0, 1, 8, "hu"), (3, 2, 128, "hu"), (0, 2, 64, "hu")]


def test_room_and_base_scale_the_unit():
    state = discard_win(xl_rules(base=2, room=3), DUIDUI_5P)
    assert transfers(state) == [(0, 1, 12, "hu")]


def test_room_and_base_scale_the_self_draw_bonus_too():
    state = self_draw(xl_rules(base=2, room=3))
    assert transfers(state) == [(2, 1, 12, "hu"), (3, 1, 12, "hu"), (0, 1, 12, "hu")]


def test_max_fan_caps_the_payment():
    state = discard_win(xl_rules(max_fan=2), QING_5M, tile="5m")
    assert transfers(state) == [(0, 1, 2, "hu")]


def test_multipliers_table_replaces_doubling():
    state = discard_win(xl_rules(max_fan=4, multipliers=(1, 2, 3, 4)), QING_5M, tile="5m")
    assert transfers(state) == [(0, 1, 3, "hu")]


def test_fan_table_override_changes_the_payment():
    state = discard_win(xl_rules(fan_table={"pinghu": 2}), TANKI_5P)
    assert transfers(state) == [(0, 1, 2, "hu")]


SEVEN_PAIRS_7P = "1122m3344p5566p7p"


def test_seven_pairs_win_pays_three_fan():
    assert waits_of(tiles(SEVEN_PAIRS_7P)) == ["7p"]
    state = discard_win(xl_rules(), SEVEN_PAIRS_7P, tile="7p")
    assert transfers(state) == [(0, 1, 4, "hu")]


def test_seven_pairs_off_offers_no_win_on_seven_pairs():
    sw = build_wall(["7p *", SEVEN_PAIRS_7P, "*", "*"])
    state = new_game(xl_rules(seven_pairs=False), sw)
    act(state, 0, "discard", "7p")
    assert 1 not in state.pending() or not has(state, 1, "hu")
    play_out(state)
    assert transfers(state) == []


def test_menqing_adds_one_fan_without_pengs():
    state = discard_win(xl_rules(menqing=True), TANKI_5P)
    assert transfers(state) == [(0, 1, 2, "hu")]


GEN_IN_HAND = "111m123m789m55p46p"  # four 1m in hand (a 根), waits on 5p


def test_gen_counts_all_fours_counts_four_in_hand():
    assert waits_of(tiles(GEN_IN_HAND)) == ["5p"]
    state = discard_win(xl_rules(gen_counts="all_fours"), GEN_IN_HAND)
    assert transfers(state) == [(0, 1, 2, "hu")]


def test_gen_counts_kongs_only_ignores_four_in_hand():
    state = discard_win(xl_rules(gen_counts="kongs_only"), GEN_IN_HAND)
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_gen_counts_none_ignores_every_four():
    state = discard_win(xl_rules(gen_counts="none"), GEN_IN_HAND)
    assert transfers(state) == [(0, 1, 1, "hu")]


def test_duanyaojiu_adds_one_fan_without_terminals():
    hand = "234m567m345p678p2p"
    assert "2p" in waits_of(tiles(hand))
    assert transfers(discard_win(xl_rules(duanyaojiu=True), hand, tile="2p")) == [(0, 1, 2, "hu")]
    assert transfers(discard_win(xl_rules(), hand, tile="2p")) == [(0, 1, 1, "hu")]


def test_yitiaolong_adds_one_fan_for_a_full_straight():
    assert transfers(discard_win(xl_rules(yitiaolong=True), TANKI_5P)) == [(0, 1, 2, "hu")]


def test_jiaxinwu_adds_one_fan_for_a_five_in_the_middle():
    assert transfers(discard_win(xl_rules(jiaxinwu=True), KANCHAN_5P)) == [(0, 1, 2, "hu")]
    # the 5p tanki of 123p5p is not the middle of a chow
    assert transfers(discard_win(xl_rules(jiaxinwu=True), TANKI_5P)) == [(0, 1, 1, "hu")]


def last_tile_self_draw(rules):
    # every 5p but the last live tile is held: seat 3 (drawing wall[107], the 55th live draw)
    # can first win on that last tile
    sw = build_wall(["9s 5p *", "5p *", "*", TANKI_5P], last=["5p"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "9s")
    play_until_offered_on_the_last_tile(state, 3)
    act(state, 3, "hu")
    return play_out(state)


def play_until_offered_on_the_last_tile(state, seat):
    return play_until(state, lambda st: wall_left(st) == 0 and seat in st.pending() and has(st, seat, "hu"))


def test_haidi_self_draw_on_the_last_tile_adds_one_fan():
    # xuezhan preset: haidi on, no self-draw bonus: 平胡 1 + 海底捞月 1 = 2 fan from each
    state = last_tile_self_draw(xz_rules())
    assert transfers(state) == [(0, 3, 2, "hu"), (1, 3, 2, "hu"), (2, 3, 2, "hu")]


def test_haidi_off_scores_the_last_tile_as_a_plain_self_draw():
    state = last_tile_self_draw(xz_rules(haidi=False))
    assert transfers(state) == [(0, 3, 1, "hu"), (1, 3, 1, "hu"), (2, 3, 1, "hu")]


def last_discard_win(rules):
    # seat 3 draws the last tile, 5m, and discards it; seat 1 wins on it (清一色 3 fan)
    sw = build_wall(["9s 5m *", QING_5M, "*", "*"], last=["5m"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "9s")
    play_until_offered_on_the_last_tile(state, 1)
    act(state, 1, "hu")
    return play_out(state)


def test_haidipao_adds_one_fan_to_a_win_on_the_discard_after_the_last_tile():
    assert transfers(last_discard_win(xl_rules(haidipao=True))) == [(3, 1, 8, "hu")]


def test_without_haidipao_the_last_discard_pays_plainly():
    assert transfers(last_discard_win(xl_rules())) == [(3, 1, 4, "hu")]


def jingoudiao_game(rules):
    # seat 2 pengs the dealer's 1m, 3m, 7m and 9m (shedding its bamboo after each), then wins on
    # the dealer's 5p with one tile left in hand: 金钩钓 3 fan (×4) where the family is on,
    # else 对对胡 2 fan (×2)
    sw = build_wall(["1m 3m 7m 9m 5p *", "*", "11m 33m 77m 99m 5p 2468s", "*"], draws=["?"] * 8)
    state = new_game(rules, sw)
    for i, (tile, shed) in enumerate((("1m", "2s"), ("3m", "4s"), ("7m", "6s"), ("9m", "8s"))):
        act(state, 0, "discard", tile)  # after the first, the dealer has drawn draws[2i - 1]
        act(state, 2, "peng", tile)
        act(state, 2, "discard", shed)
        act(state, 3, "discard", sw.draws[2 * i])
    act(state, 0, "discard", "5p")
    assert state.pending() == [2]
    act(state, 2, "hu")
    return state


def test_jingoudiao_pays_three_fan():
    assert transfers(jingoudiao_game(xz_rules())) == [(0, 2, 4, "hu")]


def test_jingoudiao_off_scores_the_plain_pattern():
    assert transfers(jingoudiao_game(xz_rules(jingoudiao=False))) == [(0, 2, 2, "hu")]


def test_dian_gang_hua_discarder_does_not_apply_to_an_added_kong():
    # seat 1 pengs the dealer's 9m, later adds the fourth 9m and wins on the replacement 6p:
    # a plain self-draw (杠上花, 3 fan), paid by everyone with the base bonus
    sw = build_wall(["9m *", "99m 123m 456p 11p 78p 8s", "*", "*"], draws=["?", "?", "?", "9m", "6p"])
    state = new_game(xl_rules(dian_gang_hua="discarder"), sw)
    act(state, 0, "discard", "9m")
    act(state, 1, "peng", "9m")
    act(state, 1, "discard", "8s")
    for seat, i in ((2, 0), (3, 1), (0, 2)):
        act(state, seat, "discard", sw.draws[i])
    act(state, 1, "added_kong", "9m")
    act(state, 1, "hu")
    assert transfers(state) == [
        (2, 1, 1, "gang"), (3, 1, 1, "gang"), (0, 1, 1, "gang"),
        (2, 1, 5, "hu"), (3, 1, 5, "hu"), (0, 1, 5, "hu"),
    ]


def test_settlement_lists_each_win_with_its_fan_result():
    state = discard_win(xl_rules(), QING_5M, tile="5m")
    wins = state.settlement().wins
    assert len(wins) == 1
    w = wins[0]
    assert w.seat == 1 and w.tile == "5m"
    assert (w.fan_result.base, w.fan_result.fan, w.fan_result.multiplier) == ("qingyise", 3, 4)


def test_settlement_report_reads_like_a_players_statement():
    """The exact lines a player reads (docs/rules.md §7 详细结算 / 个人结算), not just the numbers somewhere."""
    state = discard_win(xl_rules(), QING_5M, tile="5m")
    assert state.settlement().report().splitlines() == [
        "详细结算 Detailed settlement — 血流成河 xueliu, dealer seat 0, base 1, ended: wall exhausted",
        "",
        "Seat 0 (dealer): net -4",
        "  胡 wins: -4",
        "  查叫 end check: not ready",
        "",
        "Seat 1: net +4",
        "  Win 1: 5m 点炮 on seat 0's discard — 清一色 3 = 3 番 ×4 (qingyise) [12334555678999m]",
        "  胡 wins: +4",
        "",
        "Seat 2: net +0",
        "  查叫 end check: not ready",
        "",
        "Seat 3: net +0",
        "  查叫 end check: not ready",
        "",
        "个人结算 Personal settlement",
        "Seat 0:",
        "  -4 to seat 1: 胡 win (win 1: 5m discard of seat 0 to seat 1, 3 fan)",
        "  net -4",
        "Seat 1:",
        "  +4 from seat 0: 胡 win (win 1: 5m discard of seat 0 to seat 1, 3 fan)",
        "  net +4",
        "Seat 2:",
        "  (no transfers)",
        "  net +0",
        "Seat 3:",
        "  (no transfers)",
        "  net +0",
    ]


def test_player_multipliers_scale_the_self_draw_bonus_too():
    # xueliu with multipliers: each payer pays (1 + 1 bonus) x m[payer] x m[winner]
    rules = xl_rules(player_multipliers={"allowed": (1, 2), "default": 1})
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(rules, sw)
    m = {0: 1, 1: 2, 2: 2, 3: 1}
    state.step({s: find(state, s, "multiplier", value=v) for s, v in m.items()})
    act(state, 0, "discard", "9s")
    act(state, 1, "hu")
    assert transfers(state) == [(2, 1, 8, "hu"), (3, 1, 4, "hu"), (0, 1, 4, "hu")]
