"""Behaviour cloning in plain numpy: the same network and loss as the PyTorch trainer
(:mod:`xueliu.train.torch_bc`), small and slow, for machines without PyTorch.

Why it exists: the default install (and the default test run) has no PyTorch, yet the project
must show there that training from scratch works (tests/test_train.py trains a small network for
a minute and checks it beats three RandomBots). The loss is the cross-entropy of the teacher's
index under the masked softmax (logits of disallowed indices are ignored), minimised by Adam on
mini-batches; the initialisation and the batches come from ``numpy.random.default_rng(seed)``,
so a seed gives the same weights.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..bots.neural_views import masked_log_softmax
from ..learn.actions import NUM_ACTIONS
from .demos import INPUT, Samples, unpack_mask, unpack_x

__all__ = ["init_layers", "train_numpy", "masked_log_softmax"]

Layers = List[Tuple[np.ndarray, np.ndarray]]


def init_layers(hidden: Sequence[int], rng: np.random.Generator) -> Layers:
    """He-initialised layers ``INPUT -> hidden… -> NUM_ACTIONS`` (zero biases)."""
    sizes = [INPUT, *hidden, NUM_ACTIONS]
    return [((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
             np.zeros(b, np.float32)) for a, b in zip(sizes[:-1], sizes[1:])]


def train_numpy(samples: Samples, hidden: Sequence[int], steps: int, seed: int,
                batch: int = 256, lr: float = 1e-3,
                progress: Optional[Callable[[int, float], None]] = None) -> Layers:
    """Layers trained for ``steps`` Adam steps on ``samples`` (:mod:`.demos`); ``progress(step,
    loss)`` is called every 50 steps."""
    rng = np.random.default_rng(seed)
    layers = init_layers(hidden, rng)
    params = [p for wb in layers for p in wb]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = len(samples["index"])
    if n == 0:
        raise ValueError("no samples to train on")
    b1, b2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        pick = rng.integers(0, n, min(batch, n))
        x = unpack_x(samples["x"][pick])
        mask = unpack_mask(samples["mask"][pick])
        target = samples["index"][pick].astype(np.int64)
        acts = [x]
        h = x
        for i, (w, b) in enumerate(layers):
            h = h @ w + b
            if i < len(layers) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        logp = masked_log_softmax(acts[-1], mask)
        rows = np.arange(len(target))
        loss = float(-logp[rows, target].mean())
        grad = np.exp(logp)
        grad[rows, target] -= 1.0
        grad = (grad * mask) / len(target)
        grads: List[np.ndarray] = []
        for i in range(len(layers) - 1, -1, -1):
            w, _ = layers[i]
            grads[:0] = [acts[i].T @ grad, grad.sum(axis=0)]
            if i:
                grad = (grad @ w.T) * (acts[i] > 0)
        for j, (p, g) in enumerate(zip(params, grads)):
            m[j] = b1 * m[j] + (1 - b1) * g
            v[j] = b2 * v[j] + (1 - b2) * g * g
            mh = m[j] / (1 - b1 ** step)
            vh = v[j] / (1 - b2 ** step)
            p -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if progress is not None and (step % 50 == 0 or step == steps):
            progress(step, loss)
    return [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
