"""The flow of one hand: state, actions, wall, claims, events and seat views."""

from .actions import Action
from .state import GameState, new_game
from .view import SeatView

__all__ = ["Action", "GameState", "SeatView", "new_game"]
