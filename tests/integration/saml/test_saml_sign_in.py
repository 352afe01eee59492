"""Single sign-on over SAML 2.0 against a real identity provider (pysaml2's IdP side, run on 127.0.0.1
once for the module: tests/saml_identity_provider.py): the service provider's metadata, the settings,
the whole sign-in (first sign-in creating a member, "Require SSO"), and every response that must be
refused: signature broken, unsigned, signed by a key the metadata never named, another audience,
recipient or destination, expired, answering another request, used a second time, and XML bombs and
external entities. On both databases."""

from __future__ import annotations

import base64
import dataclasses
import html
import re
from collections.abc import Iterator

import pytest
from httpx import Response
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AuditEntry, Membership, SamlAssertion, SsoConnection, User
from app.db.transactions import unit_of_work
from app.integrations.saml_metadata import fetched_metadata
from app.integrations.saml_service_provider import SamlFailure, ServiceProvider, service_provider_metadata
from app.main import create_app
from tenants.scope import operator_scope
from tenants.single_sign_on import SamlSettings, SsoConnections
from tests.console_helpers import Console, add_user, use_memory_stores
from tests.factories import Tenant
from tests.saml_identity_provider import FAULTS, Posted, SamlIdentityProvider, running_saml_provider
from tests.sso_console import errors_in, provider_url

BASE_URL = "http://127.0.0.1:8000"  # the tests' settings' base URL
DOMAIN = "acme.example"
BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1">&lol3;</samlp:Response>"""
XXE = """<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1">&xxe;</samlp:Response>"""


@pytest.fixture(scope="module")
def idp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SamlIdentityProvider]:
    with running_saml_provider(tmp_path_factory.mktemp("saml-idp")) as started:
        yield started


def sp_urls(tenant: Tenant) -> tuple[str, str]:
    base = f"{BASE_URL}/sso/saml/{tenant.org_id}"
    return f"{base}/metadata", f"{base}/acs"


async def configure(
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    idp: SamlIdentityProvider,
    *,
    require_sso: bool = False,
) -> None:
    """The identity provider saved for the organization, which it trusts in turn, and the domain proven."""
    async with unit_of_work(session_maker) as session:
        connections = SsoConnections(session, operator_scope(tenant.org_id), settings)
        wanted = SamlSettings(idp.metadata_url, idp.metadata(), None, (DOMAIN,), require_sso)
        await connections.save_saml(wanted)
        [claim] = await connections.claims()
        await connections.prove(DOMAIN, [claim.record])
        await session.commit()
    idp.trust(service_provider_metadata(ServiceProvider(*sp_urls(tenant))))


async def started(console: Console, email: str) -> str:
    """ "Sign in with SSO" with the address: the URL the browser is sent on to."""
    await console.get("/login/sso")
    return provider_url(await console.post("/login/sso", {"email": email}))


async def post_to_acs(console: Console, posted: Posted) -> Response:
    """The identity provider's page posting the response (a cross-site post: no CSRF token)."""
    return await console.client.post(
        posted.acs_url.removeprefix(BASE_URL), data=posted.form(), follow_redirects=False
    )


async def sign_in_through(
    console: Console, idp: SamlIdentityProvider, email: str, fault: str | None = None
) -> Response:
    posted = idp.answer(await started(console, email), email, fault)
    acs = await post_to_acs(console, posted)
    if acs.status_code != 303:
        return acs
    return await console.get(acs.headers["location"], follow_redirects=False)


def refusal(page: Response) -> str:
    found = re.search(r'role="alert">([^<]+)<', page.text)
    return html.unescape(found.group(1)) if found else ""


async def signed_in_as(console: Console) -> str | None:
    page = await console.get("/projects", follow_redirects=False)
    return page.text if page.status_code == 200 else None


async def test_service_provider_metadata_is_served_before_any_configuration(
    console: Console, tenant: Tenant
) -> None:
    entity_id, acs_url = sp_urls(tenant)
    answer = await console.client.get(f"/sso/saml/{tenant.org_id}/metadata")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/samlmetadata+xml")
    assert f'entityID="{entity_id}"' in answer.text
    assert f'Location="{acs_url}"' in answer.text
    assert "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" in answer.text
    assert (await console.client.get("/sso/saml/not-an-id/metadata")).status_code in (400, 404)


