"""Checks that involve several knobs at once (docs/rules.md §11.1): each raises ``ValueError`` naming the
knobs. Single values are checked by :mod:`xueliu.rules.values` first."""

from __future__ import annotations

from .shape import ShapeKnobs

__all__ = ["check_together"]


def check_together(r: ShapeKnobs) -> None:
    """Raise ValueError when the knobs of ``r`` contradict each other."""
    n_suits = len(r.suits)
    if r.declare_void and n_suits < 3:
        raise ValueError(
            f"bad value for knob 'declare_void': True with suits {r.suits!r} (定缺 needs all three "
            "suits; docs/rules.md §11.1: 两房/一房 rooms have no 定缺 — set declare_void=False)"
        )
    if r.exchange_direction == "opposite" and r.players == 3:
        raise ValueError(
            "bad value for knob 'exchange_direction': 'opposite' with players=3 (a three-seat "
            "table has no opposite seat; use 'next', 'previous', 'random' or 'dice')"
        )
    wall, dealt = 36 * n_suits, r.players * r.hand_size + 1
    if dealt > wall:
        raise ValueError(
            f"bad value for knob 'players': {r.players} seats of hand_size {r.hand_size} need "
            f"{dealt} tiles for the deal, and a wall of suits {r.suits!r} holds {wall}"
        )
