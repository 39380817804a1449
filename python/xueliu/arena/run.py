"""Running an arena: every match's walls in chunks on worker processes, through ``simulate``'s
own hands (``simulate.batched.run_chunk``: the same seeds, seating, bots and ``cmd:`` programs,
a chunk's neural seats decided together), and the result folded by wall.

The hands of all matches share one pool, chunk by chunk (every match's first walls, then every
match's next ones), so the matches advance together and a slow bot does not leave workers idle.
Each hand's result is stored at its wall, so the result does not depend on the worker count or
on the order in which chunks come back.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..bots import check_bot_spec
from ..rules import Rules
from ..simulate.batched import balanced_chunk, has_neural, play_hands, run_chunk
from ..simulate.play import Config, close_external_bots
from ..simulate.progress import Progress
from ..simulate.run import named_rules
from .plan import MODES, Match, plan_matches
from .bootstrap import bootstrap_ratings
from .rating import elo, fit_bradley_terry
from .stats import ClusteredMean, clustered_mean
from .tally import HandResult, Line, MatchTally, hand_result, line_of

__all__ = ["arena", "ArenaResult", "MatchLine"]

# (match index, first hand, end hand) of one piece of work; hands of a match are 4·wall + play.
_Task = Tuple[int, int, int]


@dataclass(frozen=True)
class MatchLine:
    """One match's figures: ``bot`` in one seat against three ``opponent``; its walls won, drawn
    and lost (the four-seat total above, at or below 0) are the rating's comparisons."""

    bot: str
    opponent: str
    line: Line
    walls_won: int
    walls_drawn: int
    walls_lost: int


@dataclass(frozen=True)
class ArenaResult:
    """What :func:`arena` returns (``format_table`` / ``to_json`` in :mod:`.report` show it)."""

    bots: Tuple[str, ...]
    mode: str
    reference: str
    preset: str
    seed: int
    walls: int
    lines: Tuple[Line, ...]
    """Per bot, in the order given: over all its matches."""
    matches: Tuple[MatchLine, ...]
    ratings: Dict[str, float]
    """Elo points by bot name (the reference included in ``reference`` mode)."""
    rating_intervals: Dict[str, Tuple[float, float]]
    """Their 95 % intervals, a bootstrap over walls (:mod:`.bootstrap`)."""
    rating_bounds: Dict[str, Optional[str]]
    """``"at most"`` for a bot that never won nor drew a wall (its rating is the virtual draw's
    bound, not an estimate), ``"at least"`` for one that never lost or drew one, else ``None``."""
    anchor: Optional[str]
    """The bot rated 0, or ``None`` when the ratings average 0."""
    seconds: float = 0.0
    workers: int = 1
    players: int = 4
    """Seats at the table: each wall is played in this many seatings."""
    paired: Tuple[Optional[ClusteredMean], ...] = ()
    """``reference`` mode with two bots or more: per bot, its mean per hand less the first bot's,
    paired by wall (the same walls and seatings: a cluster is a wall's difference of totals), so
    two bots are told apart far more finely than their own intervals allow; ``None`` for the
    first bot. Empty otherwise."""


def _arena_chunk(cfg: Config, start: int, stop: int) -> List[HandResult]:
    return [hand_result(row) for row in run_chunk(cfg, start, stop)]


