"""The table server (``xueliu serve``): real-time tables over HTTP + websocket, with timers,
auto-play, reconnection, and coins settled in the database exactly once (docs/server.md).

Needs the ``server`` extra: ``pip install ".[server]"`` in the clone (Starlette, uvicorn,
websockets, psycopg for PostgreSQL).

>>> from xueliu.server import ServerConfig, serve         # doctest: +SKIP
>>> serve(ServerConfig(port=8700, db="sqlite:///xueliu.db"))  # doctest: +SKIP
"""

from .config import ServerConfig
from .main import serve

__all__ = ["ServerConfig", "serve"]
