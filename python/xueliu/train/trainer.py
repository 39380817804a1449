"""``python -m xueliu.train``: expert demonstrations, behaviour cloning, PPO against a league,
evaluation, export — every stage checkpointed in the run directory, so a run resumes where it
stopped and a seed gives the same weights (docs/training.md).

The run directory holds ``config.json`` (the arguments; a resumed run must be given the same),
``demos/chunk_*.npz`` (demonstrations, :mod:`.demos`, made in chunks of ``--chunk`` hands),
``checkpoint.pt`` (model, optimiser, stage, step, random states), ``league/*.npz`` (snapshots
of the policy for the league), ``curve.jsonl`` (every evaluation), ``curve.png``,
``weights.npz`` (the export with the best evaluation so far) and ``final.npz`` (the model as
trained last), each with its ``*_reference.npz`` (PyTorch's logits of 64 inputs).

This module runs the stages in order and evaluates after each epoch; each stage is a module of
its own: :mod:`.chunks` (the demonstrations and the branch points, made in chunks),
:mod:`.imitation` (behaviour cloning), :mod:`.improve` (the improvement stage), :mod:`.ppo`,
:mod:`.export` (the weights files); :mod:`.config` holds the arguments and :mod:`.checkpoint`
what a resumed run reads back.
"""

from __future__ import annotations

import json
import os

import numpy as np
import torch

from ..bots.neural_net import load_network
from ..rules import Rules
from .checkpoint import Progress, check_config, load_checkpoint, save_checkpoint
from .chunks import make_branches, make_demos
from .config import REWARD_SCALE, Config
from .console import Bar, log
from .curve import plot_curve
from .evaluate import duplicate_strength
from .export import export_weights, numpy_chooser
from .imitation import bc_epoch
from .improve import improve_epoch, peng_claims
from .ppo import ppo_iteration
from .torch_model import PolicyNet, load_layers

__all__ = ["Config", "run", "evaluate"]


def evaluate(cfg: Config, model: PolicyNet, prog: Progress) -> float:
    """One evaluation line per preset and opponent, appended to ``curve.jsonl``; returns the
    score (the mean against greedy, averaged over the presets, in reward units)."""
    choose = numpy_chooser(model, cfg.danger_penalty)
    score = 0.0
    with open(os.path.join(cfg.out, "curve.jsonl"), "a", encoding="utf-8") as f:
        for preset in cfg.presets:
            for opponent in cfg.eval_opponents:
                s = duplicate_strength(choose, opponent, preset, cfg.eval_walls,
                                       seed=cfg.seed + 7919)
                log(f"eval step {prog.step} ({prog.stage} {prog.epoch}): {s.line()}")
                f.write(json.dumps({"step": prog.step, "stage": prog.stage, "epoch": prog.epoch,
                                    "preset": preset, "opponent": opponent, "hands": s.hands,
                                    "mean": s.mean, "low": s.low, "high": s.high}) + "\n")
                if opponent == "greedy":
                    score += s.mean / REWARD_SCALE.get(preset, 16.0) / len(cfg.presets)
    plot_curve(os.path.join(cfg.out, "curve.jsonl"), os.path.join(cfg.out, "curve.png"))
    return score


