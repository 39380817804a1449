"""``xueliu train ...``: the training pipeline's own command line, ``python -m xueliu.train``
(the train extra; docs/training.md)."""

from __future__ import annotations

import argparse

__all__ = ["cmd_train"]


def cmd_train(args: argparse.Namespace) -> int:
    from ..train.__main__ import main as train_main  # numpy only until the arguments are read

    return train_main(args.args, prog="xueliu train")
