"""What every set of branch points must be (xueliu.train.branches against bots,
xueliu.train.selfplay_branches in self-play): the network's best allowed candidates, in order."""

from __future__ import annotations

from typing import Dict

import numpy as np

from xueliu.bots.neural_net import Network
from xueliu.train import demos


def assert_the_networks_best_candidates(net: Network, points: Dict[str, np.ndarray]) -> None:
    n = len(points["preset"])
    masks = demos.unpack_mask(points["mask"])
    cand = points["cand"].astype(np.int64)
    has = cand >= 0
    assert has[:, :2].all()  # at least two allowed indices at every branch point
    assert masks[np.arange(n)[:, None], np.maximum(cand, 0)][has].all()
    assert np.array_equal(np.isnan(points["value"]), ~has)
    # the first candidate is the network's own decision, the others its next best, in order
    logits = np.where(masks, net.forward(demos.unpack_x(points["x"])), -np.inf)
    assert np.array_equal(cand[:, 0], np.argmax(logits, axis=1))
    ranked = np.take_along_axis(logits, np.maximum(cand, 0), axis=1)
    assert (np.diff(np.where(has, ranked, -np.inf), axis=1)[has[:, 1:]] <= 0).all()
    # the candidates do not all win the same: the wall tells them apart
    assert (np.nanmax(points["value"], axis=1) != np.nanmin(points["value"], axis=1)).mean() > 0.2


def rows_of(points: Dict[str, np.ndarray]) -> set:
    """The rows of a set of branch points (inputs, candidates, values), to compare sets made by
    different chunkings: a hand's points must not depend on the other hands of its chunk."""
    return {(points["x"][i].tobytes(), points["cand"][i].tobytes(), points["value"][i].tobytes())
            for i in range(len(points["preset"]))}
