"""Many hands at once with the policy's seats decided in one batch per step: the loop of batched
arenas and of training rollouts (a vector-environment loop without the Gym wrapping).

Each step of the loop collects every pending seat of every unfinished hand that the policy plays
(``POLICY`` in the seating), decides them with one :func:`~xueliu.bots.neural.decide_batch` call
— one forward pass of the network for the whole batch — asks the other seats' bots one by one
(``act_view``, as ``xueliu simulate`` does), and steps every hand. The hands, their seeds and the
lifecycle of the other bots are the caller's (:mod:`xueliu.train.evaluate` reproduces
``simulate``'s duplicate hands exactly).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..game import Action, GameState
from .neural import Chooser, decide_batch

__all__ = ["POLICY", "play_batched", "Decisions"]

POLICY = "policy"
"""The seat marker of the seats the batched policy plays."""

Decisions = List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
"""What :func:`play_batched` records per batch round: ``(hand, seat, x, mask, index)`` arrays
(hand positions in the list of states, seats, ``obs_v1`` tensors, masks, chosen indices)."""


def play_batched(states: Sequence[GameState], seating: Sequence[Sequence[Any]],
                 choose: Chooser, record: Optional[Decisions] = None) -> None:
    """Plays every hand of ``states`` to its end; ``seating[h][seat]`` is :data:`POLICY` or a bot
    object (started by the caller). ``record`` receives the policy's decisions (:data:`Decisions`)."""
    if len(seating) != len(states):
        raise ValueError(f"{len(states)} hands but {len(seating)} seatings")
    live = [h for h, s in enumerate(states) if not s.is_over]
    while live:
        batch: List[Tuple[int, int]] = []
        answers: Dict[int, Dict[int, Action]] = {h: {} for h in live}
        for h in live:
            state = states[h]
            for seat in state.pending():
                bot = seating[h][seat]
                if bot is POLICY:
                    batch.append((h, seat))
                else:
                    legal = state.legal_actions(seat)
                    act_view = getattr(bot, "act_view", None)
                    answers[h][seat] = (act_view(state.view(seat), legal) if act_view is not None
                                        else bot.act(state.observation(seat), legal))
        if batch:
            rounds: Optional[List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]] = (
                [] if record is not None else None)
            chosen = decide_batch([states[h] for h, _ in batch], [q for _, q in batch], choose,
                                  record=rounds)
            for (h, seat), action in zip(batch, chosen):
                answers[h][seat] = action
            if record is not None and rounds is not None:
                hands = np.array([h for h, _ in batch], np.int64)
                seats = np.array([q for _, q in batch], np.int64)
                for rows, x, mask, index in rounds:
                    record.append((hands[rows], seats[rows], x, mask, index))
        for h in live:
            if answers[h]:
                states[h].step(answers[h])
        live = [h for h in live if not states[h].is_over]
