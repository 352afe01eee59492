"""Polar cancellation feedback: a project's webhook endpoint, and the events it receives.

The endpoint is found by the id in its URL; the event is trusted only once its signature verifies with
the secret Polar showed for that endpoint, and stored once per event id.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackSource, PolarIntegration
from app.db.secret_box import SecretBox
from app.errors import InvalidSignature
from app.integrations.cancellations import integration_named, store_cancellation
from app.integrations.integration_rows import IntegrationRows
from app.integrations.polar_events import cancellation_feedback
from app.integrations.polar_signature import verify_polar_signature

RECEIVER_PATH = "/api/v1/integrations/polar/{integration_id}"
IMPORTER = "Polar import"
"""Who the feedback history names as the creator of imported items."""


def webhook_url(base_url: str, integration: PolarIntegration) -> str:
    """The address to paste into Polar's dashboard."""
    return base_url + RECEIVER_PATH.format(integration_id=integration.id)


class PolarIntegrations(IntegrationRows[PolarIntegration]):
    """The Polar integration of one project; removed, its URL answers 404 from now on."""

    model = PolarIntegration
    name = "Polar"

    async def enable(self, webhook_secret: str, api_key: str | None) -> PolarIntegration:
        """Store the secret (and the key, when given: saving without one keeps the saved key); an
        existing integration keeps its id, so the URL in Polar stays valid."""
        integration = await self.find()
        if integration is None:
            integration = PolarIntegration(project_id=self.project.id, sealed_webhook_secret="")
            self.session.add(integration)
        integration.sealed_webhook_secret = self.box.seal(webhook_secret)
        if api_key is not None:
            integration.sealed_api_key = self.box.seal(api_key)
        await self.session.flush()
        return integration


async def receive_polar_event(
    session: AsyncSession, box: SecretBox, integration_ref: str, body: bytes, headers: Mapping[str, str]
) -> bool:
    """Verify and store one delivery; True when it created a feedback item."""
    integration = await integration_named(session, PolarIntegration, "Polar", integration_ref)
    secret = box.open(integration.sealed_webhook_secret)
    if secret is None:
        raise InvalidSignature("the webhook secret can no longer be read here; save it again in Hearken")
    webhook_id = verify_polar_signature(body, headers, secret)
    feedback = cancellation_feedback(body, webhook_id)
    if feedback is None:
        return False
    return await store_cancellation(session, integration.project_id, FeedbackSource.POLAR, IMPORTER, feedback)
