"""The MCP tool list_alerts, driven by the official `mcp` client: the same alerts as the REST list, the
status filter, and another organization's project refused."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from tests.alert_counts import stored_alert
from tests.factories import Tenant
from tests.mcp_clients import mcp_client


async def test_list_alerts_answers_what_the_rest_list_does(
    base_url: str, tenant: Tenant, other_tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        session.add(stored_alert(tenant.project.id))
    async with httpx.AsyncClient(base_url=f"{base_url}/api/v1", headers=tenant.read_headers) as rest:
        listed = (await rest.get(f"/projects/{tenant.project_id}/alerts")).json()
    async with mcp_client(base_url, {"X-API-Key": tenant.read_token}) as client:
        result = await client.call_tool("list_alerts", {"project_id": tenant.project_id})
        assert not result.is_error, result.content
        assert result.structured_content == listed
        assert "Helpful on /docs/install fell from 80 % to 30 %" in result.content[0].text
        resolved = await client.call_tool(
            "list_alerts", {"project_id": tenant.project_id, "status": "resolved"}
        )
        assert resolved.structured_content == {"alerts": []}
        foreign = await client.call_tool("list_alerts", {"project_id": other_tenant.project_id})
        assert foreign.is_error
