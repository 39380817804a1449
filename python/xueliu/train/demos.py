"""Demonstrations for behaviour cloning: a teacher bot's decisions as (``obs_v1``, mask, index)
samples, numpy only.

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` under the preset
``presets[i % len(presets)]``, dealer ``i % 4``, four teachers (fresh per hand, started with
``bot_seed(S, i, seat)``). Every decision of every seat is turned into the indices of the fixed
action space (an exchange into its three picks, smallest kind first, each with the picks before
it in the ``exchange_picks_*`` channels) and kept when its mask allows more than one index (a
forced move teaches nothing). Samples are stored packed (:func:`pack`): ``x`` as bits, ``mask``
as bits, ``index`` and the preset's position as small ints, and ``cost``: on a turn, what each
kind would pay at once if discarded (:func:`xueliu.game.deal_in_costs.deal_in_costs`, the
hidden-information label of the network's danger head), -1 for every other decision. With
``values`` (soft targets, as v17's), also ``value``: the teacher's own value of every option it
was offered (``ExpertBot.option_values``, in expected payment units to the end of the hand), at
the option's index — what ``xueliu train --bc-soft T`` imitates instead of the one index.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..bots import NeuralBot, bot_seed, end_hand_for, make_bot, start_hand_for
from ..bots.neural import decide_batch
from ..game import Action, GameState, new_game
from ..game.deal_in_costs import deal_in_costs
from ..learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT, NUM_ACTIONS
from ..learn.channels import OBS_V1
from ..rules import Rules
from ..simulate.play import hand_seed

__all__ = ["teacher_indices", "generate", "check_valued_teacher", "pack", "unpack_x",
           "unpack_mask", "Samples", "chunk_plan", "NO_COST"]

_KINDS = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}
INPUT = len(OBS_V1) * 27

Samples = Dict[str, np.ndarray]
"""Packed samples: ``x`` ``uint8[n, 311]`` (bits of the 2,484 inputs), ``mask`` ``uint8[n,
22]`` (bits of the 175 indices), ``index`` ``int16[n]``, ``preset`` ``int8[n]``, ``cost``
``int16[n, 27]`` (deal-in costs on a turn, else -1; chunks made before v12's have none:
:func:`concat` fills them with -1), and with ``values`` ``value`` ``float16[n, 175]`` (the
teacher's value of each option at its index; NaN elsewhere, and in every row of an exchange's
picks, which are valued as whole exchanges; :func:`concat` fills a part without values with NaN
when another part has them)."""

NO_COST = -1
"""``cost`` of a decision that is not a turn's (and of chunks made without costs)."""


def teacher_indices(action: Action, legal: Sequence[Action]) -> List[int]:
    """The indices of the fixed action space that make ``action``: one, or three picks for an
    exchange (smallest kind first)."""
    if action.kind == "exchange":
        assert action.tiles is not None
        return [EXCHANGE_PICK + k for k in sorted(_KINDS[t] for t in action.tiles)]
    if action.kind == "multiplier":
        values = sorted(a.value for a in legal if a.kind == "multiplier" and a.value is not None)
        assert action.value is not None
        return [MULTIPLIER_SLOT + values.index(action.value)]
    return [action.id]


