"""The console's Integrations tab: Stripe and Mintlify set up, synced and removed through the same
services as the API; credentials are never shown back; members see the state but cannot change it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import User
from tests.console_helpers import Console, add_user, errors_in
from tests.factories import Tenant
from tests.fake_mintlify import FakeMintlify, running

SECRET = "whsec_console0123456789abcdef"
API_KEY = "mint_console_key_SECRET"


@pytest.fixture(scope="module")
def served_fake() -> Iterator[FakeMintlify]:
    with running(FakeMintlify(project_id="proj_docs", api_key=API_KEY)) as server:
        yield server


@pytest.fixture
def fake(served_fake: FakeMintlify) -> FakeMintlify:
    """The module's fake, as new: one address for the module, so that the application (its settings
    name the address) is built once per database, not once per test (about 0.4 s of CPU a build)."""
    served_fake.forget()
    return served_fake


@pytest.fixture
def settings(database_url: str, fake: FakeMintlify) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        mintlify_api_url=fake.url,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


def page_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/projects/{tenant.project_id}/integrations{suffix}"


async def test_stripe_is_saved_shows_its_url_and_is_removed(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    page = (await console.get(page_url(tenant))).text
    assert 'aria-current="page">Integrations<' in page and "Save Stripe" in page
    bad = await console.post(page_url(tenant, "/stripe"), {"signing_secret": "sk_live_nope"})
    assert bad.status_code == 400 and errors_in(bad.text)
    saved = await console.post(page_url(tenant, "/stripe"), {"signing_secret": SECRET})
    assert saved.status_code == 200
    match = re.search(r'id="stripe-webhook-url">(http[^<]+)<', saved.text)
    assert match and "/api/v1/integrations/stripe/" in match.group(1)
    assert SECRET not in saved.text and "Remove Stripe" in saved.text
    api = await console.client.get(
        f"/api/v1/projects/{tenant.project_id}/integrations/stripe", headers=tenant.headers
    )
    assert api.json()["webhook_url"] == match.group(1)
    removed = await console.post(page_url(tenant, "/stripe/remove"))
    assert "stripe-webhook-url" not in removed.text and "Remove Stripe" not in removed.text


async def test_mintlify_is_saved_synced_with_its_error_in_words_and_removed(
    console: Console, owner: User, tenant: Tenant, fake: FakeMintlify
) -> None:
    fake.add(3)
    await console.login(owner.email)
    await console.get(page_url(tenant))
    missing = await console.post(
        page_url(tenant, "/mintlify"), {"mintlify_project_id": "proj_docs", "api_key": ""}
    )
    assert missing.status_code == 400 and errors_in(missing.text) == ["Required"]
    wrong = await console.post(
        page_url(tenant, "/mintlify"), {"mintlify_project_id": "proj_docs", "api_key": "mint_wrong"}
    )
    assert wrong.status_code == 200 and "mint_wrong" not in wrong.text
    failed = (await console.post(page_url(tenant, "/mintlify/sync"))).text
    assert "the API key or project id was refused" in failed and "HTTP 401" in failed
    await console.post(
        page_url(tenant, "/mintlify"), {"mintlify_project_id": "proj_docs", "api_key": API_KEY}
    )
    synced = (await console.post(page_url(tenant, "/mintlify/sync"))).text
    assert "Imported 3 new feedback items." in synced and "every hour" in synced
    assert "3 feedback items" in synced and "Not yet" not in synced and API_KEY not in synced
    assert re.search(r"<dt>Last error</dt><dd>None</dd>", synced)
    feedback = (await console.get(f"/projects/{tenant.project_id}/feedback?source=Mintlify")).text
    assert "Comment 2" in feedback
    removed = (await console.post(page_url(tenant, "/mintlify/remove"))).text
    assert "Sync now" not in removed and "Remove Mintlify" not in removed


async def test_members_see_the_state_but_no_forms(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    member = await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login(member.email)
    page = (await console.get(page_url(tenant))).text
    assert "Not connected" in page and "Save Stripe" not in page and "Save Mintlify" not in page
    refused = await console.post(page_url(tenant, "/stripe"), {"signing_secret": SECRET})
    assert refused.status_code == 403


async def test_another_organizations_project_is_refused(
    console: Console, owner: User, other_tenant: Tenant
) -> None:
    await console.login(owner.email)
    assert (await console.get(page_url(other_tenant))).status_code in (403, 404)
    await console.get("/projects")
    assert (
        await console.post(page_url(other_tenant, "/stripe"), {"signing_secret": SECRET})
    ).status_code in (403, 404)
