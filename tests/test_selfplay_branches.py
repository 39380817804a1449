"""Branch points of self-play in lockstep (xueliu.train.selfplay_branches): the network's best
candidates, each played out on a copy of the same hand by the network in every seat."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from xueliu.bots import NeuralBot
from xueliu.train import selfplay_branches

from branch_points import RowByRow, assert_the_networks_best_candidates, rows_of

PRESETS = ("xueliu", "xuezhan")
SHIPPED = str(resources.files("xueliu.bots") / "weights" / "neural_v1.npz")


def test_self_play_branch_points_are_the_networks_best_candidates_played_on_the_same_wall():
    net = NeuralBot(weights=SHIPPED).network
    # verify: the network's own choice is also played on a copy of the hand and must win what
    # the hand itself won (it raises otherwise): the copies are faithful, so a candidate's value
    # is what that one decision changes on this wall
    points = selfplay_branches.generate(net, PRESETS, range(0, 6), seed=3, rate=0.3, top=3,
                                        verify=True)
    assert len(points["preset"]) > 40 and set(points["preset"]) == {0, 1}
    assert_the_networks_best_candidates(net, points)


def test_self_play_branch_points_are_a_function_of_the_seed_and_each_hand():
    # the network asked one row at a time (RowByRow): a batch's products differ from a lone
    # row's in their last bits, so only then are a hand's points the same to the bit whichever
    # other hands share its batches
    net = RowByRow(NeuralBot(weights=SHIPPED).network)
    whole = selfplay_branches.generate(net, PRESETS, range(0, 4), seed=5, rate=0.3)
    again = selfplay_branches.generate(net, PRESETS, range(0, 4), seed=5, rate=0.3)
    assert all(np.array_equal(whole[k], again[k], equal_nan=k == "value") for k in whole)
    # a hand's branch points do not depend on which other hands share its chunk
    tail = selfplay_branches.generate(net, PRESETS, range(2, 4), seed=5, rate=0.3)
    assert 0 < len(tail["preset"]) < len(whole["preset"])
    assert rows_of(tail) <= rows_of(whole)
    other = selfplay_branches.generate(net, PRESETS, range(2, 4), seed=6, rate=0.3)
    assert rows_of(other) != rows_of(tail)


@pytest.mark.parametrize("bad", [{"rate": 1.5}, {"rate": -0.1}, {"top": 1}])
def test_self_play_branch_points_refuse_a_bad_rate_or_top(bad: dict) -> None:
    net = NeuralBot(weights=SHIPPED).network
    with pytest.raises(ValueError):
        selfplay_branches.generate(net, PRESETS, range(0, 1), seed=5, **bad)
