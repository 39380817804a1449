"""``parallel_env``: a hand as a PettingZoo parallel environment — the pending seats act together.

>>> from xueliu.envs import parallel_env
>>> env = parallel_env(rules="xueliu")
>>> observations, infos = env.reset(seed=5)
>>> sorted(observations) == env.agents == ["player_0", "player_1", "player_2", "player_3"]
True

The agents are the table's seats (``player_0`` … ``player_{n-1}``, ``rules.players`` of them).

Each step takes one action per agent; only the seats that must decide now (``action_mask`` not
all zero) are read, the others' actions are ignored. A joint decision is applied once every
pending seat has answered (an exchange takes three steps of one pick each, four under 换四张).
Observations, rewards (base units, ``"final"`` or ``"transfers"``) and the treatment of an index
the mask does not allow are as in :func:`~xueliu.envs.pettingzoo_env`. Every agent is terminated when the hand ends,
its observation then allowing exactly pass (:data:`~xueliu.learn.HAND_OVER_ACTION`, so a masked
softmax over it stays finite); a 血战到底 winner that has left play stays an agent with an empty mask until then, because it
may still receive end-of-hand payments and a terminated parallel agent receives nothing more
(``infos[agent]["left_play"]`` says it has left).
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..game import GameState
from ..learn import Encoder, hand_over_mask
from ..rules import Rules
from .common import (
    Episodes, action_space, agents_of, check_reward, observation_space, render_text,
    resolve_encoder, resolve_rules,
)
from .table import Table

__all__ = ["XueliuParallelEnv", "parallel_env"]

_Obs = Dict[str, Dict[str, np.ndarray]]


class XueliuParallelEnv(ParallelEnv[str, Dict[str, np.ndarray], Optional[int]]):
    """See the module docstring; build it with :func:`parallel_env`."""

    metadata = {"name": "xueliu_v0", "render_modes": ["ansi"]}

    def __init__(self, rules: Union[str, Rules] = "xueliu", reward: str = "final",
                 encoder: Union[str, Encoder] = "obs_v1", render_mode: Optional[str] = None,
                 **knobs: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        self.rules = resolve_rules(rules, knobs)
        self.encoder = resolve_encoder(encoder, self.rules)
        self.reward_mode = check_reward(reward)
        self.render_mode = render_mode
        self.possible_agents = agents_of(self.rules)
        self.agents = list(self.possible_agents)
        self._table = Table(self.rules, reward, self.encoder)
        self._episodes = Episodes()

    @property
    def game(self) -> GameState:
        """The hand being played."""
        return self._table.state

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return observation_space(self.encoder, self.rules)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return action_space(self.rules)

    def reset(self, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[_Obs, Dict[str, Dict[str, Any]]]:
        self._table.reset(*self._episodes.next(seed))
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {"left_play": False} for a in self.agents}

    def step(self, actions: Dict[str, Any]) -> Tuple[_Obs, Dict[str, float], Dict[str, bool],
                                                     Dict[str, bool], Dict[str, Dict[str, Any]]]:
        t = self._table
        if t.state.is_over:
            raise ValueError("the hand is over: reset the environment")
        agents = self.possible_agents
        rewards = {a: 0.0 for a in self.agents}
        illegal = dict.fromkeys(self.agents, False)
        for seat in t.waiting():
            agent = agents[seat]
            paid = t.answer(seat, actions.get(agent))
            illegal[agent] = t.illegal
            if paid is not None:
                for q, r in enumerate(paid):
                    rewards[agents[q]] += r
        over = t.state.is_over
        obs = self._observations()
        terminations: Dict[str, bool] = {a: over for a in self.agents}
        truncations: Dict[str, bool] = {a: False for a in self.agents}
        infos = {a: {"left_play": agents.index(a) in t.left, "illegal_action": illegal[a]}
                 for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _observations(self) -> _Obs:
        t = self._table
        over = t.state.is_over
        out = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            mask = hand_over_mask(size=t.size) if over else t.mask(seat)  # the end: exactly pass
            out[agent] = {"observation": t.encode(seat), "action_mask": mask.astype(np.int8)}
        return out

    def render(self) -> Optional[str]:
        return render_text(self._table.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def parallel_env(rules: Union[str, Rules] = "xueliu", reward: str = "final",
                 **knobs: Any) -> XueliuParallelEnv:
    """The parallel environment (arguments as for :func:`~xueliu.envs.pettingzoo_env`)."""
    return XueliuParallelEnv(rules=rules, reward=reward, **knobs)
