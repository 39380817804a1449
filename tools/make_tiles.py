"""Writes the tile faces of the browser table: python/xueliu/server/static/tiles/<name>.svg,
and the marks drawn on a wild tile: python/xueliu/server/static/marks/<name>.svg.

One file per kind, ``1m``..``9m`` (万 characters), ``1p``..``9p`` (筒 dots), ``1s``..``9s`` (条
bamboo), ``7z`` (红中, the red dragon of docs/rules.md §12.1), and ``back.svg`` (a face-down
tile). Every file has the viewBox ``0 0 60 80`` and is self-contained: no external references and
no text — the characters and the corner numerals are drawn as strokes, so a tile reads the same on
a machine without any CJK font. The marks (``tingyong.svg``, 听用, and ``gui.svg``, 鬼: the corner
badge of a wild tile) are drawn the same way, white strokes on red. The artwork is the project's
own (MIT, like the rest). Run from the repository root::

    python tools/make_tiles.py

and commit the script and its output together. ``--check`` only says whether the files on disk
are what the script writes (the browser tests run it so).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

STATIC = Path(__file__).resolve().parent.parent / "python" / "xueliu" / "server" / "static"
W, H = 60, 80
VIEWBOX = f"0 0 {W} {H}"

RED = "#c0392b"
BLUE = "#1f4f9a"
GREEN = "#1e7a46"
INK = "#1b2433"
BACK_LIGHT, BACK_DARK = "#3f9160", "#1f5c38"
IVORY_LIGHT, IVORY_DARK = "#fffdf6", "#eee5cc"
SUIT_INDEX = {"m": RED, "p": BLUE, "s": GREEN}

# The face of a tile: x 1..59, y 1..74; the bottom 6 units show the tile's back layer (its
# thickness), as on a real tile seen slightly from above.
FACE = (1.0, 1.0, 58.0, 73.5)

# -- strokes ---------------------------------------------------------------------------------------
# Glyphs are lists of SVG path data drawn with a round-capped stroke, each in its own box.

DIGITS: Dict[int, List[str]] = {  # box 6 x 10
    1: ["M1.2,2 L3.4,0.2 L3.4,10"],
    2: ["M0.6,2.6 C0.6,-0.5 5.6,-0.5 5.6,2.6 C5.6,5 0.6,7 0.4,10 L5.8,10"],
    3: ["M0.5,1.2 C2,-0.4 5.6,0 5.6,2.6 C5.6,4.3 4,4.9 2.6,4.9 C4.4,4.9 5.9,5.8 5.9,7.5 "
        "C5.9,10.4 1.6,10.6 0.3,8.9"],
    4: ["M4.4,10 L4.4,0.2 L0.2,7 L6,7"],
    5: ["M5.6,0.2 L1.2,0.2 L0.8,4.4 C2.6,3.3 5.9,3.6 5.9,6.9 C5.9,10.4 1.6,10.6 0.3,8.9"],
    6: ["M5,0.4 C1.6,0.4 0.3,4.4 0.3,7 C0.3,9 1.5,10 3.1,10 C4.8,10 5.9,8.8 5.9,7.1 "
        "C5.9,5.3 4.7,4.3 3.1,4.3 C1.7,4.3 0.7,5.2 0.4,6.4"],
    7: ["M0.2,0.2 L5.9,0.2 L2.4,10"],
    8: ["M3,4.7 C0.6,4.7 0.6,0.1 3,0.1 C5.4,0.1 5.4,4.7 3,4.7 C0.3,4.7 0.2,10 3,10 "
        "C5.8,10 5.7,4.7 3,4.7 Z"],
    9: ["M1,9.6 C4.4,9.6 5.7,5.6 5.7,3 C5.7,1 4.5,0 2.9,0 C1.2,0 0.1,1.2 0.1,2.9 "
        "C0.1,4.7 1.3,5.7 2.9,5.7 C4.3,5.7 5.3,4.8 5.6,3.6"],
}

NUMERALS: Dict[int, List[str]] = {  # 一 .. 九, box 30 x 26
    1: ["M2,13.5 Q15,11.8 28,13"],
    2: ["M6,6 L24,6", "M2,20.5 L28,20.5"],
    3: ["M5,3 L25,3", "M7.5,12.5 L22.5,12.5", "M2,22.5 L28,22.5"],
    4: ["M3.5,4 L3.5,23.5", "M3.5,4 L26.5,4 L26.5,23.5", "M3.5,22.5 L26.5,22.5",
        "M11.5,4.5 C11.5,11 10.5,14.5 7.5,17.5", "M18.5,4.5 L18.5,14.5 C18.5,16.5 19.5,17 21,17 "
        "L26,17"],
    5: ["M4,3.5 L26,3.5", "M13.5,3.5 L10.5,23", "M6,12.5 L22,12.5 L21,23", "M2,23 L28,23"],
    6: ["M14.5,1.5 L17.5,5", "M3,9.5 L27,9.5", "M11,14 L5,23.5", "M19,14 L25.5,22.5"],
    7: ["M2,12.5 L27,9", "M12,1.5 L12,20 C12,23 13.5,24 17,24 L27,24 L27,19.5"],
    8: ["M12,3 C12,12 9,18.5 3,23.5", "M18,3 C18.5,12 22,18.5 28,22.5"],
    9: ["M13,1.5 L13,10 C13,16.5 9,21 3,24.5",
        "M4.5,8.5 L19,8.5 L19,20 C19,23 20.5,24 23.5,24 L28,24 L28,19.5"],
}

WAN = ["M2,4.5 L28,4.5", "M10.5,13 L24,13 C24,19 23.5,23.5 22.5,25.5 C21.5,27.2 19.5,27 17,25",
       "M12.5,4.5 L12,14 C11.5,20 8.5,24.5 3,27.5"]  # 万, box 30 x 28

ZHONG = ["M5,15 L5,37", "M5,15 L35,15 L35,37", "M5,36 L35,36", "M20,2 L20,54"]  # 中, box 40 x 56

# The marks' characters, each in a box 30 x 30.
TING = ["M2.5,10 L2.5,21", "M2.5,10 L10.5,10 L10.5,20", "M2.5,20 L10.5,20",  # 口
        "M26,3.5 C22,5.5 18,6.5 14.5,7", "M14.5,7 L14.5,16 C14.5,22 13.5,25.5 11,28.5",
        "M14.5,15 L28,15", "M22,15 L22,29"]  # 斤: 听
YONG = ["M5,4 L5,19 C5,24 4,27 1.5,29", "M5,4 L27,4 L27,26.5 C27,28.5 25.5,29 23,28",
        "M5,11.5 L27,11.5", "M5,19 L27,19", "M16,4 L16,29"]  # 用
GUI = ["M16,1 L13.5,4.5", "M6,5 L6,18", "M6,5 L25,5 L25,18", "M6,11.5 L25,11.5",
       "M6,17.5 L25,17.5", "M15.5,5 L15.5,17.5", "M11,17.5 C11,23 8,27 2.5,30",
       "M18,17.5 L18,26.5 C18,29 19.5,29.5 23,29.5 L29,29.5 L29,26",
       "M25.5,20 L21.5,24.5 L27.5,24"]  # 鬼


def strokes(paths: Sequence[str], colour: str, width: float, dx: float, dy: float,
            scale: float = 1.0) -> str:
    d = " ".join(paths)
    return (f'<path transform="translate({dx:g} {dy:g}) scale({scale:g})" d="{d}" fill="none" '
            f'stroke="{colour}" stroke-width="{width / scale:g}" stroke-linecap="round" '
            f'stroke-linejoin="round"/>')


def corner_index(rank: int, suit: str) -> str:
    """The rank as a small Arabic numeral in the top-left corner, in the suit's colour: the
    tile reads for someone who does not read 一二三 (and at a glance on dots and bamboo)."""
    return strokes(DIGITS[rank], SUIT_INDEX[suit], 1.5, 4.2, 4.2, 0.8)


# -- tile body -------------------------------------------------------------------------------------

def body(uid: str, face_light: str, face_dark: str, layer: str, edge: str) -> str:
    x, y, w, h = FACE
    return (
        f'<defs><linearGradient id="f{uid}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{face_light}"/><stop offset="1" stop-color="{face_dark}"/>'
        f'</linearGradient></defs>'
        f'<rect x="0" y="0" width="{W}" height="{H}" rx="7" fill="{layer}"/>'
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6.2" fill="url(#f{uid})" '
        f'stroke="{edge}" stroke-width="0.8"/>')


def svg(name: str, inner: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{VIEWBOX}" width="{W}" '
            f'height="{H}" role="img" aria-label="{name}">{inner}</svg>\n')


def face_tile(name: str, art: str) -> str:
    rank, suit = int(name[0]), name[1]
    return svg(name, body(name, IVORY_LIGHT, IVORY_DARK, BACK_DARK, "#b9ad8f")
               + art + corner_index(rank, suit))


# -- 万 characters ---------------------------------------------------------------------------------

def characters(rank: int) -> str:
    return strokes(NUMERALS[rank], INK, 3.4, 15, 9, 1.0) + strokes(WAN, RED, 3.6, 13.5, 40, 1.1)


# -- 筒 dots ---------------------------------------------------------------------------------------

def dot(cx: float, cy: float, r: float, colour: str) -> str:
    """A coin: an outer ring, a white gap, a solid centre with a light eye."""
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{colour}"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * 0.72:g}" fill="#fffdf6"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * 0.5:g}" fill="{colour}"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * 0.16:g}" fill="#fffdf6"/>')


def big_dot(cx: float, cy: float) -> str:
    """一筒: a large coin with a ring of petals."""
    parts = [f'<circle cx="{cx:g}" cy="{cy:g}" r="21" fill="{GREEN}"/>',
             f'<circle cx="{cx:g}" cy="{cy:g}" r="18.5" fill="#fffdf6"/>']
    for i in range(12):
        a = 2 * math.pi * i / 12
        px, py = cx + 13.5 * math.cos(a), cy + 13.5 * math.sin(a)
        parts.append(f'<circle cx="{px:.2f}" cy="{py:.2f}" r="3.1" fill="{BLUE}"/>')
    parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="9" fill="{RED}"/>')
    parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="6" fill="#fffdf6"/>')
    parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="3.6" fill="{RED}"/>')
    return "".join(parts)


# Dot layouts: (x, y, colour) in the art area, centred on (30, 40).
DOTS: Dict[int, List[Tuple[float, float, str]]] = {
    2: [(30, 25, GREEN), (30, 55, BLUE)],
    3: [(17, 21, BLUE), (30, 40, RED), (43, 59, GREEN)],
    4: [(19, 26, BLUE), (41, 26, GREEN), (19, 54, GREEN), (41, 54, BLUE)],
    5: [(17, 22, BLUE), (43, 22, GREEN), (30, 40, RED), (17, 58, GREEN), (43, 58, BLUE)],
    6: [(20, 18, GREEN), (40, 18, GREEN), (20, 42, RED), (40, 42, RED), (20, 62, RED),
        (40, 62, RED)],
    7: [(17, 15, GREEN), (30, 22, GREEN), (43, 29, GREEN), (20, 47, RED), (40, 47, RED),
        (20, 63, RED), (40, 63, RED)],
    8: [(20, 14, BLUE), (40, 14, BLUE), (20, 30.7, BLUE), (40, 30.7, BLUE), (20, 47.3, BLUE),
        (40, 47.3, BLUE), (20, 64, BLUE), (40, 64, BLUE)],
    9: [(x, y, c) for y, c in ((19, BLUE), (40, RED), (61, GREEN)) for x in (15, 30, 45)],
}
DOT_RADIUS = {2: 11, 3: 9, 4: 9.5, 5: 8.5, 6: 8.5, 7: 7, 8: 7, 9: 6.8}


def dots(rank: int) -> str:
    if rank == 1:
        return big_dot(30, 40)
    return "".join(dot(x, y, DOT_RADIUS[rank], c) for x, y, c in DOTS[rank])


# -- 条 bamboo -------------------------------------------------------------------------------------

def stick(cx: float, cy: float, length: float, colour: str, angle: float = 0.0) -> str:
    """One bamboo stick: a rounded stalk with a node in the middle and at both ends."""
    w = 6.4
    x, y = cx - w / 2, cy - length / 2
    turn = f' transform="rotate({angle:g} {cx:g} {cy:g})"' if angle else ""
    node = "".join(
        f'<rect x="{x - 0.6:g}" y="{ny - 1:g}" width="{w + 1.2:g}" height="2" rx="1" '
        f'fill="{colour}"/>' for ny in (y + 1.2, cy, y + length - 1.2))
    return (f'<g{turn}><rect x="{x:g}" y="{y:g}" width="{w:g}" height="{length:g}" rx="3" '
            f'fill="{colour}"/>'
            f'<rect x="{cx - 0.7:g}" y="{y + 2.5:g}" width="1.4" height="{length - 5:g}" '
            f'rx="0.7" fill="#fffdf6" opacity="0.55"/>{node}</g>')


# Stick layouts: (x, y, colour, angle); each rank's sticks share one length.
STICKS: Dict[int, List[Tuple[float, float, str, float]]] = {
    2: [(30, 25, GREEN, 0), (30, 55, GREEN, 0)],
    3: [(30, 25, GREEN, 0), (20, 55, GREEN, 0), (40, 55, GREEN, 0)],
    4: [(20, 25, GREEN, 0), (40, 25, GREEN, 0), (20, 55, GREEN, 0), (40, 55, GREEN, 0)],
    5: [(16, 25, GREEN, 0), (44, 25, GREEN, 0), (30, 40, RED, 0), (16, 55, GREEN, 0),
        (44, 55, GREEN, 0)],
    6: [(x, y, GREEN, 0.0) for y in (25.0, 55.0) for x in (16.0, 30.0, 44.0)],
    7: [(30.0, 15.0, RED, 0.0)] + [(x, y, GREEN, 0.0) for y in (40.0, 63.0)
                                  for x in (16.0, 30.0, 44.0)],
    8: [(11, 25, GREEN, 0), (23.5, 25, GREEN, -26), (36.5, 25, GREEN, 26), (49, 25, GREEN, 0),
        (11, 55, GREEN, 0), (23.5, 55, GREEN, 26), (36.5, 55, GREEN, -26), (49, 55, GREEN, 0)],
    9: [(x, y, RED if x == 30 else GREEN, 0.0) for y in (17.0, 40.0, 63.0)
        for x in (16.0, 30.0, 44.0)],
}
STICK_LENGTH = {2: 24, 3: 24, 4: 24, 5: 21, 6: 24, 7: 19, 8: 24, 9: 19}


def bird() -> str:
    """一条: a small bird on a bamboo twig (green body, blue wing, red crest and tail)."""
    return (
        # the twig it stands on
        f'<path d="M10,66 L50,60" stroke="{GREEN}" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="M40,61.5 L46,55" stroke="{GREEN}" stroke-width="2" stroke-linecap="round"/>'
        # tail feathers
        f'<path d="M22,47 C12,44 7,36 6,26 C12,32 16,36 22,40 Z" fill="{RED}"/>'
        f'<path d="M22,49 C10,50 5,44 3,38 C10,41 15,42 22,43 Z" fill="{BLUE}"/>'
        # body
        f'<path d="M20,46 C20,34 30,28 38,30 C46,32 48,42 44,50 C40,57 26,58 20,46 Z" '
        f'fill="{GREEN}"/>'
        # wing
        f'<path d="M26,42 C30,35 38,35 41,40 C37,41 33,45 29,50 C27,48 25.5,45 26,42 Z" '
        f'fill="{BLUE}"/>'
        # head, crest, beak, eye
        f'<circle cx="41" cy="24" r="7.5" fill="{GREEN}"/>'
        f'<path d="M37,17.5 C37,12 41,10 44,11 C42,13 41.5,15 42,17 Z" fill="{RED}"/>'
        f'<path d="M47.5,22 L55,24.5 L47.5,27 Z" fill="#d98e04"/>'
        f'<circle cx="43" cy="22.5" r="2.1" fill="#fffdf6"/>'
        f'<circle cx="43.4" cy="22.5" r="1.1" fill="{INK}"/>'
        # legs
        f'<path d="M32,55 L30,63 M37,55 L37,62" stroke="#d98e04" stroke-width="1.8" '
        f'stroke-linecap="round"/>')


def bamboo(rank: int) -> str:
    if rank == 1:
        return bird()
    n = STICK_LENGTH[rank]
    return "".join(stick(x, y, n, c, a) for x, y, c, a in STICKS[rank])


# -- 红中 ------------------------------------------------------------------------------------------

def red_dragon() -> str:
    """红中 (``7z``): a large red 中, drawn, on the ivory face; no corner index (it has no rank)."""
    return svg("7z", body("7z", IVORY_LIGHT, IVORY_DARK, BACK_DARK, "#b9ad8f")
               + strokes(ZHONG, RED, 5.5, 10, 9, 1.0))


# -- the wild marks --------------------------------------------------------------------------------

def mark(name: str, glyphs: Sequence[List[str]]) -> str:
    """A wild tile's corner badge: the characters as white strokes on a red rounded box, one
    30 x 30 box each (plus a 2-unit margin), so it reads without any CJK font."""
    w, h = 30 * len(glyphs) + 4, 34
    inner = f'<rect x="0" y="0" width="{w}" height="{h}" rx="7" fill="{RED}"/>' + "".join(
        strokes(g, "#fffdf6", 3.6, 2 + 30 * i, 2) for i, g in enumerate(glyphs))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
            f'height="{h}" role="img" aria-label="{name}">{inner}</svg>\n')


def marks() -> Dict[str, str]:
    """File name -> SVG text of each wild mark: 听用 (a wild of a suit kind, or a 本金's
    neighbour) and 鬼 (a 红中)."""
    return {"tingyong.svg": mark("tingyong", [TING, YONG]), "gui.svg": mark("gui", [GUI])}


# -- the back --------------------------------------------------------------------------------------

def back() -> str:
    """A face-down tile: green face with a lattice diamond, the ivory layer below it."""
    inner = ('<rect x="6" y="6" width="48" height="63" rx="4" fill="none" stroke="#9fd1b1" '
             'stroke-width="1" opacity="0.45"/>'
             '<path d="M30,25.5 L42,37.5 L30,49.5 L18,37.5 Z" fill="none" stroke="#9fd1b1" '
             'stroke-width="1.2" opacity="0.7"/>'
             '<path d="M30,29 L38,37.5 L30,46 L22,37.5 Z" fill="#9fd1b1" opacity="0.5"/>')
    return svg("back", body("back", BACK_LIGHT, BACK_DARK, "#e6dcc0", "#174a2d") + inner)


# -- output ----------------------------------------------------------------------------------------

def tiles() -> Dict[str, str]:
    """File name -> SVG text of every tile."""
    out: Dict[str, str] = {}
    for suit, art in (("m", characters), ("p", dots), ("s", bamboo)):
        for rank in range(1, 10):
            name = f"{rank}{suit}"
            out[f"{name}.svg"] = face_tile(name, art(rank))
    out["7z.svg"] = red_dragon()
    out["back.svg"] = back()
    return out


def files() -> Dict[str, str]:
    """Path under the static folder -> SVG text: ``tiles/<name>.svg`` and ``marks/<name>.svg``."""
    return {**{f"tiles/{f}": t for f, t in tiles().items()},
            **{f"marks/{f}": t for f, t in marks().items()}}


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare the files on disk with what would be written")
    parser.add_argument("--out", type=Path, default=STATIC,
                        help="the static folder: the files go to its tiles/ and marks/")
    args = parser.parse_args(list(argv))
    wanted = files()
    if args.check:
        stale = [f for f, text in wanted.items()
                 if not (args.out / f).exists() or (args.out / f).read_text("utf-8") != text]
        if stale:
            print(f"out of date: {' '.join(stale)} (run python tools/make_tiles.py)")
            return 1
        return 0
    for f, text in wanted.items():
        (args.out / f).parent.mkdir(parents=True, exist_ok=True)
        (args.out / f).write_text(text, "utf-8")
    print(f"wrote {len(wanted)} files to {args.out}/tiles and {args.out}/marks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
