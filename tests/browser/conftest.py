"""Fixtures of the browser tests: a real ``xueliu serve`` process and Debian's Chromium driven by
Playwright (browser downloads are not reachable here, so Chromium is launched from its path)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterator, List

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from server.conftest import ServerProcess

# A person needs time to click, also on a busy machine: a discard has the full 10 s (a late click
# would be a timeout the tests count); a bot thinks 30 ms. A seat whose page is not connected yet
# (the table deals the moment "play against bots" creates it, before the page opens its
# websocket) or is reloading is auto-played only after 10 s: the page connects first, and the
# person's own clicks are what the tests check.
TIME_SCALE = "1"


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium); .ci/run "
                       "installs it")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Module scope: Playwright's sync API keeps an event loop running in this thread while it is
    # open, and later tests (the server's) start their own with asyncio.run.
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield b
        b.close()


# Font directories without any CJK font (Debian's DejaVu and Liberation): a fresh machine with
# Chromium only, as the issue 16 user had it.
LATIN_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")


def latin_only_fontconfig(directory: Path) -> Path:
    """A fontconfig file that lists only LATIN_FONT_DIRS (and its own cache)."""
    dirs: List[str] = [d for d in LATIN_FONT_DIRS if os.path.isdir(d)]
    if not dirs:
        raise RuntimeError(f"none of {LATIN_FONT_DIRS} exists (Debian: fonts-dejavu-core)")
    conf = directory / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                    + "".join(f"  <dir>{d}</dir>\n" for d in dirs)
                    + f"  <cachedir>{directory / 'cache'}</cachedir>\n</fontconfig>\n", "utf-8")
    return conf


@pytest.fixture(scope="module")
def no_cjk_fonts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fontconfig file of a machine without CJK fonts, checked: fontconfig finds no font
    for Chinese with it."""
    conf = latin_only_fontconfig(tmp_path_factory.mktemp("fonts"))
    found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True,
                           env={**os.environ, "FONTCONFIG_FILE": str(conf)}, check=True).stdout
    assert found.strip() == "", f"a CJK font is still visible: {found}"
    return conf


@pytest.fixture(scope="module")
def browser_without_cjk(no_cjk_fonts: Path) -> Iterator[Browser]:
    """Chromium that sees only the fonts of ``no_cjk_fonts``."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"],
                              env={**os.environ, "FONTCONFIG_FILE": str(no_cjk_fonts)})
        yield b
        b.close()


@pytest.fixture
def site(tmp_path: "os.PathLike[str]") -> Iterator[str]:
    """The address of a fresh server (SQLite in the test's directory) serving the browser table."""
    # A later --time-scale overrides the server tests' fast one.
    server = ServerProcess(f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}", "--time-scale",
                           TIME_SCALE, "--bot-delay", "0.03", "--auto-delay", "10",
                           log_dir=str(tmp_path))
    server.start()
    yield server.address
    server.stop()
    server.log.close()


@pytest.fixture
def live_server(tmp_path: "os.PathLike[str]") -> Iterator[Callable[..., ServerProcess]]:
    """``live_server(*flags)``: a fresh server as ``site`` starts it, with more flags (e.g.
    ``--deal-seed N``, a later flag overriding an earlier one); every one is stopped at the end."""
    started: List[ServerProcess] = []

    def start(*flags: str) -> ServerProcess:
        server = ServerProcess(f"sqlite:///{os.path.join(tmp_path, f'xueliu{len(started)}.db')}",
                               "--time-scale", TIME_SCALE, "--bot-delay", "0.03",
                               "--auto-delay", "10", *flags, log_dir=str(tmp_path))
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
        server.log.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: List[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], f"the page threw: {errors}"  # no uncaught error in the page's scripts
