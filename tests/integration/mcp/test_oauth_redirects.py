"""Where the OAuth endpoints may send a member's browser: the redirect URIs registration accepts, and the
authorization endpoint's refusal page for a request whose client or redirect URI is not known."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import OAuthClient
from app.db.transactions import unit_of_work
from tests.integration.mcp.test_oauth import REDIRECT, pkce, register

EVIL = "http://evil.example/cb"


@pytest.mark.parametrize(
    "uri",
    [
        EVIL,
        "javascript:alert(document.domain)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "https://*.evil.example/cb",
        "https://app.example/cb#fragment",
        "http://127.0.0.1:1/callback#x",
        "https://user:password@app.example/cb",
        "http://localhost.evil.example/cb",
        "http://10.0.0.1/cb",
        "ms-settings:privacy",
        "mailto:someone@example.com",
        "https://app.example/" + "a" * 1000,
    ],
)
async def test_registration_refuses_a_redirect_uri_outside_the_rules(
    http: httpx.AsyncClient, uri: str
) -> None:
    """Review finding 3: registration accepted any redirect URI (http to anywhere, javascript:, data:,
    file:, wildcards, fragments), so /authorize could send a member's browser there."""
    response = await http.post("/register", json={"client_name": "Bad", "redirect_uris": [uri]})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_redirect_uri"
    assert body["error_description"].startswith("redirect_uris[0]: the URI ")

    # beside an allowed one it is left out, as the answer says, and /authorize will not lead there
    registered = await register(http, redirect_uris=[uri, REDIRECT], token_endpoint_auth_method="none")
    assert registered["redirect_uris"] == [REDIRECT]
    response = await http.get(
        "/authorize",
        params=authorize_params(registered["client_id"], redirect_uri=uri, code_challenge=pkce()[1]),
    )
    assert_refusal_page(response, "not one the assistant registered")


@pytest.mark.parametrize(
    "uri",
    [
        "http://127.0.0.1:33418/callback",
        "http://127.5.6.7/cb",
        "http://[::1]:8080/callback",
        "http://localhost:6274/oauth/callback",
        "https://claude.ai/api/mcp/auth_callback",
        "https://203.0.113.9/cb",
        "com.example.app:/oauth2redirect",
    ],
)
async def test_registration_accepts_loopback_https_and_reverse_domain_uris(
    http: httpx.AsyncClient, uri: str
) -> None:
    """Review finding 3: the rules still let native apps (loopback, any port, or their own reverse-domain
    scheme) and web apps (https) register."""
    registered = await register(http, redirect_uris=[uri])
    assert registered["redirect_uris"][0].rstrip("/") == uri.rstrip("/")


async def test_an_assistant_offering_several_uris_keeps_those_allowed(http: httpx.AsyncClient) -> None:
    """Review finding 3: Cursor registers a `cursor://` URI (no reverse domain) beside an https and a
    loopback one; the registration keeps those two rather than failing."""
    offered = [
        "cursor://anysphere.cursor-mcp/oauth/callback",
        "https://www.cursor.com/agents/mcp/oauth/callback",
        "http://localhost:8787/callback",
    ]
    registered = await register(http, redirect_uris=offered, token_endpoint_auth_method="none")
    assert registered["redirect_uris"] == offered[1:]


def authorize_params(client_id: str, **changes: Any) -> dict[str, str]:
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "state": "s1"}
    return {k: v for k, v in {**params, **changes}.items() if v is not None}


def assert_refusal_page(response: httpx.Response, words: str) -> None:
    assert response.status_code == 400, response.text
    assert "location" not in response.headers
    assert response.headers["content-type"].startswith("text/html")
    assert "This connection request cannot be used" in response.text and words in response.text
    assert "evil.example" not in response.text and "alert(" not in response.text


async def test_an_unregistered_redirect_uri_gets_a_page_never_a_redirect(http: httpx.AsyncClient) -> None:
    """Review finding 3: /authorize must send the browser nowhere before the client's exact redirect
    URI is known; signed out and without a code challenge it answered a redirect."""
    registered = await register(http, token_endpoint_auth_method="none")
    for redirect_uri in (EVIL, REDIRECT + "/other", "not a uri", None):
        for method in ("GET", "POST"):
            params = authorize_params(registered["client_id"], redirect_uri=redirect_uri)
            if method == "GET":
                response = await http.get("/authorize", params=params)
            else:
                response = await http.post("/authorize", data=params)
            assert_refusal_page(response, "send you back")


async def test_an_unknown_client_gets_a_page_never_a_redirect(http: httpx.AsyncClient) -> None:
    """Review finding 3: an unknown client is told apart on a page of ours, not by a redirect."""
    for client_id in ("00000000-0000-7000-8000-000000000000", "nonsense", None):
        response = await http.get("/authorize", params=authorize_params(client_id, redirect_uri=EVIL))  # type: ignore[arg-type]
        assert_refusal_page(response, "not registered")


async def test_a_client_registered_before_the_rules_cannot_use_a_uri_they_refuse(
    http: httpx.AsyncClient, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 3: a registration stored before the rules (http to another host) leads nowhere."""
    registered = await register(http, token_endpoint_auth_method="none")
    async with unit_of_work(session_maker) as session:
        client = await session.get(OAuthClient, UUID(registered["client_id"]))
        assert client is not None
        await session.execute(
            update(OAuthClient)
            .where(OAuthClient.id == client.id)
            .values(registration={**client.registration, "redirect_uris": [EVIL]})
        )
    response = await http.get(
        "/authorize",
        params=authorize_params(registered["client_id"], redirect_uri=EVIL, code_challenge=pkce()[1]),
    )
    assert_refusal_page(response, "not allowed")


async def test_a_known_client_and_uri_get_their_errors_by_redirect(http: httpx.AsyncClient) -> None:
    """Review finding 3: once the client and its redirect URI are known, an error in the rest of the
    request (here no code challenge) goes back to the assistant, as OAuth asks."""
    registered = await register(http, token_endpoint_auth_method="none")
    response = await http.get("/authorize", params=authorize_params(registered["client_id"]))
    assert response.status_code == 302
    location = response.headers["location"]
    assert location.startswith(REDIRECT + "?")
    answer = parse_qs(urlsplit(location).query)
    assert answer["error"] == ["invalid_request"] and answer["state"] == ["s1"]
