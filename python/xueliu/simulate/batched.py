"""A worker's hands played together, its neural seats decided in one forward pass a step.

Why: a NeuralBot asked one seat at a time spends most of a decision on what a batch pays once —
encoding, masks, numpy calls (issue 47: four neural bots played 62–67 hands/s through
``xueliu simulate``, four experts 75–102). So :func:`play_hands` keeps up to :data:`WINDOW`
hands in play (a new one dealt as one ends), and each step collects every pending seat of every
hand in play: the seats of a
:class:`~xueliu.bots.NeuralBot` go into one :func:`~xueliu.bots.neural.decide_batch` call per
network (its rows computed exactly as each alone:
:func:`~xueliu.bots.neural_rows.choose_rows`), every other bot is asked as :func:`.play.play_one`
asks it, in seat order.

Nothing a hand shows changes: its bots are made, started (``bot_seed(seed, i, seat)``) and ended
by the same calls, each decision is the one the bot makes alone, and the rows come back in hand
order. Hands are interleaved only when every bot is a built-in one (their decisions depend on
their own hand alone); with a ``module:Class`` bot (which might keep state across hands) or a
``cmd:`` program (one process plays one hand at a time) the hands go one by one, their neural
seats still decided together. A bot that raises stops the run with the error the one-by-one
loop raises: that of the earliest hand that fails, at its first failing seat.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ..bots import BOTS, NeuralBot
from ..bots.neural import decide_batch
from ..bots.neural_rows import choose_rows
from ..game import Action
from ..errors import BotError
from .play import Config, Hand, ask, finish_one, play_one, start_one

__all__ = ["run_chunk", "play_hands", "interleaves", "has_neural", "balanced_chunk", "WINDOW"]

_NEURAL = "neural:"

WINDOW = 256
"""Hands in play at once when they are interleaved: a new hand is dealt as one ends, so each step
decides about this many hands' neural seats in one batch. Each step pays a fixed cost (some
hundred numpy calls), so the window is wide (measured here, four neural bots' hands per CPU
second over four experts', 400 hands: 128 hands in play 3.0 times, 256 hands 3.3, 400 hands 3.4).
"""


def balanced_chunk(hands: int, workers: int) -> int:
    """Hands a chunk for ``workers`` sharing ``hands`` with neural seats: at most about
    :data:`WINDOW` (a batch), and each worker's share cut into equal chunks, so none waits at
    the end for another's extra chunk."""
    per_worker = math.ceil(hands / workers)
    return math.ceil(per_worker / math.ceil(per_worker / WINDOW))


def _neural(spec: str) -> bool:
    return spec == "neural" or spec.startswith(_NEURAL)


def has_neural(cfg: Config) -> bool:
    """Whether a seat of ``cfg`` is a NeuralBot by name (its hands are worth batching)."""
    return any(_neural(spec) for spec in cfg.bots)


def interleaves(cfg: Config) -> bool:
    """Whether ``cfg``'s hands may be played together: every bot is built in."""
    return all(spec in BOTS or spec.startswith(_NEURAL) for spec in cfg.bots)


def play_hands(items: Sequence[Tuple[Config, int]]) -> Iterator[Dict[str, Any]]:
    """The result rows of hands ``items`` (each a config and a hand index of it), in that order,
    as they are ready: :data:`WINDOW` hands in play at once when a seat is neural and every bot
    built in; one hand at a time, its neural seats still decided together, with a
    ``module:Class`` or ``cmd:`` bot; plain :func:`.play.play_one` without a neural seat."""
    configs = {id(cfg): cfg for cfg, _ in items}.values()
    if not any(has_neural(cfg) for cfg in configs):
        return (play_one(cfg, i) for cfg, i in items)
    return _interleaved(items, WINDOW if all(interleaves(cfg) for cfg in configs) else 1)


def run_chunk(cfg: Config, start: int, stop: int) -> List[Dict[str, Any]]:
    """The result rows of hands ``start`` to ``stop - 1`` (what a worker plays)."""
    return list(play_hands([(cfg, i) for i in range(start, stop)]))


class _Failures:
    """The first error of each failing hand (by position in the stream): the run raises the
    earliest one's, so hands after it need not be played (one by one they never would be)."""

    def __init__(self) -> None:
        self.by_hand: Dict[int, BaseException] = {}
        self.first: Optional[int] = None

    def add(self, pos: int, error: BaseException) -> None:
        self.by_hand.setdefault(pos, error)
        self.first = min(self.by_hand)

    def matters(self, pos: int) -> bool:
        """Whether hand ``pos`` could still change the error raised (it comes before every
        failure)."""
        return self.first is None or pos < self.first

    def raise_first(self) -> None:
        if self.first is not None:
            raise self.by_hand[self.first]


# A neural seat awaiting its decision: (position of its hand, the hand, seat, its bot, legal
# actions).
_Seat = Tuple[int, Hand, int, NeuralBot, Sequence[Action]]
# The batch a seat's decisions go to: its NeuralBot's network and close-call margin (None: the
# seat's bot is asked on its own).
_Key = Optional[Tuple[int, float]]
# A hand in play: its config, the hand, and each seat's batch.
_Live = Tuple[Config, Hand, List[_Key]]


def _keys(h: Hand) -> List[_Key]:
    return [(id(bot.network), bot.views_margin) if type(bot) is NeuralBot else None
            for bot in h.bots]


def _interleaved(items: Sequence[Tuple[Config, int]], window: int) -> Iterator[Dict[str, Any]]:
    """:func:`play_hands` with up to ``window`` hands in lockstep, a hand dealt as one ends."""
    failures = _Failures()
    live: Dict[int, _Live] = {}  # by position in items
    done: Dict[int, Dict[str, Any]] = {}
    dealt = given = 0
    while True:
        while len(live) < window and dealt < len(items) and failures.matters(dealt):
            cfg, i = items[dealt]
            try:
                h = start_one(cfg, i)
                live[dealt] = (cfg, h, _keys(h))
            except BotError as e:
                failures.add(dealt, e)  # one by one, no later hand would start
            dealt += 1
        if not live:
            break
        _step(live, failures)
        over = [pos for pos, (_, h, _) in live.items()
                if h.state.is_over or not failures.matters(pos)]
        for pos in over:
            cfg, h, _ = live.pop(pos)
            if not failures.matters(pos):
                continue
            try:
                done[pos] = finish_one(cfg, h)
            except BotError as e:
                failures.add(pos, e)
        while given in done:
            yield done.pop(given)
            given += 1
    failures.raise_first()


def _step(live: Dict[int, _Live], failures: _Failures) -> None:
    """One step of every hand of ``live``: its pending seats' answers, then ``state.step``."""
    answers: Dict[int, Dict[int, Any]] = {}
    defaults: Dict[int, List[int]] = {}
    errors: Dict[int, Tuple[int, BaseException]] = {}  # hand -> its first failing seat, error
    groups: Dict[Tuple[int, float], List[_Seat]] = {}
    for pos, (_, h, keys) in live.items():
        state = h.state
        got: Dict[int, Any] = {}
        answers[pos] = got
        for seat in state.pending():
            key = keys[seat]
            bot = h.bots[seat]
            if key is not None:
                group = groups.get(key)
                if group is None:
                    group = groups[key] = []
                # (keys[seat] is not None: bot is a NeuralBot)
                group.append((pos, h, seat, bot, state.legal_actions(seat)))  # type: ignore[arg-type]
                continue
            try:
                action = ask(state, bot, seat, h.names[seat], h.where)
            except BotError as e:
                errors[pos] = (seat, e)
                break  # one by one, the later seats of the step would not be asked
            if action is None:
                defaults.setdefault(pos, []).append(seat)
            else:
                got[seat] = action
    for group in groups.values():
        _decide(group, answers, errors)
    for pos, (_, h, _) in live.items():
        if errors:
            failed = errors.get(pos)
            if failed is not None:
                failures.add(pos, failed[1])
                continue
        got = answers[pos]
        if got:
            h.state.step(got)  # (in any order: step applies a claim round by seat)
        for seat in defaults.get(pos, ()):
            h.state.apply_timeout(seat)


def _decide(group: List[_Seat], answers: Dict[int, Dict[int, Any]],
            errors: Dict[int, Tuple[int, BaseException]]) -> None:
    """The decisions of one network's seats in one batch. Should the batch raise, each seat is
    asked alone (:func:`.play.ask`), so the error is the one its hand would raise, at the seat
    it would name — a neural seat before a failing bot's in the same step comes first."""
    chosen: Optional[List[Action]]
    try:
        for _, h, _, bot, _ in group:
            bot._check_state_rules(h.state.rules)  # as act_view does (a no-op once started)
        chosen = decide_batch([g[1].state for g in group], [g[2] for g in group],
                              functools.partial(choose_rows, group[0][3]),
                              legal=[g[4] for g in group])
    except Exception:
        chosen = None
    for n, (pos, h, seat, bot, _) in enumerate(group):
        failed = errors.get(pos)
        if failed is not None and failed[0] < seat:
            continue  # its hand stopped at an earlier seat
        if chosen is not None:
            answers[pos][seat] = chosen[n]
            continue
        try:
            answers[pos][seat] = ask(h.state, bot, seat, h.names[seat], h.where)
        except BotError as e:
            errors[pos] = (seat, e)
