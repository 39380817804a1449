"""Settings of one ``xueliu serve`` process (docs/rules.md §8 "On a server" gives the defaults)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..rules import Rules

# docs/rules.md §8: 15 s for the exchange and the void (seed 000), 10 s for a discard or a claim.
# The multiplier choice (选倍) is a before-play joint decision like the void: 15 s too. Each is a
# setting of its own (``human_exchange``, ``human_void``, ``human_turn``, ``human_claim``).
_PHASE_SETTING = {"exchange": "human_exchange", "void": "human_void", "multiplier": "human_void",
                  "turn": "human_turn", "claim": "human_claim"}


@dataclass(frozen=True)
class ServerConfig:
    """Everything a server process needs to know; times are real seconds before ``time_scale``.

    ``time_scale`` multiplies every timer (decision times, the bots' and auto-play's pauses, the
    pause between hands, the reconnect window), so ``0.01`` plays a table a hundred times faster
    (tests). ``reconnect_window`` ``None``: a dropped seat is auto-played to the end of the hand
    and never escapes (docs/rules.md §8). ``lease`` is how long a process may go without a heartbeat
    before another process takes its tables over (not scaled: it is about processes, not play).
    ``house_rules`` (``xueliu serve --preset/--rules/--knob``): rules this process offers as the
    preset ``"house"`` and creates a table with when none is asked for; ``house_source`` says where
    they came from (``GET /api/presets``' ``source``).
    """

    host: str = "127.0.0.1"
    port: int = 8700
    db: str = "sqlite:///xueliu.db"
    time_scale: float = 1.0
    starting_coins: int = 1000
    reconnect_window: Optional[float] = 90.0
    bot_delay: float = 1.0      # a server-side bot "thinks" this long, so people can follow
    auto_delay: float = 1.0     # a dropped seat's auto-play (托管) waits this long per decision
    hand_pause: float = 3.0     # between the end of a hand and the next deal, nobody to wait for
    ready_timeout: float = 30.0  # a table of people deals when all pressed Continue, or after this
    human_exchange: float = 15.0  # decision times (seconds, before time_scale): the exchange,
    human_void: float = 15.0      # ... the void and the multiplier,
    human_turn: float = 10.0      # ... a turn (discard, kong, self-drawn win),
    human_claim: float = 10.0     # ... a claim window
    lease: float = 10.0
    rate: float = 20.0          # messages a second a websocket connection may send, sustained
    burst: int = 40             # ... and at once
    max_frame: int = 64 * 1024  # bytes of one websocket frame or one HTTP body
    name_max: int = 32          # characters of a player's name
    max_base: int = 1_000_000   # the largest base stake a table may be created with
    stop_after: Optional[float] = None  # tests: the process stops by itself after this long
    # Tests: every hand is dealt from hash_seed(deal_seed, table, hand index) instead of a fresh
    # secret seed, so a test knows the walls (and the bots' seeds) of its tables in advance.
    # Never in play: anyone who knows it knows every wall.
    deal_seed: Optional[int] = None
    house_rules: Optional[Rules] = None
    house_source: str = ""

    def __post_init__(self) -> None:
        if not self.time_scale > 0:
            raise ValueError(f"time_scale must be > 0, got {self.time_scale}")
        if self.starting_coins < 0:
            raise ValueError(f"starting_coins must be >= 0, got {self.starting_coins}")
        if self.reconnect_window is not None and self.reconnect_window < 0:
            raise ValueError(f"reconnect_window must be >= 0 or None, got {self.reconnect_window}")
        if not self.lease > 0:
            raise ValueError(f"lease must be > 0, got {self.lease}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0..65535, got {self.port}")
        for name in ("ready_timeout", *sorted(set(_PHASE_SETTING.values()))):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0 seconds, got {getattr(self, name)}")

    def decision_time(self, phase: str) -> float:
        """Seconds a seat has for a decision in ``phase`` (scaled)."""
        return float(getattr(self, _PHASE_SETTING.get(phase, "human_turn"))) * self.time_scale

    def scaled(self, seconds: float) -> float:
        return seconds * self.time_scale

    @property
    def window(self) -> Optional[float]:
        """The reconnect window in scaled seconds, or None."""
        return None if self.reconnect_window is None else self.reconnect_window * self.time_scale