def run(cfg: Config) -> str:
    """The whole pipeline; returns the path of the final weights (``OUT/final.npz``)."""
    for p in cfg.presets:
        Rules.preset(p)
    check_config(cfg)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    os.makedirs(os.path.join(cfg.out, "league"), exist_ok=True)
    model = PolicyNet(cfg.hidden, cfg.encoder, cfg.presets, danger=cfg.danger_loss > 0)
    if cfg.init:
        load_layers(model, load_network(cfg.init))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.bc_lr)
    rng = np.random.default_rng(cfg.seed)
    prog = load_checkpoint(cfg, model, opt, rng)
    if prog is None:
        prog = Progress()
        open(os.path.join(cfg.out, "curve.jsonl"), "w").close()
    else:
        log(f"resumed: stage {prog.stage}, {prog.epoch} done, step {prog.step}")
    samples = make_demos(cfg)
    dagger = (f" and {' + '.join(map(str, cfg.dagger_hands))} DAgger hands" if cfg.dagger
              else "")
    log(f"{len(samples['index'])} demonstration decisions from {cfg.demo_hands} hands{dagger}")
    best = os.path.join(cfg.out, "weights.npz")
    teachers = [load_network(p) for p in cfg.distill]
    if prog.stage == "bc" and prog.epoch == 0 and prog.step == 0:
        prog.best = evaluate(cfg, model, prog)  # the untrained network: the curve's first point
    while prog.stage == "bc":
        if prog.epoch >= cfg.bc_epochs:
            prog.stage, prog.epoch = ("improve" if cfg.improve_epochs else "ppo"), 0
            export_weights(cfg, model, prog, "league/bc.npz", samples)
            save_checkpoint(cfg, model, opt, prog, rng)
            break
        loss = bc_epoch(cfg, model, opt, samples, rng, prog, teachers)
        prog.epoch += 1
        log(f"BC epoch {prog.epoch}: loss {loss:.4f}, step {prog.step}")
        score = evaluate(cfg, model, prog)
        if score > prog.best or not os.path.exists(best):
            prog.best = score
            export_weights(cfg, model, prog, "weights.npz", samples)
            log(f"exported {best} (score {score:+.3f})")
        save_checkpoint(cfg, model, opt, prog, rng)
    if (prog.stage == "ppo" and prog.epoch == 0 and cfg.improve_epochs
            and not prog.improved):  # a BC run resumed into the improvement stage
        prog.stage = "improve"
    if prog.stage == "improve":
        points = make_branches(cfg)
        log(f"{len(points['preset'])} branch points from {cfg.improve_hands} hands")
        for group in opt.param_groups:
            group["lr"] = cfg.improve_lr
        anchors = peng_claims(samples) if cfg.improve_anchor > 0 else None
        while prog.epoch < cfg.improve_epochs:
            loss_a, loss_bc = improve_epoch(cfg, model, opt, samples, points, rng, prog, anchors,
                                            teachers)
            prog.epoch += 1
            log(f"improve epoch {prog.epoch}: advantage loss {loss_a:+.4f}, BC {loss_bc:.4f}, "
                 f"step {prog.step}")
            score = evaluate(cfg, model, prog)
            export_weights(cfg, model, prog, f"league/improve_{prog.epoch:03d}.npz", samples)
            if score > prog.best or not os.path.exists(best):
                prog.best = score
                export_weights(cfg, model, prog, "weights.npz", samples)
                log(f"exported {best} (score {score:+.3f})")
            save_checkpoint(cfg, model, opt, prog, rng)
        prog.stage, prog.epoch, prog.improved = "ppo", 0, True
        save_checkpoint(cfg, model, opt, prog, rng)
    if prog.stage == "ppo":
        for group in opt.param_groups:  # --ppo-lr as given now (it may change until PPO starts)
            group["lr"] = cfg.ppo_lr
        bar = Bar("PPO", cfg.ppo_iterations)
        bar.skip(prog.epoch)
        while prog.epoch < cfg.ppo_iterations:
            stats = ppo_iteration(cfg, model, opt, rng, prog)
            prog.epoch += 1
            bar.update(note=f"net {stats['mean_net']:+.3f} ({int(stats['decisions'])} dec.)")
            if prog.epoch % cfg.snapshot_every == 0:
                export_weights(cfg, model, prog, f"league/ppo_{prog.epoch:05d}.npz", samples)
            if prog.epoch % cfg.eval_every == 0 or prog.epoch == cfg.ppo_iterations:
                score = evaluate(cfg, model, prog)
                if score > prog.best:
                    prog.best = score
                    export_weights(cfg, model, prog, "weights.npz", samples)
                    log(f"exported {best} (score {score:+.3f})")
            save_checkpoint(cfg, model, opt, prog, rng)
    if not os.path.exists(best):  # no epoch was trained (a --init file evaluated as it is)
        export_weights(cfg, model, prog, "weights.npz", samples)
    final = export_weights(cfg, model, prog, "final.npz", samples)
    log(f"exported {final} (the model as trained last; {best}: the best evaluation)")
    load_network(best)  # the exports read back
    return final
