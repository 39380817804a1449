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

__all__ = ["hand_seed", "play_one", "Config", "close_external_bots"]


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


def _rules_of(cfg: Config) -> Rules:
    key = json.dumps(cfg.rules, sort_keys=True)
    r = _RULES_CACHE.get(key)
    if r is None:
        r = _RULES_CACHE[key] = Rules.from_dict(cfg.rules)
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


def _play(state: GameState, bots: Sequence[Union[Bot, ExternalBot]], names: Sequence[str],
          where: str) -> None:
    """Drives ``state`` to its end. An external bot's failed answer becomes docs/rules.md §8's default
    (``apply_timeout``); an in-process bot that raises or answers an illegal action stops the
    run with a :class:`BotError` naming it."""
    while not state.is_over:
        answers: Dict[int, Any] = {}
        defaults: List[int] = []
        for seat in state.pending():
            bot = bots[seat]
            if isinstance(bot, ExternalBot):
                action = bot.decide(state, seat)
                if action is None:
                    defaults.append(seat)
                    continue
            else:
                legal = state.legal_actions(seat)
                # In-process bots with act_view (every Bot) read the seat's view as counts, as
                # play_hand does: no JSON observation to build and parse.
                act_view = getattr(bot, "act_view", None)
                try:
                    action = (act_view(state.view(seat), legal) if act_view is not None
                              else bot.act(state.observation(seat), legal))
                except Exception as e:
                    raise BotError(f"bot {names[seat]!r} at seat {seat} raised "
                                   f"{type(e).__name__}: {e} ({where})") from e
                answer: Any = action  # a bot may answer an Action or its id
                if answer not in legal and not any(answer == a.id for a in legal):
                    raise BotError(f"bot {names[seat]!r} at seat {seat} chose {action!r}, which "
                                   f"is not one of its legal actions ({where})")
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


def play_one(cfg: Config, hand: int) -> Dict[str, Any]:
    """Play hand ``hand`` of the simulation and return its result row."""
    wall, entries = _seating(cfg, hand)
    rules = _rules_of(cfg)
    gseed = hand_seed(cfg.seed, wall)
    state = new_game(rules, seed=gseed, dealer=wall % rules.players)
    bots: List[Union[Bot, ExternalBot]] = []
    names = [cfg.bots[j] for j in entries]
    where = f"hand {hand}, wall seed {gseed}"
    for seat, j in enumerate(entries):
        bseed = bot_seed(cfg.seed, hand, seat)
        bot: Union[Bot, ExternalBot] = (_external(cfg, j) if is_external(cfg.bots[j])
                                        else make_bot(cfg.bots[j], seed=bseed, rules=rules))
        _lifecycle(start_hand_for, names[seat], seat, where, bot, seat, rules, bseed, hand=hand)
        bots.append(bot)
    _play(state, bots, names, where)
    defaults: List[Optional[Dict[str, int]]] = []
    for seat, bot in enumerate(bots):
        _lifecycle(end_hand_for, names[seat], seat, where, bot, state, seat)
        defaults.append(bot.take_counts() if isinstance(bot, ExternalBot) else None)
    st = state.settlement()
    checks = st.end_checks
    row: Dict[str, Any] = {
        "hand": hand,
        "wall": wall,
        "seed": gseed,
        "dealer": wall % rules.players,
        "seats": names,
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


def run_chunk(cfg: Config, start: int, stop: int) -> List[Dict[str, Any]]:
    return [play_one(cfg, i) for i in range(start, stop)]
