"""The replay viewer as one self-contained HTML file (``xueliu replay --html``, ``xueliu review
--html``): the page, its script and style from ``xueliu/server/static/replay.*`` and the tile art
from ``static/tiles/<name>.svg`` inlined, with the hand's events as data. Nothing is fetched.

The events are the viewer's whole input: ``state.events(seat)`` for one seat's view (what that
seat saw, docs/rules.md §7: the hidden tiles are already ``"?"``), ``state.events()`` for the open view
after the game. The page never receives anything it must not show. Beside them: the table's mode
and preset in words (:func:`table_label`) and the players' names where the record's source has
them (a ``simulate --out`` line's ``"seats"``, the server's players).
"""

from __future__ import annotations

import html as _html
import json
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .json_lines import read_json_line
from .record import replay
from .rules import PRESET_NAMES, PRESET_SOURCES, Rules
from .tiles import TILE_NAMES

__all__ = ["replay_page", "page_data", "tile_art", "viewer_shape", "table_label", "line_names",
           "file_names", "MODE_LABELS", "STATIC"]

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


MODE_LABELS = {"xueliu": "血流成河 xueliu", "xuezhan": "血战到底 xuezhan",
               "daodaohu": "倒倒胡 daodaohu"}
"""The modes in words, Chinese with English beside it (as the browser table writes them)."""

_STAKES = ("base", "room", "service_fee")
"""Knobs a table sets on top of its preset (the server's ``base``): named, not a new rule set."""


def _preset_words(name: str, mode: str) -> str:
    zh = PRESET_SOURCES[name].split(":", 1)[0]  # "三人两房: docs/rules.md §11.4, …"
    return f"preset {name}" if zh in MODE_LABELS.get(mode, "") else f"{zh} {name}"


def table_label(rules: Rules) -> str:
    """The table in words, for a page's title: its mode and its preset, e.g. ``"血战到底 xuezhan
    · 三人两房 sanren_liangfang"``; stakes set on a preset (``base 2``) are named after it, and
    rules that are no preset read as the nearest preset with the knobs that differ."""
    mine = rules.to_dict()
    best: Optional[str] = None
    best_diff: List[str] = []
    for name in PRESET_NAMES:
        theirs = Rules.preset(name).to_dict()
        diff = [k for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k)]
        if best is None or len([k for k in diff if k not in _STAKES]) < \
                len([k for k in best_diff if k not in _STAKES]):
            best, best_diff = name, diff
    assert best is not None
    parts = [MODE_LABELS.get(rules.mode, rules.mode)]
    changed = [k for k in best_diff if k not in _STAKES]
    if changed:
        shown = ", ".join(changed[:3]) + (", …" if len(changed) > 3 else "")
        parts.append(f"自定义 custom rules: {_preset_words(best, rules.mode)} with "
                     f"{len(changed)} knob{'s' if len(changed) != 1 else ''} changed ({shown})")
    else:
        parts.append(_preset_words(best, rules.mode))
    parts += [f"{k.replace('_', ' ')} {getattr(rules, k)}" for k in _STAKES if k in best_diff]
    return " · ".join(parts)


def line_names(line: Any, players: Optional[int] = None) -> Optional[List[str]]:
    """The players' names a JSON line carries beside its record: a ``xueliu simulate --out``
    line's ``"seats"`` (the bot of each seat), or ``None`` (a bare record names nobody)."""
    if not isinstance(line, Mapping):
        return None
    seats = line.get("seats")
    if not isinstance(seats, list) or not all(isinstance(x, str) for x in seats):
        return None
    if players is not None and len(seats) != players:
        return None
    return list(seats)


def file_names(path: str, line: int = 0) -> Optional[List[str]]:
    """:func:`line_names` of line ``line`` of the file ``path`` (what ``xueliu replay`` and
    ``xueliu review`` read): the names of a ``simulate --out`` line with one per seat of its
    record's table, else ``None`` (a line that cannot be read is the record reader's error)."""
    try:
        row = read_json_line(path, line)
        players = Rules.from_dict(row["record"]["rules"]).players
    except (ValueError, TypeError, KeyError):
        return None
    return line_names(row, players)


def _names(names: Optional[Sequence[Optional[str]]], n: int) -> Optional[List[Optional[str]]]:
    if names is None:
        return None
    out = [str(x) if x is not None and str(x) else None for x in names]
    if len(out) != n:
        raise ValueError(f"names must give one name per seat ({n}), got {len(out)}")
    return out if any(out) else None


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element (no "</", no <!--)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_data(rec: Mapping[str, Any], seat: Optional[int] = None,
              review: Optional[Mapping[str, Any]] = None, title: str = "",
              names: Optional[Sequence[Optional[str]]] = None) -> Dict[str, Any]:
    """What the viewer reads: the events as ``seat`` saw them (``None``: all hands open), the
    tile art, the table's shape (:func:`viewer_shape`), the table in words (``"table"``:
    ``mode``, ``label`` of :func:`table_label`), the players' ``names`` (one per seat, ``None``
    for a seat without one) and a review's JSON (``xueliu.review.review_json``) to annotate."""
    state = replay(rec)
    n = state.rules.shape.players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or None, got {seat!r}")
    return {"seat": seat, "title": title, "events": state.events(seat), "tiles": tile_art(),
            "shape": viewer_shape(state.rules),
            "table": {"mode": state.rules.mode, "label": table_label(state.rules)},
            "names": _names(names, n),
            "review": dict(review) if review is not None else None}


def page_title(data: Mapping[str, Any]) -> str:
    """The page's title: the table in words, then what the page is (the viewer's own rule)."""
    review = data.get("review")
    what = f"review of seat {review['seat']}" if review else "replay"
    label = (data.get("table") or {}).get("label")
    return f"{label} — {what}" if label else f"xueliu {what}"


def viewer_shape(rules: Rules) -> Dict[str, int]:
    """What the viewer lays the table out by (``rules.shape``, docs/rules.md §11.1): the seats, the
    wall's tiles and the tiles the deal uses."""
    sh = rules.shape
    return {"players": sh.players, "wall_tiles": sh.wall_tiles, "dealt_tiles": sh.dealt_tiles}


def replay_page(rec: Mapping[str, Any], seat: Optional[int] = None,
                review: Optional[Mapping[str, Any]] = None, title: str = "",
                names: Optional[Sequence[Optional[str]]] = None) -> str:
    """The self-contained HTML page of a record (:func:`page_data` inlined into replay.html)."""
    data = page_data(rec, seat, review, title, names)
    html = (STATIC / "replay.html").read_text(encoding="utf-8")
    css = (STATIC / "replay.css").read_text(encoding="utf-8")
    js = (STATIC / "replay.js").read_text(encoding="utf-8")
    parts = {
        "<title>xueliu replay</title>": f"<title>{_html.escape(page_title(data))}</title>",
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
