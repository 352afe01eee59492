"""What the Stripe and Polar receivers share once a delivery's signature is checked: the integration
their URL names, and the cancellation feedback stored as a feedback item once per event."""

from __future__ import annotations

from typing import TypeVar
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackSource, PolarIntegration, Project, StripeIntegration
from app.errors import NotFound
from app.integrations.claims import claim
from app.integrations.stripe_events import CancellationFeedback
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope

Billing = TypeVar("Billing", StripeIntegration, PolarIntegration)


async def integration_named(session: AsyncSession, model: type[Billing], name: str, ref: str) -> Billing:
    """The integration whose id the receiver's URL holds; 404 for any other text."""
    try:
        integration_id = UUID(ref)
    except ValueError:
        integration_id = None
    integration = None if integration_id is None else await session.get(model, integration_id)
    if integration is None:
        raise NotFound(f"no {name} integration with this id")
    return integration


async def store_cancellation(
    session: AsyncSession,
    project_id: UUID,
    source: FeedbackSource,
    importer: str,
    feedback: CancellationFeedback,
) -> bool:
    """The feedback as an item of the project, created by `importer`, unless the event was stored
    before; True when it created one."""
    project = await session.get_one(Project, project_id)
    if not await claim(session, project.id, source, feedback.event_id):
        return False
    await FeedbackItems(session, operator_scope(project.org_id, importer), project).create(
        message=feedback.message,
        source=source,
        submitted_by=feedback.submitted_by,
        metadata=feedback.metadata,
    )
    return True
