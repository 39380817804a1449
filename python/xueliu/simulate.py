"""Simulation at scale: many hands with given bots, in worker processes or on a Ray cluster.

>>> from xueliu.simulate import simulate
>>> summary = simulate(8, bots=["greedy", "random", "random", "random"], seed=1, duplicate=True)
>>> [b.name for b in summary.bots]
['greedy', 'random']

Every hand is a pure function of (seed, hand index): hand ``i`` plays the wall of seed
``hand_seed(seed, wall)`` — ``wall = i`` (or ``i // 4`` with ``duplicate``, where the four plays of
a wall rotate the bots through the seats) — with the dealer ``wall % 4`` and bot seeds derived the
same way. So the results, the summary and the ``--out`` lines are the same for any number of
workers and for either backend; chunks of hands are farmed out and gathered back in hand order.

Running on a Ray cluster (``pip install "xueliu[ray]"``): start the cluster (``ray start --head``
on one node, ``ray start --address=HEAD:6379`` on the others), then on a node of it
``RAY_ADDRESS=auto xueliu simulate --games 100000 --backend ray``. Without ``RAY_ADDRESS`` Ray
starts a local instance with ``--workers`` CPUs. Every node needs the same xueliu installed.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any, Dict, Generator, List, Optional, Sequence, Tuple, Union

from ._text import table
from .bots import make_bot, play_hand
from .game import new_game
from .patterns import PATTERN_IDS, PATTERN_NAMES
from .rules import Rules

__all__ = ["simulate", "play_one", "hand_seed", "Summary", "BotStats", "run_command"]


def hand_seed(seed: int, wall: int) -> int:
    """The game seed of wall ``wall`` of a simulation with master ``seed`` (a 63-bit hash, so the
    walls of nearby seeds are unrelated)."""
    digest = hashlib.blake2b(f"xueliu-simulate:{seed}:{wall}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _bot_seed(seed: int, hand: int, seat: int) -> int:
    digest = hashlib.blake2b(f"xueliu-bot:{seed}:{hand}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class _Config:
    """Everything a worker needs (small and picklable)."""

    rules: Dict[str, Any]
    bots: Tuple[str, ...]
    seed: int
    duplicate: bool
    records: bool


_RULES_CACHE: Dict[str, Rules] = {}


def _rules_of(cfg: _Config) -> Rules:
    key = json.dumps(cfg.rules, sort_keys=True)
    r = _RULES_CACHE.get(key)
    if r is None:
        r = _RULES_CACHE[key] = Rules.from_dict(cfg.rules)
    return r


def _seating(cfg: _Config, hand: int) -> Tuple[int, List[int]]:
    """(wall index, bot entry of each seat) of hand ``hand``."""
    if cfg.duplicate:
        wall, rot = divmod(hand, 4)
        return wall, [(seat + rot) % 4 for seat in range(4)]
    return hand, [0, 1, 2, 3]


def play_one(cfg: _Config, hand: int) -> Dict[str, Any]:
    """Play hand ``hand`` of the simulation and return its result row."""
    wall, entries = _seating(cfg, hand)
    rules = _rules_of(cfg)
    gseed = hand_seed(cfg.seed, wall)
    state = new_game(rules, seed=gseed, dealer=wall % 4)
    bots = []
    for seat, j in enumerate(entries):
        bots.append(make_bot(cfg.bots[j], seed=_bot_seed(cfg.seed, hand, seat), rules=rules))
    play_hand(state, bots)
    st = state.settlement()
    checks = st.end_checks
    row: Dict[str, Any] = {
        "hand": hand,
        "wall": wall,
        "seed": gseed,
        "dealer": wall % 4,
        "seats": [cfg.bots[j] for j in entries],
        "net": list(st.net),
        "wins": [[w.seat, w.fan_result.fan, w.fan_result.base] for w in st.wins],
        "pig": [bool(c["pig"]) for c in checks] if checks else [False] * 4,
        "not_ready": ([bool(not c["won"] and not c["pig"] and not c["ready"]) for c in checks]
                      if checks else [False] * 4),
    }
    if cfg.records:
        row["record"] = state.record()
    return row


def _run_chunk(cfg: _Config, start: int, stop: int) -> List[Dict[str, Any]]:
    return [play_one(cfg, i) for i in range(start, stop)]


# -- statistics ------------------------------------------------------------------------------------


@dataclass
class BotStats:
    """Per-bot totals over every seat the bot (by name) occupied."""

    name: str
    seat_hands: int = 0
    total: int = 0
    hands_won: int = 0
    wins: int = 0
    fan_sum: int = 0
    patterns: Dict[str, int] = field(default_factory=dict)
    pigs: int = 0
    not_ready: int = 0
    unit_means: List[float] = field(default_factory=list, repr=False)

    @property
    def mean(self) -> float:
        """Mean score (net units) per hand."""
        return self.total / self.seat_hands if self.seat_hands else 0.0

    @property
    def interval(self) -> Tuple[float, float]:
        """95% interval of :attr:`mean` (normal approximation over independent walls/hands)."""
        n = len(self.unit_means)
        if n < 2:
            return (-math.inf, math.inf)
        mu = sum(self.unit_means) / n
        var = sum((x - mu) ** 2 for x in self.unit_means) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (mu - half, mu + half)

    @property
    def win_rate(self) -> float:
        """Share of the bot's hands in which it won at least once."""
        return self.hands_won / self.seat_hands if self.seat_hands else 0.0

    @property
    def mean_fan(self) -> float:
        return self.fan_sum / self.wins if self.wins else 0.0


