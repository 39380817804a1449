"""The record of a hand: its rules, its wall (seed or explicit tiles), its setup and the decisions
the seats gave, as JSON data. The format and replay are documented in :mod:`xueliu.record`, which
re-exports :func:`record`; this module sits below ``GameState`` so that ``state.record()`` needs
no import of ``xueliu.record`` (which imports the game to replay)."""

from __future__ import annotations

from typing import Any, Dict

from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .data import PH_OVER, HandData

RECORD_FORMAT = "xueliu-record"
RECORD_VERSION = 1

CANCEL_AUTO_PLAY = "cancel_auto_play"
"""The decision ``[seat, "cancel_auto_play"]``: 取消托管, :meth:`GameState.cancel_auto_play`."""

NAMED_DECISIONS = ("timeout", "escape", CANCEL_AUTO_PLAY)
"""The decisions a record names by a word instead of an action id (``[seat, word]``)."""


def record(state: HandData) -> Dict[str, Any]:
    """The JSON-serialisable record of ``state`` (see :mod:`xueliu.record`). ``"dice"`` is there
    only when the dice were given to ``new_game`` (otherwise the seed rolls them)."""
    rec = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "wall": [TILE_NAMES[k] for k in state._wall] if state._wall_given else None,
        "dealer": state.dealer,
        "coins": None if state._initial_coins is None else list(state._initial_coins),
        "decisions": [list(d) for d in state._decisions],
        "result": result(state),
    }
    if state._dice_given:
        rec["dice"] = list(state.dice)
    return rec


def result(state: HandData) -> Dict[str, Any]:
    """What replay checks a record against: whether it ended, its event count, the net."""
    return {"is_over": state._phase == PH_OVER, "events": len(state._ev),
            "net": list(state._ledger.net)}
