"""Single sign-on as the tests arrange and drive it: an organization's provider configured and its
domain proven, and a person's browser going through "Sign in with SSO", the provider and the callback."""

from __future__ import annotations

import html
import re

from httpx import Response
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.transactions import unit_of_work
from tenants.scope import operator_scope
from tenants.single_sign_on import SsoConnections, SsoSettings
from tests.console_helpers import Console
from tests.console_helpers import errors_in as escaped_errors_in
from tests.factories import Tenant
from tests.identity_provider import CLIENT_ID, CLIENT_SECRET, IdentityProvider

CALLBACK_PATH = "/login/sso/callback"


def errors_in(page: str) -> list[str]:
    return [html.unescape(error) for error in escaped_errors_in(page)]


async def configure(
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    provider: IdentityProvider,
    *,
    domain: str = "acme.example",
    require_sso: bool = False,
) -> None:
    """The provider saved and `domain` proven, as if its TXT record had been seen (the console's Verify
    through a DNS server is tested on its own)."""
    async with unit_of_work(session_maker) as session:
        connections = SsoConnections(session, operator_scope(tenant.org_id), settings)
        wanted = SsoSettings(provider.issuer, CLIENT_ID, CLIENT_SECRET, (domain,), require_sso)
        await connections.save(wanted)
        [claim] = await connections.claims()
        await connections.prove(domain, [claim.record])
        await session.commit()


async def sign_in_through(
    console: Console, provider: IdentityProvider, email: str, base_url: str
) -> Response:
    """What a person's browser does: "Sign in with SSO", the provider's pages, back to the callback."""
    await console.get("/login/sso")
    start = await console.post("/login/sso", {"email": email})
    back = await provider.redirect_back(provider_url(start), base_url + CALLBACK_PATH)
    return await console.get(back.removeprefix(base_url), follow_redirects=False)


def provider_url(start: Response) -> str:
    """Where the page answering "Sign in with SSO" sends the browser (its refresh and its link agree)."""
    assert start.status_code == 200, errors_in(start.text)
    refresh = re.search(r'http-equiv="refresh" content="0;url=([^"]+)"', start.text)
    link = re.search(r'id="provider-link" class="button primary" href="([^"]+)"', start.text)
    assert refresh and link and refresh.group(1) == link.group(1)
    return html.unescape(link.group(1))
