"""What every environment shares: the rules, episode seeds, spaces, and turning an action index
into an engine action (chaining exchange picks, and docs/rules.md §8's default for an illegal index)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from gymnasium import spaces

from ..bots import AutoPlayBot
from ..game import Action
from ..game.actions import DISCARD_HONGZHONG_ID
from ..learn import (
    EXCHANGE_PICK, MULTIPLIER_SLOT, MULTIPLIER_SLOTS, WILD_DISCARD, Encoder, encoder, num_actions,
)
from ..learn.encoders import encoder_for
from ..rules import Rules

__all__ = ["REWARDS", "resolve_rules", "episode_seed", "fresh_seed", "observation_space",
           "action_space", "choose", "stake", "render_text", "agents_of", "check_seat"]

REWARDS = ("final", "transfers")
_NAMES = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10))
_AUTO = AutoPlayBot()


def resolve_rules(rules: Union[str, Rules], knobs: Mapping[str, Any]) -> Rules:
    """A preset name (``PRESET_NAMES`` or, with wild tiles, ``WILD_PRESET_NAMES``) or a
    :class:`~xueliu.Rules`, with ``knobs`` replaced (docs/rules.md §9 names)."""
    if isinstance(rules, str):
        r = Rules.preset(rules)
    elif isinstance(rules, Rules):
        r = rules
    else:
        raise TypeError(f"rules must be a preset name or a Rules, got {type(rules).__name__}")
    if knobs:
        r = r.replace(**knobs)
    pm = r.player_multipliers
    if pm is not None and len(pm["allowed"]) > MULTIPLIER_SLOTS:
        raise ValueError(f"the action space has {MULTIPLIER_SLOTS} multiplier slots; these rules "
                         f"allow {len(pm['allowed'])} values")
    return r


def agents_of(rules: Rules) -> List[str]:
    """The agent names of a table: ``player_0`` … ``player_{n-1}`` for its ``players`` seats."""
    return [f"player_{q}" for q in rules.shape.seats]


def check_seat(seat: Optional[int], rules: Rules) -> Optional[int]:
    """A learning seat ``0..players-1``, or ``None`` (drawn per episode)."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                             or seat not in rules.shape.seats):
        raise ValueError(f"seat is 0..{rules.players - 1} or None (drawn per episode), got "
                         f"{seat!r}")
    return seat


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be 'final' or 'transfers', got {reward!r}")
    return reward


def resolve_encoder(name: Union[str, Encoder], rules: Rules) -> Encoder:
    """The encoder of ``name`` for a table of ``rules``: at a table with wild tiles ``obs_v1`` and
    ``oracle_v1`` become ``obs_wild_v1`` and ``oracle_wild_v1`` (docs/learning.md)."""
    enc = name if isinstance(name, Encoder) else encoder(name)
    return encoder_for(enc, rules)


def episode_seed(master: int, episode: int, what: str) -> int:
    """A 63-bit seed for one part (``"game"``, ``"dealer"``, ``"seat"``, ``"bot 2"`` …) of episode
    ``episode`` after ``reset(seed=master)``: a hash, so nearby seeds give unrelated hands."""
    text = f"xueliu-env:{master}:{episode}:{what}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def fresh_seed() -> int:
    """A master seed from fresh entropy (``reset()`` before any ``reset(seed=...)``)."""
    return secrets.randbits(63)


def check_seed(seed: Optional[int]) -> Optional[int]:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


class Episodes:
    """The (master seed, episode index) of each ``reset``: ``reset(seed=S)`` starts episode 0 of
    master S, a plain ``reset()`` the next episode (of fresh entropy before any seed)."""

    def __init__(self) -> None:
        self.master: Optional[int] = None
        self.episode = 0

    def next(self, seed: Optional[int]) -> Tuple[int, int]:
        seed = check_seed(seed)
        if seed is not None:
            self.master, self.episode = seed, 0
        elif self.master is None:
            self.master, self.episode = fresh_seed(), 0
        else:
            self.episode += 1
        return self.master, self.episode


