"""Tensor encoders of a seat's view: ``obs_v1`` (what the seat may see) and ``oracle_v1``
(everything, for oracle-guided training); at a table with wild tiles (docs/rules.md §12)
``obs_wild_v1`` and ``oracle_wild_v1``, the same channels followed by the wild ones.

>>> import numpy as np, xueliu
>>> from xueliu.learn import encoder
>>> enc = encoder("obs_v1")
>>> state = xueliu.new_game("xueliu", seed=1)
>>> x = enc.encode(state, 0)
>>> x.shape == enc.shape, x.dtype == enc.dtype, enc.channels[0]
(True, True, 'hand_1')
>>> batch = np.zeros((4, *enc.shape), enc.dtype)
>>> enc.encode_batch([state] * 4, [0, 1, 2, 3], out=batch).shape[0]
4

``obs_v1`` reads nothing but ``state.observation(seat)`` (docs/rules.md §7's view: it cannot leak a hidden
tile), and ``encode`` / ``encode_batch`` also take such observation dicts directly. Channels are in
:mod:`xueliu.learn.channels` and docs/learning.md. Values are 0 or 1: plain Python builds each
channel as a row of 27 bytes (precomputed rows, counts summed in C), the rows of an observation —
or of a whole batch — are joined once and cast into the caller's ``float32`` array in one numpy
copy.

Every table shape (docs/rules.md §11) gives the same array: four relative seat places, 27 kinds. A place
with no seat at the table (:func:`xueliu.rules.shape.seat_places`: three seats leave ``across``
empty, two seats ``next`` and ``prev``) and the kinds of a suit not in play are always zero, so
the default table's bytes are exactly those of before table shapes (tests/learn/
test_default_bytes.py) and docs/learning.md says what a model may read of the shape.

Wild tiles: every row keeps the 27 suit kinds, a wild of a suit kind (幺鸡's ``1s``) counted at
its own kind as the physical tile it is, and 红中 (``7z``, kind 27) in none of them; the wild
channels (:data:`~xueliu.learn.channels.WILD_V1`) say which kinds are wild, the 本金, the pool of
wilds, the counts of 红中 and the soft melds. ``obs_v1`` and ``oracle_v1`` refuse a table with
wilds (their rows could not show its 红中 nor which tiles are wild); tables without wilds encode
byte for byte as before (tests/learn/test_no_wild_bytes.py).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..game import GameState
from ..rules import Rules
from .channels import OBS_V1, OBS_WILD_V1, ORACLE_EXTRA, ORACLE_V1, ORACLE_WILD_V1
from .encoder_rows import _obs_v1_rows, _oracle_extra_rows, _oracle_wild_rows, _Rows, _wild_rows
from .view_encoding import native_reads, obs_v1_of_states, oracle_extra_from_states

__all__ = ["Encoder", "encoder", "encoder_for", "ENCODERS", "WILD_ENCODERS", "FAST_BATCH"]

def _seat_observation(name: str, item: Any, seat: Optional[int]) -> Mapping[str, Any]:
    """The observation dict an ``obs_*`` encoder reads: ``item`` itself, or a GameState's
    ``observation(seat)``."""
    o: Mapping[str, Any]
    if isinstance(item, GameState):
        if seat is None:
            raise ValueError(f"{name} of a GameState needs the seat")
        o = item.observation(seat)
    elif isinstance(item, Mapping):
        o = item
        if o.get("seat") is None:
            raise ValueError(f"{name} encodes one seat's observation; this one is omniscient "
                             "(seat None)")
        if seat is not None and seat != o["seat"]:
            raise ValueError(f"the observation is seat {o['seat']}'s, not seat {seat}'s")
    else:
        raise TypeError(f"{name} encodes a GameState or an observation dict, got "
                        f"{type(item).__name__}")
    return o


def _no_wilds(name: str, o: Mapping[str, Any]) -> None:
    if "wilds" in o:
        raise ValueError(f"{name} encodes a table without wild tiles, and this one has wilds "
                         f"(docs/rules.md §12): encode it with {name.replace('_v1', '_wild_v1')} "
                         "(the environments do)")


def _obs_v1_item(item: Any, seat: Optional[int], picks: Sequence[int], rows: List[bytes]) -> None:
    if type(item) is dict and seat is None and item["seat"] is not None \
            and "wilds" not in item:  # the hot path
        _obs_v1_rows(item, picks, rows)
        return
    o = _seat_observation("obs_v1", item, seat)
    _no_wilds("obs_v1", o)
    _obs_v1_rows(o, picks, rows)


def _obs_wild_v1_item(item: Any, seat: Optional[int], picks: Sequence[int],
                      rows: List[bytes]) -> None:
    o = item if type(item) is dict and seat is None and item["seat"] is not None \
        else _seat_observation("obs_wild_v1", item, seat)
    _obs_v1_rows(o, picks, rows)
    _wild_rows(o, rows)


def _oracle_state(name: str, item: Any, seat: Optional[int]) -> GameState:
    if not isinstance(item, GameState):
        raise TypeError(f"{name} encodes a GameState (it reads hidden tiles), got "
                        f"{type(item).__name__}")
    if seat is None:
        raise ValueError(f"{name} needs the seat")
    return item


def _oracle_v1_item(item: Any, seat: Optional[int], picks: Sequence[int],
                    rows: List[bytes]) -> None:
    state = _oracle_state("oracle_v1", item, seat)
    o = state.observation(seat)
    _no_wilds("oracle_v1", o)
    _obs_v1_rows(o, picks, rows)
    _oracle_extra_rows(state.observation(None), seat, rows)  # type: ignore[arg-type]


def _oracle_wild_v1_item(item: Any, seat: Optional[int], picks: Sequence[int],
                         rows: List[bytes]) -> None:
    state = _oracle_state("oracle_wild_v1", item, seat)
    o = state.observation(seat)
    _obs_v1_rows(o, picks, rows)
    _wild_rows(o, rows)
    full = state.observation(None)
    _oracle_extra_rows(full, seat, rows)  # type: ignore[arg-type]
    _oracle_wild_rows(full, seat, rows)  # type: ignore[arg-type]


class Encoder:
    """A named encoder: ``encode(state, seat)`` -> ``float32[channels, 27]``.

    ``name``, ``shape`` (channels × 27), ``dtype`` and ``channels`` (one name per channel; the
    meanings in ``channel_docs``) describe the output. ``encode`` and ``encode_batch`` fill ``out``
    when given (a preallocated array of the right shape and dtype), else a new array.
    """

    def __init__(self, name: str, table: Tuple[Tuple[str, str], ...], rows: _Rows,
                 doc: str, from_observation: bool, fast: Optional[_Fast] = None) -> None:
        self.name = name
        self.from_observation = from_observation
        """Whether ``encode`` takes the seat's observation dict (else only the GameState)."""
        self.channels: Tuple[str, ...] = tuple(n for n, _ in table)
        self.channel_docs: Tuple[Tuple[str, str], ...] = table
        self.shape: Tuple[int, int] = (len(table), 27)
        self.dtype = np.dtype(np.float32)
        self._rows = rows
        self._fast = fast
        self.__doc__ = doc

    def __repr__(self) -> str:
        return f"<Encoder {self.name} {self.shape[0]}x27 {self.dtype}>"

    def _out(self, out: Optional[np.ndarray], shape: Tuple[int, ...]) -> np.ndarray:
        if out is None:
            return np.empty(shape, self.dtype)
        if out.__class__ is not np.ndarray and not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
        if out.shape != shape or out.dtype != self.dtype:
            raise ValueError(f"out must have shape {shape} and dtype {self.dtype}, got "
                             f"{out.shape} {out.dtype}")
        return out

    def _copy(self, rows: List[bytes], out: np.ndarray) -> np.ndarray:
        data = b"".join(rows)
        if len(data) != out.size:  # pragma: no cover - a row-count slip would misalign channels
            raise AssertionError(f"{self.name} wrote {len(data)} values for {out.size}")
        out[...] = np.ndarray(out.shape, np.uint8, data)
        return out

    def encode(self, state: Any, seat: Optional[int] = None, out: Optional[np.ndarray] = None,
               *, picks: Sequence[int] = ()) -> np.ndarray:
        """One seat's view as ``dtype[shape]``. ``state`` is a :class:`~xueliu.GameState` (with
        ``seat``) or, for ``obs_v1``, that seat's observation dict. ``picks``: the exchange picks
        the environment holds for this seat (channels ``exchange_picks_*``). A game state takes
        the native fast path (the same values as its observation dict gives)."""
        out = self._out(out, self.shape)
        if seat is not None and self._fast is not None and isinstance(state, GameState) \
                and native_reads(state):
            self._fast([state], [seat], [picks], out[None])
            return out
        rows: List[bytes] = []
        self._rows(state, seat, picks, rows)
        return self._copy(rows, out)

    def encode_batch(self, states: Sequence[Any], seats: Optional[Sequence[Optional[int]]] = None,
                     out: Optional[np.ndarray] = None, *,
                     picks: Optional[Sequence[Sequence[int]]] = None) -> np.ndarray:
        """Many views at once as ``dtype[n, *shape]`` (``states[i]`` seen by ``seats[i]``; seats
        may be left out for observation dicts). The rows of the whole batch are joined and cast
        into ``out`` in one numpy copy. A batch of at least :data:`FAST_BATCH` game states (with
        their seats) takes the fast path instead (:mod:`xueliu.learn.view_encoding`): the same
        values, read from the engine's seat views and written by the native core (four-seat
        tables without wild tiles; a batch with another table takes the observation-dict
        path)."""
        n = len(states)
        if seats is not None and len(seats) != n:
            raise ValueError(f"{n} states but {len(seats)} seats")
        if picks is not None and len(picks) != n:
            raise ValueError(f"{n} states but {len(picks)} picks")
        out = self._out(out, (n, *self.shape))
        if n >= FAST_BATCH and seats is not None and self._fast is not None \
                and all(map(isinstance, states, repeat(GameState))) \
                and all(map(native_reads, states)):
            return self._fast(states, seats, picks, out)
        rows: List[bytes] = []
        fill = self._rows
        for i in range(n):
            fill(states[i], None if seats is None else seats[i],
                 () if picks is None else picks[i], rows)
        return self._copy(rows, out)


