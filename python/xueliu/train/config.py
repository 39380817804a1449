"""The training run's arguments (:class:`Config`, one field per option of ``python -m
xueliu.train``) and the constants every stage reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

__all__ = ["Config", "REWARD_SCALE", "ADVANTAGE_CLIP"]

REWARD_SCALE = {"xueliu": 16.0, "xuezhan": 64.0}
"""A hand's net is divided by this to make the PPO return (xuezhan's stakes are larger)."""
ADVANTAGE_CLIP = 4.0
"""A branch candidate's advantage, in reward units, is clipped to ± this: one wall's 血战 hand
can differ by thousands, and one lucky wall should not steer the policy alone."""


@dataclass
class Config:
    """A run's arguments: one field per option of ``python -m xueliu.train`` (``extra``: what is
    recorded beside them, the command line)."""

    out: str
    seed: int = 2026
    presets: Tuple[str, ...] = ("xueliu", "xuezhan")
    hidden: Tuple[int, ...] = (256, 128)
    init: str = ""  # a weights file the network starts from (else a seeded random start)
    encoder: str = "obs_v1"
    teacher: str = "expert"
    demo_hands: int = 2000
    # DAgger rounds: round r's weights file acts in dagger_hands[r] hands of demonstrations
    dagger: Tuple[str, ...] = ()
    dagger_hands: Tuple[int, ...] = ()
    chunk: int = 50
    workers: int = 1
    half: bool = False  # exports store the weights in float16
    bc_epochs: int = 4
    bc_batch: int = 512
    bc_lr: float = 1e-3
    bc_lr_end: Optional[float] = None  # None: constant; else cosine from bc_lr to it
    bc_weight_won: float = 1.0  # weight of a won-wait choice (won_wait_choice) in the BC loss
    danger_loss: float = 0.0  # > 0: a danger head (the chance each discard deals in), its weight
    danger_penalty: float = 0.0  # the exported policy's price of a discard's chance to deal in
    distill: Tuple[str, ...] = ()  # weights files whose averaged policy BC imitates instead
    distill_views: int = 1  # ... each also asked about the table renamed this many ways (v54 on)
    distill_temperature: float = 1.0  # ... their policy sharpened (< 1) before it is imitated
    bc_soft: float = 0.0  # > 0: BC imitates softmax(teacher's option values / this) (v17)
    improve_actor: str = ""  # "bc" (the BC result) or a weights file: the branches' network
    improve_hands: int = 0
    improve_opponents: Tuple[str, ...] = ("expert", "greedy")
    improve_rate: float = 0.25
    improve_top: int = 3
    improve_epochs: int = 0
    improve_lr: float = 1e-4
    improve_weight: float = 1.0
    improve_redeals: int = 8  # improve_opponents ("redeal",): redeals valuing each close call
    improve_gap: float = 0.5  # ... and the logit gap under which a turn is a close call
    improve_won_hands: str = "keep"  # ... and whether its redeals deal won hands again
    improve_decisions: str = "discards"  # ... and which decisions are close calls
    improve_redeal_hands: str = "uniform"  # ... and how its redeals deal hidden hands
    improve_loss: str = "policy"  # "policy" (the gradient of the expected value) or "pairwise"
    improve_anchor: float = 0.0  # the share of each imitation batch drawn from claims (碰, no 胡)
    augment_renamings: int = 1  # > 1: each training row under one of this many renamings (v54 on)
    ppo_iterations: int = 0
    ppo_hands: int = 32
    ppo_epochs: int = 2
    ppo_lr: float = 2e-4
    ppo_clip: float = 0.2
    entropy: float = 0.01
    kl: float = 0.0
    value_iterations: int = 0
    league: Tuple[str, ...] = ("greedy", "expert", "self")
    snapshot_every: int = 10
    eval_every: int = 10
    eval_walls: int = 8
    eval_opponents: Tuple[str, ...] = ("greedy", "expert")
    threads: int = 1
    extra: Dict[str, Any] = field(default_factory=dict)