@dataclass
class Summary:
    """What :func:`simulate` returns: per-bot statistics in the order the bots were named."""

    games: int
    preset: str
    seed: int
    duplicate: bool
    bots: List[BotStats]
    seconds: float = 0.0
    workers: int = 1

    def format(self) -> str:
        """The summary table printed by ``xueliu simulate`` (no timing: it is deterministic)."""
        walls = self.games // 4 if self.duplicate else self.games
        how = (f"duplicate: {walls} walls × 4 seatings" if self.duplicate else f"{walls} walls")
        lines = [f"xueliu simulate: {self.games} hands ({how}), preset {self.preset}, "
                 f"seed {self.seed}", ""]
        rows = [["bot", "hands", "mean/hand", "95% interval", "win rate", "wins/hand",
                 "fan/win", "花猪", "查大叫"]]
        for b in self.bots:
            lo, hi = b.interval
            ci = "[n/a]" if math.isinf(lo) else f"[{lo:+.2f}, {hi:+.2f}]"
            rows.append([b.name, str(b.seat_hands), f"{b.mean:+.2f}", ci, f"{100 * b.win_rate:.1f}%",
                         f"{b.wins / b.seat_hands:.2f}" if b.seat_hands else "0",
                         f"{b.mean_fan:.2f}", str(b.pigs), str(b.not_ready)])
        lines.append(table(rows, "lrrrrrrrr"))
        used = [p for p in PATTERN_IDS if any(b.patterns.get(p) for b in self.bots)]
        if used:
            lines.append("")
            lines.append("patterns won (share of each bot's wins)")
            prow = [["pattern"] + [b.name for b in self.bots]]
            for p in used:
                cells = [f"{PATTERN_NAMES[p]} {p}"]
                for b in self.bots:
                    n = b.patterns.get(p, 0)
                    cells.append(_share(n, b.wins))
                prow.append(cells)
            lines.append(table(prow, "l" + "r" * len(self.bots)))
        return "\n".join(lines)


def _share(n: int, total: int) -> str:
    if not total:
        return "-"
    pct = 100 * n / total
    return f"{pct:.1f}%" if pct >= 1 or n == 0 else f"{pct:.2f}%"


class _Aggregate:
    """Folds result rows in hand order (so float sums do not depend on the worker count)."""

    def __init__(self, names: Sequence[str], duplicate: bool) -> None:
        self.order: List[str] = []
        for n in names:
            if n not in self.order:
                self.order.append(n)
        self.stats = {n: BotStats(n) for n in self.order}
        self.duplicate = duplicate
        self._unit: Dict[str, List[int]] = {}
        self._unit_id: Optional[int] = None

    def _flush(self) -> None:
        for name, vals in self._unit.items():
            self.stats[name].unit_means.append(sum(vals) / len(vals))
        self._unit = {}

    def add(self, row: Dict[str, Any]) -> None:
        unit = row["wall"] if self.duplicate else row["hand"]
        if unit != self._unit_id:
            self._flush()
            self._unit_id = unit
        won = [False] * 4
        for seat, fan, base in row["wins"]:
            b = self.stats[row["seats"][seat]]
            b.wins += 1
            b.fan_sum += fan
            b.patterns[base] = b.patterns.get(base, 0) + 1
            won[seat] = True
        for seat, name in enumerate(row["seats"]):
            b = self.stats[name]
            net = row["net"][seat]
            b.seat_hands += 1
            b.total += net
            b.hands_won += won[seat]
            b.pigs += row["pig"][seat]
            b.not_ready += row["not_ready"][seat]
            self._unit.setdefault(name, []).append(net)

    def finish(self) -> List[BotStats]:
        self._flush()
        return [self.stats[n] for n in self.order]


# -- progress --------------------------------------------------------------------------------------


class Progress:
    """A plain-text progress bar on a stream, shown only once a run has taken a second."""

    def __init__(self, total: int, stream: Optional[IO[str]] = None, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.start = time.perf_counter()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._shown = False
        self._last_tenth = -1

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        if elapsed < 1.0 and self.done < self.total:
            return
        if self.tty:
            if now - self._last < 0.1 and self.done < self.total:
                return
            self._last = now
            self.stream.write("\r" + self._line(elapsed))
        else:
            tenth = 10 * self.done // max(1, self.total)
            if tenth == self._last_tenth or (not self._shown and elapsed < 1.0):
                return
            self._last_tenth = tenth
            self.stream.write(self._line(elapsed) + "\n")
        self._shown = True
        self.stream.flush()

    def _line(self, elapsed: float) -> str:
        frac = self.done / max(1, self.total)
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"[{bar}] {self.done}/{self.total} hands {100 * frac:3.0f}%  "
                f"{rate:.0f} hands/s  eta {eta:.0f} s ")

    def close(self) -> None:
        if self.enabled and self._shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()


