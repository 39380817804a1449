"""The server remembers (issue 19): a player's finished hands, their replay and their review.

Routes (docs/server.md): ``GET /api/me/hands?limit=N&before=ID`` (a page of the player's settled
hands, newest first, and ``next``, the ``before`` of the next page); ``GET
/api/hands/{hand}/replay?view=seat|open[&review=1]`` (the replay viewer's data: the player's own
view by default — ``state.events(seat)``, docs/rules.md §7 — or every hand open, the hand being over;
with ``review=1`` the review of the player's seat too); ``GET /api/hands/{hand}/review`` (``xueliu
review --json`` of the player's seat); the pages ``GET /replay/{hand}`` and ``GET
/review/{hand}`` (the viewer, which fetches that data with the player's token). Only the players
of a hand may read it: anyone else gets 403, a hand that is not stored (or not finished) 404.
The viewer's data names each seat's player (their names at the server, bots' included).
"""

from __future__ import annotations

import asyncio
import html
from typing import Any, Callable, Dict, List, Optional, Sequence

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..replay_html import STATIC, page_data
from ..review import review_json, review_record
from . import store
from .db import Conn, Database
from .errors import BadRequest, Forbidden, NotFound

__all__ = ["History", "PAGE_MAX"]

PAGE_MAX = 100
"""Most hands one page of ``/api/me/hands`` lists (the default is 20)."""


def _int_param(request: Request, name: str, default: Any) -> Any:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 15:
        raise BadRequest(f"{name!r} must be a positive integer")
    return int(raw)


def _hand_id(request: Request) -> int:
    raw = request.path_params["hand"]
    if not raw.isdigit() or len(raw) > 15:
        raise NotFound(f"no hand {raw[:20]!r}")
    return int(raw)


def _player_names(ids: Sequence[int]) -> Callable[[Conn], List[Optional[str]]]:
    """The name of each player of ``ids`` (``None`` for one the database no longer has)."""
    def op(conn: Conn) -> List[Optional[str]]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = conn.all(f"SELECT id, name FROM players WHERE id IN ({marks})", list(ids))
        by_id = {int(i): str(n) for i, n in rows}
        return [by_id.get(int(i)) for i in ids]
    return op


class History:
    """The history routes over one database; ``player`` resolves the request's bearer token."""

    def __init__(self, db: Database, player: Any) -> None:
        self.db = db
        self._player = player

    async def my_hands(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        limit = _int_param(request, "limit", 20)
        if not 1 <= limit <= PAGE_MAX:
            raise BadRequest(f"'limit' must be 1..{PAGE_MAX}")
        before = _int_param(request, "before", None)
        rows, nxt = await self.db.run(store.player_hands(p.player, limit, before))
        for r in rows:
            r["replay"] = f"/replay/{r['hand']}"
            r["review"] = f"/review/{r['hand']}"
        return {"hands": rows, "next": nxt}

    async def _mine(self, request: Request) -> "tuple[store.StoredHand, int]":
        p = await self._player(request)
        hand = await self.db.run(store.stored_hand(_hand_id(request)))
        if hand is None:
            raise NotFound(f"no finished hand {request.path_params['hand'][:20]!r}")
        if p.player not in hand.seats:
            raise Forbidden(f"you did not play hand {hand.hand}")
        return hand, hand.seats.index(p.player)

    async def replay(self, request: Request) -> Dict[str, Any]:
        hand, seat = await self._mine(request)
        view = request.query_params.get("view", "seat")
        if view not in ("seat", "open"):
            raise BadRequest("'view' is 'seat' or 'open'")
        with_review = request.query_params.get("review") == "1"
        names = await self.db.run(_player_names(hand.seats))

        def build() -> Dict[str, Any]:
            review = review_json(review_record(hand.record, seat)) if with_review else None
            title = f"hand {hand.hand} · table {hand.table} · " + (
                f"review of seat {seat}" if with_review else
                "all hands open" if view == "open" else f"seat {seat}'s view")
            shown = None if view == "open" and not with_review else seat
            return page_data(hand.record, shown, review, title, names)

        return await asyncio.to_thread(build)

    async def review(self, request: Request) -> Dict[str, Any]:
        hand, seat = await self._mine(request)
        return await asyncio.to_thread(lambda: review_json(review_record(hand.record, seat)))

    @staticmethod
    def _page(src: str) -> Response:
        text = (STATIC / "replay.html").read_text(encoding="utf-8")
        text = text.replace('href="replay.css"', 'href="/replay.css"')
        text = text.replace('src="replay.js"', 'src="/replay.js"')
        text = text.replace('<script id="replay-data" type="application/json">null</script>',
                            f'<script id="replay-data" type="application/json" '
                            f'data-src="{html.escape(src)}">null</script>')
        return HTMLResponse(text)

    async def replay_page(self, request: Request) -> Response:
        hand = _hand_id(request)
        view = "open" if request.query_params.get("view") == "open" else "seat"
        return self._page(f"/api/hands/{hand}/replay?view={view}")

    async def review_page(self, request: Request) -> Response:
        return self._page(f"/api/hands/{_hand_id(request)}/replay?review=1")
