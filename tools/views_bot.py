"""The network asked about its table under a few renamings of the tiles (``XUELIU_VIEWS``,
positions in :data:`xueliu.learn.renamings.RENAMINGS`, e.g. ``0,6``: the table as it is and with
its ranks reversed), its masked log-probabilities averaged, each mapped back to the real tiles —
what ``suit_symmetric_bot`` plays, at a fraction of its cost (docs/training.md, session 19).

Why cheaper: renaming a table renames its ``obs_v2``/``obs_v3`` channels (each is a tile plane, a
bar or a flag), so the analysis is computed once, for the real table; and the first layer of a
renamed input is the first layer of the real one with ``W0``'s rows permuted, so each view is
its own precomputed first-layer rows and two small products. An exchange's pick is averaged over
the views that keep the ranks only (``ensemble_log_policy``'s rule). An arena bot,
``module:Class`` from this folder; ``XUELIU_VIEWS_WEIGHTS`` the weights file (default the
shipped one)::

    cd tools && XUELIU_VIEWS=0,6 xueliu arena --bots neural,views_bot:ViewsBot \\
        --reference expert --games 10000 --preset xueliu --workers 2 --seed 106

:class:`GatedViewsBot` asks all twelve views, but only about its close calls
(``XUELIU_VIEWS_MARGIN``, session 20). The arena makes a bot a hand: a network's renamed rows
are made once per process (:data:`_TABLES`).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import _first_layer_rows
from xueliu.learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT
from xueliu.learn.channels import OBS_V1, OBS_V2, OBS_V3
from xueliu.learn.renamings import RENAMINGS, action_map, channel_dest
from xueliu.train.numpy_bc import masked_log_softmax

CHANNELS = {"obs_v1": OBS_V1, "obs_v2": OBS_V2, "obs_v3": OBS_V3}
"""Each encoder's channels (what a network's first layer reads)."""

_TABLES: Dict[Tuple[int, Tuple[int, ...]], Tuple[List[np.ndarray], List[np.ndarray]]] = {}
"""The renamed first-layer rows and action maps of (network, views), made once per process."""


class ViewsBot(NeuralBot):
    """A :class:`NeuralBot` whose choice averages the log-probabilities of a few renamed views,
    the analysis channels computed once."""

    name = "views"
    default_views = "0,6"
    """The views when ``XUELIU_VIEWS`` is not set (a subclass may choose others)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(weights=os.environ.get("XUELIU_VIEWS_WEIGHTS") or None, **kw)
        net = self.network
        if net.danger_penalty is not None:
            raise ValueError("ViewsBot plays networks without a danger head")
        given = os.environ.get("XUELIU_VIEWS", self.default_views)
        self.views: List[int] = [int(v) for v in given.split(",")]
        if not self.views or any(not 0 <= v < len(RENAMINGS) for v in self.views):
            raise ValueError(f"XUELIU_VIEWS: positions 0..{len(RENAMINGS) - 1}, got {self.views}")
        key = (id(net), tuple(self.views))  # the arena makes a bot a hand; the network is cached
        if key not in _TABLES:
            w0 = net.layers[0][0]
            _TABLES[key] = ([_first_layer_rows(w0[channel_dest(CHANNELS[net.encoder], v)])
                             for v in self.views], [action_map(v) for v in self.views])
        self._rows, self._back = _TABLES[key]

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        m = np.asarray(mask, bool)
        return masked_argmax(self._average(self.network.inputs(x), m), m)

    def _average(self, h0: np.ndarray, m: np.ndarray,
                 own: Optional[np.ndarray] = None) -> np.ndarray:
        """The views' averaged log-probabilities of first-layer inputs ``h0`` under masks ``m``;
        ``own``, when given, the identity view's (already computed: not asked again)."""
        net = self.network
        exchange = m[:, EXCHANGE_PICK:MULTIPLIER_SLOT].any(axis=1)
        total = np.zeros(m.shape, np.float64)
        asked = np.zeros(len(m), np.float64)
        for v, rows, back in zip(self.views, self._rows, self._back):
            use = ~exchange if RENAMINGS[v][1] else np.ones(len(m), bool)
            if not use.any():
                continue
            if v == 0 and own is not None:
                total += own
            else:
                logits = net.outputs_of_inputs(h0[use], rows)
                total[use] += masked_log_softmax(logits[:, back], m[use])
            asked[use] += 1
        total[asked == 0] = np.where(m[asked == 0], 0.0, -np.inf)  # only reversed views asked
        return total / np.maximum(asked, 1)[:, None]


class GatedViewsBot(ViewsBot):
    """A :class:`ViewsBot` that asks its views only about close calls: the decisions where the
    table as it is gives its first choice less than ``XUELIU_VIEWS_MARGIN`` (default 0.5) nats
    of log-probability over its second — where the views' average changes nine choices in ten
    that it changes at all, on a fifth of the decisions (docs/training.md, session 20)."""

    name = "gated_views"
    default_views = ",".join(str(v) for v in range(len(RENAMINGS)))

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        given = os.environ.get("XUELIU_VIEWS_MARGIN", "0.5")
        try:
            self.margin = float(given)
        except ValueError:
            self.margin = float("nan")
        if not self.margin >= 0:  # NaN too
            raise ValueError(f"XUELIU_VIEWS_MARGIN: a number of nats >= 0, got {given!r}")

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        net = self.network
        m = np.asarray(mask, bool)
        h0 = net.inputs(x)
        own = masked_log_softmax(net.outputs_of_inputs(h0), m)
        best = masked_argmax(own, m)
        rest = own.copy()
        rest[np.arange(len(m)), best] = -np.inf
        close = own[np.arange(len(m)), best] - rest.max(axis=1) < self.margin
        if close.any():
            best[close] = masked_argmax(self._average(h0[close], m[close], own[close]), m[close])
        return best
