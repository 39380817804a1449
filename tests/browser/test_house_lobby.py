"""The lobby offers a server's house rules (`xueliu serve --knob ...`, served as the preset
"house", first in GET /api/presets) as its first choice, and a table made from the lobby asks
for them."""

from __future__ import annotations

import os
from typing import Iterator

import pytest
from playwright.sync_api import Page

from server.client import http
from server.conftest import ServerProcess


@pytest.fixture
def house_site(tmp_path: "os.PathLike[str]") -> Iterator[str]:
    server = ServerProcess(f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}", "--bot-delay",
                           "0.03", "--knob", "max_fan=2", log_dir=str(tmp_path))
    server.start()
    yield server.address
    server.stop()
    server.log.close()


def _sign_in(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#name", name)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")


def test_the_lobby_offers_the_servers_house_rules_first(page: Page, house_site: str) -> None:
    _sign_in(page, house_site + "/", "ann")
    page.wait_for_function("document.getElementById('rules').value === 'house'")
    options = page.locator("#rules option").evaluate_all("els => els.map(e => e.value)")
    assert options[0] == "house" and "xueliu" in options
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as req:
        page.click("#play-bots")
    assert req.value.post_data_json["rules"] == "house"
    page.wait_for_selector("#table:not([hidden])")
    token = page.evaluate("localStorage.getItem('xueliu.token')")
    assert len(http("GET", f"{house_site}/api/me", token).json()["tables"]) == 1
