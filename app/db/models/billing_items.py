"""Which feedback items are cancellations from a billing platform, and what of them the churn view reads.

Stripe's and Polar's imports keep the customer's reason code under the same metadata key (both
platforms use the same codes: too_expensive, missing_features, ...) and the subscription under their
own.
"""

from __future__ import annotations

from typing import Any

from app.db.models.feedback_item import FeedbackItem, FeedbackSource

BILLING_SOURCES = (FeedbackSource.STRIPE.value, FeedbackSource.POLAR.value)
NO_REASON = "not_given"
"""The reason of a cancellation whose customer gave a comment but no reason."""
SUBSCRIPTION_KEYS = {
    FeedbackSource.STRIPE.value: "stripe_subscription",
    FeedbackSource.POLAR.value: "polar_subscription",
}


def reason_of(metadata: dict[str, Any] | None) -> str:
    reason = (metadata or {}).get("cancellation_feedback")
    return reason if isinstance(reason, str) and reason else NO_REASON


def subscription_of(item: FeedbackItem | Any) -> str | None:
    """The cancelled subscription's id at the item's platform, or None (not a billing item)."""
    key = SUBSCRIPTION_KEYS.get(item.source)
    value = (item.custom_data or {}).get(key) if key else None
    return value if isinstance(value, str) and value else None
