"""The websocket messages (docs/server.md): what a client may send, what the server sends.

Client → server, one JSON object a frame: ``{"type": "act", "table", "seq", "action"}``.
Server → client: ``state``, ``event``, ``request``, ``hand_end``, ``ready``, ``seats``, ``error``. Everything a message
carries about a hand comes from the engine's per-seat views (``observation(seat)``,
``events(seat)``), so hidden tiles are filtered in one place, the engine's; ``state`` also carries
the table's rules and its shape (docs/rules.md §11.1: seats, suits, wall, hand size), which are public.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..game import Action
from ..rules import PRESET_NAMES, PRESET_SOURCES, WILD_PRESET_NAMES, Rules


class BadMessage(ValueError):
    """A client frame that is not a well-formed message (answered with an ``error``)."""


@dataclass(frozen=True)
class Act:
    table: int
    seq: int
    action: int


def _int_field(msg: Dict[str, Any], key: str) -> int:
    value = msg.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"'{key}' must be an integer, got {type(value).__name__}")
    if not 0 <= value < 2**53:
        raise BadMessage(f"'{key}' is out of range")
    return value


def parse(text: str) -> Act:
    """The one message a client sends. Anything else raises :class:`BadMessage`."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("malformed JSON") from None
    if not isinstance(msg, dict):
        raise BadMessage("a message is a JSON object")
    kind = msg.get("type")
    if kind != "act":
        shown = kind if isinstance(kind, str) and len(kind) <= 32 else "?"
        raise BadMessage(f"unknown message type {shown!r} (a client sends only 'act')")
    return Act(_int_field(msg, "table"), _int_field(msg, "seq"), _int_field(msg, "action"))


TABLE_PRESETS: Tuple[str, ...] = tuple(dict.fromkeys(PRESET_NAMES + WILD_PRESET_NAMES))
"""Every preset a table can be created with, in the order ``GET /api/presets`` lists them: the
presets of docs/rules.md §9 and §11.4, then the wild-tile rooms of §12.4
(``WILD_PRESET_NAMES``, part of ``PRESET_NAMES`` too; named here
so that adding them there changes nothing)."""


def action_dict(a: Action) -> Dict[str, Any]:
    return {"id": a.id, "kind": a.kind, "tile": a.tile,
            "tiles": None if a.tiles is None else list(a.tiles), "suit": a.suit, "value": a.value}


def table_shape(rules: Rules) -> Dict[str, Any]:
    """What a page needs to lay a table out (``rules.shape``, docs/rules.md §11.1): the seats (every
    per-seat list of the observation and the events has this length), the suits in play, the
    wall's tiles and the tiles the deal uses (the live wall starts at the difference), the hand
    size, and whether 定缺 and 换三张 happen at all."""
    sh = rules.shape
    out: Dict[str, Any] = {
        "players": sh.players, "suits": list(sh.suits), "wall_tiles": sh.wall_tiles,
        "dealt_tiles": sh.dealt_tiles, "hand_size": sh.hand_size,
        "declare_void": rules.declare_void and sh.declare_void_possible,
        "exchange_three": rules.exchange_three, "exchange_count": rules.exchange_count}
    wilds = table_wilds(rules)
    if wilds is not None:
        out["wilds"] = wilds
    return out


def table_wilds(rules: Rules) -> Optional[Dict[str, Any]]:
    """The wild tiles of a table (docs/rules.md §12.1), ``None`` at a table without any (its
    shape then has no ``"wilds"`` key, as before wild tiles): ``kinds``, the wild kinds of every
    hand (``"7z"`` for the 红中 of ``extra_wilds`` included) — under a 本金 rule the 本金's
    neighbours, which only the hand's ``benjin`` event says, so none are listed there —;
    ``benjin`` (``"benjin"``, ``"benjin_plus"`` or ``None``); ``extra`` (the 红中 in the wall);
    ``in_wall`` (``rules.wild_count_in_wall()``); ``discard`` (``wild_discard``: ``"forbidden"``
    or ``"dead"``)."""
    if not rules.has_wilds:
        return None
    fixed = [] if rules.uses_benjin else list(rules.wild_kinds)
    return {"kinds": fixed + (["7z"] if rules.extra_wilds else []),
            "benjin": rules.wild_kinds if rules.uses_benjin else None,
            "extra": rules.extra_wilds, "in_wall": rules.wild_count_in_wall(),
            "discard": rules.wild_discard}


