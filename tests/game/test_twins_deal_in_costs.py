"""``deal_in_costs`` (python/xueliu/game/deal_in_costs.py: what each discard would cost the seat on
turn) re-derives the claim window's wins and their fans; the claim window and ``discard_wins`` are
what a discard actually pays. The two must agree at the moments whose flags only they read:
the dealer's opening discard under every ``heavenly_earthly`` setting (off, the 6-fan base,
``"additive"``) and every ``earthly_win`` value (地胡 on that discard or not, docs/rules.md §4, §11.3),
the same discard after a concealed kong on the opening turn (杠上炮, no 地胡), the first discard after
a 血流 天胡, two winners of one discard, and the discard after the last wall tile (海底炮)."""

from __future__ import annotations

import itertools

import pytest

from xueliu.game.deal_in_costs import deal_in_costs
from xueliu.tiles import tile_index

from .conftest import act, build_wall, new_game, xl_rules, xz_rules
from .test_deal_in_costs import paid_by_discarding

TANKI_5P = "123m456m789m123p5p"     # 平胡, waits 5p
KANCHAN_5P = "123m456m789m11p46p"   # 平胡, waits 5p
TANKI_9P_S = "123s456s789s123p9p"   # 平胡, waits 9p
HEAVENLY = ["off", "base", "additive"]
EARTHLY = ["first_draw", "first_discard", "either"]


def rules_for(make, heavenly: str, earthly: str, **knobs):
    value = {"off": False, "base": True, "additive": "additive"}[heavenly]
    return make(heavenly_earthly=value, earthly_win=earthly, **knobs)


def cost_and_paid(state, seat: int, kind: str):
    assert state.phase == "turn" and state.pending() == [seat]
    return deal_in_costs(state)[tile_index(kind)], paid_by_discarding(state, seat, kind)


def earthly_counts(heavenly: str, earthly: str) -> bool:
    return heavenly != "off" and earthly != "first_draw"


@pytest.mark.parametrize("make", [xl_rules, xz_rules], ids=["xueliu", "xuezhan"])
@pytest.mark.parametrize("heavenly, earthly", list(itertools.product(HEAVENLY, EARTHLY)))
def test_the_dealers_opening_discard_costs_what_its_two_winners_are_paid(make, heavenly, earthly):
    rules = rules_for(make, heavenly, earthly)
    sw = build_wall(["5p *", TANKI_5P, "*", KANCHAN_5P], draws=["?"])
    state = new_game(rules, sw)
    cost, paid = cost_and_paid(state, 0, "5p")
    assert cost == paid
    # 平胡 (1 fan, ×1) each; 地胡 makes it the 6-fan base (×32) or adds 2 (×4)
    each = 1 if not earthly_counts(heavenly, earthly) else 32 if heavenly == "base" else 4
    assert cost == 2 * each


@pytest.mark.parametrize("heavenly, earthly", list(itertools.product(HEAVENLY, EARTHLY)))
def test_after_a_concealed_kong_on_the_opening_turn_the_discard_costs_gangshangpao_not_dihu(
        heavenly, earthly):
    rules = rules_for(xl_rules, heavenly, earthly, kong_draw_from="back")
    sw = build_wall(["9999s 5p *", TANKI_5P, "*", "*"], draws=["?"], back=["?"])
    state = new_game(rules, sw)
    act(state, 0, "concealed_kong", "9s")
    cost, paid = cost_and_paid(state, 0, "5p")
    assert cost == paid == 2  # 平胡 + 杠上炮: 2 fan, ×2


@pytest.mark.parametrize("earthly", EARTHLY)
@pytest.mark.parametrize("heavenly", ["base", "additive"])
def test_after_a_xueliu_heavenly_win_the_next_seats_discard_costs_no_dihu(heavenly, earthly):
    # 天胡; seat 1 then draws 9p on its first draw; seat 2 waits on 9p
    rules = rules_for(xl_rules, heavenly, earthly)
    sw = build_wall(["123m456m789m123p55p", "*", TANKI_9P_S, "*"], draws=["9p"])
    state = new_game(rules, sw)
    act(state, 0, "hu")
    cost, paid = cost_and_paid(state, 1, "9p")
    assert cost == paid == 1


@pytest.mark.parametrize("haidipao", [False, True])
def test_the_discard_after_the_last_wall_tile_costs_what_haidipao_pays(haidipao):
    # the last live tile goes to seat 3 (dealer 0: live draws to seats 1, 2, 3, 0, …; 55 of them)
    rules = xl_rules(haidipao=haidipao)
    sw = build_wall(["8s *", TANKI_5P, "*", "*"], last=["5p"])
    state = new_game(rules, sw)
    act(state, 0, "discard", "8s")
    while not (state.pending() == [3] and state._back < state._front):
        (q,) = state.pending()
        state.step({q: next(a for a in state.legal_actions(q) if a.id == state._drawn)})
    cost, paid = cost_and_paid(state, 3, "5p")
    assert cost == paid == (2 if haidipao else 1)
