"""``xueliu/SingleSeat-v0``: one learning seat against bots in the table's other seats (three at
the default table, ``rules.players - 1`` in general), as a Gymnasium environment.

>>> import gymnasium, xueliu.envs                     # importing xueliu.envs registers the id
>>> env = gymnasium.make("xueliu/SingleSeat-v0", opponents=["random"] * 3, rules="xuezhan")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), obs["observation"].shape[1]
(['action_mask', 'observation'], 27)

An episode is one hand. The observation is ``{"observation": float32[C, 27], "action_mask":
int8[NUM_ACTIONS]}`` (the encoder's channels, docs/learning.md); the action an index of
:mod:`xueliu.learn`'s fixed action space (the exchange is three picks, four under 换四张). At a
table with wild tiles (the ``WILD_PRESET_NAMES`` presets, docs/rules.md §12) the observation is
``obs_wild_v1`` (``obs_v1`` and the wild channels) and the action space has
``NUM_ACTIONS_WILD`` = 203 indices (红中's discard and 提 after the 175). The
reward is in base units (ledger amounts divided by ``base × room``): ``"final"`` gives the seat's
settlement net at the end, ``"transfers"`` each payment as it happens (the same sum). An index the mask does not allow
is played as docs/rules.md §8's default for that decision and reported as ``info["illegal_action"]``. The
observation returned with ``terminated=True`` has a mask allowing only pass
(:data:`~xueliu.learn.HAND_OVER_ACTION`), so a masked softmax over it stays finite; the episode is
over all the same (reset it: stepping a finished hand raises).

Opponents go through the bot lifecycle each episode (``start_hand(seat, rules, seed)``, the seed
derived from the ``reset`` seed; :mod:`xueliu.bots.lifecycle`), so ``reset(seed=s)`` replays the
same hands with bot objects such as ``[RandomBot(), RandomBot(), ExpertBot()]`` as well.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np

from ..game import GameState
from ..learn import Encoder, hand_over_mask, mask_from_observation, num_actions
from ..rules import Rules
from .common import (
    Episodes, action_space, check_reward, check_seat, observation_space, render_text,
    resolve_encoder, resolve_rules,
)
from .seat_game import Opponent, SeatGame, default_opponents

__all__ = ["SingleSeatEnv"]

class SingleSeatEnv(gymnasium.Env[Dict[str, np.ndarray], int]):
    """One learning seat (``seat``: fixed 0..players-1, or ``None`` for a seat drawn per episode)
    and ``players - 1`` ``opponents`` (bot names — ``"greedy"``, ``"random"``, ``"autoplay"``,
    ``"module:Class"``, ``"cmd:COMMAND"`` — or bot objects; ``opponents[i]`` sits ``i + 1`` seats
    after the learner; ``None``: greedy bots). ``rules``: a preset name or a :class:`~xueliu.Rules`, ``**knobs`` replaced
    on it. ``reset(seed=s)`` is deterministic: the same ``s`` deals the same hands and gives the
    opponents the same per-hand seeds (``start_hand``), in the same order. ``bot_observation``:
    requests to ``cmd:`` opponents carry the seat's observation (docs/protocol.md)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponents: Optional[Sequence[Opponent]] = None,
                 rules: Union[str, Rules] = "xueliu", seat: Optional[int] = None,
                 reward: str = "final", encoder: Union[str, Encoder] = "obs_v1",
                 render_mode: Optional[str] = None, bot_timeout: float = 5.0,
                 bot_observation: bool = False, **knobs: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        self.rules = resolve_rules(rules, knobs)
        seat = check_seat(seat, self.rules)
        if opponents is None:
            opponents = default_opponents(self.rules)
        self.encoder = resolve_encoder(encoder, self.rules)
        self.reward_mode = check_reward(reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(  # type: ignore[assignment]
            self.encoder, self.rules)
        self.action_space = action_space(self.rules)  # type: ignore[assignment]
        self._play = SeatGame(self.rules, opponents, reward, seat, bot_timeout, bot_observation)
        self._episodes = Episodes()
        self._mask = np.zeros(num_actions(self.rules), np.bool_)

    @property
    def game(self) -> GameState:
        """The hand being played (``env.unwrapped.game``)."""
        return self._play.state

    @property
    def seat(self) -> int:
        """The learning seat of this episode."""
        return self._play.seat

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, np.ndarray],
                                                                 Dict[str, Any]]:
        super().reset(seed=seed)
        self._play.reset(*self._episodes.next(seed))
        return self._observe(), {"seat": self._play.seat, "illegal_action": False}

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool,
                                         Dict[str, Any]]:
        reward, terminated, illegal = self._play.step(action, self._mask)
        return (self._observe(), reward, terminated, False,
                {"seat": self._play.seat, "illegal_action": illegal})

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (the name sb3-contrib's MaskablePPO looks for)."""
        return np.array(self._mask)

    def render(self) -> Optional[str]:
        return render_text(self._play.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        self._play.close()

    def _observe(self) -> Dict[str, np.ndarray]:
        play = self._play
        obs = play.observation()
        if play.state.is_over:
            hand_over_mask(out=self._mask)
        else:
            mask_from_observation(obs, play.picks, out=self._mask)
        enc = self.encoder
        x = (enc.encode(obs, picks=play.picks) if enc.from_observation
             else enc.encode(play.state, play.seat, picks=play.picks))
        return {"observation": x, "action_mask": self._mask.astype(np.int8)}
