"""How ready the other seats' hidden hands are at a real table (对手手牌的向听分布): the prior a
redeal weights its deals by, so that the copies it makes are as dangerous as the table.

A uniform redeal (:func:`xueliu.game.redeal.redealt`) deals the other seats' concealed tiles at
random from what the seat cannot see. Real players' hands are not random: what they kept is what
brought them near a win. In games of four ``ExpertBot``\\ s, with 10 to 19 tiles of the 血流 wall
left, an opponent without melds is ready (shanten 0) in 41 % of the hands, a uniform redeal's in
3.5 %: a uniform redeal's table is slower and safer than the real one. (What dealing
likely hands changed in the values of the network's close calls — little — is in
docs/training.md, "What was tried".)

The prior is a table of ratios ``P_real(s | b, m) / P_uniform(s | b, m)`` of an opponent's
shanten ``s`` (its concealed tiles with its melds and void, :func:`xueliu._core.shanten`), by the
bucket ``b`` of the live wall left (:data:`WALL_STEP` tiles a bucket) and its number of melds
``m``: counted at every turn decision of expert games (:func:`xueliu.train.hand_prior.measure`), for each other seat
still playing with a hand that may change, once as dealt and once as a uniform redeal at the same
state deals it. A redeal with ``hands="likely"`` keeps each seat's hand with chance proportional to
its ratio, so each seat's shanten follows the real table's. Made by ``tools/make_likely_hands.py``
into ``likely_hands.npz`` (package data) for the ``xueliu`` and ``xuezhan`` presets' table shape.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from ..rules import Rules
from .data import HandData

__all__ = ["WALL_STEP", "BUCKETS", "MELDS", "SHANTEN", "PRESETS", "TABLE_PATH",
           "ratios_from_counts", "ratios_for", "shanten_of", "context_of"]

WALL_STEP = 6
"""Live-wall tiles a bucket of the prior (55 at most after the deal: buckets 0–9)."""
BUCKETS = 10
MELDS = 5
SHANTEN = 9
"""Shanten 0–8 (a 13-tile hand is at most 8 from ready; higher is counted as 8)."""
PRESETS = ("xueliu", "xuezhan")
"""The presets whose table shape the shipped prior was measured on (one table each)."""
TABLE_PATH = Path(__file__).with_name("likely_hands.npz")
_MIN_CELL = 100  # a (bucket, melds) cell seen fewer times keeps uniform weights
_MIN_SHANTEN = 20  # a shanten seen fewer times in a cell takes its neighbour's ratio
_CLIP = (0.05, 20.0)  # ratios bounded: a rare shanten's noisy ratio must not decide a deal


def _shape_key(rules: Rules) -> Tuple[str, int, Tuple[str, ...], int]:
    return rules.mode, rules.players, tuple(rules.suits), rules.hand_size


def shanten_of(state: HandData, seat: int, counts: Optional[Sequence[int]] = None) -> int:
    """``seat``'s shanten in ``state``: its concealed tiles (or the 27 ``counts`` given in their
    place), melds and void."""
    tiles = bytes(state._hands[seat] if counts is None else counts)
    return int(_core.shanten(_core.Hand(tiles, state._core_melds[seat]), state._void[seat],
                             state._sp))


def context_of(wall_left: int, melds: int) -> Tuple[int, int]:
    """The prior's cell for a seat with ``melds`` melds when ``wall_left`` live tiles are left."""
    return min(wall_left // WALL_STEP, BUCKETS - 1), min(melds, MELDS - 1)


def _shares(counts: np.ndarray) -> np.ndarray:
    shares: np.ndarray = counts / np.maximum(counts.sum(-1, keepdims=True), 1)
    return shares


def ratios_from_counts(real: np.ndarray, dealt: np.ndarray,
                       ratios: Optional[np.ndarray] = None) -> np.ndarray:
    """The prior's ratios ``float32[BUCKETS, MELDS, SHANTEN]`` from the counts of
    :func:`xueliu.train.hand_prior.measure`:
    each cell's real share of a shanten over the share the redeal dealt (uniform, or with
    ``ratios``, which are then multiplied by it: one step of a fixed point, where the redeal's
    shares are the real ones), clipped to [0.05, 20]. A shanten seen fewer than 20 times in
    either count takes the ratio of the nearest shanten below it that was not (a hand further
    from ready is no likelier than one nearer); a cell seen fewer than 100 times is all ones."""
    ratio = _shares(real) / np.maximum(_shares(dealt), 1e-12)
    if ratios is not None:
        ratio = ratio * ratios
    ratio = np.clip(ratio, *_CLIP)
    seen = (real >= _MIN_SHANTEN) & (dealt >= _MIN_SHANTEN)
    for s in range(1, SHANTEN):
        ratio[..., s] = np.where(seen[..., s], ratio[..., s], ratio[..., s - 1])
        seen[..., s] |= seen[..., s - 1]
    ratio[~seen] = 1.0  # a cell's first shanten values, none of them seen enough
    thin = (real.sum(-1) < _MIN_CELL) | (dealt.sum(-1) < _MIN_CELL)
    ratio[thin] = 1.0
    out: np.ndarray = ratio.astype(np.float32)
    return out


@functools.lru_cache(maxsize=None)
def _tables() -> Dict[str, np.ndarray]:
    with np.load(TABLE_PATH) as z:
        meta = json.loads(bytes(z["meta"]).decode())
        tables = {p: np.array(z[p], np.float32) for p in meta["presets"]}
    for table in tables.values():
        table.flags.writeable = False  # shared by every redeal: read only
    return tables


def ratios_for(rules: Rules) -> np.ndarray:
    """The prior's ratios for a hand under ``rules`` (read once from :data:`TABLE_PATH`): the
    table of the preset with the same mode and table shape. Other shapes were not measured and are
    refused with a ``ValueError``."""
    key = _shape_key(rules)
    for preset, table in _tables().items():
        if _shape_key(Rules.preset(preset)) == key:
            return table
    raise ValueError(f"redeal hands='likely' has a prior for the table shapes of the presets "
                     f"{', '.join(_tables())} only, not mode {rules.mode!r} with "
                     f"{rules.players} players, suits {''.join(rules.suits)} and "
                     f"{rules.hand_size}-tile hands")