# -- running ---------------------------------------------------------------------------------------


def _chunks(games: int, workers: int, duplicate: bool) -> List[Tuple[int, int]]:
    size = max(1, min(200, math.ceil(games / (workers * 16))))
    if duplicate:
        size = max(4, (size + 3) // 4 * 4)
    return [(a, min(games, a + size)) for a in range(0, games, size)]


# (chunk index, its result rows), as the chunks finish; closing it stops the workers.
_Results = Generator[Tuple[int, List[Dict[str, Any]]], None, None]


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: it cancels the run, workers just stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(cfg: _Config, chunks: List[Tuple[int, int]], workers: int) -> _Results:
    if workers == 1:
        for i, (a, b) in enumerate(chunks):
            yield i, _run_chunk(cfg, a, b)
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_quiet_worker)
    try:
        futures = {pool.submit(_run_chunk, cfg, a, b): i for i, (a, b) in enumerate(chunks)}
        for fut in cf.as_completed(futures):
            yield futures[fut], fut.result()
    finally:
        # On an error or Ctrl-C, drop the chunks not started instead of playing them all out.
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(cfg: _Config, chunks: List[Tuple[int, int]], workers: int) -> _Results:
    try:
        import ray  # optional: pip install "xueliu[ray]"
    except ImportError:
        raise RuntimeError("--backend ray needs Ray: pip install 'xueliu[ray]'") from None
    started = False
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(_run_chunk)
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
) -> Summary:
    """Play ``games`` hands with four ``bots`` (names as in :func:`xueliu.bots.make_bot`) and
    return the :class:`Summary`. ``out`` (a text stream) receives one JSON line per hand, in hand
    order, with ``"seats"``, ``"net"`` and ``"record"``. Results do not depend on ``workers``
    or ``backend``."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive int, got {games!r}")
    if duplicate and games % 4:
        raise ValueError(f"with duplicate play the number of games must be a multiple of 4 "
                         f"(each wall is played 4 times), got {games}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed must be a non-negative int, got {seed!r}")
    bots = tuple(bots)
    if len(bots) != 4:
        raise ValueError(f"four bots are needed, one per seat, got {len(bots)}: {','.join(bots)}")
    for spec in bots:
        make_bot(spec, seed=0)  # unknown names fail here, once, with a clear message
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r} (expected 'local' or 'ray')")
    preset = rules if isinstance(rules, str) else "custom"
    r = Rules.preset(rules) if isinstance(rules, str) else rules
    if isinstance(rules, Rules):
        for name in ("xueliu", "xuezhan"):
            if Rules.preset(name) == rules:
                preset = name
    cfg = _Config(r.to_dict(), bots, seed, duplicate, out is not None)
    chunks = _chunks(games, workers, duplicate)
    agg = _Aggregate(bots, duplicate)
    run = _ray if backend == "ray" else _local
    start = time.perf_counter()
    waiting: Dict[int, List[Dict[str, Any]]] = {}
    results = run(cfg, chunks, workers)
    try:
        _gather(results, waiting, agg, out, progress)
    finally:
        results.close()  # stops the workers now, also on an error or Ctrl-C
        if progress is not None:
            progress.close()
    return Summary(games, preset, seed, duplicate, agg.finish(),
                   seconds=time.perf_counter() - start, workers=workers)


def _gather(results: _Results, waiting: Dict[int, List[Dict[str, Any]]],
            agg: "_Aggregate", out: Optional[IO[str]], progress: Optional[Progress]) -> None:
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


def run_command(args: Any) -> int:
    """``xueliu simulate`` (see :mod:`xueliu.cli`)."""
    from .cli import CommandError

    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 4 or not all(bots):
        raise CommandError(f"--bots needs four comma-separated bots, got {args.bots!r}")
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, got {args.workers}")
    if args.seed < 0:
        raise CommandError(f"--seed must be non-negative, got {args.seed}")
    if args.duplicate and args.games % 4:
        raise CommandError(f"--duplicate plays each wall 4 times: --games must be a multiple of 4, "
                           f"got {args.games}")
    out = None
    try:
        if args.out:
            try:
                out = open(args.out, "w", encoding="utf-8")
            except OSError as e:
                raise CommandError(f"cannot write {args.out}: {e.strerror}") from None
        progress = Progress(args.games, sys.stderr, enabled=not args.no_progress)
        try:
            summary = simulate(args.games, bots=bots, rules=args.preset, seed=args.seed,
                               workers=args.workers, duplicate=args.duplicate, out=out,
                               backend=args.backend, progress=progress)
        except RuntimeError as e:
            raise CommandError(str(e)) from None
    finally:
        if out is not None:
            out.close()
    print(summary.format())
    rate = summary.games / summary.seconds if summary.seconds > 0 else 0.0
    print(f"{summary.games} hands in {summary.seconds:.1f} s ({rate:.0f} hands/s, "
          f"{summary.workers} worker{'s' if summary.workers != 1 else ''}, {args.backend})",
          file=sys.stderr)
    return 0
