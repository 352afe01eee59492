"""No tenant can starve another through the shared outbox: an organization has at most 20 webhook
endpoints, its deliveries in flight are bounded, and mail has its own share of the dispatcher, so with
every endpoint of one organization pointing at a receiver that never answers, another organization's
password-reset mail still leaves at once."""

from __future__ import annotations

import time

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.transactions import unit_of_work
from app.services.password_reset_mail import mail_password_reset
from app.webhooks.delivery import PER_ORGANIZATION
from app.webhooks.endpoints import MAX_ENDPOINTS
from tests.console_helpers import add_user
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings
from tests.receivers import silent_receiver

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it


async def test_a_tenants_silent_endpoints_do_not_hold_up_another_tenants_mail(
    client: AsyncTestClient,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    other_tenant: Tenant,
    inbox: Inbox,
) -> None:
    other_owner = await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    with silent_receiver() as silent:
        for _ in range(MAX_ENDPOINTS):
            made = await client.post("/api/v1/webhooks", json={"url": silent.url}, headers=tenant.headers)
            assert made.status_code == 201, made.text
        one_more = await client.post("/api/v1/webhooks", json={"url": silent.url}, headers=tenant.headers)
        assert one_more.status_code == 400
        assert one_more.json()["details"] == (
            "url: an organization may have at most 20 webhook endpoints; delete one first"
        )
        for number in range(3):  # 60 deliveries, every one to hang for its 10 s
            body = {"message": f"Item {number}"}
            feedback = f"/api/v1/projects/{tenant.project_id}/feedback"
            assert (await client.post(feedback, json=body, headers=tenant.headers)).status_code == 201
        await silent.wait_for(PER_ORGANIZATION)

        async with unit_of_work(session_maker) as session:
            await mail_password_reset(session, settings, other_owner.email)
        started = time.monotonic()  # queued: committed
        (mail,) = await inbox.wait_for(1, seconds=2)
        waited = time.monotonic() - started
        assert mail["To"] == "owner@org-b.example" and waited < 2
        assert silent.accepted == PER_ORGANIZATION  # the others wait their turn, holding no slot
