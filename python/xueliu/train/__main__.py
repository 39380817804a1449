"""``python -m xueliu.train``: the training pipeline's command line (docs/training.md)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable, Optional, Sequence

__all__ = ["main", "build_parser"]


def _positive_ints(what: str) -> Callable[[str], tuple[int, ...]]:
    """An argparse type: comma-separated positive ints (``what`` names them in the error)."""
    def parse(text: str) -> tuple[int, ...]:
        try:
            values = tuple(int(v) for v in text.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected comma-separated ints, got {text!r}") from None
        if min(values) < 1:
            raise argparse.ArgumentTypeError(f"{what} are positive ints, got {text!r}")
        return values
    return parse


def _names(text: str) -> tuple[str, ...]:
    values = tuple(v.strip() for v in text.split(",") if v.strip())
    if not values:
        raise argparse.ArgumentTypeError("expected comma-separated names")
    return values


def build_parser(prog: str = "python -m xueliu.train") -> argparse.ArgumentParser:
    """The options, in groups by stage: the run, the network, the demonstrations, imitation
    (behaviour cloning), distillation, the improvement stage (branch points and close calls),
    PPO, evaluation and output; each with a one-line help (``xueliu train --help``)."""
    from .close_calls import DECISIONS  # (numpy only: the parser needs no PyTorch)
    from ..game.redeal import HANDS

    p = argparse.ArgumentParser(prog=prog, description=(
        "Train the neural bot: expert demonstrations, behaviour cloning, PPO against a league of "
        "expert, greedy and earlier checkpoints; checkpoints in --out (run it again to resume), "
        "evaluation lines on stderr, the learning curve in OUT/curve.png, the weights in "
        "OUT/weights.npz (and --install-to). Needs the train extra (PyTorch, matplotlib)."))

    a = p.add_argument_group("the run").add_argument
    a("--out", required=True, help="run directory (made; an existing run is resumed)")
    a("--seed", type=int, default=2026, help="master seed of every stage: demonstrations, "
      "batches, rollouts, evaluation walls (default 2026)")
    a("--presets", type=_names, default=("xueliu", "xuezhan"), metavar="P[,P…]",
      help="the rules trained for, comma-separated presets; hand i is played under preset i mod "
      "their number (default xueliu,xuezhan)")
    a("--workers", type=int, default=1, help="processes making demonstrations and branch "
      "points (default 1)")
    a("--threads", type=int, default=1, help="PyTorch threads (default 1)")

    a = p.add_argument_group("the network").add_argument
    a("--hidden", type=_positive_ints("layer widths"), default=(256, 128), metavar="W[,W…]",
      help="hidden layer widths (default 256,128)")
    a("--init", default="", metavar="WEIGHTS", help="start from this weights file (as many hidden "
      "layers, each at most as wide as the run's; its encoder the run's or an earlier one; what "
      "it lacks is read with zero weights, so the run starts playing as it does) instead of a "
      "random network: --bc-epochs 0 fine-tunes it")
    a("--encoder", choices=("obs_v1", "obs_v2", "obs_v3"), default="obs_v1",
      help="the network's input: obs_v1, obs_v2 (obs_v1 and its analysis channels) or obs_v3 "
      "(obs_v2 and the won-wait channels)")

    a = p.add_argument_group("demonstrations (the data imitated)").add_argument
    a("--teacher", default="expert", metavar="BOT",
      help="the bot imitated by behaviour cloning (default expert)")
    a("--demo-hands", type=int, default=2000, metavar="N",
      help="hands of demonstrations (default 2000)")
    a("--dagger", type=_names, default=(), metavar="WEIGHTS[,WEIGHTS…]", help="DAgger: a weights "
      "file whose network plays two seats of --dagger-hands more hands, the teacher labelling "
      "every decision; several files (comma-separated) are rounds, each on hands of its own")
    a("--dagger-hands", type=_positive_ints("hand counts"), default=(), metavar="N[,N…]",
      help="hands of DAgger demonstrations, one count per --dagger file (default none)")
    a("--chunk", type=int, default=50, metavar="N",
      help="hands per demonstration chunk, the unit a resumed run starts again from (default 50)")

    a = p.add_argument_group("imitation (behaviour cloning)").add_argument
    a("--bc-epochs", type=int, default=4, metavar="N",
      help="passes over the demonstrations (default 4; 0: no imitation)")
    a("--bc-batch", type=int, default=512, metavar="N",
      help="decisions per batch, of imitation and of the improvement stage (default 512)")
    a("--bc-lr", type=float, default=1e-3, metavar="LR",
      help="the imitation's learning rate (Adam; default 0.001)")
    a("--bc-lr-end", type=float, default=None, metavar="LR", help="cosine decay of the BC "
      "learning rate to this over --bc-epochs (default: constant)")
    a("--bc-weight-won", type=float, default=1.0, metavar="W", help="weight in the BC loss of a "
      "decision that may discard a kind a won 血流 hand has won on, and another kind (default 1: "
      "as any)")
    a("--bc-soft", type=float, default=0.0, metavar="T", help="behaviour cloning imitates the "
      "softmax of the teacher's option values over T (payment units) instead of its one "
      "choice; the demonstrations then record those values (an ExpertBot teacher; default 0: "
      "the choice)")
    a("--danger-loss", type=float, default=0.0, metavar="W", help="give the network a danger "
      "head: 27 logits of the chance that discarding each kind deals in at once, learned with "
      "this weight from the deal-in costs recorded with the demonstrations (default 0: no head)")
    a("--danger-penalty", type=float, default=0.0, metavar="X", help="with a danger head: each "
      "discard's logit is lowered by this times its chance of dealing in, in the exported "
      "weights and the evaluations; a finished run given another writes its weights again")
    a("--augment-renamings", type=int, default=1, metavar="N", help="BC and the improvement "
      "stage see each row under one of the first N renamings of its tiles, drawn at random "
      "(xueliu.learn.renamings: the same decision at a table that plays alike; 6 permutes the "
      "suits, 12 also reverses the ranks; default 1: as recorded)")

    a = p.add_argument_group("distillation (imitating networks' averaged policy)").add_argument
    a("--distill", type=_names, default=(), metavar="W1,W2,…", help="behaviour cloning "
      "imitates these weights files' averaged policy (their normalised geometric mean) on the "
      "demonstrations' states instead of the teacher's recorded choice")
    a("--distill-views", type=int, default=1, metavar="V", help="with --distill: each weights "
      "file is asked also about the table with its tiles renamed, the first V of the twelve "
      "renamings (xueliu.learn.renamings: 2..6 permute the suits, 7..12 also reverse the ranks), "
      "each answer mapped back to the real tiles (default 1: the table as it is; an exchange's "
      "pick is averaged over the views that keep the ranks only)")
    a("--distill-temperature", type=float, default=1.0, metavar="T", help="with --distill: "
      "the averaged policy is sharpened before it is imitated — the softmax of its "
      "log-probabilities over T (default 1: as it is; below 1 the student pays more for "
      "missing the teachers' first choice where options are close)")

    a = p.add_argument_group("improvement (branch points and close calls; docs/training.md)") \
        .add_argument
    a("--improve-actor", default="", metavar="WEIGHTS", help="the improvement stage's network: "
      "'bc' (the BC result) or a weights file; it plays --improve-hands hands, each candidate of "
      "its branch points played out on the hand's own wall (docs/training.md)")
    a("--improve-hands", type=int, default=0, metavar="N",
      help="hands of branch points (default 0: no improvement stage)")
    a("--improve-epochs", type=int, default=0, metavar="N",
      help="passes over the branch points after BC (default 0)")
    a("--improve-lr", type=float, default=1e-4, metavar="LR",
      help="the improvement stage's learning rate (default 0.0001)")
    a("--improve-weight", type=float, default=1.0, metavar="W", help="weight of the "
      "demonstrations' cross-entropy beside the branch points' advantage loss (default 1)")
    a("--improve-rate", type=float, default=0.25, metavar="P",
      help="chance a decision is a branch point (default 0.25)")
    a("--improve-top", type=int, default=3, metavar="K",
      help="candidates of a branch point, the network's best K (default 3)")
    a("--improve-loss", choices=("policy", "pairwise"), default="policy",
      help="the improvement stage's loss: policy (the gradient of the candidates' expected "
      "value, each weighted by its probability: the default) or pairwise (for two candidates: "
      "the better one as a logistic target on their logit difference, weighted by how much "
      "better; it moves choices the network is sure of)")
    a("--improve-anchor", type=float, default=0.0, metavar="SHARE", help="the share of each "
      "imitation batch of the improvement stage drawn from the demonstrations' claim decisions "
      "offering a 碰 and no 胡, so that the close calls of a 胡 against a 碰 do not move other "
      "claims (default 0)")
    a("--improve-opponents", type=_names, default=("expert", "greedy"), metavar="BOT[,BOT…]",
      help="the three opponents of each chunk of branch hands, in turn; or 'redeal': the "
      "actor's own close calls in self-play, valued over redeals (xueliu.train.close_calls), "
      "and 'redeal:BOT' the same against three BOT (default expert,greedy)")
    a("--improve-redeals", type=int, default=8, metavar="N", help="with --improve-opponents "
      "redeal: the redeals of the hidden tiles each close call is valued over (default 8)")
    a("--improve-gap", type=float, default=0.5, metavar="LOGITS", help="with --improve-opponents "
      "redeal: a decision whose two best indices (of the kind --improve-decisions names) are "
      "less than this many logits apart is a close call (default 0.5)")
    a("--improve-won-hands", choices=("keep", "redeal"), default="keep",
      help="with --improve-opponents redeal: whether a close call's redeals keep the won hands' "
      "tiles (keep, the default: they know those hands' other waits, which the seat cannot see) "
      "or deal them again (redeal)")
    a("--improve-decisions", choices=DECISIONS, default="discards",
      help="with --improve-opponents redeal: which decisions are close calls: discards (the "
      "default: a turn's two best discards), melds (the two best not both discards: 碰/杠/胡/"
      "pass), melds_no_pass (of those, a 碰 or 杠 against anything but pass) or win_or_meld (a 胡 "
      "against a 碰 or 杠)")
    a("--improve-redeal-hands", choices=HANDS, default="uniform",
      help="with --improve-opponents redeal: how a close call's redeals deal the other seats' "
      "hidden hands: uniform (the default: at random from the hidden tiles) or likely (as near a "
      "win as real players' hands at that point of a hand: xueliu.game.likely_hands)")

    a = p.add_argument_group("PPO (self-play against a league)").add_argument
    a("--ppo-iterations", type=int, default=0, metavar="N",
      help="PPO iterations after BC (default 0: no PPO)")
    a("--ppo-hands", type=int, default=32, metavar="N",
      help="hands of rollouts per PPO iteration (default 32)")
    a("--ppo-epochs", type=int, default=2, metavar="N",
      help="passes of clipped PPO over each iteration's decisions (default 2)")
    a("--ppo-lr", type=float, default=2e-4, metavar="LR",
      help="PPO's learning rate (default 0.0002)")
    a("--entropy", type=float, default=0.01, metavar="W",
      help="weight of the policy's entropy bonus in the PPO loss (default 0.01)")
    a("--kl", type=float, default=0.0, metavar="W", help="weight of KL(policy || the BC policy) "
      "in the PPO loss (default 0: none)")
    a("--value-iterations", type=int, default=0, metavar="N", help="first PPO iterations that "
      "fit the value head alone, the policy unchanged (default 0)")
    a("--league", type=_names, default=("greedy", "expert", "self"), metavar="KIND[,KIND…]",
      help="opponent kinds of the rollouts, one drawn per hand (self: earlier snapshots; "
      "default greedy,expert,self)")
    a("--snapshot-every", type=int, default=10, metavar="N",
      help="every N PPO iterations the policy joins the league as a snapshot (default 10)")

    a = p.add_argument_group("evaluation (the best evaluation is OUT/weights.npz)").add_argument
    a("--eval-every", type=int, default=10, metavar="N", help="evaluate every N PPO iterations "
      "and after the last (BC and improvement epochs: after each; default 10)")
    a("--eval-walls", type=int, default=8, metavar="N",
      help="duplicate walls per evaluation (x4 hands; default 8)")
    a("--eval-opponents", type=_names, default=("greedy", "expert"), metavar="BOT[,BOT…]",
      help="each evaluation plays against three of each of these, at each preset; the score is "
      "the mean against greedy (default greedy,expert)")

    a = p.add_argument_group("output").add_argument
    a("--half", action="store_true", help="store the exported weights in float16 (half the "
      "file; the network exported, and its reference logits, are the one rounded so); a "
      "finished run given it writes its final weights again")
    a("--install-to", default="", metavar="PATH", help="copy the final weights (--install-best: "
      "the best evaluated ones) there at the end, and their reference logits to --reference-to")
    a("--install-best", action="store_true",
      help="install OUT/weights.npz (best evaluation) instead of OUT/final.npz")
    a("--reference-to", default="", metavar="PATH", help="where the installed weights' "
      "reference logits go (the test data file tests/data/neural_v1_reference.npz in the "
      "repository)")
    a("--curve-to", default="", metavar="PATH",
      help="copy the learning-curve PNG there at the end")
    return p


def main(argv: Optional[Sequence[str]] = None, prog: str = "python -m xueliu.train") -> int:
    """The command (``xueliu train`` runs it with ``prog="xueliu train"``); the exit code."""
    args = build_parser(prog).parse_args(argv)
    if args.bc_epochs < 0:
        print("--bc-epochs must not be negative", file=sys.stderr)
        return 2
    if not args.bc_weight_won > 0:
        print("--bc-weight-won must be positive", file=sys.stderr)
        return 2
    if not (args.danger_loss >= 0 and args.danger_penalty >= 0) \
            or not math.isfinite(args.danger_loss + args.danger_penalty):
        print("--danger-loss and --danger-penalty must be finite and not negative",
              file=sys.stderr)
        return 2
    if not (args.bc_soft >= 0 and math.isfinite(args.bc_soft)):
        print("--bc-soft must be finite and not negative", file=sys.stderr)
        return 2
    if not (args.distill_temperature > 0 and math.isfinite(args.distill_temperature)):
        print("--distill-temperature must be a finite number above 0", file=sys.stderr)
        return 2
    for option, n in (("--distill-views", args.distill_views),
                      ("--augment-renamings", args.augment_renamings)):
        if not 1 <= n <= 12:
            print(f"{option} is 1..12, got {n}", file=sys.stderr)
            return 2
    if args.bc_soft > 0 and args.distill:
        print("--bc-soft and --distill are two targets for one loss: give one", file=sys.stderr)
        return 2
    if args.bc_soft > 0:
        from .demos import check_valued_teacher

        try:
            check_valued_teacher(args.teacher)
        except ValueError as e:
            print(f"--bc-soft {e}", file=sys.stderr)
            return 2
    for name in ("demo_hands", "chunk", "workers", "bc_batch", "ppo_hands", "eval_walls",
                 "threads", "snapshot_every", "eval_every"):
        if getattr(args, name) < 1:
            print(f"--{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if len(args.dagger) != len(args.dagger_hands):
        print("--dagger and --dagger-hands go together, one hand count per weights file",
              file=sys.stderr)
        return 2
    if bool(args.improve_epochs) != (args.improve_hands > 0) or (
            bool(args.improve_epochs) != bool(args.improve_actor)):
        print("--improve-actor, --improve-hands and --improve-epochs go together", file=sys.stderr)
        return 2
    if not 0 < args.improve_rate <= 1 or args.improve_top < 2:
        print("--improve-rate is in (0, 1] and --improve-top at least 2", file=sys.stderr)
        return 2
    from ..bots import BOTS, NeuralBot
    from .close_calls import source_opponent

    sources = [source_opponent(n) for n in args.improve_opponents]
    redeal = [r for r, _ in sources]
    if any(redeal) and (not all(redeal) or args.improve_redeals < 1
                        or not args.improve_gap > 0):
        print("--improve-opponents redeal or redeal:BOT go without plain bots, with "
              "--improve-redeals at least 1 and --improve-gap above 0", file=sys.stderr)
        return 2
    if (args.improve_won_hands != "keep" or args.improve_decisions != "discards"
            or args.improve_redeal_hands != "uniform") and not any(redeal):
        print("--improve-won-hands redeal, --improve-decisions and --improve-redeal-hands are "
              "for the close calls of "
              "--improve-opponents redeal or redeal:BOT", file=sys.stderr)
        return 2
    for entry, (r, opponent) in zip(args.improve_opponents, sources):
        bot_name = opponent if r else entry  # None: close calls of self-play
        if bot_name is not None and bot_name not in BOTS:
            print(f"--improve-opponents: unknown bot {bot_name!r}", file=sys.stderr)
            return 2
    for flag, path in ([("--dagger", d) for d in args.dagger]
                       + [("--distill", d) for d in args.distill] + [("--init", args.init),
                       ("--improve-actor", "" if args.improve_actor == "bc" else args.improve_actor)]):
        if not path:
            continue
        try:
            NeuralBot(weights=path)
        except (OSError, ValueError) as e:
            print(f"{flag} {path}: {e}", file=sys.stderr)
            return 2
    for name in ("kl", "value_iterations", "ppo_iterations", "improve_hands",
                 "improve_epochs"):
        if getattr(args, name) < 0:
            print(f"--{name.replace('_', '-')} must not be negative", file=sys.stderr)
            return 2
    try:
        import torch  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError as e:
        print(f"{prog} needs the train extra (pip install \".[train]\" in the clone): {e}",
              file=sys.stderr)
        return 2
    import shutil

    from .trainer import Config, run

    cfg = Config(out=args.out, seed=args.seed, presets=args.presets, hidden=args.hidden,
                 init=args.init,
                 encoder=args.encoder,
                 teacher=args.teacher, demo_hands=args.demo_hands, dagger=args.dagger,
                 dagger_hands=args.dagger_hands, chunk=args.chunk, half=args.half,
                 workers=args.workers, bc_epochs=args.bc_epochs, bc_batch=args.bc_batch,
                 bc_lr=args.bc_lr, bc_lr_end=args.bc_lr_end,
                 bc_weight_won=args.bc_weight_won, danger_loss=args.danger_loss,
                 danger_penalty=args.danger_penalty, distill=args.distill,
                 distill_views=args.distill_views,
                 distill_temperature=args.distill_temperature,
                 bc_soft=args.bc_soft,
                 improve_actor=args.improve_actor,
                 improve_hands=args.improve_hands, improve_opponents=args.improve_opponents,
                 improve_rate=args.improve_rate, improve_top=args.improve_top,
                 improve_epochs=args.improve_epochs, improve_lr=args.improve_lr,
                 improve_weight=args.improve_weight, improve_redeals=args.improve_redeals,
                 improve_gap=args.improve_gap, improve_won_hands=args.improve_won_hands,
                 improve_decisions=args.improve_decisions, improve_loss=args.improve_loss,
                 improve_redeal_hands=args.improve_redeal_hands,
                 improve_anchor=args.improve_anchor, augment_renamings=args.augment_renamings,
                 ppo_iterations=args.ppo_iterations, ppo_hands=args.ppo_hands,
                 ppo_epochs=args.ppo_epochs, ppo_lr=args.ppo_lr, entropy=args.entropy,
                 kl=args.kl, value_iterations=args.value_iterations,
                 league=args.league, snapshot_every=args.snapshot_every,
                 eval_every=args.eval_every, eval_walls=args.eval_walls,
                 eval_opponents=args.eval_opponents, threads=args.threads,
                 extra={"argv": list(sys.argv[1:] if argv is None else argv)})
    try:
        path = run(cfg)
    except ValueError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    import os

    if args.install_best:
        path = os.path.join(args.out, "weights.npz")
    if args.install_to:
        shutil.copyfile(path, args.install_to)
        print(f"installed {path} as {args.install_to}", file=sys.stderr)
        if args.reference_to:
            shutil.copyfile(path.replace(".npz", "_reference.npz"), args.reference_to)
    if args.curve_to:
        shutil.copyfile(os.path.join(args.out, "curve.png"), args.curve_to)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
