"""The console's Alerts tab: the rules form (admins change the rules; a wrong number comes back beside its
field with a 400; members may not), acknowledging as a member, and another organization's tab is 404."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from app.db.transactions import unit_of_work
from tests.alert_counts import stored_alert
from tests.console_helpers import Console, add_user
from tests.factories import Tenant

RULES = {
    "rating_drop_enabled": "on",
    "rating_drop_p_value": "0.005",
    "rating_drop_min_answers": "50",
    "theme_surge_p_value": "0.001",
    "theme_surge_min_items": "5",
    "negative_spike_enabled": "on",
    "negative_spike_p_value": "0.001",
    "negative_spike_min_items": "8",
}


async def test_admins_set_the_rules_and_members_acknowledge(
    console: Console,
    client: AsyncTestClient,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    alert = stored_alert(tenant.project.id)
    async with unit_of_work(session_maker) as session:
        session.add(alert)
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/alerts"
    page = (await console.get(url)).text
    assert "Helpful on /docs/install fell from 80 % to 30 %" in page and "Save rules" in page
    saved = await console.post(f"{url}/rules", RULES, follow_redirects=True)
    assert "Rules saved." in saved.text
    rules = (
        await client.get(f"/api/v1/projects/{tenant.project_id}/alert-rules", headers=tenant.headers)
    ).json()
    assert rules["rating_drop"] == {"enabled": True, "p_value": 0.005, "min_answers": 50}
    assert rules["theme_surge"]["enabled"] is False and rules["negative_spike"]["min_items"] == 8

    wrong = await console.post(f"{url}/rules", {**RULES, "rating_drop_p_value": "0.5"})
    assert wrong.status_code == 400 and "Must be &lt;= 0.2" in wrong.text
    assert 'class="field has-error"' in wrong.text
    not_a_number = await console.post(f"{url}/rules", {**RULES, "theme_surge_min_items": "five"})
    assert not_a_number.status_code == 400 and "Must be a number" in not_a_number.text
    assert (await console.get(f"/projects/{other_tenant.project_id}/alerts")).status_code == 404

    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    assert (await console.post(f"{url}/rules", RULES)).status_code == 403
    acked = await console.post(f"{url}/{alert.id}/status", {"status": "acknowledged"}, follow_redirects=True)
    assert "acknowledged by member@org-a.example" in acked.text
