"""Deliveries that must go: those carrying what an erasure or a retention deleted, and every delivery
older than KEEP_DELIVERIES; and secrets replaced by a rotation, once their overlap has ended.

A delivery's body is a copy of the feedback item or contact message it is about, so it goes with them:
deleting its outbox job deletes the delivery and its attempts (foreign keys with ON DELETE CASCADE), so
neither the log nor "Retry" can show or send it again. A body names its subject by `"id"` and its
project by `"project_id"` (the REST API's form, written by msgspec without spaces); the search is a text
search within the organization's endpoints, as erasures are rare and retention runs hourly at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import JobStatus, OutboxJob, WebhookDelivery, WebhookEndpoint
from app.outbox.queue import delete_jobs
from app.webhooks.events import WEBHOOK_JOB

KEEP_DELIVERIES = timedelta(days=30)
"""How long a finished delivery and its attempts stay in the log."""
IDS_PER_STATEMENT = 200


def _of_org(org_id: UUID) -> ColumnElement[bool]:
    endpoints = select(WebhookEndpoint.id).where(WebhookEndpoint.org_id == org_id)
    return WebhookDelivery.endpoint_id.in_(endpoints.scalar_subquery())


async def _delete_deliveries(session: AsyncSession, where: Sequence[ColumnElement[bool]]) -> int:
    return await delete_jobs(session, select(WebhookDelivery.id).where(*where))


async def forget_deliveries_about(session: AsyncSession, org_id: UUID, subject_ids: Sequence[UUID]) -> int:
    """Delete the organization's deliveries whose event is about one of these items or messages."""
    removed = 0
    for start in range(0, len(subject_ids), IDS_PER_STATEMENT):
        chunk = subject_ids[start : start + IDS_PER_STATEMENT]
        about = or_(
            *(WebhookDelivery.body.contains(f'"id":"{subject}"', autoescape=True) for subject in chunk)
        )
        removed += await _delete_deliveries(session, [_of_org(org_id), about])
    return removed


async def forget_project_deliveries_before(
    session: AsyncSession, org_id: UUID, project_id: UUID, cutoff: datetime
) -> int:
    """Delete the deliveries of the project's events made before `cutoff` (its retention)."""
    return await _delete_deliveries(
        session,
        [
            _of_org(org_id),
            WebhookDelivery.created_at < cutoff,
            WebhookDelivery.body.contains(f'"project_id":"{project_id}"', autoescape=True),
        ],
    )


async def prune_deliveries(session: AsyncSession, now: datetime, *, limit: int) -> int:
    """Delete up to `limit` finished deliveries older than KEEP_DELIVERIES, oldest first."""
    oldest = (
        select(OutboxJob.id)
        .where(
            OutboxJob.kind == WEBHOOK_JOB,
            OutboxJob.status != JobStatus.PENDING,
            OutboxJob.created_at < now - KEEP_DELIVERIES,
        )
        .order_by(OutboxJob.created_at)
        .limit(limit)
    )
    return await delete_jobs(session, oldest)


async def forget_replaced_secrets(session: AsyncSession, now: datetime) -> int:
    """Drop the secrets replaced by a rotation whose overlap has ended: they sign nothing any more, so
    they are not kept, even sealed. Returns how many endpoints had one."""
    result = await session.execute(
        update(WebhookEndpoint)
        .where(WebhookEndpoint.previous_secret_expires_at <= now)
        .values(sealed_previous_secret=None, previous_secret_expires_at=None)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
