"""Machine instructions per random-play hand, current engine and the frozen e2892b9 one, counted
by valgrind (callgrind): a measure the load of a shared machine does not move, and unlike
``frozen.bytecodes`` it counts the native core too (issue 7 moved the turn loop's common path,
the shuffle and the exchange options there).

    cd benchmarks && python -m frozen.instructions       # needs valgrind (Debian: apt install valgrind)

Each engine plays the benchmark's hands (``test_bench_game.play_hands``: the same seeds and random
choices) in a child process under callgrind, once with the 20-hand warm-up alone and once with the
warm-up and the 200 timed hands; the difference over 200 is the count per hand. An instruction is
not a fixed cost either (the interpreter's are dearer: branches, cache misses), so the
wall-clock ratio is smaller than this one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
CHILD = """
import sys
sys.path.insert(0, {here!r})
import numpy as np
from test_bench_game import ENGINES, HANDS, SEED, play_hands
uniforms = np.random.default_rng(SEED).random(HANDS * 400).tolist()
play_hands(ENGINES[{engine!r}], {preset!r}, uniforms, 20)
if {full!r}:
    play_hands(ENGINES[{engine!r}], {preset!r}, uniforms, HANDS)
"""


def instructions(engine: str, preset: str, full: bool) -> int:
    code = CHILD.format(here=str(HERE), engine=engine, preset=preset, full=full)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    match = re.search(r"refs:\s+([\d,]+)", run.stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr}")
    return int(match.group(1).replace(",", ""))


def per_hand(engine: str, preset: str) -> float:
    from test_bench_game import HANDS
    return (instructions(engine, preset, True) - instructions(engine, preset, False)) / HANDS


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt install valgrind)")
    sys.path.insert(0, str(HERE))
    for preset in ("xueliu", "xuezhan"):
        now, then = per_hand("current", preset), per_hand("e2892b9", preset)
        print(f"{preset}: current {now / 1e6:.2f}M instructions a hand, e2892b9 "
              f"{then / 1e6:.2f}M: {then / now:.2f}x")


if __name__ == "__main__":
    main()
