"""Stripe cancellation feedback: a project's webhook endpoint, and the events it receives.

The endpoint is found by the id in its URL; the event is trusted only once its signature verifies with
that endpoint's signing secret, and stored once per event id.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackSource, StripeIntegration
from app.db.secret_box import SecretBox
from app.errors import InvalidSignature
from app.integrations.cancellations import integration_named, store_cancellation
from app.integrations.integration_rows import IntegrationRows
from app.integrations.stripe_events import cancellation_feedback
from app.integrations.stripe_signature import verify_stripe_signature

RECEIVER_PATH = "/api/v1/integrations/stripe/{integration_id}"
IMPORTER = "Stripe import"
"""Who the feedback history names as the creator of imported items."""


def webhook_url(base_url: str, integration: StripeIntegration) -> str:
    """The address to paste into Stripe's dashboard."""
    return base_url + RECEIVER_PATH.format(integration_id=integration.id)


class StripeIntegrations(IntegrationRows[StripeIntegration]):
    """The Stripe integration of one project; removed, its URL answers 404 from now on."""

    model = StripeIntegration
    name = "Stripe"

    async def enable(self, signing_secret: str, api_key: str | None = None) -> StripeIntegration:
        """Store the secret (and the restricted key, when given: saving without one keeps the saved
        key); an existing integration keeps its id, so the URL in Stripe stays valid."""
        integration = await self.find()
        if integration is None:
            integration = StripeIntegration(project_id=self.project.id, sealed_signing_secret="")
            self.session.add(integration)
        integration.sealed_signing_secret = self.box.seal(signing_secret)
        if api_key is not None:
            integration.sealed_api_key = self.box.seal(api_key)
        await self.session.flush()
        return integration


async def receive_stripe_event(
    session: AsyncSession, box: SecretBox, integration_ref: str, body: bytes, signature: str | None
) -> bool:
    """Verify and store one delivery; True when it created a feedback item."""
    integration = await integration_named(session, StripeIntegration, "Stripe", integration_ref)
    secret = box.open(integration.sealed_signing_secret)
    if secret is None:
        raise InvalidSignature("the signing secret can no longer be read here; save it again in Hearken")
    verify_stripe_signature(body, signature, secret)
    feedback = cancellation_feedback(body)
    if feedback is None:
        return False
    return await store_cancellation(
        session, integration.project_id, FeedbackSource.STRIPE, IMPORTER, feedback
    )
