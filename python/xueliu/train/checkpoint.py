"""What a run directory keeps between runs: ``checkpoint.pt`` (model, optimiser, the stage reached,
random states) and ``config.json`` (the arguments, which a resumed run must repeat but for the
few it may change)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Optional

import numpy as np
import torch

from .config import Config
from .torch_model import PolicyNet

__all__ = ["Progress", "save_checkpoint", "load_checkpoint", "check_config"]


@dataclass
class Progress:
    """Where a run is: what a resumed run starts from."""

    stage: str = "bc"  # "bc", then "improve" (with --improve-epochs), then "ppo"
    improved: bool = False  # the improvement stage has ended
    epoch: int = 0  # BC epochs done / PPO iterations done
    step: int = 0  # optimiser steps so far (the curve's x axis)
    best: float = -1e18  # the best evaluation score so far (mean vs greedy over the presets)


def save_checkpoint(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer, prog: Progress,
                    rng: np.random.Generator) -> None:
    """``OUT/checkpoint.pt``, written whole or not at all."""
    path = os.path.join(cfg.out, "checkpoint.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "progress": asdict(prog),
                "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state()},
               path + ".tmp")
    os.replace(path + ".tmp", path)


def load_checkpoint(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer,
                    rng: np.random.Generator) -> Optional[Progress]:
    """The run's checkpoint read into ``model``, ``opt`` and ``rng``; its progress (``None``: a
    new run)."""
    path = os.path.join(cfg.out, "checkpoint.pt")
    if not os.path.exists(path):
        return None
    ck = torch.load(path, weights_only=False)
    model.load_state_dict(ck["model"])
    opt.load_state_dict(ck["opt"])
    rng.bit_generator.state = ck["rng"]
    torch.set_rng_state(ck["torch_rng"])
    return Progress(**ck["progress"])


def check_config(cfg: Config) -> None:
    """``OUT/config.json`` written, after checking that a resumed run was given the same
    arguments (but those it may still change); a ``ValueError`` names the others."""
    os.makedirs(cfg.out, exist_ok=True)
    path = os.path.join(cfg.out, "config.json")
    mine = {k: v for k, v in asdict(cfg).items() if k not in ("extra", "workers", "threads")}
    mine = json.loads(json.dumps(mine))
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            theirs = json.load(f)
        if isinstance(theirs.get("dagger"), str):  # a run of one DAgger round, before rounds
            one = bool(theirs["dagger"])
            theirs["dagger"] = [theirs["dagger"]] if one else []
            theirs["dagger_hands"] = [theirs.get("dagger_hands", 0)] if one else []
        defaults = json.loads(json.dumps(asdict(Config(out=cfg.out))))
        free = _GROWABLE + (() if _ppo_started(cfg.out)
                            else _PPO_ONLY)  # PPO's own settings, until PPO has started
        free += () if _improve_started(cfg.out) else _IMPROVE_ONLY
        diff = sorted(k for k in set(mine) | set(theirs)  # a key a run predates: its default
                      if mine.get(k) != theirs.get(k, defaults.get(k)) and k not in free)
        if diff:
            raise ValueError(f"{cfg.out} is a run with other arguments ({', '.join(diff)}); "
                             "resume it with the same ones or choose another --out")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(mine, f, indent=1, sort_keys=True)


def _ppo_started(out: str) -> bool:
    """Whether the run in ``out`` has made a PPO iteration (its checkpoint says so): until then a
    resumed run may still choose how to fine-tune BC's result."""
    path = os.path.join(out, "checkpoint.pt")
    if not os.path.exists(path):
        return False
    prog = torch.load(path, weights_only=False)["progress"]
    return bool(prog["stage"] == "ppo" and prog["epoch"] > 0)


def _improve_started(out: str) -> bool:
    """Whether the run in ``out`` has begun its improvement stage (until then, also after BC has
    ended, a resumed run may choose it)."""
    path = os.path.join(out, "checkpoint.pt")
    if not os.path.exists(path):
        return False
    prog = torch.load(path, weights_only=False)["progress"]
    return bool(prog.get("improved") or (prog["stage"] == "improve" and prog["epoch"] > 0)
                or (prog["stage"] == "ppo" and prog["epoch"] > 0))


_GROWABLE = ("bc_epochs", "ppo_iterations", "eval_every", "snapshot_every", "half",
             "danger_penalty")
"""Arguments a resumed run may raise: it trains longer (``half`` and ``danger_penalty`` change
only the exports and evaluations: a finished run given them writes its final weights again)."""
_IMPROVE_ONLY = ("improve_actor", "improve_hands", "improve_opponents", "improve_rate",
                 "improve_top", "improve_epochs", "improve_lr", "improve_weight",
                 "improve_redeals", "improve_gap", "improve_won_hands",
                 "improve_decisions", "improve_loss", "improve_anchor",
                 "improve_redeal_hands")
"""Arguments only the improvement stage reads: free until it has started."""
_PPO_ONLY = ("ppo_hands", "ppo_epochs", "ppo_lr", "ppo_clip", "entropy", "kl", "value_iterations",
             "league")
"""Arguments only PPO reads: a resumed run may change them until its first PPO iteration — BC's
result can be fine-tuned as wanted, also after BC has ended."""