def _tasks(matches: int, walls: int, workers: int, players: int = 4,
           batched: bool = False) -> List[_Task]:
    per_chunk = max(1, min(50, math.ceil(walls * matches / (workers * 16))))
    if batched and workers > 1:  # a worker's neural seats are batched over its task's hands
        per_chunk = max(per_chunk, balanced_chunk(walls * matches * players, workers) // players)
    return [(m, players * a, players * min(walls, a + per_chunk))
            for a in range(0, walls, per_chunk) for m in range(matches)]


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: it cancels the run, workers just stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(configs: Sequence[Config], tasks: Sequence[_Task], workers: int, tallies:
          Sequence[MatchTally], progress: Optional[Progress], players: int = 4) -> None:
    def fold(task: _Task, results: List[HandResult]) -> None:
        m, start, _ = task
        for i, result in enumerate(results):
            tallies[m].add((start + i) // players, result)
        if progress is not None:
            progress.update(len(results))

    if workers == 1:  # one stream of hands, so the batches of neural seats span the tasks
        rows = play_hands([(configs[m], i) for m, a, b in tasks for i in range(a, b)])
        for task in tasks:
            fold(task, [hand_result(row) for row in itertools.islice(rows, task[2] - task[1])])
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_quiet_worker)
    try:
        futures = {pool.submit(_arena_chunk, configs[t[0]], t[1], t[2]): i
                   for i, t in enumerate(tasks)}
        # A failure stops the arena; the error reported is the earliest task's that failed, so
        # it names the same bot and hand as with one worker when only one hand fails.
        failed: Dict[int, BaseException] = {}
        for fut in cf.as_completed(futures):
            if fut.cancelled():
                continue
            i = futures[fut]
            error = fut.exception()
            if error is not None:
                failed[i] = error
                for other in futures:
                    other.cancel()
            elif not failed:
                fold(tasks[i], fut.result())
        if failed:
            raise failed[min(failed)]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def arena(
    bots: Sequence[str],
    walls: int,
    *,
    rules: Union[str, Rules] = "xueliu",
    mode: str = "reference",
    reference: str = "greedy",
    seed: int = 0,
    workers: int = 1,
    progress: Optional[Progress] = None,
    bot_timeout: float = 5.0,
) -> ArenaResult:
    """Play the arena of ``bots`` (specs as in :func:`xueliu.bots.make_bot`) over ``walls``
    duplicate walls, each played in its four seatings, and return the figures. ``mode``
    ``"reference"``: every bot against three copies of ``reference``; ``"pairs"``: every ordered
    pair of different bots (:mod:`.plan`). The result is the same for any ``workers``."""
    if isinstance(walls, bool) or not isinstance(walls, int) or walls < 1:
        raise ValueError(f"the number of walls must be a positive int, got {walls!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed must be a non-negative int, got {seed!r}")
    if isinstance(bot_timeout, bool) or not isinstance(bot_timeout, (int, float)) \
            or not bot_timeout > 0:
        raise ValueError(f"the bot timeout must be a positive number of seconds, got "
                         f"{bot_timeout!r}")
    if mode not in MODES:
        raise ValueError(f"unknown arena mode {mode!r} (expected one of {', '.join(MODES)})")
    bots = tuple(bots)
    if not bots:
        raise ValueError("the arena needs at least one bot")
    for spec in bots:
        if not isinstance(spec, str) or not spec.strip():
            raise ValueError(f"a bot spec is a non-empty str, got {spec!r}")
        if bots.count(spec) > 1:
            raise ValueError(f"bot {spec!r} is listed twice")
    for spec in (*bots, reference):
        check_bot_spec(spec)  # unknown names fail here, before anything is played
    preset, r = named_rules(rules)

    matches = plan_matches(bots, mode, reference, r.players)
    configs = [Config(r.to_dict(), m.seats, seed, True, False, float(bot_timeout))
               for m in matches]
    tallies = [MatchTally(walls) for _ in matches]
    start = time.perf_counter()
    try:
        tasks = _tasks(len(matches), walls, workers, r.players,
                       any(has_neural(c) for c in configs))
        _play(configs, tasks, workers, tallies, progress, r.players)
    finally:
        close_external_bots()  # the programs this process started (workers close their own)
        if progress is not None:
            progress.close()
    seconds = time.perf_counter() - start

    lines = tuple(line_of([t for m, t in zip(matches, tallies) if m.bot == i])
                  for i in range(len(bots)))
    match_lines = tuple(_match_line(bots, reference, m, t) for m, t in zip(matches, tallies))
    ratings, intervals, bounds, anchor = _ratings(bots, mode, reference, matches, tallies, seed,
                                                  walls)
    return ArenaResult(bots, mode, reference, preset, seed, walls, lines, match_lines, ratings,
                       intervals, bounds, anchor, seconds=seconds, workers=workers,
                       players=r.players, paired=_paired(mode, matches, tallies, len(bots)))


def _paired(mode: str, matches: Sequence[Match], tallies: Sequence[MatchTally], n: int
            ) -> Tuple[Optional[ClusteredMean], ...]:
    """Each bot's mean per hand less the first bot's, clustered by wall (``ArenaResult.paired``):
    in ``reference`` mode every bot plays exactly one match, on the same walls."""
    if mode != "reference" or n < 2:
        return ()
    own = {m.bot: t for m, t in zip(matches, tallies)}
    first = own[0]
    out: List[Optional[ClusteredMean]] = [None]
    for i in range(1, n):
        t = own[i]
        out.append(clustered_mean([a - b for a, b in zip(t.wall_totals, first.wall_totals)],
                                  t.wall_hands))
    return tuple(out)


def _name(bots: Sequence[str], reference: str, index: int) -> str:
    return reference if index < 0 else bots[index]


def _match_line(bots: Sequence[str], reference: str, m: Match, t: MatchTally) -> MatchLine:
    won, drawn, lost = t.wall_record()
    return MatchLine(_name(bots, reference, m.bot), _name(bots, reference, m.opponent),
                     line_of([t]), won, drawn, lost)


def _ratings(bots: Sequence[str], mode: str, reference: str, matches: Sequence[Match],
             tallies: Sequence[MatchTally], seed: int, walls: int
             ) -> Tuple[Dict[str, float], Dict[str, Tuple[float, float]],
                        Dict[str, Optional[str]], Optional[str]]:
    """Bradley–Terry over every match's walls (:mod:`.rating`) and its bootstrap interval
    (:mod:`.bootstrap`); the reference is a player too when it is not among the bots
    (``reference`` mode), and it is the anchor whenever it is one of the players."""
    names = list(bots)
    if mode == "reference" and reference not in names:
        names.append(reference)
    index = {n: i for i, n in enumerate(names)}
    wins: Dict[Tuple[int, int], float] = {}
    outcomes: List[Tuple[int, int, List[float]]] = []
    for m, t in zip(matches, tallies):
        a = index[_name(bots, reference, m.bot)]
        b = index[_name(bots, reference, m.opponent)]
        if a == b:
            continue  # the reference against itself compares nothing
        won, drawn, lost = t.wall_record()
        wins[(a, b)] = wins.get((a, b), 0.0) + won + drawn / 2
        wins[(b, a)] = wins.get((b, a), 0.0) + lost + drawn / 2
        outcomes.append((a, b, [1.0 if x > 0 else 0.5 if x == 0 else 0.0
                                for x in t.wall_totals]))
    anchor = index.get(reference)
    strengths = fit_bradley_terry(len(names), wins)
    points = elo(strengths, anchor if anchor is not None else 0)
    if anchor is None:
        mean = math.fsum(points) / len(points)
        points = [p - mean for p in points]
    intervals = bootstrap_ratings(len(names), outcomes, anchor, seed, walls)
    bounds: Dict[str, Optional[str]] = {}
    for i, name in enumerate(names):
        scored = math.fsum(x for (a, _), x in wins.items() if a == i)
        conceded = math.fsum(x for (_, b), x in wins.items() if b == i)
        # Without a win (or a loss) the figure is where the one virtual draw puts it: the bot is
        # at most (or at least) that strong, and the data say no more.
        bounds[name] = ("at most" if scored == 0 and conceded > 0 else
                        "at least" if conceded == 0 and scored > 0 else None)
    return (dict(zip(names, points)), dict(zip(names, intervals)), bounds,
            reference if anchor is not None else None)
