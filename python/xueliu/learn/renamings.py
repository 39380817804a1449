"""Renamings of the tiles: the same decision at a table whose tiles are called otherwise.

Sichuan mahjong plays alike with its three suits permuted — no suit is special; the rules that
name one (定缺's void, 换三张's same-suit exchange) name it through the tiles — and with every rank
``r`` read as ``10 − r``: runs stay runs, 1 and 9 trade places (带幺九 and 清幺九 keep their
terminals), 2, 5 and 8 stay 2, 5 and 8 (将对), 九莲宝灯's 1112345678999 is its own mirror, and no
fan of the presets, nor of the optional ones (断幺九, 一条龙, 夹心五), tells a rank from its
mirror. So each of the 3! × 2 renamings maps a hand onto another hand that plays the same way
(at a table without wild tiles: 幺鸡's ``1s`` or a 本金 tells the suits apart, docs/rules.md §12):
the same decisions, renamed, give the same nets
(``tests/learn/test_renamings.py`` plays both tables side by side in both presets).

:data:`RENAMINGS` lists them, the identity first, then the other suit permutations, then the six
with the ranks reversed. They map an ``obs_v1`` tensor and the action space onto another view of
one decision — what training augments its data with (``xueliu train --augment-renamings``) and
what a network's policy may be averaged over (``--distill-views``). Only tile planes move
(:data:`~xueliu.learn.channels.OBS_V1`'s channels whose meaning is "tile plane"): flags, bars
and the multiplier one-hot are not about kinds.

Renaming ``RENAMINGS[w] = (perm, reverse)`` sends kind ``k`` of suit ``s = k // 9`` and rank
index ``i = k % 9`` to ``perm[s] * 9 + (8 − i if reverse else i)``; index ``j`` of the action
space to ``action_map(w)[j]`` (a discard of a kind the discard of its renamed kind, void ``s``
void ``perm[s]``; hu, pass and the multiplier slots stay).

>>> from xueliu.learn.renamings import kind_map
>>> int(kind_map(1)[4]), int(kind_map(6)[0])    # 5m becomes 5p; 1m becomes 9m
(13, 8)
"""

from __future__ import annotations

from typing import Callable, Dict, Mapping, Sequence, Tuple

import numpy as np

from .actions import EXCHANGE_PICK, NUM_ACTIONS
from .channels import OBS_V1

__all__ = ["RENAMINGS", "kind_map", "action_map", "tile_planes", "channel_dest",
           "channel_sources", "rename_obs", "rename_per_index",
           "rename_per_kind", "rename_indices", "rename_batch"]

_SUIT_PERMUTATIONS = ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
RENAMINGS: Tuple[Tuple[Tuple[int, int, int], bool], ...] = tuple(
    (perm, reverse) for reverse in (False, True) for perm in _SUIT_PERMUTATIONS)
"""The twelve renamings ``(perm, reverse)``: the identity first, the two cyclic suit permutations
next, the six with the ranks reversed last."""

_VOID = 137  # void m, p, s (定缺): xueliu.learn.actions' table
_KIND_BLOCKS = (0, 27, 54, 81, 108, EXCHANGE_PICK)  # discard, peng, kongs (3), exchange pick


def _check(w: object) -> int:
    if isinstance(w, bool) or not isinstance(w, (int, np.integer)) or not 0 <= w < len(RENAMINGS):
        raise ValueError(f"a renaming is a position in RENAMINGS (0..{len(RENAMINGS) - 1}), "
                         f"got {w!r}")
    return int(w)


