"""Decisions of two computations of the same network compared as they can be: equal, except on
a near tie.

Why not exactly: a row's product with a weight matrix depends, in its last bits, on how it is
computed — one row alone (OpenBLAS's matrix-vector kernel) or with others (its matrix kernel,
whose blocking and edge kernels depend on the shape), which kernel OpenBLAS picked for the CPU
(``OPENBLAS_CORETYPE``), or a sum taken in another order. Measured on the shipped network: a
logit differs by up to about 6e-6 between such computations. Two computations of the same
numbers may therefore choose differently where the two best choices score within that of each
other, and nowhere else. :data:`TIE` is fifteen times that: a real fault (a wrong row, a wrong
weight, a mask ignored) moves scores by far more and shows on rows that are not near ties; and
:func:`assert_same_choices` also checks that near ties are rare, so it never passes by calling
everything a tie.

Where both sides are the same computation (the same bytes through the same code path), tests
compare exactly, and say so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xueliu.bots.neural_views import masked_log_softmax, views_of

TIE = 1e-4
"""Nats (of logits or log-probabilities) within which two scores are a near tie."""


def _top_two_gap(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each row's best allowed score less its second best (inf with one allowed index)."""
    s = np.sort(np.where(mask, scores, -np.inf), axis=1)
    with np.errstate(invalid="ignore"):
        gap = s[:, -1] - s[:, -2]
    return np.where(np.isfinite(s[:, -2]), gap, np.inf)


def near_ties(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``bool[n]``: rows whose two best allowed ``scores`` are within :data:`TIE`."""
    return _top_two_gap(np.asarray(scores, np.float64), np.asarray(mask, bool)) <= TIE


def bot_near_ties(bot: Any, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``bool[n]``: rows where a :class:`~xueliu.bots.NeuralBot`'s choice is a near tie — its
    network's two best allowed within :data:`TIE`, or (a bot that asks its renamed views at close
    calls) a margin within :data:`TIE` of the bot's, or the views' average's two best within it."""
    m = np.asarray(mask, bool)
    net = bot.network
    own = masked_log_softmax(net.forward(x), m)
    tie = near_ties(own, m)
    margin = float(getattr(bot, "views_margin", 0.0))
    if margin > 0:
        tie |= np.abs(_top_two_gap(own, m) - margin) <= TIE
        avg = views_of(net).average(net.inputs(x), m, own)
        tie |= near_ties(avg, m)
    return tie


def assert_same_choices(got: np.ndarray, want: np.ndarray, tie: np.ndarray,
                        most: float = 0.05) -> None:
    """``got`` and ``want`` (each row's chosen index by two computations) agree on every row
    that is not a near tie (``tie``), and near ties are under ``most`` of the rows."""
    got, want, tie = np.asarray(got), np.asarray(want), np.asarray(tie, bool)
    assert got.shape == want.shape == tie.shape
    differ = np.flatnonzero(got != want)
    assert tie[differ].all(), f"rows {differ[~tie[differ]].tolist()} chose otherwise, not a tie"
    assert tie.mean() <= most, f"{int(tie.sum())} of {len(tie)} rows are near ties"
