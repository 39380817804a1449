"""The inputs a network may read, by encoder name: ``obs_v1`` as it is, or ``obs_v1`` with
channels computed from it (``obs_v2``: the analysis channels; ``obs_v3``: those and the won-wait
channels). Both the bot's numpy network and the PyTorch model are given ``obs_v1`` rows and
compute the rest here, so every stored demonstration serves every encoder."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional

import numpy as np

from .analysis import OBS_V1_SIZE, ObsV2
from .won_waits import ObsV3

__all__ = ["INPUT_WIDTHS", "network_input"]

INPUT_WIDTHS: Dict[str, int] = {
    "obs_v1": OBS_V1_SIZE,
    "obs_v2": ObsV2.width,
    "obs_v3": ObsV3.width,
}
"""Each encoder's width; each one's channels begin with the previous one's (a network of an
earlier encoder can be widened into a later one: :func:`xueliu.train.torch_model.load_layers`)."""


def network_input(encoder: str, presets: Mapping[str, Mapping[str, Any]]
                  ) -> Optional[Callable[[np.ndarray], np.ndarray]]:
    """What turns ``obs_v1`` rows into ``encoder``'s (at the fan tables of ``presets``, preset
    name → ``Rules.to_dict()``); ``None`` for ``obs_v1`` itself."""
    if encoder not in INPUT_WIDTHS:
        raise ValueError(f"unknown encoder {encoder!r}; expected one of {', '.join(INPUT_WIDTHS)}")
    kind = {"obs_v2": ObsV2, "obs_v3": ObsV3}.get(encoder)
    return None if kind is None else kind(presets)
