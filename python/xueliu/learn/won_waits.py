"""``obs_v3``: ``obs_v2`` and the won-wait channels of :data:`~.channels.WON_WAITS_V1`.

In 血流 a won hand plays on frozen, its waits fixed, so a kind it has won on is a certain deal-in
(docs/rules.md §5). ``obs_v1`` shows those kinds (``won_tiles_*``) and which hands are frozen
(``frozen_*``), but a network must AND three planes with three flags and then with its own hand to
see which of its discards deal in for sure: the won-wait channels spell that out, aligned with the
discard it would choose. They are numpy arithmetic on the ``obs_v1`` bits alone, so ``obs_v3``
shows nothing ``obs_v1`` does not (docs/rules.md §7), and, like ``obs_v2``, it can be computed from any
stored ``obs_v1`` row.
"""

from __future__ import annotations

import numpy as np

from .analysis import ANALYSIS_SIZE, OBS_V1_SIZE, ObsV2
from .channels import OBS_V1, RELATIVE, WON_WAITS_V1, offsets

__all__ = ["ObsV3", "WON_WAITS_SIZE", "won_wait_choice", "won_wait_planes"]

WON_WAITS_SIZE = len(WON_WAITS_V1) * 27
_OFF = offsets(OBS_V1)
_OTHERS = RELATIVE[1:]
_AT = {name: i for i, (name, _) in enumerate(WON_WAITS_V1)}


def _plane(x: np.ndarray, name: str) -> np.ndarray:
    return x[:, _OFF[name]:_OFF[name] + 27]


def _won_on(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of ``obs_v1`` rows ``h[n, 2484]``: the won hands that have won on each kind
    (``[n, 27]``), and the won hands at the table besides the seat's (``[n]``)."""
    waits = np.zeros((len(h), 27), np.float32)
    hands = np.zeros(len(h), np.float32)
    for r in _OTHERS:
        frozen = _plane(h, f"frozen_{r}")[:, :1]  # a flag: all 27 values alike
        waits += _plane(h, f"won_tiles_{r}") * frozen
        hands += frozen[:, 0]
    return waits, hands


def won_wait_planes(x: np.ndarray) -> np.ndarray:
    """``float32[n, 7 * 27]``: the won-wait channels of the ``obs_v1`` rows ``x`` (``[n, 2484]``
    or ``[n, 92, 27]``)."""
    h = np.asarray(x, np.float32).reshape(len(x), OBS_V1_SIZE)
    out = np.zeros((len(h), len(WON_WAITS_V1), 27), np.float32)
    waits, hands = _won_on(h)
    won = (waits >= 1).astype(np.float32)
    out[:, _AT["won_wait"]] = won
    out[:, _AT["won_wait_2"]] = waits >= 2
    held = _plane(h, "hand_1")
    out[:, _AT["won_wait_held"]] = won * held
    by_suit = won.reshape(len(h), 3, 9)
    near = np.zeros_like(by_suit)
    near[:, :, 3:] = by_suit[:, :, :6]  # rank r + 3 of a won-on rank r
    near[:, :, :6] = np.maximum(near[:, :, :6], by_suit[:, :, 3:])  # and rank r - 3
    out[:, _AT["won_wait_near"]] = near.reshape(len(h), 27) * (1 - won)
    suit = by_suit.max(axis=2, keepdims=True)
    out[:, _AT["won_suit"]] = np.broadcast_to(suit, by_suit.shape).reshape(len(h), 27) * (1 - won)
    safe = ((held * (1 - won)).max(axis=1) > 0).astype(np.float32)
    out[:, _AT["won_safe_held"]] = safe[:, None]
    out[:, _AT["won_hands"]] = np.arange(27)[None, :] < hands[:, None]
    return out.reshape(len(h), WON_WAITS_SIZE)


def won_wait_choice(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``bool[n]``: the decisions (``obs_v1`` rows ``x``, action masks ``mask[n, 175]``) that
    may discard a kind a won hand has won on and also another kind — the choice the won-wait
    channels are about (training may weigh them more: they are rare, and one wrong costs a
    deal-in)."""
    waits = _won_on(np.asarray(x, np.float32).reshape(len(x), OBS_V1_SIZE))[0] > 0
    discard = np.asarray(mask, bool)[:, :27]  # indices 0-26: a discard of kind k
    return np.asarray((discard & waits).any(axis=1) & (discard & ~waits).any(axis=1))


class ObsV3(ObsV2):
    """``obs_v3`` of ``obs_v1`` rows: ``ObsV3(presets)(x)`` is ``float32[n, 118 * 27]``, the
    ``obs_v2`` row (its analysis channels at the presets' fan tables, as :class:`ObsV2`) then the
    won-wait channels."""

    width = OBS_V1_SIZE + ANALYSIS_SIZE + WON_WAITS_SIZE

    def _after_analysis(self, h: np.ndarray, out: np.ndarray) -> None:
        out[:, OBS_V1_SIZE + ANALYSIS_SIZE:] = won_wait_planes(h)
