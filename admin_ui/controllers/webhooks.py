"""Webhooks: the organization's endpoints, each with its recent deliveries. Admins add endpoints (the
signing secret shown once), send test events, disable, enable, delete and retry deliveries; members
read. Everything goes through the services the REST API uses."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import field_error
from admin_ui.rendering import render
from app.db.models import WebhookEndpoint, WebhookFormat
from app.errors import InvalidRequest
from app.webhooks.deliveries import WebhookDeliveries
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.events import EVENT_TYPES
from tenants.scope import OrgScope

RECENT_DELIVERIES = 10
FORMATS = [(WebhookFormat.STANDARD.value, "Standard"), (WebhookFormat.SLACK.value, "Slack")]


async def provide_webhooks(
    request: HTMXRequest, db_session: AsyncSession, org_scope: OrgScope
) -> WebhookEndpoints:
    return WebhookEndpoints(db_session, org_scope, request.app.state.settings)


class WebhooksController(Controller):
    path = "/webhooks"
    include_in_schema = False
    dependencies = {"webhooks": Provide(provide_webhooks)}

    async def _page(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, **context: Any
    ) -> Any:
        endpoints = await webhooks.list()
        recent = {
            endpoint.id: (await WebhookDeliveries(db_session, endpoint).list(limit=RECENT_DELIVERIES))[0]
            for endpoint in endpoints
        }
        context.setdefault("errors", {})
        context.setdefault("values", {"events": [], "format": WebhookFormat.STANDARD.value})
        return render(
            request,
            "webhooks.html",
            fragment="partials/_webhooks.html",
            endpoints=endpoints,
            recent=recent,
            event_types=EVENT_TYPES,
            formats=FORMATS,
            **context,
        )

    @get("/")
    async def list_webhooks(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints
    ) -> Any:
        return await self._page(request, db_session, webhooks)

    @post("/")
    async def create(self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints) -> Any:
        form = await request.form()
        values = {
            "url": str(form.get("url") or ""),
            "description": str(form.get("description") or ""),
            "events": [str(event) for event in form.getall("events")] if "events" in form else [],
            "format": str(form.get("format") or WebhookFormat.STANDARD.value),
        }
        try:
            created = await webhooks.create(**values)
        except InvalidRequest as exc:
            return await self._page(
                request, db_session, webhooks, status_code=400, errors=field_error(exc), values=values
            )
        return await self._page(request, db_session, webhooks, created=created)

    @post("/{webhook_id:uuid}/test")
    async def send_test(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, webhook_id: UUID
    ) -> Any:
        endpoint = await webhooks.get(webhook_id)
        await webhooks.send_test(endpoint)
        return await self._page(
            request, db_session, webhooks, notice=f"Test event queued for {endpoint.url}."
        )

    @post("/{webhook_id:uuid}/enable")
    async def enable(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, webhook_id: UUID
    ) -> Any:
        await webhooks.update(await webhooks.get(webhook_id), {"enabled": True})
        return await self._page(request, db_session, webhooks)

    @post("/{webhook_id:uuid}/disable")
    async def disable(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, webhook_id: UUID
    ) -> Any:
        await webhooks.update(await webhooks.get(webhook_id), {"enabled": False})
        return await self._page(request, db_session, webhooks)

    @post("/{webhook_id:uuid}/delete")
    async def delete(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, webhook_id: UUID
    ) -> Any:
        endpoint: WebhookEndpoint = await webhooks.get(webhook_id)
        await webhooks.delete(endpoint)
        return await self._page(request, db_session, webhooks, notice=f"Deleted the endpoint {endpoint.url}.")

    @post("/{webhook_id:uuid}/deliveries/{delivery_id:uuid}/retry")
    async def retry(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        webhooks: WebhookEndpoints,
        webhook_id: UUID,
        delivery_id: UUID,
    ) -> Any:
        deliveries = WebhookDeliveries(db_session, await webhooks.get(webhook_id))
        await deliveries.retry(await deliveries.get(delivery_id))
        return await self._page(request, db_session, webhooks, notice="The delivery is queued again.")
