"""The server's own dealer rotation (``xueliu.server.dealer.next_dealer``, what ``table.py`` stores
for the next hand) and the engine's ``xueliu.Match`` are two implementations of one rule,
docs/rules.md §8 "Matches" and §11.1: every ``next_dealer`` value, at 2, 3 and 4 seats, through the
same scripted first wins — none, one self-draw, one discard win, a 一炮多响 on a discard or on a
robbed kong (the discarder deals), a later win by another seat that must not count — and through
every one of the 36 throws of the two dice, which count seats from the dealer as 1 modulo the
table: a roll at a three-seat table never names seat 3."""

from __future__ import annotations

import itertools
import random

import pytest

import xueliu
from xueliu import match as match_module
from xueliu.rules import Rules
from xueliu.server import dealer as dealer_module
from xueliu.server.dealer import next_dealer
from xueliu.settlement import Settlement, Win

KNOBS = ("rotate", "first_winner", "first_winner_next", "dice")
SEATS = (2, 3, 4)


def rules_for(knob: str, players: int) -> Rules:
    rules = Rules.preset("xuezhan").replace(next_dealer=knob, player_multipliers=None)
    return rules if players == 4 else rules.replace(players=players)


def win(order: int, seat: int, source: str, from_seat, winners) -> Win:
    return Win(order=order, seat=seat, tile="5p", source=source, from_seat=from_seat,
               fan_result=None, hand="", winners=tuple(winners))  # type: ignore[arg-type]


def first_wins(n: int):
    """Every way a hand at an ``n``-seat table can begin its wins (and one later win by another
    seat, which must change nothing), by name."""
    out = {"nobody won": []}
    for s in range(n):
        other = (s + 1) % n
        out[f"seat {s} self-draws first"] = [
            win(1, s, "self_draw", None, [s]), win(2, other, "self_draw", None, [other])]
        for frm in range(n):
            if frm == s:
                continue
            out[f"seat {s} wins on seat {frm}'s discard"] = [
                win(1, s, "discard", frm, [s]), win(2, frm, "self_draw", None, [frm])]
    if n >= 3:
        for frm in range(n):
            a, b = (frm + 1) % n, (frm + 2) % n
            for source in ("discard", "robbed_kong"):
                out[f"seats {a} and {b} win on seat {frm}'s {source}"] = [
                    win(1, a, source, frm, [a, b]), win(2, b, source, frm, [a, b])]
    return out


def settlement(n: int, wins) -> Settlement:
    return Settlement(transfers=[], net=[0] * n, wins=list(wins))


class _Hand:
    """What ``Match._next_dealer`` reads of a finished hand: its dealer."""

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer


def engine_next_dealer(rules: Rules, dealer: int, st: Settlement, index: int = 0) -> int:
    return xueliu.Match(rules, seed=1)._next_dealer(_Hand(dealer), st, index)  # type: ignore[arg-type]


def expected(knob: str, n: int, dealer: int, wins) -> int:
    """docs/rules.md §8 / §11.1 in a line each (not for ``dice``)."""
    if knob == "rotate":
        return (dealer + 1) % n
    if not wins:
        return dealer if knob == "first_winner" else (dealer + 1) % n
    first = wins[0]
    return first.from_seat if len(first.winners) > 1 else first.seat


@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("knob", ["rotate", "first_winner", "first_winner_next"])
def test_the_server_and_a_match_pick_the_same_next_dealer_after_every_kind_of_first_win(
        knob, players):
    rules = rules_for(knob, players)
    for (name, wins), dealer in itertools.product(first_wins(players).items(), range(players)):
        st = settlement(players, wins)
        want = expected(knob, players, dealer, wins)
        assert next_dealer(rules, dealer, st) == want, (name, dealer)
        assert engine_next_dealer(rules, dealer, st) == want, (name, dealer)


class _Dice:
    """Scripted dice: ``secrets.randbelow(6)`` for the server, ``SplitMix64(...).die()`` for a
    match; each throw is consumed once."""

    def __init__(self, throw) -> None:
        self.left = list(throw)

    def randbelow(self, bound: int) -> int:
        assert bound == 6, "a die has six faces"
        return self.left.pop(0) - 1

    def die(self) -> int:
        return self.left.pop(0)


@pytest.mark.parametrize("players", SEATS)
def test_every_throw_of_the_dice_names_the_same_seat_on_the_server_and_in_a_match(
        players, monkeypatch):
    rules = rules_for("dice", players)
    for throw, dealer in itertools.product(itertools.product(range(1, 7), repeat=2),
                                           range(players)):
        want = (dealer + sum(throw) - 1) % players  # the dealer counts as 1
        dice = _Dice(throw)
        monkeypatch.setattr(dealer_module.secrets, "randbelow", dice.randbelow)
        server = next_dealer(rules, dealer, settlement(players, []))
        assert dice.left == [], "the server throws two dice"
        dice = _Dice(throw)
        monkeypatch.setattr(match_module, "SplitMix64", lambda seed, d=dice: d)
        engine = engine_next_dealer(rules, dealer, settlement(players, []))
        assert dice.left == [], "a match throws two dice"
        assert server == engine == want, (throw, dealer)
        assert want in range(players)


@pytest.mark.parametrize("players", SEATS)
def test_the_servers_own_dice_name_every_seat_of_the_table_and_no_other(players):
    rules = rules_for("dice", players)
    for dealer in range(players):
        rolled = {next_dealer(rules, dealer, settlement(players, [])) for _ in range(300)}
        assert rolled == set(range(players)), (dealer, rolled)


@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("knob", KNOBS)
def test_played_hands_give_the_same_next_dealer_on_the_server_as_in_their_match(knob, players):
    """Real hands of a match at every table size: after each, the match's next dealer is the one
    the server would store (for ``dice``: a seat of the table, the server's roll its own)."""
    rules = rules_for(knob, players)
    rng = random.Random(f"{knob}{players}")
    m = xueliu.Match(rules, seed=players)
    seen = set()
    for _ in range(12):
        state = m.next_hand()
        assert m.dealer in range(players)
        while not state.is_over:
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
        st = state.settlement()
        served = next_dealer(rules, state.dealer, st)
        assert served in range(players)
        if knob != "dice":
            assert served == m.dealer, (state.dealer, [w.to_dict() for w in st.wins])
        assert m.dealer in range(players)
        seen.add(m.dealer)
    if knob == "rotate":
        assert seen == set(range(players))
