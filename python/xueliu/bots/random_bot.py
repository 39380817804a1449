"""RandomBot: a uniformly random legal action, reproducible from its seed (reseeded each hand)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from .base import Bot

if TYPE_CHECKING:  # pragma: no cover
    from ..game.actions import Action
    from ..game.view import SeatView
    from ..rules import Rules

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions (it does not even prefer a win).

    >>> bot = RandomBot(seed=7)
    >>> bot.act({}, ["a", "b", "c"]) in ("a", "b", "c")
    True

    The same seed and the same sequence of questions give the same answers. Each
    :meth:`start_hand` reseeds it from the hand's seed, so inside the lifecycle (``play_hand``,
    ``xueliu simulate``, the environments) its choices depend on the hand's seed alone and the
    constructor's ``seed`` only on answers asked before any hand started. ``rules`` is accepted
    for a uniform bot constructor and ignored.
    """

    name = "random"

    def __init__(self, seed: Optional[int] = None, rules: Any = None) -> None:
        self._rng = random.Random(seed)

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("RandomBot was asked to act with no legal action")
        return legal_actions[self._rng.randrange(len(legal_actions))]

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        # It looks at nothing, so it reads nothing: the same choice as act().
        if not legal_actions:
            raise ValueError("RandomBot was asked to act with no legal action")
        return legal_actions[self._rng.randrange(len(legal_actions))]
