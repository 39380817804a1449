"""Where a bot's deal-ins go, against the expert in the same seat (docs/training.md, session 6).

Every wall is played in its four seatings twice: once with the bot in the measured seat, once
with an ExpertBot there, three ExpertBots around it both times (the same walls, dealers and
seats: paired). Each deal-in of the measured seat (a discard or an added kong another seat won
on) is counted by whether that winner **had already won** in the hand (in 血流 a frozen hand,
whose waits never change) — and then whether on a kind it **had already won on** (a wait every
seat can see: obs_v1's ``won_tiles_*`` planes) or another — or not, and what it paid for each.
The lines give both means per hand and the paired difference with its 95 % interval over
walls::

    python tools/deal_ins_by_winner.py --walls 500 --preset xueliu --seed 77 [--weights W]
    python tools/deal_ins_by_winner.py --bot forgetful --walls 300

Why: it shows where a learned bot that scores below the expert in 血流 loses its points (session
6: on the kinds won hands had already won on, docs/training.md).
"""

from __future__ import annotations

import argparse
from typing import Dict, List, Optional, Set, Tuple

import numpy as np

from xueliu.bots import Bot, ExpertBot, NeuralBot, play_hand, start_hand_for
from xueliu.game import new_game
from xueliu.simulate.play import hand_seed

from forgetful_expert import ForgetfulExpert  # this folder (sys.path[0] when run as a script)


def deal_ins(weights: Optional[str], walls: int, preset: str, seed: int, bot: str
             ) -> List[Tuple[float, ...]]:
    """Per hand of the measured seat: its deal-ins ``(into won hands on a kind they had won on,
    into won hands on another kind, into hands not yet won)``, then what it paid for each of
    the three, then its net."""
    rows = []
    for w in range(walls):
        for me in range(4):
            state = new_game(preset, seed=hand_seed(seed, w), dealer=w % 4)
            bots: List[Bot] = [ExpertBot() for _ in range(4)]
            if bot == "neural":
                bots[me] = NeuralBot(weights=weights)
            elif bot == "forgetful":
                bots[me] = ForgetfulExpert()
            for seat, player in enumerate(bots):
                start_hand_for(player, seat, state.rules, 0)
            play_hand(state, bots)
            wins = sorted((x for ws in state.observation(me)["wins"] for x in ws),
                          key=lambda x: x["order"])
            won_on: Dict[int, Set[str]] = {}
            kind: Dict[int, int] = {}  # a deal-in's win number -> its column (0, 1, 2)
            for x in wins:
                if x["from"] == me and x["seat"] != me and x["source"] != "self_draw":
                    kind[x["order"]] = (2 if x["seat"] not in won_on
                                        else 0 if x["tile"] in won_on[x["seat"]] else 1)
                won_on.setdefault(x["seat"], set()).add(x["tile"])
            row = [0.0] * 7
            for n, k in kind.items():
                row[k] += 1
            settlement = state.settlement()
            for t in settlement.transfers:  # a win's payments name it: "win N: ..."
                if t.reason == "hu" and t.payer == me:
                    n = int(t.detail.split(":")[0].split()[1])
                    if n in kind:
                        row[3 + kind[n]] += t.amount
            row[6] = float(settlement.net[me])
            rows.append(tuple(row))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--weights", default=None, help="the neural bot's weights (default: shipped)")
    p.add_argument("--bot", choices=("neural", "forgetful"), default="neural",
                   help="the measured bot: the neural bot, or the expert without its memory "
                   "(tools/forgetful_expert.py)")
    p.add_argument("--walls", type=int, default=500)
    p.add_argument("--preset", default="xueliu")
    p.add_argument("--seed", type=int, default=77)
    args = p.parse_args()
    a = np.array(deal_ins(args.weights, args.walls, args.preset, args.seed, args.bot), float)
    b = np.array(deal_ins(args.weights, args.walls, args.preset, args.seed, "expert"), float)
    into = ("into won hands, on a kind they had won on", "into won hands, on another kind",
            "into hands not yet won")
    names = ([f"deal-ins {x}" for x in into] + [f"paid for deal-ins {x}" for x in into]
             + ["net"])
    for i, name in enumerate(names):
        d = (a[:, i] - b[:, i]).reshape(args.walls, 4).mean(axis=1)
        half = 1.96 * d.std(ddof=1) / np.sqrt(args.walls)
        print(f"{name}: {args.bot} {a[:, i].mean():.3f}, expert {b[:, i].mean():.3f} a hand; "
              f"difference {d.mean():+.3f} ± {half:.3f}")


if __name__ == "__main__":
    main()
