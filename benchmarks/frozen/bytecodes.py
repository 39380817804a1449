"""Bytecodes executed per random-play step, current engine and the frozen e2892b9 one: a measure of
the interpreter's work that the load of a shared machine does not move (wall-clock figures do).

    cd benchmarks && python -m frozen.bytecodes            # totals and the top functions

Both engines replay the same recorded decisions of random play (pending / legal_actions / step
for every decision, as ``test_bench_game.py`` does), once untraced to warm the caches, then traced
with ``sys.settrace`` counting opcode events per function. A bytecode is not a fixed cost (a
slot read is cheaper than a dict-backed attribute, a list append than a dict insert) and the
cyclic garbage collector is not counted, so the wall-clock ratio is larger than this one.
"""

from __future__ import annotations

import collections
import sys
from types import FrameType
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import xueliu
from xueliu import Action

from .xueliu_e2892b9.game import new_game as frozen_new_game
from .xueliu_e2892b9.game.actions import Action as FrozenAction

SEED = 20240601
HANDS = 30


def record_random_play(hands: int = HANDS) -> List[Tuple[int, List[Tuple[int, int]]]]:
    """(hand seed, [(seat, action id), ...]) of ``hands`` hands of uniformly random play."""
    uniforms = np.random.default_rng(SEED).random(hands * 400).tolist()
    out = []
    i = 0
    for h in range(hands):
        state = xueliu.new_game("xueliu", seed=SEED + h, dealer=h % 4)
        decisions = []
        while not state.is_over:
            seat = state.pending()[0]
            legal = state.legal_actions(seat)
            action = legal[int(uniforms[i] * len(legal))]
            i += 1
            decisions.append((seat, action.id))
            state.step({seat: action})
        out.append((SEED + h, decisions))
    return out


def replay_all(new_game: Callable[..., Any], action: Any,
               games: List[Tuple[int, List[Tuple[int, int]]]]) -> int:
    steps = 0
    for n, (seed, decisions) in enumerate(games):
        state = new_game("xueliu", seed=seed, dealer=n % 4)
        for seat, aid in decisions:
            state.is_over
            for p in state.pending():
                state.legal_actions(p)
            state.step({seat: action.from_id(aid)})
        steps += len(decisions)
    return steps


def count(new_game: Callable[..., Any], action: Any,
          games: List[Tuple[int, List[Tuple[int, int]]]]) -> Tuple[float, Dict[str, float]]:
    """Bytecodes per step, in all and by function."""
    replay_all(new_game, action, games)  # warm: exchange options, interned actions, tables
    counts: collections.Counter[str] = collections.Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        frame.f_trace_opcodes = True
        key = f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_code.co_name}"

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[key] += 1
            return local
        return local

    sys.settrace(trace)
    try:
        steps = replay_all(new_game, action, games)
    finally:
        sys.settrace(None)
    return sum(counts.values()) / steps, {k: v / steps for k, v in counts.most_common(12)}


def main() -> None:
    games = record_random_play()
    for name, new_game, action in (("current", xueliu.new_game, Action),
                                   ("e2892b9", frozen_new_game, FrozenAction)):
        total, top = count(new_game, action, games)
        print(f"{name}: {total:.0f} bytecodes a step")
        for key, n in top.items():
            print(f"  {n:7.1f}  {key}")


if __name__ == "__main__":
    main()
