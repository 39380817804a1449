"""The network asked about one decision under several renamings of the tiles
(:mod:`xueliu.learn.renamings`: Sichuan mahjong plays alike with its suits permuted and its ranks
reversed), its masked log-probabilities averaged over the views, each mapped back to the real
tiles — an ensemble of one network (docs/training.md, session 16). An arena bot,
``module:Class`` from this folder; ``XUELIU_SYM_WEIGHTS`` the weights file (default the shipped
one), ``XUELIU_SYM_PERMS`` how many of ``RENAMINGS`` (1: the network alone; 6: the suits
permuted; 12: and the ranks reversed)::

    cd tools && XUELIU_SYM_PERMS=6 xueliu arena --bots neural,suit_symmetric_bot:SuitSymmetricBot \\
        --reference expert --games 10000 --preset xueliu --workers 2 --seed 93
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.train.distill import ensemble_log_policy


class SuitSymmetricBot(NeuralBot):
    """A :class:`NeuralBot` whose choice averages the log-probabilities of renamed views."""

    name = "suit_symmetric"

    def __init__(self, **kw: Any) -> None:
        super().__init__(weights=os.environ.get("XUELIU_SYM_WEIGHTS") or None, **kw)
        self.views = int(os.environ.get("XUELIU_SYM_PERMS", "6"))

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return masked_argmax(ensemble_log_policy([self.network], x, mask, self.views), mask)
