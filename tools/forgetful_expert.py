"""ExpertBot without its memory of the hand: an experiment of docs/training.md (session 6).

The expert remembers, for every seat that has won in 血流, which kinds were discarded since (they
are safe against it: ``HandMemory.safe_against``) — the one thing it knows that a single
observation does not show. This bot is the expert with that memory always empty, so the arena
measures what the memory is worth (run from this folder: the arena finds ``module:Class`` in the
working directory)::

    cd tools && xueliu arena --bots forgetful_expert:ForgetfulExpert --reference expert \\
        --games 5000 --preset xueliu --workers 2 --seed 2026
"""

from __future__ import annotations

from typing import Any, Optional, Set

from xueliu.bots import ExpertBot
from xueliu.bots.expert_view import HandMemory
from xueliu.rules import Rules


class _NoMemory(HandMemory):
    def safe_against(self, seat: int, view: Any) -> Set[int]:
        return set()


class ForgetfulExpert(ExpertBot):
    name = "forgetful_expert"

    def __init__(self, seed: Optional[int] = None, rules: Optional[Rules] = None) -> None:
        super().__init__(seed, rules)
        self._memory = _NoMemory()

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        super().start_hand(seat, rules, seed)
        self._memory = _NoMemory()
