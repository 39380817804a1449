"""The baseline the benchmarks measure against in the same run (the machine is noisy,
so only a ratio from one run compares): commit e2892b9 itself, the engine before issue 7 made
the loop leaner.

There is no copy of it in the tree. As asv does, the benchmarks build that commit from git —
``git archive`` of it into a temporary directory, installed with pip into a directory of its own
with the current environment's build tools (no download), cached between runs by the commit
(:mod:`frozen.build`) — and run it in a child process in which ``import xueliu`` is that old
package (:mod:`frozen.engine`). The code both engines run, the old in its child and the current
one in another, is in :mod:`frozen.calls`, written against the API the two share.

    cd benchmarks && python -m frozen.instructions   # machine instructions a hand (valgrind)
    cd benchmarks && python -m frozen.bytecodes      # bytecodes a step
"""

from typing import Callable, Dict

BASELINE = "e2892b9"
"""The commit of docs/performance.md's "before" figures."""


def fastest_rounds(rounds: int, runs: Dict[str, Callable[[], float]]) -> Dict[str, float]:
    """The fastest of ``rounds`` rounds of each run, in seconds, the runs alternating round by
    round (so that a burst of load on the machine hits all of them alike). A run returns
    the seconds it measured itself (a child process times its own loop, so the pipe to it is not
    counted)."""
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = min(best[name], run())
    return best