async def test_settings_save_saml_from_the_metadata_url_and_refuse_bad_metadata(
    console: Console,
    owner: User,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
) -> None:
    await console.login(owner.email)
    page = (await console.get("/settings/sso")).text
    entity_id, acs_url = sp_urls(tenant)
    assert entity_id in page and acs_url in page and "SAML 2.0" in page and "OpenID Connect" in page
    form = {"protocol": "saml", "saml_metadata_url": idp.metadata_url, "domains": DOMAIN}
    saved = await console.post("/settings/sso", form)
    assert saved.status_code == 200, errors_in(saved.text)
    assert "Single sign-on saved." in saved.text and idp.metadata_url in saved.text
    async with unit_of_work(session_maker) as session:
        connection = await session.scalar(select(SsoConnection).where(SsoConnection.org_id == tenant.org_id))
        assert connection is not None and connection.protocol == "saml"
        assert connection.issuer == idp.metadata_url and connection.saml_metadata == idp.metadata()
        entries = (await session.scalars(select(AuditEntry).where(AuditEntry.target_type == "sso"))).all()
        assert any(entry.details.get("protocol") for entry in entries)
        assert all("X509Certificate" not in str(entry.details) for entry in entries)
    for metadata, error in (
        ("<EntityDescriptor", "the metadata is not well-formed XML"),
        (BOMB, "the metadata holds a DTD or entity declarations, which are refused"),
        (XXE, "the metadata holds a DTD or entity declarations, which are refused"),
        ("<a/>", "the metadata must describe exactly one identity provider (IDPSSODescriptor)"),
    ):
        refused = await console.post(
            "/settings/sso", {**form, "saml_metadata_url": "", "saml_metadata": metadata}
        )
        assert refused.status_code == 400
        assert errors_in(refused.text) == [f"Cannot be used: {error}"]
    unreachable = {**form, "saml_metadata_url": "http://127.0.0.1:9/metadata"}
    refused = await console.post("/settings/sso", unreachable)
    assert refused.status_code == 400
    assert errors_in(refused.text) == ["Cannot be used: the metadata URL cannot be reached (ConnectError)"]


async def test_production_fetches_metadata_from_public_addresses_only(settings: Settings) -> None:
    production = dataclasses.replace(settings, env="production")
    with pytest.raises(SamlFailure, match="must be an absolute https URL"):
        await fetched_metadata("http://idp.example/metadata", production)
    with pytest.raises(SamlFailure, match="Hearken fetches metadata only from public addresses"):
        await fetched_metadata("https://127.0.0.1/metadata", production)


async def test_first_sign_in_creates_a_member_and_an_assertion_signed_alone_is_enough(
    console: Console,
    owner: User,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, idp)
    landed = await sign_in_through(console, idp, "pat@acme.example")
    assert landed.status_code == 303 and landed.headers["location"] == "/projects", refusal(landed)
    assert "pat@acme.example · member" in (await signed_in_as(console) or "")
    async with unit_of_work(session_maker) as session:
        user = await session.scalar(select(User).where(User.email == "pat@acme.example"))
        assert user is not None
        membership = await session.scalar(select(Membership).where(Membership.user_id == user.id))
        assert membership is not None and membership.org_id == tenant.org_id and membership.role == "member"
        assert await session.scalar(select(SamlAssertion.org_id)) == tenant.org_id
    await console.post("/logout", {})
    again = await sign_in_through(console, idp, "pat@acme.example", "assertion_signed")
    assert again.status_code == 303, refusal(again)


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("tampered", "the signature does not verify against the identity provider's certificate"),
        ("unsigned", "the response and its assertion are not signed by the identity provider"),
        ("foreign_key", "the signature does not verify against the identity provider's certificate"),
        ("audience", "the assertion is meant for another service provider (audience)"),
        ("recipient", "the assertion is meant for another recipient"),
        ("destination", "the response is addressed to another destination"),
        ("expired", "the assertion has expired or is not valid yet"),
        ("in_response_to", "the response does not answer a sign-in started here (InResponseTo)"),
    ],
)
async def test_a_faulty_response_signs_nobody_in(
    console: Console,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    fault: str,
    message: str,
) -> None:
    assert fault in FAULTS
    await configure(session_maker, settings, tenant, idp)
    refused = await sign_in_through(console, idp, "pat@acme.example", fault)
    assert refused.status_code == 400
    assert refusal(refused) == f"Single sign-on failed: {message}."
    assert await signed_in_as(console) is None
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(User).where(User.email == "pat@acme.example")) is None


