"""A network's close calls asked again of the table with its tiles renamed (session 20).

Sichuan mahjong plays alike under the twelve renamings of its tiles (suits permuted, ranks
reversed: :mod:`xueliu.learn.renamings`); a network does not, quite — asked about the same
decision at a renamed table it sometimes answers otherwise — and the average of its twelve
answers (each mapped back to the real tiles) plays better than any one of them
(docs/training.md, sessions 16–20). Asking twelve times costs twelve forward passes, but where
the network's first choice leads its second by a wide margin the average almost never differs:
on the shipped network's self-play, nine in ten of the choices the twelve views change are at
margins under 0.5 nats of log-probability, a fifth of the decisions with a choice. So
:class:`~xueliu.bots.NeuralBot` asks the renamed tables only at *close calls*, the decisions
whose margin is under its ``views_margin`` (the weights file's ``views``, ``meta``; 0: never).

Why a view is cheap: renaming a table renames its ``obs_v2``/``obs_v3`` channels (each is a tile
plane, a bar or a flag: :func:`~xueliu.learn.renamings.channel_dest`), so the analysis is
computed once, for the real table; and the first layer of a renamed input is the first layer of
the real one with its rows permuted, so each view is its own precomputed first-layer rows (made
once per network) and two small products. An exchange's pick is averaged over the views that
keep the ranks only (the networks pick an exchange's tiles smallest kind first, which a view with
the ranks reversed turns around: :func:`xueliu.train.distill.ensemble_log_policy`'s rule).
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from ..learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT
from ..learn.channels import OBS_V1, OBS_V2, OBS_V3
from ..learn.renamings import RENAMINGS, action_map, channel_dest
from .neural_net import Network, _first_layer_rows

__all__ = ["Views", "views_of", "masked_log_softmax", "close_calls"]

_CHANNELS = {"obs_v1": OBS_V1, "obs_v2": OBS_V2, "obs_v3": OBS_V3}
"""Each encoder's channels (what a network's first layer reads)."""


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log-probabilities of each row's allowed indices (the others about ``-1e9``)."""
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # type: ignore[no-any-return]


def close_calls(log_p: np.ndarray, mask: np.ndarray, margin: float) -> Tuple[np.ndarray, np.ndarray]:
    """``(best, close)``: each row's best allowed index by ``log_p``, and whether the next best
    allowed one is within ``margin`` of it (a row with one allowed index is never close)."""
    rows = np.arange(len(mask))
    rest = np.where(mask, log_p, -np.inf)
    best = rest.argmax(axis=1)
    first = rest[rows, best]
    rest[rows, best] = -np.inf
    return best, first - rest.max(axis=1) < margin


class Views:
    """One network asked about the table under some of :data:`RENAMINGS` (``views``,
    positions; the identity among them or not)."""

    def __init__(self, network: Network, views: Sequence[int]) -> None:
        if network.danger_penalty is not None:
            raise ValueError("renamed views are asked of networks without a danger head")
        if not views or any(not 0 <= v < len(RENAMINGS) for v in views):
            raise ValueError(f"views are positions 0..{len(RENAMINGS) - 1} of RENAMINGS, "
                             f"got {list(views)}")
        self.network = network
        self.views = tuple(int(v) for v in views)
        w0 = network.layers[0][0]
        channels = _CHANNELS[network.encoder]
        self._rows = [_first_layer_rows(w0[channel_dest(channels, v)]) for v in self.views]
        self._back = [action_map(v) for v in self.views]

    def average(self, h0: np.ndarray, mask: np.ndarray,
                own: Optional[np.ndarray] = None) -> np.ndarray:
        """The views' mean masked log-probabilities of first-layer inputs ``h0``
        (:meth:`Network.inputs`) under ``mask``; ``own``, when given, the identity view's
        (already computed: not asked again)."""
        net = self.network
        m = np.asarray(mask, bool)
        exchange = m[:, EXCHANGE_PICK:MULTIPLIER_SLOT].any(axis=1)
        total = np.zeros(m.shape, np.float64)
        asked = np.zeros(len(m), np.float64)
        every = np.ones(len(m), bool)
        # the rows a view with the ranks reversed is asked about, taken out once for all six
        kept = ~exchange
        subsets = {False: (every, h0, m), True: (kept, h0[kept], m[kept])}
        for v, rows, back in zip(self.views, self._rows, self._back):
            use, h, mu = subsets[RENAMINGS[v][1]]
            if not len(h):
                continue
            if v == 0 and own is not None:
                total += own
            else:
                total[use] += masked_log_softmax(net.outputs_of_inputs(h, rows)[:, back], mu)
            asked[use] += 1
        total[asked == 0] = np.where(m[asked == 0], 0.0, -np.inf)  # only reversed views asked
        out: np.ndarray = total / np.maximum(asked, 1)[:, None]
        return out

    def choose(self, x: np.ndarray, mask: np.ndarray, margin: float) -> np.ndarray:
        """Each row's index: the network's own best, or at a close call (its first choice within
        ``margin`` nats of its second) the best of the views' average."""
        net = self.network
        m = np.asarray(mask, bool)
        h0 = net.inputs(x)
        own = masked_log_softmax(net.outputs_of_inputs(h0), m)
        best, close = close_calls(own, m, margin)
        if close.any():
            avg = self.average(h0[close], m[close], own[close])
            best[close] = np.where(m[close], avg, -np.inf).argmax(axis=1)
        return best


_MADE: Dict[Tuple[int, Tuple[int, ...]], Views] = {}


def views_of(network: Network, views: Sequence[int] = tuple(range(len(RENAMINGS)))) -> Views:
    """The :class:`Views` of a loaded network, made once per process (the first layer's
    renamed rows are a few MB each, and ``simulate`` makes a bot a hand; networks are cached by
    :func:`~xueliu.bots.neural_net.load_network`)."""
    key = (id(network), tuple(views))
    made = _MADE.get(key)
    if made is None or made.network is not network:
        made = _MADE[key] = Views(network, views)
    return made
