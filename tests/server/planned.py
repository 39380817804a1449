"""Hands played in advance: a table of a server started with ``--deal-seed`` deals its first hand
from ``hash_seed(deal_seed, table, 0)`` and plays its bot seats with its own GreedyBots, so this
process can play that hand before the server does — the person's seat by :func:`person_choice`,
the rule the test's person then follows (over a websocket, or by clicks in the browser table) —
and find a deal seed whose hand has what a test needs (:func:`find_deal`)."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

import xueliu
from xueliu.bots import GreedyBot, bot_seed, start_hand_for
from xueliu.game import Action, GameState
from xueliu.game.wall import hash_seed


def person_choice(ids: Sequence[int]) -> int:
    """What the person of a planned table does, from the action ids it is offered: 提 first,
    then a win, a peng (a soft one too), the discard of the highest id (the highest tile; 红中 is
    the highest of all), a pass; the lowest id otherwise (a void, a multiplier)."""
    acts = [Action.from_id(i) for i in sorted(set(ids))]
    for kind in ("swap_back", "hu", "peng"):
        for a in acts:
            if a.kind == kind:
                return a.id
    discards = [a.id for a in acts if a.kind == "discard"]
    if discards:
        return max(discards)
    passes = [a.id for a in acts if a.kind == "pass"]
    return passes[0] if passes else acts[0].id


def deal_flags(seed: int) -> List[str]:
    """``xueliu serve`` flags for a table whose hand a test played in advance: dealt from
    ``seed``, and a person who is never played for — not auto-played before it connects, never
    timed out on a busy machine — so it makes every decision itself, as planned."""
    return ["--deal-seed", str(seed), "--auto-delay", "600", "--human-void", "120",
            "--human-turn", "120", "--human-claim", "120"]


def server_hand(rules: xueliu.Rules, deal_seed: int, table: int = 1,
                stop: Optional[Callable[[GameState, int, List[Action]], bool]] = None
                ) -> Tuple[GameState, bool]:
    """The first hand of table ``table`` at a server started with ``--deal-seed deal_seed``, its
    bot seats played as the server plays them (GreedyBots started with the hand's bot seeds,
    asked with the observation), seat 0 by :func:`person_choice`. ``stop(state, seat, legal)``
    is asked before each of seat 0's decisions: True ends the play there (returns True too)."""
    n = rules.shape.players
    state = xueliu.new_game(rules, seed=hash_seed(deal_seed, table, 0), dealer=0,
                            coins=[1000] * n)
    bots: Dict[int, GreedyBot] = {}
    for s in range(1, n):
        bots[s] = GreedyBot(rules=rules)
        start_hand_for(bots[s], s, rules, bot_seed(state.seed or 0, 0, s))
    while not state.is_over:
        decisions = {}
        for s in state.pending():
            legal = state.legal_actions(s)
            if s == 0:
                if stop is not None and stop(state, s, legal):
                    return state, True
                decisions[s] = Action.from_id(person_choice([a.id for a in legal]))
            else:
                decisions[s] = bots[s].act(state.observation(s), legal)
        state.step(decisions)
    return state, False


def find_deal(rules: xueliu.Rules, wanted: Callable[[GameState, int, List[Action]], bool],
              seeds: Sequence[int] = range(1, 3000), table: int = 1) -> int:
    """The first deal seed whose hand reaches a decision of seat 0 with ``wanted`` true."""
    for seed in seeds:
        if server_hand(rules, seed, table, wanted)[1]:
            return seed
    raise AssertionError(f"no deal seed in {seeds} gives the hand the test needs")
