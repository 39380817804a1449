"""The one bot lifecycle, in-process and external alike: ``start_hand(seat, rules, seed)``, then
the decisions of the hand, then the end of the hand.

=====================  ===========================================  ==============================
step                   in-process bot (:class:`~xueliu.bots.Bot`)   program (:class:`ExternalBot`,
                                                                    docs/protocol.md)
=====================  ===========================================  ==============================
a hand starts          ``start_hand(seat, rules, seed)``            the ``hello`` line (the same
                                                                    seat, ``rules.to_dict()``,
                                                                    seed)
the seat must decide   ``act_view(view, legal)`` or                 events, then a ``request``
                       ``act(observation, legal)``
the hand is over       ``end_hand(observation)`` (the seat's        the rest of the hand's events
                       last observation)                            (down to ``end_hand``)
=====================  ===========================================  ==============================

Every driver — :func:`~xueliu.bots.play_hand`, ``xueliu simulate``, the learning environments and
the table server's bot seats — calls :func:`start_hand_for` and :func:`end_hand_for` for each seat
of each hand, so a bot sees the same lifecycle wherever it plays. Both are optional for a bot:
an object with only ``act`` is a bot (:class:`~xueliu.bots.Bot` is duck-typed), and the drivers
skip what it does not define.

The seed of a hand is a pure function of the driver's master seed, the hand and the seat
(:func:`bot_seed`, or the environments' own derivation, docs/bots-and-cli.md), through a one-way
hash: a bot given its seed cannot run it backwards to the seed of the wall. A bot that draws
random numbers reseeds from it (as :class:`~xueliu.bots.RandomBot` does), so its choices in a
hand depend on that hand alone: the same results for any number of workers, and a seeded
``reset`` of an environment replays the same hands.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence

from .base import Bot, SupportsAct
from .external import ExternalBot

if TYPE_CHECKING:  # pragma: no cover
    from ..game.actions import Action
    from ..game.state import GameState
    from ..game.view import SeatView
    from ..rules import Rules

__all__ = ["bot_seed", "start_hand_for", "end_hand_for", "play_hand"]


def bot_seed(master: int, hand: int, seat: int) -> int:
    """The 63-bit seed of the bot at ``seat`` in hand ``hand`` of a run with master seed
    ``master``: ``blake2b("xueliu-bot:{master}:{hand}:{seat}")``'s first 8 bytes, big-endian,
    shifted right by one bit.

    A one-way hash on purpose: the project's splitmix64 (``game.wall.hash_seed``) is a bijection
    at every step, so a seed made by it from ``(master, hand, seat)`` could be run backwards to
    the master's state and from there to the wall's seed.

    >>> bot_seed(0, 0, 0) == bot_seed(0, 0, 0) != bot_seed(0, 0, 1)
    True
    """
    for name, value in (("master", master), ("hand", hand), ("seat", seat)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"the {name} of a bot seed is an int, got {type(value).__name__}")
    digest = hashlib.blake2b(f"xueliu-bot:{master}:{hand}:{seat}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def start_hand_for(bot: Any, seat: int, rules: Rules, seed: int,
                   hand: Optional[int] = None) -> None:
    """Starts a hand for ``bot`` at ``seat``: ``bot.start_hand(seat, rules, seed)`` when it has
    one (a bot with only ``act`` has nothing to start). ``hand`` (the driver's hand index) only
    labels a program's messages: a program that dies is reported with it."""
    if isinstance(bot, ExternalBot):
        bot.start_hand(seat, rules, seed, hand=hand)
        return
    start = getattr(bot, "start_hand", None)
    if callable(start):
        start(seat, rules, seed)


def end_hand_for(bot: Any, state: GameState, seat: int) -> None:
    """Ends the hand for ``bot`` at ``seat``: a program gets the rest of the hand's events; an
    in-process bot with an ``end_hand`` gets ``end_hand(state.observation(seat))`` (a
    :class:`Bot` that keeps the default no-op is not asked, so no observation is built for it)."""
    if isinstance(bot, ExternalBot):
        bot.end_hand(state, seat)
        return
    end = getattr(bot, "end_hand", None)
    if not callable(end):
        return
    if isinstance(bot, Bot) and getattr(type(bot), "end_hand", None) is Bot.end_hand:
        return
    end(state.observation(seat))


def play_hand(state: GameState, bots: Sequence[SupportsAct], *,
              seed: Optional[int] = None) -> GameState:
    """Drive ``state`` to its end, asking ``bots[seat]`` whenever that seat is pending, inside the
    lifecycle: first ``start_hand(seat, state.rules, bot_seed(master, 0, seat))`` for each bot
    that has one, where ``master`` is ``seed`` or, by default, the hand's own seed
    (``state.seed``); at the end ``end_hand(observation)``.

    A bot with an ``act_view`` method (every :class:`Bot`) is asked through it with
    ``state.view(seat)``; any other bot through ``act`` with ``state.observation(seat)``. Returns
    the same ``state`` (now ``state.is_over``). A bot that returns an action that is not legal
    makes ``state.step`` raise ``ValueError``, which is passed on unchanged. One object given for
    several seats is started once per seat, in seat order.

    >>> import xueliu
    >>> from xueliu.bots import RandomBot
    >>> state = play_hand(xueliu.new_game("xueliu", seed=1), [RandomBot() for _ in range(4)])
    >>> state.is_over
    True
    """
    players = state.rules.players
    if len(bots) != players:
        raise ValueError(f"a hand needs {players} bots (rules.players), got {len(bots)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    master = seed if seed is not None else (state.seed if state.seed is not None else 0)
    for seat, bot in enumerate(bots):
        start_hand_for(bot, seat, state.rules, bot_seed(master, 0, seat))
    by_view: List[Optional[Callable[[SeatView, Sequence[Action]], Action]]] = [
        getattr(bot, "act_view", None) for bot in bots]
    while not state.is_over:
        decisions = {}
        for seat in state.pending():
            legal = state.legal_actions(seat)
            act_view = by_view[seat]
            if act_view is not None:
                decisions[seat] = act_view(state.view(seat), legal)
            else:
                decisions[seat] = bots[seat].act(state.observation(seat), legal)
        state.step(decisions)
    for seat, bot in enumerate(bots):
        end_hand_for(bot, state, seat)
    return state
