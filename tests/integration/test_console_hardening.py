"""Console responses of every kind carry the same protections: security headers on error pages too, and
error pages that hold no CSRF token or logout form."""

from __future__ import annotations

from httpx import Response
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.security_headers import CONSOLE_HEADERS
from tests.console_helpers import Console, add_user
from tests.factories import Tenant

UNKNOWN_PROJECT = "/projects/0190b2b4-0000-7000-8000-000000000000"


def assert_console_headers(response: Response) -> None:
    for name, value in CONSOLE_HEADERS.items():
        assert response.headers.get(name) == value, (response.status_code, name)


def assert_bare_error_page(response: Response) -> None:
    assert_console_headers(response)
    assert response.headers["content-type"].startswith("text/html")
    assert "_csrf_token" not in response.text
    assert "x-csrftoken" not in response.text
    assert 'action="/logout"' not in response.text


async def test_error_pages_carry_the_headers_and_no_token(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    home = await console.get("/projects")
    assert_console_headers(home)
    token = console.csrf

    not_found = await console.get(UNKNOWN_PROJECT)
    assert not_found.status_code == 404
    assert_bare_error_page(not_found)

    not_allowed = await console.client.post("/projects", data={"_csrf_token": token, "name": "X"})
    assert not_allowed.status_code == 403
    assert_bare_error_page(not_allowed)

    forged = await console.client.post("/projects", data={"name": "X"})
    assert forged.status_code == 403
    assert_bare_error_page(forged)

    fragment = await console.client.get(UNKNOWN_PROJECT, headers={"HX-Request": "true"})
    assert fragment.status_code == 404
    assert_bare_error_page(fragment)

    signed_out = await console.client.post("/logout", data={"_csrf_token": token})
    assert signed_out.status_code in (200, 303)
    redirected = await console.client.get("/projects", follow_redirects=False)
    assert redirected.status_code == 303
    assert_console_headers(redirected)
