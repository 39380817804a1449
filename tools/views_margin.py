"""A weights file with ``views`` set: the same network, its bot asking the twelve renamed tables
about the close calls within ``MARGIN`` nats (:mod:`xueliu.bots.neural_views`; 0 removes it).
The last step of the shipped weights' recipe (docs/training.md): it makes
``python/xueliu/bots/weights/neural_v1.npz`` from the ``runs/v58`` network::

    python tools/views_margin.py runs/v58/final.npz 0.5 python/xueliu/bots/weights/neural_v1.npz

The layers, presets, encoder and training record are copied as they are (the reference logits
of the run, ``final_reference.npz``, still hold: the views change the choice, not the network).
"""

from __future__ import annotations

import argparse

import numpy as np

from xueliu import Rules
from xueliu.bots.neural_net import load_network, save_network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", help="the weights file read")
    parser.add_argument("margin", type=float, help="nats (0: the network alone)")
    parser.add_argument("out", help="the weights file written")
    args = parser.parse_args()
    net = load_network(args.weights)
    with np.load(args.weights) as z:
        half = z["w0"].dtype == np.float16
    save_network(args.out, [(w, b) for w, b in net.layers],
                 {k: Rules.from_dict(dict(d)) for k, d in net.presets.items()},
                 net.meta.get("training", {}), encoder=net.encoder, half=half,
                 danger_penalty=net.danger_penalty, views_margin=args.margin or None)


if __name__ == "__main__":
    main()
