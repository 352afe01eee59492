"""Which endpoints of an organization want which events: read once per change that records events, or
known already. The public endpoints know them from their project cache (filled with the project, and
dropped with it whenever an endpoint changes, through the cache generation), so a warm widget
submission reads nothing from the database."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import WebhookEndpoint

KNOWN = "hearken_webhook_subscriptions"
"""Session.info key: {org_id: subscriptions} already known for this session's transaction."""


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint_id: UUID
    events: frozenset[str]
    """Empty: every event."""
    project_ids: frozenset[str]
    """Empty: every project."""

    def wants(self, event_type: str, project_id: UUID | None) -> bool:
        if self.events and event_type not in self.events:
            return False
        return not self.project_ids or str(project_id) in self.project_ids


async def load_subscriptions(session: AsyncSession, org_id: UUID) -> tuple[Subscription, ...]:
    """The organization's enabled endpoints."""
    rows = await session.execute(
        select(WebhookEndpoint.id, WebhookEndpoint.events, WebhookEndpoint.project_ids).where(
            WebhookEndpoint.org_id == org_id, WebhookEndpoint.enabled.is_(True)
        )
    )
    return tuple(
        Subscription(endpoint_id, frozenset(events), frozenset(project_ids))
        for endpoint_id, events, project_ids in rows.tuples()
    )


def remember_subscriptions(session: AsyncSession, org_id: UUID, known: tuple[Subscription, ...]) -> None:
    session.info.setdefault(KNOWN, {})[org_id] = known


async def subscriptions(session: AsyncSession, org_id: UUID) -> tuple[Subscription, ...]:
    known: dict[UUID, tuple[Subscription, ...]] = session.info.get(KNOWN, {})
    if org_id in known:
        return known[org_id]
    return await load_subscriptions(session, org_id)
