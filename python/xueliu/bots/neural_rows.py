"""Many seats' :class:`~xueliu.bots.NeuralBot` decisions in one pass, each row's numbers exactly
those of the row decided alone.

Why not just the network's batch: a row's product with a weight matrix depends, in its last
bits, on the rows it is multiplied with. numpy hands OpenBLAS one product per call, and OpenBLAS
sums a one-row product (its matrix-vector kernel) and the rows of a block (its matrix kernel,
whose edge rows take yet other kernels) in different orders — measured here: every row of a
block of 2 to 8 differs from the same row alone by an ulp or two. ``xueliu simulate`` played a
NeuralBot one seat at a time (``act_view``: one row, and eleven rows — in blocks of eight, as
:func:`~xueliu.bots.neural_net._product` cuts them — for a close call's renamed tables), so a
batch multiplied together could flip a decision at a near tie (none seen in 15,000 decisions,
but nothing rules one out), and the same seed would no longer give the same hands.

So here each row's products are the calls the row alone makes, stacked: ``np.matmul`` over a
stack of matrices calls BLAS once per item, with that item's shape, so the numbers are those of
the one-row path while Python's overhead is paid once for the batch. The rest of a decision is
computed row by row already: the native first layers (``_core.first_layer_01``,
``_core.renamed_first_layers_01``), the analysis channels, the element-wise softmaxes.
tests/test_simulate_batched.py holds the two paths to the same bits. (The batched loop of
training and :func:`~xueliu.bots.neural_play.play_batched` keeps the plain batch: it plays no
hand that must equal one played seat by seat.)
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .. import _core
from ..learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT, NUM_ACTIONS
from .neural import NeuralBot, masked_argmax
from .neural_net import _BLOCK, DANGER_KINDS, Network
from .neural_views import Views, close_calls, masked_log_softmax

__all__ = ["choose_rows", "forward_rows"]


def _stacked_product(h: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``float32[g, m, out]``: each item ``h[i]`` (``m`` rows) times ``w`` in the blocks of
    :data:`~xueliu.bots.neural_net._BLOCK` rows that ``_product(h[i], w)`` multiplies, the ``g``
    items of a block in one stacked call (one BLAS call each, of the block's own shape)."""
    g, m, _ = h.shape
    if m <= _BLOCK:
        return np.matmul(h, w)  # type: ignore[no-any-return]
    out = np.empty((g, m, w.shape[1]), np.float32)
    for a in range(0, m, _BLOCK):
        out[:, a:a + _BLOCK] = np.matmul(h[:, a:a + _BLOCK], w)
    return out


def _outputs_of_sums(network: Network, h: np.ndarray) -> np.ndarray:
    """``Network.outputs_of_sums`` of each item of the first-layer sums ``h[g, m, width]``
    (overwritten), as if each item were its own call."""
    return network.outputs_of_sums(h, product=_stacked_product)


def _first_sums(network: Network, h0: np.ndarray) -> Optional[np.ndarray]:
    """The first layer's sums of first-layer inputs ``h0`` (row by row, natively), or ``None``
    when an input is not 0/1 (the one-row path then takes a plain product, which the caller
    reproduces row by row)."""
    x = np.ascontiguousarray(h0, np.float32)
    out = np.empty((len(x), network.first_rows.shape[1]), np.float32)
    return out if _core.first_layer_01(x, network.first_rows, out) else None


def forward_rows(network: Network, x: np.ndarray) -> Optional[np.ndarray]:
    """``network.forward(x[i:i + 1])[0]`` for every row ``i`` of the ``obs_v1`` inputs ``x``, to
    the bit; ``None`` when an input is not 0/1 (see :func:`_first_sums`)."""
    sums = _first_sums(network, network.inputs(x))
    if sums is None:
        return None
    return _penalised(network, _outputs_of_sums(network, sums[:, None, :])[:, 0])


def _penalised(network: Network, h: np.ndarray) -> np.ndarray:
    """``Network.forward``'s last step (each discard's danger penalty), element by element."""
    penalty = network.danger_penalty
    if penalty is None:
        return h
    logits = h[:, :NUM_ACTIONS]
    chance = 1.0 / (1.0 + np.exp(-h[:, NUM_ACTIONS:]))
    logits[:, :DANGER_KINDS] -= np.float32(penalty) * chance
    return np.ascontiguousarray(logits)


def _average(views: Views, h0: np.ndarray, mask: np.ndarray, own: np.ndarray) -> np.ndarray:
    """``views.average(h0, mask, own)`` with each row's renamed tables multiplied as the row's
    own call (the same steps as :meth:`Views.average`, whose one product over all rows' views is
    the only part that is not row by row)."""
    net = views.network
    m = np.asarray(mask, bool)
    n = len(m)
    exchange = np.any(m[:, EXCHANGE_PICK:MULTIPLIER_SLOT], axis=1)
    use: np.ndarray = ~(views._reversed[None, :] & exchange[:, None])
    ask = [j for j, v in enumerate(views.views) if v != 0]
    total = np.zeros(m.shape, np.float64)
    if 0 in views.views:
        total += own
    if ask and n:
        logits = _outputs_of_sums(net, views.first_layers(h0, ask))
        for k, j in enumerate(ask):
            rows = use[:, j]
            if rows.all():
                total += masked_log_softmax(logits[:, k, views._back[j]], m)
            elif rows.any():
                total[rows] += masked_log_softmax(logits[rows, k][:, views._back[j]], m[rows])
    asked = use.sum(axis=1).astype(np.float64)
    total[asked == 0] = np.where(m[asked == 0], 0.0, -np.inf)
    out: np.ndarray = total / np.maximum(asked, 1)[:, None]
    return out


def choose_rows(bot: NeuralBot, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``bot.choose(x[i:i + 1], mask[i:i + 1])[0]`` for every row ``i`` — the network's best
    allowed index, the views' average at a close call — in one pass: the same bits, so the same
    indices. Inputs that are not 0/1 are decided by ``bot.choose`` row by row."""
    network = bot.network
    views = bot._views  # what bot.choose asks at its close calls (None: never)
    m = np.asarray(mask, bool)
    h0 = network.inputs(x)
    sums = _first_sums(network, h0)
    if sums is None:
        return np.array([int(bot.choose(x[i:i + 1], m[i:i + 1])[0]) for i in range(len(m))],
                        np.int64)
    h = _outputs_of_sums(network, sums[:, None, :])[:, 0]
    if views is None:
        return masked_argmax(_penalised(network, h), m)
    own = masked_log_softmax(h, m)
    best, close = close_calls(own, m, bot.views_margin)
    if close.any():
        avg = _average(views, h0[close], m[close], own[close])
        best[close] = np.where(m[close], avg, -np.inf).argmax(axis=1)
    return best
