"""Bytecodes executed per random-play step, current engine and e2892b9's: a measure of the
interpreter's work that the load of a busy machine does not move (wall-clock figures do).

    cd benchmarks && python -m frozen.bytecodes            # totals and the top functions

Both engines replay the same recorded decisions of random play (pending / legal_actions / step
for every decision, as ``test_bench_game.py`` does), each in a child process of its own (e2892b9
built from git, :mod:`frozen.build`), once untraced to warm the caches, then traced with
``sys.settrace`` counting opcode events per function (``frozen.calls.count_bytecodes``). A
bytecode is not a fixed cost (a slot read is cheaper than a dict-backed attribute, a list append
than a dict insert) and the cyclic garbage collector is not counted, so the wall-clock ratio is
larger than this one.
"""

from __future__ import annotations

from . import BASELINE
from .engine import EngineProcess

HANDS = 30


def main() -> None:
    with EngineProcess(None) as current:
        games = current.call("record_random_play", HANDS)
        results = {"current": current.call("count_bytecodes", games)}
    with EngineProcess(BASELINE) as old:
        results[BASELINE] = old.call("count_bytecodes", games)
    for name, result in results.items():
        print(f"{name}: {result['per_step']:.0f} bytecodes a step")
        for key, n in result["top"]:
            print(f"  {n:7.1f}  {key}")


if __name__ == "__main__":
    main()
