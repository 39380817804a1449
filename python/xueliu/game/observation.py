"""A seat's view of the game, derived here and nowhere else (RULES §7 "Hidden information").

A seat sees its own hand and draws, every discard and exposed meld, the wall count, the winning
tiles set aside, payments, and public declarations once revealed. It does not see other seats'
hands or draws, exchanged tiles other than those it gave and received, void or multiplier choices
before the reveal, the kind of another seat's concealed kong, or the wall. Both
:func:`observation` and :func:`render_events` filter through this module, so hidden information
is filtered once. The event format is documented in docs/events.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

from ..tiles import TILE_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

EVENTS_FORMAT = "xueliu-events"
EVENTS_VERSION = 1
HIDDEN = "?"
_SUITS = "mps"
_PUBLIC_MELD = {"peng": "peng", "direct": "kong", "added": "kong", "concealed": "concealed_kong"}


def _names(kinds) -> List[str]:
    return [TILE_NAMES[k] for k in kinds]


def _win_dict(w) -> dict:
    r = w.fan_result
    return {"order": w.order, "seat": w.seat, "tile": w.tile, "source": w.source,
            "from": w.from_seat, "flags": list(w.flags), "fan": r.fan,
            "multiplier": r.multiplier, "base": r.base, "base_fan": r.base_fan, "gen": r.gen,
            "extras": list(r.extras)}


def render_events(state: "GameState", seat: Optional[int]) -> List[dict]:
    """The event list as ``seat`` sees it (``None``: everything)."""
    out: List[dict] = []
    full = seat is None
    ledger = state._ledger.transfers
    for ev in state._ev:
        t = ev[0]
        if t == "tsumo":
            _, s, k, rinshan = ev
            out.append({"type": "tsumo", "actor": s,
                        "pai": TILE_NAMES[k] if full or s == seat else HIDDEN,
                        "rinshan": rinshan})
        elif t == "dahai":
            _, s, k, tsumogiri, auto = ev
            out.append({"type": "dahai", "actor": s, "pai": TILE_NAMES[k],
                        "tsumogiri": tsumogiri, "auto": auto})
        elif t == "pay":
            tr = ledger[ev[1]]
            out.append({"type": "pay", "payer": tr.payer, "payee": tr.payee,
                        "amount": tr.amount, "reason": tr.reason, "detail": tr.detail})
        elif t == "pon":
            _, s, frm, k = ev
            n = TILE_NAMES[k]
            out.append({"type": "pon", "actor": s, "target": frm, "pai": n, "consumed": [n, n]})
        elif t == "daiminkan":
            _, s, frm, k = ev
            n = TILE_NAMES[k]
            out.append({"type": "daiminkan", "actor": s, "target": frm, "pai": n,
                        "consumed": [n, n, n]})
        elif t == "ankan":
            _, s, k = ev
            n = TILE_NAMES[k] if full or s == seat else HIDDEN
            out.append({"type": "ankan", "actor": s, "consumed": [n, n, n, n]})
        elif t == "kakan":
            _, s, k = ev
            n = TILE_NAMES[k]
            out.append({"type": "kakan", "actor": s, "pai": n, "consumed": [n, n, n]})
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
            out.append(d)
        elif t == "start_hand":
            _, tehais, bp = ev
            out.append({
                "type": "start_hand", "format": EVENTS_FORMAT, "version": EVENTS_VERSION,
                "mode": state.rules.mode, "dealer": state.dealer, "dice": list(state.dice),
                "break": {"wall": bp[0], "stack": bp[1]},
                "tehais": [_names(h) if full or s == seat else [HIDDEN] * len(h)
                           for s, h in enumerate(tehais)],
                "multipliers_allowed": None if not state._pm_allowed
                else list(state._pm_allowed),
            })
        elif t == "huansanzhang":
            _, direction, die, given, received = ev
            out.append({
                "type": "huansanzhang", "direction": direction, "die": die,
                "given": [_names(g) if full or s == seat else [HIDDEN] * 3
                          for s, g in enumerate(given)],
                "received": [_names(g) if full or s == seat else [HIDDEN] * 3
                             for s, g in enumerate(received)],
            })
        elif t == "dingque":
            out.append({"type": "dingque", "voids": [_SUITS[v] for v in ev[1]]})
        elif t == "xuanbei":
            out.append({"type": "xuanbei", "values": list(ev[1])})
        elif t in ("timeout", "auto_play", "escape"):
            out.append({"type": t, "actor": ev[1]})
        elif t == "end_checks":
            checks = state._end_checks or []
            out.append({"type": "end_checks", "seats": [
                {"seat": c["seat"], "won": c["won"], "pig": c["pig"], "ready": c["ready"],
                 "best_fan": c["best_fan"], "best_multiplier": c["best_multiplier"]}
                for c in checks]})
        elif t == "end_hand":
            d = {"type": "end_hand", "reason": ev[1], "net": list(state._ledger.net)}
            if state._ledger.coins is not None:
                d["coins"] = list(state._ledger.coins)
            out.append(d)
        else:  # pragma: no cover - every internal event type is rendered above
            raise AssertionError(f"unrendered event {t}")
    return out


def observation(state: "GameState", seat: Optional[int]) -> dict:
    """What ``seat`` may see now, JSON-serialisable (see docs/events.md for the keys);
    ``seat=None``: everything, with every seat's hand under ``"hands"``."""
    from .state import PH_CLAIM, PH_OVER, PH_TURN, PH_VOID

    s = seat
    full = s is None
    ph = state._phase
    melds = []
    for other in range(4):
        ms = []
        for how, k, frm in state._melds[other]:
            hidden = how == "concealed" and other != s and not full
            ms.append({"type": _PUBLIC_MELD[how], "tile": HIDDEN if hidden else TILE_NAMES[k],
                       "from": frm})
        melds.append(ms)
    # While an added kong may be robbed, its tile is on the table between hand and meld.
    claim = None
    if ph == PH_CLAIM:
        claim = {"tile": TILE_NAMES[state._c_tile], "from": state._c_from,
                 "kind": "rob" if state._c_rob else "discard"}
    exchange = None
    if state._exchange is not None and not full:
        ex = state._exchange
        exchange = {"direction": ex["direction"], "die": ex["die"],
                    "given": _names(ex["given"][s]), "received": _names(ex["received"][s])}
    own_void = -1 if full else state._void[s]
    if not full and own_void < 0 and ph == PH_VOID and s in state._answers:
        own_void = _SUITS.index(state._answers[s].suit)  # its own choice, before the reveal
    if state._voids_revealed or full:
        voids = [_SUITS[v] if v >= 0 else None for v in state._void]
    else:
        voids = [None] * 4
    pending = s in state._pending
    legal = [a.id for a in state.legal_actions(s)] if pending else []
    drawn = None
    if ph == PH_TURN and (full or state._turn == s) and state._drawn >= 0:
        drawn = TILE_NAMES[state._drawn]
    obs = {
        "seat": s,
        "dealer": state.dealer,
        "mode": state.rules.mode,
        "phase": state.phase,
        "is_over": ph == PH_OVER,
        "turn": state.turn if ph in (PH_TURN, PH_CLAIM) else None,
        "pending": pending,
        "legal_actions": legal,
        "hand": None if full else _hand_names(state._hands[s]),
        "drawn": drawn,
        "void": None if own_void < 0 else _SUITS[own_void],
        "voids": voids,
        "multipliers": list(state._mult) if state._mult_revealed or full else None,
        "melds": melds,
        "discards": [_names(r) for r in state._rivers],
        "wins": [[_win_dict(w) for w in state._wins if w.seat == other] for other in range(4)],
        "set_aside": _names(state._set_aside),
        "claim": claim,
        "exchange": exchange,
        "wall_remaining": state.wall_remaining,
        "dice": list(state.dice),
        "break": list(state.break_point),
        "in_play": list(state._in_play),
        "frozen": list(state._frozen),
        "auto_play": list(state._auto),
        "hand_sizes": [sum(state._hands[o]) for o in range(4)],
        "net": list(state._ledger.net),
        "coins": None if state._ledger.coins is None else list(state._ledger.coins),
        "base": state.base,
    }
    if full:
        obs["hands"] = [_hand_names(h) for h in state._hands]
        obs["wall"] = _names(state._wall[state._front:state._back + 1])
        obs["exchanges"] = None if state._exchange is None else {
            "direction": state._exchange["direction"], "die": state._exchange["die"],
            "given": [_names(g) for g in state._exchange["given"]],
            "received": [_names(g) for g in state._exchange["received"]]}
        obs["pending_seats"] = list(state._pending)
    return obs


def _hand_names(h) -> List[str]:
    return [TILE_NAMES[k] for k in range(27) for _ in range(h[k])]
