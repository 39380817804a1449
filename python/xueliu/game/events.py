"""The event log as a seat sees it (docs/events.md; docs/rules.md §7 "Hidden information").

The engine stores each event as a small tuple (``HandData._ev``); :func:`render_events` turns them
into the documented JSON objects, writing what ``seat`` may not see as ``"?"``. Together with
``observation.py`` this is the one place where hidden information is filtered.
"""

from __future__ import annotations

import json
from itertools import chain
from operator import getitem
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .data import HandData

EVENTS_FORMAT = "xueliu-events"
EVENTS_VERSION = 1
HIDDEN = "?"
SUITS = "mps"


def names(kinds: Iterable[int]) -> List[str]:
    return [TILE_NAMES[k] for k in kinds]


# NAME_REPEATS[k][c]: c copies of the name of kind k (a hand's sorted names in one pass, no loop);
# up to 12 of 红中 (extra_wilds, docs/rules.md §12.1).
NAME_REPEATS = tuple(tuple((n,) * c for c in range(13)) for n in TILE_NAMES)


def hand_names(counts: Iterable[int]) -> List[str]:
    """Sorted tile names of a count vector, in one pass (no loop per kind)."""
    return list(chain.from_iterable(map(getitem, NAME_REPEATS, counts)))


def render_events(state: HandData, seat: Optional[int], since: int = 0) -> List[Dict[str, Any]]:
    """The event list as ``seat`` sees it (``None``: everything), from index ``since`` on.

    An event is rendered from its own tuple and from what was final when it was appended (a win,
    a transfer, the end checks), so rendering a tail gives exactly the tail of the whole list:
    a program that follows a hand (an external bot, a table server) renders each event once."""
    full = seat is None
    ledger = state._ledger.transfers
    return [_render(state, ev, seat, full, ledger)
            for ev in (state._ev[since:] if since else state._ev)]


_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
# The JSON line of a draw or a discard, by its tuple and whether the seat sees the tile: they are
# rendered from the tuple alone, and a hand's ~110 of them repeat a few hundred lines in all.
_TURN_LINES: Dict[Tuple[Tuple[Any, ...], bool], bytes] = {}


def event_lines(state: HandData, seat: Optional[int], since: int = 0) -> bytes:
    """:func:`render_events` as JSON lines (compact, UTF-8, each ending in a newline), for
    programs reading a pipe (external bots): the same objects, draws and discards from a cache."""
    full = seat is None
    ledger = state._ledger.transfers
    lines = []
    for ev in state._ev[since:] if since else state._ev:
        t = ev[0]
        key = (ev, full or ev[1] == seat) if t == "tsumo" or t == "dahai" else None
        line = _TURN_LINES.get(key) if key else None
        if line is None:
            line = _JSON.encode(_render(state, ev, seat, full, ledger)).encode() + b"\n"
            if key:
                _TURN_LINES[key] = line
        lines.append(line)
    return b"".join(lines)


