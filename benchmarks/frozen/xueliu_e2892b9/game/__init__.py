"""The flow of one hand: state, actions, wall, claims, events and seat views."""

from .actions import Action
from .state import GameState, new_game

__all__ = ["Action", "GameState", "new_game"]