HOUSE = "house"
"""The name a process's house rules (``xueliu serve --rules/--knob``) are offered and asked for by."""

HOUSE_TITLE = "自定义"
"""The house rules' title in ``GET /api/presets`` (custom rules, as the replay page words them)."""


def presets(house: Optional[Rules] = None, house_source: str = "") -> List[Dict[str, Any]]:
    """``GET /api/presets``: every preset (docs/rules.md §9, §11.4, §12.4) a table can be created
    with, in :data:`TABLE_PRESETS` order: its name (the ``rules`` of ``POST /api/tables``), its
    Chinese title and source (``PRESET_SOURCES``: "三人两房: docs/rules.md §11.4, …"), its mode and
    its :func:`table_shape` (with ``wilds`` for a wild-tile room, :func:`table_wilds`).
    A process with house rules offers them first, as :data:`HOUSE` (``house_source`` where they
    came from)."""
    out = []
    if house is not None:
        out.append({"name": HOUSE, "title": HOUSE_TITLE,
                    "source": f"{HOUSE_TITLE}: {house_source or 'house rules'}", "mode": house.mode,
                    **table_shape(house)})
    for name in TABLE_PRESETS:
        source = PRESET_SOURCES[name]
        title = source.split(":", 1)[0]
        rules = Rules.preset(name)
        out.append({"name": name, "title": title, "source": source, "mode": rules.mode,
                    **table_shape(rules)})
    return out


def state(table: int, seat: int, observation: Optional[Dict[str, Any]],
          events: List[Dict[str, Any]], players: List[Optional[Dict[str, Any]]],
          rules: Rules) -> Dict[str, Any]:
    # ``rules`` and ``shape`` (additions to the contract's fields): the table's Rules.to_dict()
    # (the page's 查听 help asks with them) and :func:`table_shape`.
    return {"type": "state", "table": table, "seat": seat, "observation": observation,
            "events": events, "players": players, "rules": rules.to_dict(),
            "shape": table_shape(rules)}


def event(table: int, ev: Dict[str, Any], phase: str) -> Dict[str, Any]:
    # ``phase``: the engine's phase when the message is sent (``GameState.phase``), which the
    # events alone do not tell (a claim window opens only when some seat can claim).
    return {"type": "event", "table": table, "event": ev, "phase": phase}


def request(table: int, seq: int, deadline_ms: int, actions: Sequence[Action]) -> Dict[str, Any]:
    return {"type": "request", "table": table, "seq": seq, "deadline_ms": deadline_ms,
            "actions": [action_dict(a) for a in actions]}


def hand_end(table: int, net: List[int], coins: List[int], report: str,
             hand: Optional[int] = None) -> Dict[str, Any]:
    # ``report`` (an addition to the contract's fields): Settlement.report(), the detailed and
    # personal settlement as a player reads it — public facts only (fans, transfers, end checks).
    # ``hand`` (another addition): the stored hand's id, for its /replay and /review pages.
    msg: Dict[str, Any] = {"type": "hand_end", "table": table, "net": net, "coins": coins,
                           "report": report}
    if hand is not None:
        msg["hand"] = hand
    return msg


def ready(table: int, seats: List[bool], deal_ms: Optional[int]) -> Dict[str, Any]:
    # Between hands (issue 49): who has pressed Continue (bots always have), and the milliseconds
    # until the next deal (``None``: not before a seat is filled).
    return {"type": "ready", "table": table, "ready": seats, "deal_ms": deal_ms}


def seats(table: int, players: List[Optional[Dict[str, Any]]]) -> Dict[str, Any]:
    # Who sits where changed between hands (a bot took a seat a person left).
    return {"type": "seats", "table": table, "players": players}


def error(message: str) -> Dict[str, Any]:
    return {"type": "error", "message": message}