def _render(state: HandData, ev: Tuple[Any, ...], seat: Optional[int], full: bool,
            ledger: List[Any]) -> Dict[str, Any]:
    """One event tuple as the documented object ``seat`` sees."""
    t = ev[0]
    if t == "tsumo":
        _, s, k, rinshan = ev
        return {"type": "tsumo", "actor": s,
                "pai": TILE_NAMES[k] if full or s == seat else HIDDEN, "rinshan": rinshan}
    elif t == "dahai":
        _, s, k, tsumogiri, auto = ev
        return {"type": "dahai", "actor": s, "pai": TILE_NAMES[k], "tsumogiri": tsumogiri,
                "auto": auto}
    elif t == "pay":
        tr = ledger[ev[1]]
        return {"type": "pay", "payer": tr.payer, "payee": tr.payee, "amount": tr.amount,
                "reason": tr.reason, "detail": tr.detail}
    elif t == "pon":  # (at a table with wilds the tuple ends with the consumed tiles, §12.3)
        s, frm, k = ev[1:4]
        n = TILE_NAMES[k]
        return {"type": "pon", "actor": s, "target": frm, "pai": n,
                "consumed": names(ev[4]) if len(ev) > 4 else [n, n]}
    elif t == "daiminkan":
        s, frm, k = ev[1:4]
        n = TILE_NAMES[k]
        return {"type": "daiminkan", "actor": s, "target": frm, "pai": n,
                "consumed": names(ev[4]) if len(ev) > 4 else [n, n, n]}
    elif t == "ankan":
        s, k = ev[1:3]
        if not (full or s == seat):
            return {"type": "ankan", "actor": s, "consumed": [HIDDEN] * 4}
        n = TILE_NAMES[k]
        return {"type": "ankan", "actor": s,
                "consumed": names(ev[3]) if len(ev) > 3 else [n, n, n, n]}
    elif t == "kakan":
        s, k = ev[1:3]
        n = TILE_NAMES[k]
        if len(ev) > 3:  # the added tile, and the peng's tiles then (wilds by name)
            return {"type": "kakan", "actor": s, "pai": TILE_NAMES[ev[3]],
                    "consumed": names(ev[4])}
        return {"type": "kakan", "actor": s, "pai": n, "consumed": [n, n, n]}
    elif t == "benjin":
        return {"type": "benjin", "pai": TILE_NAMES[ev[1]]}
    elif t == "huansanzhang_skipped":
        return {"type": "huansanzhang_skipped"}
    elif t == "ti":
        _, s, k, wild = ev
        return {"type": "ti", "actor": s, "pai": TILE_NAMES[k], "wild": TILE_NAMES[wild]}
    elif t == "hora":
        w = state._wins[ev[1]]
        r = w.fan_result
        d = {"type": "hora", "actor": w.seat,
             "target": w.seat if w.from_seat is None else w.from_seat, "pai": w.tile,
             "order": w.order, "source": w.source, "winners": list(w.winners),
             "flags": list(w.flags), "fan": r.fan, "multiplier": r.multiplier,
             "base": r.base, "base_fan": r.base_fan, "gen": r.gen, "extras": list(r.extras)}
        if full or w.seat == seat:
            d["hand"] = w.hand
        return d
    elif t == "start_hand":
        _, tehais, bp = ev
        return {
            "type": "start_hand", "format": EVENTS_FORMAT, "version": EVENTS_VERSION,
            "mode": state.rules.mode, "dealer": state.dealer, "dice": list(state.dice),
            "break": {"wall": bp[0], "stack": bp[1]},
            "tehais": [hand_names(h) if full or s == seat else [HIDDEN] * sum(h)
                       for s, h in enumerate(tehais)],  # the dealt counts
            "multipliers_allowed": None if not state._pm_allowed
            else list(state._pm_allowed),
        }
    elif t == "huansanzhang":
        _, direction, die, given, received = ev
        return {
            "type": "huansanzhang", "direction": direction, "die": die,
            "given": [names(g) if full or s == seat else [HIDDEN] * len(g)
                      for s, g in enumerate(given)],
            "received": [names(g) if full or s == seat else [HIDDEN] * len(g)
                         for s, g in enumerate(received)],
        }
    elif t == "dingque":
        return {"type": "dingque", "voids": [SUITS[v] for v in ev[1]]}
    elif t == "xuanbei":
        return {"type": "xuanbei", "values": list(ev[1])}
    elif t in ("timeout", "auto_play", "auto_play_cancelled", "escape"):
        return {"type": t, "actor": ev[1]}
    elif t == "end_checks":
        checks = state._end_checks or []
        return {"type": "end_checks", "seats": [
            {"seat": c["seat"], "won": c["won"], "pig": c["pig"], "ready": c["ready"],
             "best_fan": c["best_fan"], "best_multiplier": c["best_multiplier"]}
            for c in checks]}
    elif t == "end_hand":
        d = {"type": "end_hand", "reason": ev[1], "net": list(state._ledger.net)}
        if state._ledger.coins is not None:
            d["coins"] = list(state._ledger.coins)
        return d
    else:  # pragma: no cover - every internal event type is rendered above
        raise AssertionError(f"unrendered event {t}")

