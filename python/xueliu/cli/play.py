"""``xueliu play``: one hand in the terminal, the person at one seat against GreedyBots.

Before each decision the person sees the events since the last one, the table and the 查听 help
the browser table shows (:func:`help_lines`: shanten and 进张, the waits with their fan, or the
best discards). A decision with one legal option is taken for them (and said); the others are asked
by number, a tile name picks a discard, the exchange takes the tiles by name (``1m 2m 5m``,
``1m2m5m`` or ``125m``) and the void a suit (``m`` or ``万``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

from .._text import tile_text
from ..analysis import analyze, as_json
from ..errors import CommandError
from ..game import new_game
from ..rules import Rules
from ..tiles import parse_hand, tile_name
from .common import rules_from_args, rules_name
from .events import describe_action, print_events, show_table, tile_label

__all__ = ["cmd_play", "help_lines"]

_SUITS = {"m": "m", "p": "p", "s": "s", "万": "m", "筒": "p", "条": "s"}
_COPIES = {1: "one", 2: "two", 3: "three"}


# -- the 查听 help ---------------------------------------------------------------------------------


def _win_text(w: Dict[str, Any]) -> str:
    """A win's fan as the browser's help writes it: ``清一色 qingyise · 根 gen×1 — 4 番 fan``."""
    names = [f"{w['base_name']} {w['base']}".strip()]
    if w.get("gen"):
        names.append(f"根 gen×{w['gen']}")
    names += [f"{n} {x}".strip() for n, x in zip(w.get("extra_names", ()), w.get("extras", ()))]
    return f"{' · '.join(names)} — {w['fan']} 番 fan"


def _seen(obs: Dict[str, Any], me: int) -> List[str]:
    """The tiles the seat sees outside its hand, as the browser's help counts them: the won tiles set
    aside, every river and the other seats' open melds."""
    seen = list(obs.get("set_aside") or ())
    for river in obs["discards"]:
        seen.extend(river)
    for s, melds in enumerate(obs["melds"]):
        if s != me:
            for m in melds:
                if m["tile"] != "?":
                    wilds = m.get("wilds") or []  # a soft meld's wilds (docs/rules.md §12.3)
                    seen.extend([m["tile"]] * ((3 if m["type"] == "peng" else 4) - len(wilds)))
                    seen.extend(wilds)
    return seen


def help_lines(state: Any, me: int, rules: Rules) -> List[str]:
    """The 查听 help for seat ``me``'s hand as it stands (what the browser table's help panel shows,
    from the same :func:`xueliu.analysis.analyze`, reading only what the seat sees); no lines when
    the hand is not one the analysis takes."""
    obs = state.observation(me)
    try:
        if state.wild_kinds:  # the hand as held, 红中 and soft melds included (docs/rules.md §12.5)
            result = as_json(analyze(state.hand_text(me), void=obs.get("void"),
                                     visible="".join(_seen(obs, me)), rules=rules,
                                     benjin=state.benjin))
        else:
            result = as_json(analyze(state.hand(me), void=obs.get("void"),
                                     visible=_seen(obs, me), rules=rules))
    except (ValueError, TypeError):
        return []
    if "fan" in result:
        return [f"查听 help: 胡 complete: {_win_text(result['fan'])}"]
    if "discards" in result:
        out = ["查听 help: best discards"]
        for d in result["discards"][:5]:
            if d["shanten"] == 0:
                waits = " ".join(f"{tile_text(w['tile'])}×{w['remaining']} "
                                 f"({w['discard_win']['fan']} 番 fan)" for w in d["waits"])
                out.append(f"  {tile_text(d['discard'])}  ready on {waits}")
            else:
                out.append(f"  {tile_text(d['discard'])}  shanten {d['shanten']}, 进张 useful "
                           f"draws {d['jinzhang_total']}")
        return out
    if result["shanten"] == 0:
        out = ["查听 help: 听牌 ready"]
        out += [f"  {tile_text(w['tile'])}  left {w['remaining']} · {_win_text(w['discard_win'])}"
                for w in result["waits"]]
        return out
    draws = " ".join(f"{tile_text(t)}×{left}" for t, left in result["jinzhang"])
    return [f"查听 help: 向听 shanten {result['shanten']} · 进张 useful draws "
            f"{result['jinzhang_total']}: {draws}"]


# -- asking ----------------------------------------------------------------------------------------


