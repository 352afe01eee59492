"""An assistant connects to /mcp by its URL alone: the official `mcp` client's OAuth (discovery, dynamic
registration, PKCE) against the real server, a member signing in and consenting in Chromium, a tool call
with the access token, a refresh that rotates both tokens, and "Disconnect" on the API tokens page that
stops the next call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from litestar import Litestar
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from playwright.async_api import Browser, Page, Route, async_playwright
from pydantic import AnyUrl
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.transactions import unit_of_work
from tenants.members import Members
from tenants.scope import operator_scope
from tests.browser.conftest import ARTIFACTS
from tests.console_helpers import PASSWORD, add_user
from tests.factories import Tenant
from tests.mcp_clients import bearer, mcp_client, served, served_settings
from tests.services import CHROMIUM, CHROMIUM_ARGS, require_chromium

CALLBACK = "http://127.0.0.1:1/callback"
"""The assistant's redirect URI: Chromium's request to it is intercepted, nothing listens there."""
EMAIL = "ada@org-a.example"


@pytest.fixture
def settings(database_url: str) -> Settings:
    return served_settings(database_url)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    require_chromium()
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        await chromium.close()


class MemoryStorage(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Member:
    """The member's side: Chromium signs in and answers the consent page; the redirect to the assistant
    is caught and its query handed to the client."""

    def __init__(self, page: Page, organization: str) -> None:
        self.page = page
        self.organization = organization
        self.answer: asyncio.Future[dict[str, list[str]]] = asyncio.get_running_loop().create_future()
        self.consent_heading = ""

    async def catch(self, route: Route) -> None:
        self.answer.set_result(parse_qs(urlsplit(route.request.url).query))
        await route.fulfill(status=200, body="connected")

    async def consent(self, authorization_url: str) -> None:
        page = self.page
        await page.route(f"{CALLBACK}*", self.catch)
        await page.goto(authorization_url)
        await page.get_by_label("Email").fill(EMAIL)
        await page.get_by_label("Password").fill(PASSWORD)
        await page.get_by_role("button", name="Log in").click()
        await page.get_by_role("link", name=self.organization).click()  # a member of two chooses one
        heading = page.get_by_role("heading", level=1)
        self.consent_heading = await heading.inner_text()
        await page.screenshot(path=str(ARTIFACTS / "mcp-consent.png"), full_page=True)
        await page.get_by_role("button", name="Allow").click()

    async def callback(self) -> AuthorizationCodeResult:
        query = await asyncio.wait_for(self.answer, 30)
        return AuthorizationCodeResult(code=query["code"][0], state=query["state"][0])


async def test_an_assistant_connects_by_oauth_refreshes_and_is_disconnected(
    app: Litestar,
    browser: Browser,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    user = await add_user(session_maker, tenant.org_id, EMAIL, "owner")
    async with unit_of_work(session_maker) as session:
        await Members(session, operator_scope(other_tenant.org_id)).add(user.id, "member")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = await browser.new_context(locale="en-US")
    member = Member(await context.new_page(), "Org A")
    storage = MemoryStorage()
    async with served(app) as base_url:
        oauth = OAuthClientProvider(
            server_url=f"{base_url}/mcp",
            client_metadata=OAuthClientMetadata(
                client_name="Claude test", redirect_uris=[AnyUrl(CALLBACK)], token_endpoint_auth_method="none"
            ),
            storage=storage,
            redirect_handler=member.consent,
            callback_handler=member.callback,
        )
        async with (
            httpx2.AsyncClient(auth=oauth, timeout=60) as http,
            Client(streamable_http_client(f"{base_url}/mcp", http_client=http)) as client,
        ):
            tools = {tool.name for tool in (await client.list_tools()).tools}
            projects = (await client.call_tool("list_projects", {})).structured_content
        assert member.consent_heading == "Allow Claude test to read and change feedback of Org A?"
        assert "create_feedback" in tools  # the owner's access: the writing tools too
        assert [p["id"] for p in projects["projects"]] == [tenant.project_id]  # Org A's only
        first = storage.tokens
        assert first is not None and first.access_token.startswith("oaa_") and first.refresh_token

        async with httpx.AsyncClient(base_url=base_url) as http:
            refreshed = await http.post(
                "/token",
                data={
                    "grant_type": "refresh_token",
                    "refresh_token": first.refresh_token,
                    "client_id": storage.client.client_id,  # type: ignore[union-attr]
                },
            )
            assert refreshed.status_code == 200, refreshed.text
            second = refreshed.json()
            assert second["refresh_token"] != first.refresh_token
            reused = await http.post(
                "/token",
                data={
                    "grant_type": "refresh_token",
                    "refresh_token": first.refresh_token,
                    "client_id": storage.client.client_id,  # type: ignore[union-attr]
                },
            )
            assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"

        statuses: list[int] = []
        with pytest.raises(Exception):  # noqa: B017  the rotated access token is refused
            async with mcp_client(base_url, bearer(first.access_token), statuses) as client:
                await client.list_tools()
        assert statuses[-1] == 401
        statuses = []
        async with mcp_client(base_url, bearer(second["access_token"]), statuses) as client:
            assert (await client.call_tool("list_projects", {})).structured_content == projects

            page = member.page
            await page.goto(f"{base_url}/settings/tokens")
            await page.get_by_role("cell", name="Claude test").wait_for()
            await page.screenshot(path=str(ARTIFACTS / "mcp-connected-apps.png"), full_page=True)
            page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
            await page.get_by_role("button", name="Disconnect").click()
            await page.get_by_text("No connected apps.").wait_for()
            with pytest.raises(Exception):  # noqa: B017  refused: the next call after disconnecting
                await client.call_tool("list_projects", {})
        assert statuses[-1] == 401
    await context.close()
