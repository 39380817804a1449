"""docs/rules.md §6 knob `multipliers`: a table whose entry i is the multiplier of fan i + 1 "must cover
every fan the configuration can reach (or max_fan)". `Rules.highest_fan()` bounds that reach, and a
game refuses a table that falls short, so no win can meet a missing entry half-way through a step.
"""

import json
import pathlib

import pytest

import xueliu
from conftest import cases_before_wild_tiles
from xueliu import Rules

VECTORS = json.loads((pathlib.Path(__file__).parent / "data" / "hands.json").read_text("utf-8"))
FLAGS = ("self_draw", "kong_replacement", "after_kong_discard", "robbed_kong", "last_tile",
         "heavenly", "earthly")


@pytest.mark.parametrize("case", [c for c in cases_before_wild_tiles(VECTORS, "eval_cases") if c["expect"]["win"]],
                         ids=lambda c: c["id"])
def test_highest_fan_bounds_every_public_vector(case):
    rules = Rules.preset(case["preset"]).replace(**case.get("overrides", {}))
    context = case["context"]
    result = xueliu.evaluate(case["hand"], void=context["void"], win_tile=context.get("win_tile"),
                             rules=rules, **{flag: context[flag] for flag in FLAGS})
    assert result.fan <= rules.highest_fan()


def test_highest_fan_is_capped_by_max_fan():
    assert Rules(max_fan=3).highest_fan() == 3


def test_a_game_refuses_a_multipliers_table_shorter_than_the_reachable_fan():
    short = Rules(multipliers=(1, 2), max_fan=5)
    with pytest.raises(ValueError, match="multipliers has 2 entries but a win can reach 5 fan"):
        xueliu.new_game(short, seed=1)


def test_a_game_accepts_a_table_that_covers_max_fan():
    state = xueliu.new_game(Rules(multipliers=(1, 2, 3, 4, 5), max_fan=5), seed=1)
    assert state.pending() == [0, 1, 2, 3]
