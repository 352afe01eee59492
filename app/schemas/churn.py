"""Bodies of the churn view and of thank-you discounts."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from app.db.models import FeedbackItem, FeedbackReward
from app.db.models.billing_items import reason_of, subscription_of
from app.timestamps import iso_z


class RewardBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/feedback/{feedback_id}/rewards. `coupon` is required: missing is refused
    (400) once the item is found, so another project's item id is 404 whatever the body."""

    coupon: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=1,
                max_length=255,
                description="Stripe: the id of a coupon of the team's Stripe account; Polar: the id of a "
                "discount of the team's Polar organization.",
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


class RewardOut(msgspec.Struct):
    provider: str
    """"Stripe" or "Polar"."""
    coupon: str
    applied_at: str

    @classmethod
    def of(cls, reward: FeedbackReward) -> RewardOut:
        return cls(provider=reward.provider, coupon=reward.coupon, applied_at=iso_z(reward.created_at))


class MonthOut(msgspec.Struct):
    month: str
    """YYYY-MM, UTC."""
    cancellations: int
    change: int | None
    """Cancellations minus those of the month before; null for the window's first month."""


class ChurnThemeOut(msgspec.Struct):
    id: str
    label: str
    keywords: list[str]
    cancellations: int
    """Cancellations of the window whose comment belongs to the theme."""


class CancellationOut(msgspec.Struct):
    id: str
    """The feedback item's id."""
    source: str
    reason: str
    """The reason code the customer chose (too_expensive, missing_features, ...), or not_given."""
    message: str
    customer: str | None
    """The customer's id at Stripe or Polar."""
    created_at: str
    reward: RewardOut | None
    """The thank-you discount applied, if any."""

    @classmethod
    def of(cls, item: FeedbackItem, reward: FeedbackReward | None) -> CancellationOut:
        return cls(
            id=str(item.id),
            source=item.source,
            reason=reason_of(item.custom_data),
            message=item.message,
            customer=item.submitted_by,
            created_at=iso_z(item.created_at),
            reward=RewardOut.of(reward) if reward is not None else None,
        )


class ChurnOut(msgspec.Struct):
    since: str
    until: str
    cancellations: int
    by_reason: dict[str, int]
    """Reason code → cancellations, most frequent first."""
    by_month: list[MonthOut]
    themes: list[ChurnThemeOut]
    """What the comments say, grouped by meaning; empty while insights are off."""
    recent: list[CancellationOut]
    """The newest cancellations of the window, up to 10."""


class ChurnExportOut(msgspec.Struct):
    """A cancellation as the churn export writes it."""

    id: str
    created_at: str
    source: str
    reason: str
    message: str
    customer: str | None
    subscription: str | None
    status: str
    reward_coupon: str | None
    rewarded_at: str | None

    @classmethod
    def of(cls, row: Any) -> ChurnExportOut:
        return cls(
            id=str(row.id),
            created_at=iso_z(row.created_at),
            source=row.source,
            reason=reason_of(row.custom_data),
            message=row.message,
            customer=row.submitted_by,
            subscription=subscription_of(row),
            status=row.status,
            reward_coupon=row.reward_coupon,
            rewarded_at=iso_z(row.rewarded_at) if row.rewarded_at else None,
        )
