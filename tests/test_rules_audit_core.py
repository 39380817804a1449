"""Rules audit, scoring (§6, §6.1): rules with no public vector of their own (the vectors leave
some tie-breaks out, see tests/data/hands.json decisions D13, D22). Each test is named after the
rule it checks; expected values are worked out by hand in the comments."""

from xueliu import evaluate
from xueliu.rules import Rules


def test_ties_on_total_and_base_fan_go_to_the_pattern_listed_first():
    # 11 22 33 99m 11 22 33p is 七对 (3) and also 123 123m 99m 123 123p, 带幺九 (3): the same
    # total and base fan, so the pattern listed first in the docs/rules.md §6 table (带幺九) is reported
    r = evaluate("11223399m112233p")
    assert (r.base, r.base_fan, r.fan, r.gen, r.extras) == ("daiyaojiu", 3, 3, 0, ())


def test_ties_after_total_base_fan_and_table_order_go_to_more_gens():
    # 天胡 (6) under gen_counts "kongs_only" with 夹心五 on, winning tile 5m:
    #   seven-pairs reading 1111 22 33 44 55 66m: 6 + 1 gen (a four of seven pairs) = 7
    #   standard reading 11 123 123 456 456m: 6 + 0 gens (no kong meld) + 夹心五 1 = 7
    # both are 天胡 with base 6 (清龙七对 6 + 0 and 清一色 3 + 1 score less): more gens wins
    rules = Rules(heavenly_earthly=True, gen_counts="kongs_only", jiaxinwu=True)
    r = evaluate("11112233445566m", rules=rules, self_draw=True, heavenly=True, win_tile="5m")
    assert (r.base, r.base_fan, r.fan, r.gen, r.extras) == ("tianhu", 6, 7, 1, ())


def test_haidipao_applies_to_a_robbing_win_too():
    # 海底炮 applies to any win that is not a self-draw, robbing included: 平胡 1 + 抢杠胡 1 +
    # 海底炮 1 = 3 fan
    r = evaluate("123456789m11p234p", rules=Rules(haidipao=True), robbed_kong=True, last_tile=True)
    assert (r.fan, r.extras) == (3, ("qiangganghu", "haidipao"))


def test_zimo_applies_to_every_self_draw_haidi_tianhu_and_dihu_included():
    fan_bonus = Rules(self_draw_bonus="fan", haidi=True, heavenly_earthly=True)
    r = evaluate("123456789m11p234p", rules=fan_bonus, self_draw=True, last_tile=True)
    assert (r.fan, r.extras) == (3, ("haidilaoyue", "zimo"))      # 平胡 1 + 海底 1 + 自摸 1
    for flag in ("heavenly", "earthly"):
        r = evaluate("123456m456p789p11p", rules=fan_bonus, self_draw=True, **{flag: True})
        assert (r.base_fan, r.fan, r.extras) == (6, 7, ("zimo",))  # 天胡/地胡 6 + 自摸 1
