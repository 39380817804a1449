"""Machine instructions per random-play hand, current engine and e2892b9's, counted
by valgrind (callgrind): a measure the load of a busy machine does not move, and unlike
``frozen.bytecodes`` it counts the native core too (issue 7 moved the turn loop's common path,
the shuffle and the exchange options there).

    cd benchmarks && python -m frozen.instructions       # needs valgrind (Debian: apt install valgrind)

Each engine plays the benchmark's hands (``frozen.calls.play_hands``: the same seeds and random
choices) in a child process under callgrind (e2892b9 built from git, :mod:`frozen.build`, and
imported as in :mod:`frozen.engine`), once with the 20-hand warm-up alone and once with the
warm-up and the 200 timed hands; the difference over 200 is the count per hand. An instruction is
not a fixed cost either (the interpreter's are dearer: branches, cache misses), so the
wall-clock ratio is smaller than this one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from . import BASELINE
from .engine import HERE, child_command, child_env

CHILD = """
import json, sys
sys.path[:0] = json.loads(sys.argv[1])
from frozen.calls import play_hands
from test_bench_game import CHOICES, HANDS
play_hands({preset!r}, 20, CHOICES)
if {full!r}:
    play_hands({preset!r}, HANDS, CHOICES)
"""


def instructions(engine: str, preset: str, full: bool) -> int:
    argv = child_command(None if engine == "current" else engine)
    argv[argv.index("-c") + 1] = CHILD.format(preset=preset, full=full)
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                         capture_output=True, text=True, env=child_env(), check=True)
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
        now, then = per_hand("current", preset), per_hand(BASELINE, preset)
        print(f"{preset}: current {now / 1e6:.2f}M instructions a hand, {BASELINE} "
              f"{then / 1e6:.2f}M: {then / now:.2f}x")


if __name__ == "__main__":
    main()