def kind_map(w: int) -> np.ndarray:
    """``int64[27]``: the kind each kind becomes under renaming ``w``."""
    perm, reverse = RENAMINGS[_check(w)]
    return np.array([perm[k // 9] * 9 + (8 - k % 9 if reverse else k % 9) for k in range(27)],
                    np.int64)


def action_map(w: int) -> np.ndarray:
    """``int64[175]``: the index each index of the action space becomes under renaming ``w``."""
    km = kind_map(w)
    out = np.arange(NUM_ACTIONS, dtype=np.int64)
    for base in _KIND_BLOCKS:
        out[base:base + 27] = base + km
    out[_VOID:_VOID + 3] = _VOID + np.asarray(RENAMINGS[w][0], np.int64)
    return out


def _sources(dest: np.ndarray) -> np.ndarray:
    """The gather that moves entry ``i`` to ``dest[i]``: ``out = a[..., src]``."""
    src = np.empty_like(dest)
    src[dest] = np.arange(len(dest))
    return src


def tile_planes(channels: Sequence[Tuple[str, str]]) -> np.ndarray:
    """``bool[len(channels)]``: which channels are tile planes (one input per kind) — the ones a
    renaming moves."""
    return np.array([meaning.startswith("tile plane") for _, meaning in channels], bool)


def channel_dest(channels: Sequence[Tuple[str, str]], w: int) -> np.ndarray:
    """``int64[len(channels) * 27]``: where each input of a tensor of ``channels`` (``OBS_V1``,
    or an encoder's channels after it, ``xueliu.learn.channels``) goes under renaming ``w`` —
    its tile planes' kinds move, flags and bars stay."""
    tile = np.flatnonzero(tile_planes(channels))
    dest = np.arange(len(channels) * 27, dtype=np.int64).reshape(len(channels), 27)
    dest[tile] = tile[:, None] * 27 + kind_map(w)[None, :]
    return dest.reshape(-1)


def channel_sources(channels: Sequence[Tuple[str, str]], w: int) -> np.ndarray:
    """The gather that renames a tensor of ``channels`` by renaming ``w``:
    ``renamed = x[..., channel_sources(channels, w)]`` (the inverse of :func:`channel_dest`)."""
    return _sources(channel_dest(channels, w))


_OBS_SRC = np.stack([channel_sources(OBS_V1, w) for w in range(len(RENAMINGS))])
_ACTION_SRC = np.stack([_sources(action_map(w)) for w in range(len(RENAMINGS))])
_KIND_SRC = np.stack([_sources(kind_map(w)) for w in range(len(RENAMINGS))])
_ACTION_DEST = np.stack([action_map(w) for w in range(len(RENAMINGS))])
for _a in (_OBS_SRC, _ACTION_SRC, _KIND_SRC, _ACTION_DEST):
    _a.setflags(write=False)


def _which(which: object, n: int) -> np.ndarray:
    w = np.broadcast_to(np.asarray(which), (n,))
    if w.size and (w.dtype.kind not in "iu" or not ((0 <= w) & (w < len(RENAMINGS))).all()):
        raise ValueError(f"a renaming is a position in RENAMINGS (0..{len(RENAMINGS) - 1}), "
                         f"got {which!r}")
    return w.astype(np.int64)


def _gather(a: np.ndarray, src: np.ndarray, which: object) -> np.ndarray:
    """``out[i] = a[i, src[which[i]]]``, renaming by renaming: a gather of whole columns is many
    times faster than one index per element."""
    w = _which(which, len(a))
    if len(w) and (w == w[0]).all():
        return a[:, src[w[0]]]
    out = np.empty_like(a)
    for k in np.unique(w):
        rows = w == k
        out[rows] = a[rows][:, src[k]]
    return out


def rename_obs(x: np.ndarray, which: object) -> np.ndarray:
    """``obs_v1`` tensors (``[n, 2484]`` or ``[n, 92, 27]``, any dtype) renamed, row ``i`` by
    ``RENAMINGS[which[i]]`` (``which`` one position for all rows, or one a row)."""
    flat = np.asarray(x).reshape(len(x), len(OBS_V1) * 27)
    return _gather(flat, _OBS_SRC, which).reshape(np.shape(x))


def rename_per_index(a: np.ndarray, which: object) -> np.ndarray:
    """Rows of one value per index of the action space (masks, logits, option values) renamed:
    ``out[i, action_map(w)[j]] = a[i, j]``. The 175 indices of a table without wild tiles only
    (a wild kind breaks the symmetry of the suits): rows of another width are a ``ValueError``."""
    a = np.asarray(a)
    if a.ndim < 1 or a.shape[-1] != NUM_ACTIONS:
        raise ValueError(f"rename_per_index renames rows of the {NUM_ACTIONS} indices of a table "
                         f"without wild tiles, got shape {a.shape}")
    return _gather(a, _ACTION_SRC, which)


def rename_per_kind(a: np.ndarray, which: object) -> np.ndarray:
    """Rows of one value per kind (deal-in costs) renamed: ``out[i, kind_map(w)[k]] = a[i, k]``."""
    return _gather(np.asarray(a), _KIND_SRC, which)


def rename_indices(index: np.ndarray, which: object) -> np.ndarray:
    """Indices of the action space, one row of them per row (``[n]`` or ``[n, k]``), renamed;
    negative entries ("no candidate") kept."""
    idx = np.asarray(index)
    w = _which(which, idx.shape[0]).reshape((-1,) + (1,) * (idx.ndim - 1))
    out = _ACTION_DEST[w, np.maximum(idx, 0)]
    return np.where(idx < 0, idx, out).astype(idx.dtype)


_ROLES: Dict[str, Callable[[np.ndarray, object], np.ndarray]] = {
    "x": rename_obs, "mask": rename_per_index, "value": rename_per_index,
    "cost": rename_per_kind, "index": rename_indices, "cand": rename_indices}


def rename_batch(batch: Mapping[str, np.ndarray], which: object) -> Dict[str, np.ndarray]:
    """A batch of training rows renamed, row ``i`` by ``RENAMINGS[which[i]]``, every array by
    what it holds — the names of the training data (``xueliu.train.demos``,
    ``xueliu.train.close_calls``): ``x`` (``obs_v1``), ``mask`` and ``value`` (one entry per
    index), ``cost`` (one per kind), ``index`` and ``cand`` (indices). Any other name is refused:
    an array whose meaning is unknown cannot be renamed."""
    unknown = sorted(set(batch) - set(_ROLES))
    if unknown:
        raise ValueError(f"rename_batch does not know what {', '.join(unknown)} holds")
    return {key: _ROLES[key](a, which) for key, a in batch.items()}
