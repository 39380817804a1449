"""Checks that involve several knobs at once (docs/rules.md §11.1): each raises ``ValueError`` naming the
knobs. Single values are checked by :mod:`xueliu.rules.values` first; the wild-tile knobs' checks
across knobs are in :mod:`xueliu.rules.wilds`."""

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
    # docs/rules.md §12.5: the 红中 that extra_wilds adds are tiles of the wall too.
    wall, dealt = 36 * n_suits + r.extra_wilds, r.players * r.hand_size + 1
    if dealt > wall:
        hongzhong = f" and {r.extra_wilds} 红中" if r.extra_wilds else ""
        raise ValueError(
            f"bad value for knob 'players': {r.players} seats of hand_size {r.hand_size} need "
            f"{dealt} tiles for the deal, and a wall of suits {r.suits!r}{hongzhong} holds {wall}"
        )
