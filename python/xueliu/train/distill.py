"""Soft targets of behaviour cloning (numpy only): several networks' policies as one — the
target of ``xueliu train --distill`` (what averaging the networks at play chose: docs/training.md,
"What was tried") — and the
teacher's own option values as a policy, the target of ``xueliu train --bc-soft``.

Averaging networks trained apart cancels part of each one's imitation error (v7, v9, v10 and
v11 as one bot scored better against the expert than any of them); distilling that average
into one network (Hinton, Vinyals & Dean 2015) keeps the gain at one network's cost.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..bots.neural_net import Network
from ..learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT
from ..learn.renamings import RENAMINGS, action_map, rename_obs
from .numpy_bc import masked_log_softmax

__all__ = ["ensemble_log_policy", "ensemble_policy", "soft_targets"]


def ensemble_log_policy(networks: Sequence[Network], x: np.ndarray, mask: np.ndarray,
                        views: int = 1) -> np.ndarray:
    """The mean of the networks' masked log-probabilities of ``obs_v1`` inputs ``x``: its argmax
    is the index the networks, multiplied together, find likeliest. ``views`` > 1 asks each
    network also about the table with its tiles renamed (the first ``views`` of
    :data:`~xueliu.learn.renamings.RENAMINGS`: suits permuted, then ranks reversed too), each
    view's answer mapped back to the real tiles: one network's errors differ from view to view
    (v24 answered 8.9 % of its decisions with a choice otherwise under one suit renaming), so
    they average too.

    A row that picks a tile for the exchange (换三张) is averaged over the views that keep the
    ranks only: the networks pick an exchange's three tiles in the demonstrations' order
    (smallest kind first), which a view with the ranks reversed turns around (largest first), so
    there the views would disagree about the order, not about the play (found for v58)."""
    if not networks:
        raise ValueError("an ensemble needs at least one network")
    if not 1 <= views <= len(RENAMINGS):
        raise ValueError(f"views is 1..{len(RENAMINGS)}, got {views}")
    m = np.asarray(mask, bool)
    exchange = m[:, EXCHANGE_PICK:MULTIPLIER_SLOT].any(axis=1)
    total = np.zeros(m.shape, np.float64)
    for w in range(views):
        rows = np.flatnonzero(~exchange) if RENAMINGS[w][1] else slice(None)
        seen = x[rows] if w == 0 else rename_obs(x[rows], w)
        if not len(seen):
            continue
        back = action_map(w)  # the view's logit of index i is at back[i]
        for n in networks:
            total[rows] += masked_log_softmax(n.forward(seen)[:, back], m[rows])
    keeping_ranks = sum(not RENAMINGS[w][1] for w in range(views))
    asked = len(networks) * np.where(exchange, keeping_ranks, views)  # answers summed per row
    out: np.ndarray = total / asked[:, None]
    return out


def ensemble_policy(networks: Sequence[Network], x: np.ndarray, mask: np.ndarray,
                    views: int = 1, temperature: float = 1.0) -> np.ndarray:
    """The networks' policy as one, ``float32[n, 175]``: their normalised geometric mean (the
    softmax of :func:`ensemble_log_policy` over the allowed indices), 0 off the mask.
    ``temperature`` < 1 sharpens it (the softmax of the log-probabilities over ``temperature``):
    a student trained on it pays more for missing the ensemble's first choice where two options
    are close (v62)."""
    if not (temperature > 0 and np.isfinite(temperature)):
        raise ValueError(f"the temperature is a positive number, got {temperature!r}")
    m = np.asarray(mask, bool)
    log_policy = ensemble_log_policy(networks, x, m, views) / temperature
    out: np.ndarray = np.where(m, np.exp(masked_log_softmax(log_policy, m)), 0.0).astype(np.float32)
    return out


def soft_targets(value: np.ndarray, mask: np.ndarray, index: np.ndarray, temperature: float
                 ) -> np.ndarray:
    """``float32[n, 175]`` targets of ``--bc-soft``: each row the softmax of the teacher's option
    values over ``temperature`` (payment units) on the indices its mask allows — options the
    teacher rates alike share the target, a clearly worse one gets next to none — or, where the
    row has no values (an exchange's picks, a chunk made without them), all on ``index``. A row
    where another allowed option's value equals the choice's is also all on ``index``: that is
    how ``ExpertBot.option_values`` shows options a rule ranked below its choice (the void suit by
    shanten, void tiles shed by danger alone: capped at the choice's value), and spreading the
    target over them taught a network to leave the expert's choice there (v16: 46 % of the
    void decisions and 22 % of the discards have such a tie; on them its agreement with the
    expert fell from 99 % to 74 % for the void and from 74 % to 51 % for discards, and it scored
    −0.27 a hand below the network it started from, in 血流).

    Why: most of a teacher's discards are near ties by its own values (v16's data: the expert's
    best and second-best discard differ by under 0.05 in half of them), and the plain
    cross-entropy spends the network on learning which of equals the teacher happened to pick."""
    v = value.astype(np.float32)
    rows, index = np.arange(len(index)), index.astype(np.int64)
    chosen = v[rows, index]
    tied = ((v == chosen[:, None]) & mask).sum(axis=1) > 1
    valued = (np.isfinite(v).any(axis=1) & (np.isfinite(v) | ~mask).all(axis=1)) & ~tied
    out = np.zeros(v.shape, np.float32)
    out[rows, index] = 1.0
    if valued.any():
        z = np.where(mask[valued], v[valued] / np.float32(temperature), -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out[valued] = e / e.sum(axis=1, keepdims=True)
    return out
