"""``xueliu play``: one hand in the terminal, the person at one seat against GreedyBots."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from ..errors import CommandError
from ..game import new_game
from .common import rules_from_args, rules_name
from .events import describe_action, print_events, show_table, tile_label

__all__ = ["cmd_play"]


def _ask(legal: Sequence[Any], inp: Any, out: Any) -> Any:
    """Prompt until the person picks a legal action (a number, or e.g. ``5m`` for a discard)."""
    for i, a in enumerate(legal):
        print(f"  {i:2d}  {describe_action(a)}", file=out)
    while True:
        print(f"choose 0-{len(legal) - 1}: ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise CommandError("input ended before the hand was over")
        text = line.strip()
        if not getattr(inp, "isatty", lambda: False)():
            print(text, file=out)  # piped answers: keep the transcript readable
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        for a in legal:  # a tile name picks the discard of that tile
            if a.kind == "discard" and text in (a.tile, tile_label(a.tile)):
                return a
        if text in ("q", "quit", "exit"):
            raise CommandError("you left the table")
        print(f"not a choice: {text!r}", file=out)


def cmd_play(args: argparse.Namespace) -> int:
    import random

    from ..bots import GreedyBot, bot_seed, end_hand_for, start_hand_for

    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 63)
    me = args.seat
    if me >= rules.players:
        raise CommandError(f"--seat must be 0..{rules.players - 1} at {rules_name(args)} "
                           f"({rules.players} seats), got {me}")
    state = new_game(rules, seed=seed, dealer=0)
    bots = {s: GreedyBot(rules=rules) for s in rules.shape.seats if s != me}
    for s, bot in bots.items():  # the one bot lifecycle, as play_hand and simulate run it
        start_hand_for(bot, s, rules, bot_seed(seed, 0, s))
    out = sys.stdout
    print(f"xueliu play — {rules_name(args)}, seed {seed}; you are seat {me}, the others are "
          "GreedyBots. Answer with the number of a choice (or a tile such as 5m to discard it).",
          file=out)
    shown = 0
    while not state.is_over:
        decisions = {}
        for seat in state.pending():
            if seat == me:
                print_events(state.events(me, since=shown), me, out)
                shown = state.event_count
                show_table(state.observation(me), me, out)
                decisions[seat] = _ask(state.legal_actions(me), sys.stdin, out)
            else:
                decisions[seat] = bots[seat].act(state.observation(seat), state.legal_actions(seat))
        state.step(decisions)
    for s, bot in bots.items():
        end_hand_for(bot, state, s)
    if args.out is not None:  # the record, as the server stores it: xueliu replay/review read it
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(state.record(), f, ensure_ascii=False)
    print_events(state.events(me, since=shown), me, out)
    print("", file=out)
    print(state.settlement().report(), file=out)
    return 0
