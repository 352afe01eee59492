"""Thank with a discount: the team's coupon applied to the subscription of the customer who cancelled.

The reward row is written and flushed before the platform is called: its unique key makes a second
attempt on the same item (at once, or racing on another machine) wait and then fail with 409 instead of
calling the platform again. A refused call raises, and the request's transaction, row included, rolls
back: nothing is recorded as applied. Applied, it is audited and the `feedback.rewarded` event queued
in the same transaction.
"""

from __future__ import annotations

import re
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.actor import current_actor
from app.db.audit_trail import audit
from app.db.models import (
    FeedbackItem,
    FeedbackReward,
    FeedbackSource,
    PolarIntegration,
    Project,
    StripeIntegration,
)
from app.db.models.billing_items import subscription_of
from app.db.secret_box import secret_box
from app.errors import Conflict, InvalidRequest, UpstreamError
from app.integrations.billing_calls import BillingError
from app.integrations.polar_api import apply_polar_discount
from app.integrations.stripe_api import apply_stripe_coupon
from app.services.feedback_items import FeedbackItems
from app.services.projects import ProjectScoped
from app.timestamps import utc_now
from app.webhooks.events import feedback_rewarded, record_events
from tenants.scope import OrgScope

STRIPE_COUPON = re.compile(r"[A-Za-z0-9_-]{1,200}")
"""Stripe coupon ids: its generated ones and the ids teams choose."""


class Rewards(ProjectScoped):
    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.box = secret_box(settings.secret_key)
        self.settings = settings

    async def of(self, item: FeedbackItem) -> FeedbackReward | None:
        reward: FeedbackReward | None = await self.session.scalar(
            select(FeedbackReward).where(FeedbackReward.feedback_id == item.id)
        )
        return reward

    async def thank(self, feedback_id: UUID, coupon: str | None) -> FeedbackReward:
        """Apply `coupon` to the subscription the item was about; 400 when the item is not from a billing
        platform or the integration holds no API key, 409 when the item was thanked already, 502 with the
        platform's words when it refuses."""
        item = await FeedbackItems(self.session, self.scope, self.project).get(feedback_id)
        subscription = subscription_of(item)
        if subscription is None:
            raise InvalidRequest(
                "feedback_id",
                "a discount thanks a customer who cancelled: this item is not from Stripe or Polar",
            )
        if coupon is None or not coupon.strip():
            raise InvalidRequest("coupon", "required: the coupon (Stripe) or discount id (Polar) to apply")
        coupon = coupon.strip()
        api_key = await self._api_key(item.source, coupon)
        reward = await self._claim(item, coupon)
        try:
            if item.source == FeedbackSource.STRIPE:
                await apply_stripe_coupon(self.settings, api_key, subscription, coupon)
            else:
                await apply_polar_discount(self.settings, api_key, subscription, coupon)
        except BillingError as error:
            await self.session.delete(reward)  # gone for what this request still shows, not only at rollback
            await self.session.flush()
            raise UpstreamError(error.words) from None
        details = {"provider": item.source, "coupon": coupon, "feedback_id": str(item.id)}
        audit(self.session, self.project.org_id, "feedback.rewarded", "feedback", item.id, details)
        await record_events(self.session, self.project.org_id, [feedback_rewarded(item, reward)])
        return reward

    async def _claim(self, item: FeedbackItem, coupon: str) -> FeedbackReward:
        """The item's reward row, new; 409 when it has one (of two racing requests, one gets it, the other
        waits on the unique key and then gets 409)."""
        dialect = postgresql if self.session.get_bind().dialect.name == "postgresql" else sqlite
        table = FeedbackReward.__table__
        now = utc_now()
        statement = (
            dialect.insert(table)
            .values(
                id=uuid7(),
                feedback_id=item.id,
                project_id=self.project.id,
                provider=item.source,
                coupon=coupon,
                applied_by=current_actor.get(),
                created_at=now,
                updated_at=now,
            )
            .on_conflict_do_nothing(index_elements=[table.c.feedback_id])
            .returning(table.c.id)
        )
        claimed = (await self.session.execute(statement)).scalar()
        if claimed is None:
            raise Conflict("this customer was thanked with a discount already")
        return await self.session.get_one(FeedbackReward, claimed)

    async def _api_key(self, source: str, coupon: str) -> str:
        """The integration's key, once the coupon has the shape of the platform's ids."""
        model: type[StripeIntegration] | type[PolarIntegration]
        if source == FeedbackSource.STRIPE:
            if not STRIPE_COUPON.fullmatch(coupon):
                raise InvalidRequest("coupon", "must be a Stripe coupon id (letters, digits, _ and -)")
            model = StripeIntegration
        else:
            try:
                UUID(coupon)
            except ValueError:
                raise InvalidRequest("coupon", "must be the id of a Polar discount (a UUID)") from None
            model = PolarIntegration
        integration = await self.session.scalar(select(model).where(model.project_id == self.project.id))
        sealed = integration.sealed_api_key if integration is not None else None
        api_key = self.box.open(sealed) if sealed else None
        if api_key is None:
            raise InvalidRequest(
                "api_key", f"save a {source} API key on the project's {source} integration to apply discounts"
            )
        return api_key
