"""The built-in bots at commit e2892b9 (``make_bot`` is not copied: the benchmarks build bots
directly)."""

from .autoplay import AutoPlayBot
from .base import Bot, play_hand
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["Bot", "play_hand", "RandomBot", "AutoPlayBot", "GreedyBot"]
