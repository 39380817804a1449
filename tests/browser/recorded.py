"""Real hands for the page's drawing tests: a seeded hand played by GreedyBots in this process,
written as the messages the table server sends one seat (``protocol.state`` at the deal, then
``protocol.event`` with the engine's phase after each step, ``protocol.hand_end``), so the page's
own model and view can be fed exactly what a live table would send, deterministically."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import xueliu
from xueliu.bots import GreedyBot
from xueliu.game import GameState
from xueliu.server import protocol

NAMES = ["ann", "bot-east", "bot-west", "bot-north"]
TABLE = 7


@dataclass
class RecordedHand:
    seed: int
    seat: int
    state: GameState
    messages: List[Dict[str, Any]]  # what the server sends ``seat``, in order
    phases: List[str]  # the engine's phase after each event message
    walls: List[Optional[int]]  # the live wall after each event message that ends a step
    # The seat's observation after each event message that ends a step (None for the others).
    observations: List[Optional[Dict[str, Any]]]


def play(seed: int, seat: int = 0, coins: Optional[List[int]] = None,
         rules: Union[str, xueliu.Rules] = "xueliu",
         bots: Optional[Sequence[Any]] = None) -> RecordedHand:
    """``bots``: one per seat (each with ``act_view``), GreedyBots seeded from ``seed`` if none."""
    r = xueliu.Rules.preset(rules) if isinstance(rules, str) else rules
    seats = r.shape.seats
    state = xueliu.new_game(r, seed=seed, coins=coins or [1000] * len(seats))
    if bots is None:
        bots = [GreedyBot(seed=seed * 4 + s, rules=r) for s in seats]
    players = [{"player": s + 1, "name": NAMES[s], "bot": s != seat} for s in seats]
    messages: List[Dict[str, Any]] = [
        protocol.state(TABLE, seat, None, [], players, r)]
    phases: List[str] = []
    walls: List[Optional[int]] = []
    observations: List[Optional[Dict[str, Any]]] = []
    sent = 0

    def send_events() -> None:
        nonlocal sent
        for ev in state.events(seat, since=sent):
            messages.append(protocol.event(TABLE, ev, state.phase))
            phases.append(state.phase)
            walls.append(None)
            observations.append(None)
        if walls:
            walls[-1] = state.wall_remaining
            observations[-1] = state.observation(seat)
        sent = state.event_count

    send_events()
    while not state.is_over:
        decisions = {s: bots[s].act_view(state.view(s), state.legal_actions(s))
                     for s in state.pending()}
        state.step(decisions)
        send_events()
    st = state.settlement()
    assert st.coins is not None
    messages.append(protocol.hand_end(TABLE, list(st.net), list(st.coins), st.report(seat)))
    return RecordedHand(seed, seat, state, messages, phases, walls, observations)


def first_hand(wanted: Callable[[RecordedHand], bool], seat: int = 0,
               seeds: range = range(1, 400),
               rules: Union[str, xueliu.Rules] = "xueliu",
               bots: Optional[Callable[[int], Sequence[Any]]] = None) -> RecordedHand:
    """The first seeded hand with what a test needs (deterministic: same seeds, same hands).
    ``bots(seed)``: the bots of the hand of that seed (GreedyBots if not given)."""
    for seed in seeds:
        hand = play(seed, seat, rules=rules, bots=None if bots is None else bots(seed))
        if wanted(hand):
            return hand
    raise AssertionError(f"no hand in seeds {seeds} has what the test needs")


def events_of(hand: RecordedHand) -> List[Dict[str, Any]]:
    return [m["event"] for m in hand.messages if m["type"] == "event"]
