"""``obs_v2``: ``obs_v1`` and the analysis channels of :data:`~.channels.ANALYSIS_V1`.

The analysis channels are what 查听 says of the seat's own hand — the shanten after each discard,
the copies of its 进张 not in sight, the fan of its waits, what a 碰 or 杠 would leave — computed
by the core from the seat's ``obs_v1`` tensor (``_core.analysis_planes``). They are a function
of ``obs_v1`` alone, so ``obs_v2`` shows nothing ``obs_v1`` does not (docs/rules.md §7), and they can be
added to any ``obs_v1`` input: a batch the environments encode, a stored demonstration.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

import numpy as np

from .. import _core
from ..rules import Rules
from .channels import ANALYSIS_V1, OBS_V1, offsets

__all__ = ["ANALYSIS_SIZE", "OBS_V1_SIZE", "ObsV2", "analysis_planes"]

OBS_V1_SIZE = len(OBS_V1) * 27
ANALYSIS_SIZE = len(ANALYSIS_V1) * 27
_MODE = offsets(OBS_V1)["mode_xuezhan"]
_ANALYSIS = slice(OBS_V1_SIZE, OBS_V1_SIZE + ANALYSIS_SIZE)  # the columns of a row they fill

if tuple(n for n, _ in ANALYSIS_V1) != _core.ANALYSIS_CHANNELS:  # pragma: no cover
    raise ImportError("xueliu._core's analysis channels differ from xueliu.learn.channels")


def analysis_planes(x: np.ndarray, scoring: Any) -> np.ndarray:
    """``float32[n, 19 * 27]``: the analysis channels of the ``obs_v1`` tensors ``x``
    (``[n, 2484]`` or ``[n, 92, 27]``) at a table of ``scoring`` (``Rules._scoring``: its hand
    shape and fan table)."""
    flat = np.ascontiguousarray(np.asarray(x, np.float32).reshape(len(x), OBS_V1_SIZE))
    out = np.empty((len(flat), ANALYSIS_SIZE), np.float32)
    _core.analysis_planes(flat, out, scoring)
    return out


class ObsV2:
    """``obs_v2`` of ``obs_v1`` rows: ``ObsV2(presets)(x)`` is ``float32[n, 111 * 27]``, each row
    of ``x`` then its analysis channels, at the fan table of the preset of the row's mode (its
    ``mode_xuezhan`` flag: the first of ``presets`` — name → ``Rules.to_dict()`` — with that
    mode, 血战 and 倒倒胡 counting as one; the default table's when none has it)."""

    width = OBS_V1_SIZE + ANALYSIS_SIZE
    """Columns of a row (a subclass appends channels of its own: :meth:`_after_analysis`)."""

    def __init__(self, presets: Mapping[str, Mapping[str, Any]]) -> None:
        by_flag: Dict[int, Any] = {}
        for d in presets.values():
            by_flag.setdefault(int(d.get("mode") != "xueliu"), Rules.from_dict(d)._scoring)
        first = by_flag.get(0, by_flag.get(1, Rules.preset("xueliu")._scoring))
        self.scoring: Tuple[Any, Any] = (by_flag.get(0, first), by_flag.get(1, first))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, np.float32).reshape(len(x), OBS_V1_SIZE)
        out = np.empty((len(h), self.width), np.float32)
        out[:, :OBS_V1_SIZE] = h
        flag = h[:, _MODE] == 1.0
        for value, scoring in enumerate(self.scoring):
            rows = np.flatnonzero(flag == bool(value))
            if len(rows) == len(h):  # one mode, as in a hand or an arena: no gather, no scatter
                out[:, _ANALYSIS] = analysis_planes(h, scoring)
            elif len(rows):
                out[rows, _ANALYSIS] = analysis_planes(h[rows], scoring)
        self._after_analysis(h, out)
        return out

    def _after_analysis(self, h: np.ndarray, out: np.ndarray) -> None:
        """Fills the columns after the analysis channels of ``out`` from the ``obs_v1`` rows
        ``h``: none here."""
