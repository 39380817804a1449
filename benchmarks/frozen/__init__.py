"""Frozen baselines the benchmarks measure against in the same run (the machine is shared and
noisy, so only a ratio from one run compares).

``xueliu_e2892b9`` is the game engine (``game/``), ``settlement.py`` and the built-in bots as they
stood at commit e2892b9, before issue 7 made the loop leaner: the files are verbatim except for
their imports (``xueliu._core``, ``xueliu.rules``, ``xueliu.tiles`` and ``xueliu.hand.FanResult``
are used from the installed package; ``_hand.py`` copies the two private helpers of hand.py the
engine called). Never edit them: they are the "before" of docs/performance.md.
"""

import time
from typing import Callable, Dict


def fastest_rounds(rounds: int, runs: Dict[str, Callable[[], object]]) -> Dict[str, float]:
    """The fastest of ``rounds`` rounds of each run, in seconds, the runs alternating round by
    round (so that a burst of load on the shared machine hits all of them alike)."""
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