FAST_BATCH = 1
"""The smallest ``encode_batch`` of game states that takes the native fast path: any (the native
encoder is several times faster than the observation-dict path from one view up)."""

_Fast = Callable[[Sequence[Any], Sequence[Any], Optional[Sequence[Sequence[int]]], np.ndarray],
                 np.ndarray]


def _fast_obs_v1(states: Sequence[Any], seats: Sequence[Any],
                 picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> np.ndarray:
    obs_v1_of_states(states, seats, picks, out)
    return out


def _fast_oracle_v1(states: Sequence[Any], seats: Sequence[Any],
                    picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> np.ndarray:
    obs_v1_of_states(states, seats, picks, out)  # (checks the seats)
    oracle_extra_from_states(states, [int(q) for q in seats], out)
    return out


# The wild encoders at a table without wilds (the only tables the native core reads): obs_v1's
# channels, then the wild channels, all zero (and for the oracle the hidden channels between).
_WILD_AT = len(OBS_V1)
_ORACLE_AT = len(OBS_WILD_V1)
_ORACLE_WILD_AT = _ORACLE_AT + len(ORACLE_EXTRA)


def _fast_obs_wild_v1(states: Sequence[Any], seats: Sequence[Any],
                      picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> np.ndarray:
    obs_v1_of_states(states, seats, picks, out)
    out[:, _WILD_AT:] = 0
    return out


def _fast_oracle_wild_v1(states: Sequence[Any], seats: Sequence[Any],
                         picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> np.ndarray:
    obs_v1_of_states(states, seats, picks, out)  # (checks the seats)
    out[:, _WILD_AT:_ORACLE_AT] = 0
    oracle_extra_from_states(states, [int(q) for q in seats], out, at=_ORACLE_AT)
    out[:, _ORACLE_WILD_AT:] = 0
    return out


ENCODERS: Dict[str, Encoder] = {
    "obs_v1": Encoder("obs_v1", OBS_V1, _obs_v1_item,
                      "What one seat may see: a function of state.observation(seat) alone.",
                      from_observation=True, fast=_fast_obs_v1),
    "oracle_v1": Encoder("oracle_v1", ORACLE_V1, _oracle_v1_item,
                         "obs_v1 plus the hidden tiles: other hands, concealed kongs, the live "
                         "wall (oracle-guided training; never a player's input at play time).",
                         from_observation=False, fast=_fast_oracle_v1),
    "obs_wild_v1": Encoder("obs_wild_v1", OBS_WILD_V1, _obs_wild_v1_item,
                           "obs_v1 and the wild-tile channels (docs/rules.md §12): what one seat "
                           "may see at any table, wilds included; a function of "
                           "state.observation(seat) alone.",
                           from_observation=True, fast=_fast_obs_wild_v1),
    "oracle_wild_v1": Encoder("oracle_wild_v1", ORACLE_WILD_V1, _oracle_wild_v1_item,
                              "obs_wild_v1 plus the hidden tiles and wilds: oracle_v1's hidden "
                              "channels, then the others' wilds and the live wall's.",
                              from_observation=False, fast=_fast_oracle_wild_v1),
}
"""The encoders by name."""

WILD_ENCODERS: Dict[str, str] = {"obs_v1": "obs_wild_v1", "oracle_v1": "oracle_wild_v1"}
"""The encoder a table with wild tiles takes in place of each encoder of tables without them."""


def encoder(name: str) -> Encoder:
    """The encoder called ``name``: ``"obs_v1"``, ``"oracle_v1"``, ``"obs_wild_v1"`` or
    ``"oracle_wild_v1"``."""
    if not isinstance(name, str):
        raise TypeError(f"an encoder name is a str, got {type(name).__name__}")
    enc = ENCODERS.get(name)
    if enc is None:
        raise ValueError(f"unknown encoder {name!r}; expected one of {', '.join(ENCODERS)}")
    return enc


def encoder_for(enc: Encoder, rules: Rules) -> Encoder:
    """The encoder a table of ``rules`` is observed with when ``enc`` is asked for: ``enc``
    itself, or at a table with wild tiles (``rules.has_wilds``) its wild counterpart
    (``obs_v1`` → ``obs_wild_v1``, ``oracle_v1`` → ``oracle_wild_v1``: the same channels first,
    then the wild ones).

    >>> from xueliu import Rules
    >>> encoder_for(encoder("obs_v1"), Rules.preset("hongzhong")).name
    'obs_wild_v1'
    """
    if rules.has_wilds:
        wild = WILD_ENCODERS.get(enc.name)
        if wild is not None and ENCODERS.get(enc.name) is enc:
            return ENCODERS[wild]
    return enc
