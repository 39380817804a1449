"""The HTTP API and the websocket endpoint (Starlette), and the static files served at ``/``.

Routes (docs/server.md has the bodies): ``GET /health``; ``POST /api/players``; ``GET /api/me``;
``POST /api/tables``; ``GET /api/tables`` (open tables); ``POST /api/tables/{id}/join``;
``POST /api/tables/{id}/leave``; ``POST /api/tables/{id}/ready``;
``POST /api/tables/{id}/cancel-auto-play`` (取消托管); ``GET /table/{id}`` (the page);
``GET /api/tables/{id}/hands``; ``GET /api/presets``; ``POST /api/analyze`` (查听 for the browser table's help);
websocket ``/ws?token=TOKEN``; a player's history, replays and reviews (history.py). Errors are ``{"error": message}``
with 400, 401, 403, 404 or 409.
"""

from __future__ import annotations

import contextlib
import json
import logging
import pathlib
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, List, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..analysis import analyze, as_json
from ..rules import Rules
from . import protocol, store
from .auth import bearer, new_token, plausible, token_hash
from .config import ServerConfig
from .db import Database
from .errors import ApiError, BadRequest, Elsewhere, Forbidden, NotFound, Unauthorized
from .history import History
from .spectate import Spectators
from .hub import CLOSE_ELSEWHERE, CLOSE_POLICY, CLOSE_UNAUTHORIZED, Connection, Hub, RateLimit
from .lobby import Lobby

log = logging.getLogger("xueliu.server")

STATIC = pathlib.Path(__file__).resolve().parent / "static"

Handler = Callable[[Request], Awaitable[Dict[str, Any]]]


