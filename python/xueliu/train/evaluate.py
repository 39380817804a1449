"""The training's strength check: the policy in one seat against three copies of a bot, on
``xueliu simulate --duplicate``'s own hands, the policy's seats decided in batches.

Hand ``i`` of a run with seed ``S`` is simulate's hand ``i`` with ``--bots P,B,B,B --duplicate
--seed S`` (wall ``i // 4``, game seed ``hand_seed(S, wall)``, dealer ``wall % 4``, the policy's
entry rotated through the seats, the other bots made and started with ``bot_seed(S, i, seat)``),
so a NeuralBot's figure here is the figure ``xueliu simulate`` prints for it when ``choose``
decides each row as alone (:func:`xueliu.bots.neural_rows.choose_rows`, as simulate does;
tests/test_train.py checks they agree hand by hand). A plain batch's products may differ from
a row's own in the last bits, which can only matter at a near tie. numpy only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, List, Sequence, Union

import numpy as np

from ..bots import make_bot, start_hand_for, end_hand_for, bot_seed
from ..bots.neural import Chooser
from ..bots.neural_play import POLICY, play_batched
from ..game import GameState, new_game
from ..rules import Rules
from ..simulate.play import hand_seed

__all__ = ["Strength", "duplicate_strength", "duplicate_nets"]


@dataclass(frozen=True)
class Strength:
    """The policy's mean net per hand, its 95 % interval clustered by wall, over ``hands``."""

    opponent: str
    preset: str
    hands: int
    mean: float
    low: float
    high: float

    def line(self) -> str:
        return (f"vs 3 {self.opponent} ({self.preset}, {self.hands} hands): "
                f"{self.mean:+.2f} [{self.low:+.2f}, {self.high:+.2f}]")


def duplicate_nets(choose: Chooser, opponent: str, rules: Union[str, Rules], walls: int,
                   seed: int, batch: int = 64) -> np.ndarray:
    """``float[walls, 4]``: the policy's net in each of the four seatings of each wall."""
    r = rules if isinstance(rules, Rules) else Rules.preset(rules)
    nets = np.zeros((walls, 4))
    hands = list(range(4 * walls))
    for start in range(0, len(hands), batch):
        chunk = hands[start:start + batch]
        states: List[GameState] = []
        seating: List[List[Any]] = []
        for i in chunk:
            wall, rot = divmod(i, 4)
            state = new_game(r, seed=hand_seed(seed, wall), dealer=wall % 4)
            seats: List[Any] = []
            for seat in range(4):
                if (seat + rot) % 4 == 0:  # entry 0 of --bots P,B,B,B
                    seats.append(POLICY)
                else:
                    bseed = bot_seed(seed, i, seat)
                    bot = make_bot(opponent, seed=bseed, rules=r)
                    start_hand_for(bot, seat, r, bseed)
                    seats.append(bot)
            states.append(state)
            seating.append(seats)
        play_batched(states, seating, choose)
        for i, state, seats in zip(chunk, states, seating):
            wall, rot = divmod(i, 4)
            net = state.settlement().net
            for seat, bot in enumerate(seats):
                if bot is POLICY:
                    nets[wall, rot] = net[seat]
                else:
                    end_hand_for(bot, state, seat)
    return nets


def duplicate_strength(choose: Chooser, opponent: str, preset: str, walls: int, seed: int,
                       batch: int = 64) -> Strength:
    """:func:`duplicate_nets` summed up: mean per hand and its interval (the walls' means ±
    1.96 standard errors)."""
    nets = duplicate_nets(choose, opponent, preset, walls, seed, batch)
    per_wall = nets.mean(axis=1)
    mean = float(per_wall.mean())
    half = 1.96 * float(per_wall.std(ddof=1)) / math.sqrt(walls) if walls > 1 else math.inf
    return Strength(opponent, preset, 4 * walls, mean, mean - half, mean + half)


def strengths(choose: Chooser, opponents: Sequence[str], presets: Sequence[str], walls: int,
              seed: int) -> List[Strength]:
    return [duplicate_strength(choose, o, p, walls, seed) for p in presets for o in opponents]
