"""``NeuralBot`` (``--bots neural``): a learned policy over the fixed action space, numpy only.

The bot reads nothing but its seat's ``obs_v1`` tensor (:mod:`xueliu.learn.encoders`: a function
of ``state.observation(seat)`` alone, docs/rules.md §7) and the mask of its legal indices
(:mod:`xueliu.learn.actions`); the network (:mod:`.neural_net`; the shipped one adds the core's
analysis channels of that tensor first, ``obs_v2``: :mod:`xueliu.learn.analysis`) gives one logit
per index and the bot takes the best allowed one (deterministic: no sampling at play time). The exchange (换三张)
is three picks, as in the environments: pick one kind, encode again with the pick in the
``exchange_picks_*`` channels, pick the second, then the third (a fourth under 换四张, for
weights trained with ``exchange_count = 4``; the shipped ones were not, and refuse it).

Three ways in, the same decision for the same view:

- ``act(observation, legal_actions)``: the JSON observation (any driver, programs' too);
- ``act_view(view, legal_actions)``: in-process play (``play_hand``, ``xueliu simulate``), the
  native encoder on the seat's public pieces;
- ``act_batch(states, seats)``: many seats of many hands in one forward pass of the network
  (training rollouts, batched arenas: :func:`decide_batch` is the loop's one call per step).

The weights carry the rules they were trained for (``xueliu`` and ``xuezhan`` for the shipped
file); any other rules are refused with :class:`~xueliu.bots.neural_net.UntrainedRulesError`
when the bot is made for them or a hand under them starts — never played badly in silence. Rules
with wild tiles (docs/rules.md §12) are refused so too, with a message of their own: ``obs_v1``
cannot show a wild.
"""

from __future__ import annotations

import os
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence,
                    Tuple, Union)

import numpy as np

from ..game import Action, GameState
from ..game.actions import exchange_kinds
from ..learn.actions import (EXCHANGE_PICK, MULTIPLIER_SLOT, NUM_ACTIONS,
                             _exchange_picks_allowed, _fill_mask)
from ..learn.encoders import encoder
from .base import Bot
from .neural_net import WILD_TILES_REFUSED, Network, UntrainedRulesError, load_network
from .neural_views import views_of

if TYPE_CHECKING:  # pragma: no cover
    from ..game.view import SeatView
    from ..rules import Rules

__all__ = ["NeuralBot", "decide_batch", "decide_logged", "Chooser", "masked_argmax"]

_OBS = encoder("obs_v1")

Chooser = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A policy over a batch: ``choose(x, mask) -> int[n]`` for ``x`` ``float32[n, 92, 27]`` and
``mask`` ``bool[n, 175]``, each answer an allowed index of its row."""


def masked_argmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The best allowed index of each row (the lowest index among equal logits)."""
    return np.where(mask, logits, -np.inf).argmax(axis=1)  # type: ignore[no-any-return]


def _action(legal: Sequence[Action], index: int, picks: Tuple[int, ...]) -> Action:
    """The legal action of a chosen index (the exchange: the kinds of ``picks`` + the last)."""
    if index < EXCHANGE_PICK:
        for a in legal:
            if a.id == index:
                return a
    elif index < MULTIPLIER_SLOT:
        kinds = sorted((*picks, index - EXCHANGE_PICK))
        for a in legal:
            if a.kind == "exchange" and a.tiles is not None \
                    and sorted(_KINDS[t] for t in a.tiles) == kinds:
                return a
    else:
        values = sorted(a.id for a in legal if a.kind == "multiplier")
        slot = index - MULTIPLIER_SLOT
        if slot < len(values):
            return Action.from_id(values[slot])
    raise AssertionError(f"index {index} was allowed by the mask but matches no legal action")


_KINDS = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}