async def test_an_assertion_is_used_once(
    console: Console,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    """Another server process (another node) knows it was used: the record is in the database."""
    await configure(session_maker, settings, tenant, idp)
    posted = idp.answer(await started(console, "pat@acme.example"), "pat@acme.example")
    assert (await post_to_acs(console, posted)).status_code == 303
    replayed = await post_to_acs(console, posted)
    assert replayed.status_code == 400
    assert refusal(replayed) == "Single sign-on failed: this assertion was used already."
    other_node = create_app(settings)
    use_memory_stores(other_node)
    async with AsyncTestClient(app=other_node) as elsewhere:
        again = await post_to_acs(Console(elsewhere), posted)
    assert again.status_code == 400
    assert refusal(again) == "Single sign-on failed: this assertion was used already."


async def test_a_response_finishes_only_in_the_browser_that_started_the_sign_in(
    console: Console,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    app: object,
) -> None:
    """An attacker's own valid response posted from a victim's browser signs the victim in as nobody."""
    await configure(session_maker, settings, tenant, idp)
    posted = idp.answer(await started(console, "pat@acme.example"), "pat@acme.example")
    acs = await post_to_acs(console, posted)
    console.client.cookies.clear()
    elsewhere = await console.get(acs.headers["location"], follow_redirects=False)
    assert elsewhere.status_code == 400
    assert errors_in(elsewhere.text) == ["This sign-in is not valid any more. Start again."]


@pytest.mark.parametrize(("xml", "name"), [(BOMB, "entity expansion"), (XXE, "external entity")])
async def test_xml_bombs_external_entities_and_oversized_responses_are_refused(
    console: Console,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    xml: str,
    name: str,
) -> None:
    await configure(session_maker, settings, tenant, idp)
    acs = f"/sso/saml/{tenant.org_id}/acs"
    hostile = await console.client.post(acs, data={"SAMLResponse": base64.b64encode(xml.encode()).decode()})
    assert hostile.status_code == 400, name
    assert refusal(hostile) == (
        "Single sign-on failed: the response holds a DTD or entity declarations, which are refused."
    )
    assert "root:" not in hostile.text
    garbled = await console.client.post(acs, data={"SAMLResponse": base64.b64encode(b"<not xml").decode()})
    assert refusal(garbled) == "Single sign-on failed: the response is not well-formed XML."
    huge = await console.client.post(acs, data={"SAMLResponse": "A" * 400_000})
    assert huge.status_code == 413


async def test_require_sso_refuses_a_members_password_and_saml_signs_them_in(
    console: Console,
    owner: User,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    member = await add_user(session_maker, tenant.org_id, "member@acme.example", "member")
    await configure(session_maker, settings, tenant, idp, require_sso=True)
    refused = await console.login(member.email)
    assert refused.status_code == 403
    assert await signed_in_as(console) is None
    assert (await sign_in_through(console, idp, member.email)).status_code == 303
    assert "member@acme.example · member" in (await signed_in_as(console) or "")
    await console.post("/logout", {})
    assert (await console.login(owner.email)).status_code == 303


async def test_the_sign_in_counts_for_the_providers_organization_only(
    console: Console,
    idp: SamlIdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    """A response for organization A posted to organization B's service is refused: B never asked."""
    await configure(session_maker, settings, tenant, idp)
    posted = idp.answer(await started(console, "pat@acme.example"), "pat@acme.example")
    async with unit_of_work(session_maker) as session:
        connections = SsoConnections(session, operator_scope(other_tenant.org_id), settings)
        await connections.save_saml(
            SamlSettings(idp.metadata_url, idp.metadata(), None, ("b.example",), False)
        )
        await session.commit()
    elsewhere = dataclasses.replace(posted, acs_url=sp_urls(other_tenant)[1])
    refused = await post_to_acs(console, elsewhere)
    assert refused.status_code == 400
    assert refusal(refused).startswith("Single sign-on failed: ")