def _read(inp: Any, out: Any, prompt: str) -> str:
    print(prompt, end="", file=out, flush=True)
    line = inp.readline()
    if not line:
        raise CommandError("input ended before the hand was over")
    text = str(line).strip()
    if not getattr(inp, "isatty", lambda: False)():
        print(text, file=out)  # piped answers: keep the transcript readable
    if text in ("q", "quit", "exit"):
        raise CommandError("you left the table")
    return text


def _exchange_pick(text: str, legal: Sequence[Any], hand: Sequence[str]) -> Any:
    """The exchange the tiles in ``text`` name (``1m 2m 5m``, ``1m2m5m``, ``125m``), or a
    ``ValueError`` saying why they are not one."""
    try:
        parsed = parse_hand(text)
    except ValueError:
        raise ValueError(f"not a choice: {text!r}") from None
    if parsed.melds:
        raise ValueError(f"not a choice: {text!r} (name the tiles alone, e.g. 1m 2m 5m)")
    want = Counter({tile_name(k): n for k, n in enumerate(parsed.held().tolist()) if n})
    for a in legal:
        if Counter(a.tiles) == want:
            return a
    count = len(legal[0].tiles)
    given = sum(want.values())
    if given != count:
        raise ValueError(f"give {count} tiles, not {given}: {text!r}")
    held = Counter(hand)
    for tile, n in sorted(want.items()):
        if held[tile] < n:
            have = "no" if not held[tile] else f"only {_COPIES.get(held[tile], held[tile])}"
            raise ValueError(f"you hold {have} {tile_label(tile)}: {text!r}")
    raise ValueError(f"the {count} tiles you give must be of one suit: {text!r}")


def _ask(legal: Sequence[Any], inp: Any, out: Any, hand: Sequence[str] = (),
         suggestion: Optional[Any] = None) -> Any:
    """Prompt until the person picks a legal action: a number, a tile such as ``5m`` for a
    discard, a suit for the void; at the exchange the tiles by name, ``0`` the suggestion."""
    if legal[0].kind == "exchange":
        pick: Any = suggestion if suggestion in legal else legal[0]
        shown = [pick]
        print(f"   0  {describe_action(pick)}   (a GreedyBot's pick)", file=out)
        prompt = (f"give {len(pick.tiles)} tiles of one suit by name (e.g. "
                  f"{' '.join(pick.tiles)}), or 0: ")
    else:
        shown = list(legal)
        for i, a in enumerate(shown):
            print(f"  {i:2d}  {describe_action(a)}", file=out)
        prompt = f"choose 0-{len(shown) - 1}: "
    while True:
        text = _read(inp, out, prompt)
        if text.isdigit() and int(text) < len(shown):
            return shown[int(text)]
        if legal[0].kind == "exchange":
            try:
                return _exchange_pick(text, legal, hand)
            except ValueError as e:
                print(e, file=out)
                continue
        for a in legal:  # a tile name picks the discard of that tile, a suit the void
            if a.kind == "discard" and text in (a.tile, tile_label(a.tile)):
                return a
            if a.kind == "void" and _SUITS.get(text) == a.suit:
                return a
        print(f"not a choice: {text!r}", file=out)


# -- the command -----------------------------------------------------------------------------------


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
    adviser = GreedyBot(rules=rules)  # the exchange's suggestion (it keeps nothing per hand)
    out = sys.stdout
    print(f"xueliu play — {rules_name(args)}, seed {seed}; you are seat {me}, the others are "
          "GreedyBots. Answer with the number of a choice (or a tile such as 5m to discard it; "
          "at the exchange, the tiles such as 1m 2m 5m); a move with no other choice is made "
          "for you.", file=out)
    shown = 0
    while not state.is_over:
        decisions = {}
        for seat in state.pending():
            if seat == me:
                print_events(state.events(me, since=shown), me, out)
                shown = state.event_count
                obs = state.observation(me)
                show_table(obs, me, out)
                if obs["phase"] in ("turn", "claim"):  # in play: the hand's 查听
                    for line in help_lines(state, me, rules):
                        print(line, file=out)
                legal = state.legal_actions(me)
                if len(legal) == 1:  # nothing to ask
                    print(f"only one choice, made for you: {describe_action(legal[0])}", file=out)
                    decisions[seat] = legal[0]
                    continue
                suggestion = adviser.act(obs, legal) if legal[0].kind == "exchange" else None
                decisions[seat] = _ask(legal, sys.stdin, out, obs["hand"], suggestion)
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