def decide_batch(states: Sequence[GameState], seats: Sequence[int], choose: Chooser,
                 legal: Optional[Sequence[Sequence[Action]]] = None,
                 record: Optional[List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]]
                 = None) -> List[Action]:
    """One decision for each seat ``seats[i]`` of ``states[i]`` (pending there), through
    ``choose`` on the batch's ``obs_v1`` tensors and masks: the exchange takes three rounds of
    picks, four under 换四张 (only the rows still picking). ``record``, when given, receives one ``(row, x, mask,
    index)`` tuple of arrays per round (``row``: positions in the batch), what a trainer keeps of
    the decisions."""
    n = len(states)
    if len(seats) != n:
        raise ValueError(f"{n} states but {len(seats)} seats")
    if n == 0:
        return []
    if legal is None:
        legal = [s.legal_actions(q) for s, q in zip(states, seats)]
    for i, lst in enumerate(legal):
        if not lst:
            raise ValueError(f"seat {seats[i]} of states[{i}] has nothing to decide")
    # How many picks each row's exchange takes (1: not an exchange, one round).
    count = [_exchange_count(lst) for lst in legal]
    ids = [[a.id for a in lst] for lst in legal]
    # An exchange's kinds, read once for all its rounds of picks (read each round, they were
    # most of a batched hand's mask time: dozens of triples, three rounds, every seat).
    kinds = [[exchange_kinds(a) for a in row] if c > 1 and all(a.kind == "exchange" for a in lst)
             else None for row, c, lst in zip(ids, count, legal)]
    picks: List[Tuple[int, ...]] = [()] * n
    answers: List[Optional[Action]] = [None] * n
    rows = np.arange(n)
    for _ in range(max(count)):
        now = [int(i) for i in rows]
        x = _OBS.encode_batch([states[i] for i in now], [seats[i] for i in now],
                              picks=[picks[i] for i in now])
        # One buffer for the whole round's masks, each row filled through a view of it: no
        # per-row allocation and copy (the masks were an eighth of a batched game's time).
        buf = bytearray(len(now) * NUM_ACTIONS)
        view = memoryview(buf)
        for j, i in enumerate(now):
            row = view[j * NUM_ACTIONS:(j + 1) * NUM_ACTIONS]
            exchanges = kinds[i]
            if exchanges is not None:  # what _fill_mask does with exchanges only
                _exchange_picks_allowed(exchanges, picks[i], row)
            else:
                _fill_mask(ids[i], None, picks[i], row)
        mask = np.frombuffer(buf, np.bool_).reshape(len(now), NUM_ACTIONS)
        index = np.asarray(choose(x, mask), np.int64)
        if index.shape != (len(rows),) or not mask[np.arange(len(rows)), index].all():
            raise ValueError("the policy chose an index its mask does not allow")
        if record is not None:
            record.append((rows.copy(), x, mask, index))
        still = []
        for j, i in enumerate(now):
            k = int(index[j])
            if EXCHANGE_PICK <= k < MULTIPLIER_SLOT and len(picks[i]) < count[i] - 1:
                picks[i] = (*picks[i], k - EXCHANGE_PICK)
                still.append(i)
            else:
                answers[i] = _action(legal[i], k, picks[i])
        rows = np.array(still, np.int64)
        if not len(rows):
            break
    assert all(a is not None for a in answers)
    return answers  # type: ignore[return-value]


