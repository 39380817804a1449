"""The network asked about its table under a few renamings of the tiles (``XUELIU_VIEWS``,
positions in :data:`xueliu.learn.renamings.RENAMINGS`, e.g. ``0,6``: the table as it is and with
its ranks reversed), its masked log-probabilities averaged, each mapped back to the real tiles —
what ``suit_symmetric_bot`` plays, at a fraction of its cost (docs/training.md, session 19): the
analysis computed once, the views' first layers summed in one pass (:mod:`xueliu.bots.neural_views`,
which :class:`~xueliu.bots.NeuralBot` asks about its close calls). An arena bot,
``module:Class`` from this folder; ``XUELIU_VIEWS_WEIGHTS`` the weights file (default the
shipped one)::

    cd tools && XUELIU_VIEWS=0,6 xueliu arena --bots neural,views_bot:ViewsBot \\
        --reference expert --games 10000 --preset xueliu --workers 2 --seed 106

:class:`GatedViewsBot` is ``NeuralBot`` with its close calls' margin ``XUELIU_VIEWS_MARGIN``
(nats; 0: the network alone, ``inf``: the twelve views at every decision), whatever its weights
file says (session 20).
"""

from __future__ import annotations

import os
from typing import Any, List

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_views import views_of
from xueliu.learn.renamings import RENAMINGS


class ViewsBot(NeuralBot):
    """A :class:`NeuralBot` whose every choice averages the log-probabilities of a few renamed
    views, the analysis channels computed once."""

    name = "views"
    default_views = "0,6"
    """The views when ``XUELIU_VIEWS`` is not set (a subclass may choose others)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(weights=os.environ.get("XUELIU_VIEWS_WEIGHTS") or None, views_margin=0,
                         **kw)
        given = os.environ.get("XUELIU_VIEWS", self.default_views)
        views: List[int] = [int(v) for v in given.split(",")]
        if not views or any(not 0 <= v < len(RENAMINGS) for v in views):
            raise ValueError(f"XUELIU_VIEWS: positions 0..{len(RENAMINGS) - 1}, got {views}")
        self.views = views_of(self.network, views)

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        m = np.asarray(mask, bool)
        return masked_argmax(self.views.average(self.network.inputs(x), m), m)


class GatedViewsBot(NeuralBot):
    """``NeuralBot`` asking the twelve views about the close calls under ``XUELIU_VIEWS_MARGIN``
    (default 0.5) nats, the weights ``XUELIU_VIEWS_WEIGHTS``."""

    name = "gated_views"

    def __init__(self, **kw: Any) -> None:
        given = os.environ.get("XUELIU_VIEWS_MARGIN", "0.5")
        try:
            margin = float(given)
        except ValueError:
            margin = float("nan")
        if not margin >= 0:  # NaN too
            raise ValueError(f"XUELIU_VIEWS_MARGIN: a number of nats >= 0, got {given!r}")
        super().__init__(weights=os.environ.get("XUELIU_VIEWS_WEIGHTS") or None,
                         views_margin=margin, **kw)
