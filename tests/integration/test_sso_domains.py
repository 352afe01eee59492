"""Single sign-on domains are proven before they send anybody to a provider: the settings page shows the
DNS TXT record, "Verify" looks it up through the DNS server HEARKEN_DNS_RESOLVER names (here a server on
127.0.0.1 answering the records a test publishes, tests/dns_server.py), a proven domain belongs to one
organization, and public mail domains are refused. The provider is the local OpenID provider
(tests/identity_provider.py): saving fetches its discovery document."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from httpx import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AuditEntry, User
from tests.console_helpers import Console, add_user
from tests.dns_server import DnsServer, running_dns_server
from tests.factories import Tenant
from tests.identity_provider import CLIENT_ID, CLIENT_SECRET, IdentityProvider, running_provider
from tests.sso_console import CALLBACK_PATH, errors_in

BASE_URL = "http://127.0.0.1:8000"  # the tests' settings' base URL
RECORD = re.compile(r"hearken-verification=[0-9a-f]{32}")


@pytest.fixture(scope="module")
def provider() -> Iterator[IdentityProvider]:
    with running_provider(BASE_URL + CALLBACK_PATH) as started:
        yield started


@pytest.fixture(scope="module")
def dns_server() -> Iterator[DnsServer]:
    with running_dns_server() as started:
        yield started


@pytest.fixture
def dns(dns_server: DnsServer) -> DnsServer:
    dns_server.records.clear()
    return dns_server


@pytest.fixture
def settings(settings: Settings, dns_server: DnsServer) -> Settings:
    return replace(settings, dns_resolver=dns_server.address)


def provider_form(provider: IdentityProvider, domains: str) -> dict[str, str]:
    return {
        "issuer": provider.issuer,
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "domains": domains,
    }


async def sso_start(console: Console, email: str) -> Response:
    await console.get("/login/sso")
    return await console.post("/login/sso", {"email": email})


async def verify(console: Console, domain: str) -> Response:
    return await console.post("/settings/sso/domains/verify", {"domain": domain})


async def test_a_domain_sends_nobody_to_the_provider_until_its_txt_record_is_seen(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    dns: DnsServer,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 1 (a): a claimed domain is unproven, and sends nobody to the provider, until the
    TXT record the page shows is published at the domain itself and "Verify" sees it."""
    await console.login(owner.email)
    saved = await console.post("/settings/sso", provider_form(provider, "acme.example"))
    assert saved.status_code == 200, errors_in(saved.text)
    record = RECORD.search(saved.text)
    assert record is not None and ">Verify</button>" in saved.text and ">unproven<" in saved.text

    await console.post("/logout", {})
    refused = await sso_start(console, "person@acme.example")
    assert refused.status_code == 400 and "No organization signs in with single sign-on" in refused.text

    await console.login(owner.email)
    nothing = await verify(console, "acme.example")
    assert nothing.status_code == 400
    assert errors_in(nothing.text) == [f"No TXT record {record.group(0)} at acme.example yet"]
    dns.publish("sub.acme.example", record.group(0))  # not at the domain itself
    dns.publish("acme.example", "hearken-verification=" + "0" * 32, "v=spf1 -all")  # someone else's token
    assert (await verify(console, "acme.example")).status_code == 400
    assert "acme.example" in dns.questions

    dns.publish("acme.example", record.group(0))
    proven = await verify(console, "acme.example")
    assert proven.status_code == 200 and "Domain verified" in proven.text
    assert ">Verify</button>" not in proven.text and ">proven<" in proven.text
    await console.post("/logout", {})
    sent = await sso_start(console, "person@acme.example")
    assert sent.status_code == 200 and 'id="provider-link"' in sent.text
    async with session_maker() as session:
        entry = await session.scalar(select(AuditEntry).where(AuditEntry.action == "sso_domain.verified"))
    assert entry is not None and entry.actor == owner.email


