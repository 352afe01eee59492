"""Webhooks: the organization's endpoints, each with its recent deliveries. Admins add endpoints (the
signing secret shown once), rotate their secrets (the new one shown once), send test events, disable,
enable, delete and retry deliveries; members
read, with the credentials inside URLs masked. Everything goes through the services the REST API uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import Form, field_error
from admin_ui.rendering import render
from app.db.models import WebhookEndpoint, WebhookFormat
from app.dependencies import provide
from app.errors import InvalidRequest
from app.webhooks.deliveries import WebhookDeliveries
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.events import EVENT_TYPES

RECENT_DELIVERIES = 10
FORMATS = [(WebhookFormat.STANDARD.value, "Standard"), (WebhookFormat.SLACK.value, "Slack")]


@dataclass
class WebhookForm:
    """A new endpoint: one `events` value per ticked event."""

    url: str = ""
    description: str = ""
    events: str | list[str] = field(default_factory=list)
    format: str = ""


class WebhooksController(Controller):
    path = "/webhooks"
    include_in_schema = False
    dependencies = {"webhooks": provide(WebhookEndpoints)}

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
            urls={endpoint.id: webhooks.shown_url(endpoint) for endpoint in endpoints},
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
    async def create(
        self,
        request: HTMXRequest,
        db_session: AsyncSession,
        webhooks: WebhookEndpoints,
        data: Form[WebhookForm],
    ) -> Any:
        values = {
            "url": data.url,
            "description": data.description,
            "events": [data.events] if isinstance(data.events, str) else data.events,
            "format": data.format or WebhookFormat.STANDARD.value,
        }
        try:
            issued = await webhooks.create(**values)
        except InvalidRequest as exc:
            return await self._page(
                request, db_session, webhooks, status_code=400, errors=field_error(exc), values=values
            )
        return await self._page(request, db_session, webhooks, issued=issued)

    @post("/{webhook_id:uuid}/rotate-secret")
    async def rotate_secret(
        self, request: HTMXRequest, db_session: AsyncSession, webhooks: WebhookEndpoints, webhook_id: UUID
    ) -> Any:
        issued = await webhooks.rotate_secret(await webhooks.get(webhook_id))
        return await self._page(request, db_session, webhooks, issued=issued, rotated=True)

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
