"""Bots: the one-method :class:`Bot` interface and its lifecycle (``start_hand`` / ``act`` /
``end_hand``, :mod:`.lifecycle`), four ready-made bots (random, autoplay, greedy, expert), and
programs in any language as :class:`ExternalBot` (JSON lines over a pipe, docs/protocol.md).

>>> from xueliu.bots import GreedyBot, RandomBot, play_hand
>>> import xueliu
>>> state = play_hand(xueliu.new_game("xueliu", seed=3), [GreedyBot(), RandomBot(1), RandomBot(2), RandomBot(3)])
>>> state.is_over
True
"""

from typing import Any, Callable, Dict, Mapping, Union

from .autoplay import AutoPlayBot
from .base import Bot
from .expert import ExpertBot
from .external import ExternalBot, parse_command
from .greedy import GreedyBot
from .lifecycle import bot_seed, end_hand_for, play_hand, start_hand_for
from .neural import NeuralBot
from .random_bot import RandomBot

__all__ = ["Bot", "play_hand", "RandomBot", "AutoPlayBot", "GreedyBot", "ExpertBot",
           "ExternalBot", "NeuralBot", "BOTS", "make_bot", "check_bot_spec", "is_external", "bot_seed",
           "start_hand_for", "end_hand_for"]

BOTS: Dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "autoplay": AutoPlayBot, "greedy": GreedyBot, "expert": ExpertBot,
    "neural": NeuralBot,
}
"""Built-in bots by the name the ``xueliu`` command uses."""

NEURAL_WEIGHTS = "neural:"
"""The prefix of a spec naming a weights file for :class:`NeuralBot` (``neural:runs/a/final.npz``):
weights trained by ``xueliu train`` go into an arena without a line of code."""


def is_external(spec: str) -> bool:
    """Whether a bot spec names a program (``"cmd:python3 mybot.py"``)."""
    return spec.startswith("cmd:")


def check_bot_spec(spec: str) -> None:
    """Raises ``ValueError`` for a spec :func:`make_bot` cannot make, without starting anything
    (a ``cmd:`` program is only looked up)."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str, got {type(spec).__name__}")
    if is_external(spec):
        parse_command(spec[4:])
    else:
        make_bot(spec)


def make_bot(spec: str, seed: int = 0, rules: Any = None, timeout: float = 5.0,
             observation: bool = False) -> Union[Bot, ExternalBot]:
    """A bot from a spec: ``"random"``, ``"autoplay"``, ``"greedy"``, ``"expert"``, ``"neural"``
    (the shipped weights), ``"neural:WEIGHTS"`` (a :class:`NeuralBot` playing the weights file at
    that path, e.g. one ``xueliu train`` wrote), ``"package.module:Class"``,
    or ``"cmd:COMMAND"`` for a program speaking docs/protocol.md (an :class:`ExternalBot` that
    answers within ``timeout`` seconds and, with ``observation``, gets the seat's observation in
    each request; its process starts with the first hand and runs until ``close()``). A class is called with the keyword arguments ``seed=`` (its own random seed)
    and ``rules=`` (the :class:`~xueliu.Rules` in play) that its signature accepts.

    >>> make_bot("random", seed=1).name
    'random'
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str, got {type(spec).__name__}")
    if spec in BOTS:
        return BOTS[spec](seed=seed, rules=rules)
    if is_external(spec):
        return ExternalBot(spec[4:], timeout=timeout, name=spec, observation=observation)
    if spec.startswith(NEURAL_WEIGHTS):
        path = spec[len(NEURAL_WEIGHTS):]
        if not path:
            raise ValueError(f"bot {spec!r}: name a weights file after 'neural:'")
        try:
            return NeuralBot(seed=seed, rules=rules, weights=path)
        except OSError as e:
            raise ValueError(f"bot {spec!r}: cannot read the weights file {path!r} ({e})") from None
    if ":" not in spec:
        raise ValueError(f"unknown bot {spec!r} (expected one of {', '.join(BOTS)}, "
                         "neural:WEIGHTS, module:Class or cmd:COMMAND)")
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
