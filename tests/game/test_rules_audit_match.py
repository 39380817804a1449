"""Rules audit, matches (§8 "Matches"): ``next_dealer = "first_winner"`` when nobody wins, and
``base = "auto"`` (it needs coins) in a match."""

import pytest

from xueliu import Match
from xueliu.rules import Rules


def never_wins(state, seat):
    """Passes on every claim, discards on every turn, never declares hu or a kong."""
    legal = state.legal_actions(seat)
    for kind in ("pass", "discard"):
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]  # exchange, void, multiplier: the first choice


def test_next_dealer_first_winner_no_winner_the_dealer_stays():
    # the xueliu preset has no forced last-tile win, so a hand where nobody declares hu has no
    # winner: the dealer deals again, hand after hand
    rules = Rules.preset("xueliu").replace(next_dealer="first_winner")
    m = Match(rules, seed=4)
    states = m.play(never_wins, hands=3)
    assert all(st.settlement().wins == [] for st in states)
    assert [st.dealer for st in states] == [0, 0, 0]
    assert m.dealer == 0


def test_base_auto_needs_coins_in_a_match_too():
    with pytest.raises(ValueError, match="coins"):
        Match(Rules.preset("xueliu").replace(base="auto"), seed=1)
    m = Match(Rules.preset("xueliu").replace(base="auto"), seed=1, coins=[500, 300, 900, 1000])
    assert m.next_hand().settlement().base == 3  # 1% of the smallest stack
