"""The replay viewer as one self-contained HTML file (``xueliu replay --html``, ``xueliu review
--html``): the page, its script and style from ``xueliu/server/static/replay.*`` and the tile art
from ``static/tiles/<name>.svg`` inlined, with the hand's events as data. Nothing is fetched.

The events are the viewer's whole input: ``state.events(seat)`` for one seat's view (what that
seat saw, docs/rules.md §7: the hidden tiles are already ``"?"``), ``state.events()`` for the open view
after the game. The page never receives anything it must not show.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from .record import replay
from .rules import Rules
from .tiles import TILE_NAMES

__all__ = ["replay_page", "tile_art", "viewer_shape", "STATIC"]

STATIC = Path(__file__).parent / "server" / "static"
"""Where the viewer's replay.html / replay.js / replay.css and the tile art live."""

_SUIT_COLOUR = {"m": "#c0392b", "p": "#1f5fa8", "s": "#1e8449"}
_SUIT_CHAR = {"m": "万", "p": "筒", "s": "条"}
_RANK_CHAR = "一二三四五六七八九"


def _drawn_tile(name: str) -> str:
    """A plain face (rank over suit) for a tile whose SVG file is not there."""
    rank, suit = int(name[0]), name[1]
    top = _RANK_CHAR[rank - 1] if suit == "m" else str(rank)
    c = _SUIT_COLOUR[suit]
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80">'
            '<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="#f8f3e3" stroke="#8a7f66" '
            'stroke-width="3"/>'
            f'<text x="30" y="38" font-size="30" font-weight="bold" text-anchor="middle" '
            f'fill="{c}">{top}</text>'
            f'<text x="30" y="70" font-size="24" text-anchor="middle" fill="{c}">'
            f'{_SUIT_CHAR[suit]}</text></svg>')


_BACK = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80">'
         '<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="#2e7d4f" stroke="#0f3d22" '
         'stroke-width="3"/><rect x="9" y="9" width="42" height="62" rx="4" fill="none" '
         'stroke="#a5d6a7" stroke-width="2"/></svg>')


def tile_art(directory: Optional[Path] = None) -> Dict[str, str]:
    """Tile name (``"1m"``..``"9s"``, ``"back"``) -> SVG text: the files of ``static/tiles``
    where they exist, a plain drawn face otherwise."""
    d = directory if directory is not None else STATIC / "tiles"
    out: Dict[str, str] = {}
    for name in list(TILE_NAMES) + ["back"]:
        path = d / f"{name}.svg"
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            start = text.find("<svg")
            out[name] = text[start:] if start >= 0 else text
        else:
            out[name] = _BACK if name == "back" else _drawn_tile(name)
    return out


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element (no "</", no <!--)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_data(rec: Mapping[str, Any], seat: Optional[int] = None,
              review: Optional[Mapping[str, Any]] = None, title: str = "") -> Dict[str, Any]:
    """What the viewer reads: the events as ``seat`` saw them (``None``: all hands open), the
    tile art, the table's shape (:func:`viewer_shape`) and a review's JSON
    (``xueliu.review.review_json``) to annotate."""
    state = replay(rec)
    n = state.rules.shape.players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or None, got {seat!r}")
    return {"seat": seat, "title": title, "events": state.events(seat), "tiles": tile_art(),
            "shape": viewer_shape(state.rules),
            "review": dict(review) if review is not None else None}


def viewer_shape(rules: Rules) -> Dict[str, int]:
    """What the viewer lays the table out by (``rules.shape``, docs/rules.md §11.1): the seats, the
    wall's tiles and the tiles the deal uses."""
    sh = rules.shape
    return {"players": sh.players, "wall_tiles": sh.wall_tiles, "dealt_tiles": sh.dealt_tiles}


def replay_page(rec: Mapping[str, Any], seat: Optional[int] = None,
                review: Optional[Mapping[str, Any]] = None, title: str = "") -> str:
    """The self-contained HTML page of a record (:func:`page_data` inlined into replay.html)."""
    data = page_data(rec, seat, review, title)
    html = (STATIC / "replay.html").read_text(encoding="utf-8")
    css = (STATIC / "replay.css").read_text(encoding="utf-8")
    js = (STATIC / "replay.js").read_text(encoding="utf-8")
    parts = {
        '<link rel="stylesheet" href="replay.css">': f"<style>\n{css}</style>",
        '<script src="replay.js"></script>': "<script>\n" + js.replace("</", "<\\/") + "</script>",
        '<script id="replay-data" type="application/json">null</script>':
            f'<script id="replay-data" type="application/json">{_script_json(data)}</script>',
    }
    for old, new in parts.items():
        if old not in html:
            raise RuntimeError(f"replay.html lacks {old!r}")
        html = html.replace(old, new)
    return html
