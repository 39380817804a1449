"""End of the hand by wall exhaustion (docs/rules.md §7, §10 "End of hand"): 查花猪, 查大叫, 退税.

Only seats that never won pay. Order: pig / 大叫 by payer seat then payee seat, then refunds,
then fees. Every scenario plays the hand out with each seat discarding what it draws, so the
hands at the end are the scripted ones.
"""

from .conftest import (
    act,
    build_wall,
    find,
    new_game,
    play_out,
    suits_of,
    tiles,
    transfers,
    waits_of,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"        # 平胡, best 1 fan
KANCHAN_5P = "123m456m789m11p46p"      # 平胡, best 1 fan
GEN_WAIT = "111m23m456m789p55p"        # waits 1m 4m 7m 5p; 1m makes a 根: best 2 fan (×2)
LONG_QIDUI = "1111m22334455m6m"        # 6m: 清龙七对 6 fan (×32) is its best wait
PIG = "9m 6p 7s *"                      # three suits: a flower pig


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(GEN_WAIT)) == ["1m", "4m", "7m", "5p"]
    assert waits_of(tiles(LONG_QIDUI)) == ["2m", "3m", "5m", "6m"]
    assert waits_of(tiles(TANKI_5P)) == ["5p"]


def played_out(rules, hands, draws=()):
    sw = build_wall(hands, draws=draws)
    state = new_game(rules, sw)
    return sw, play_out(state)


