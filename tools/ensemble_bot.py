"""Several weights files as one bot: each decision is the index with the highest sum of the
networks' masked log-probabilities (docs/training.md, session 7: how much of the learned bot's gap
to the expert is imitation noise that averaging cancels). An arena bot, ``module:Class`` from
this folder; the files come from ``XUELIU_ENSEMBLE`` (comma-separated paths)::

    cd tools && XUELIU_ENSEMBLE=a.npz,b.npz xueliu arena --bots ensemble_bot:EnsembleBot \\
        --reference expert --games 10000 --preset xueliu --workers 2 --seed 2026
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import load_network
from xueliu.train.distill import ensemble_log_policy


class EnsembleBot(NeuralBot):
    """A :class:`NeuralBot` (the first file checks the rules) whose choice sums every file's
    log-probabilities."""

    name = "ensemble"

    def __init__(self, **kw: Any) -> None:
        paths = [p for p in os.environ.get("XUELIU_ENSEMBLE", "").split(",") if p]
        if not paths:
            raise ValueError("XUELIU_ENSEMBLE names no weights file")
        super().__init__(weights=paths[0], **kw)
        self.networks = [load_network(p) for p in paths]

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return masked_argmax(ensemble_log_policy(self.networks, x, mask), mask)
