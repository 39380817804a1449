"""Simulation at scale: many hands with given bots, in worker processes or on a Ray cluster.

>>> from xueliu.simulate import simulate
>>> summary = simulate(8, bots=["greedy", "random", "random", "random"], seed=1, duplicate=True)
>>> [b.name for b in summary.bots]
['greedy', 'random']

Every hand is a pure function of (seed, hand index): hand ``i`` plays the wall of seed
``hand_seed(seed, wall)`` — ``wall = i`` (or ``i // 4`` with ``duplicate``, where the four plays of
a wall rotate the bots through the seats) — with the dealer ``wall % n`` (n seats) and bot seeds derived the
same way. So the results, the summary and the ``--out`` lines are the same for any number of
workers and for either backend; chunks of hands are farmed out and gathered back in hand order.

A bot may be a program (``"cmd:python3 mybot.py"``, docs/protocol.md): each ``cmd:`` entry of the
bots runs as one process per worker for the whole run, and a late, garbage or illegal answer,
or a dead program, gets docs/rules.md §8's default for that decision (counted in the summary).

Running on a Ray cluster (``pip install ".[ray]"`` in the clone): start the cluster
(``ray start --head`` on one node, ``ray start --address=HEAD:6379`` on the others), then on a
node of it ``RAY_ADDRESS=auto xueliu simulate --games 100000 --backend ray``. Without ``RAY_ADDRESS`` Ray
starts a local instance with ``--workers`` CPUs. Every node needs the same xueliu installed.

Modules: :mod:`.play` (one hand: seeds, seating, the loop asking the bots), :mod:`.batched` (a
worker's hands together, its neural seats decided in one batch a step, to the same hands),
:mod:`.summary` (per-bot statistics), :mod:`.progress`, :mod:`.run` (workers, backends, the
command).
"""

from .play import Config, hand_seed, play_one
from .progress import Progress
from .run import run_command, simulate
from .summary import BotStats, Summary

__all__ = ["simulate", "play_one", "hand_seed", "Summary", "BotStats", "Progress", "Config",
           "run_command"]
