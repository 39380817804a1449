"""The fixed action space for learning: one index per decision, the same for every rule set
without wild tiles (and one wider space for every table with wilds).

Indices 0–139 are the engine's own action ids (:class:`xueliu.Action`), so a discard of ``5p`` is
13 here too. The exchange (换三张), whose engine ids run to 3,793 (换四张's from 4,818), is asked as
**single-tile picks** instead: each pick is an index 140 + kind, and the environment chains
``exchange_count`` of them (three, or four under 换四张) into one exchange. Player multipliers
(选倍) are slots: slot ``i`` is the ``i``-th smallest allowed value.

======================  ====================================================================
0 – 26                  discard of kind k (打)
27 – 53                 peng of kind k (碰)
54 – 80                 kong on a discard of kind k (直杠 / 点杠)
81 – 107                concealed kong of kind k (暗杠)
108 – 134               added kong of kind k (补杠)
135                     hu (胡: self-draw, on a discard, or robbing a kong)
136                     pass (过)
137 – 139               void m, p, s (定缺)
140 – 166               exchange pick: one tile of kind k (换三张: three picks make one exchange,
                        换四张: four)
167 – 174               multiplier slot i: the i-th smallest allowed value (选倍)
175                     discard of 7z (红中, a wild; only at a table with wild tiles)
176 – 202               swap_back (提) onto the own exposed meld of kind k (only with wilds)
======================  ====================================================================

**Wild tiles** (docs/rules.md §12): a table whose rules have wilds (``rules.has_wilds``) uses
:data:`NUM_ACTIONS_WILD` = 203 indices, the 175 above and then the two wild-tile actions (the
engine's ids 32223 and 32224 + k, in the same order); every other table keeps the 175, byte for
byte. :func:`num_actions` gives a table's size; every mask of a table has that length. A wild of
a suit kind (``1s`` under 幺鸡) is discarded by its kind's discard index, a soft meld is the meld of
its kind: only 红中's discard and 提 need the new indices.

The environments' mask of a **finished hand** allows exactly one index, :data:`HAND_OVER_ACTION`
(pass, 136): the step after the end is ignored by an autoresetting environment, and a mask with
one allowed index keeps a masked softmax finite (an all-false mask gives NaN).

>>> import xueliu
>>> from xueliu.learn import NUM_ACTIONS, action_mask, to_action
>>> state = xueliu.new_game("xueliu", seed=1)
>>> mask = action_mask(state, 0)            # the exchange: first picks
>>> int(mask[140:167].sum()) > 0, NUM_ACTIONS
(True, 175)
"""

from __future__ import annotations

from typing import List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..game import Action, GameState
from ..game.actions import (
    DISCARD_HONGZHONG_ID, EXCHANGE4_BASE, EXCHANGE4_END, MULTIPLIER_BASE, exchange_kinds,
)
from ..rules import Rules

__all__ = [
    "NUM_ACTIONS", "NUM_ACTIONS_WILD", "EXCHANGE_PICK", "MULTIPLIER_SLOT", "MULTIPLIER_SLOTS",
    "WILD_DISCARD", "SWAP_BACK_SLOT", "HAND_OVER_ACTION", "num_actions", "hand_over_mask",
    "action_mask",
    "to_action", "mask_from_observation", "masks_from_observations", "masks_from_states",
    "describe_index",
]

ENGINE_IDS = 140
"""Indices below this are engine action ids (discards, melds, hu, pass, void)."""
EXCHANGE_PICK = 140
"""``EXCHANGE_PICK + k``: pick one tile of kind ``k`` for the exchange."""
MULTIPLIER_SLOT = EXCHANGE_PICK + 27
"""``MULTIPLIER_SLOT + i``: the ``i``-th smallest allowed player multiplier."""
MULTIPLIER_SLOTS = 8
"""How many multiplier values a rule set may allow (the presets allow 3)."""
NUM_ACTIONS = MULTIPLIER_SLOT + MULTIPLIER_SLOTS  # 175
"""The size of the action space of a table without wild tiles."""
WILD_DISCARD = NUM_ACTIONS  # 175
"""Discard of a 红中 (7z; the engine's id 32223): only in the action space of a table with wilds."""
SWAP_BACK_SLOT = WILD_DISCARD + 1  # 176
"""``SWAP_BACK_SLOT + k``: 提 (swap_back) onto the own exposed meld of kind ``k`` (the engine's
id 32224 + k): only in the action space of a table with wilds."""
NUM_ACTIONS_WILD = SWAP_BACK_SLOT + 27  # 203
"""The size of the action space of a table with wild tiles (``rules.has_wilds``)."""
_WILD_SHIFT = DISCARD_HONGZHONG_ID - WILD_DISCARD  # engine id = index + shift, from 175 on
HAND_OVER_ACTION = 136
"""The one index the mask of a finished hand allows (pass, 过): what the ignored step after the
end of an episode may take (see the module docstring)."""

