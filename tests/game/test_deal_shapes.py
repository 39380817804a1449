"""The wall and the deal of every table shape (docs/rules.md §11.1), read off ``rules.shape``."""

import random

import pytest

from xueliu.game.deal import deal, deal_by_plan, parse_wall
from xueliu.rules import Rules
from xueliu.tiles import TILE_NAMES

ROOMS = ("xueliu", "sanren_liangfang", "sanren_sanfang", "siren_liangfang", "erren_yifang")


def shuffled_wall(shape, seed):
    wall = [k for k in shape.kinds for _ in range(4)]
    random.Random(seed).shuffle(wall)
    return wall


@pytest.mark.parametrize("name", ROOMS)
def test_every_seat_is_dealt_hand_size_tiles_and_the_dealer_one_more(name):
    shape = Rules.preset(name).shape
    wall = shuffled_wall(shape, 3)
    for dealer in shape.seats:
        hands = deal(wall, dealer, shape)
        assert [sum(h) for h in hands] == [shape.hand_size + (s == dealer) for s in shape.seats]
        dealt = [0] * 27
        for k in wall[:shape.dealt_tiles]:
            dealt[k] += 1
        assert [sum(h[k] for h in hands) for k in range(27)] == dealt


def test_the_native_four_seat_deal_is_the_plan_of_rules_11_1():
    shape = Rules().shape
    for seed in range(20):
        wall = shuffled_wall(shape, seed)
        for dealer in range(4):
            assert deal(wall, dealer, shape) == deal_by_plan(wall, dealer, shape)


def test_a_ten_tile_deal_takes_two_rounds_of_four_then_two_each():
    shape = Rules.preset("siren_liangfang").shape
    wall = shuffled_wall(shape, 1)
    hands = deal(wall, 1, shape)
    first_take = wall[0:4]  # the dealer's first take of four
    assert all(hands[1][k] >= first_take.count(k) for k in set(first_take))
    assert shape.deal_plan[8:] == ((0, 3), (1, 2), (2, 2), (3, 2))


def test_a_two_suit_wall_holds_72_tiles_of_its_suits_only():
    shape = Rules.preset("sanren_liangfang").shape
    names = [TILE_NAMES[k] for k in shuffled_wall(shape, 2)]
    assert len(parse_wall(names, shape)) == 72
    with pytest.raises(ValueError, match="a tile of a suit not in play"):
        parse_wall(["1m"] + names[1:], shape)
    with pytest.raises(ValueError, match="a wall holds 72 tiles, got 71"):
        parse_wall(names[1:], shape)