def stake(state: Any) -> int:
    """One base unit in coins: ``base × room`` (rewards are ledger amounts divided by it)."""
    return int(state.base) * int(state.rules.room)


def observation_space(enc: Encoder, rules: Rules) -> spaces.Dict:
    """``{"observation": float32[C, 27] in [0, 1], "action_mask": int8[num_actions(rules)]}``
    (175 indices, 203 at a table with wild tiles)."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, enc.shape, np.float32),
        "action_mask": spaces.MultiBinary(num_actions(rules)),
    })


def action_space(rules: Rules) -> spaces.Discrete:
    return spaces.Discrete(num_actions(rules))


def default_action(obs: Mapping[str, Any]) -> Action:
    """docs/rules.md §8's default for this decision (what ``apply_timeout`` would take, without counting
    a timeout), from the seat's observation."""
    legal = [Action.from_id(i) for i in obs["legal_actions"]]
    action: Action = _AUTO.act(obs, legal)
    return action


def choose(observation: Callable[[], Mapping[str, Any]], mask: np.ndarray, picks: List[int],
           index: Any, count: int = 3) -> Tuple[Optional[Action], bool]:
    """The engine action of ``index`` for the seat whose mask this is; ``observation()`` gives its
    observation, asked for only when needed (the default of an illegal index, a multiplier).

    Returns ``(action, illegal)``. An exchange pick is kept in ``picks`` and gives ``None`` until
    the ``count``-th (the table's ``exchange_count``: the third, or the fourth under 换四张); an
    index the mask does not allow (or not an int) gives docs/rules.md §8's default action
    for the decision and ``illegal=True`` (the picks are dropped)."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        i = -1
    if isinstance(index, bool) or not 0 <= i < len(mask) or not mask[i]:
        picks.clear()
        return default_action(observation()), True
    if i < EXCHANGE_PICK:
        return Action.from_id(i), False
    if i >= WILD_DISCARD:  # 红中's discard, 提 (a table with wilds): the engine's ids in order
        return Action.from_id(i - WILD_DISCARD + DISCARD_HONGZHONG_ID), False
    if i < MULTIPLIER_SLOT:
        picks.append(i - EXCHANGE_PICK)
        if len(picks) < count:
            return None, False
        tiles = tuple(_NAMES[k] for k in picks)
        picks.clear()
        return Action("exchange", tiles=tiles), False
    pm = observation()["player_multipliers"]
    return Action("multiplier", value=sorted(pm["allowed"])[i - MULTIPLIER_SLOT]), False


def render_text(state: Any) -> str:
    """The table as text, every hand shown (``render_mode="ansi"``)."""
    o = state.observation(None)
    lines = [f"phase {o['phase']} · wall {o['wall_remaining']} · pending {o['pending_seats']}"]
    wilds = o.get("wilds")
    if wilds is not None:
        lines[0] += f" · wilds {' '.join(wilds['kinds'])}" + (
            f" (本金 {wilds['benjin']})" if wilds["benjin"] else "")
    for q in range(len(o["hands"])):
        melds = " ".join(f"({m['type']} {m['tile']}" + (
            f" +{''.join(m['wilds'])})" if m.get("wilds") else ")") for m in o["melds"][q])
        wins = f" won {len(o['wins'][q])}" if o["wins"][q] else ""
        lines.append(f"seat {q}{' (dealer)' if q == o['dealer'] else ''}: "
                     f"{''.join(o['hands'][q])} {melds}{wins} | discards "
                     f"{' '.join(o['discards'][q])} | net {o['net'][q]}")
    return "\n".join(lines)


def seeds_for(master: int, episode: int, seats: Sequence[int], players: int = 4) -> Dict[str, int]:
    """Every seed of one episode: the game, the dealer, the learning seat and each bot (dealer
    and seat among ``players`` seats)."""
    out = {"game": episode_seed(master, episode, "game"),
           "dealer": episode_seed(master, episode, "dealer") % players,
           "seat": episode_seed(master, episode, "seat") % players}
    for q in seats:
        out[f"bot {q}"] = episode_seed(master, episode, f"bot {q}")
    return out
