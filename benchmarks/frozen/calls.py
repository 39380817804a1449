"""The loops the benchmarks time, run inside an engine's process (:mod:`frozen.engine`) against
whichever ``xueliu`` is importable there: the current package or the one built from e2892b9.
They use only the API the two share (``new_game``, ``pending``, ``legal_actions``, ``step``,
``events``, ``Action.from_id``, ``bots.play_hand``, ``GreedyBot(rules=)``, ``RandomBot(seed)``).
Arguments and results are JSON values; timed calls measure their own loop (perf_counter and
process_time) so that the pipe to the process is not counted.
"""

from __future__ import annotations

import collections
import sys
import time
from types import FrameType
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import xueliu

SEED = 20240601
_UNIFORMS: Dict[Tuple[int, int], List[float]] = {}


def package_path() -> str:
    """Where this process's xueliu was imported from."""
    return str(xueliu.__file__)


def uniforms(n: int, seed: int = SEED) -> List[float]:
    """The benchmark's random choices: ``n`` floats from a fixed-seed numpy generator, made once
    per process."""
    key = (seed, n)
    if key not in _UNIFORMS:
        _UNIFORMS[key] = np.random.default_rng(seed).random(n).tolist()
    return _UNIFORMS[key]


def play_hands(preset: str, hands: int, choices: int, seats: int = 4) -> int:
    """Plays ``hands`` hands (seeds SEED + h, dealer h % seats: ``seats`` the preset's table,
    4 for every engine before docs/rules.md §11) with uniformly random legal actions read from
    ``uniforms(choices)``; returns the steps taken."""
    u = uniforms(choices)
    new_game = xueliu.new_game
    i = 0
    steps = 0
    for h in range(hands):
        state = new_game(preset, seed=SEED + h, dealer=h % seats)
        while not state.is_over:
            choice = {}
            for seat in state.pending():
                legal = state.legal_actions(seat)
                choice[seat] = legal[int(u[i] * len(legal))]
                i += 1
            state.step(choice)
            steps += 1
    return steps


def timed_play_hands(preset: str, hands: int, choices: int) -> Dict[str, float]:
    """:func:`play_hands`, timed: wall-clock and process seconds, and the steps."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = play_hands(preset, hands, choices)
    return {"seconds": time.perf_counter() - wall, "process_seconds": time.process_time() - cpu,
            "steps": steps}


def last_action_game(preset: str, seed: int) -> List[Dict[str, Any]]:
    """The events of a hand in which every decision takes the last legal action."""
    state = xueliu.new_game(preset, seed=seed)
    while not state.is_over:
        seat = state.pending()[0]
        state.step({seat: state.legal_actions(seat)[-1]})
    return state.events()


def _bot_seed(master: int, hand: int, seat: int) -> int:
    """xueliu.bots.bot_seed, written out: the old commit has no such function."""
    import hashlib
    digest = hashlib.blake2b(f"xueliu-bot:{master}:{hand}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def self_play(bot: str, preset: str, hands: int) -> int:
    """``hands`` hands of four ``bot``s through ``play_hand``, each settled; returns the wins."""
    from xueliu import bots
    rules = xueliu.Rules.preset(preset)
    wins = 0
    for h in range(hands):
        if bot == "greedy":
            seats = [bots.GreedyBot(rules=rules) for _ in range(4)]
        else:
            # The seeds the current play_hand reseeds its bots with (the bot lifecycle:
            # xueliu.bots.bot_seed(hand seed, 0, seat)), given to the constructors too, so the
            # old engine, which has no lifecycle, plays the same hands.
            seats = [bots.RandomBot(_bot_seed(1000 + h, 0, s)) for s in range(4)]
        state = bots.play_hand(xueliu.new_game(rules, seed=1000 + h, dealer=h % 4), seats)
        wins += len(state.settlement().wins)
    return wins


def timed_self_play(bot: str, preset: str, hands: int) -> float:
    start = time.perf_counter()
    self_play(bot, preset, hands)
    return time.perf_counter() - start


def cpu_self_play(bot: str, preset: str, hands: int) -> float:
    """:func:`self_play`'s process seconds (other processes' load does not count)."""
    start = time.process_time()
    self_play(bot, preset, hands)
    return time.process_time() - start


# -- bytecodes (frozen.bytecodes) ---------------------------------------------------------------

Games = List[Tuple[int, List[Tuple[int, int]]]]


def record_random_play(hands: int) -> Games:
    """(hand seed, [(seat, action id), ...]) of ``hands`` hands of uniformly random play."""
    u = uniforms(hands * 400)
    out = []
    i = 0
    for h in range(hands):
        state = xueliu.new_game("xueliu", seed=SEED + h, dealer=h % 4)
        decisions = []
        while not state.is_over:
            seat = state.pending()[0]
            legal = state.legal_actions(seat)
            action = legal[int(u[i] * len(legal))]
            i += 1
            decisions.append((seat, action.id))
            state.step({seat: action})
        out.append((SEED + h, decisions))
    return out


def _replay_all(games: Games) -> int:
    action = xueliu.Action
    steps = 0
    for n, (seed, decisions) in enumerate(games):
        state = xueliu.new_game("xueliu", seed=seed, dealer=n % 4)
        for seat, aid in decisions:
            state.is_over
            for p in state.pending():
                state.legal_actions(p)
            state.step({seat: action.from_id(aid)})
        steps += len(decisions)
    return steps


def count_bytecodes(games: Games, top: int = 12) -> Dict[str, Any]:
    """Bytecodes per step replaying ``games`` (pending / legal_actions / step for every decision),
    in all and for the ``top`` functions, after one untraced replay to warm the caches."""
    _replay_all(games)
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
        steps = _replay_all(games)
    finally:
        sys.settrace(None)
    return {"per_step": sum(counts.values()) / steps,
            "top": [[k, v / steps] for k, v in counts.most_common(top)]}
