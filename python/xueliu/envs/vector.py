"""``VectorEnv``: ``num_envs`` single-seat hands stepped together, encoded into one buffer.

>>> import numpy as np
>>> from xueliu.envs import VectorEnv
>>> envs = VectorEnv(4, opponents=["random"] * 3)
>>> obs, info = envs.reset(seed=7)
>>> obs["observation"].shape[0], obs["action_mask"].shape
(4, (4, 175))
>>> rng = np.random.default_rng(0)
>>> actions = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
>>> obs, rewards, terminations, truncations, info = envs.step(actions)

It follows ``gymnasium.vector.VectorEnv``: batched observations ``{"observation": float32[n, C,
27], "action_mask": int8[n, NUM_ACTIONS]}`` (``NUM_ACTIONS_WILD`` at a table with wild tiles, whose
observations are ``obs_wild_v1``), ``float64[n]`` rewards and ``bool[n]`` terminations
and truncations (always false: a hand always ends), and autoreset — ``"next_step"`` (Gymnasium's
default: the step after an episode ends resets that hand and ignores its action) or
``"same_step"`` (the new hand starts in the same step; the last observation is in
``info["final_obs"]``). The mask of a finished hand allows only pass
(:data:`~xueliu.learn.HAND_OVER_ACTION`): in ``"next_step"`` mode that is the mask the ignored
step is taken from, and a masked softmax over it stays finite. Environment ``i`` behaves exactly
as ``SingleSeatEnv`` reset with seed ``seed + i`` (with bot objects as opponents, environment 0
plays the objects given and each other environment its own ``copy.deepcopy`` of them).

``copy=True`` (the default, as Gymnasium's) returns new observation arrays each step, so a rollout
may keep them; ``copy=False`` is the fast option: the same two preallocated buffers every step,
overwritten by the next (copy what you keep).
"""

from __future__ import annotations

import copy as _copy
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as _GymVectorEnv
from gymnasium.vector.utils import batch_space

from ..bots import ExternalBot
from ..learn import HAND_OVER_ACTION, Encoder, hand_over_mask, masks_from_states, num_actions
from ..rules import Rules
from .common import (
    Episodes, action_space, check_reward, check_seat, check_seed, observation_space,
    resolve_encoder, resolve_rules,
)
from .seat_game import Opponent, SeatGame, check_opponents, default_opponents

__all__ = ["VectorEnv"]

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
          AutoresetMode.NEXT_STEP.value: AutoresetMode.NEXT_STEP,
          AutoresetMode.SAME_STEP.value: AutoresetMode.SAME_STEP}


