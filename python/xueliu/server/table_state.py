"""What a running table (:mod:`xueliu.server.table`) holds besides its loop: what it needs from
its process, its seats, and the hand in play with its outstanding requests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

from ..game import GameState
from .config import ServerConfig
from .db import Database
from .hub import Hub

__all__ = ["TableContext", "Seat", "Request", "HandInPlay"]


@dataclass
class TableContext:
    """What a table needs from its process."""

    config: ServerConfig
    db: Database
    hub: Hub
    pid: str
    seated: Callable[[int, int], None]      # (player, table)
    unseated: Callable[[int], None]         # (player)
    closed: Callable[[int], None]           # (table)


@dataclass
class Seat:
    player: int
    name: str
    bot: bool
    leaving: bool = False
    dropped_at: Optional[float] = None  # monotonic time the person's last connection closed
    escaped: bool = False               # in the current hand
    ready: bool = False                 # pressed Continue since the last hand ended


@dataclass
class Request:
    seq: int
    issued: float
    deadline: float


@dataclass
class HandInPlay:
    id: int
    state: GameState
    players: List[int]
    coins: List[int]
    started: float
    decisions: int = 0
    sent: int = 0  # events already sent to the seats
    requests: Dict[int, Request] = field(default_factory=dict)
