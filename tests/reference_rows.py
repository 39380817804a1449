"""Rows to ask a network about: the 64 inputs recorded beside the shipped weights
(tests/data/neural_v1_reference.npz) and random masks over them."""

from __future__ import annotations

import os

import numpy as np

from xueliu.bots.neural_net import INPUT_SIZE
from xueliu.learn.actions import EXCHANGE_PICK, NUM_ACTIONS

REFERENCE = os.path.join(os.path.dirname(__file__), "data", "neural_v1_reference.npz")


def reference_inputs() -> np.ndarray:
    """``float32[64, INPUT_SIZE]``: the ``obs_v1`` rows the shipped weights' reference logits are
    of."""
    with np.load(REFERENCE) as z:
        return np.unpackbits(z["x"], axis=1, count=INPUT_SIZE).astype(np.float32)


def random_mask(n: int, seed: int, exchange: bool) -> np.ndarray:
    """``n`` masks allowing a tenth of the indices at random, index 0 always; with ``exchange``
    False no exchange pick or multiplier slot."""
    m = np.random.default_rng(seed).random((n, NUM_ACTIONS)) < 0.1
    m[:, 0] = True
    if not exchange:
        m[:, EXCHANGE_PICK:] = False
    return m
