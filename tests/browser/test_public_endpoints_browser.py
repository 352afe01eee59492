"""Tried as a new user would: a page on an allowed origin (another local port) calls each public endpoint
with fetch() in Chromium and succeeds; the same page on another origin is blocked by the browser and
nothing is stored."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.factories import Tenant, add_project
from tests.integration.public.conftest import stored_rows, valid_bodies
from tests.integration.public.servers import running_server, server_env
from tests.services import CHROMIUM, CHROMIUM_ARGS, require_chromium

pytestmark = pytest.mark.browser

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Customer site</title>
<style>body{font:16px system-ui;margin:2em} td{padding:4px 12px;border-bottom:1px solid #ddd}</style>
</head><body><h1>Customer site</h1><p>Calls to Hearken from this page:</p>
<table id="results"></table>
<script>
async function send(url, body, contentType) {
  const row = document.createElement("tr");
  try {
    const response = await fetch(url, {method: "POST", headers: {"Content-Type": contentType},
                                       body: JSON.stringify(body)});
    row.innerHTML = "<td></td><td></td>";
    row.cells[0].textContent = url.split("/api/v1")[1];
    row.cells[1].textContent = response.status + " " + (await response.text());
    document.getElementById("results").append(row);
    return response.status;
  } catch (error) {
    row.innerHTML = "<td></td><td></td>";
    row.cells[0].textContent = url.split("/api/v1")[1];
    row.cells[1].textContent = "blocked: " + error.name;
    document.getElementById("results").append(row);
    return "blocked";
  }
}
</script></body></html>
"""


@pytest.fixture
def page_servers(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The customer's site, served on two local ports: two origins for the same page."""
    (tmp_path / "index.html").write_text(PAGE)

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args: Any) -> None:
            pass

    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Quiet) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield tuple(f"http://127.0.0.1:{server.server_address[1]}" for server in servers)  # type: ignore[misc]
    for server in servers:
        server.shutdown()


async def test_fetch_from_allowed_and_other_origins(
    database_url: str,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    page_servers: tuple[str, str],
    tmp_path: Path,
) -> None:
    require_chromium()
    allowed_site, other_site = page_servers
    project = await add_project(session_maker, tenant, name="Browser", origins=(allowed_site,))
    bodies = valid_bodies(str(project.key))
    with running_server(server_env(database_url)) as api:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = await browser.new_page()

            await page.goto(f"{allowed_site}/index.html")
            statuses = [
                await page.evaluate("([u, b]) => send(u, b, 'application/json')", [api + path, body])
                for path, body in bodies.items()
            ]
            assert statuses == [204, 201, 200, 200]
            await page.screenshot(path=str(tmp_path / "allowed.png"))
            assert await stored_rows(session_maker) == 4

            await page.goto(f"{other_site}/index.html")
            for content_type in ("application/json", "text/plain"):  # with and without a preflight
                statuses = [
                    await page.evaluate("([u, b, t]) => send(u, b, t)", [api + path, body, content_type])
                    for path, body in bodies.items()
                ]
                assert statuses == ["blocked"] * 4
            await page.screenshot(path=str(tmp_path / "other.png"))
            await browser.close()
    assert await stored_rows(session_maker) == 4
