"""Plain-text layout for the ``xueliu`` command: terminal widths of CJK text, aligned tables,
tiles and hands written 万/筒/条.

>>> display_width("清一色 3")
8
>>> print(table([["a", "清一色"], ["bb", "x"]], align="lr"))
a   清一色
bb       x
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from .tiles import Hand

SUIT_CHARS = ("万", "筒", "条")


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: CJK (wide and fullwidth) characters take two."""
    w = 0
    for ch in text:
        if ch.isascii():
            w += 1
        elif unicodedata.combining(ch):
            continue
        else:
            w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def pad(text: str, width: int, align: str = "l") -> str:
    """``text`` padded with spaces to ``width`` columns (``align`` "l" or "r")."""
    gap = max(0, width - display_width(text))
    return text + " " * gap if align == "l" else " " * gap + text


def table(rows: Sequence[Sequence[str]], align: Optional[str] = None, sep: str = "  ",
          indent: str = "") -> str:
    """Rows of cells as aligned lines; ``align`` has one "l"/"r" per column (default all "l").
    Trailing spaces are stripped."""
    if not rows:
        return ""
    ncol = max(len(r) for r in rows)
    align = (align or "").ljust(ncol, "l")
    widths = [0] * ncol
    for r in rows:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], display_width(cell))
    lines = []
    for r in rows:
        cells = [pad(r[i] if i < len(r) else "", widths[i], align[i]) for i in range(ncol)]
        lines.append((indent + sep.join(cells)).rstrip())
    return "\n".join(lines)


def tile_text(name: str) -> str:
    """``"5m"`` -> ``"5万"``; the wild of 查听 (docs/rules.md §12.2) and 红中 by their names."""
    if name == "wild":
        return "wild 听用"
    if name == "7z":
        return "红中"
    return name[0] + SUIT_CHARS["mps".index(name[1])]


def counts_text(counts: Sequence[int]) -> str:
    """27 counts as grouped notation in 万, 筒, 条 order: ``"1234567万 123筒 4456条"``; a 28th
    count is 红中 (docs/rules.md §12.1): ``"123万 红中×2"``."""
    parts = []
    for s in range(3):
        digits = "".join(str(r + 1) * int(counts[9 * s + r]) for r in range(9))
        if digits:
            parts.append(digits + SUIT_CHARS[s])
    if len(counts) > 27 and counts[27]:
        parts.append("红中" + (f"×{counts[27]}" if counts[27] > 1 else ""))
    return " ".join(parts)


def meld_text(kind: str, tile: str, wilds: Sequence[str] = ()) -> str:
    """A meld as ``"(777条)"`` peng, ``"(8888万)"`` exposed kong, ``"[9999筒]"`` concealed kong;
    a soft meld with its wilds (docs/rules.md §12.3): ``"(77条+1条)"``, ``"[555万+红中]"``."""
    rank, suit = tile[0], SUIT_CHARS["mps".index(tile[1])]
    size = (3 if kind == "peng" else 4) - len(wilds)
    extra = "".join("+" + tile_text(w) for w in wilds)
    if kind == "concealed_kong":
        return f"[{rank * size}{suit}{extra}]"
    return f"({rank * size}{suit}{extra})"


def hand_text(hand: Hand) -> str:
    """A :class:`~xueliu.tiles.Hand` as ``"1234567万 123筒 44条 (777条)"``."""
    counts = hand.counts.tolist()
    parts = [counts_text(counts)] if sum(counts) else []
    parts.extend(meld_text(m.kind, m.tile) for m in hand.melds)
    return " ".join(parts)
