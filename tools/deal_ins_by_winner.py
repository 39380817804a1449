"""Where a bot's deal-ins go, against the expert in the same seat (docs/training.md, session 6).

Every wall is played in its four seatings twice: once with the bot in the measured seat, once
with an ExpertBot there, three ExpertBots around it both times (the same walls, dealers and
seats: paired). Each deal-in of the measured seat (a discard or an added kong another seat won
on) is counted by whether that winner **had already won** in the hand (in 血流 a frozen hand,
whose waits never change) or not. The lines give both means per hand and the paired difference
with its 95 % interval over walls::

    python tools/deal_ins_by_winner.py --weights python/xueliu/bots/weights/neural_v1.npz \\
        --walls 500 --preset xueliu --seed 77

Why: in 血流 the expert remembers which kinds were discarded since each seat won (they are safe
against it: ``HandMemory.safe_against``), which one observation does not show; this measures
whether a learned bot loses its points there.
"""

from __future__ import annotations

import argparse
from typing import List, Tuple

import numpy as np

from xueliu.bots import Bot, ExpertBot, NeuralBot, play_hand, start_hand_for
from xueliu.game import new_game
from xueliu.simulate.play import hand_seed


def deal_ins(weights: str, walls: int, preset: str, seed: int, neural: bool
             ) -> List[Tuple[int, int, float]]:
    """``(into won hands, into hands not yet won, net)`` of the measured seat, per hand."""
    rows = []
    for w in range(walls):
        for me in range(4):
            state = new_game(preset, seed=hand_seed(seed, w), dealer=w % 4)
            bots: List[Bot] = [ExpertBot() for _ in range(4)]
            if neural:
                bots[me] = NeuralBot(weights=weights)
            for seat, bot in enumerate(bots):
                start_hand_for(bot, seat, state.rules, 0)
            play_hand(state, bots)
            wins = sorted((x for ws in state.observation(me)["wins"] for x in ws),
                          key=lambda x: x["order"])
            won, into_won, into_new = set(), 0, 0
            for x in wins:
                if x["from"] == me and x["seat"] != me and x["source"] != "self_draw":
                    if x["seat"] in won:
                        into_won += 1
                    else:
                        into_new += 1
                won.add(x["seat"])
            rows.append((into_won, into_new, float(state.settlement().net[me])))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--weights", required=True)
    p.add_argument("--walls", type=int, default=500)
    p.add_argument("--preset", default="xueliu")
    p.add_argument("--seed", type=int, default=77)
    args = p.parse_args()
    a = np.array(deal_ins(args.weights, args.walls, args.preset, args.seed, True), float)
    b = np.array(deal_ins(args.weights, args.walls, args.preset, args.seed, False), float)
    names = ("deal-ins into hands that had won", "deal-ins into hands not yet won", "net")
    for i, name in enumerate(names):
        d = (a[:, i] - b[:, i]).reshape(args.walls, 4).mean(axis=1)
        half = 1.96 * d.std(ddof=1) / np.sqrt(args.walls)
        print(f"{name}: neural {a[:, i].mean():.3f}, expert {b[:, i].mean():.3f} a hand; "
              f"difference {d.mean():+.3f} ± {half:.3f}")


if __name__ == "__main__":
    main()
