"""Records and replay: a hand is its rules, its wall (seed or explicit tiles) and its decisions.

>>> rec = state.record()                     # doctest: +SKIP
>>> again = xueliu.replay(rec)               # doctest: +SKIP
>>> again.events() == state.events()         # doctest: +SKIP
True

The record is JSON-serialisable::

    {"format": "xueliu-record", "version": 1, "rules": {...every knob...},
     "seed": 123 | null, "wall": ["5m", ...] | null, "dealer": 0, "coins": [..] | null,
     "decisions": [[seat, action_id] | [seat, "timeout"] | [seat, "escape"]
                   | [seat, "cancel_auto_play"], ...],
     "result": {"is_over": true, "events": 143, "net": [..]}}

Decisions are the answers the seats gave, in the order the engine applied them (a joint step is
recorded seat by seat: answers only take effect once every pending seat has answered, so this is
the same game). ``"cancel_auto_play"`` is 取消托管 (:meth:`~xueliu.game.GameState.cancel_auto_play`),
recorded where it happened between the others. Automatic moves are not recorded; replay
re-derives them. ``result`` lets replay notice a record that was edited: a replay that ends
elsewhere is a ``ValueError``.

``record(state)`` (the same as ``state.record()``) is built by ``xueliu/game/hand_record.py``,
below the game state, so that the state never imports this module; this module imports the game
to replay.
"""

from __future__ import annotations

from typing import Any, Mapping

from .game.actions import Action
from .game.hand_record import (CANCEL_AUTO_PLAY, NAMED_DECISIONS, RECORD_FORMAT, RECORD_VERSION,
                               record)
from .game.hand_record import result as _result
from .game.state import GameState, restore
from .rules import Rules

__all__ = ["CANCEL_AUTO_PLAY", "NAMED_DECISIONS", "RECORD_FORMAT", "RECORD_VERSION",
           "apply_decision", "record", "replay"]


def apply_decision(state: GameState, seat: int, what: Any) -> None:
    """Applies one decision of a record to ``state``: an action id, ``"timeout"``, ``"escape"``
    or ``"cancel_auto_play"`` (the one place that reads the words: replay, the review, the
    server). Anything else is a ``ValueError``; the engine's own errors pass through.

    >>> apply_decision(state, 1, "timeout")     # doctest: +SKIP
    """
    if what == "timeout":
        state.apply_timeout(seat)
    elif what == "escape":
        state.escape(seat)
    elif what == CANCEL_AUTO_PLAY:
        state.cancel_auto_play(seat)
    elif isinstance(what, int) and not isinstance(what, bool):
        state.step({seat: Action.from_id(what)})
    else:
        raise ValueError(f"unknown decision {what!r}")


def replay(rec: Mapping[str, Any]) -> GameState:
    """Rebuilds the game of a record, decision by decision. A record that does not fit (unknown
    format, bad rules or wall, a decision that is not legal where it stands, a different result)
    is a ``ValueError`` saying where."""
    if not isinstance(rec, Mapping):
        raise ValueError(f"a record is a dict, got {type(rec).__name__}")
    if rec.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a xueliu record: format is {rec.get('format')!r}, "
                         f"expected {RECORD_FORMAT!r}")
    if rec.get("version") != RECORD_VERSION:
        raise ValueError(f"record version {rec.get('version')!r} is not supported "
                         f"(this engine reads version {RECORD_VERSION})")
    for key in ("rules", "decisions", "dealer"):
        if key not in rec:
            raise ValueError(f"record has no {key!r}")
    try:
        rules = Rules.from_dict(rec["rules"])
    except (TypeError, ValueError) as e:
        raise ValueError(f"record rules do not fit: {e}") from None
    seed, wall = rec.get("seed"), rec.get("wall")
    if seed is None and wall is None:
        raise ValueError("record has neither a seed nor a wall")
    try:
        state = restore(rules, seed=seed, wall=wall, dealer=rec["dealer"], coins=rec.get("coins"),
                        dice=rec.get("dice"))
    except (TypeError, ValueError) as e:
        raise ValueError(f"record setup does not fit: {e}") from None
    decisions = rec["decisions"]
    if not isinstance(decisions, (list, tuple)):
        raise ValueError("record decisions must be a list")
    for i, d in enumerate(decisions):
        if not isinstance(d, (list, tuple)) or len(d) != 2:
            raise ValueError(f"decision {i} is not [seat, action]: {d!r}")
        seat, what = d
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise ValueError(f"decision {i}: bad seat {seat!r}")
        try:
            apply_decision(state, seat, what)
        except (TypeError, ValueError) as e:
            raise ValueError(f"decision {i} {list(d)!r} does not fit the game: {e}") from None
    result = rec.get("result")
    if result is not None:
        got = _result(state)
        want = {k: result.get(k) for k in got} if isinstance(result, Mapping) else result
        if got != want:
            raise ValueError(f"record does not replay to its result: recorded {want}, got {got}")
    return state