_SUITS = "mps"
_KIND_NAMES = tuple(f"{r}{s}" for s in _SUITS for r in range(1, 10))


def num_actions(rules: Rules) -> int:
    """The size of a table's action space: :data:`NUM_ACTIONS` (175), or
    :data:`NUM_ACTIONS_WILD` (203) when its rules have wild tiles.

    >>> from xueliu import Rules
    >>> num_actions(Rules.preset("xueliu")), num_actions(Rules.preset("yaoji"))
    (175, 203)
    """
    return NUM_ACTIONS_WILD if rules.has_wilds else NUM_ACTIONS


def _is_multiplier(engine_id: int) -> bool:
    return MULTIPLIER_BASE <= engine_id < EXCHANGE4_BASE


def _check_picks(picks: Sequence[int]) -> Tuple[int, ...]:
    if isinstance(picks, (str, bytes)) or not isinstance(picks, Sequence):
        raise TypeError(f"picks is a sequence of kinds 0..26, got {type(picks).__name__}")
    if len(picks) > 3:  # the table's own count is checked against the legal exchanges
        raise ValueError(f"an exchange has at most four picks: at most three come before the "
                         f"last, got {len(picks)}")
    out = []
    for p in picks:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p <= 26:
            raise ValueError(f"an exchange pick is a kind 0..26, got {p!r}")
        out.append(int(p))
    return tuple(out)


def _exchange_picks_allowed(exchanges: List[Tuple[int, ...]], picks: Tuple[int, ...],
                            buf: Union[bytearray, memoryview]) -> None:
    """Marks in ``buf`` every kind that, added to ``picks``, still fits a legal exchange (the
    exchanges are all of the table's ``exchange_count``: 3 or 4 kinds)."""
    count = len(exchanges[0])
    if len(picks) >= count:
        raise ValueError(f"this exchange has {count} picks: at most {count - 1} come before the "
                         f"last, got {len(picks)}")
    if not picks:
        kinds = set().union(*exchanges)
    else:
        kinds = set()
        for t in exchanges:
            rest = list(t)
            for p in picks:
                if p not in rest:  # (a kind picked twice needs two copies in t)
                    break
                rest.remove(p)
            else:
                kinds.update(rest)
    for k in kinds:
        buf[EXCHANGE_PICK + k] = 1


def _fill_mask(ids: Sequence[int], allowed: Optional[Sequence[int]], picks: Tuple[int, ...],
               buf: Union[bytearray, memoryview]) -> None:
    exchanges: List[Tuple[int, ...]] = []
    for i in ids:
        if i < ENGINE_IDS:
            buf[i] = 1
        elif _is_multiplier(i):
            value = i - MULTIPLIER_BASE + 1
            buf[MULTIPLIER_SLOT + _multiplier_slot(value, allowed, ids)] = 1
        elif i >= EXCHANGE4_END:  # 红中's discard, 提: a table with wilds
            if len(buf) != NUM_ACTIONS_WILD:
                raise ValueError(f"engine action {i} is a wild-tile action: its mask has "
                                 f"{NUM_ACTIONS_WILD} indices, not {len(buf)}")
            buf[i - _WILD_SHIFT] = 1
        else:
            exchanges.append(exchange_kinds(i))
    if exchanges:
        _exchange_picks_allowed(exchanges, picks, buf)
    elif picks:
        raise ValueError("exchange picks were given but the seat is not choosing an exchange")


def _multiplier_slot(value: int, allowed: Optional[Sequence[int]], ids: Sequence[int]) -> int:
    if allowed is None:  # the values offered now are the allowed ones
        allowed = [i - MULTIPLIER_BASE + 1 for i in ids if _is_multiplier(i)]
    ranked = sorted(allowed)
    if len(ranked) > MULTIPLIER_SLOTS:
        raise ValueError(f"the action space has {MULTIPLIER_SLOTS} multiplier slots; these rules "
                         f"allow {len(ranked)} values {ranked}")
    return ranked.index(value)


def mask_from_observation(observation: Mapping[str, object], picks: Sequence[int] = (),
                          out: Optional[np.ndarray] = None) -> np.ndarray:
    """:func:`action_mask` from an observation dict already in hand (``state.observation(seat)``),
    so an environment that encodes the observation builds it once."""
    picks = _check_picks(picks)
    buf = bytearray(NUM_ACTIONS_WILD if "wilds" in observation else NUM_ACTIONS)
    ids = observation["legal_actions"]
    pm = observation.get("player_multipliers")
    allowed = pm["allowed"] if isinstance(pm, Mapping) else None
    _fill_mask(ids, allowed, picks, buf)  # type: ignore[arg-type]
    return _write(buf, out)


