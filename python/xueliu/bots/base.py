"""The bot interface: ``act(observation, legal_actions) -> Action``, inside one lifecycle.

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
:func:`~xueliu.bots.play_hand` calls instead of ``act`` with a :class:`~xueliu.game.view.SeatView`
— the same information as the observation, as tile counts built only when read (no JSON to build
and parse). The built-in bots do; the default ``Bot.act_view`` simply calls
``act(view.observation(), …)``.

**The lifecycle** (the same as a program's, docs/protocol.md; :mod:`.lifecycle`): before its first
decision of a hand a bot gets ``start_hand(seat, rules, seed)`` — its seat, the
:class:`~xueliu.Rules` in play and a seed derived from the run's seed, the hand and the seat —
and when the hand is over ``end_hand(observation)``, its seat's last observation. Both are
optional (the defaults here do nothing; a duck-typed bot without them is simply not asked). A bot
that draws random numbers reseeds from ``seed``; a bot that remembers things within a hand
forgets them there.

A bot is asked in every phase: the exchange (``kind == "exchange"``, ``tiles``), the void
(``"void"``, ``suit``), player multipliers (``"multiplier"``, ``value``), its turns (``"discard"``,
``"hu"``, ``"concealed_kong"``, ``"added_kong"``) and claim windows (``"hu"``, ``"kong"``, ``"peng"``,
``"pass"``). :func:`~xueliu.bots.play_hand` is the loop that drives four bots through one hand.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover - types only: bots never need the engine's classes
    from ..game.actions import Action
    from ..game.view import SeatView
    from ..rules import Rules

__all__ = ["Bot", "SupportsAct"]


class SupportsAct(Protocol):
    """Anything with ``act(observation, legal_actions) -> Action``: what
    :func:`~xueliu.bots.play_hand` and ``xueliu simulate`` accept (a static-typing name for the
    duck-typed bots; ``start_hand`` and ``end_hand`` are optional)."""

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

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        """A hand starts with this bot at ``seat`` under ``rules``; ``seed`` is this bot's seed
        for the hand (see the module docstring). The default does nothing."""

    def end_hand(self, observation: Mapping[str, Any]) -> None:
        """The hand is over; ``observation`` is the seat's last observation (the settlement as
        the seat may see it). The default does nothing."""

    @classmethod
    def __subclasshook__(cls, other: type) -> Any:
        if cls is Bot:
            return callable(getattr(other, "act", None)) or NotImplemented
        return NotImplemented