class VectorEnv(_GymVectorEnv[Dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` hands, each one learning seat against ``players - 1`` ``opponents`` (``None``:
    greedy bots; arguments as for
    ``SingleSeatEnv``; ``copy`` as in the module docstring). Registered as the vector entry point
    of ``"xueliu/SingleSeat-v0"``: ``gymnasium.make_vec("xueliu/SingleSeat-v0", num_envs=n,
    vectorization_mode="vector_entry_point", ...)`` returns one (also ``make_vec``'s default)."""

    def __init__(self, num_envs: int, opponents: Optional[Sequence[Opponent]] = None,
                 rules: Union[str, Rules] = "xueliu", seat: Optional[int] = None,
                 reward: str = "final", encoder: Union[str, Encoder] = "obs_v1",
                 autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
                 copy: bool = True, bot_timeout: float = 5.0, bot_observation: bool = False,
                 **knobs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else \
            _MODES.get(str(autoreset_mode))
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode is 'next_step' or 'same_step', got "
                             f"{autoreset_mode!r}")
        self.rules = resolve_rules(rules, knobs)
        seat = check_seat(seat, self.rules)
        self.encoder = resolve_encoder(encoder, self.rules)
        self.reward_mode = check_reward(reward)
        opponents = check_opponents(default_opponents(self.rules) if opponents is None
                                    else opponents, self.rules.players)
        if num_envs > 1 and any(isinstance(o, ExternalBot) for o in opponents):
            raise ValueError("an ExternalBot object is one program, which cannot play in several "
                             "environments: give it as 'cmd:COMMAND' (each environment starts "
                             "its own)")
        if not isinstance(copy, bool):
            raise TypeError(f"copy is True or False, got {copy!r}")
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.copy = copy
        self.single_observation_space = observation_space(self.encoder, self.rules)
        self.single_action_space = action_space(self.rules)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # Each environment its own bot objects: a bot keeps per-hand state (a RandomBot its
        # generator), which one object shared by every environment would mix up.
        self._plays = [SeatGame(self.rules, opponents if i == 0 else
                                [o if isinstance(o, str) else _copy.deepcopy(o)
                                 for o in opponents],
                                reward, seat, bot_timeout, bot_observation)
                       for i in range(num_envs)]
        self._episodes = [Episodes() for _ in range(num_envs)]
        # The one preallocated output: observations and masks (bools, handed out as int8).
        self._x = np.zeros((num_envs, *self.encoder.shape), self.encoder.dtype)
        self._mask = np.zeros((num_envs, num_actions(self.rules)), np.bool_)
        self._mask8 = self._mask.view(np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)

    @property
    def games(self) -> List[Any]:
        """The hands being played, one per environment."""
        return [p.state for p in self._plays]

    @property
    def seats(self) -> List[int]:
        """The learning seat of each environment's current hand."""
        return [p.seat for p in self._plays]

    def reset(self, *, seed: Union[int, Sequence[Optional[int]], None] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, np.ndarray],
                                                                 Dict[str, Any]]:
        """Deals a new hand in every environment: ``seed`` an int (environment ``i`` gets
        ``seed + i``), a list of per-environment seeds, or ``None``."""
        n = self.num_envs
        if seed is None:
            seeds: List[Optional[int]] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)  # type: ignore[arg-type]
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} environments")
        for i, s in enumerate(seeds):
            self._reset_one(i, check_seed(s))
        self._terminations[:] = False
        self._truncations[:] = False
        self._autoreset[:] = False
        return self._output(), self._info([False] * n)

    def step(self, actions: Any) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, Dict[str, Any]]:
        n = self.num_envs
        if len(actions) != n:
            raise ValueError(f"{len(actions)} actions for {n} environments")
        rewards = self._rewards
        terms = self._terminations
        illegal = [False] * n
        finals: Dict[int, Tuple[Dict[str, np.ndarray], Dict[str, Any]]] = {}
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        for i, play in enumerate(self._plays):
            if self._autoreset[i]:
                self._reset_one(i, None)
                rewards[i] = 0.0
                terms[i] = False
                continue
            r, t, bad = play.step(actions[i], self._mask[i])
            rewards[i] = r
            terms[i] = t
            illegal[i] = bad
            if t and same_step:
                finals[i] = self._final(i, bad)
                self._reset_one(i, None)
        if not same_step:
            self._autoreset[:] = terms
        out = self._output()
        info = self._info(illegal)
        if finals:
            info["final_obs"] = np.array([finals[i][0] if i in finals else None
                                          for i in range(n)], dtype=object)
            info["final_info"] = np.array([finals[i][1] if i in finals else None
                                           for i in range(n)], dtype=object)
            info["_final_obs"] = info["_final_info"] = np.array([i in finals for i in range(n)])
        return out, rewards.copy(), terms.copy(), self._truncations.copy(), info

    def close_extras(self, **kwargs: Any) -> None:
        for play in self._plays:
            play.close()

    # -- helpers ---------------------------------------------------------------------------------

    def _reset_one(self, i: int, seed: Optional[int]) -> None:
        self._plays[i].reset(*self._episodes[i].next(seed))

    def _output(self) -> Dict[str, np.ndarray]:
        # Straight from the hands: the encoders' native fast path and the masks from the legal
        # actions (no observation dict per environment and step).
        plays = self._plays
        states = [p.state for p in plays]
        seats = [p.seat for p in plays]
        picks = [p.picks for p in plays]
        self.encoder.encode_batch(states, seats, out=self._x, picks=picks)
        masks_from_states(states, seats, picks, out=self._mask)
        for i, state in enumerate(states):
            if state.is_over:  # the step the autoreset ignores may take pass (never a NaN)
                self._mask[i, HAND_OVER_ACTION] = True
        if self.copy:
            return {"observation": self._x.copy(), "action_mask": self._mask8.copy()}
        return {"observation": self._x, "action_mask": self._mask8}

    def _final(self, i: int, illegal: bool) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        play = self._plays[i]
        obs = play.observation()
        enc = self.encoder
        x = (enc.encode(obs) if enc.from_observation else enc.encode(play.state, play.seat))
        size = self._mask.shape[1]
        return ({"observation": x, "action_mask": hand_over_mask(size=size).astype(np.int8)},
                {"seat": play.seat, "illegal_action": illegal})

    def _info(self, illegal: List[bool]) -> Dict[str, Any]:
        n = self.num_envs
        every = np.ones(n, np.bool_)
        return {"seat": np.array([p.seat for p in self._plays]), "_seat": every,
                "illegal_action": np.array(illegal), "_illegal_action": every}
