"""What every set of branch points must be (xueliu.train.branches against bots,
xueliu.train.selfplay_branches in self-play): the network's best allowed candidates, in order."""

from __future__ import annotations

from typing import Dict

import numpy as np

from xueliu.bots.neural_net import Network
from xueliu.train import demos

from near_ties import TIE, assert_same_choices, near_ties


def assert_the_networks_best_candidates(net: Network, points: Dict[str, np.ndarray]) -> None:
    n = len(points["preset"])
    masks = demos.unpack_mask(points["mask"])
    cand = points["cand"].astype(np.int64)
    has = cand >= 0
    assert has[:, :2].all()  # at least two allowed indices at every branch point
    assert masks[np.arange(n)[:, None], np.maximum(cand, 0)][has].all()
    assert np.array_equal(np.isnan(points["value"]), ~has)
    # the first candidate is the network's own decision, the others its next best, in order —
    # by the logits of all the points in one batch here, which the hands computed in batches of
    # their own: the same but at near ties, and in order within one (tests/near_ties.py)
    logits = np.where(masks, net.forward(demos.unpack_x(points["x"])), -np.inf)
    assert_same_choices(cand[:, 0], np.argmax(logits, axis=1), near_ties(logits, masks))
    ranked = np.take_along_axis(logits, np.maximum(cand, 0), axis=1)
    assert (np.diff(np.where(has, ranked, -np.inf), axis=1)[has[:, 1:]] <= TIE).all()
    # the candidates do not all win the same: the wall tells them apart
    assert (np.nanmax(points["value"], axis=1) != np.nanmin(points["value"], axis=1)).mean() > 0.2


def rows_of(points: Dict[str, np.ndarray]) -> set:
    """The rows of a set of branch points (inputs, candidates, values), to compare sets made by
    different chunkings: a hand's points must not depend on the other hands of its chunk."""
    return {(points["x"][i].tobytes(), points["cand"][i].tobytes(), points["value"][i].tobytes())
            for i in range(len(points["preset"]))}


class RowByRow:
    """A network asked about one row at a time: each row's logits are then those of the row
    alone, whatever batch it came in (a batch's products differ from a lone row's in their last
    bits) — for comparing, to the bit, sets of points made in batches of different hands."""

    def __init__(self, network: Network) -> None:
        assert network.danger_penalty is None  # forward is the last layer's outputs
        self.network = network

    def forward(self, x: np.ndarray) -> np.ndarray:
        # the first layer's inputs of the whole batch at once (0/1 planes and the analysis
        # channels' counts: exact whatever the batch), then each row's products alone
        h = self.network.inputs(x)
        if not len(h):
            return self.network.forward(x)
        return np.concatenate([self.network.outputs_of_inputs(h[i:i + 1])
                               for i in range(len(h))])
