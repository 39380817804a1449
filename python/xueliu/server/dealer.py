"""Who deals the next hand at a table (knob ``next_dealer``, docs/rules.md §8 "Matches")."""

from __future__ import annotations

import secrets

from ..rules import Rules
from ..settlement import Settlement


def next_dealer(rules: Rules, dealer: int, st: Settlement) -> int:
    """The dealer of the next hand (knob ``next_dealer``, docs/rules.md §8 "Matches"). The server rolls
    the dice of ``"dice"`` itself; the dealer it rolled is stored with the table."""
    n = rules.players
    if rules.next_dealer == "rotate":
        return (dealer + 1) % n
    if rules.next_dealer in ("first_winner", "first_winner_next"):
        if not st.wins:  # first_winner_next (docs/rules.md §11.1): the dealer's next seat deals
            return dealer if rules.next_dealer == "first_winner" else (dealer + 1) % n
        first = st.wins[0]
        if len(first.winners) > 1 and first.from_seat is not None:  # 一炮多响: the discarder
            return first.from_seat
        return first.seat
    total = secrets.randbelow(6) + secrets.randbelow(6) + 2
    return (dealer + total - 1) % n
