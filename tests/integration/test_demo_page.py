"""The /demo page: served outside production with a strict CSP and the demo project's widgets."""

from __future__ import annotations

from dataclasses import replace

from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.demo.demo_project import DEMO_PROJECT_KEY
from app.main import create_app


async def test_demo_page_embeds_the_four_widgets_under_a_strict_csp(
    client: AsyncTestClient[Litestar],
) -> None:
    response = await client.get("/demo")
    assert response.status_code == 200
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    for name in ("helpful", "star", "contact", "feedback"):
        assert f"/static/widgets/v1/{name}.js" in response.text
    assert f'data-project-key="{DEMO_PROJECT_KEY}"' in response.text
    again = await client.get("/demo?lang=sv")
    assert again.status_code == 200 and 'data-language="sv"' in again.text
    assert (await client.get("/demo?lang=<script>")).text.count("data-language") == 0


async def test_demo_page_is_not_served_in_production(settings: Settings) -> None:
    app = create_app(replace(settings, env="production"))
    async with AsyncTestClient(app=app) as production:
        assert (await production.get("/demo")).status_code == 404
