"""Several networks' policies as one (numpy only): the target of ``xueliu train --distill`` and
the choice of ``tools/ensemble_bot.py``.

Averaging networks trained apart cancels part of each one's imitation error (session 7: four
networks as one bot scored better against the expert than any of them); distilling that average
into one network (Hinton, Vinyals & Dean 2015) keeps the gain at one network's cost.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..bots.neural_net import Network
from .numpy_bc import masked_log_softmax

__all__ = ["ensemble_log_policy", "ensemble_policy"]


def ensemble_log_policy(networks: Sequence[Network], x: np.ndarray, mask: np.ndarray
                        ) -> np.ndarray:
    """The mean of the networks' masked log-probabilities of ``obs_v1`` inputs ``x``: its argmax
    is the index the networks, multiplied together, find likeliest."""
    if not networks:
        raise ValueError("an ensemble needs at least one network")
    m = np.asarray(mask, bool)
    total: np.ndarray = sum(masked_log_softmax(n.forward(x), m) for n in networks)  # type: ignore[assignment]
    return total / len(networks)


def ensemble_policy(networks: Sequence[Network], x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The networks' policy as one, ``float32[n, 175]``: their normalised geometric mean (the
    softmax of :func:`ensemble_log_policy` over the allowed indices), 0 off the mask."""
    m = np.asarray(mask, bool)
    out: np.ndarray = np.where(m, np.exp(masked_log_softmax(ensemble_log_policy(networks, x, m),
                                                           m)), 0.0).astype(np.float32)
    return out
