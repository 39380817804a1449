"""The tile pictures (issue 16): one SVG per kind — 红中 (7z) included, docs/rules.md §12.1 — and
a back, all of one size, self-contained (no text, no external references), and the marks of a
wild tile (听用, 鬼), drawn the same way, as tools/make_tiles.py writes them, served by the table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx

from xueliu.server.app import STATIC
from xueliu.tiles import PHYSICAL_NAMES

TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_tiles.py"
PICTURES = [f"{n}.svg" for n in PHYSICAL_NAMES] + ["back.svg"]
MARKS = ["gui.svg", "tingyong.svg"]


def _self_contained(svg: str, name: str) -> None:
    assert "<text" not in svg and "<image" not in svg and "<style" not in svg, name
    # The only references are to the file's own gradient (url(#...)).
    assert re.findall(r"href|url\((?!#)|@import|font-family", svg) == [], name


def test_there_is_one_picture_per_kind_and_a_back_all_of_one_size_and_self_contained():
    folder = STATIC / "tiles"
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(PICTURES)
    for name in PICTURES:
        svg = (folder / name).read_text("utf-8")
        assert re.search(r'<svg [^>]*viewBox="0 0 60 80"', svg), name
        _self_contained(svg, name)


def test_the_wild_marks_are_drawn_pictures_too():
    folder = STATIC / "marks"
    assert sorted(p.name for p in folder.glob("*.svg")) == MARKS
    for name in MARKS:
        svg = (folder / name).read_text("utf-8")
        assert re.search(r'<svg [^>]*viewBox="0 0 \d+ 34"', svg), name
        assert "<path" in svg, name  # the characters are strokes
        _self_contained(svg, name)


def test_the_pictures_are_what_the_generator_writes():
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_server_serves_every_picture_as_svg(site):
    for path in [f"tiles/{n}" for n in PICTURES] + [f"marks/{n}" for n in MARKS]:
        r = httpx.get(f"{site}/{path}", timeout=30)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("image/svg+xml"), (path, r.headers)
