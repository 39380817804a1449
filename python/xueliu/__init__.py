"""xueliu: a Sichuan mahjong engine for 血流成河 (xueliu) and 血战到底 (xuezhan).

>>> import xueliu
>>> xueliu.waits("12334577m23345p")
['1p', '4p']

This file only re-exports the public names; each module documents its own.
"""

from . import batch
from .game import Action, GameState, new_game
from .hand import (
    DiscardOption,
    FanResult,
    WaitOption,
    best_discards,
    evaluate,
    is_win,
    jinzhang,
    shanten,
    waits,
)
from .match import Match
from .record import replay
from .rules import Rules
from .settlement import Settlement, Transfer
from .tiles import Hand, Meld, parse_hand, tile_index, tile_name

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # single hands (tiles.py, rules.py, hand.py, batch.py)
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
    "jinzhang",
    "FanResult",
    "DiscardOption",
    "WaitOption",
    "batch",
    # the game (game/, record.py, match.py, settlement.py)
    "new_game",
    "replay",
    "Match",
    "GameState",
    "Action",
    "Transfer",
    "Settlement",
]
