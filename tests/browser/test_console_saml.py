"""SAML single sign-on in Chromium: an owner chooses SAML 2.0 on the Single sign-on page, gives the
identity provider's metadata URL and proves the domain (its TXT record answered by tests/dns_server.py);
then a colleague without an account uses "Sign in with SSO", signs in at the real SAML identity provider
(pysaml2's IdP side, tests/saml_identity_provider.py), whose page posts the signed response back, and
lands in the console as a member. The provider is reached as `localhost` and the console as 127.0.0.1:
two sites, so its post carries no console cookie, as with a real provider. Pages are checked with
axe-core and photographed under test-artifacts/console/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import databases
from tests.browser.accessibility import axe_violations
from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.harness import LiveServer
from tests.browser.test_console_browser import sign_up
from tests.dns_server import DnsServer, running_dns_server
from tests.local_http import local_http
from tests.saml_identity_provider import SamlIdentityProvider, running_saml_provider

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser
DOMAIN = "saml-browser.example"


@pytest.fixture(scope="module")
def dns() -> Iterator[DnsServer]:
    with running_dns_server() as started:
        yield started


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path, dns: DnsServer
) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("saml-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    host, port = dns.address
    server.start({"HEARKEN_DNS_RESOLVER": f"{host}:{port}"})
    yield server
    server.stop()


@pytest.fixture(scope="module")
def idp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SamlIdentityProvider]:
    with running_saml_provider(tmp_path_factory.mktemp("saml-idp"), host="localhost") as started:
        yield started


def test_an_owner_sets_up_saml_and_a_colleague_signs_in_through_the_identity_provider(
    page: Page, console_server: str, idp: SamlIdentityProvider, dns: DnsServer
) -> None:
    sign_up(page, console_server, org="SAML Co")
    page.get_by_role("link", name="Single sign-on").click()
    page.get_by_role("radio", name="SAML 2.0").check()
    entity_id = page.locator("#sp-entity-id").inner_text()
    assert re.fullmatch(rf"{re.escape(console_server)}/sso/saml/[0-9a-f-]{{36}}/metadata", entity_id)
    expect(page.locator("#sp-acs-url")).to_have_text(entity_id.removesuffix("metadata") + "acs")
    page.get_by_label("Identity provider metadata URL").fill(
        idp.metadata_url.replace("localhost", "127.0.0.1")
    )
    page.get_by_label("Allowed email domains").fill(DOMAIN)
    assert axe_violations(page) == []
    screenshot(page, "45-saml-settings")
    page.get_by_role("button", name="Save single sign-on").click()
    expect(page.get_by_role("status")).to_have_text(
        "Single sign-on saved. A new domain signs nobody in until its DNS record is verified."
    )
    expect(page.get_by_role("radio", name="SAML 2.0")).to_be_checked()
    dns.publish(DOMAIN, page.locator("#record-1").inner_text())
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_text("proven", exact=True)).to_be_visible()
    screenshot(page, "46-saml-saved")
    # the identity provider is given Hearken's metadata, as an admin registers it there
    idp.trust(local_http.get(entity_id).text)

    page.get_by_role("button", name="Log out").click()
    page.get_by_role("link", name="Sign in with SSO").click()
    page.get_by_label("Email").fill(f"sam@{DOMAIN}")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Test identity provider")).to_be_visible()
    assert page.url.startswith(idp.base_url + "/sso?SAMLRequest=")
    page.get_by_label("Email").fill(f"sam@{DOMAIN}")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    expect(page.get_by_text(f"sam@{DOMAIN} · member")).to_be_visible()
    expect(page.get_by_text("SAML Co")).to_be_visible()
    screenshot(page, "47-signed-in-through-saml")

    # an expired response is refused on a console page
    page.get_by_role("button", name="Log out").click()
    idp.next_fault = "expired"
    page.get_by_role("link", name="Sign in with SSO").click()
    page.get_by_label("Email").fill(f"sam@{DOMAIN}")
    page.get_by_role("button", name="Continue").click()
    page.get_by_label("Email").fill(f"sam@{DOMAIN}")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Single sign-on failed: the assertion has expired or is not valid yet."
    )
    assert axe_violations(page) == []
    screenshot(page, "48-saml-refused")
