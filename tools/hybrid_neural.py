"""Which decisions cost the learned bot its points: the network with one kind of decision handed
to the expert, against the network alone, in the same seat of the same walls (docs/training.md,
session 7).

Every wall is played in its four seatings once per bot: the network alone, then each hybrid —
the network deciding everything but one kind of decision, which an ExpertBot in the same seat
decides — three ExpertBots around it every time (the same walls, dealers and seats: paired).
The kinds: ``before`` (换三张, 定缺, 选倍), ``claim`` (a claim window: 碰, 杠, 胡 or pass on
another seat's tile) and ``turn`` (the seat's own turn: discard, kong, 胡). A kind whose hybrid
scores well above the network alone is where the network loses to the expert::

    python tools/hybrid_neural.py --walls 2000 --preset xueliu --workers 2 [--weights W]

The lines give each bot's mean net per hand and its paired difference from the network alone
with the 95 % interval over walls.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from xueliu.bots import Bot, ExpertBot, NeuralBot, play_hand, start_hand_for
from xueliu.game import Action, new_game
from xueliu.game.actions import PASS_ID, VOID_BASE
from xueliu.game.view import SeatView
from xueliu.rules import Rules
from xueliu.simulate.play import hand_seed

KINDS = ("before", "claim", "turn")


def kind_of(legal: Sequence[Action]) -> str:
    """The kind of a decision, by its legal actions."""
    ids = [a.id for a in legal]
    if max(ids) >= VOID_BASE:  # 定缺, then 换三张 and 选倍 above it
        return "before"
    return "claim" if PASS_ID in ids else "turn"


class Hybrid(Bot):
    """The network, but an ExpertBot decides the decisions of kind ``expert_kind``."""

    name = "hybrid"

    def __init__(self, weights: Optional[str], expert_kind: str) -> None:
        self.net = NeuralBot(weights=weights)
        self.expert = ExpertBot()
        self.expert_kind = expert_kind

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        start_hand_for(self.net, seat, rules, seed)
        start_hand_for(self.expert, seat, rules, seed)

    def act(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        raise NotImplementedError("in-process play only (act_view)")

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        if kind_of(legal_actions) == self.expert_kind:
            return self.expert.act_view(view, legal_actions)
        return self.net.act_view(view, legal_actions)


def wall_nets(args: Tuple[Optional[str], int, str, int]) -> List[List[float]]:
    """The measured seat's net in each seating of wall ``w``, one row per bot (the network
    alone, then a hybrid per kind)."""
    weights, w, preset, seed = args
    rows = []
    for expert_kind in (None, *KINDS):
        nets = []
        for me in range(4):
            state = new_game(preset, seed=hand_seed(seed, w), dealer=w % 4)
            bots: List[Any] = [ExpertBot() for _ in range(4)]
            bots[me] = (NeuralBot(weights=weights) if expert_kind is None
                        else Hybrid(weights, expert_kind))
            for seat, player in enumerate(bots):
                start_hand_for(player, seat, state.rules, 0)
            play_hand(state, bots)
            nets.append(float(state.settlement().net[me]))
        rows.append(nets)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--weights", default=None, help="the neural bot's weights (default: shipped)")
    p.add_argument("--walls", type=int, default=2000)
    p.add_argument("--preset", default="xueliu")
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args()
    jobs = [(args.weights, w, args.preset, args.seed) for w in range(args.walls)]
    with Pool(args.workers) as pool:
        per_wall = np.array(pool.map(wall_nets, jobs, chunksize=8))  # [walls, bots, seatings]
    alone = per_wall[:, 0].mean(axis=1)
    for i, name in enumerate(("network alone", *[f"expert decides {k}" for k in KINDS])):
        mine = per_wall[:, i].mean(axis=1)
        d = mine - alone
        half = 1.96 * d.std(ddof=1) / np.sqrt(args.walls) if i else 0.0
        print(f"{name}: {mine.mean():+.3f} a hand; against the network alone {d.mean():+.3f} "
              f"± {half:.3f}")


if __name__ == "__main__":
    main()
