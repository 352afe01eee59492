"""The delivery log of one endpoint: each delivery with its state, its attempts, and a retry."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import ScalarSelect, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.ids import parse_uuid
from app.db.models import OutboxJob, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from app.db.paging import one_page
from app.errors import NotFound
from app.outbox import retry_now


@dataclass(frozen=True, slots=True)
class DeliveryState:
    delivery: WebhookDelivery
    job: OutboxJob
    """Status, attempts, next attempt and last error live on the delivery's outbox job."""
    last_status_code: int | None


def _last_status_code() -> ScalarSelect[int | None]:
    return (
        select(WebhookAttempt.status_code)
        .where(WebhookAttempt.delivery_id == WebhookDelivery.id)
        .order_by(WebhookAttempt.created_at.desc(), WebhookAttempt.id.desc())
        .limit(1)
        .scalar_subquery()
    )


class WebhookDeliveries:
    def __init__(self, session: AsyncSession, endpoint: WebhookEndpoint) -> None:
        self.session = session
        self.endpoint = endpoint

    async def list(self, *, page: int = 1, limit: int = 20) -> tuple[list[DeliveryState], int]:
        """One page, newest first, and the total."""
        total = await self.session.scalar(
            select(func.count())
            .select_from(WebhookDelivery)
            .where(WebhookDelivery.endpoint_id == self.endpoint.id)
        )
        statement = (
            select(WebhookDelivery, OutboxJob, _last_status_code())
            .join(OutboxJob, OutboxJob.id == WebhookDelivery.id)
            .where(WebhookDelivery.endpoint_id == self.endpoint.id)
        )
        rows = await self.session.execute(one_page(statement, WebhookDelivery, page, limit))
        return [DeliveryState(*row) for row in rows.tuples()], total or 0

    async def get(self, delivery_id: str | UUID) -> DeliveryState:
        ident = delivery_id if isinstance(delivery_id, UUID) else parse_uuid(delivery_id, "delivery_id")
        row = (
            await self.session.execute(
                select(WebhookDelivery, OutboxJob, _last_status_code())
                .join(OutboxJob, OutboxJob.id == WebhookDelivery.id)
                .where(WebhookDelivery.id == ident, WebhookDelivery.endpoint_id == self.endpoint.id)
            )
        ).first()
        if row is None:
            raise NotFound("no delivery with this id for this webhook")
        return DeliveryState(*row.tuple())

    async def attempts(self, state: DeliveryState) -> list[WebhookAttempt]:
        """Every attempt, oldest first."""
        rows = await self.session.scalars(
            select(WebhookAttempt)
            .where(WebhookAttempt.delivery_id == state.delivery.id)
            .order_by(WebhookAttempt.created_at, WebhookAttempt.id)
        )
        return list(rows)

    async def retry(self, state: DeliveryState) -> DeliveryState:
        """Attempt again now: a failed or succeeded delivery once more, a waiting one without its wait."""
        retry_now(self.session, state.job)
        await self.session.flush()
        return state
