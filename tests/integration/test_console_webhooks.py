"""The console's Webhooks page: admins add endpoints (the secret shown once), send test events, disable,
enable, delete and retry; members only read; another organization's endpoints are not found."""

from __future__ import annotations

import asyncio
import re

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from standardwebhooks import Webhook

from app.config import Settings
from app.db.models import User
from app.db.transactions import unit_of_work
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user, errors_in
from tests.factories import Tenant
from tests.receivers import Script, receiver

SECRET = re.compile(r'<code id="new-secret">(whsec_[A-Za-z0-9+/=]+)</code>')


@pytest.fixture
def settings(database_url: str) -> Settings:
    """No automatic retries: a failed attempt fails its delivery at once, and the Retry button decides."""
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        webhook_retry_schedule=(),
        outbox_poll_seconds=0.05,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


async def test_add_test_disable_enable_delete(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    page = (await console.get("/webhooks")).text
    for label in (
        ">Endpoint URL</label>",
        ">Description</label>",
        ">Format</label>",
        ">Add endpoint</button>",
    ):
        assert label in page
    assert 'value="feedback.created"' in page and '<option value="slack">Slack</option>' in page
    with receiver() as hook:
        added = await console.post(
            "/webhooks",
            {"url": hook.url, "description": "CRM <sync>", "events": ["webhook.test", "feedback.created"]},
        )
        match = SECRET.search(added.text)
        assert added.status_code == 200 and match is not None
        secret = match.group(1)
        assert "CRM &lt;sync&gt;" in added.text
        listing = (await console.get("/webhooks")).text
        assert secret not in listing and hook.url in listing and "webhook.test, feedback.created" in listing
        webhook_id = re.search(r"/webhooks/([0-9a-f-]{36})/test", listing)
        assert webhook_id is not None
        base = f"/webhooks/{webhook_id.group(1)}"

        tested = await console.htmx_post(f"{base}/test")
        assert tested.status_code == 200 and "Test event queued" in tested.text
        (request,) = await hook.wait_for(1)
        assert Webhook(secret).verify(request.body, request.headers)["type"] == "webhook.test"
        for _ in range(100):
            listing = (await console.get("/webhooks")).text
            if "succeeded" in listing:
                break
            await asyncio.sleep(0.05)
        assert re.search(r"<code>webhook.test</code>.*?succeeded.*?<td>1</td>\s*<td>204</td>", listing, re.S)

        disabled = await console.htmx_post(f"{base}/disable")
        assert "disabled" in disabled.text and ">Enable</button>" in disabled.text
        enabled = await console.htmx_post(f"{base}/enable")
        assert ">Disable</button>" in enabled.text
        deleted = await console.htmx_post(f"{base}/delete")
        assert deleted.status_code == 200 and "No endpoints yet" in deleted.text


async def test_failed_deliveries_can_be_retried(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    with receiver(Script(statuses=[500, 204])) as hook:
        await console.post("/webhooks", {"url": hook.url})
        listing = (await console.get("/webhooks")).text
        base = re.search(r"/webhooks/([0-9a-f-]{36})/test", listing)
        assert base is not None
        await console.htmx_post(f"/webhooks/{base.group(1)}/test")
        await hook.wait_for(1)
        for _ in range(100):
            listing = (await console.get("/webhooks")).text
            if ">Retry</button>" in listing:
                break
            await asyncio.sleep(0.05)
        retry = re.search(r'action="(/webhooks/[^"]+/retry)"', listing)
        assert retry is not None, listing
        retried = await console.htmx_post(retry.group(1))
        assert "queued again" in retried.text
        await hook.wait_for(2)
        for _ in range(100):
            listing = (await console.get("/webhooks")).text
            if "succeeded" in listing:
                break
            await asyncio.sleep(0.05)
        assert (
            re.search(r"succeeded.*?<td>2</td>\s*<td>204</td>", listing, re.S)
            and ">Retry</button>" not in listing
        )


async def test_members_read_and_cannot_change(
    console: Console,
    tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    member = await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id, "tests")
        issued = await WebhookEndpoints(session, scope, settings).create(url="http://127.0.0.1:9/in")
        await WebhookEndpoints(session, scope, settings).create(url="http://bot:pw1@127.0.0.1:9/h?key=k3y")
    await console.login(member.email)
    page = (await console.get("/webhooks")).text
    assert "http://127.0.0.1:9/in" in page
    assert "http://***:***@127.0.0.1:9/h?key=***" in page  # a member does not learn the credentials
    assert "pw1" not in page and "k3y" not in page
    assert "Add endpoint" not in page and "Send test event" not in page and issued.secret not in page
    assert "Rotate secret" not in page
    for action in ("test", "disable", "delete", "rotate-secret"):
        assert (await console.htmx_post(f"/webhooks/{issued.endpoint.id}/{action}")).status_code == 403
    refused = await console.post("/webhooks", {"url": "http://127.0.0.1:9/other"})
    assert refused.status_code == 403


async def test_bad_urls_show_beside_the_field_and_other_orgs_are_not_found(
    console: Console,
    owner: User,
    other_tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(other_tenant.org_id, "tests")
        theirs = (
            await WebhookEndpoints(session, scope, settings).create(url="http://127.0.0.1:9/theirs")
        ).endpoint
    await console.login(owner.email)
    bad = await console.post("/webhooks", {"url": "ftp://example.org/x", "description": "kept"})
    assert bad.status_code == 400 and errors_in(bad.text) == [
        "Must be an absolute http or https URL with a host"
    ]
    assert 'value="kept"' in bad.text and "No endpoints yet" in bad.text
    assert "theirs" not in (await console.get("/webhooks")).text
    for action in ("test", "disable", "enable", "delete", "rotate-secret"):
        assert (await console.htmx_post(f"/webhooks/{theirs.id}/{action}")).status_code == 404


async def test_rotate_secret_shows_the_new_one_once_and_both_sign_meanwhile(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    with receiver() as hook:
        added = await console.post("/webhooks", {"url": hook.url})
        old = SECRET.search(added.text)
        assert old is not None
        listing = (await console.get("/webhooks")).text
        button = re.search(
            r'<form method="post" action="(/webhooks/[0-9a-f-]{36}/rotate-secret)"[^>]*>\s*'
            r'<input[^>]*>\s*<button type="submit"[^>]*>Rotate secret</button>',
            listing,
        )
        assert button is not None, listing
        rotated = await console.htmx_post(button.group(1))
        new = SECRET.search(rotated.text)
        assert rotated.status_code == 200 and new is not None and new.group(1) != old.group(1)
        assert "New signing secret" in rotated.text and "two signatures" in rotated.text
        assert old.group(1) not in rotated.text
        listing = (await console.get("/webhooks")).text
        assert new.group(1) not in listing and old.group(1) not in listing

        await console.htmx_post(button.group(1).replace("/rotate-secret", "/test"))
        (request,) = await hook.wait_for(1)
        for secret in (new.group(1), old.group(1)):
            assert Webhook(secret).verify(request.body, request.headers)["type"] == "webhook.test"
