"""A hand with every seat of the table (``rules.players``) as an agent, for the PettingZoo environments.

Every decision is collected seat by seat and applied in one ``state.step`` once each pending seat
has answered (the exchange, the void, player multipliers and claim windows are joint decisions in
the engine, so no seat's answer is seen before the others are in). An exchange is three picks (four under 换四张).
Rewards are in base units, per seat, for what the last applied decision paid.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set

import numpy as np

from ..game import GameState, new_game
from ..learn import Encoder, mask_from_observation, num_actions
from ..rules import Rules
from .common import choose, episode_seed, stake

__all__ = ["Table"]


class Table:
    """One hand played by ``rules.players`` agents (see the module docstring)."""

    def __init__(self, rules: Rules, reward: str, encoder: Encoder) -> None:
        self.rules = rules
        self.encoder = encoder
        self._final = reward == "final"
        self.players = n = rules.players
        self.size = num_actions(rules)
        """The table's action space: 175 indices, 203 with wild tiles."""
        self.state: GameState = new_game(rules, seed=0)  # replaced by reset
        self.answers: Dict[int, Any] = {}
        self.picks: List[List[int]] = [[] for _ in range(n)]
        self.left: Set[int] = set()
        self._obs: List[Optional[Dict[str, Any]]] = [None] * n
        self._net = [0] * n
        self._stake = 1
        self._pending: List[int] = []
        self.illegal = False
        """Whether the last answer was an index its mask did not allow (played as the default)."""
        self.reset(0, 0)  # a hand to look at before the first reset

    def reset(self, master: int, episode: int) -> None:
        self.state = new_game(self.rules, seed=episode_seed(master, episode, "game"),
                              dealer=episode_seed(master, episode, "dealer") % self.players)
        self.answers = {}
        self.picks = [[] for _ in range(self.players)]
        self.left = set()
        self._obs = [None] * self.players
        self._net = [0] * self.players
        self._stake = stake(self.state)
        self._pending = self.state.pending()

    def waiting(self) -> List[int]:
        """The pending seats that have not answered yet, in seat order."""
        return [q for q in self._pending if q not in self.answers]

    def observation(self, seat: int) -> Dict[str, Any]:
        obs = self._obs[seat]
        if obs is None:
            obs = self._obs[seat] = self.state.observation(seat)
        return obs

    def mask(self, seat: int) -> np.ndarray:
        """The seat's mask: its choices when it is still to answer, else all false."""
        if seat in self._pending and seat not in self.answers:
            return mask_from_observation(self.observation(seat), self.picks[seat])
        return np.zeros(self.size, np.bool_)

    def encode(self, seat: int) -> np.ndarray:
        enc = self.encoder
        if enc.from_observation:
            return enc.encode(self.observation(seat), picks=self.picks[seat])
        return enc.encode(self.state, seat, picks=self.picks[seat])

    def answer(self, seat: int, index: Any) -> Optional[List[float]]:
        """Takes ``seat``'s answer ``index`` (docs/rules.md §8's default when the mask does not allow
        it). Returns ``None`` while the decision waits for more answers (or picks), else each
        seat's reward from applying it; ``self.illegal`` tells whether the index was refused."""
        action, self.illegal = choose(lambda: self.observation(seat), self.mask(seat),
                                      self.picks[seat], index, self.state.rules.exchange_count)
        if action is None:
            return None
        self.answers[seat] = action
        if self.waiting():
            return None
        return self._apply()

    def _apply(self) -> List[float]:
        state = self.state
        state.step(self.answers)
        self.answers = {}
        self._obs = [None] * self.players
        self._pending = state.pending()
        st = state.settlement()
        if state.rules.mode != "xueliu":  # 血战, 倒倒胡: a winner leaves play
            self.left.update(w.seat for w in st.wins)
        net = st.net
        if self._final:
            if not state.is_over:
                return [0.0] * self.players
            return [n / self._stake for n in net]
        rewards = [(net[q] - self._net[q]) / self._stake for q in range(self.players)]
        self._net = list(net)
        return rewards