def masks_from_observations(observations: Sequence[Mapping[str, object]],
                            picks: Optional[Sequence[Sequence[int]]] = None,
                            out: Optional[np.ndarray] = None) -> np.ndarray:
    """``bool[n, size]``: :func:`mask_from_observation` of each observation (``picks[i]``
    for the ``i``-th), written in one copy (vector environments). ``size`` is the tables' action
    space (every observation of one batch must be of tables alike: all with wild tiles or none)."""
    n = len(observations)
    if picks is not None and len(picks) != n:
        raise ValueError(f"{n} observations but {len(picks)} picks")
    size = _batch_size(["wilds" in o for o in observations])
    buf = bytearray(n * size)
    for i, o in enumerate(observations):
        p = _check_picks(picks[i]) if picks is not None and picks[i] else ()
        pm = o.get("player_multipliers")
        allowed = pm["allowed"] if isinstance(pm, Mapping) else None
        view = memoryview(buf)[i * size:(i + 1) * size]
        _fill_mask(o["legal_actions"], allowed, p, view)  # type: ignore[arg-type]
    return _write_batch(buf, n, size, out)


def _batch_size(wild: Sequence[bool]) -> int:
    """The action space of a batch of tables: all without wilds or all with them."""
    if not wild or not any(wild):
        return NUM_ACTIONS
    if not all(wild):
        raise ValueError("a batch mixes tables with and without wild tiles: their action spaces "
                         f"differ ({NUM_ACTIONS_WILD} and {NUM_ACTIONS} indices)")
    return NUM_ACTIONS_WILD


def _write_batch(buf: bytearray, n: int, size: int, out: Optional[np.ndarray]) -> np.ndarray:
    data: np.ndarray = np.frombuffer(buf, dtype=np.bool_).reshape(n, size)
    if out is None:
        return np.array(data)
    if not isinstance(out, np.ndarray) or out.shape != (n, size):
        raise ValueError(f"out must be an array of shape ({n}, {size})")
    out[...] = data
    return out


def masks_from_states(states: Sequence[GameState], seats: Sequence[int],
                      picks: Optional[Sequence[Sequence[int]]] = None,
                      out: Optional[np.ndarray] = None) -> np.ndarray:
    """``bool[n, size]``: :func:`action_mask` of ``seats[i]`` in ``states[i]``
    (``picks[i]`` its exchange picks), written in one copy: a vector environment's masks without
    building an observation dict per environment. ``size`` as in
    :func:`masks_from_observations`."""
    n = len(states)
    if len(seats) != n or (picks is not None and len(picks) != n):
        raise ValueError(f"{n} states but {len(seats)} seats"
                         + ("" if picks is None else f" and {len(picks)} picks"))
    size = _batch_size([s.rules.has_wilds for s in states])
    buf = bytearray(n * size)
    for i, (state, seat) in enumerate(zip(states, seats)):
        p = _check_picks(picks[i]) if picks is not None and picks[i] else ()
        view = memoryview(buf)[i * size:(i + 1) * size]
        _fill_mask([a.id for a in state.legal_actions(seat)], None, p, view)
    return _write_batch(buf, n, size, out)


def _write(buf: bytearray, out: Optional[np.ndarray]) -> np.ndarray:
    view: np.ndarray = np.frombuffer(buf, dtype=np.bool_)
    if out is None:
        return np.array(view)
    if not isinstance(out, np.ndarray) or out.shape != (len(buf),):
        raise ValueError(f"out must be an array of shape ({len(buf)},)")
    out[...] = view
    return out


def hand_over_mask(out: Optional[np.ndarray] = None, size: Optional[int] = None) -> np.ndarray:
    """``bool[size]`` allowing only :data:`HAND_OVER_ACTION`: the environments' mask of a
    finished hand (``out``, optional, is filled instead of a new array). ``size``: the table's
    action space (:func:`num_actions`); by default ``out``'s length, else :data:`NUM_ACTIONS`.

    >>> [int(i) for i in hand_over_mask().nonzero()[0]]
    [136]
    >>> hand_over_mask(size=NUM_ACTIONS_WILD).shape
    (203,)
    """
    if size is None:
        size = len(out) if isinstance(out, np.ndarray) and out.ndim == 1 else NUM_ACTIONS
    if size not in (NUM_ACTIONS, NUM_ACTIONS_WILD):
        raise ValueError(f"an action space has {NUM_ACTIONS} or {NUM_ACTIONS_WILD} indices, "
                         f"got {size}")
    buf = bytearray(size)
    buf[HAND_OVER_ACTION] = 1
    return _write(buf, out)


