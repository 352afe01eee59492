"""The webhook endpoints of the token's organization: create, read, change, delete, send a test
event, read the delivery log and retry a delivery. Another organization's endpoint is not found."""

from __future__ import annotations

import msgspec
from litestar import Controller, delete, get, patch, post
from litestar.di import Provide
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.paging import Limit, Page
from app.db.models import WebhookEndpoint
from app.dependencies import provide
from app.errors import error_responses
from app.schemas.pagination import Pagination
from app.webhooks.deliveries import WebhookDeliveries
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.schemas import (
    AttemptList,
    AttemptOut,
    DeliveryList,
    DeliveryOut,
    SecretRotated,
    WebhookCreateBody,
    WebhookCreated,
    WebhookList,
    WebhookOut,
    WebhookPatchBody,
)


async def provide_webhook(webhook_id: str, webhooks: WebhookEndpoints) -> WebhookEndpoint:
    return await webhooks.get(webhook_id)


async def provide_deliveries(db_session: AsyncSession, webhook: WebhookEndpoint) -> WebhookDeliveries:
    return WebhookDeliveries(db_session, webhook)


ONE = "/{webhook_id:str}"


class WebhookController(Controller):
    path = "/webhooks"
    tags = ["Webhooks"]
    dependencies = {
        "webhooks": provide(WebhookEndpoints),
        "webhook": Provide(provide_webhook),
        "deliveries": Provide(provide_deliveries),
    }

    @get("/", summary="List the organization's webhook endpoints", responses=error_responses(401))
    async def list_webhooks(self, webhooks: WebhookEndpoints) -> WebhookList:
        """Every endpoint of the token's organization, without secrets; a read token sees credentials
        in URLs (user and password, query values, secret path segments) masked as ***."""
        return WebhookList(
            webhooks=[
                WebhookOut.of(endpoint, webhooks.shown_url(endpoint)) for endpoint in await webhooks.list()
            ]
        )

    @post(
        "/",
        summary="Add an endpoint; the answer holds its signing secret, shown only this once",
        responses=error_responses(400, 401, 403, 413, 415),
    )
    async def create_webhook(self, data: WebhookCreateBody, webhooks: WebhookEndpoints) -> WebhookCreated:
        """Events and projects default to all; the URL must be public http or https."""
        issued = await webhooks.create(
            url=data.url,
            events=data.events,
            project_ids=data.project_ids,
            description=data.description,
            format=data.format,
        )
        return WebhookCreated(
            **msgspec.structs.asdict(WebhookOut.of(issued.endpoint, issued.endpoint.url)),
            secret=issued.secret,
        )

    @get(ONE, summary="Get one endpoint", responses=error_responses(400, 401, 404))
    async def get_webhook(self, webhook: WebhookEndpoint, webhooks: WebhookEndpoints) -> WebhookOut:
        """Without its secret; another organization's endpoint is not found."""
        return WebhookOut.of(webhook, webhooks.shown_url(webhook))

    @patch(
        ONE,
        summary="Change url, events, project_ids, description, format or enabled",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_webhook(
        self, data: WebhookPatchBody, webhook: WebhookEndpoint, webhooks: WebhookEndpoints
    ) -> WebhookOut:
        """Only the fields sent change."""
        changes = {k: v for k, v in msgspec.structs.asdict(data).items() if v is not msgspec.UNSET}
        updated = await webhooks.update(webhook, changes)
        return WebhookOut.of(updated, webhooks.shown_url(updated))

    @delete(
        ONE, summary="Delete an endpoint and its delivery log", responses=error_responses(400, 401, 403, 404)
    )
    async def delete_webhook(self, webhook: WebhookEndpoint, webhooks: WebhookEndpoints) -> None:
        """Its deliveries and their queued attempts go with it."""
        await webhooks.delete(webhook)

    @post(
        ONE + "/rotate-secret",
        summary="Replace the signing secret; the answer holds the new one, shown only this once",
        responses=error_responses(400, 401, 403, 404),
    )
    async def rotate_secret(self, webhook: WebhookEndpoint, webhooks: WebhookEndpoints) -> SecretRotated:
        """For 24 hours (until `previous_secret_expires_at`) every request is signed with the new secret
        and with the one it replaced, so receivers can switch without losing an event."""
        issued = await webhooks.rotate_secret(webhook)
        return SecretRotated.of(issued.secret, webhook)

    @post(
        ONE + "/test",
        status_code=202,
        summary="Queue a webhook.test event for this endpoint",
        responses=error_responses(400, 401, 403, 404),
    )
    async def send_test(
        self, webhook: WebhookEndpoint, webhooks: WebhookEndpoints, deliveries: WebhookDeliveries
    ) -> DeliveryOut:
        """Answered 202 with the queued delivery; it is attempted in the background."""
        delivery = await webhooks.send_test(webhook)
        return DeliveryOut.of(await deliveries.get(delivery.id))

    @get(
        ONE + "/deliveries",
        summary="The endpoint's deliveries, newest first",
        responses=error_responses(400, 401, 404),
    )
    async def list_deliveries(
        self, deliveries: WebhookDeliveries, page: Page = 1, limit: Limit = 20
    ) -> DeliveryList:
        """Each delivery with its state and its attempts so far."""
        states, total = await deliveries.list(page=page, limit=limit)
        return DeliveryList(
            deliveries=[DeliveryOut.of(state) for state in states],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        ONE + "/deliveries/{delivery_id:str}/attempts",
        summary="Every attempt of one delivery, oldest first",
        responses=error_responses(400, 401, 404),
    )
    async def list_attempts(self, delivery_id: str, deliveries: WebhookDeliveries) -> AttemptList:
        """What each attempt got back, oldest first."""
        attempts = await deliveries.attempts(await deliveries.get(delivery_id))
        return AttemptList(attempts=[AttemptOut.of(attempt) for attempt in attempts])

    @post(
        ONE + "/deliveries/{delivery_id:str}/retry",
        status_code=202,
        summary="Attempt a delivery again now",
        responses=error_responses(400, 401, 403, 404),
    )
    async def retry_delivery(self, delivery_id: str, deliveries: WebhookDeliveries) -> DeliveryOut:
        """Answered 202 with the delivery, queued for an attempt now."""
        state = await deliveries.retry(await deliveries.get(delivery_id))
        return DeliveryOut.of(state)