def _json(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A route whose handler returns a dict (200) or raises an ApiError ({"error"} + status)."""
    async def route(request: Request) -> Response:
        try:
            return JSONResponse(await handler(request))
        except ApiError as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
    return route


class Server:
    """One process's app: its database, connections and tables."""

    def __init__(self, config: ServerConfig, address: str) -> None:
        self.config = config
        self.db = Database(config.db)
        self.hub = Hub()
        self.lobby = Lobby(config, self.db, self.hub, address)
        self.ready: List[Callable[[], None]] = []
        self.history = History(self.db, self._player)
        self.spectators = Spectators(self.db, self.lobby)

    # -- plumbing --------------------------------------------------------------------------------
    async def _body(self, request: Request) -> Dict[str, Any]:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > self.config.max_frame):
            raise BadRequest(f"a request body is at most {self.config.max_frame} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.config.max_frame:
                raise BadRequest(f"a request body is at most {self.config.max_frame} bytes")
        if not body.strip():
            return {}
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            raise BadRequest("the body is not valid JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("the body must be a JSON object")
        return data

    async def _player(self, request: Request) -> store.PlayerRow:
        token = bearer(request.headers)
        if token is None:
            raise Unauthorized("missing or malformed 'Authorization: Bearer TOKEN'")
        row = await self.db.run(store.player_by_token(token_hash(token)))
        if row is None:
            raise Unauthorized("unknown token")
        return row

    @staticmethod
    def _table_id(request: Request) -> int:
        raw = request.path_params["table"]
        if not raw.isdigit() or len(raw) > 15:
            raise NotFound(f"no table {raw[:20]!r}")
        return int(raw)

    # -- HTTP ------------------------------------------------------------------------------------
    async def health(self, request: Request) -> Dict[str, Any]:
        return {"ok": True}

    async def create_player(self, request: Request) -> Dict[str, Any]:
        body = await self._body(request)
        name = body.get("name")
        if not isinstance(name, str):
            raise BadRequest("'name' must be a string")
        if not 1 <= len(name) <= self.config.name_max or not name.strip():
            raise BadRequest(f"'name' must be 1..{self.config.name_max} characters")
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            raise BadRequest("'name' must not contain control characters")
        token = new_token()
        coins = self.config.starting_coins
        player = await self.db.run(store.create_player(name, token_hash(token), coins))
        return {"player": player, "token": token, "coins": coins}

    async def me(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        running = self.lobby.running(p.player)
        out = {"player": p.player, "name": p.name, "coins": p.coins,
               "tables": [] if p.table is None else [p.table]}
        if running is not None and running.leaving(p.player):
            out["leaving"] = True  # it leaves that table at the end of the hand in play
        return out

    async def analyze(self, request: Request) -> Dict[str, Any]:
        """``{"hand": notation, "void", "visible": [tile names], "rules": preset or dict,
        "benjin"}`` → :func:`xueliu.analysis.analyze` as JSON (docs/analyze-json.md): the help a
        player switches on. ``benjin``: the hand's face-up 本金 at a table of a 本金 rule
        (docs/rules.md §12.1). It reads only what the caller sends, so it can show nothing
        hidden."""
        await self._player(request)
        body = await self._body(request)
        hand, void, visible, rules, benjin = (
            body.get(k) for k in ("hand", "void", "visible", "rules", "benjin"))
        if not isinstance(hand, str):
            raise BadRequest("'hand' must be a hand in notation, e.g. '123m456p(777s)'")
        if visible is not None and not (isinstance(visible, list) and len(visible) <= 112):
            raise BadRequest("'visible' must be a list of at most 112 tile names")
        if benjin is not None and not isinstance(benjin, str):
            raise BadRequest("'benjin' must be a tile name, e.g. '5p'")
        try:
            r = Rules.preset("xueliu") if rules is None else (
                Rules.preset(rules) if isinstance(rules, str) else Rules.from_dict(rules))
            return dict(as_json(analyze(hand, void=void, visible=visible, rules=r,
                                        benjin=benjin)))
        except (ValueError, TypeError) as e:
            raise BadRequest(str(e)) from None

    async def presets(self, request: Request) -> Dict[str, Any]:
        """Every preset a table can be created with (public: no token needed)."""
        return {"presets": protocol.presets(self.config.house_rules, self.config.house_source)}

    async def create_table(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        body = await self._body(request)
        house = self.config.house_rules  # xueliu serve --rules/--knob: the default when given
        rules = _rules(body.get("rules", "xueliu" if house is None else protocol.HOUSE), house)
        others = rules.shape.players - 1  # the seats besides the creator's
        bots = body.get("bots", 0)
        if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots <= others:
            raise BadRequest(f"'bots' must be an integer 0..{others} "
                             f"(a table of {others + 1} seats)")
        if "base" in body:
            base = body["base"]
            if (isinstance(base, bool) or not isinstance(base, int)
                    or not 1 <= base <= self.config.max_base):
                raise BadRequest(f"'base' must be an integer 1..{self.config.max_base}")
            rules = rules.replace(base=base)
        spectators = body.get("spectators", False)
        if not isinstance(spectators, bool):
            raise BadRequest("'spectators' must be true or false")
        try:
            table, seat = await self.lobby.create(p.player, rules, bots)
        except (TypeError, ValueError) as e:
            raise BadRequest(f"these rules cannot deal a hand: {e}") from None
        if spectators:
            await self.db.run(store.allow_spectators(table))
        return {"table": table, "seat": seat}

    async def join(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        table = self._table_id(request)
        seat = await self.lobby.join(p.player, p.name, table)
        return {"table": table, "seat": seat}

    async def leave(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        table = self._table_id(request)
        escape = (await self._body(request)).get("escape", False)
        if not isinstance(escape, bool):
            raise BadRequest("'escape' must be true or false")
        seat, now = await self.lobby.leave(p.player, table, escape)
        return {"table": table, "seat": seat, "left": now}

    async def press_ready(self, request: Request) -> Dict[str, Any]:
        """Continue after a hand (issue 49): the next hand is dealt once every connected person
        at the table has pressed it, or when the ready timeout runs out."""
        p = await self._player(request)
        table = self._table_id(request)
        t = await self.lobby.table(table)
        return {"table": table, "ready": await t.ready(p.player)}

    async def cancel_auto_play(self, request: Request) -> Dict[str, Any]:
        """取消托管: the seat the engine auto-plays after two timeouts in a row is the person's
        again from its next decision. Only the seat's own person; 409 when it is not on
        auto-play (or escaped, or no hand is in play)."""
        p = await self._player(request)
        table = self._table_id(request)
        t = await self.lobby.table(table)
        seat, auto = await t.cancel_auto_play(p.player)
        return {"table": table, "seat": seat, "auto_play": auto}

    async def open_tables(self, request: Request) -> Dict[str, Any]:
        """The lobby's list (issue 49): the tables this process runs that have a free seat or let
        anyone watch, newest first, with their seats and rules. No token needed."""
        out = []
        for t in sorted(list(self.lobby.tables.values()), key=lambda t: -t.id):
            if t.closed:
                continue
            watch = await self.db.run(store.is_spectatable(t.id))
            row = t.summary()
            if row["free"] or watch:
                out.append({**row, "spectators": watch, "preset": _preset_of(t.rules)})
        return {"tables": out}

    async def table_page(self, request: Request) -> Response:
        """``/table/{id}``: the browser table, which joins that table (a shared link)."""
        self._table_id(request)
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def hands(self, request: Request) -> Dict[str, Any]:
        p = await self._player(request)
        table = self._table_id(request)
        if not await self.db.run(store.table_exists(table)):
            raise NotFound(f"no table {table}")
        hands = await self.db.run(store.finished_hands(table, p.player))
        if hands is None:
            raise Forbidden(f"you never sat at table {table}")
        return {"hands": hands}

    # -- websocket -------------------------------------------------------------------------------
    async def websocket(self, ws: WebSocket) -> None:
        token = ws.query_params.get("token")
        await ws.accept()
        player = None
        if plausible(token):
            assert token is not None
            player = await self.db.run(store.player_by_token(token_hash(token)))
        if player is None:
            await ws.send_text(json.dumps(protocol.error("missing or unknown token")))
            await ws.close(CLOSE_UNAUTHORIZED)
            return
        conn = Connection(ws, player.player)
        self.hub.add(conn)
        try:
            # The seat as of now, not as of the token lookup: a join that finished meanwhile
            # sent its state before this connection was registered, so it gets it here.
            running = self.lobby.running(player.player)
            table_id = running.id if running is not None else player.table
            if table_id is not None:
                try:
                    t = await self.lobby.table(table_id)
                    await t.connected(player.player)
                except Elsewhere as e:
                    conn.send(protocol.error(e.message))
                    conn.close(CLOSE_ELSEWHERE)
                except ApiError:
                    pass  # the table closed meanwhile
            await self._read(ws, conn)
        finally:
            if self.hub.remove(conn):
                running = self.lobby.running(player.player)
                if running is not None:
                    running.dropped(player.player)
            await conn.finish(1000)

    async def _read(self, ws: WebSocket, conn: Connection) -> None:
        limit = RateLimit(self.config.rate, self.config.burst)
        while conn.closing is None:
            try:
                msg = await ws.receive()
            except (RuntimeError, OSError):  # closed under us (slow client, shutdown)
                return
            if msg["type"] == "websocket.disconnect":
                return
            if not limit.allow():
                conn.send(protocol.error("rate limit exceeded: too many messages"))
                conn.close(CLOSE_POLICY)
                return
            text = msg.get("text")
            if text is None:
                conn.send(protocol.error("messages are JSON text frames"))
                continue
            try:
                act = protocol.parse(text)
            except protocol.BadMessage as e:
                conn.send(protocol.error(str(e)))
                continue
            t = self.lobby.running(conn.player)
            if t is None or t.id != act.table:
                conn.send(protocol.error(f"you do not sit at table {act.table} here"))
                continue
            err = await t.act(conn.player, act.seq, act.action)
            if err is not None:
                conn.send(protocol.error(err))

    # -- the app ---------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        await self.lobby.start()
        for callback in self.ready:
            callback()
        try:
            yield
        finally:
            try:
                await self.lobby.stop()
            finally:
                self.db.close()

    def app(self) -> Starlette:
        routes: List[Any] = [
            Route("/health", _json(self.health)),
            Route("/api/players", _json(self.create_player), methods=["POST"]),
            Route("/api/me", _json(self.me)),
            Route("/api/tables", _json(self.create_table), methods=["POST"]),
            Route("/api/presets", _json(self.presets)),
            Route("/api/tables/{table}/join", _json(self.join), methods=["POST"]),
            Route("/api/tables/{table}/leave", _json(self.leave), methods=["POST"]),
            Route("/api/tables/{table}/ready", _json(self.press_ready), methods=["POST"]),
            Route("/api/tables/{table}/cancel-auto-play", _json(self.cancel_auto_play),
                  methods=["POST"]),
            Route("/api/tables", _json(self.open_tables), methods=["GET"]),
            Route("/table/{table}", self.table_page),
            Route("/api/tables/{table}/hands", _json(self.hands)),
            Route("/api/analyze", _json(self.analyze), methods=["POST"]),
            WebSocketRoute("/ws", self.websocket),
            Route("/api/me/hands", _json(self.history.my_hands)),
            Route("/api/hands/{hand}/replay", _json(self.history.replay)),
            Route("/api/hands/{hand}/review", _json(self.history.review)),
            Route("/replay/{hand}", self.history.replay_page),
            Route("/review/{hand}", self.history.review_page),
            Route("/api/tables/{table}/spectate", _json(self.spectators.stream)),
            Route("/spectate/{table}", self.spectators.page),
        ]
        if STATIC.is_dir():
            routes.append(Mount("/", StaticFiles(directory=str(STATIC), html=True)))
        return Starlette(routes=routes, lifespan=self.lifespan)


def _rules(spec: Any, house: Optional[Rules] = None) -> Rules:
    if isinstance(spec, str):
        if spec == protocol.HOUSE and house is not None:
            return house
        if spec not in protocol.TABLE_PRESETS:
            names = ", ".join(((protocol.HOUSE,) if house is not None else ())
                              + protocol.TABLE_PRESETS)
            raise BadRequest(f"unknown preset {spec[:32]!r} (one of {names})")
        return Rules.preset(spec)
    if isinstance(spec, dict):
        try:
            return Rules.from_dict(spec)
        except (TypeError, ValueError) as e:
            raise BadRequest(f"bad rules: {e}") from None
    raise BadRequest("'rules' must be a preset name or a rules object")


def _preset_of(rules: Rules) -> Optional[str]:
    """The preset these rules are, whatever their base stake (None: rules of their own)."""
    for name in protocol.TABLE_PRESETS:
        if Rules.preset(name).replace(base=rules.base).to_dict() == rules.to_dict():
            return name
    return None


def config_from(**kwargs: Optional[Any]) -> ServerConfig:
    return ServerConfig(**{k: v for k, v in kwargs.items() if v is not None})
