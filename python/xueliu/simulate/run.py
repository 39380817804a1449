"""Running a simulation: chunks of hands on worker processes or a Ray cluster, gathered back in
hand order, and the ``xueliu simulate`` command."""

from __future__ import annotations

import itertools
import json
import math
import os
import sys
import time
from typing import IO, Any, Dict, Generator, List, Optional, Sequence, Tuple, Union

from ..bots import check_bot_spec
from ..errors import BotError, CommandError
from ..rules import PRESET_NAMES, Rules
from .batched import balanced_chunk, has_neural, play_hands, run_chunk
from .play import Config, close_external_bots
from .progress import Progress
from .summary import Aggregate, Summary

__all__ = ["simulate", "run_command"]


def named_rules(rules: Union[str, Rules]) -> Tuple[str, Rules]:
    """The rules of a run and the preset name its summary shows: the name given, the preset that
    equal rules are, or "custom"."""
    if isinstance(rules, str):
        return rules, Rules.preset(rules)
    for name in PRESET_NAMES:
        if Rules.preset(name) == rules:
            return name, rules
    return "custom", rules


def _chunks(games: int, workers: int, duplicate: bool, players: int = 4,
            batched: bool = False) -> List[Tuple[int, int]]:
    size = max(1, min(200, math.ceil(games / (workers * 16))))
    if batched and workers > 1:  # a worker's neural seats are batched over its chunk's hands
        size = max(size, balanced_chunk(games, workers))
    if duplicate:  # whole walls (``players`` seatings each) per chunk
        size = max(players, (size + players - 1) // players * players)
    return [(a, min(games, a + size)) for a in range(0, games, size)]


# (chunk index, its result rows), as the chunks finish; closing it stops the workers.
_Results = Generator[Tuple[int, List[Dict[str, Any]]], None, None]


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: it cancels the run, workers just stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(cfg: Config, chunks: List[Tuple[int, int]], workers: int) -> _Results:
    if workers == 1:  # one stream of hands, so the batches of neural seats span the chunks
        rows = play_hands([(cfg, i) for a, b in chunks for i in range(a, b)])
        for i, (a, b) in enumerate(chunks):
            yield i, list(itertools.islice(rows, b - a))
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_quiet_worker)
    try:
        futures = {pool.submit(run_chunk, cfg, a, b): i for i, (a, b) in enumerate(chunks)}
        # A failing chunk stops the run, but the error reported is the earliest hand's, as with
        # one worker: the chunks before it still finish, the ones not started are dropped.
        failed: Dict[int, BaseException] = {}
        for fut in cf.as_completed(futures):
            i = futures[fut]
            if fut.cancelled():
                continue
            error = fut.exception()
            if error is not None:
                failed[i] = error
                for other, j in futures.items():
                    if j > min(failed):
                        other.cancel()
            elif not failed or i < min(failed):
                yield i, fut.result()
        if failed:
            raise failed[min(failed)]
    finally:
        # On an error or Ctrl-C, drop the chunks not started instead of playing them all out.
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(cfg: Config, chunks: List[Tuple[int, int]], workers: int) -> _Results:
    try:
        import ray  # optional: the "ray" extra
    except ImportError:
        raise RuntimeError('--backend ray needs Ray: pip install ".[ray]" in the xueliu clone '
                           '(or pip install ray)') from None
    started = False
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(run_chunk)
        refs = {task.remote(cfg, a, b): i for i, (a, b) in enumerate(chunks)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield refs[ref], ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def simulate(
    games: int,
    *,
    bots: Sequence[str] = ("greedy", "greedy", "random", "random"),
    rules: Union[str, Rules] = "xueliu",
    seed: int = 0,
    workers: int = 1,
    duplicate: bool = False,
    out: Optional[IO[str]] = None,
    backend: str = "local",
    progress: Optional[Progress] = None,
    bot_timeout: float = 5.0,
    bot_observation: bool = False,
) -> Summary:
    """Play ``games`` hands with four ``bots`` (specs as in :func:`xueliu.bots.make_bot`,
    ``cmd:`` programs included) and return the :class:`Summary`. ``out`` (a text stream) receives
    one JSON line per hand, in hand order, with ``"seats"``, ``"net"`` and ``"record"``.
    ``bot_timeout``: seconds a ``cmd:`` program has for each decision; ``bot_observation``: each
    request to a ``cmd:`` program carries the seat's observation (docs/protocol.md). Results do not depend on
    ``workers`` or ``backend`` (for programs: as long as they answer in time and their answers
    depend only on the lines of the hand)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive int, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed must be a non-negative int, got {seed!r}")
    preset, r = named_rules(rules)
    n = r.players
    if duplicate and games % n:
        raise ValueError(f"with duplicate play the number of games must be a multiple of {n} "
                         f"(each wall is played {n} times, once per seating), got {games}")
    bots = tuple(bots)
    if len(bots) != n:
        raise ValueError(f"{n} bots are needed, one per seat (rules.players), got {len(bots)}: "
                         f"{','.join(bots)}")
    for spec in bots:
        check_bot_spec(spec)  # unknown names fail here, once, with a clear message
    if isinstance(bot_timeout, bool) or not isinstance(bot_timeout, (int, float)) \
            or not bot_timeout > 0:
        raise ValueError(f"the bot timeout must be a positive number of seconds, got "
                         f"{bot_timeout!r}")
    if not isinstance(bot_observation, bool):
        raise TypeError(f"bot_observation is True or False, got {bot_observation!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r} (expected 'local' or 'ray')")
    cfg = Config(r.to_dict(), bots, seed, duplicate, out is not None, float(bot_timeout),
                 bot_observation)
    chunks = _chunks(games, workers, duplicate, n, has_neural(cfg))
    agg = Aggregate(bots, duplicate, n)
    run = _ray if backend == "ray" else _local
    start = time.perf_counter()
    waiting: Dict[int, List[Dict[str, Any]]] = {}
    results = run(cfg, chunks, workers)
    try:
        _gather(results, waiting, agg, out, progress)
    finally:
        results.close()  # stops the workers now, also on an error or Ctrl-C
        close_external_bots()  # the programs this process started (workers close their own)
        if progress is not None:
            progress.close()
    return Summary(games, preset, seed, duplicate, agg.finish(),
                   seconds=time.perf_counter() - start, workers=workers, players=n)


def _gather(results: _Results, waiting: Dict[int, List[Dict[str, Any]]],
            agg: "Aggregate", out: Optional[IO[str]], progress: Optional[Progress]) -> None:
    next_chunk = 0
    for index, rows in results:
        waiting[index] = rows
        if progress is not None:
            progress.update(len(rows))
        while next_chunk in waiting:  # fold and write strictly in hand order
            for row in waiting.pop(next_chunk):
                agg.add(row)
                if out is not None:
                    out.write(json.dumps({k: row[k] for k in
                                          ("hand", "wall", "seed", "dealer", "seats", "net",
                                           "record")}, ensure_ascii=False) + "\n")
            next_chunk += 1


def default_bots(players: int) -> str:
    """``simulate``'s bots when ``--bots`` is not given, one per seat."""
    return ",".join(["greedy"] * ((players + 1) // 2) + ["random"] * (players // 2))


def run_command(args: Any) -> int:
    """``xueliu simulate`` (see :mod:`xueliu.cli`)."""
    rules = args.rules if isinstance(getattr(args, "rules", None), Rules) else \
        Rules.preset(args.preset)  # the command line's rules (xueliu.cli reads them)
    n = rules.players
    # Default: greedy in the first half of the seats, random in the rest (four seats:
    # greedy,greedy,random,random; three: greedy,greedy,random; two: greedy,random).
    spec = args.bots if args.bots is not None else default_bots(n)
    bots = [b.strip() for b in spec.split(",")]
    if len(bots) != n or not all(bots):
        raise CommandError(f"--bots needs {n} comma-separated bots at these rules ({n} seats, "
                           f"one bot per seat), got {spec!r}")
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, got {args.workers}")
    if args.seed < 0:
        raise CommandError(f"--seed must be non-negative, got {args.seed}")
    if not args.bot_timeout > 0:
        raise CommandError(f"--bot-timeout must be positive, got {args.bot_timeout}")
    # Bots given as module:Class are found in the working directory, as `python -m` does.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    if args.duplicate and args.games % n:
        raise CommandError(f"--duplicate plays each wall {n} times: --games must be a multiple "
                           f"of {n}, got {args.games}")
    out = None
    try:
        if args.out:
            try:
                out = open(args.out, "w", encoding="utf-8")
            except OSError as e:
                raise CommandError(f"cannot write {args.out}: {e.strerror}") from None
        progress = Progress(args.games, sys.stderr, enabled=not args.no_progress)
        try:
            summary = simulate(args.games, bots=bots, rules=rules, seed=args.seed,
                               workers=args.workers, duplicate=args.duplicate, out=out,
                               backend=args.backend, progress=progress,
                               bot_timeout=args.bot_timeout,
                               bot_observation=getattr(args, "bot_observation", False))
        except BotError:
            raise
        except RuntimeError as e:
            raise CommandError(str(e)) from None
    finally:
        if out is not None:
            out.close()
    print(summary.format(), flush=True)  # before the timing line on stderr
    rate = summary.games / summary.seconds if summary.seconds > 0 else 0.0
    print(f"{summary.games} hands in {summary.seconds:.1f} s ({rate:.0f} hands/s, "
          f"{summary.workers} worker{'s' if summary.workers != 1 else ''}, {args.backend})",
          file=sys.stderr)
    return 0
