"""A network's close calls asked again of the table with its tiles renamed.

Sichuan mahjong plays alike under the twelve renamings of its tiles (suits permuted, ranks
reversed: :mod:`xueliu.learn.renamings`); a network does not, quite — asked about the same
decision at a renamed table it sometimes answers otherwise — and the average of its twelve
answers (each mapped back to the real tiles) plays better than any one of them
(docs/training.md, "What was tried"). Asking twelve times costs twelve forward passes, but where
the network's first choice leads its second by a wide margin the average almost never differs:
on the shipped network's self-play, nine in ten of the choices the twelve views change are at
margins under 0.5 nats of log-probability, a fifth of the decisions with a choice. So
:class:`~xueliu.bots.NeuralBot` asks the renamed tables only at *close calls*, the decisions
whose margin is under its ``views_margin`` (the weights file's ``views``, ``meta``; 0: never).

Why a view is cheap: renaming a table renames its ``obs_v2``/``obs_v3`` channels (each is a tile
plane, a bar or a flag: :func:`~xueliu.learn.renamings.channel_dest`), so the analysis is
computed once, for the real table; and the first layer of a renamed input is the real table's
rows read at renamed inputs — the native core sums all the views' first layers in one pass over
an input (``_core.renamed_first_layers_01``, cpp/dense.hpp: each tile input read in the three
suits it may become, ranks kept and reversed, and a view the sum of three of those and the
unmoved planes) — then the views' other layers are one product for all of them. An
exchange's pick is averaged over the views that keep the ranks only (the networks pick an
exchange's tiles smallest kind first, which a view with the ranks reversed turns around:
:func:`xueliu.train.distill.ensemble_log_policy`'s rule).
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from ..learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT
from ..learn.channels import OBS_V1, OBS_V2, OBS_V3
from ..learn.renamings import RENAMINGS, action_map, channel_sources, tile_planes
from .. import _core
from .neural_net import Network, _product

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
        channels = _CHANNELS[network.encoder]
        self._sources = [channel_sources(channels, v) for v in self.views]
        self._tile = tile_planes(channels).astype(np.uint8)
        self._codes = np.array([[*RENAMINGS[v][0], RENAMINGS[v][1]] for v in self.views], np.uint8)
        self._reversed: np.ndarray = np.array([RENAMINGS[v][1] for v in self.views], bool)
        self._back = np.stack([action_map(v) for v in self.views])

    def first_layers(self, h0: np.ndarray, which: Optional[Sequence[int]] = None) -> np.ndarray:
        """``float32[n, V, width]``: the first layer's sums (before its bias) of first-layer
        inputs ``h0`` at the renamed table of each view (of ``which``, positions in
        :attr:`views`; default all)."""
        net = self.network
        w0 = net.layers[0][0]
        which = range(len(self.views)) if which is None else which
        x = np.ascontiguousarray(h0, np.float32)
        out = np.empty((len(x), len(which), w0.shape[1]), np.float32)
        codes = np.ascontiguousarray(self._codes[list(which)])
        if _core.renamed_first_layers_01(x, net.first_rows, self._tile, codes, out):
            return out
        for k, j in enumerate(which):  # inputs not 0/1: the plain product
            out[:, k] = _product(np.ascontiguousarray(x[:, self._sources[j]]), w0)
        return out

    def average(self, h0: np.ndarray, mask: np.ndarray,
                own: Optional[np.ndarray] = None) -> np.ndarray:
        """The views' mean masked log-probabilities of first-layer inputs ``h0``
        (:meth:`Network.inputs`) under ``mask``; ``own``, when given, the identity view's
        (already computed: not asked again)."""
        net = self.network
        m = np.asarray(mask, bool)
        n = len(m)
        exchange = np.any(m[:, EXCHANGE_PICK:MULTIPLIER_SLOT], axis=1)
        # which view is asked about which row: a view with the ranks reversed not about an exchange
        use: np.ndarray = ~(self._reversed[None, :] & exchange[:, None])
        ask = [j for j, v in enumerate(self.views) if not (own is not None and v == 0)]
        total = np.zeros(m.shape, np.float64)
        if own is not None and 0 in self.views:
            total += own
        if ask and n:
            sums = self.first_layers(h0, ask).reshape(n * len(ask), -1)
            logits = net.outputs_of_sums(sums).reshape(n, len(ask), -1)
            for k, j in enumerate(ask):
                rows = use[:, j]
                if rows.all():
                    total += masked_log_softmax(logits[:, k, self._back[j]], m)
                elif rows.any():
                    total[rows] += masked_log_softmax(logits[rows, k][:, self._back[j]], m[rows])
        asked = use.sum(axis=1).astype(np.float64)
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
    """The :class:`Views` of a loaded network, made once per process (``simulate`` makes a bot a
    hand, and a view's tables are not free to make; networks are cached by
    :func:`~xueliu.bots.neural_net.load_network`)."""
    key = (id(network), tuple(views))
    made = _MADE.get(key)
    if made is None or made.network is not network:
        made = _MADE[key] = Views(network, views)
    return made
