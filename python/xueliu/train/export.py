"""The model out of PyTorch: as the bot's numpy network (what the evaluations and PPO's rollouts
play) and as the run's weights files, each with its reference logits."""

from __future__ import annotations

import os
from typing import Any, Dict

import numpy as np

from ..bots.neural import masked_argmax
from ..bots.neural_net import Network
from ..rules import Rules
from . import demos as demo_mod
from .checkpoint import Progress
from .config import Config
from .torch_model import PolicyNet, export

__all__ = ["network_of", "numpy_chooser", "export_weights"]


def network_of(model: PolicyNet, penalty: float = 0.0) -> Network:
    """The model's policy as the bot's numpy network (its encoder and the presets' fan tables;
    ``penalty``: the danger penalty of a model with a danger head)."""
    from .torch_model import layers_of

    presets = {p: Rules.preset(p).to_dict() for p in model.presets}
    meta: Dict[str, Any] = {"encoder": model.encoder}
    if model.danger is not None:
        meta["danger"] = {"penalty": penalty}
    return Network(tuple(layers_of(model)), presets, meta)


def numpy_chooser(model: PolicyNet, penalty: float = 0.0) -> Any:
    net = network_of(model, penalty)
    return lambda x, mask: masked_argmax(net.forward(x), mask)



def export_weights(cfg: Config, model: PolicyNet, prog: Progress, name: str, samples: Any) -> str:
    path = os.path.join(cfg.out, name)
    pick = np.random.default_rng(cfg.seed).integers(0, len(samples["index"]), 64)
    x = demo_mod.unpack_x(samples["x"][pick])
    training = {"command": "python -m xueliu.train " + " ".join(cfg.extra.get("argv", [])),
                "seed": cfg.seed, "stage": prog.stage, "epoch": prog.epoch, "step": prog.step,
                "hidden": list(cfg.hidden), "teacher": cfg.teacher,
                "demo_hands": cfg.demo_hands}
    reference = ("" if name.startswith("league/")
                 else os.path.join(cfg.out, name.replace(".npz", "_reference.npz")))
    export(model, path, cfg.presets, training, x, reference=reference, half=cfg.half,
           danger_penalty=cfg.danger_penalty)
    return path
