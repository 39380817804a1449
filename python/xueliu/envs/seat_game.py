"""One hand from a learning seat's side: bots answer for the other seats (``players - 1`` of them).

The single-seat Gymnasium environment and the vector environment both step this. The hand runs
until the learning seat must decide; bots pending at the same joint decision (the exchange, the
void, a claim window) answer first, from the same state the learner sees, and every answer is
applied together when the learner's is in. A ``cmd:`` opponent whose answer fails gets docs/rules.md §8's
default (``apply_timeout``), as in ``xueliu simulate``.

Every opponent goes through the bot lifecycle (:mod:`xueliu.bots.lifecycle`) in each episode:
``start_hand(seat, rules, seed)`` with ``seed = episode_seed(master, episode, "bot i")`` for
opponent ``i`` (the seed a named opponent is also made with), and the end of the hand. So a
seeded ``reset`` replays the same hands with bot objects too (Gymnasium's ``check_env``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..bots import Bot, ExternalBot, RandomBot, end_hand_for, is_external, make_bot, start_hand_for
from ..game import GameState, new_game
from ..rules import Rules
from .common import choose, episode_seed, stake

__all__ = ["SeatGame", "check_opponents", "default_opponents"]

_EMPTY: Mapping[str, Any] = {}
Opponent = Union[str, Bot, ExternalBot]


def default_opponents(rules: Rules) -> List[Opponent]:
    """A greedy bot in every other seat of the table."""
    return ["greedy"] * (rules.players - 1)


def check_opponents(opponents: Sequence[Opponent], players: int = 4) -> List[Opponent]:
    """The bots of the ``players - 1`` other seats, checked (names made once to fail early)."""
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        raise TypeError(f"opponents is a list of {players - 1} bots (names such as 'greedy', "
                        "'module:Class', 'cmd:COMMAND', or bot objects)")
    out = list(opponents)
    if len(out) != players - 1:
        raise ValueError(f"opponents lists the bots of the {players - 1} other seats of a "
                         f"{players}-seat table, got {len(out)}")
    for o in out:
        if isinstance(o, str):
            if not is_external(o):
                make_bot(o)  # an unknown name fails here, once
        elif not isinstance(o, ExternalBot) and not callable(getattr(o, "act", None)):
            raise TypeError(f"an opponent is a bot name or has act(observation, "
                            f"legal_actions), got {type(o).__name__}")
    return out


class SeatGame:
    """A hand seen from ``seat`` (fixed, or drawn per episode when ``None``).

    ``opponents[i]`` plays the seat ``i + 1`` places after the learner (four seats: 下家, 对家,
    上家; three: 下家, 上家; two: the other seat). Names
    are made into fresh bots each episode with seeds derived from the episode; ``cmd:`` programs
    are started once and kept for every episode (``close()`` ends them; ``bot_observation``: their
    requests carry the seat's observation); bot objects are used as given, started each episode.
    """

    def __init__(self, rules: Rules, opponents: Sequence[Opponent], reward: str,
                 seat: Optional[int], bot_timeout: float = 5.0,
                 bot_observation: bool = False) -> None:
        self.rules = rules
        self._specs = check_opponents(opponents, rules.players)
        self._reward_final = reward == "final"
        self._fixed_seat = seat
        self._timeout = bot_timeout
        if not isinstance(bot_observation, bool):
            raise TypeError(f"bot_observation is True or False, got {bot_observation!r}")
        self._bot_observation = bot_observation
        self._programs: Dict[int, ExternalBot] = {}
        self.state: GameState = new_game(rules, seed=0)  # replaced by reset
        self.seat = 0
        self.picks: List[int] = []
        self._bots: Dict[int, Any] = {}
        self._fast: Dict[int, bool] = {}
        self._by_view: Dict[int, Any] = {}
        self._others: Dict[int, Any] = {}
        self._defaults: List[int] = []
        self._obs: Optional[Dict[str, Any]] = None
        self._net = 0
        self._stake = 1

    # -- episodes --------------------------------------------------------------------------------

    def reset(self, master: int, episode: int) -> None:
        """Deals episode ``episode`` of master seed ``master`` and plays up to the learner's first
        decision."""
        seat = self._fixed_seat
        if seat is None:
            seat = episode_seed(master, episode, "seat") % self.rules.players
        dealer = episode_seed(master, episode, "dealer") % self.rules.players
        self.state = state = new_game(self.rules, seed=episode_seed(master, episode, "game"),
                                      dealer=dealer)
        self.seat = seat
        self.picks = []
        self._obs = None
        self._net = 0
        self._stake = stake(state)
        bots: Dict[int, Any] = {}
        for i, spec in enumerate(self._specs):
            q = (seat + 1 + i) % self.rules.players
            bseed = episode_seed(master, episode, f"bot {i}")
            bot: Any
            if isinstance(spec, str):
                if is_external(spec):
                    program = self._programs.get(i)
                    if program is None:
                        program = self._programs[i] = ExternalBot(
                            spec[4:], timeout=self._timeout, name=spec,
                            observation=self._bot_observation)
                    bot = program
                else:
                    bot = make_bot(spec, seed=bseed, rules=self.rules)
            else:
                bot = spec
            start_hand_for(bot, q, self.rules, bseed, hand=episode)
            bots[q] = bot
        self._bots = bots
        # RandomBot never reads its observation (its documented policy): skip building one.
        self._fast = {q: type(b) is RandomBot for q, b in bots.items()}
        self._by_view = {q: getattr(b, "act_view", None) for q, b in bots.items()}
        self._advance()

    def close(self) -> None:
        for bot in self._programs.values():
            bot.close()
        self._programs.clear()

    # -- the learner -----------------------------------------------------------------------------

    def observation(self) -> Dict[str, Any]:
        """The learner's observation now (built once per decision)."""
        obs = self._obs
        if obs is None:
            obs = self._obs = self.state.observation(self.seat)
        return obs

    def step(self, index: Any, mask: np.ndarray) -> Tuple[float, bool, bool]:
        """Plays the learner's ``index`` (``mask``: the mask it was offered) and then the bots up
        to the learner's next decision. Returns ``(reward, terminated, illegal)``: an index the
        mask does not allow is played as docs/rules.md §8's default and flagged ``illegal``."""
        state = self.state
        if state.is_over:
            raise ValueError("the hand is over: reset the environment")
        action, illegal = choose(self.observation, mask, self.picks, index,
                                 state.rules.exchange_count)
        if action is None:  # an exchange pick: the hand waits for the last
            return 0.0, False, False
        answers = self._others
        answers[self.seat] = action
        state.step(answers)
        for q in self._defaults:
            state.apply_timeout(q)
        self._obs = None
        self._advance()
        over = state.is_over
        if self._reward_final:
            if not over:
                return 0.0, False, illegal
            return state.settlement().net[self.seat] / self._stake, True, illegal
        net = state.net[self.seat]
        delta = net - self._net
        self._net = net
        return delta / self._stake, over, illegal

    # -- the bots --------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Lets the bots play until the learner must decide (its fellow pending bots' answers are
        kept for then) or the hand is over."""
        state = self.state
        seat = self.seat
        bots = self._bots
        fast = self._fast
        while not state.is_over:
            pending = state.pending()
            answers: Dict[int, Any] = {}
            defaults: List[int] = []
            for q in pending:
                if q == seat:
                    continue
                bot = bots[q]
                if fast[q]:
                    answers[q] = bot.act(_EMPTY, state.legal_actions(q))
                elif isinstance(bot, ExternalBot):
                    a = bot.decide(state, q)
                    if a is None:
                        defaults.append(q)
                    else:
                        answers[q] = a
                else:
                    # act_view where the bot has it (every Bot), as play_hand and simulate ask.
                    act_view = self._by_view[q]
                    answers[q] = (act_view(state.view(q), state.legal_actions(q))
                                  if act_view is not None
                                  else bot.act(state.observation(q), state.legal_actions(q)))
            if seat in pending:
                self._others = answers
                self._defaults = defaults
                return
            if answers:
                state.step(answers)
            for q in defaults:
                state.apply_timeout(q)
        for q, bot in bots.items():
            end_hand_for(bot, state, q)
