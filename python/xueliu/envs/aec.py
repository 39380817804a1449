"""``pettingzoo_env``: a hand as a PettingZoo AEC environment, agents ``player_0`` …
``player_{n-1}`` for the ``players`` seats of its rules (four by default; docs/rules.md §11).

>>> from xueliu.envs import pettingzoo_env
>>> env = pettingzoo_env(rules="xuezhan", reward="transfers")
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].shape[1], int(obs["action_mask"].sum()) > 0
('player_0', 27, True)

Agents act one at a time: the joint decisions (the exchange — three picks each, four under 换四张 —, the void, player
multipliers, claim windows) are asked of the pending seats in seat order, and their answers are
applied together once all are in, so no seat sees another's answer first. Each observation is
``{"observation": float32[C, 27], "action_mask": int8[NUM_ACTIONS]}`` (at a table with wild tiles,
docs/rules.md §12: ``obs_wild_v1`` and ``NUM_ACTIONS_WILD`` indices); the mask is all zero for
an agent that is not selected, and a terminated agent's allows exactly pass
(:data:`~xueliu.learn.HAND_OVER_ACTION`), so a masked softmax over its last observation stays
finite (its last step takes ``None`` or that pass). Rewards are in base units (``"final"``: the settlement net at the
end; ``"transfers"``: each payment as it happens). In 血战到底 a winner is ``terminated`` when it
leaves play; it stays among the agents until the hand ends (a winner still receives end-of-hand
payments) and takes its last step then, with everyone. An index the mask does not allow is played
as docs/rules.md §8's default and reported as ``infos[agent]["illegal_action"]``. The hand being played is
``env.unwrapped.game``.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..game import GameState
from ..learn import HAND_OVER_ACTION, Encoder, hand_over_mask
from ..rules import Rules
from .common import (
    Episodes, action_space, agents_of, check_reward, observation_space, render_text,
    resolve_encoder, resolve_rules,
)
from .table import Table

__all__ = ["XueliuAECEnv", "pettingzoo_env", "AGENTS"]

AGENTS = ["player_0", "player_1", "player_2", "player_3"]
"""The agents of the default four-seat table (``agents_of(rules)`` for any table)."""


class XueliuAECEnv(AECEnv[str, Dict[str, np.ndarray], Optional[int]]):
    """See the module docstring; build it with :func:`pettingzoo_env`."""

    metadata = {"name": "xueliu_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: Union[str, Rules] = "xueliu", reward: str = "final",
                 encoder: Union[str, Encoder] = "obs_v1", render_mode: Optional[str] = None,
                 **knobs: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        self.rules = resolve_rules(rules, knobs)
        self.encoder = resolve_encoder(encoder, self.rules)
        self.reward_mode = check_reward(reward)
        self.render_mode = render_mode
        self.possible_agents = agents_of(self.rules)
        self.agents = list(self.possible_agents)
        self._table = Table(self.rules, reward, self.encoder)
        self._action_space = action_space(self.rules)
        self._episodes = Episodes()
        self._start()

    @property
    def game(self) -> GameState:
        """The hand being played."""
        return self._table.state

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return observation_space(self.encoder, self.rules)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self._table.reset(*self._episodes.next(seed))
        self._start()

    def _start(self) -> None:
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in agents}
        self._select()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        t = self._table
        if self.terminations[agent] or self.truncations[agent]:
            mask = hand_over_mask(size=t.size)  # its last observation: exactly pass, never 0
        elif agent == self.agent_selection:
            mask = t.mask(seat)
        else:
            mask = np.zeros(t.size, np.bool_)
        return {"observation": t.encode(seat), "action_mask": mask.astype(np.int8)}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # the pass its mask offers is taken as PettingZoo's None
            is_pass = action is not None and not isinstance(action, bool) \
                and isinstance(action, (int, np.integer)) and int(action) == HAND_OVER_ACTION
            self._was_dead_step(None if is_pass else action)
            return
        seat = self.possible_agents.index(agent)
        t = self._table
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        paid = t.answer(seat, action)
        self.infos[agent] = {"illegal_action": t.illegal}
        if paid is not None:
            agents = self.possible_agents
            for q, r in enumerate(paid):
                a = agents[q]
                if a in self.rewards:
                    self.rewards[a] = r
            over = t.state.is_over
            for q, a in enumerate(agents):
                if a in self.terminations and (over or q in t.left):
                    self.terminations[a] = True
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """The next agent to act: the first pending seat still to answer; once the hand is over,
        the agents take their last steps in seat order."""
        t = self._table
        if t.state.is_over:
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[t.waiting()[0]]

    def render(self) -> Optional[str]:
        return render_text(self._table.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def pettingzoo_env(rules: Union[str, Rules] = "xueliu", reward: str = "final",
                   **knobs: Any) -> XueliuAECEnv:
    """The AEC environment (see the module docstring). ``rules``: a preset name or a
    :class:`~xueliu.Rules`; ``reward``: ``"final"`` or ``"transfers"``; other keywords:
    ``encoder="obs_v1"`` (or ``"oracle_v1"``), ``render_mode=None`` (or ``"ansi"``), and any
    rule knob (docs/rules.md §9 names), replaced on the rules."""
    return XueliuAECEnv(rules=rules, reward=reward, **knobs)
