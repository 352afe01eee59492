"""A thank-you discount applied to the subscription of the customer who left a feedback item.

One per item (the unique key): the row is written in the transaction that calls the billing platform,
so an item is never thanked twice, and a refused call leaves no row behind.
"""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class FeedbackReward(UUIDv7AuditBase):
    __tablename__ = "feedback_rewards"

    feedback_id: Mapped[UUID] = mapped_column(
        ForeignKey("feedback_items.id", ondelete="CASCADE"), unique=True
    )
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    provider: Mapped[str] = mapped_column(String(16))
    """The item's billing source: "Stripe" or "Polar"."""
    coupon: Mapped[str] = mapped_column(String(255))
    """Stripe: the coupon id; Polar: the discount id."""
    applied_by: Mapped[str | None] = mapped_column(String(320), default=None)