def decide_logged(network: Network, states: Sequence[GameState], seats: Sequence[int],
                  legal: Optional[Sequence[Sequence[Action]]] = None
                  ) -> Tuple[List[Action], Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """:func:`decide_batch` with the network's best allowed index, and what its first round saw:
    ``(x, mask, logits)`` of every row (``None`` for an empty batch) — what branch points and
    close calls keep of a decision (the exchange's later picks aside)."""
    seen: List[np.ndarray] = []

    def choose(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = network.forward(x)
        seen.append(logits)
        return masked_argmax(logits, mask)

    rounds: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    chosen = decide_batch(states, seats, choose, legal=legal, record=rounds)
    return chosen, ((rounds[0][1], rounds[0][2], seen[0]) if rounds else None)


def _exchange_count(legal: Sequence[Action]) -> int:
    """The picks of this decision: the tiles of an exchange (3 or 4), else 1."""
    tiles = legal[0].tiles
    return 1 if tiles is None else len(tiles)


class NeuralBot(Bot):
    """The learned policy of the module docstring. ``weights``: a weights file (default: the
    shipped ``xueliu/bots/weights/neural_v1.npz``). ``views_margin``: the close calls asked of
    the twelve renamed tables (:mod:`.neural_views`; default the weights file's, 0 — the network
    alone — for a file without). ``rules``, when given, are checked at once
    (``UntrainedRulesError`` if the weights were not trained for them); ``seed`` is accepted for
    the uniform bot constructor and unused (the bot is deterministic).

    >>> import xueliu
    >>> from xueliu.bots import NeuralBot, GreedyBot, play_hand
    >>> state = play_hand(xueliu.new_game("xuezhan", seed=2), [NeuralBot()] + [GreedyBot()] * 3)
    >>> state.is_over
    True
    """

    name = "neural"

    def __init__(self, seed: Optional[int] = None, rules: Optional[Rules] = None,
                 weights: Optional[Union[str, os.PathLike[str]]] = None,
                 views_margin: Optional[float] = None) -> None:
        self.network: Network = load_network(weights)
        margin = self.network.views_margin if views_margin is None else views_margin
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0:
            raise ValueError(f"views_margin is a number of nats >= 0, got {views_margin!r}")
        self.views_margin = float(margin)
        self._views = views_of(self.network) if self.views_margin > 0 else None
        self._checked: Optional[Rules] = None
        if rules is not None:
            self.check_rules(rules)

    def check_rules(self, rules: Rules) -> str:
        """The trained preset ``rules`` are; ``UntrainedRulesError`` if none."""
        preset = _preset_of(self.network, rules)
        self._checked = rules
        return preset

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        if rules is not self._checked:
            self.check_rules(rules)

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The bot's :data:`Chooser`: the best allowed index of each row by the network — at a
        close call (``views_margin``) by the average of its twelve renamed views."""
        if self._views is not None:
            return self._views.choose(x, mask, self.views_margin)
        return masked_argmax(self.network.forward(x), mask)

    def _check_state_rules(self, rules: Rules) -> None:
        if rules is not self._checked:
            self.check_rules(rules)

    def act_batch(self, states: Sequence[GameState], seats: Sequence[int]) -> List[Action]:
        """The decision of seat ``seats[i]`` in ``states[i]`` for every ``i``, in one forward pass
        of the network per round (one round; three while an exchange is picked)."""
        for s in states:
            self._check_state_rules(s.rules)
        return decide_batch(states, seats, self.choose)

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        """In-process play: the seat's ``obs_v1`` from its public pieces (the native encoder reads
        from the hand exactly what ``view`` and ``observation(seat)`` show, nothing hidden)."""
        view.phase  # noqa: B018 - raises if the view is of an earlier moment
        state = view._g  # the hand the view reads; the encoder takes only the seat's pieces
        if not isinstance(state, GameState):  # pragma: no cover - views are made by GameState
            return self.act(view.observation(), legal_actions)
        self._check_state_rules(state.rules)
        return decide_batch([state], [view.seat], self.choose, legal=[legal_actions])[0]

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """The same decision from the seat's JSON observation (the encoder's dict path)."""
        if not legal_actions:
            raise ValueError("NeuralBot was asked to act with no legal action")
        if observation.get("wilds") is not None:  # a table with wild tiles
            raise UntrainedRulesError(WILD_TILES_REFUSED)
        if self._checked is None:
            mode = observation.get("mode")
            if mode is not None and not any(p.get("mode") == mode
                                            for p in self.network.presets.values()):
                raise ValueError(f"the neural bot's weights were not trained for mode {mode!r}")
        picks: Tuple[int, ...] = ()
        count = _exchange_count(legal_actions)
        for _ in range(count):
            x = _OBS.encode(observation, picks=picks)[None]
            mask = np.zeros((1, NUM_ACTIONS), np.bool_)
            _mask_with(legal_actions, observation, picks, mask[0])
            k = int(self.choose(x, mask)[0])
            if EXCHANGE_PICK <= k < MULTIPLIER_SLOT and len(picks) < count - 1:
                picks = (*picks, k - EXCHANGE_PICK)
                continue
            return _action(legal_actions, k, picks)
        raise AssertionError("an exchange ends with its last pick")  # pragma: no cover


_PRESETS: Dict[Tuple[int, int], Tuple[Network, Rules, str]] = {}


def _preset_of(network: Network, rules: Rules) -> str:
    """``network.preset_of(rules)``, remembered per network and (frozen) rules object:
    ``xueliu simulate`` makes a bot per seat and hand, and the check — the rules as canonical
    JSON, compared with each trained preset's — was a seventh of a batched neural hand."""
    key = (id(network), id(rules))
    hit = _PRESETS.get(key)
    if hit is not None and hit[0] is network and hit[1] is rules:
        return hit[2]
    preset = network.preset_of(rules)  # raises for untrained rules: nothing remembered
    if len(_PRESETS) >= 64:
        _PRESETS.clear()
    _PRESETS[key] = (network, rules, preset)
    return preset


def _mask_with(legal: Sequence[Action], observation: Mapping[str, Any], picks: Tuple[int, ...],
               out: np.ndarray) -> None:
    pm = observation.get("player_multipliers")
    allowed = pm["allowed"] if isinstance(pm, Mapping) else None
    buf = bytearray(NUM_ACTIONS)
    _fill_mask([a.id for a in legal], allowed, picks, buf)
    out[:] = np.frombuffer(buf, np.bool_)