def action_mask(state: GameState, seat: int, picks: Sequence[int] = (),
                out: Optional[np.ndarray] = None) -> np.ndarray:
    """``bool[num_actions(state.rules)]``: true exactly for the choices ``seat`` has now (all
    false when it is not pending). In the exchange, ``picks`` are the kinds already picked (fewer than the
    table's ``exchange_count``: 0, 1 or 2 of them, or 3 under 换四张) and the mask allows each kind
    that can still complete a legal exchange; ``out`` (optional) is filled instead of a new
    array.

    >>> import xueliu
    >>> state = xueliu.new_game("xueliu", seed=1)
    >>> mask = action_mask(state, 0, picks=(1,))   # after picking a 2m (seat 0 holds 2m 2m 7m)
    >>> [i - EXCHANGE_PICK for i in range(EXCHANGE_PICK, EXCHANGE_PICK + 27) if mask[i]]
    [1, 6]
    """
    picks = _check_picks(picks)
    buf = bytearray(num_actions(state.rules))
    ids = [a.id for a in state.legal_actions(seat)]
    _fill_mask(ids, None, picks, buf)
    return _write(buf, out)


def to_action(state: GameState, seat: int, index: int, picks: Sequence[int] = ()) -> Action:
    """The engine :class:`~xueliu.Action` of a masked ``index`` for ``seat`` now.

    An exchange pick is an action only as the last pick (the third; the fourth under 换四张):
    ``to_action(state, seat, 140 + c, picks=(a, b))`` is the exchange of ``a, b, c``; earlier
    picks raise ``ValueError`` (the environment keeps them). An index that is not a legal choice
    now raises ``ValueError``.

    >>> import xueliu
    >>> state = xueliu.new_game("xueliu", seed=1)
    >>> to_action(state, 0, EXCHANGE_PICK + 6, picks=(1, 1)).tiles   # 2m, 2m, then 7m
    ('2m', '2m', '7m')
    """
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"an action index is an int, got {type(index).__name__}")
    index = int(index)
    size = num_actions(state.rules)
    if not 0 <= index < size:
        raise ValueError(f"an action index is 0..{size - 1} at this table, got {index}")
    picks = _check_picks(picks)
    legal = state.legal_actions(seat)
    if index < ENGINE_IDS or index >= WILD_DISCARD:
        action = Action.from_id(index if index < ENGINE_IDS else index + _WILD_SHIFT)
        if action not in legal:
            raise ValueError(f"index {index} ({action!r}) is not legal for seat {seat} now")
        return action
    if index < MULTIPLIER_SLOT:
        count = next((len(a.tiles) for a in legal if a.tiles is not None), 3)
        if len(picks) != count - 1:
            raise ValueError(f"an exchange pick makes an action only as pick {count} of {count} "
                             f"(got {len(picks)} earlier picks); the environment chains them")
        kinds = tuple(sorted((*picks, index - EXCHANGE_PICK)))
        for a in legal:
            if a.kind == "exchange" and exchange_kinds(a.id) == kinds:
                return a
        raise ValueError(f"the exchange of {', '.join(_KIND_NAMES[k] for k in kinds)} is not "
                         f"legal for seat {seat} now")
    values = sorted(a.value for a in legal if a.kind == "multiplier" and a.value is not None)
    slot = index - MULTIPLIER_SLOT
    if slot >= len(values):
        raise ValueError(f"multiplier slot {slot} is not a choice for seat {seat} now "
                         f"(allowed: {values})")
    return Action("multiplier", value=values[slot])


def describe_index(index: int) -> str:
    """A readable name of an index: ``"discard 5p"``, ``"exchange pick 1m"``, ``"multiplier slot
    0"``, ``"swap_back 5m"`` (the indices of a table with wilds included)."""
    if not 0 <= index < NUM_ACTIONS_WILD:
        raise ValueError(f"an action index is 0..{NUM_ACTIONS_WILD - 1}, got {index}")
    if index < ENGINE_IDS or index >= WILD_DISCARD:
        a = Action.from_id(index if index < ENGINE_IDS else index + _WILD_SHIFT)
        what = a.tile or a.suit
        return a.kind if what is None else f"{a.kind} {what}"
    if index < MULTIPLIER_SLOT:
        return f"exchange pick {_KIND_NAMES[index - EXCHANGE_PICK]}"
    return f"multiplier slot {index - MULTIPLIER_SLOT}"