def chunk_plan(demo_hands: int, dagger_hands: Sequence[int], chunk: int
               ) -> List[Tuple[str, int, range, int]]:
    """A run's demonstration chunks as ``(kind, c, hands, round)``: ``("chunk", c)`` of the
    teacher's own hands ``0 .. demo_hands`` (round −1), then DAgger round ``r``'s chunks of the
    ``dagger_hands[r]`` hands after those and the earlier rounds' (walls of their own), in files
    ``dagger_*`` for the first round (its name when there was one) and ``dagger2_*``,
    ``dagger3_*`` … after it; ``chunk`` hands a file."""
    out: List[Tuple[str, int, range, int]] = []
    first = 0
    for r, n in enumerate([demo_hands, *dagger_hands], start=-1):
        kind = "chunk" if r < 0 else "dagger" if r == 0 else f"dagger{r + 1}"
        for c in range((n + chunk - 1) // chunk):
            out.append((kind, c, range(first + c * chunk, first + min(n, (c + 1) * chunk)), r))
        first += n
    return out


def pack(x: np.ndarray, mask: np.ndarray, index: np.ndarray, preset: int,
         cost: Optional[np.ndarray] = None, value: Optional[np.ndarray] = None) -> Samples:
    n = len(index)
    extra = {} if value is None else {"value": value.astype(np.float16)}
    return {**extra, "x": np.packbits(x.reshape(n, INPUT).astype(np.uint8), axis=1),
            "mask": np.packbits(mask.astype(np.uint8), axis=1),
            "index": index.astype(np.int16), "preset": np.full(n, preset, np.int8),
            "cost": (np.full((n, 27), NO_COST, np.int16) if cost is None
                     else np.minimum(cost, np.iinfo(np.int16).max).astype(np.int16))}


def unpack_x(packed: np.ndarray) -> np.ndarray:
    """``float32[n, 2484]`` inputs of packed ``x``."""
    return np.unpackbits(packed, axis=1, count=INPUT).astype(np.float32)


def unpack_mask(packed: np.ndarray) -> np.ndarray:
    """``bool[n, 175]`` masks of packed ``mask``."""
    return np.unpackbits(packed, axis=1, count=NUM_ACTIONS).astype(np.bool_)


def concat(parts: Sequence[Samples]) -> Samples:
    keys = ("x", "mask", "index", "preset")
    if not parts:
        return {"x": np.zeros((0, (INPUT + 7) // 8), np.uint8),
                "mask": np.zeros((0, (NUM_ACTIONS + 7) // 8), np.uint8),
                "index": np.zeros(0, np.int16), "preset": np.zeros(0, np.int8),
                "cost": np.zeros((0, 27), np.int16)}
    out = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    out["cost"] = np.concatenate([
        p["cost"] if "cost" in p else np.full((len(p["index"]), 27), NO_COST, np.int16)
        for p in parts])
    if any("value" in p for p in parts):
        out["value"] = np.concatenate([
            p["value"] if "value" in p else np.full((len(p["index"]), NUM_ACTIONS), np.nan,
                                                    np.float16)
            for p in parts])
    return out


def _record_decision(state: GameState, seat: int, legal: Sequence[Action], action: Action,
                     out: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]) -> None:
    wanted = teacher_indices(action, legal)
    step = iter(wanted)
    decide_batch([state], [seat], lambda x, mask: np.array([next(step)]), legal=[legal],
                 record=out)


def _value_row(ranked: Sequence[Tuple[Action, float]], legal: Sequence[Action]) -> np.ndarray:
    """The teacher's values of ``ranked`` options at their indices (NaN elsewhere; all NaN for
    an exchange, whose options are not single indices)."""
    row = np.full(NUM_ACTIONS, np.nan, np.float32)
    for action, v in ranked:
        index = teacher_indices(action, legal)
        if len(index) != 1:
            return np.full(NUM_ACTIONS, np.nan, np.float32)
        row[index[0]] = v
    return row


def check_valued_teacher(teacher: str) -> None:
    """Raises ValueError unless the bot ``teacher`` names gives its option values (an
    ExpertBot's ``option_values``): what ``values`` needs."""
    if not hasattr(make_bot(teacher, seed=0), "option_values"):
        raise ValueError(f"needs a teacher that values its options (an ExpertBot's option "
                         f"values), not {teacher!r}")


def generate(teacher: str, presets: Sequence[str], hands: range, seed: int,
             actor: Optional[str] = None, values: bool = False) -> Samples:
    """The samples of hands ``hands`` (a range of hand indices, so chunks of a run can be made
    apart and joined: the same samples in the same order).

    ``actor``, a weights file, makes them DAgger samples: a :class:`NeuralBot` of those weights
    plays seats ``i % 4`` and ``(i + 2) % 4`` of hand ``i`` while the teacher is still asked at
    every seat and its answer is what is recorded — the states the network reaches by its own
    decisions, labelled with what the teacher would have done there (Ross et al., 2011: behaviour
    cloning's mistakes compound on states the teacher never shows it).

    ``values`` asks the teacher for ``option_values`` (an ExpertBot's: the same choice as its
    ``act``, with every option's value) instead of ``act_view`` and records them (``value``)."""
    student = NeuralBot(weights=actor) if actor else None  # stateless: one for every seat
    if values:
        check_valued_teacher(teacher)
    parts: List[Samples] = []
    for i in hands:
        p = i % len(presets)
        rules = Rules.preset(presets[p])
        state = new_game(rules, seed=hand_seed(seed, i), dealer=i % 4)
        bots: List[Any] = []
        for seat in range(4):
            bseed = bot_seed(seed, i, seat)
            bot = make_bot(teacher, seed=bseed, rules=rules)
            start_hand_for(bot, seat, rules, bseed)
            bots.append(bot)
        actors: Dict[int, Any] = {}
        if student is not None:
            for seat in (i % 4, (i + 2) % 4):
                actors[seat] = student
                start_hand_for(student, seat, rules, bot_seed(seed, i, seat))
        rounds: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        costs: List[np.ndarray] = []
        value_rows: List[np.ndarray] = []
        while not state.is_over:
            answers = {}
            for seat in state.pending():
                legal = state.legal_actions(seat)
                view = state.view(seat)
                ranked = (bots[seat].option_values(state.observation(seat), legal)
                          if values and len(legal) > 1 else None)
                action = ranked[0][0] if ranked else bots[seat].act_view(view, legal)
                if len(legal) > 1:
                    before = len(rounds)
                    _record_decision(state, seat, legal, action, rounds)
                    turn_cost = np.asarray(deal_in_costs(state) if state.phase == "turn"
                                           else [NO_COST] * 27, np.int32)
                    costs.extend(np.tile(turn_cost, (len(r[3]), 1)) for r in rounds[before:])
                    if ranked:
                        row = _value_row(ranked, legal)
                        value_rows.extend(np.tile(row, (len(r[3]), 1)) for r in rounds[before:])
                    if seat in actors:
                        action = actors[seat].act_view(view, legal)
                answers[seat] = action
            state.step(answers)
        for seat, bot in enumerate(bots):
            end_hand_for(bot, state, seat)
        for seat, bot in actors.items():
            end_hand_for(bot, state, seat)
        if rounds:
            x = np.concatenate([r[1] for r in rounds])
            mask = np.concatenate([r[2] for r in rounds])
            index = np.concatenate([r[3] for r in rounds])
            cost = np.concatenate(costs)
            keep = mask.sum(axis=1) > 1
            value = np.concatenate(value_rows)[keep] if values else None
            parts.append(pack(x[keep], mask[keep], index[keep], p, cost[keep], value))
    return concat(parts)
