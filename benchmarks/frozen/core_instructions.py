"""Machine instructions per core call at the default shape, this tree's ``_core`` against the one
of a commit before issue 17's shape work, counted by valgrind (callgrind) in the same run: the
measure a busy machine's load does not move (issue 17: no speed lost at the default shape).

    cd benchmarks && python -m frozen.core_instructions [COMMIT]   # needs valgrind

The baseline, ``PRE_SHAPE``, is 8166494: main just before the 'rooms' merge (e587094) brought
hand sizes 7/10/13 and the suits in play into the core. Its cpp/ is that of bdbdf80, the last
commit to touch cpp/ before the shape work, so the runtime dispatch of batch is_win / waits
(issue 16) is on both sides and the ratio is the shape work's alone. (The benchmarks' other
baseline, e2892b9, predates issue 16 and the native game loop.)

Each engine runs in a child process under callgrind (the old commit built from git,
:mod:`frozen.build`, imported as in :mod:`frozen.engine`): the benchmark's fixed-seed two-suit
hands (benchmarks/conftest.py, ``ROWS`` of them), every call once to build the tables, then one
call (``REPS`` times for a single call) — and once more without it. Only the instructions run in
the ``_core`` module's own code are counted (callgrind's self cost per function, summed over the
functions of that shared object; the table build is in both runs and cancels): the difference
over the rows (or calls) is the count per row (per call). Python's interpreter, the C API the
bindings call and numpy are left out, as their counts move with the two children's different
start-ups.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .engine import HERE, child_command, child_env

PRE_SHAPE = "8166494"
ROWS = 20_000
REPS = 2_000

# name -> (setup building `call`, the per-row or per-call divisor's name).
SETUP = """
import json, sys
sys.path[:0] = json.loads(sys.argv[1])
import numpy as np
import xueliu._core as core
import conftest
rng = np.random.default_rng(conftest.SEED)
third = {rows} // 3
h14 = np.concatenate([conftest.winning_two_suit_hands(rng, third),
                      conftest.random_two_suit_hands(rng, {rows} - third, 14)])
h13 = conftest.random_two_suit_hands(rng, {rows}, 13)
mixed = np.concatenate([h13[: {rows} // 2], h14[: {rows} - {rows} // 2]])
rules = core.ScoringRules()
wins = core.batch_is_win(h14, None, None, True)
win = core.Hand(bytes(h14[int(np.argmax(wins))]))
ready13 = h14[int(np.argmax(wins))].copy()
ready13[int(np.argmax(ready13))] -= 1
ready = core.Hand(bytes(ready13))
plain13 = core.Hand(bytes(h13[0]))
over = core.Hand(bytes(h14[int(np.argmax(wins))]))  # 14 tiles: best_discards' input
calls = {{
    "batch_is_win": lambda: core.batch_is_win(h14, None, None, True),
    "batch_waits": lambda: core.batch_waits(h13, None, None, True),
    "batch_shanten": lambda: core.batch_shanten(mixed, None, None, True),
    "batch_evaluate": lambda: core.batch_evaluate(h14, None, None, rules, 0),
    "is_win": lambda: core.is_win(win, -1, True),
    "waits": lambda: core.waits(ready, -1, True),
    "shanten": lambda: core.shanten(plain13, -1, True),
    "evaluate": lambda: core.evaluate(win, -1, rules, -1, 0),
    "best_discards": lambda: core.best_discards(over, None, -1, rules),
}}
for f in calls.values():
    f()
call = calls[{name!r}]
"""
BATCH = "if {full!r}:\n    call()\n"
SINGLE = "for _ in range({reps} if {full!r} else 0):\n    call()\n"
CALLS = ["batch_is_win", "batch_waits", "batch_shanten", "batch_evaluate",
         "is_win", "waits", "shanten", "evaluate", "best_discards"]


def instructions(engine: Optional[str], name: str, full: bool) -> int:
    """Instructions one child process (``engine`` None: this tree's package) ran in the ``_core``
    module's own code (its functions' self cost, summed over callgrind's profile): the two
    engines' children differ in their Python start-up (``-S``, the editable install's hook), and
    that noise stays out."""
    argv = child_command(engine)
    body = BATCH if name.startswith("batch_") else SINGLE
    argv[argv.index("-c") + 1] = (SETUP + body).format(rows=ROWS, name=name, full=full,
                                                       reps=REPS)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
                       capture_output=True, text=True, env=child_env(), check=True)
        report = subprocess.run(["callgrind_annotate", "--threshold=100", str(out)],
                                capture_output=True, text=True, check=True).stdout
    total = 0
    for line in report.splitlines():
        match = re.match(r"\s*([\d,]+) .*\[(.*)\]\s*$", line)
        if match and Path(match.group(2)).name.startswith("_core."):
            total += int(match.group(1).replace(",", ""))
    if not total:
        raise RuntimeError(f"no _core functions in callgrind's profile:\n{report[:2000]}")
    return total


def per_call(engine: Optional[str], name: str) -> float:
    """Instructions a row (batch calls) or a call (single calls)."""
    divisor = ROWS if name.startswith("batch_") else REPS
    return (instructions(engine, name, True) - instructions(engine, name, False)) / divisor


def compare(baseline: str = PRE_SHAPE, names: List[str] = CALLS) -> Dict[str, Tuple[float, float]]:
    """name -> (this tree's count, the baseline's), the two engines alternating call by call."""
    sys.path.insert(0, str(HERE))
    return {name: (per_call(None, name), per_call(baseline, name)) for name in names}


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt install valgrind)")
    baseline = sys.argv[1] if len(sys.argv) > 1 else PRE_SHAPE
    names = sys.argv[2:] or CALLS
    for name, (now, then) in compare(baseline, names).items():
        unit = "a row" if name.startswith("batch_") else "a call"
        print(f"{name}: current {now:,.1f} instructions {unit}, {baseline} {then:,.1f}: "
              f"{now / then:.3f}x", flush=True)


if __name__ == "__main__":
    main()
