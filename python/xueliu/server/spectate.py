"""Spectators (issue 19): a live table from the public view only, one event behind.

A table is spectatable when its creator said so (``POST /api/tables {"spectators": true}``).
``GET /api/tables/{table}/spectate?since=N&hand=H`` answers ``{"table", "hand", "events",
"total", "over"}`` (with ``since`` 0 also ``"tiles"`` and the table's ``"shape"``): the events of the table's current hand from index ``N`` on (from 0
when ``H`` is not the current hand), as **nobody in particular** sees them — every seat's dealt
tiles, draws, exchanged tiles and concealed kongs are ``"?"``, no winner's hand is shown
(``render_events`` for a seat that is none of the table's) — and always one event behind the
table while the hand is on, so a spectator never learns a move before the table has moved on.
``GET /spectate/{table}`` is the replay viewer following that stream. No token is needed: what is
sent is public. A table that does not allow it: 403; no such table: 404; a table another process
runs: 409 naming it.
"""

from __future__ import annotations

import html
from typing import Any, Dict, List

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..game.events import render_events
from ..game.state import GameState
from ..replay_html import STATIC, tile_art, viewer_shape
from . import store
from .db import Database
from .errors import BadRequest, Forbidden, NotFound
from .lobby import Lobby

__all__ = ["Spectators", "public_events", "NOBODY"]

NOBODY = -1
"""The seat the public view is rendered for: none of the table's, so nothing hidden is shown."""


def public_events(state: GameState) -> List[Dict[str, Any]]:
    """Every event of ``state`` as a spectator may see it (docs/rules.md §7: what all seats see)."""
    return render_events(state, NOBODY)


def _table_id(request: Request) -> int:
    raw = request.path_params["table"]
    if not raw.isdigit() or len(raw) > 15:
        raise NotFound(f"no table {raw[:20]!r}")
    return int(raw)


class Spectators:
    def __init__(self, db: Database, lobby: Lobby) -> None:
        self.db = db
        self.lobby = lobby
        self._tiles = tile_art()

    async def stream(self, request: Request) -> Dict[str, Any]:
        table_id = _table_id(request)
        if not await self.db.run(store.table_exists(table_id)):
            raise NotFound(f"no table {table_id}")
        if not await self.db.run(store.is_spectatable(table_id)):
            raise Forbidden(f"table {table_id} does not allow spectators")
        raw = request.query_params.get("since", "0")
        if not raw.isdigit() or len(raw) > 9:
            raise BadRequest("'since' must be a non-negative integer")
        since = int(raw)
        t = await self.lobby.table(table_id)
        h = t.hand
        # ``names``: who sits in each seat (public: the table shows them), so the page names them.
        out: Dict[str, Any] = {"table": table_id, "hand": None, "events": [], "total": 0,
                               "over": False,
                               "names": [None if p is None else p["name"] for p in t._players()]}
        if request.query_params.get("since") in (None, "0"):
            out["tiles"] = self._tiles
            out["shape"] = viewer_shape(t.rules)
        if h is None:
            return out
        if request.query_params.get("hand") != str(h.id):
            since = 0
        events = public_events(h.state)
        over = h.state.is_over
        shown = events if over else events[:-1]  # one event behind a hand in play
        out.update(hand=h.id, events=shown[since:], total=len(shown), over=over)
        return out

    async def page(self, request: Request) -> Response:
        table_id = _table_id(request)
        text = (STATIC / "replay.html").read_text(encoding="utf-8")
        text = text.replace('href="replay.css"', 'href="/replay.css"')
        text = text.replace('src="replay.js"', 'src="/replay.js"')
        text = text.replace('<script id="replay-data" type="application/json">null</script>',
                            '<script id="replay-data" type="application/json" data-live="'
                            f'{html.escape(f"/api/tables/{table_id}/spectate")}">null</script>')
        return HTMLResponse(text)
