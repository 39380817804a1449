"""Matches: consecutive hands with dealer rotation (knob ``next_dealer``) and coins carried over.

>>> m = Match("xuezhan", seed=5, coins=[1000] * 4)
>>> state = m.next_hand()          # play it to the end, then ask for the next one
>>> m.hand_index, m.dealer
(0, 0)

Hand ``i`` is shuffled from ``hash_seed(match seed, i)`` (our own splitmix64 hash), so a match
is reproduced from its seed and its decisions. The first hand is dealt by seat 0.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from .game.actions import Action
from .game.state import GameState, new_game
from .game.wall import SplitMix64, hash_seed
from .rules import Rules
from .settlement import Settlement

_DEALER_DICE = 0xD1CE


class Match:
    """Consecutive hands. ``next_hand()`` settles the finished hand (coins, totals, next dealer)
    and deals the next; ``hands`` keeps every hand's state."""

    def __init__(self, rules: Union[str, Rules] = "xueliu", *, seed: Optional[int] = None,
                 coins: Optional[Sequence[int]] = None) -> None:
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        elif not isinstance(rules, Rules):
            raise TypeError(f"rules must be a preset name or a Rules, got {type(rules).__name__}")
        if seed is None:
            seed = secrets.randbits(64)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        if coins is not None:
            n = rules.shape.players
            if isinstance(coins, (str, bytes)) or len(coins) != n or any(
                    isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in coins):
                raise ValueError(f"coins must be {n} non-negative ints (one per seat), "
                                 f"got {coins!r}")
            coins = list(coins)
        if rules.base == "auto" and coins is None:
            raise ValueError('base="auto" needs coins')
        self.rules = rules
        self.seed = seed
        self._coins: Optional[List[int]] = coins
        self._dealer = 0
        self._totals = [0] * rules.shape.players
        self.hands: List[GameState] = []
        self._settled = 0

    @property
    def coins(self) -> Optional[List[int]]:
        """Coins after the last finished hand (``None`` without coins)."""
        self._sync()
        return None if self._coins is None else list(self._coins)

    @property
    def totals(self) -> List[int]:
        """Each seat's net over the finished hands."""
        self._sync()
        return list(self._totals)

    @property
    def dealer(self) -> int:
        """The dealer of the current hand, or of the next one once the current hand is over."""
        self._sync()
        return self._dealer

    @property
    def current(self) -> Optional[GameState]:
        return self.hands[-1] if self.hands else None

    @property
    def hand_index(self) -> int:
        """Index of the current hand (-1 before the first)."""
        return len(self.hands) - 1

    def hand_seed(self, index: int) -> int:
        return hash_seed(self.seed, index)

    def next_hand(self) -> GameState:
        """Deals the next hand (the current one must be over)."""
        cur = self.current
        if cur is not None and not cur.is_over:
            raise ValueError("the current hand is not over")
        self._sync()
        state = new_game(self.rules, seed=self.hand_seed(len(self.hands)), dealer=self._dealer,
                         coins=self._coins)
        self.hands.append(state)
        return state

    def play(self, choose: Callable[[GameState, int], Union[Action, int]],
             hands: int = 1) -> List[GameState]:
        """Plays ``hands`` hands, asking ``choose(state, seat)`` for every decision."""
        out = []
        for _ in range(hands):
            state = self.next_hand()
            while not state.is_over:
                state.step({s: choose(state, s) for s in state.pending()})
            out.append(state)
        return out

    def _sync(self) -> None:
        """Settles the finished hands not yet counted (coins, totals, next dealer)."""
        while self._settled < len(self.hands) and self.hands[self._settled].is_over:
            state = self.hands[self._settled]
            s = state.settlement()
            for i, net in enumerate(s.net):
                self._totals[i] += net
            if s.coins is not None:
                self._coins = list(s.coins)
            self._dealer = self._next_dealer(state, s, self._settled)
            self._settled += 1

    def _next_dealer(self, state: GameState, s: Settlement, index: int) -> int:
        rule, n = self.rules.next_dealer, self.rules.players
        if rule == "rotate":
            return (state.dealer + 1) % n
        if rule in ("first_winner", "first_winner_next"):
            if not s.wins:  # first_winner_next (docs/rules.md §11.1): the dealer's next seat deals
                return state.dealer if rule == "first_winner" else (state.dealer + 1) % n
            first = s.wins[0]
            if len(first.winners) > 1:  # 一炮多响: the discarder deals
                assert first.from_seat is not None  # several winners: a discard or a robbed kong
                return first.from_seat
            return first.seat
        rng = SplitMix64(hash_seed(self.seed, index, _DEALER_DICE))
        total = rng.die() + rng.die()
        return (state.dealer + total - 1) % n

    def record(self) -> Dict[str, Any]:
        return {"format": "xueliu-match", "version": 1, "seed": self.seed,
                "rules": self.rules.to_dict(),
                "hands": [h.record() for h in self.hands]}
