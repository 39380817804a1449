"""xueliu: a Sichuan mahjong engine for 血流成河 (xueliu) and 血战到底 (xuezhan).

>>> import xueliu
>>> xueliu.waits("12334577m23345p")
['1p', '4p']

This file only re-exports the public names; each module adds its own lines.
"""

from . import batch
from .hand import (
    DiscardOption,
    FanResult,
    WaitOption,
    best_discards,
    evaluate,
    is_win,
    shanten,
    waits,
)
from .rules import Rules
from .tiles import Hand, Meld, parse_hand, tile_index, tile_name

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "parse_hand",
    "Hand",
    "Meld",
    "tile_name",
    "tile_index",
    "Rules",
    "is_win",
    "waits",
    "shanten",
    "evaluate",
    "best_discards",
    "FanResult",
    "DiscardOption",
    "WaitOption",
    "batch",
]

# Game engine (issue 3): one hand, records, matches, settlement.
from .game import Action, GameState, new_game  # noqa: E402
from .match import Match  # noqa: E402
from .record import replay  # noqa: E402
from .settlement import Settlement, Transfer  # noqa: E402

__all__ += ["new_game", "replay", "Match", "GameState", "Action", "Transfer", "Settlement"]
