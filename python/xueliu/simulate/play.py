"""One hand of a simulation: its seeds, its seating, and the loop that asks the bots.

Hand ``i`` is a pure function of ``(seed, i)``: it plays the wall of seed ``hand_seed(seed,
wall)`` — ``wall = i`` (``i // 4`` with ``duplicate``, where the four plays of a wall rotate the
bots through the seats) — with the dealer ``wall % n`` (n seats). Every bot goes through the lifecycle (:mod:`xueliu.bots.lifecycle`):
a fresh in-process bot per hand, made with and started with ``bot_seed(seed, i, seat)``
(``start_hand(seat, rules, seed)``; a program gets it in its ``hello``), and ended with the hand.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..bots import Bot, ExternalBot, bot_seed, end_hand_for, is_external, make_bot, start_hand_for
from ..errors import BotError
from ..game import GameState, new_game
from ..rules import Rules

__all__ = ["hand_seed", "play_one", "play_sequential", "Config", "Hand", "start_one",
           "finish_one", "ask", "close_external_bots"]


def hand_seed(seed: int, wall: int) -> int:
    """The game seed of wall ``wall`` of a simulation with master ``seed`` (a 63-bit hash, so the
    walls of nearby seeds are unrelated)."""
    digest = hashlib.blake2b(f"xueliu-simulate:{seed}:{wall}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Config:
    """Everything a worker needs (small and picklable)."""

    rules: Dict[str, Any]
    bots: Tuple[str, ...]
    seed: int
    duplicate: bool
    records: bool
    bot_timeout: float = 5.0
    bot_observation: bool = False


_RULES_CACHE: Dict[str, Rules] = {}
# The programs of the cmd: bots of this process, by (entry in --bots, spec): each runs for the
# whole run (in every worker process that plays hands), see close_external_bots.
_EXTERNAL: Dict[Tuple[int, str], ExternalBot] = {}


_RULES_OF: Dict[int, Tuple[Config, Rules]] = {}


def _rules_of(cfg: Config) -> Rules:
    """The (one, cached) :class:`Rules` of ``cfg``, by its rules' JSON and, first, by the config
    object itself: asked twice a hand, the JSON was a fiftieth of a batched neural hand."""
    hit = _RULES_OF.get(id(cfg))
    if hit is not None and hit[0] is cfg:
        return hit[1]
    key = json.dumps(cfg.rules, sort_keys=True)
    r = _RULES_CACHE.get(key)
    if r is None:
        r = _RULES_CACHE[key] = Rules.from_dict(cfg.rules)
    if len(_RULES_OF) >= 64:
        _RULES_OF.clear()
    _RULES_OF[id(cfg)] = (cfg, r)
    return r


def _external(cfg: Config, entry: int) -> ExternalBot:
    spec = cfg.bots[entry]
    bot = _EXTERNAL.get((entry, spec))
    if bot is None or bot.timeout != cfg.bot_timeout or bot.observation != cfg.bot_observation:
        if bot is not None:
            bot.close()
        elif not _EXTERNAL:
            _close_at_exit()
        bot = _EXTERNAL[(entry, spec)] = ExternalBot(spec[4:], timeout=cfg.bot_timeout,
                                                     name=spec, observation=cfg.bot_observation)
    return bot


def _close_at_exit() -> None:
    """Worker processes of a pool end through multiprocessing's exit path, which runs its
    finalizers (not atexit): the programs are closed there too."""
    import multiprocessing.util

    multiprocessing.util.Finalize(None, close_external_bots, exitpriority=10)


def close_external_bots() -> None:
    """Ends the programs of every ``cmd:`` bot this process started."""
    bots = list(_EXTERNAL.values())
    _EXTERNAL.clear()
    for bot in bots:
        bot.close()


def _seating(cfg: Config, hand: int) -> Tuple[int, List[int]]:
    """(wall index, bot entry of each seat) of hand ``hand``."""
    if cfg.duplicate:
        n = len(cfg.bots)  # one bot entry per seat: rules.players
        wall, rot = divmod(hand, n)
        return wall, [(seat + rot) % n for seat in range(n)]
    return hand, list(range(len(cfg.bots)))


def ask(state: GameState, bot: Union[Bot, ExternalBot], seat: int, name: str,
        where: str) -> Optional[Any]:
    """The answer of ``bot`` at ``seat``, pending in ``state``; ``None`` when an external bot's
    answer failed (it gets docs/rules.md §8's default, ``apply_timeout``, after the step). An
    in-process bot that raises or answers an illegal action stops the run with a
    :class:`BotError` naming it."""
    if isinstance(bot, ExternalBot):
        return bot.decide(state, seat)
    legal = state.legal_actions(seat)
    # In-process bots with act_view (every Bot) read the seat's view as counts, as play_hand
    # does: no JSON observation to build and parse.
    act_view = getattr(bot, "act_view", None)
    try:
        action = (act_view(state.view(seat), legal) if act_view is not None
                  else bot.act(state.observation(seat), legal))
    except Exception as e:
        raise BotError(f"bot {name!r} at seat {seat} raised {type(e).__name__}: {e} "
                       f"({where})") from e
    answer: Any = action  # a bot may answer an Action or its id
    if answer not in legal and not any(answer == a.id for a in legal):
        raise BotError(f"bot {name!r} at seat {seat} chose {action!r}, which is not one of its "
                       f"legal actions ({where})")
    return action


def _play(state: GameState, bots: Sequence[Union[Bot, ExternalBot]], names: Sequence[str],
          where: str) -> None:
    """Drives ``state`` to its end, asking each pending seat's bot in seat order (:func:`ask`)."""
    while not state.is_over:
        answers: Dict[int, Any] = {}
        defaults: List[int] = []
        for seat in state.pending():
            action = ask(state, bots[seat], seat, names[seat], where)
            if action is None:
                defaults.append(seat)
            else:
                answers[seat] = action
        if answers:
            state.step(answers)
        for seat in defaults:
            state.apply_timeout(seat)


def _lifecycle(call: Any, name: str, seat: int, where: str, *args: Any, **kwargs: Any) -> None:
    """``start_hand_for`` / ``end_hand_for``: a bot that raises there stops the run with a
    :class:`BotError` naming it, as in a decision."""
    try:
        call(*args, **kwargs)
    except BotError:
        raise
    except Exception as e:
        what = "start_hand" if call is start_hand_for else "end_hand"
        raise BotError(f"bot {name!r} at seat {seat} raised {type(e).__name__} in {what}: {e} "
                       f"({where})") from e


@dataclass
class Hand:
    """One hand in play: its index in the run, wall, game seed, state, and each seat's bot
    (started) and spec; ``where`` names it in errors."""

    index: int
    wall: int
    seed: int
    state: GameState
    bots: List[Union[Bot, ExternalBot]]
    names: List[str]
    where: str


def start_one(cfg: Config, hand: int) -> Hand:
    """Deals hand ``hand`` of the simulation and makes and starts its bots, seat by seat."""
    wall, entries = _seating(cfg, hand)
    rules = _rules_of(cfg)
    gseed = hand_seed(cfg.seed, wall)
    state = new_game(rules, seed=gseed, dealer=wall % rules.players)
    names = [cfg.bots[j] for j in entries]
    h = Hand(hand, wall, gseed, state, [], names, f"hand {hand}, wall seed {gseed}")
    for seat, j in enumerate(entries):
        bseed = bot_seed(cfg.seed, hand, seat)
        bot: Union[Bot, ExternalBot] = (_external(cfg, j) if is_external(cfg.bots[j])
                                        else make_bot(cfg.bots[j], seed=bseed, rules=rules))
        _lifecycle(start_hand_for, names[seat], seat, h.where, bot, seat, rules, bseed, hand=hand)
        h.bots.append(bot)
    return h


def finish_one(cfg: Config, h: Hand) -> Dict[str, Any]:
    """Ends the hand ``h`` (over) for its bots and returns its result row."""
    rules = _rules_of(cfg)
    state = h.state
    defaults: List[Optional[Dict[str, int]]] = []
    for seat, bot in enumerate(h.bots):
        _lifecycle(end_hand_for, h.names[seat], seat, h.where, bot, state, seat)
        defaults.append(bot.take_counts() if isinstance(bot, ExternalBot) else None)
    st = state.settlement()
    checks = st.end_checks
    row: Dict[str, Any] = {
        "hand": h.index,
        "wall": h.wall,
        "seed": h.seed,
        "dealer": h.wall % rules.players,
        "seats": h.names,
        "net": list(st.net),
        "wins": [[w.seat, w.fan_result.fan, w.fan_result.base] for w in st.wins],
        # the seat of each discard (or robbed kong) won on, once however many won on it: the
        # arena's deal-ins
        "dealt_in": [w.from_seat for w in st.wins
                     if w.from_seat is not None and w.seat == w.winners[0]],
        "pig": [bool(c["pig"]) for c in checks] if checks else [False] * rules.players,
        "not_ready": ([bool(not c["won"] and not c["pig"] and not c["ready"]) for c in checks]
                      if checks else [False] * rules.players),
        "defaults": defaults,
    }
    if cfg.records:
        row["record"] = state.record()
    return row


def play_one(cfg: Config, hand: int) -> Dict[str, Any]:
    """Play hand ``hand`` of the simulation alone, every decision asked of its bot one at a time,
    and return its result row (:mod:`.batched` plays a worker's hands together, to the same
    rows)."""
    h = start_one(cfg, hand)
    _play(h.state, h.bots, h.names, h.where)
    return finish_one(cfg, h)


def play_sequential(cfg: Config, start: int, stop: int) -> List[Dict[str, Any]]:
    """Hands ``start`` to ``stop - 1``, one after the other (:func:`play_one`)."""
    return [play_one(cfg, i) for i in range(start, stop)]
