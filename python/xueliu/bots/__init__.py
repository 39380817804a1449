"""Bots: the one-method :class:`Bot` interface and three ready-made bots.

>>> from xueliu.bots import GreedyBot, RandomBot, play_hand
>>> import xueliu
>>> state = play_hand(xueliu.new_game("xueliu", seed=3), [GreedyBot(), RandomBot(1), RandomBot(2), RandomBot(3)])
>>> state.is_over
True
"""

from typing import Any, Callable, Dict, Mapping

from .autoplay import AutoPlayBot
from .base import Bot, play_hand
from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["Bot", "play_hand", "RandomBot", "AutoPlayBot", "GreedyBot", "BOTS", "make_bot"]

BOTS: Dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "autoplay": AutoPlayBot, "greedy": GreedyBot, "expert": ExpertBot,
}
"""Built-in bots by the name the ``xueliu`` command uses."""


def make_bot(spec: str, seed: int = 0, rules: Any = None) -> Bot:
    """A bot from a name: ``"random"``, ``"autoplay"``, ``"greedy"`` or ``"package.module:Class"``.
    A class is called with the keyword arguments ``seed=`` (its own random seed) and ``rules=``
    (the :class:`~xueliu.Rules` in play) that its signature accepts.

    >>> make_bot("random", seed=1).name
    'random'
    """
    if spec in BOTS:
        return BOTS[spec](seed=seed, rules=rules)
    if ":" not in spec:
        raise ValueError(f"unknown bot {spec!r} (expected one of {', '.join(BOTS)} or module:Class)")
    import importlib
    import inspect

    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"bot {spec!r}: cannot import {module_name!r} ({e})") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise ValueError(f"bot {spec!r}: module {module_name!r} has no {attr!r}")
    params: Mapping[str, inspect.Parameter]
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs = {k: v for k, v in (("seed", seed), ("rules", rules)) if k in params}
    bot: Bot = cls(**kwargs)
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"bot {spec!r} has no act(observation, legal_actions) method")
    return bot
