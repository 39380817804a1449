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

A bot is asked in every phase: the exchange (``kind == "exchange"``, ``tiles``), the void
(``"void"``, ``suit``), player multipliers (``"multiplier"``, ``value``), its turns (``"discard"``,
``"hu"``, ``"concealed_kong"``, ``"added_kong"``) and claim windows (``"hu"``, ``"kong"``, ``"peng"``,
``"pass"``). :func:`play_hand` below is the loop that drives four bots through one hand.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

__all__ = ["Bot", "play_hand"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(observation, legal_actions) -> Action`` (one of ``legal_actions``)."""

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        """Choose one of ``legal_actions`` for the seat whose ``observation`` this is."""
        ...


def play_hand(state: Any, bots: Sequence[Bot]) -> Any:
    """Drive ``state`` to its end, asking ``bots[seat]`` whenever that seat is pending.

    Returns the same ``state`` (now ``state.is_over``). A bot that returns an action that is not
    legal makes ``state.step`` raise ``ValueError``, which is passed on unchanged.

    >>> import xueliu
    >>> from xueliu.bots import RandomBot
    >>> state = play_hand(xueliu.new_game("xueliu", seed=1), [RandomBot(s) for s in range(4)])
    >>> state.is_over
    True
    """
    if len(bots) != 4:
        raise ValueError(f"a hand needs 4 bots, got {len(bots)}")
    while not state.is_over:
        decisions = {}
        for seat in state.pending():
            decisions[seat] = bots[seat].act(state.observation(seat), state.legal_actions(seat))
        state.step(decisions)
    return state