def test_flower_pig_pays_the_penalty_to_each_unwon_non_pig_seat():
    sw, state = played_out(xl_rules(), ["9s *", "*", PIG, "*"])
    assert len(suits_of(sw.hands[2])) == 3
    assert transfers(state) == [(2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu")]


def test_pig_penalty_knob_sets_the_amount():
    _, state = played_out(xl_rules(pig_penalty=8), ["9s *", "*", PIG, "*"])
    assert transfers(state) == [(2, 0, 8, "huazhu"), (2, 1, 8, "huazhu"), (2, 3, 8, "huazhu")]


def test_pigs_do_not_pay_each_other():
    _, state = played_out(xl_rules(), ["9s *", "*", PIG, "9m 6p 7s *"])
    assert transfers(state) == [
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"),
        (3, 0, 16, "huazhu"), (3, 1, 16, "huazhu"),
    ]


def pig_after_a_win(rules):
    sw = build_wall(["5p *", TANKI_5P, PIG, "*"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    return play_out(state)


def test_pig_payees_unwon_non_pig_skip_the_winner():
    state = pig_after_a_win(xl_rules(pig_payees="unwon_non_pig"))
    assert transfers(state) == [(0, 1, 1, "hu"), (2, 0, 16, "huazhu"), (2, 3, 16, "huazhu")]


def test_pig_payees_all_non_pig_include_the_winner():
    state = pig_after_a_win(xl_rules(pig_payees="all_non_pig"))
    assert transfers(state) == [
        (0, 1, 1, "hu"), (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu"),
    ]


def test_not_ready_seat_pays_each_ready_unwon_seat_its_best_fan():
    _, state = played_out(xl_rules(), ["9s *", "*", "*", GEN_WAIT])
    assert transfers(state) == [(0, 3, 2, "chadajiao"), (1, 3, 2, "chadajiao"), (2, 3, 2, "chadajiao")]


def test_dajiao_goes_by_payer_seat_then_payee_seat():
    _, state = played_out(xl_rules(), ["9s *", "*", TANKI_5P, GEN_WAIT])
    assert transfers(state) == [
        (0, 2, 1, "chadajiao"), (0, 3, 2, "chadajiao"),
        (1, 2, 1, "chadajiao"), (1, 3, 2, "chadajiao"),
    ]


def test_dajiao_fan_is_capped_and_uses_gen_counts():
    _, state = played_out(xl_rules(max_fan=3), ["9s *", "*", "*", LONG_QIDUI])
    assert transfers(state) == [(0, 3, 4, "chadajiao"), (1, 3, 4, "chadajiao"), (2, 3, 4, "chadajiao")]
    _, state = played_out(xl_rules(gen_counts="none"), ["9s *", "*", "*", GEN_WAIT])
    assert transfers(state) == [(0, 3, 1, "chadajiao"), (1, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao")]


def test_dajiao_ignores_menqing_and_self_draw_fans():
    rules = xl_rules(menqing=True, self_draw_bonus="fan", duanyaojiu=True)
    _, state = played_out(rules, ["9s *", "*", "*", TANKI_5P])
    assert transfers(state) == [(0, 3, 1, "chadajiao"), (1, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao")]


def ready_winner(rules):
    # seat 1 wins on the dealer's 5p; its frozen hand stays ready on 5p (1 fan)
    sw = build_wall(["5p *", KANCHAN_5P, "*", "*"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    return play_out(state)


def test_ready_check_payees_unwon_leaves_winners_out():
    assert transfers(ready_winner(xl_rules(ready_check_payees="unwon"))) == [(0, 1, 1, "hu")]


def test_ready_check_payees_all_pays_ready_winners_too():
    assert transfers(ready_winner(xl_rules(ready_check_payees="all"))) == [
        (0, 1, 1, "hu"),
        (0, 1, 1, "chadajiao"), (2, 1, 1, "chadajiao"), (3, 1, 1, "chadajiao"),
    ]


def test_flower_pig_pays_the_larger_of_penalty_and_dajiao():
    # seat 3 is ready for 32 (清龙七对): the pig pays it 32, not 16 + 32
    _, state = played_out(xl_rules(), ["9s *", "*", PIG, LONG_QIDUI])
    assert transfers(state) == [
        (0, 3, 32, "chadajiao"),
        (1, 3, 32, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 32, "chadajiao"),
    ]


def test_flower_pig_pays_the_penalty_when_it_is_larger_than_the_dajiao():
    _, state = played_out(xl_rules(), ["9s *", "*", PIG, TANKI_5P])
    assert transfers(state) == [
        (0, 3, 1, "chadajiao"),
        (1, 3, 1, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu"),
    ]


KONG_GAIN = [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]


def dealer_kong_played_out(rules, dealer_hand="9999s *"):
    sw = build_wall([dealer_hand, "*", "*", "*"], draws=["?"],
                    quiet_avoid=["1m", "3m", "4m", "6m", "9m"])
    state = new_game(rules, sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", sw.draws[0])
    return play_out(state)


def test_refund_returns_kong_income_of_non_ready_seat():
    state = dealer_kong_played_out(xl_rules())
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


def test_refund_kongs_off_keeps_the_kong_income():
    assert transfers(dealer_kong_played_out(xl_rules(refund_kongs=False))) == KONG_GAIN


def test_ready_konger_keeps_its_kong_income_and_collects_dajiao():
    # after the kong the dealer is ready (平胡 1 + 根 1 = 2 fan at best) and never takes a win
    hand = "9999s 123m 456m 78m 55m"
    assert waits_of(tiles("123m 456m 78m 55m"), kong_melds=["9s"])
    state = dealer_kong_played_out(xl_rules(), hand)
    assert transfers(state) == KONG_GAIN + [
        (1, 0, 2, "chadajiao"), (2, 0, 2, "chadajiao"), (3, 0, 2, "chadajiao"),
    ]


def test_a_pig_also_refunds_its_kong_income_after_the_pig_penalty():
    state = dealer_kong_played_out(xl_rules(), "9999s 1m 5p *")
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 16, "huazhu"), (0, 2, 16, "huazhu"), (0, 3, 16, "huazhu"),
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


def dead_wait(rules):
    # seat 3 waits only on 5p; the other three 5p are all discarded (seat 3 lets them go)
    sw = build_wall(["5p *", "*", "*", TANKI_5P], draws=["5p", "5p"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 3, "pass")
    act(state, 1, "discard", "5p")
    act(state, 3, "pass")
    act(state, 2, "discard", "5p")
    act(state, 3, "pass")
    return play_out(state)


def test_dead_waits_still_count_as_ready_by_default():
    assert transfers(dead_wait(xl_rules())) == [
        (0, 3, 1, "chadajiao"), (1, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao"),
    ]


def test_dead_waits_ready_off_treats_a_fully_visible_wait_as_not_ready():
    assert transfers(dead_wait(xl_rules(dead_waits_ready=False))) == []


def test_xuezhan_winner_receives_the_pig_penalty_but_no_dajiao():
    # xuezhan preset: pig_payees "all_non_pig", ready_check_payees "unwon"
    sw = build_wall(["5p *", TANKI_5P, PIG, GEN_WAIT])
    state = new_game(xz_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 3]          # seat 3 could win on 5p too; it passes
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "pass")})
    play_out(state)
    assert transfers(state) == [
        (0, 1, 1, "hu"),
        (0, 3, 2, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu"),
    ]


def test_player_multipliers_scale_the_end_checks():
    # xuezhan with multipliers m = [2, 4, 8, 2]: seat 2 is a pig, seat 3 ready for 2 fan (×2)
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8})
    sw = build_wall(["9s *", "*", PIG, GEN_WAIT])
    state = new_game(rules, sw)
    m = {0: 2, 1: 4, 2: 8, 3: 2}
    state.step({s: find(state, s, "multiplier", value=v) for s, v in m.items()})
    play_out(state)
    assert transfers(state) == [
        (0, 3, 2 * 2 * 2, "chadajiao"),
        (1, 3, 2 * 4 * 2, "chadajiao"),
        (2, 0, 16 * 8 * 2, "huazhu"), (2, 1, 16 * 8 * 4, "huazhu"), (2, 3, 16 * 8 * 2, "huazhu"),
    ]


def test_multipliers_table_applies_to_dajiao_and_to_the_pig_comparison():
    # a linear table: 清龙七对 6 fan is worth 6, below the pig penalty of 16
    rules = xl_rules(max_fan=6, multipliers=(1, 2, 3, 4, 5, 6))
    _, state = played_out(rules, ["9s *", "*", PIG, LONG_QIDUI])
    assert transfers(state) == [
        (0, 3, 6, "chadajiao"),
        (1, 3, 6, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu"),
    ]


def test_refund_returns_what_was_actually_collected():
    # seat 1 has a single coin when the dealer kongs: it pays 1, and gets 1 back
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?"])
    state = new_game(xl_rules(), sw, coins=[100, 1, 100, 100])
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", sw.draws[0])
    play_out(state)
    assert transfers(state) == [
        (1, 0, 1, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
        (0, 1, 1, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


def test_dead_waits_ready_off_cannot_see_into_a_concealed_kong():
    # seat 3 waits only on 8s; the dealer holds all four 8s in a concealed kong. From seat 3's
    # own view 8s is not used up, so it still counts as ready with dead_waits_ready off
    kanchan_8s = "123m456m789m11s79s"
    assert waits_of(tiles(kanchan_8s)) == ["8s"]
    sw = build_wall(["8888s *", "*", "*", kanchan_8s], draws=["?"])
    state = new_game(xl_rules(dead_waits_ready=False), sw)
    act(state, 0, "concealed_kong", "8s")
    act(state, 0, "discard", sw.draws[0])
    play_out(state)
    assert transfers(state) == KONG_GAIN + [
        (0, 3, 1, "chadajiao"), (1, 3, 1, "chadajiao"), (2, 3, 1, "chadajiao"),
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


def test_a_peng_of_a_third_suit_makes_a_flower_pig():
    # seat 2 keeps m and p in hand but pengs 5s: three suits counting melds
    hand = "55s 13479m 125689p"
    sw = build_wall(["5s *", "*", hand, "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "5s")
    act(state, 2, "peng", "5s")
    act(state, 2, "discard", "9p")
    play_out(state)
    assert transfers(state) == [(2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu")]


def test_a_pig_pays_a_ready_winner_only_its_dajiao_when_winners_are_no_pig_payees():
    # pig_payees "unwon_non_pig" but ready_check_payees "all": seat 1 (a ready winner) is owed
    # the 大叫 amount by the pig, not the penalty
    sw = build_wall(["5p *", KANCHAN_5P, PIG, "*"])
    state = new_game(xl_rules(pig_payees="unwon_non_pig", ready_check_payees="all"), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    assert transfers(state) == [
        (0, 1, 1, "hu"),
        (0, 1, 1, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 1, "chadajiao"), (2, 3, 16, "huazhu"),
        (3, 1, 1, "chadajiao"),
    ]
