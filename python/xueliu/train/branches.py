"""Branch samples: what a few candidate decisions of the network would have won, each played
out on the hand's own wall — the outcome signal that behaviour cloning has not, with the noise of
a whole hand's net taken out by playing the candidates on the same wall (numpy only).

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` under the preset
``presets[i % len(presets)]``, dealer ``(i // 4) % 4``; the network plays seat ``i % 4`` (always
its best allowed index), three ``opponent`` bots the others (started with ``bot_seed(S, i,
seat)``). At each of the network's decisions with more than one allowed index — the exchange's
picks aside — a draw of ``default_rng([S, i])`` makes it a branch point with chance ``rate``:
its ``top`` best allowed indices by the network are each played there, on copies of the hand and
of the bots, the others' answers of that moment kept, and the copy played to its end by the same
players; the seat's net in each is the candidate's value. The first candidate is the network's own
choice, which the hand itself goes on with, so its value is the hand's net.

Every player is deterministic, so a candidate's value is what that decision would have won on
this wall: an unbiased sample of its value to a seat that sees what the seat sees (the walls are
dealt as in play), and the difference of two candidates' values is not blurred by the rest of
the table's luck the way a hand's net is (docs/training.md, "the improvement stage").
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from ..bots import bot_seed, end_hand_for, make_bot, start_hand_for
from ..bots.neural import decide_batch
from ..bots.neural_net import Network
from ..game import Action, GameState, new_game
from ..rules import Rules
from ..simulate.play import hand_seed
from .demos import INPUT

__all__ = ["Branches", "generate", "concat", "pack", "candidates"]

Branches = Dict[str, np.ndarray]
"""Branch points: ``x`` ``uint8[n, 311]`` (bits of the ``obs_v1`` inputs), ``mask`` ``uint8[n,
22]`` (bits of the allowed indices), ``cand`` ``int16[n, top]`` (the candidates, the network's
own first; -1 where fewer were allowed), ``value`` ``float32[n, top]`` (the seat's net of each;
NaN where no candidate), ``preset`` ``int8[n]``."""

_Round = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _decide(network: Network, state: GameState, seat: int, legal: Sequence[Action],
            forced: int = -1) -> Tuple[Action, List[_Round], np.ndarray]:
    """The network's decision for ``seat`` (or the one of index ``forced``), the encoded rounds
    and the last round's logits."""
    seen: List[np.ndarray] = []

    def choose(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = network.forward(x)
        seen.append(logits)
        if forced >= 0:
            return np.array([forced])
        best: np.ndarray = np.argmax(np.where(mask, logits, -np.inf), axis=1)
        return best

    rounds: List[_Round] = []
    action = decide_batch([state], [seat], choose, legal=[legal], record=rounds)[0]
    return action, rounds, seen[-1][0]


def _play_out(state: GameState, seat: int, network: Network, bots: Dict[int, Any]) -> float:
    """Plays ``state`` to its end (the network at ``seat``); the seat's net."""
    while not state.is_over:
        answers = {}
        for q in state.pending():
            legal = state.legal_actions(q)
            answers[q] = (_decide(network, state, q, legal)[0] if q == seat
                          else bots[q].act_view(state.view(q), legal))
        state.step(answers)
    return float(state.settlement().net[seat])


def generate(network: Network, opponent: str, presets: Sequence[str], hands: range, seed: int,
             rate: float = 0.25, top: int = 3, verify: bool = False) -> Branches:
    """The branch points of hands ``hands`` (a range, so chunks can be made apart and joined).
    ``verify`` also plays the network's own choice on a copy and insists that it wins what the
    hand itself wins (the copies of hand and bots are faithful; the tests use it)."""
    xs: List[np.ndarray] = []
    masks: List[np.ndarray] = []
    cands: List[np.ndarray] = []
    values: List[np.ndarray] = []
    preset_of: List[int] = []
    for i in hands:
        p = i % len(presets)
        rules = Rules.preset(presets[p])
        state = new_game(rules, seed=hand_seed(seed, i), dealer=(i // 4) % 4)
        seat = i % 4
        rng = np.random.default_rng([seed, i])
        bots: Dict[int, Any] = {}
        for q in range(4):
            if q != seat:
                bseed = bot_seed(seed, i, q)
                bots[q] = make_bot(opponent, seed=bseed, rules=rules)
                start_hand_for(bots[q], q, rules, bseed)
        open_points: List[int] = []  # rows whose first value is this hand's net
        while not state.is_over:
            answers: Dict[int, Action] = {}
            mine = None
            for q in state.pending():
                legal = state.legal_actions(q)
                if q == seat:
                    mine = legal
                else:
                    answers[q] = bots[q].act_view(state.view(q), legal)
            if mine is not None:
                action, rounds, logits = _decide(network, state, seat, mine)
                exchange = any(a.kind == "exchange" for a in mine)
                allowed = rounds[-1][2][0] if rounds else None
                if (not exchange and allowed is not None and allowed.sum() > 1
                        and rng.random() < rate):
                    picked = candidates(logits, allowed, top)
                    row_v = np.full(top, np.nan, np.float32)
                    first = 0 if verify else 1
                    for j, k in enumerate(picked[first:], start=first):
                        twin, twin_bots = copy.deepcopy((state, bots))
                        legal = twin.legal_actions(seat)
                        twin_answers = dict(answers)
                        twin_answers[seat] = _decide(network, twin, seat, legal, forced=k)[0]
                        twin.step(twin_answers)
                        row_v[j] = _play_out(twin, seat, network, twin_bots)
                    xs.append(rounds[-1][1])
                    masks.append(allowed[None])
                    cands.append(np.array([picked + [-1] * (top - len(picked))], np.int16))
                    values.append(row_v[None])
                    preset_of.append(p)
                    open_points.append(len(values) - 1)
                answers[seat] = action
            state.step(answers)
        net = float(state.settlement().net[seat])
        for row in open_points:
            if verify and values[row][0, 0] != net:
                raise AssertionError(f"hand {i}: a copy of the hand won {values[row][0, 0]}, "
                                     f"the hand {net}")
            values[row][0, 0] = net
        for q, bot in bots.items():
            end_hand_for(bot, state, q)
    return pack(xs, masks, cands, values, preset_of, top)


def candidates(logits: np.ndarray, allowed: np.ndarray, top: int) -> List[int]:
    """A branch point's candidates: the ``top`` allowed indices with the highest ``logits``, best
    first (the lower index first among equals, so the first is the network's own choice)."""
    order = np.argsort(-np.where(allowed, logits, -np.inf), kind="stable")
    return [int(k) for k in order[:min(top, int(allowed.sum()))]]


def pack(xs: List[np.ndarray], masks: List[np.ndarray], cands: List[np.ndarray],
         values: List[np.ndarray], preset_of: List[int], top: int) -> Branches:
    """Rows of branch points (one ``obs_v1`` row, mask row, candidates and values each) as
    :data:`Branches` (also :mod:`.selfplay_branches`')."""
    n = len(xs)
    if n == 0:
        return {"x": np.zeros((0, (INPUT + 7) // 8), np.uint8), "mask": np.zeros((0, 22), np.uint8),
                "cand": np.zeros((0, top), np.int16), "value": np.zeros((0, top), np.float32),
                "preset": np.zeros(0, np.int8)}
    x = np.concatenate(xs).reshape(n, INPUT).astype(np.uint8)
    return {"x": np.packbits(x, axis=1),
            "mask": np.packbits(np.concatenate(masks).astype(np.uint8), axis=1),
            "cand": np.concatenate(cands), "value": np.concatenate(values),
            "preset": np.array(preset_of, np.int8)}


def concat(parts: Sequence[Branches]) -> Branches:
    keys = ("x", "mask", "cand", "value", "preset")
    parts = [p for p in parts if len(p["preset"])]
    if not parts:
        return pack([], [], [], [], [], 3)
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}
