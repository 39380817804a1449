"""The bot interface: one method, ``act(observation, legal_actions) -> Action``.

A bot sees exactly what its seat may see (``GameState.observation(seat)``, a JSON-serialisable dict)
and the list of actions the engine allows it now (``GameState.legal_actions(seat)``); it returns one
of those actions. That is the whole contract, so a bot is a few lines::

    from xueliu.bots import Bot

    class FirstChoiceBot:
        \"\"\"Always takes the first legal action (wins are not preferred: a weak bot).\"\"\"

        name = "first"

        def act(self, observation, legal_actions):
            return legal_actions[0]

    # xueliu simulate --games 100 --bots mymodule:FirstChoiceBot,greedy,random,random

Any object with such an ``act`` method is a bot (``isinstance(FirstChoiceBot(), Bot)`` is true);
subclassing :class:`Bot` is optional and gives one more, faster way in: a bot that runs in the
same process as the game may also define ``act_view(view, legal_actions)``, which
:func:`play_hand` calls instead of ``act`` with a :class:`~xueliu.game.view.SeatView` — the same
information as the observation, as tile counts built only when read (no JSON to build and parse).
The built-in bots do; the default ``Bot.act_view`` simply calls ``act(view.observation(), …)``.

A bot is asked in every phase: the exchange (``kind == "exchange"``, ``tiles``), the void
(``"void"``, ``suit``), player multipliers (``"multiplier"``, ``value``), its turns (``"discard"``,
``"hu"``, ``"concealed_kong"``, ``"added_kong"``) and claim windows (``"hu"``, ``"kong"``, ``"peng"``,
``"pass"``). :func:`play_hand` below is the loop that drives four bots through one hand.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover - types only: bots never need the engine's classes
    from ..game.actions import Action
    from ..game.state import GameState
    from ..game.view import SeatView

__all__ = ["Bot", "SupportsAct", "play_hand"]


class SupportsAct(Protocol):
    """Anything with ``act(observation, legal_actions) -> Action``: what :func:`play_hand` and
    ``xueliu simulate`` accept (a static-typing name for the duck-typed bots)."""

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        ...


class Bot(ABC):
    """Base class of the built-in bots; any object with an ``act`` method counts as a ``Bot``
    for ``isinstance`` (see the module docstring), so user bots need not subclass it."""

    name: str = "bot"

    @abstractmethod
    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` for the seat whose ``observation`` this is."""

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        """The same choice from a :class:`~xueliu.game.view.SeatView` (in-process play). This
        default reads the JSON observation; the built-in bots read the counts directly."""
        return self.act(view.observation(), legal_actions)

    @classmethod
    def __subclasshook__(cls, other: type) -> Any:
        if cls is Bot:
            return callable(getattr(other, "act", None)) or NotImplemented
        return NotImplemented


def play_hand(state: GameState, bots: Sequence[SupportsAct]) -> GameState:
    """Drive ``state`` to its end, asking ``bots[seat]`` whenever that seat is pending.

    A bot with an ``act_view`` method (every :class:`Bot`) is asked through it with
    ``state.view(seat)``; any other bot through ``act`` with ``state.observation(seat)``. Returns
    the same ``state`` (now ``state.is_over``). A bot that returns an action that is not legal
    makes ``state.step`` raise ``ValueError``, which is passed on unchanged.

    >>> import xueliu
    >>> from xueliu.bots import RandomBot
    >>> state = play_hand(xueliu.new_game("xueliu", seed=1), [RandomBot(s) for s in range(4)])
    >>> state.is_over
    True
    """
    if len(bots) != 4:
        raise ValueError(f"a hand needs 4 bots, got {len(bots)}")
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
    return state