async def test_a_proven_domain_belongs_to_one_organization(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    dns: DnsServer,
    session_maker: async_sessionmaker[AsyncSession],
    other_tenant: Tenant,
) -> None:
    """Review findings 1 (a) and 11: another organization's unproven claim blocks nobody (a squatter cannot
    keep the owner out), and once the owner proved the domain, no other organization can claim it or
    prove it."""
    squatter = await add_user(session_maker, other_tenant.org_id, "admin@org-b.example", "admin")
    await console.login(squatter.email)
    squatted = await console.post("/settings/sso", provider_form(provider, "acme.example"))
    assert squatted.status_code == 200, errors_in(squatted.text)
    squatter_record = RECORD.search(squatted.text)
    assert squatter_record is not None
    await console.post("/logout", {})

    await console.login(owner.email)
    claimed = await console.post("/settings/sso", provider_form(provider, "acme.example"))
    assert claimed.status_code == 200, errors_in(claimed.text)
    record = RECORD.search(claimed.text)
    assert record is not None and record.group(0) != squatter_record.group(0)
    dns.publish("acme.example", record.group(0))
    assert "Domain verified" in (await verify(console, "acme.example")).text
    await console.post("/logout", {})

    await console.login(squatter.email)
    dns.publish("acme.example", squatter_record.group(0))  # even with its own record published
    late = await verify(console, "acme.example")
    assert late.status_code == 400
    assert errors_in(late.text) == ["Acme.example signs in to another organization already"]
    await console.post("/settings/sso", provider_form(provider, "b.example"))  # its claim dropped
    again = await console.post("/settings/sso", provider_form(provider, "b.example, ACME.example"))
    assert again.status_code == 400
    assert errors_in(again.text) == ["Acme.example signs in to another organization already"]


@pytest.mark.parametrize("domain", ["gmail.com", "GoogleMail.com", "@outlook.com", "proton.me"])
async def test_public_mail_domains_are_refused(
    domain: str, console: Console, owner: User, provider: IdentityProvider
) -> None:
    """Review finding 11: gmail.com and the like cannot be claimed: anyone can have an address there."""
    await console.login(owner.email)
    refused = await console.post("/settings/sso", provider_form(provider, f"acme.example, {domain}"))
    assert refused.status_code == 400
    name = domain.lstrip("@").lower()
    [error] = errors_in(refused.text)
    assert error == f"{name.capitalize()} is a public mail domain: anyone can have an address there"
    assert 'id="e-domains"' in refused.text


async def test_replacing_domains_records_each_domain_that_goes(
    console: Console, owner: User, provider: IdentityProvider, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 11: a domain dropped by saving other domains writes `sso_domain.deleted`, by the
    admin who saved."""
    await console.login(owner.email)
    assert (
        await console.post("/settings/sso", provider_form(provider, "a.example, b.example"))
    ).status_code == 200
    assert (
        await console.post("/settings/sso", provider_form(provider, "b.example, c.example"))
    ).status_code == 200
    async with session_maker() as session:
        entries = (
            await session.scalars(select(AuditEntry).where(AuditEntry.target_type == "sso_domain"))
        ).all()
    recorded = sorted((e.action, e.details["domain"], e.actor) for e in entries)
    assert recorded == [
        ("sso_domain.created", "a.example", owner.email),
        ("sso_domain.created", "b.example", owner.email),
        ("sso_domain.created", "c.example", owner.email),
        ("sso_domain.deleted", "a.example", owner.email),
    ]


async def test_verify_is_limited_per_organization(
    console: Console, owner: User, provider: IdentityProvider, dns: DnsServer
) -> None:
    """Each "Verify" makes the server query the DNS: ten an hour per organization, then 429 with the
    wait beside the domain, and no look-up."""
    await console.login(owner.email)
    saved = await console.post("/settings/sso", provider_form(provider, "acme.example"))
    assert saved.status_code == 200, errors_in(saved.text)
    for _ in range(10):
        assert (await verify(console, "acme.example")).status_code == 400
    asked = len(dns.questions)
    refused = await verify(console, "acme.example")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 3000
    [error] = errors_in(refused.text)
    assert error.startswith("Too many domain checks in this organization. Try again in about")
    assert len(dns.questions) == asked
