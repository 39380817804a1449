"""The fast path of the encoders: ``obs_v1`` (and ``oracle_v1``) of many seats at once, read from
the hands in progress instead of JSON observations.

The observation-dict path in :mod:`xueliu.learn.encoders` stays the definition of ``obs_v1`` (a
function of ``state.observation(seat)`` alone); this path gives the same values bit for bit
(tests/learn/test_view_encoding.py checks every seat at every decision of hundreds of hands) and
reads only what :func:`xueliu.game.view.public_pieces` hands out, which the seat may see (docs/rules.md
§7), and the sizes of the hands (public in every observation).

Why it is fast: no Python runs per view. The native core reads those pieces straight from each
hand's fields (cpp/bindings/bind_encode.cpp, field by field as ``public_pieces``) and writes every
channel into the caller's ``float32`` array (``_core.encode_obs_v1``; cpp/encode.cpp holds the
channel layout, checked against :data:`~xueliu.learn.channels.OBS_V1` here at import). The
hidden channels of ``oracle_v1`` are built by numpy for the whole batch.

It reads four-seat tables without wild tiles (:func:`native_reads`). A table with wilds keeps 28
counts per hand and rivers that may hold 红中 (docs/rules.md §12), which the native reader
refuses with a ``ValueError`` rather than misread; the encoders send such tables, and tables of 2
or 3 seats, to the observation-dict path.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Optional, Sequence

import numpy as np

from .. import _core
from ..game import GameState
from ..game.view import hidden_pieces
from .channels import OBS_V1, ORACLE_V1

__all__ = ["native_reads", "obs_v1_of_states", "oracle_extra_from_states"]

_flat = chain.from_iterable
_AR4 = np.arange(4)
_T4 = np.arange(1, 5, dtype=np.uint8)[:, None]  # thresholds of the "at least i" planes
if tuple(n for n, _ in OBS_V1) != _core.OBS_V1_CHANNELS:  # pragma: no cover
    raise AssertionError("obs_v1's channel table and the native encoder disagree")


def native_reads(state: GameState) -> bool:
    """Whether the native fast path reads ``state``: a four-seat table without wild tiles."""
    return state._wild is None and state.rules.players == 4


def _ints(values: Any, n: int = -1) -> np.ndarray:
    return np.fromiter(values, np.intp, n)


def obs_v1_of_states(states: Sequence[GameState], seats: Sequence[Any],
                     picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> None:
    """Fills ``out[:, :92]`` (``float32[n, >=92, 27]``, any content) with the ``obs_v1`` channels
    of seat ``seats[i]`` in ``states[i]``, ``picks`` the exchange picks per view (kinds 0..26).
    ``out`` need not be contiguous. ``TypeError`` / ``ValueError`` naming a bad state, seat or
    pick, and then nothing is written."""
    target = out if out.flags.c_contiguous and out.flags.writeable else np.empty_like(out)
    _core.encode_obs_v1(states, seats, picks, target)
    if target is not out:
        out[:, :92] = target[:, :92]


_ORACLE_AT = {n: i for i, (n, _) in enumerate(ORACLE_V1)}
_HANDS = _ORACLE_AT["hand_next_1"]
_CONCEALED = _ORACLE_AT["concealed_kongs_next"]
_WALL = _ORACLE_AT["live_wall_1"]
_NEXT_DRAW = _ORACLE_AT["next_draw"]


def oracle_extra_from_states(states: Sequence[GameState], seats: Sequence[int],
                             out: np.ndarray, at: int = 92) -> None:
    """Fills ``out[:, at:at + 20]`` (``float32``; ``oracle_v1``'s channels 92–111) with the hidden
    channels of ``oracle_v1`` (the other hands, their concealed kongs, the live wall, its next
    tile) read from the engine: everything, for oracle training only."""
    n = len(states)
    if n == 0:
        return
    x = np.empty((n, len(ORACLE_V1), 27), np.uint8)
    _oracle_extra(states, seats, x)
    out[:, at:at + len(ORACLE_V1) - _HANDS] = x[:, _HANDS:]


def _oracle_extra(states: Sequence[GameState], seats: Sequence[int], out: np.ndarray) -> None:
    n = len(states)
    hands, concealed, walls = zip(*map(hidden_pieces, states))
    ar = np.arange(n)
    seat = np.array(seats, np.intp)
    others = (seat[:, None] + _AR4[1:]) & 3
    held = np.frombuffer(b"".join(_flat(hands)), np.uint8).reshape(n, 4, 27)[ar[:, None], others]
    planes = out.view(np.bool_)
    planes[:, _HANDS:_HANDS + 12] = (held[:, :, None, :] >= _T4).reshape(n, 12, 27)
    lens = _ints(map(len, _flat(concealed)), 4 * n)
    kongs = np.bincount(np.repeat(np.arange(4 * n) * 27, lens) + _ints(_flat(_flat(concealed))),
                        minlength=4 * n * 27).reshape(n, 4, 27)
    planes[:, _CONCEALED:_CONCEALED + 3] = kongs[ar[:, None], others] > 0
    lens = _ints(map(len, walls), n)
    kinds = _ints(_flat(walls))
    left = np.bincount(np.repeat(ar * 27, lens) + kinds, minlength=n * 27).reshape(n, 27)
    planes[:, _WALL:_WALL + 4] = left.astype(np.uint8)[:, None, :] >= _T4
    out[:, _NEXT_DRAW] = 0
    has = lens > 0
    out[ar[has], _NEXT_DRAW, kinds[(np.cumsum(lens) - lens)[has]]] = 1
