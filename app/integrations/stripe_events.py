"""Which Stripe events become feedback, and what the item says.

A subscription cancelled (`customer.subscription.deleted`) or set to end (`customer.subscription.updated`
with `cancel_at_period_end`) whose `cancellation_details` carry a comment or a feedback reason becomes
one item; every other event, and a cancellation without either, is acknowledged and stored nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from app.integrations.imported_fields import (
    external_id,
    message_text,
    metadata_of,
    reason_sentence,
    submitter,
)

DELETED = "customer.subscription.deleted"
UPDATED = "customer.subscription.updated"


@dataclass(frozen=True, slots=True)
class CancellationFeedback:
    event_id: str
    message: str
    submitted_by: str | None
    metadata: dict[str, str | int | float | bool] | None


def cancellation_feedback(body: bytes) -> CancellationFeedback | None:
    """The feedback an event body carries, or None (not JSON, another event, nothing said)."""
    try:
        event = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError):  # the receiver refuses deep nesting before this
        return None
    if not isinstance(event, dict) or (event_id := external_id(event.get("id"))) is None:
        return None
    subscription = _object(_object(event.get("data")).get("object"))
    if event.get("type") == UPDATED and subscription.get("cancel_at_period_end") is not True:
        return None
    if event.get("type") not in (DELETED, UPDATED):
        return None
    details = _object(subscription.get("cancellation_details"))
    feedback = details.get("feedback") if isinstance(details.get("feedback"), str) else None
    message = message_text(details.get("comment")) or reason_sentence(feedback)
    if message is None:
        return None
    customer = _customer_id(subscription.get("customer"))
    return CancellationFeedback(
        event_id=event_id,
        message=message,
        submitted_by=submitter(customer),
        metadata=metadata_of(
            {
                "stripe_event_id": event_id,
                "stripe_customer": customer,
                "stripe_subscription": subscription.get("id"),
                "cancellation_feedback": feedback,
                "cancellation_reason": details.get("reason"),
            }
        ),
    )


def _customer_id(customer: object) -> str | None:
    """The customer's id, whether the event carries it as an id or as an expanded object."""
    if isinstance(customer, dict):
        customer = customer.get("id")
    return customer if isinstance(customer, str) else None


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
